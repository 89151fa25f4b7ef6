#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Every source and documentation file names its licence: an
# "SPDX-License-Identifier:" line in its first 5 lines, or (for files whose
# syntax has no comments) an annotation in REUSE.toml.  The licence fits
# the directory (kernel/ GPL-2.0-only, libaxfsimg/ and include/axfs/ LGPL-2.1-or-later,
# cmd/ GPL-2.0-or-later), and every licence named has its text in
# LICENSES/.  LICENSES/ itself, binary fixtures (files holding a NUL byte)
# and empty files are not checked.
. "$(dirname "$0")/lib.sh"

top=$AXFS_TOP

# The files of the project: tracked plus new (untracked, not ignored) when
# this is a git checkout; otherwise (a tarball) every file but build output.
list_files() {
	if git -C "$top" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
		{ git -C "$top" ls-files; git -C "$top" ls-files --others --exclude-standard; } | sort -u
	else
		(cd "$top" && find . -path ./.git -prune -o -path './build' -prune \
			-o -path './build-*' -prune -o -type f -print | sed 's|^\./||' | sort)
	fi
}

# REUSE.toml annotations as "glob<TAB>licence" lines (a small reader for
# the subset we use: path = "x" or path = [ "x", ... ], one licence each).
reuse_globs() {
	[ -f "$top/REUSE.toml" ] || return 0
	awk '
	function flush(  i) { if (lic != "") for (i = 1; i <= np; i++) print paths[i] "\t" lic; np = 0; lic = "" }
	/^\[\[annotations\]\]/ { flush(); inpath = 0; next }
	/^[ \t]*path[ \t]*=/ { inpath = ($0 ~ /\[/ && $0 !~ /\]/) }
	/^[ \t]*path[ \t]*=/ || inpath {
		line = $0; sub(/^[ \t]*path[ \t]*=/, "", line)
		while (match(line, /"[^"]*"/)) { paths[++np] = substr(line, RSTART + 1, RLENGTH - 2); line = substr(line, RSTART + RLENGTH) }
		if ($0 ~ /\]/) inpath = 0
		next
	}
	/^[ \t]*SPDX-License-Identifier[ \t]*=/ { l = $0; sub(/^[^"]*"/, "", l); sub(/".*/, "", l); lic = l }
	END { flush() }' "$top/REUSE.toml"
}

# The SPDX expression a file declares ("" if none), from its first 5 lines.
spdx_of() {
	head -n 5 "$1" | sed -n 's/.*SPDX-License-Identifier:[ \t]*//p' | head -n 1 |
		sed 's/[ \t]*\(\*\/\|-->\|\\"\)*[ \t]*$//'
}

# The licence an annotation gives to path $1 ("" if none).
reuse_license_of() {
	while IFS='	' read -r glob lic; do
		pat=$(printf '%s' "$glob" | sed 's/\*\*/*/g')
		# shellcheck disable=SC2254
		case $1 in $pat) printf '%s\n' "$lic"; return 0 ;; esac
	done <"$TRASH/reuse"
	return 0
}

list_files >"$TRASH/files"
reuse_globs >"$TRASH/reuse"

test_expect_success 'the project has files to check and REUSE.toml parses' '
	test "$(wc -l <"$TRASH/files")" -gt 20 &&
	grep -q "	GPL-2.0-or-later$" "$TRASH/reuse"
'

# One pass over the files; problems are collected in $TRASH/missing,
# $TRASH/wrongdir and the licences named in $TRASH/ids.
: >"$TRASH/missing"; : >"$TRASH/wrongdir"; : >"$TRASH/ids"; : >"$TRASH/checked"
while IFS= read -r f; do
	p=$top/$f
	[ -f "$p" ] && [ ! -L "$p" ] && [ -s "$p" ] || continue
	case $f in LICENSES/*) continue ;; esac
	# Binary fixtures (a NUL byte) cannot hold a comment.
	if tr -d '\000' <"$p" | cmp -s - "$p"; then :; else continue; fi
	expr=$(spdx_of "$p")
	[ -n "$expr" ] || expr=$(reuse_license_of "$f")
	if [ -z "$expr" ]; then
		echo "$f" >>"$TRASH/missing"
		continue
	fi
	echo "$f" >>"$TRASH/checked"
	printf '%s\n' "$expr" | tr ' ()' '\n\n\n' | grep -v -x -e '' -e AND -e OR -e WITH >>"$TRASH/ids"
	case $f in
	kernel/*) want=GPL-2.0-only ;;
	libaxfsimg/* | include/axfs/*) want=LGPL-2.1-or-later ;;
	cmd/*) want=GPL-2.0-or-later ;;
	*) want= ;;
	esac
	if [ -n "$want" ]; then
		case " $expr " in
		*" $want "*) ;;
		*) echo "$f: '$expr', expected $want" >>"$TRASH/wrongdir" ;;
		esac
	fi
done <"$TRASH/files"

test_expect_success 'every source and documentation file has an SPDX line' '
	echo "files without a licence (add an SPDX-License-Identifier line, or an annotation in REUSE.toml):" &&
	cat "$TRASH/missing" &&
	test "$(wc -l <"$TRASH/checked")" -gt 20 &&
	! test -s "$TRASH/missing"
'

test_expect_success 'kernel/ is GPL-2.0-only, libaxfsimg/ and include/axfs/ LGPL-2.1-or-later, cmd/ GPL-2.0-or-later' '
	cat "$TRASH/wrongdir" &&
	! test -s "$TRASH/wrongdir"
'

test_expect_success 'every licence named has its full text in LICENSES/' '
	sort -u "$TRASH/ids" >"$TRASH/ids.u" &&
	test -s "$TRASH/ids.u" &&
	bad=0 &&
	while read -r id; do
		if ! test -s "$top/LICENSES/$id.txt"; then
			echo "LICENSES/$id.txt is missing"; bad=1
		fi
	done <"$TRASH/ids.u" &&
	test $bad = 0
'

test_expect_success 'the LICENSES/ files name their licence and hold its text' '
	for id in GPL-2.0-only GPL-2.0-or-later LGPL-2.1-or-later; do
		f=$top/LICENSES/$id.txt &&
		grep -q "^Valid-License-Identifier: $id\$" "$f" &&
		grep -q "^License-Text:" "$f" || return 1
	done &&
	grep -q "GNU GENERAL PUBLIC LICENSE" "$top/LICENSES/GPL-2.0-only.txt" &&
	grep -q "Version 2, June 1991" "$top/LICENSES/GPL-2.0-or-later.txt" &&
	grep -q "GNU LESSER GENERAL PUBLIC LICENSE" "$top/LICENSES/LGPL-2.1-or-later.txt" &&
	grep -q "Version 2.1, February 1999" "$top/LICENSES/LGPL-2.1-or-later.txt" &&
	test "$(wc -l <"$top/LICENSES/GPL-2.0-only.txt")" -gt 300 &&
	test "$(wc -l <"$top/LICENSES/LGPL-2.1-or-later.txt")" -gt 450
'

test_expect_success 'the checker itself notices a file without a licence' '
	printf "int x;\n" >nolicence.c &&
	test -z "$(spdx_of nolicence.c)" &&
	printf "/* SPDX-License-Identifier: LGPL-2.1-or-later OR GPL-2.0-only */\n" >dual.h &&
	test "$(spdx_of dual.h)" = "LGPL-2.1-or-later OR GPL-2.0-only" &&
	printf ".\\\\\" SPDX-License-Identifier: GPL-2.0-or-later\n" >page.1 &&
	test "$(spdx_of page.1)" = "GPL-2.0-or-later" &&
	test "$(reuse_license_of examples/rootfs/etc/passwd)" = GPL-2.0-or-later &&
	test -z "$(reuse_license_of examples/rootfs/etc/fstab-not-annotated)"
'

# A pattern meant for build output (*.d, *.o, ...) must not hide a file
# of the project: the example tree's etc/init.d/ was once missing from
# every clone that way, and only CI noticed.
test_expect_success GIT 'no file of the project is hidden by .gitignore' '
	git -C "$top" ls-files --others --ignored --exclude-standard \
		--directory -- examples man cmd include libaxfsimg tests scripts \
		contrib LICENSES .ci >ignored &&
	{ test ! -s ignored || { cat ignored; false; }; } &&
	! git -C "$top" check-ignore -q --no-index \
		examples/rootfs/etc/init.d/rcS &&
	git -C "$top" check-ignore -q --no-index build/cmd/main.d
'

test_done
