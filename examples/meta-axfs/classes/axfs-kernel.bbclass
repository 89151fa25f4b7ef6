# SPDX-License-Identifier: GPL-2.0-or-later
#
# axfs-kernel.bbclass - builds the AXFS driver into a kernel, as a kernel
# that mounts an AXFS root filesystem needs.  In a bbappend of your kernel
# recipe (for example recipes-kernel/linux/linux-yocto_%.bbappend):
#
#   inherit axfs-kernel
#
# After do_patch, kernel/scripts/mkpatch.sh --tree adds fs/axfs (the
# driver's sources, Kconfig, Makefile and a copy of the one format header)
# to ${S} and hooks it into fs/Kconfig and fs/Makefile; the configuration
# fragment axfs.cfg (CONFIG_AXFS=y) is merged by kernel-yocto kernels; for
# other kernels, set CONFIG_AXFS=y in their defconfig.
#
#   AXFS_SOURCE_TREE   the axfs-tools tree the driver comes from; by
#                      default the one this layer belongs to

AXFS_SOURCE_TREE ?= "${AXFS_LAYERDIR}/../.."

FILESEXTRAPATHS:prepend := "${AXFS_LAYERDIR}/recipes-kernel/linux/files:"
SRC_URI += "file://axfs.cfg"

axfs_kernel_add_fs() {
	sh ${AXFS_SOURCE_TREE}/kernel/scripts/mkpatch.sh --tree ${S}
}
do_patch[postfuncs] += "axfs_kernel_add_fs"
do_patch[file-checksums] += "${AXFS_SOURCE_TREE}/kernel/scripts/mkpatch.sh:True"
