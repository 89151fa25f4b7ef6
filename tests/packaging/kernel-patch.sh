#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# `make -C kernel patch` against a real kernel tree (Debian's
# linux-source-6.1, unpacked once by kernel/tests/linux-source.sh): the patch
# applies with patch -p1 and git apply, is the same bytes twice, and the
# patched tree, configured with defconfig + CONFIG_AXFS=y, builds
# fs/axfs/ into the kernel (built-in.a) with gcc-12 without a warning.
# Slow (minutes): run by `make check-packages`, not by `make check`.
. "$(dirname "$0")/../cli/lib.sh"
. "$AXFS_TOP/tests/cli/lib-kbuild.sh"

top=$AXFS_TOP
unset MAKEFLAGS MFLAGS MAKELEVEL MAKEOVERRIDES

require_kbuild_tools gcc-12 patch

src=$(sh "$top/kernel/tests/linux-source.sh" 6.1 2>unpack.log | sed -n 's/^SRC=//p')
[ -n "$src" ] || cat unpack.log
test_lazy_prereq LINUX_SOURCE 'test -f "$src/Makefile"'
test_require_prereq LINUX_SOURCE "no Debian linux-source-6.1 tree (kernel/tests/linux-source.sh: $(tail -n 1 unpack.log))"

test_expect_success 'make -C kernel patch makes the same patch twice against the tree' '
	make -s -C "$top/kernel" patch KSRC="$src" PATCH="$TRASH/axfs.patch" &&
	make -s -C "$top/kernel" patch KSRC="$src" PATCH="$TRASH/again.patch" &&
	cmp axfs.patch again.patch &&
	grep -q "^+++ b/fs/axfs/axfs_fs.h" axfs.patch &&
	grep -q "^+++ b/fs/axfs/Kconfig" axfs.patch &&
	grep -q "^+++ b/fs/axfs/Makefile" axfs.patch &&
	grep -q "^+source \"fs/axfs/Kconfig\"" axfs.patch &&
	grep -q "^+obj-\$(CONFIG_AXFS)" axfs.patch
'

test_expect_success 'the patch applies to the tree (patch -p1, git apply)' '
	cp -al "$src" linux &&
	(cd linux && git apply --check "$TRASH/axfs.patch" && patch -s -p1 <"$TRASH/axfs.patch") &&
	cmp "$top/include/axfs/axfs_fs.h" linux/fs/axfs/axfs_fs.h &&
	! grep -q axfs "$src/fs/Kconfig"
'

test_expect_success 'defconfig + CONFIG_AXFS=y builds fs/axfs/ into the kernel with gcc-12' '
	(cd linux && make -s O="$TRASH/kb" CC=gcc-12 defconfig &&
	 ./scripts/config --file "$TRASH/kb/.config" -e AXFS -e AXFS_PROFILING -e MTD &&
	 make -s O="$TRASH/kb" CC=gcc-12 olddefconfig) >config.log 2>&1 ||
		{ tail -n 20 config.log; false; } &&
	grep -qx CONFIG_AXFS=y kb/.config &&
	grep -qx CONFIG_AXFS_PROFILING=y kb/.config &&
	(cd linux && make O="$TRASH/kb" CC=gcc-12 -j2 fs/axfs/) >build.log 2>&1 ||
		{ tail -n 30 build.log; false; } &&
	! grep -i "warning:" build.log &&
	for o in super mount regions io inode dir file xip uncompress bdev physmem profiling mtd; do
		test -f kb/fs/axfs/$o.o || { echo "no $o.o"; return 1; }
	done &&
	test -f kb/fs/axfs/built-in.a
'

test_done
