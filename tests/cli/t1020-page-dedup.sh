#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Identical pages are stored once: a full page bound for a cblock that
# equals a page stored before (in another file or the same one) points its
# node at that page's cnode or banode.  The image still extracts to the
# source, fsck --deep finds it clean, the 2008 driver reads it
# (seedread.py), and tails are never shared.
. "$(dirname "$0")/lib.sh"

# page N of FILE: the location part of `axfs dump --pages`
loc() {
	"$AXFS" dump --pages "$1" | awk -v f="$2" -v p="page $3:" '
		/^[-dlcbps]/ { cur = $NF }
		cur == f && index($0, "    " p) == 1 { sub(/.*: node [0-9]+ /, ""); print }'
}

test_expect_success 'setup: files that repeat pages of each other and of themselves' '
	mkdir -p tree/bin tree/etc &&
	head -c 4096 /dev/urandom >r0 && head -c 4096 /dev/urandom >r1 &&
	head -c 4096 /dev/urandom >r2 && head -c 4096 /dev/urandom >r3 &&
	seq 1 5000 | head -c 4096 >t0 && seq 7 9000 | head -c 4096 >t1 &&
	seq 3 4000 | head -c 4096 >t2 &&
	{ cat r0 r1 r2; printf "end of a"; } >tree/bin/a &&
	{ cat r1 r3 r0; printf "end of b"; } >tree/bin/b &&
	{ cat t0 t1; printf "end of c"; } >tree/etc/c &&
	{ cat t2 t1; printf "end of d"; } >tree/etc/d &&
	{ head -c 16384 /dev/zero; printf x; } >tree/etc/zeros &&
	head -c 100 r0 >tree/etc/tail-of-r0 &&
	"$AXFS" mkfs -q tree -o img.axfs
'

test_expect_success 'a repeated page of another file shares its place (byte-aligned)' '
	test -n "$(loc img.axfs /bin/a 1)" &&
	test "$(loc img.axfs /bin/b 0)" = "$(loc img.axfs /bin/a 1)" &&
	test "$(loc img.axfs /bin/b 2)" = "$(loc img.axfs /bin/a 0)" &&
	test "$(loc img.axfs /bin/b 1)" != "$(loc img.axfs /bin/a 2)"
'

test_expect_success 'a repeated compressed page shares its cnode' '
	loc img.axfs /etc/d 1 | grep -q "^compressed" &&
	test "$(loc img.axfs /etc/d 1)" = "$(loc img.axfs /etc/c 1)" &&
	test "$(loc img.axfs /etc/d 0)" != "$(loc img.axfs /etc/c 0)"
'

test_expect_success 'repeated pages inside one file share too; a tail never does' '
	z0=$(loc img.axfs /etc/zeros 0) &&
	test "$(loc img.axfs /etc/zeros 1)" = "$z0" &&
	test "$(loc img.axfs /etc/zeros 3)" = "$z0" &&
	test "$(loc img.axfs /etc/zeros 4)" != "$z0" &&
	test "$(loc img.axfs /etc/tail-of-r0 0)" != "$(loc img.axfs /bin/a 0)"
'

test_expect_success 'the image extracts to the source and fsck --deep finds nothing' '
	"$AXFS" fsck --deep img.axfs >fsck.out 2>&1 &&
	! grep -E "warning|error|notice" fsck.out &&
	"$AXFS" extract -q img.axfs out && diff -r tree out
'

test_expect_success 'the 2008 driver reads every file (seedread)' '
	seedread compare img.axfs tree
'

# With 4 KiB cblocks deflate cannot find a repeated page in its window:
# only sharing saves its bytes.
test_expect_success 'it saves the bytes of the repeated pages' '
	mkdir -p fresh && cp -R tree/. fresh/ &&
	{ head -c 4096 /dev/urandom; cat r3;
	  head -c 4096 /dev/urandom; printf "end of b"; } >fresh/bin/b &&
	"$AXFS" mkfs -q -b 4KiB tree -o b4.axfs &&
	"$AXFS" mkfs -q -b 4KiB fresh -o fresh.axfs &&
	test $(($(wc -c <fresh.axfs) - $(wc -c <b4.axfs))) -ge 8192
'

test_expect_success 'the report names the shared pages' '
	"$AXFS" mkfs -q --report report.txt tree -o r.axfs &&
	cmp img.axfs r.axfs &&
	grep "/bin/b" report.txt | grep -q "dedup:2" &&
	grep "/etc/zeros" report.txt | grep -q "dedup:3"
'

test_expect_success 'the same bytes for every -j, and from a tarball' '
	for j in 1 2 3; do
		"$AXFS" mkfs -q -j $j tree -o j$j.axfs && cmp img.axfs j$j.axfs ||
			return 1
	done &&
	tar -C tree -cf tree.tar . &&
	"$AXFS" mkfs -q tree.tar -o tar.axfs &&
	test "$(loc tar.axfs /bin/b 0)" = "$(loc tar.axfs /bin/a 1)" &&
	"$AXFS" extract -q tar.axfs out-tar && diff -r tree out-tar
'

test_done
