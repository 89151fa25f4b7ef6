#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The kernel patch where the Buildroot and Yocto kernel routes take it:
# `make -C kernel patch` against Debian's newest linux-source (resolved at
# run time: the highest linux-source-X.Y of trixie-backports and sid,
# kernel/tests/fetch-source.sh) holds no compat layer, has a Signed-off-by,
# is clean for that kernel's checkpatch.pl --strict (0 errors, 0 warnings,
# on the patch and with -f on the files it adds) and kernel-doc -Wall,
# applies with git apply, and builds with W=1 and sparse (C=1) without a
# warning in fs/axfs for x86_64, arm64, armhf and riscv64, built in and as
# a module, with profiling and MTD and without them
# (kernel/tests/patch-build.sh; prepared build trees are kept under
# /var/cache/axfs-tools/kbuild).  Then the same for Debian 13's 6.12,
# whose patch keeps compat.h, on x86_64.
# Slow (tens of minutes the first time): check-all's packages suite only.
. "$(dirname "$0")/../cli/lib.sh"
. "$AXFS_TOP/tests/cli/lib-kbuild.sh"

top=$AXFS_TOP
unset MAKEFLAGS MFLAGS MAKELEVEL MAKEOVERRIDES

require_kbuild_tools gcc git python3 aarch64-linux-gnu-gcc arm-linux-gnueabihf-gcc \
	riscv64-linux-gnu-gcc

fetch() {
	sh "$top/kernel/tests/fetch-source.sh" "$1" 2>"fetch-$1.log" >"src-$1.env" ||
		{ tail -n 20 "fetch-$1.log"; return 1; }
}
NEWEST= NEWEST_LINE=newest OLDER= OLDER_LINE=6.12
fetch newest && . ./src-newest.env && NEWEST=$SRC && NEWEST_LINE=$LINE
test_lazy_prereq NEWEST_SOURCE 'test -f "$NEWEST/Makefile"'
test_require_prereq NEWEST_SOURCE "no Debian linux-source (fetch-source.sh newest failed)"

test_expect_success "the patch for $NEWEST_LINE holds no compat layer and is signed off" '
	make -s -C "$top/kernel" patch KSRC="$NEWEST" PATCH="$TRASH/axfs.patch" &&
	! grep -E "^\+\+\+ b/fs/axfs/(compat\.(h|mk)|probes/)" axfs.patch &&
	! grep -E "AXFS_HAVE_|axfs_backport|AXFS_[A-Z_]*_OP\(|compat\.h" axfs.patch &&
	grep -qx "Signed-off-by: $(sed -n "s/^Maintainer: //p" "$top/MAINTAINERS")" axfs.patch &&
	grep -qx "From: $(sed -n "s/^Maintainer: //p" "$top/MAINTAINERS")" axfs.patch
'

# checkpatch.pl LINE: 0 errors and 0 warnings, else the messages.
checkpatch_clean() {
	out=$(perl "$NEWEST/scripts/checkpatch.pl" --strict --no-tree --show-types --terse "$@" 2>&1)
	echo "$out" | grep -E "ERROR|WARNING" && return 1
	echo "$out" | grep -q "total: 0 errors, 0 warnings" || { echo "$out" | tail -n 5; return 1; }
}

test_expect_success "checkpatch.pl --strict of $NEWEST_LINE: 0 errors, 0 warnings on the patch" '
	checkpatch_clean axfs.patch
'

test_expect_success "the patch applies with git apply, carries the documentation and MAINTAINERS; checkpatch -f and kernel-doc -Wall clean on fs/axfs" '
	mkdir -p applied/fs applied/Documentation/filesystems applied/include/uapi/linux &&
	for f in fs/Kconfig fs/Makefile Documentation/filesystems/index.rst MAINTAINERS \
		 include/uapi/linux/magic.h; do
		cp "$NEWEST/$f" "applied/$f" || return 1
	done &&
	(cd applied && git apply --whitespace=error "$TRASH/axfs.patch") &&
	grep -qx "AXFS FILE SYSTEM" applied/MAINTAINERS &&
	grep -q "^#define AXFS_MAGIC[[:space:]]" applied/include/uapi/linux/magic.h &&
	grep -qx "   axfs" applied/Documentation/filesystems/index.rst &&
	cmp "$top/kernel/axfs.rst" applied/Documentation/filesystems/axfs.rst &&
	checkpatch_clean -f applied/fs/axfs/*.c applied/fs/axfs/*.h &&
	"$NEWEST/scripts/kernel-doc" -Wall -none applied/fs/axfs/*.c applied/fs/axfs/*.h >kdoc.log 2>&1 &&
	! test -s kdoc.log
'

# One line of patch-build.sh per build; its output is the test's.
build() {
	sh "$top/kernel/tests/patch-build.sh" "$@" >build.log 2>&1
	rc=$?
	cat build.log
	[ $rc = 0 ] && ! grep -q "^FAIL" build.log
}

for arch in x86_64 arm64 armhf riscv64; do
	variants="y m-noprof-nomtd"
	[ $arch = x86_64 ] && variants="y m m-noprof-nomtd"
	test_expect_success "$NEWEST_LINE $arch: fs/axfs builds with W=1 C=1 without a warning ($variants)" "
		build '$NEWEST' $arch $variants
	"
done

fetch trixie && . ./src-trixie.env && OLDER=$SRC && OLDER_LINE=$LINE
test_lazy_prereq TRIXIE_SOURCE 'test -f "$OLDER/Makefile"'
test_expect_success TRIXIE_SOURCE "$OLDER_LINE (compat.h kept) x86_64: builds with W=1 C=1 without a warning" '
	make -s -C "$top/kernel" patch KSRC="$OLDER" PATCH="$TRASH/older.patch" &&
	grep -q "^+++ b/fs/axfs/compat.h" older.patch &&
	build "$OLDER" x86_64 y m-noprof-nomtd
'

test_done
