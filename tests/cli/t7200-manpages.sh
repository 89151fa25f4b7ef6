#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The man pages match the commands: the options a command's --help lists
# (printed from its option table in cmd/, the one place an option is
# declared) are the options its man page's OPTIONS section describes, no
# more and no fewer; every page renders with `man --warnings` without a
# warning, has a NAME line whatis(1) can read, and every page it refers to
# exists.  README.md links every page.
. "$(dirname "$0")/lib.sh"

top=$AXFS_TOP
man=$top/man

# command : its page
pages="mkfs:axfs-mkfs.1 dump:axfs-dump.1 extract:axfs-extract.1 fsck:axfs-fsck.8
	merge-profile:axfs-merge-profile.1 split:axfs-split.1
	diff:axfs-diff.1 cat:axfs-cat.1 ls:axfs-ls.1"
pages="$pages mount:axfs-mount.1"

# The text of a page's source with roff escapes for hyphens and fonts
# removed, so that "\-\-block\-size" reads "--block-size".
page_text() {
	sed -e 's/\\-/-/g' -e 's/\\f[BIRP]//g' -e 's/\\f(..//g' -e 's/\\&//g' -e 's/\\(en/-/g' "$1"
}

# The options of --help's rows: the names before the text ("-o, --output
# IMAGE", "    --uid N, --gid N"), not the options the texts mention.
help_options() {
	grep -E '^  (-[A-Za-z0-9]|    --[a-z])' |
		sed -E 's/^ +//; s/  .*//' |
		grep -oE -- '(^|[ ,])--?[A-Za-z0-9][-a-z0-9]*' |
		sed 's/^[ ,]*//' | sort -u
}

# The options the items of a page's OPTIONS section name: the line after
# each .TP there.
page_options() {
	page_text "$1" |
		sed -n '/^\.SH OPTIONS/,/^\.SH /{/^\.TP/{n;p}}' |
		grep -oE -- '(^|[ ,"])--?[A-Za-z0-9][-a-z0-9]*' |
		sed 's/^[ ,"]*//' | sort -u
}

for cp in $pages; do
	cmd=${cp%%:*}
	page=${cp#*:}
	test_expect_success "axfs $cmd: --help and $page list the same options" '
		test -f "$man/$page" &&
		"$AXFS" "$cmd" --help >help.txt &&
		help_options <help.txt >help.opts &&
		page_options "$man/$page" >page.opts &&
		test -s help.opts &&
		grep -qx -- --help help.opts &&
		if ! cmp -s help.opts page.opts; then
			comm -23 help.opts page.opts | sed "s/^/$page does not describe /"
			comm -13 help.opts page.opts | sed "s/^/axfs $cmd --help does not list /"
			false
		fi
	'
done

# axfs's own options (before the command) are a table too.
test_expect_success "axfs: --help and axfs.1 list the same options" '
	"$AXFS" --help >help.txt &&
	help_options <help.txt >help.opts &&
	page_options "$man/axfs.1" >page.opts &&
	grep -qx -- --version help.opts &&
	test_cmp help.opts page.opts
'

test_expect_success 'axfs(1) names every command, its aliases and environment' '
	page_text "$man/axfs.1" >page.txt &&
	"$AXFS" --help >help.txt &&
	bad=0 &&
	for c in $(sed -n "s/^   \([a-z][-a-z]*\)  .*/\1/p" help.txt); do
		grep -q "axfs-$c" page.txt || { echo "axfs.1 does not refer to axfs-$c"; bad=1; }
	done &&
	for w in mkfs.axfs fsck.axfs SOURCE_DATE_EPOCH TMPDIR NO_COLOR CI "EXIT STATUS"; do
		grep -q "$w" page.txt || { echo "axfs.1 does not mention $w"; bad=1; }
	done &&
	test $bad = 0
'

# The pages laid out as `make install` lays them out (man1/, man5/, man8/),
# so that the .so requests of the alias pages (mkfs.axfs.8, fsck.axfs.8)
# resolve as they do under /usr/share/man: man and lexgrog look for them
# from the cwd.
mt=$TRASH/mantree
make -s -C "$AXFS_TOP" B="${AXFS_BUILD:-build}" install-man DESTDIR="$mt" MANDIR= >/dev/null

# man-db and groff (make deps-tests installs them) render the pages.
for p in "$man"/*.[158]; do
	s=${p##*.}
	test_expect_success MAN "man --warnings renders $(basename "$p") without a warning" '
		(cd "$mt" && MANWIDTH=80 man --warnings -l -Tutf8 \
			"man$s/$(basename "$p")") >out.txt 2>err.txt &&
		cat err.txt &&
		! test -s err.txt &&
		test "$(wc -l <out.txt)" -gt 10
	'
done
test_expect_success MAN 'mkfs.axfs(8) and fsck.axfs(8) render the pages of axfs mkfs and axfs fsck' '
	cd "$mt" &&
	grep -qx "\.so man1/axfs-mkfs\.1" man8/mkfs.axfs.8 &&
	grep -qx "\.so man8/axfs-fsck\.8" man8/fsck.axfs.8 &&
	MANWIDTH=80 man -l -Tutf8 man8/mkfs.axfs.8 >"$TRASH/a1" 2>&1 &&
	MANWIDTH=80 man -l -Tutf8 man1/axfs-mkfs.1 >"$TRASH/b1" 2>&1 &&
	cmp "$TRASH/a1" "$TRASH/b1" &&
	grep -q "^AXFS-MKFS(1)" "$TRASH/a1" &&
	MANWIDTH=80 man -l -Tutf8 man8/fsck.axfs.8 >"$TRASH/a8" 2>&1 &&
	MANWIDTH=80 man -l -Tutf8 man8/axfs-fsck.8 >"$TRASH/b8" 2>&1 &&
	cmp "$TRASH/a8" "$TRASH/b8" &&
	grep -q "^AXFS-FSCK(8)" "$TRASH/a8"
'
test_lazy_prereq LEXGROG 'command -v lexgrog'
test_expect_success MAN,LEXGROG 'every page has a NAME line whatis(1) can parse' '
	cd "$mt" &&
	bad=0 &&
	for p in man?/*.[158]; do
		lexgrog "$p" >/dev/null 2>&1 || { echo "lexgrog cannot parse $p"; bad=1; }
	done &&
	test $bad = 0
'

test_expect_success 'every page the pages refer to exists' '
	cat "$man"/*.[158] | sed -e "s/\\\\-/-/g" |
		grep -oE "^\.BR +axfs[-a-z.]* +\([1-8]\)" |
		sed -E "s/^\.BR +([^ ]*) +\(([1-8])\)/\1.\2/" | sort -u >refs &&
	test -s refs &&
	bad=0 &&
	while read -r r; do
		test -f "$man/$r" || { echo "a page refers to missing $r"; bad=1; }
	done <refs &&
	test $bad = 0
'

test_expect_success 'every installed .so request names a page in its section directory' '
	grep -h "^\.so" "$mt"/man?/*.[158] >so &&
	test "$(wc -l <so)" -ge 2 &&
	! grep -h "^\.so" "$man"/*.[158] &&
	bad=0 &&
	while read -r so r; do
		case $r in
		man[158]/*.[158]) test "${r%%/*}" = "man${r##*.}" || { echo "wrong section: $r"; bad=1; } ;;
		*) echo "not manN/page.N: $r"; bad=1 ;;
		esac
		test -f "$man/${r#*/}" || { echo "missing .so target $r"; bad=1; }
	done <so &&
	test $bad = 0
'

# In the tree an alias page is a symbolic link to its page, so that
# `man -l man/mkfs.axfs.8` shows it before anything is installed.
test_expect_success MAN 'man -l man/mkfs.axfs.8 and man/fsck.axfs.8 work in the tree' '
	test "$(readlink "$man/mkfs.axfs.8")" = axfs-mkfs.1 &&
	test "$(readlink "$man/fsck.axfs.8")" = axfs-fsck.8 &&
	(cd "$AXFS_TOP" && MANWIDTH=80 man -l -Tutf8 man/mkfs.axfs.8) >t1 2>err &&
	! test -s err && grep -q "^AXFS-MKFS(1)" t1 &&
	(cd "$AXFS_TOP" && MANWIDTH=80 man -l -Tutf8 man/fsck.axfs.8) >t8 2>err &&
	! test -s err && grep -q "^AXFS-FSCK(8)" t8
'

test_expect_success 'the required pages exist' '
	for p in axfs.1 axfs-mkfs.1 axfs-dump.1 axfs-extract.1 axfs-fsck.8 \
		 axfs-merge-profile.1 axfs-split.1 axfs.5 axfs-policy.5 axfs-profile.5 \
		 mkfs.axfs.8 fsck.axfs.8; do
		test -f "$man/$p" || { echo "missing man/$p"; return 1; }
	done
'

# axfs(5) works through the image of a one-file tree byte by byte; the
# bytes mkfs writes must be the ones the page describes.
test_expect_success 'the EXAMPLE of axfs(5) is what axfs mkfs writes' '
	mkdir -p ex &&
	printf "hi!\\n" >ex/hello &&
	"$AXFS" mkfs -q ex -o ex.axfs &&
	test "$(wc -c <ex.axfs)" = 4096 &&
	at() { od -v -A n -t x1 -j "$1" -N "$2" ex.axfs | tr -d " \\n"; } &&
	test "$(at 0 4)" = 48a0e4cd &&
	test "$(at 984 7)" = 0068656c6c6f00 &&
	test "$(at 991 1)" = 02 &&
	test "$(at 1002 4)" = 41ed81a4 &&
	test "$(at 1006 4)" = 6869210a &&
	test "$(at 1010 3082 | tr -d 0)" = "" &&
	test "$(at 4092 4)" = 48a0e4cd &&
	test "$(at 60 4)" = 00010000 &&
	grep -q "^region at 1006, the 4 bytes" "$man/axfs.5"
'

test_expect_success 'README.md links every man page' '
	bad=0 &&
	for p in "$man"/*.[158]; do
		grep -q "man/$(basename "$p")" "$top/README.md" || { echo "README.md does not link man/$(basename "$p")"; bad=1; }
	done &&
	test $bad = 0
'

test_done
