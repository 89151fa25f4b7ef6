# SPDX-License-Identifier: GPL-2.0-only
#
# measure.sh - guest side of tools/measure-xip.sh.  For each NAME@ADDR of
# $IMAGES (images qemu loaded in reserved memory): mount it with
# physaddr=, then $RUNS times: drop the caches, run the workload with
# everything (shell included) exec'd from the image, and report the page
# cache and free memory before and after, and the time to the first line
# of output and to the end.  With PROFILE=1 the first image is profiled
# first and the profile printed between AXFS-PROFILE markers.
. /tests/lib.sh
modprobe axfs
mkdir -p /mnt/m
# stat_refresh folds the per-CPU counters into /proc/meminfo; the pages
# sitting in per-CPU free lists (zoneinfo "count:") are free too, although
# MemFree does not count them.
meminfo() {
	echo 1 >/proc/sys/vm/stat_refresh 2>/dev/null
	awk '/^(MemFree|Cached):/ { sub(":", "", $1); printf "%s=%s ", $1, $2 }' /proc/meminfo
	awk '$1 == "count:" { n += $2 } END { printf "PcpFree=%d ", n * 4 }' /proc/zoneinfo
}

first=1
for item in $IMAGES; do
	name=${item%%@*}
	addr=${item#*@}
	popt=
	[ "${PROFILE:-0}" = 1 ] && [ $first = 1 ] && popt=,profile=off
	mount -t axfs -o physaddr=$addr$popt none /mnt/m || { echo "AXFS-MEASURE-ERROR $name"; continue; }
	BB=/mnt/m/bin/busybox
	if [ "${PROFILE:-0}" = 1 ] && [ $first = 1 ]; then
		echo on >/proc/axfs/volume0 && echo clear >/proc/axfs/volume0
		sh /tests/workload.sh $BB >/dev/null 2>&1
		echo off >/proc/axfs/volume0
		echo "AXFS-PROFILE-BEGIN"
		cat /proc/axfs/volume0
		echo "AXFS-PROFILE-END"
	fi
	first=0
	for run in $(seq 1 "${RUNS:-3}"); do
		sync
		echo 3 >/proc/sys/vm/drop_caches
		sleep 2		# let RCU-deferred frees of the dropped caches finish
		before=$(meminfo)
		times=$(probe first-output $BB sh /tests/workload.sh $BB)
		sleep 2
		after=$(meminfo)
		echo "AXFS-MEASURE $name run=$run $times before: $before after: $after"
	done
	umount /mnt/m
done
