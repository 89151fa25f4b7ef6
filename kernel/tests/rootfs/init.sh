#!/bin/busybox sh
# shellcheck shell=dash
# SPDX-License-Identifier: GPL-2.0-only
# /sbin/init of the root trees kernel/tests/rootfs.sh builds.  PID 1 on
# the AXFS (or squashfs) root: reports what it runs from, runs the fixed
# workload (/etc/axfs-workload.sh) with the AXFS profiler on around it,
# prints the profile and the RAM in use, and when asked (XIP_CHECK=1 in
# the data disk's config) proves that busybox's text is mapped from the
# image's physical pages.  Results as "AXFS-RESULT ok|fail UPTIME NAME",
# numbers as "ROOTFS-M NAME VALUE", for the host (rootfs.sh).
export PATH=/usr/sbin:/usr/bin:/sbin:/bin
bb=/bin/busybox
$bb mount -t proc proc /proc
$bb mount -t sysfs sysfs /sys
$bb grep -q " /dev " /proc/mounts || $bb mount -t devtmpfs devtmpfs /dev
$bb mount -t tmpfs tmpfs /tmp
$bb mount -t tmpfs tmpfs /run
echo "AXFS-GUEST-START rootfs"

result() { echo "AXFS-RESULT $1 $($bb cut -d' ' -f1 /proc/uptime) $2"; }
check() {	# check NAME CMD...
	name=$1
	shift
	if "$@" >/tmp/check.out 2>&1; then
		result ok "$name"
	else
		result fail "$name"
		$bb sed 's/^/  | /' /tmp/check.out | $bb head -n 20
	fi
}
meminfo() { $bb sed -n "s/^$1: *\([0-9]*\) kB/\1/p" /proc/meminfo; }

# The host's data disk (serial axfsdata): a tar with config and lists.
mkdir_run() { $bb mkdir -p /run/axfs; }
mkdir_run
for d in /sys/block/vd*; do
	[ "$($bb cat "$d/serial" 2>/dev/null)" = axfsdata ] &&
		$bb tar -xf "/dev/${d##*/}" -C /run/axfs
done
[ -f /run/axfs/config ] && . /run/axfs/config

rootline=$($bb awk '$2 == "/" && $1 != "rootfs"' /proc/mounts | $bb tail -n 1)
echo "  root: $rootline"
check "the root is ${ROOT_FSTYPE:-?} (${ROOT_DESC:-?}): $rootline" \
	$bb sh -c "echo '$rootline' | $bb grep -q ' ${ROOT_FSTYPE:-none} ro'"
check "real programs of the root run: dash, coreutils, perl" \
	dash -c 'ls --version | head -n 1 && perl -e "print 6 * 7, qq(\n)" | busybox grep -qx 42'

vol=/proc/axfs/volume0
# The mode (all or on) is rootfs.sh's choice, in config: not repeated here.
[ -w $vol ] && echo clear >$vol && echo "${PROFILE_MODE:?not in /run/axfs/config}" >$vol
$bb sync
echo 3 >/proc/sys/vm/drop_caches
read t rest </proc/uptime
echo "ROOTFS-T start $t"
dash /etc/axfs-workload.sh
[ -w $vol ] && echo off >$vol
# stat_refresh folds the per-CPU counters into /proc/meminfo; the pages
# in the per-CPU free lists (zoneinfo "count:", megabytes with 1 GiB and
# 2 CPUs) are free too, although MemFree does not count them.
echo 1 >/proc/sys/vm/stat_refresh 2>/dev/null
pcp=$($bb awk '$1 == "count:" { n += $2 } END { print n * 4 }' /proc/zoneinfo)
echo "ROOTFS-M used_kb $(($(meminfo MemTotal) - $(meminfo MemAvailable)))"
echo "ROOTFS-M nonfree_kb $(($(meminfo MemTotal) - $(meminfo MemFree) - pcp))"
echo "ROOTFS-M pcpfree_kb $pcp"
echo "ROOTFS-M cached_kb $(meminfo Cached)"
echo "ROOTFS-MEMINFO $($bb grep -E '^(MemFree|MemAvailable|Buffers|Cached|AnonPages|Mapped|Shmem|Slab|SReclaimable|SUnreclaim|KernelStack|PageTables|Percpu|VmallocUsed):' \
	/proc/meminfo | $bb tr -s ' ' | $bb tr '\n' ' ')"
check "the workload ran to its end" $bb true
if [ -r $vol ]; then
	echo "AXFS-PROFILE-BEGIN"
	$bb cat $vol
	echo "AXFS-PROFILE-END"
fi

# What busybox's own runs add to the page cache, caches dropped first:
# the workload's busybox commands again (the profile made their pages
# XIP), reading one small file, so that little but busybox's text (and
# the ELF header exec reads) can land there: with its pages XIP, nearly
# nothing.
bb_runs() {
	$bb awk 'BEGIN { for (i = 0; i < 500; i++) s += i; print s }'
	$bb sed -n 's/perl/PERL/p' /etc/axfs-workload.sh
	$bb tar -cf - /etc/axfs-workload.sh 2>/dev/null | $bb gzip -c >/dev/null
}
$bb sync
echo 3 >/proc/sys/vm/drop_caches
c0=$(meminfo Cached)
bb_runs >/dev/null
c1=$(meminfo Cached)
echo "ROOTFS-M bb_cache_growth_kb $((c1 - c0))"

# XIP: every present page of a running busybox's text mapping, by its
# page frame (/proc/PID/pagemap, root sees PFNs): pages the image stores
# XIP (/run/axfs/bb.xip, file offsets, from the host) must be frames
# inside [PHYS_BASE, PHYS_BASE + IMG_SIZE), the others outside.
# busybox_text: a busybox that sleeps a minute (pid) and its text
# mapping, the r-xp line of its /proc/PID/maps (line).
busybox_text() {
	$bb sleep 60 &
	pid=$!
	i=0
	while ! $bb grep -q ' r-xp .*/bin/busybox$' /proc/$pid/maps 2>/dev/null && [ $i -lt 50 ]; do
		$bb sleep 0.1
		i=$((i + 1))
	done
	line=$($bb grep ' r-xp .*/bin/busybox$' /proc/$pid/maps | $bb head -n 1)
	[ -n "$line" ] && return
	echo "no r-xp mapping of /bin/busybox in /proc/$pid/maps"
	kill $pid
	return 1
}
xip_check() {
	busybox_text || return 1
	echo "maps: $line"
	set -- $line
	start=$((0x${1%-*}))
	end=$((0x${1#*-}))
	off=$((0x$3))
	xips=" $($bb tr '\n' ' ' </run/axfs/bb.xip) "
	lo=$((PHYS_BASE))
	hi=$((PHYS_BASE + IMG_SIZE))
	n=$(((end - start) / 4096))
	xin=0 xout=0 cin=0 cout=0 absent=0 va=$start
	$bb dd if=/proc/$pid/pagemap bs=8 skip=$((start / 4096)) count=$n 2>/dev/null |
		$bb od -An -v -tx8 -w8 >/tmp/pagemap
	while read -r e; do
		fo=$((off + va - start))
		va=$((va + 4096))
		case $e in
		[89abcdef]*) ;;
		*) absent=$((absent + 1)); continue ;;
		esac
		phys=$(((0x${e#??} & 0x7fffffffffffff) * 4096))
		inside=0
		[ $phys -ge $lo ] && [ $phys -lt $hi ] && inside=1
		case $xips in
		*" $fo "*) if [ $inside = 1 ]; then xin=$((xin + 1)); else xout=$((xout + 1)); fi ;;
		*) if [ $inside = 1 ]; then cin=$((cin + 1)); else cout=$((cout + 1)); fi ;;
		esac
	done </tmp/pagemap
	flags=$($bb awk -v s="${1%-*}" '$1 ~ "^" s "-" { m = 1 } m && /^VmFlags/ { print; exit }' /proc/$pid/smaps)
	rss=$($bb awk -v s="${1%-*}" '$1 ~ "^" s "-" { m = 1 } m && /^Rss/ { print $2; exit }' /proc/$pid/smaps)
	kill $pid
	echo "text pages: $n; present XIP pages inside the image's range: $xin, outside: $xout;"
	echo "present non-XIP pages inside: $cin, outside (page cache): $cout; not present: $absent"
	# Without special PTEs (32-bit ARM without LPAE: XIP_IN_RSS=1 from
	# the host) the XIP pages are mapped as normal pages and count too.
	rsspages=$cout
	[ "${XIP_IN_RSS:-0}" = 1 ] && rsspages=$((cout + xin))
	echo "smaps: $flags; Rss $rss kB (page-cache pages count$([ "${XIP_IN_RSS:-0}" = 1 ] && echo ', XIP pages too: no special PTEs'))"
	echo "ROOTFS-M xip_in $xin"
	echo "ROOTFS-M xip_out $xout"
	echo "ROOTFS-M cache_pages $cout"
	[ $xin -gt 0 ] && [ $xout = 0 ] && [ $cin = 0 ] &&
		case $flags in *" mm"*) true ;; *) false ;; esac &&
		[ "$rss" = $((rsspages * 4)) ]
}
if [ "${XIP_CHECK:-0}" = 1 ]; then
	if xip_check >/tmp/xip.out 2>&1; then
		result ok "XIP: busybox's text is mapped from page frames inside the image ($PHYS_BASE + $IMG_SIZE)"
	else
		result fail "XIP: busybox's text is mapped from page frames inside the image ($PHYS_BASE + $IMG_SIZE)"
	fi
	$bb sed 's/^/  | /' /tmp/xip.out
	check "XIP: busybox's runs add at most 64 KiB to the page cache ($((c1 - c0)) KiB)" \
		[ $((c1 - c0)) -le 64 ]
fi
# With the probe program on the data disk (rootfs.sh --placements): what
# copies XIP pages besides read().  Without special PTEs (32-bit ARM
# without LPAE) the mm copies a page that has a struct page through its
# kernel address, which for lowmem outside the linear map (no-map) does
# not exist (kernel/xip.c, axfs_xip_has_unmapped_pages()).
# - copy on write: a private writable mapping, written and read back
#   (what a program does to its data segment); a read-only one made
#   writable by mprotect() after its XIP pages are mapped (refused where
#   the driver forbids it);
# - get_user_pages(): a debugger's read of a running busybox's text
#   through /proc/PID/mem gives the file's bytes, or an I/O error where
#   the pages may not be pinned (special PTEs, VM_IO); never an oops.
memread_check() {
	busybox_text || return 1
	set -- $line
	start=$((0x${1%-*}))
	off=$((0x$3))
	$bb dd if=/proc/$pid/mem of=/tmp/mem.page bs=4096 skip=$((start / 4096)) count=1 2>/tmp/mem.err
	rc=$?
	kill $pid
	$bb cat /tmp/mem.err
	if [ $rc -ge 128 ]; then
		echo "dd was killed (exit status $rc)"
		return 1
	elif [ $rc = 0 ]; then
		$bb dd if=/bin/busybox of=/tmp/file.page bs=4096 skip=$((off / 4096)) count=1 2>/dev/null
		$bb cmp /tmp/mem.page /tmp/file.page && echo "read: the file's bytes"
	else
		$bb grep -q -E 'Input/output error|Bad address' /tmp/mem.err && echo "refused"
	fi
}
if [ -x /run/axfs/probe ]; then
	libc=$($bb ls /lib/*/libc.so.6 /usr/lib/*/libc.so.6 2>/dev/null | $bb head -n 1)
	for f in /bin/busybox $libc; do
		check "copy on write: a private writable mapping of $f holds what is written, the file is unchanged" \
			/run/axfs/probe cow "$f"
		check "copy on write after mprotect(): a read-only mapping of $f made writable (or refused)" \
			/run/axfs/probe cow-mprotect "$f"
		$bb sed 's/^/  | /' /tmp/check.out
	done
	check "get_user_pages: /proc/PID/mem of a running busybox's text gives its bytes or EIO" memread_check
	$bb sed 's/^/  | /' /tmp/check.out
fi
$bb dmesg | $bb grep -E 'Oops|BUG|WARNING|Call trace' | $bb head -n 10 >/tmp/dmesg.bad
check "dmesg: no oops, BUG or WARNING" [ ! -s /tmp/dmesg.bad ]
echo "AXFS-GUEST-END"
$bb sync
$bb poweroff -f
