# SPDX-License-Identifier: GPL-2.0-only
#
# riscv64.sh - what the qemu tests need to know about 64-bit RISC-V
# (sourced by arch/fetch.sh, tests/lib.sh and tests/cross.sh; see
# arm64.sh).  Debian has riscv64 from 13 (trixie, 6.12) on.
KT_DEB_ARCH=riscv64
KT_SUITE=trixie
KT_FLAVOUR=riscv64
KT_KARCH=riscv
KT_CROSS=riscv64-linux-gnu-
KT_CROSS_PKG=gcc-riscv64-linux-gnu
KT_CROSS_LIBC=libc6-dev-riscv64-cross
KT_CROSS_PKG14=gcc-14-riscv64-linux-gnu
KT_ELF='RISC-V'
# qemu: the virt machine boots OpenSBI (qemu's own firmware, in Debian
# 12's qemu-system-data), which passes the device tree on to Linux.
KT_QEMU=qemu-system-riscv64
KT_QEMU_PKG=qemu-system-misc
KT_MACHINE="-M virt -cpu rv64 -smp 2 -m 1G -bios default"
KT_CONSOLE=ttyS0
# RAM: 1 GiB at 0x80000000 (OpenSBI in its first 512 KiB); the top
# 256 MiB reserved.
KT_PHYS_BASE=0xb0000000
KT_PHYS_SIZE=256M
KT_SYSRAM=0x90000000
KT_MODULES="virtio_pci virtio_blk loop mtd mtdblock chipreg map_ram"
KT_XBUILDS=
KT_IOMEM_RESERVED=yes			# /proc/iomem lists no-map reserved-memory
# XIP pages mapped with vmf_insert_mixed() count in a process's RSS only
# where the architecture has no special PTEs (32-bit ARM without LPAE).
KT_XIP_IN_RSS=0
KT_PHYS_ADDR_BITS=64			# sizeof(phys_addr_t) * 8
