# SPDX-License-Identifier: GPL-2.0-only
# shellcheck shell=sh
#
# load.sh - kt_load_arch DIR ARCH: the facts about ARCH that the qemu tests
# use (sourced by arch/fetch.sh and tests/lib.sh).  What every architecture
# shares is set here, then DIR/ARCH.sh sets its own and overrides the rest;
# the Debian cross-compiler packages follow from its KT_CROSS and
# KT_DEB_ARCH.
kt_load_arch() {
	# RAM reserved for physaddr=: 256 MiB (ARCH.sh says where).
	KT_PHYS_SIZE=256M
	# Modules the guest loads.  Debian's kernels of these architectures
	# build no mtdram, phram or block2mtd: ramflash.ko (map_ram over
	# reserved memory) stands in.
	KT_MODULES="virtio_pci virtio_blk loop mtd mtdblock chipreg map_ram"
	KT_XBUILDS=			# SUITE:FLAVOUR also cross-built, not booted
	KT_IOMEM_RESERVED=yes		# /proc/iomem lists no-map reserved-memory
	# XIP pages mapped with vmf_insert_mixed() count in a process's RSS
	# only where the architecture has no special PTEs (32-bit ARM without
	# LPAE).
	KT_XIP_IN_RSS=0
	KT_PHYS_ADDR_BITS=64		# sizeof(phys_addr_t) * 8
	# shellcheck disable=SC1090
	. "$1/$2.sh"
	# Debian 12's cross compiler (gcc-12, 6.1) on the host, its C library
	# (for the static probe program), and the package that gives a trixie
	# build root gcc-14 for 6.12 and newer.
	KT_CROSS_PKG=gcc-${KT_CROSS%-}
	KT_CROSS_LIBC=libc6-dev-$KT_DEB_ARCH-cross
	KT_CROSS_PKG14=gcc-14-${KT_CROSS%-}
}
