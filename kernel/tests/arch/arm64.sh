# SPDX-License-Identifier: GPL-2.0-only
#
# arm64.sh - what the qemu tests need to know about arm64 (read by
# kt_load_arch, arch/load.sh, which sets what the architectures share and
# derives the cross-compiler packages; one file per architecture).
#
# Debian packages
KT_DEB_ARCH=arm64
KT_SUITE=bookworm			# default release of the kernel (6.1)
KT_FLAVOUR=arm64			# linux-image-FLAVOUR
KT_KARCH=arm64				# kbuild's ARCH=
KT_CROSS=aarch64-linux-gnu-		# cross compiler prefix
KT_ELF='ARM aarch64'			# what file(1) says of a module
# qemu: the virt machine with its own device tree (dumped, plus a
# reserved-memory node: lib.sh kt_dtb) and the console it has.
KT_QEMU=qemu-system-aarch64
KT_QEMU_PKG=qemu-system-arm
KT_MACHINE="-M virt -cpu ${KT_CPU:-cortex-a57} -smp 2 -m 1G"
KT_CONSOLE=ttyAMA0
# RAM: 1 GiB at 0x40000000; the top 256 MiB reserved for physaddr=.
KT_PHYS_BASE=0x70000000
KT_SYSRAM=0x41000000			# an address in System RAM
# Also cross-built (not booted) by cross.sh: SUITE:FLAVOUR; against the
# kernel with 16 KiB pages the build must stop (AXFS needs 4 KiB pages).
KT_XBUILDS="trixie-backports:arm64 trixie-backports:arm64-16k"
