# SPDX-License-Identifier: GPL-2.0-only
# shellcheck shell=sh
# rootfs.sh's facts about armhf (sourced; see amd64.sh for the names):
# Debian 12's 6.1 armmp kernel (arch/armhf.sh) under qemu-system-arm -M
# virt, the module cross-built, the image in RAM reserved by a no-map
# reserved-memory node at 0x70000000 (above lowmem).  /proc/iomem does
# not list that range on 32-bit ARM, so the root flags carry physsize=;
# and without special PTEs XIP pages count in RSS (both from
# arch/armhf.sh through virt.sh).
# shellcheck disable=SC1091
. "$KT_KERNEL/tests/rootfs/virt.sh"
