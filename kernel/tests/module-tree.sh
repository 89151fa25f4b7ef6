#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# module-tree.sh - the module's sources (kernel/ and the format header it
# includes) copied into DIR/kernel and DIR/include/axfs, as they are laid
# out in this tree, for a build of axfs.ko beside the others: kbuild
# writes into the module's directory (axfs-probes.h, the objects), and
# the tests build for several kernels at once.  What an earlier build left
# in kernel/ (axfs-probes.h, *.mod.c) is not copied.
#
#   sh kernel/tests/module-tree.sh DIR        the module then builds in DIR/kernel
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
dir=${1:?usage: module-tree.sh DIR}
rm -rf "$dir/kernel"
mkdir -p "$dir/kernel" "$dir/include/axfs"
cp "$top"/kernel/*.c "$top"/kernel/*.h "$top"/kernel/Kbuild "$top"/kernel/compat.mk \
	"$top"/kernel/Makefile "$dir/kernel/"
cp -R "$top/kernel/probes" "$dir/kernel/"
rm -f "$dir/kernel/axfs-probes.h" "$dir/kernel"/*.mod.c
cp "$top/include/axfs/axfs_fs.h" "$dir/include/axfs/"
