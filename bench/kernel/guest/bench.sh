# SPDX-License-Identifier: GPL-2.0-or-later
#
# bench.sh - guest side of bench/kernel/run.sh.  /data/config sets FS, one
# NAME|FSTYPE|SOURCE|MOUNT-OPTIONS|MEDIUM line per file system, and RAND;
# /data/progs lists the programs started cold.  With PROFILE=1: mount the
# first one, run the programs with AXFS profiling on and print the profile
# between AXFS-PROFILE markers; nothing is measured.  cramfs mounts are
# also compared with the source tree and checked for XIP (cramfs.sh).
. /data/config
. /tests/cramfs.sh
for m in axfs crc32c_generic squashfs erofs cramfs virtio_pci virtio_blk; do modprobe $m 2>/dev/null; done
mkdir -p /mnt/b

drop() {
	sync
	echo 3 >/proc/sys/vm/drop_caches
	sleep 1		# RCU-deferred frees of what was dropped
}
# Page cache and free RAM (MemFree plus the per-CPU free lists, which
# MemFree leaves out), in KiB.
meminfo() {
	echo 1 >/proc/sys/vm/stat_refresh 2>/dev/null
	awk '/^(MemFree|Cached):/ { sub(":", "", $1); printf "%s=%s ", $1, $2 }' /proc/meminfo
	awk '$1 == "count:" { n += $2 } END { printf "PcpFree=%d", n * 4 }' /proc/zoneinfo
}
progs() {	# progs NAME: each program once, in order, from the mount
	while read -r line; do
		# shellcheck disable=SC2086
		# chroot (the initramfs's busybox) costs every row the same.
		t=$(probe first-output /bin/chroot /mnt/b $line)
		echo "BENCH $1 prog $t status=$? $line"
	done </data/progs
}
phram_add() {	# phram_add NAME ADDR,SIZE: one more phram MTD
	if [ -d /sys/module/phram ]; then
		echo "$1,$2" >/sys/module/phram/parameters/phram
	else
		modprobe phram phram=$1,$2
	fi
}
# SOURCE: a device, phram:ADDR,SIZE (-> mtdblock), mtd-phram:ADDR,SIZE
# (-> mtd:NAME) or physmap:ADDR,SIZE (-> mtd:physmap-flash.0, cramfs.sh).
source_of() {	# source_of NAME SOURCE
	case $2 in
	phram:*)
		phram_add "$1" "${2#phram:}" && modprobe mtdblock || return 1
		n=$(awk -F'[: "]+' -v n="$1" '$0 ~ "\"" n "\"" { sub("mtd", "", $1); print $1 }' /proc/mtd)
		echo /dev/mtdblock$n ;;
	mtd-phram:*)
		phram_add "$1" "${2#mtd-phram:}" && echo "mtd:$1" ;;
	physmap:*)
		cramfs_source "$2" ;;
	*)	echo "$2" ;;
	esac
}

echo "$FS" | while IFS='|' read -r name fstype src opts medium; do
	dev=$(source_of "$name" "$src") &&
		mount -t "$fstype" -o "ro${opts:+,$opts}" "$dev" /mnt/b ||
		{ echo "BENCH $name error mount -t $fstype -o ro${opts:+,$opts} $dev: $(dmesg | tail -n 2 | tr "\n" " ")"; continue; }
	if [ "${PROFILE:-0}" = 1 ]; then
		echo on >/proc/axfs/volume0 && echo clear >/proc/axfs/volume0
		progs "$name" >/dev/null
		echo off >/proc/axfs/volume0
		echo "AXFS-PROFILE-BEGIN"
		cat /proc/axfs/volume0
		echo "AXFS-PROFILE-END"
		umount /mnt/b
		break
	fi
	[ "$fstype" = cramfs ] && cramfs_check "$name"
	drop
	echo "BENCH $name seq $(benchio seq /mnt/b)"
	drop
	echo "BENCH $name rand $(benchio rand "${RAND:-1000}" 1048576 /mnt/b)"
	drop
	echo "BENCH $name mem0 $(meminfo)"
	progs "$name"
	sleep 1
	echo "BENCH $name mem1 $(meminfo)"
	[ "$fstype" = cramfs ] && cramfs_xipmaps "$name" "$src"
	umount /mnt/b
done
