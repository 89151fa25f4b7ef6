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

list_files >"$TRASH/files"
reuse_globs >"$TRASH/reuse"

test_expect_success 'the project has files to check and REUSE.toml parses' '
	test "$(wc -l <"$TRASH/files")" -gt 20 &&
	grep -q "	GPL-2.0-or-later$" "$TRASH/reuse"
'

# check_files TOP DIR: one pass over the files DIR/files lists (paths
# under TOP), in one process (a shell loop spawned about ten processes a
# file: 30 s of make check).  Writes DIR/exprs ("path<TAB>expression"),
# DIR/checked, DIR/missing, DIR/wrongdir and the licences named, DIR/ids.
# A file's SPDX expression comes from its first 5 lines, else from the
# first glob of DIR/reuse (REUSE.toml) matching its path ("**" as "*",
# which like a shell case pattern also matches "/").
check_files() {
	python3 - "$1" "$2" <<-\EOF
	import fnmatch, os, re, sys
	top, trash = sys.argv[1], sys.argv[2]
	globs = [l.rstrip("\n").split("\t", 1)
	         for l in open(os.path.join(trash, "reuse")) if "\t" in l]
	want_of = (("kernel/", "GPL-2.0-only"), ("libaxfsimg/", "LGPL-2.1-or-later"),
	           ("include/axfs/", "LGPL-2.1-or-later"), ("cmd/", "GPL-2.0-or-later"))
	out = {n: open(os.path.join(trash, n), "w")
	       for n in ("missing", "wrongdir", "ids", "checked", "exprs")}
	for f in open(os.path.join(trash, "files")).read().splitlines():
	    p = os.path.join(top, f)
	    if f.startswith("LICENSES/") or os.path.islink(p) or not os.path.isfile(p):
	        continue
	    data = open(p, "rb").read()
	    if not data or b"\0" in data:   # empty, or a binary fixture
	        continue
	    expr = ""
	    for line in data.split(b"\n")[:5]:
	        m = re.search(rb"SPDX-License-Identifier:[ \t]*(.*)", line)
	        if m:
	            expr = re.sub(r'[ \t]*(\*/|-->|\\")*[ \t]*$', "",
	                          m.group(1).decode("utf-8", "replace"))
	            break
	    if not expr:
	        for glob, lic in globs:
	            if fnmatch.fnmatchcase(f, glob.replace("**", "*")):
	                expr = lic
	                break
	    if not expr:
	        out["missing"].write(f + "\n")
	        continue
	    out["checked"].write(f + "\n")
	    out["exprs"].write("%s\t%s\n" % (f, expr))
	    for tok in re.split(r"[ ()]+", expr):
	        if tok and tok not in ("AND", "OR", "WITH"):
	            out["ids"].write(tok + "\n")
	    for prefix, want in want_of:
	        if f.startswith(prefix) and want not in expr.split():
	            out["wrongdir"].write("%s: '%s', expected %s\n" % (f, expr, want))
	EOF
}
check_files "$top" "$TRASH"

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
	mkdir -p self/examples/rootfs/etc &&
	printf "int x;\n" >self/nolicence.c &&
	printf "/* SPDX-License-Identifier: LGPL-2.1-or-later OR GPL-2.0-only */\n" >self/dual.h &&
	printf ".\\\\\" SPDX-License-Identifier: GPL-2.0-or-later\n" >self/page.1 &&
	printf "root:x:0:0::/root:/bin/sh\n" >self/examples/rootfs/etc/passwd &&
	printf "none\n" >self/examples/rootfs/etc/fstab-not-annotated &&
	printf "%s\n" nolicence.c dual.h page.1 examples/rootfs/etc/passwd \
		examples/rootfs/etc/fstab-not-annotated >self/files &&
	cp "$TRASH/reuse" self/reuse &&
	check_files "$PWD/self" self &&
	printf "%s\n" nolicence.c examples/rootfs/etc/fstab-not-annotated >expect &&
	test_cmp expect self/missing &&
	printf "%s\t%s\n" dual.h "LGPL-2.1-or-later OR GPL-2.0-only" \
		page.1 GPL-2.0-or-later \
		examples/rootfs/etc/passwd GPL-2.0-or-later >expect &&
	test_cmp expect self/exprs
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
