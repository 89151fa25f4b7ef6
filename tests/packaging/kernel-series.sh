#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The patch series Linux would review (`make -C kernel series`) against
# Debian's newest linux-source (kernel/tests/fetch-source.sh newest): a
# cover letter and one patch per layer, each signed off, each clean for
# that kernel's checkpatch.pl --strict (0 errors, 0 warnings), adding up
# to the single patch (`make -C kernel patch`); applied one by one with
# git apply to a copy of the tree, fs/axfs builds with W=1 and sparse
# (C=1) after each patch without a warning (x86_64: the other
# architectures are kernel-newest.sh's, on the single patch), and
# coccicheck, with every semantic patch of the tree, reports nothing on
# fs/axfs (and those without a report mode make an empty patch)
# (kernel/tests/patch-build.sh --series; prepared build trees are kept
# under /var/cache/axfs-tools/kbuild).
# Slow (minutes): check-all's packages suite only.
. "$(dirname "$0")/../cli/lib.sh"
. "$AXFS_TOP/tests/cli/lib-kbuild.sh"

top=$AXFS_TOP
unset MAKEFLAGS MFLAGS MAKELEVEL MAKEOVERRIDES

# ocamlopt: coccicheck runs every semantic patch, two with OCaml rules.
require_kbuild_tools gcc git python3 spatch ocamlopt

NEWEST= NEWEST_LINE=newest
sh "$top/kernel/tests/fetch-source.sh" newest 2>fetch.log >src.env &&
	. ./src.env && NEWEST=$SRC && NEWEST_LINE=$LINE
test_lazy_prereq NEWEST_SOURCE 'test -f "$NEWEST/Makefile"'
test_require_prereq NEWEST_SOURCE "no Debian linux-source (fetch-source.sh newest failed: $(tail -n 3 fetch.log))"

maintainer=$(sed -n "s/^Maintainer: //p" "$top/MAINTAINERS")

test_expect_success "the series for $NEWEST_LINE: a cover letter and the patches of kernel/series.txt, each signed off" '
	make -s -C "$top/kernel" series KSRC="$NEWEST" O="$TRASH/series" &&
	test -f series/0000-cover-letter.patch &&
	! grep -q "\*\*\*" series/0000-cover-letter.patch &&
	n=$(grep -c "^Subject: " "$top/kernel/series.txt") &&
	test $(ls series/*.patch | wc -l) = $((n + 1)) &&
	for p in series/0*.patch; do
		grep -qx "Signed-off-by: $maintainer" "$p" || { echo "$p: no sign-off"; return 1; }
	done &&
	for p in series/000[1-9]-*.patch; do
		# A message: more than the subject and the sign-off.
		test $(sed -n "/^Subject:/,/^---$/p" "$p" | grep -c .) -ge 5 ||
			{ echo "$p: no commit message"; return 1; }
	done
'

test_expect_success "the series adds up to the single patch; no compat layer" '
	make -s -C "$top/kernel" patch KSRC="$NEWEST" PATCH="$TRASH/axfs.patch" &&
	mkdir -p one series-tree &&
	for d in one series-tree; do
		for f in fs/Kconfig fs/Makefile Documentation/filesystems/index.rst \
			 MAINTAINERS include/uapi/linux/magic.h; do
			mkdir -p "$d/$(dirname "$f")" && cp "$NEWEST/$f" "$d/$f" || return 1
		done
	done &&
	(cd one && git apply --whitespace=error "$TRASH/axfs.patch") &&
	for p in series/000[1-9]-*.patch; do
		(cd series-tree && git apply --whitespace=error "$TRASH/$p") || return 1
	done &&
	diff -r one series-tree &&
	! grep -E "compat\.h|AXFS_HAVE_|axfs_backport" series/*.patch &&
	grep -qx "+#define AXFS_MAGIC	*0x48A0E4CD" series/0001-*.patch &&
	! grep -q "^+#define AXFS_MAGIC" series-tree/fs/axfs/axfs_fs.h
'

# checkpatch.pl ARGS: 0 errors and 0 warnings, else the messages (--terse
# prints nothing at all for a patch with nothing to say).
checkpatch_clean() {
	out=$(perl "$NEWEST/scripts/checkpatch.pl" --strict --no-tree --show-types --terse "$@" 2>&1)
	echo "$out" | grep -E "ERROR|WARNING" && return 1
	[ -z "$out" ] || echo "$out" | grep -q "total: 0 errors, 0 warnings" ||
		{ echo "$out" | tail -n 5; return 1; }
}

# checkpatch cannot know that the MAINTAINERS entry of the first patch
# covers the files the later ones add (it asks "does MAINTAINERS need
# updating?" of every patch that adds a file and does not touch
# MAINTAINERS): the test checks that the entry covers each added file and
# has checkpatch leave out only that question, only after the first patch.
test_expect_success "checkpatch.pl --strict of $NEWEST_LINE: 0 errors, 0 warnings on every patch" '
	grep -q "^+++ b/MAINTAINERS" series/0001-*.patch &&
	files=$(sed -n "s/^+F:[[:space:]]*//p" series/0001-*.patch) &&
	for f in $(sed -n "s|^+++ b/||p" series/000[1-9]-*.patch | sort -u); do
		case $f in MAINTAINERS | fs/Kconfig | fs/Makefile | include/* | \
			   Documentation/filesystems/index.rst) continue ;; esac
		covered=
		for F in $files; do
			case $f in "$F"*) covered=1 ;; esac
		done
		test -n "$covered" || { echo "MAINTAINERS does not cover $f"; return 1; }
	done &&
	for p in series/000[1-9]-*.patch; do
		case $p in */0001-*) ignore= ;; *) ignore="--ignore FILE_PATH_CHANGES" ;; esac
		checkpatch_clean $ignore "$p" || { echo "in $p"; return 1; }
	done
'

test_expect_success "$NEWEST_LINE x86_64: each patch applied in turn, fs/axfs builds with W=1 C=1 without a warning; coccicheck with every semantic patch: 0 reports, an empty patch" '
	sh "$top/kernel/tests/patch-build.sh" --series "$TRASH/series" "$NEWEST" x86_64 y >build.log 2>&1
	rc=$?
	cat build.log
	[ $rc = 0 ] && ! grep -q "^FAIL" build.log &&
	test $(grep -c "^ok x86_64 " build.log) = $(ls series/000[1-9]-*.patch | wc -l) &&
	grep -q "^ok coccicheck .*none left out" build.log
'

test_done
