#!/bin/busybox sh
# shellcheck shell=dash
# SPDX-License-Identifier: GPL-2.0-or-later
# /sbin/init of bench/kernel/boot-order.sh's root trees: PID 1 on the root
# under test, freshly mounted (nothing of it cached).  Runs the fixed
# workload of kernel/tests/rootfs.sh (/etc/axfs-workload.sh: it prints
# ROOTFS-T first and end with the uptime), then, before any other program
# runs, reads with shell builtins only: the AXFS mount's counters
# (/sys/fs/axfs/S_ID/), the root device's sectors read (/sys/block/BLK/stat,
# bo.blk= on the command line) and /proc/meminfo; then the decompressor's
# kprobe events (guest/boot-order-initramfs) are counted and their time
# summed; with the root mounted with profile=, the profile is printed
# between AXFS-PROFILE markers (volume0.order when the driver has it).
export PATH=/usr/sbin:/usr/bin:/sbin:/bin
bb=/bin/busybox
$bb mount -t proc proc /proc
$bb mount -t sysfs sysfs /sys
[ -e /dev/null ] || $bb mount -t devtmpfs devtmpfs /dev
$bb mount -t tmpfs tmpfs /tmp
echo "BO-GUEST-START"
dash /etc/axfs-workload.sh

# ---- what the workload cost: builtins only from here to the trace ----
blk=
read -r cmdline </proc/cmdline
for arg in $cmdline; do
	case $arg in bo.blk=*) blk=${arg#bo.blk=} ;; esac
done
for d in /sys/fs/axfs/* /proc/fs/axfs/*; do
	[ -d "$d" ] || continue
	echo "BO-M axfs_dir $d"
	for f in cblocks_inflated device_bytes_read readahead_cblocks; do
		[ -r "$d/$f" ] && read -r v <"$d/$f" && echo "BO-M $f $v"
	done
done
if [ -n "$blk" ] && [ -r "/sys/block/$blk/stat" ]; then
	read -r rios rmerges rsectors rest <"/sys/block/$blk/stat"
	echo "BO-M blk_read_ios $rios"
	echo "BO-M blk_read_bytes $((rsectors * 512))"
fi
while read -r k v; do
	case $k in pgfault|pgmajfault) echo "BO-M $k $v" ;; esac
done </proc/vmstat
echo 1 >/proc/sys/vm/stat_refresh 2>/dev/null
while read -r k v u; do
	case $k in
	MemTotal:|MemFree:|MemAvailable:|Cached:|AnonPages:|Slab:) echo "BO-M ${k%:} $v" ;;
	esac
done </proc/meminfo
# Free pages held on the per-CPU lists (the pagesets' count: in
# /proc/zoneinfo): free RAM that MemFree and MemAvailable leave out.  With
# one CPU the list may hold thousands of pages (high: 7040 on arm64's 1 GiB)
# and how many it holds after the workload varies from boot to boot by a
# whole 4 MiB buddy block: boot-order-table.py counts them as free.
pcp=0
while read -r k v rest; do
	case $k in count:) pcp=$((pcp + v)) ;; esac
done </proc/zoneinfo
echo "BO-M PcpFree $((pcp * 4))"

# ---- the decompressor's calls and their time (kprobe events) ----
t=/sys/kernel/tracing
if $bb mount -t tracefs tracefs $t 2>/dev/null && [ -d $t/events/bo ]; then
	echo 0 >$t/tracing_on
	$bb awk '
		/^#/ { next }
		{
			for (i = 1; i <= NF; i++)
				if ($i ~ /^[0-9]+\.[0-9]+:$/) { ts = substr($i, 1, length($i) - 1); ev = $(i + 1); break }
			if (ev == "inflate:") { n++; start = ts; open = 1 }
			else if (ev == "inflated:" && open) { sum += ts - start; open = 0 }
		}
		END { printf "BO-M inflate_calls %d\nBO-M inflate_ms %.1f\n", n, sum * 1000 }' $t/trace
	$bb sed -n 's/^overrun: /BO-M trace_overrun /p' $t/per_cpu/cpu0/stats
fi

vol=/proc/axfs/volume0
if [ -e $vol ]; then
	echo off >$vol
	echo "AXFS-PROFILE-BEGIN"
	if [ -r $vol.order ]; then $bb cat $vol.order; else $bb cat $vol; fi
	echo "AXFS-PROFILE-END"
fi
echo "BO-GUEST-END"
$bb sync
$bb poweroff -f
