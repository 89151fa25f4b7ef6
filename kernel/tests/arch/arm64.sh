# SPDX-License-Identifier: GPL-2.0-only
#
# arm64.sh - what the qemu tests need to know about arm64 (sourced by
# arch/fetch.sh, tests/lib.sh and tests/cross.sh; one file per
# architecture, the same variables in each).
#
# Debian packages
KT_DEB_ARCH=arm64
KT_SUITE=bookworm			# default release of the kernel (6.1)
KT_FLAVOUR=arm64			# linux-image-FLAVOUR
# Cross compiler: Debian 12's (gcc-12, 6.1) on the host; the package
# that gives a trixie build root gcc-14 for 6.12 and newer.
KT_KARCH=arm64				# kbuild's ARCH=
KT_CROSS=aarch64-linux-gnu-
KT_CROSS_PKG=gcc-aarch64-linux-gnu
KT_CROSS_LIBC=libc6-dev-arm64-cross	# for the static probe program
KT_CROSS_PKG14=gcc-14-aarch64-linux-gnu
KT_ELF='ARM aarch64'			# what file(1) says of a module
# qemu: the virt machine with its own device tree (dumped, plus a
# reserved-memory node: lib.sh kt_dtb) and the console it has.
KT_QEMU=qemu-system-aarch64
KT_QEMU_PKG=qemu-system-arm
KT_MACHINE="-M virt -cpu ${KT_CPU:-cortex-a57} -smp 2 -m 1G"
KT_CONSOLE=ttyAMA0
# RAM: 1 GiB at 0x40000000; the top 256 MiB reserved for physaddr=.
KT_PHYS_BASE=0x70000000
KT_PHYS_SIZE=256M
KT_SYSRAM=0x41000000			# an address in System RAM
# Modules the guest loads.  Debian's arm64 kernels build no mtdram,
# phram or block2mtd: ramflash.ko (map_ram over reserved memory) stands in.
KT_MODULES="virtio_pci virtio_blk loop mtd mtdblock chipreg map_ram"
# Also cross-built (not booted) by cross.sh: SUITE:FLAVOUR; against the
# kernel with 16 KiB pages the build must stop (AXFS needs 4 KiB pages).
KT_XBUILDS="trixie-backports:arm64 trixie-backports:arm64-16k"
KT_IOMEM_RESERVED=yes			# /proc/iomem lists no-map reserved-memory
# XIP pages mapped with vmf_insert_mixed() count in a process's RSS only
# where the architecture has no special PTEs (32-bit ARM without LPAE).
KT_XIP_IN_RSS=0
KT_PHYS_ADDR_BITS=64			# sizeof(phys_addr_t) * 8
