# SPDX-License-Identifier: GPL-2.0-only
#
# hostile.sh - corrupted images (made by corrupt.py, listed in
# /corrupt/manifest) mounted from a loop device (all of them), from an MTD
# (mtdram, mapped with point(): all but the random ones) and from memory
# (physaddr=: the images qemu loaded at the addresses in $PHYS_CORRUPT).
# Sourced by boot2.sh, which boots with slub_debug so that a heap overflow
# shows in dmesg.
#
#   refuse        the mount must fail with an "axfs:" message
#   refuse-quiet  the mount must fail (mount(8) passes MS_SILENT, and a
#                 wrong magic is not worth a message while probing)
#   eio PATH      the mount must work and reading PATH give EIO
#   any           the mount may work or not
# In every case nothing may hang or crash: when the image mounts, every
# entry is stat'ed, read with read() and mmap(), its link read (probe walk).

hung() { [ "$1" -eq 124 ] || [ "$1" -eq 137 ] || [ "$1" -eq 143 ]; }

dmesg -c >/tmp/dmesg.before

hostile() {	# hostile BACKEND NAME EXPECT PATH SOURCE OPTIONS
	local how=$1 name=$2 expect=$3 path=$4 src=$5 opts=$6 rc
	local what="hostile/$how: $name"
	timeout 30 mount -t axfs ${opts:+-o "$opts"} "$src" /mnt/c >/tmp/h.out 2>&1
	rc=$?
	if hung $rc; then
		result fail "$what: mount hung"
		return
	fi
	if [ $rc -eq 0 ]; then
		timeout 60 probe walk /mnt/c >/tmp/h.walk 2>&1
		if hung $?; then
			result fail "$what: reading hung"
			return
		fi
	fi
	dmesg -c >/tmp/h.dmesg
	cat /tmp/h.dmesg >>/tmp/dmesg.hostile
	case $expect in
	refuse*)
		if [ $rc -eq 0 ]; then
			result fail "$what: mounted"
			umount /mnt/c
		elif [ $expect = refuse-quiet ]; then
			result ok "$what: refused"
		elif grep -q "axfs" /tmp/h.dmesg; then
			result ok "$what: refused with a message"
		else
			result fail "$what: refused without a message"
		fi
		;;
	eio)
		if [ $rc -ne 0 ]; then
			result fail "$what: mount failed"
			detail /tmp/h.dmesg
			return
		fi
		if cat "/mnt/c$path" >/dev/null 2>/tmp/h.err ||
		   ! grep -qi "i/o error\|input/output" /tmp/h.err; then
			result fail "$what: $path does not give EIO"
			detail /tmp/h.err
		else
			result ok "$what: mounted, EIO for $path"
		fi
		umount /mnt/c
		;;
	*)
		result ok "$what: no crash or hang ($([ $rc -eq 0 ] && echo "mounted, $(cat /tmp/h.walk)" || echo refused))"
		[ $rc -eq 0 ] && umount /mnt/c
		;;
	esac
}

mkdir -p /mnt/c
modprobe loop
while read -r name expect path; do
	losetup -r /dev/loop1 "/corrupt/$name.img"
	hostile loop "$name" "$expect" "${path:-}" /dev/loop1 ""
	losetup -d /dev/loop1
done </corrupt/manifest

# The targeted ones again from an MTD (mtdram: mapped with point()).
modprobe mtdram total_size=1024 erase_size=128
N=$(mtdnum "mtdram test device")
grep -v '^random' /corrupt/manifest | while read -r name expect path; do
	dd if="/corrupt/$name.img" of=/dev/mtd$N bs=4k 2>/dev/null
	hostile mtd "$name" "$expect" "${path:-}" mtd$N ""
done

# Some from memory, loaded by qemu at the addresses in $PHYS_CORRUPT.
for item in $PHYS_CORRUPT; do
	name=${item%%@*}
	addr=${item#*@}
	set -- $(grep "^$name " /corrupt/manifest)
	hostile physaddr "$name" "$2" "${3:-}" none "physaddr=$addr"
done
dmesg -c >>/tmp/dmesg.hostile
