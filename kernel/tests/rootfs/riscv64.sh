# SPDX-License-Identifier: GPL-2.0-only
# shellcheck shell=sh
# rootfs.sh's facts about riscv64 (sourced; see amd64.sh for the names):
# Debian 13's 6.12 kernel (arch/riscv64.sh) under qemu-system-riscv64 -M
# virt (OpenSBI), the module cross-built with gcc-14 in the trixie build
# root, the image in RAM reserved by a no-map reserved-memory node at
# 0xb0000000; the root tree from trixie's riscv64 packages.
# shellcheck disable=SC1091
. "$KT_KERNEL/tests/rootfs/virt.sh"
