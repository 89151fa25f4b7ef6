# SPDX-License-Identifier: GPL-2.0-or-later
SUMMARY = "AXFS filesystem driver (axfs.ko)"
DESCRIPTION = "The AXFS (Advanced XIP File System) driver of axfs-tools as \
an out-of-tree kernel module.  A kernel that mounts an AXFS root needs the \
driver built in instead: see classes/axfs-kernel.bbclass."
HOMEPAGE = "https://github.com/axfs-tools/axfs-tools"
SECTION = "kernel/modules"
LICENSE = "GPL-2.0-only"
LIC_FILES_CHKSUM = "file://LICENSES/GPL-2.0-only.txt;md5=5bf1c2a5c635ee0780d2ecb418b2fd8d"

require recipes-devtools/axfs-tools/axfs-tools-release.inc

inherit module

# kernel/Makefile builds against KDIR with the kernel's Kbuild; its Kbuild
# finds the format header in ../include/axfs of the same tree.
EXTRA_OEMAKE += "-C ${S}/kernel KDIR=${STAGING_KERNEL_DIR}"
MODULES_INSTALL_TARGET = "modules_install"

RPROVIDES:${PN} += "kernel-module-axfs"
