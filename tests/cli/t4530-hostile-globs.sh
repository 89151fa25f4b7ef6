#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Globs that cost more than they hold (issue 38 §3): one longer than any
# image path (PATH_MAX, 4096 bytes) or one too many (10,000) is refused,
# naming file:line:column, FILE:LINE or the option, before the tree is
# read; a glob given many times is compiled, tested and warned about once.
# Sizes are scaled down from the issue's (20,000 patterns, a 2 MiB glob, a
# 5 MB --exclude-from line): each case here is refused (or gives one
# warning) after the change and was taken whole before it.
. "$(dirname "$0")/lib.sh"

test_expect_success 'setup: a tree, and globs at and past the length limit' '
	mkdir -p tree/a/b tree/c && echo x >tree/a/b/f && echo y >tree/c/g &&
	cp /bin/true tree/c/true &&
	awk "BEGIN { g = \"/\"; for (i = 1; i < 4096; i++) g = g \"a\"; print g }" >g4096 &&
	awk "BEGIN { g = \"/\"; for (i = 1; i < 4097; i++) g = g \"a\"; print g }" >g4097 &&
	test $(wc -c <g4096) -eq 4097 && test $(wc -c <g4097) -eq 4098
'

# mkfs_fails STATUS MESSAGE ARGS...: refused with that status and message
# (one line), and no image left.
mkfs_fails() {
	want=$1 msg=$2
	shift 2
	rm -f out.axfs
	"$AXFS" mkfs "$@" -o out.axfs >out 2>err
	rc=$?
	if [ $rc -ne "$want" ]; then
		echo "exit status $rc, expected $want"; head -c 600 err; return 1
	fi
	if ! grep -qxF "axfs mkfs: $msg" err; then
		echo "expected: axfs mkfs: $msg"; echo "got:"; head -c 600 err; return 1
	fi
	test "$(wc -l <err)" -le 2 && test ! -e out.axfs
}

test_expect_success 'a policy glob longer than PATH_MAX is refused with file:line:column' '
	{ echo "xip:"; printf "  files: [\"/bin/sh\", \"%s\"]\n" "$(cat g4097)"; } >long.yaml &&
	mkfs_fails 8 "long.yaml:2:22: xip.files[1]: a glob of 4097 bytes: no image path is longer than 4096" \
		-c long.yaml tree &&
	{ echo "files:"; printf "  - {match: \"%s\", mode: \"0644\"}\n" "$(cat g4097)"; } >rule.yaml &&
	mkfs_fails 8 "rule.yaml:2:13: files[0].match: a glob of 4097 bytes: no image path is longer than 4096" \
		-c rule.yaml tree
'

test_expect_success 'a glob of exactly 4096 bytes is taken (and matches nothing)' '
	printf "exclude: \"%s\"\n" "$(cat g4096)" >ok.yaml &&
	"$AXFS" mkfs -c ok.yaml tree -o ok.axfs 2>err &&
	grep -c "^axfs mkfs: warning: ok.yaml:1:10: exclude\[0\]: '\''/aaaa" err >n &&
	test "$(cat n)" = 1
'

test_expect_success 'the 10,001st glob of a policy is refused where it stands' '
	awk "BEGIN { print \"exclude:\"; for (i = 0; i < 10001; i++) print \"  - /c/*.pm\" }" >many.yaml &&
	mkfs_fails 8 "many.yaml:10002:5: exclude[10000]: more than 10000 globs in one policy" \
		-c many.yaml tree &&
	awk "BEGIN { print \"files:\"; for (i = 0; i < 10001; i++) print \"  - {match: /c/g, mode: \\\"0600\\\"}\" }" >rules.yaml &&
	mkfs_fails 8 "rules.yaml:10002:13: files[10000].match: more than 10000 globs in one policy" \
		-c rules.yaml tree
'

test_expect_success 'an --exclude-from line longer than PATH_MAX names FILE:LINE, not the glob' '
	{ echo "/c/g"; cat g4097; } >long.lst &&
	mkfs_fails 8 "long.lst:2: a glob of 4097 bytes: no image path is longer than 4096" \
		--exclude-from long.lst tree
'

test_expect_success '--exclude and --xip longer than PATH_MAX are usage errors' '
	mkfs_fails 16 "--exclude: a glob of 4097 bytes: no image path is longer than 4096" \
		--exclude "$(cat g4097)" tree &&
	mkfs_fails 16 "--xip: a glob of 4097 bytes: no image path is longer than 4096" \
		--xip "$(cat g4097)" tree
'

test_expect_success 'the 10,001st --exclude glob is refused with its FILE:LINE' '
	awk "BEGIN { for (i = 0; i < 10001; i++) print \"/c/x\" i }" >many.lst &&
	mkfs_fails 8 "many.lst:10001: more than 10000 --exclude globs" \
		--exclude-from many.lst tree
'

test_expect_success 'a glob given 5,000 times is tested and warned about once' '
	awk "BEGIN { for (i = 0; i < 5000; i++) { print \"/nope/*\"; print \"/a/b\" } }" >dup.lst &&
	"$AXFS" mkfs --exclude-from dup.lst tree -o dup.axfs 2>err &&
	grep -c "matches nothing" err >n && test "$(cat n)" = 1 &&
	grep -xF "axfs mkfs: warning: dup.lst:1: '\''/nope/*'\'' matches nothing in the source" err &&
	"$AXFS" mkfs -q --exclude /a/b tree -o one.axfs &&
	cmp dup.axfs one.axfs &&
	rm -rf x && "$AXFS" extract dup.axfs x && test_path_is_missing x/a/b &&
	cmp x/c/g tree/c/g
'

test_expect_success 'policy rules and xip globs given many times act once, warn once' '
	awk "BEGIN { print \"xip: {files: [/c/true, /c/true, /nope, /nope]}\";
		print \"files:\"; for (i = 0; i < 3000; i++) print \"  - {match: /c/g, mode: \\\"0600\\\"}\";
		print \"  - {match: /c/g, mode: \\\"0640\\\"}\" }" >rep.yaml &&
	"$AXFS" mkfs -c rep.yaml tree -o rep.axfs 2>err &&
	grep -c "matches no regular file" err >n && test "$(cat n)" = 1 &&
	"$AXFS" ls -l rep.axfs /c/g >ls &&
	grep "^-rw-r-----" ls
'

test_done
