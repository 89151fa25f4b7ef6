# SPDX-License-Identifier: GPL-2.0-only
#
# riscv64.sh - what the qemu tests need to know about 64-bit RISC-V
# (read by arch/load.sh; see arm64.sh).  Debian has riscv64 from 13
# (trixie, 6.12) on.
KT_DEB_ARCH=riscv64
KT_SUITE=trixie
KT_FLAVOUR=riscv64
KT_KARCH=riscv
KT_CROSS=riscv64-linux-gnu-
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
KT_SYSRAM=0x90000000
