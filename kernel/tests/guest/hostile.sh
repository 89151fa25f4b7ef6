# SPDX-License-Identifier: GPL-2.0-only
#
# hostile.sh - corrupted images (made by corrupt.py, listed in
# /corrupt/manifest) mounted from a loop device (all of them), from an MTD
# (mtdram or $HOSTILE_MTD, mapped with point(): all but the random ones)
# and from memory (physaddr=: the images qemu loaded at the addresses in
# $PHYS_CORRUPT).  Sourced by boot2.sh, cross.sh (and boot1.sh with
# HOSTILE=1), which boot with
# slub_debug so that a heap overflow shows in dmesg.
#
#   refuse        the mount must fail with an "axfs:" message
#   refuse-quiet  the mount must fail (mount(8) passes MS_SILENT, and a
#                 wrong magic is not worth a message while probing)
#   eio PATH      the mount must work and reading PATH give EIO
#   any           the mount may work or not
# In every case nothing may hang or crash: when the image mounts, every
# entry is stat'ed, read with read() and mmap(), its link read.

# probe.c (probe hostile) does the work in one process: under software
# emulation every exec counts.
dmesg -c >/tmp/dmesg.before
mkdir -p /mnt/c
modprobe loop
probe hostile loop /corrupt/manifest
# The targeted ones again from an MTD that point()s: mtdram, or the one
# named by $HOSTILE_MTD (arm64: Debian builds no mtdram there).
if [ -z "${HOSTILE_MTD:-}" ]; then
	modprobe mtdram total_size=1024 erase_size=128
	HOSTILE_MTD="mtdram test device"
fi
probe hostile "mtd$(mtdnum "$HOSTILE_MTD")" /corrupt/manifest
# Some from memory, loaded by qemu at the addresses in $PHYS_CORRUPT.
# shellcheck disable=SC2086
probe hostile phys /corrupt/manifest $PHYS_CORRUPT
# A 3 GiB disk (sparse on the host) whose image claims 8 Mi inodes and a
# 2 GiB strings region, and a 1 GiB one claiming 380 MiB (less than a
# 512 MiB guest's RAM, more than it has free): every bound holds, so the
# mount allocates the region and must fail cleanly where the RAM is not
# there (no allocation warning, no OOM kill: the driver before this
# OOM-killed the mounting process on the second) or read it in bounded
# pieces where it is.  run.sh and cross.sh attach them (serials hugemeta,
# hugeram).
huge_refused() {	# huge_refused SERIAL DEVICE-SIZE REGION-SIZE
	local dev
	dev=$(disk "$1")
	refused "a $2 device ($dev) claiming a $3 metadata region: refused" \
		"axfs (${dev#/dev/}): " "$dev"
	dmesg_since | grep 'axfs (' | detail
	check "a $2 device claiming a $3 metadata region: no OOM kill" \
		sh -c '! dmesg | grep -q -i -E "out of memory|oom-kill|killed process"'
}
huge_refused hugemeta "3 GiB" "2 GiB"
huge_refused hugeram "1 GiB" "380 MiB"
dmesg -c >>/tmp/dmesg.hostile
