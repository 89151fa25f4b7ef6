# SPDX-License-Identifier: GPL-2.0-or-later
#
# bench.sh - guest side of bench/kernel/run.sh.  /data/config sets FS, one
# NAME|FSTYPE|SOURCE|MOUNT-OPTIONS|MEDIUM line per file system, RAND, and
# PMEM ("BASE SIZE" of the pmem range, for the DAX check of the file
# systems mounted with dax=always); /data/progs lists the programs started
# cold.  With PROFILE=MODE (/proc/axfs/volumeN's "on" or "all"):
# mount the first one, run the programs with AXFS profiling in that mode
# and print the profile between AXFS-PROFILE markers; nothing is
# measured.  After the programs, BENCH-INCORE lines name the files whose
# pages are in the page cache, the most first, and BENCH-SLAB lines the
# slab caches that grew most (KiB).  cramfs mounts are
# also compared with the source tree and checked for XIP (cramfs.sh).
. /data/config
. /tests/cramfs.sh
for m in axfs crc32c_generic squashfs erofs cramfs virtio_pci virtio_blk nd_e820 nd_pmem; do
	modprobe $m 2>/dev/null
done
mkdir -p /mnt/b
# What the guest was given: RAM, the legacy pmem ranges and their devices.
echo "BENCH-INFO $(grep MemTotal /proc/meminfo | tr -s ' ')"
grep -i persistent /proc/iomem | sed 's/^ */BENCH-INFO iomem /'
sleep 2
for d in /sys/block/pmem*; do
	[ -r "$d/device/resource" ] &&
		echo "BENCH-INFO ${d##*/} at $(cat "$d/device/resource"), $(cat "$d/size") sectors"
done
dmesg | grep -E 'nd_pmem|nd_e820|libnvdimm' | sed 's/^/BENCH-INFO dmesg /'

drop() {
	sync
	echo 3 >/proc/sys/vm/drop_caches
	sleep 1		# RCU-deferred frees of what was dropped
}
# Page cache and free RAM (MemFree plus the per-CPU free lists, which
# MemFree leaves out), in KiB.
meminfo() {
	echo 1 >/proc/sys/vm/stat_refresh 2>/dev/null
	awk '/^(MemFree|Cached|Slab|PageTables|KernelStack|AnonPages|Percpu|VmallocUsed):/ { sub(":", "", $1); printf "%s=%s ", $1, $2 }' /proc/meminfo
	awk '$1 == "count:" { n += $2 } END { printf "PcpFree=%d", n * 4 }' /proc/zoneinfo
}
# The bytes in each slab cache (active objects x size), in KiB.
slabs() {
	awk 'NR > 2 { printf "%s %d\n", $1, $2 * $4 / 1024 }' /proc/slabinfo
}
progs() {	# progs NAME: each program once, in order, from the mount
	# The guest's /dev on the tree's mount point for it, if it has one.
	[ -d /mnt/b/dev ] && mount --bind /dev /mnt/b/dev
	while read -r line; do
		# shellcheck disable=SC2086
		# chroot (the initramfs's busybox) costs every row the same.
		t=$(probe first-output /bin/chroot /mnt/b $line)
		echo "BENCH $1 prog $t status=$? $line"
	done </data/progs
	[ -d /mnt/b/dev ] && umount /mnt/b/dev
	return 0
}
phram_add() {	# phram_add NAME ADDR,SIZE: one more phram MTD
	if [ -d /sys/module/phram ]; then
		echo "$1,$2" >/sys/module/phram/parameters/phram
	else
		modprobe phram phram=$1,$2
	fi
}
# SOURCE: a device, phram:ADDR,SIZE (-> mtdblock), mtd-phram:ADDR,SIZE
# (-> mtd:NAME), physmap:ADDR,SIZE (-> mtd:physmap-flash.0, cramfs.sh) or
# pmem:ADDR (-> the /dev/pmemN of the legacy pmem range at ADDR).
source_of() {	# source_of NAME SOURCE
	case $2 in
	phram:*)
		phram_add "$1" "${2#phram:}" && modprobe mtdblock || return 1
		n=$(awk -F'[: "]+' -v n="$1" '$0 ~ "\"" n "\"" { sub("mtd", "", $1); print $1 }' /proc/mtd)
		echo /dev/mtdblock$n ;;
	pmem:*)	# the pmem device of the range at ADDR (their numbers follow
		# nd_pmem's asynchronous probes, not the addresses)
		i=0
		while [ $i -lt 20 ]; do
			for d in /sys/block/pmem*; do
				[ -r "$d/device/resource" ] &&
					[ $(($(cat "$d/device/resource"))) = $((${2#pmem:})) ] &&
					{ echo "/dev/${d##*/}"; return 0; }
			done
			sleep 1
			i=$((i + 1))
		done
		return 1 ;;
	mtd-phram:*)
		phram_add "$1" "${2#mtd-phram:}" && echo "mtd:$1" ;;
	physmap:*)
		cramfs_source "$2" ;;
	*)	echo "$2" ;;
	esac
}
cached() { echo 1 >/proc/sys/vm/stat_refresh 2>/dev/null; awk '$1 == "Cached:" { print $2 }' /proc/meminfo; }
# dax_check NAME: is DAX in effect on /mnt/b?  The mount options say
# dax=always (erofs drops it, with a warning, from a device without DAX),
# and the programs' files, mapped and touched (probe pagemap), have every
# page in the pmem range and add less than a quarter of their size to the
# page cache (pages x 4 KiB / 4 = pages KiB).  A "BENCH NAME dax" line with
# the figures, or an error line.
dax_check() {
	local pages=0 inpmem=0 c0 c1 out n m mnt
	mnt=$(grep ' /mnt/b ' /proc/mounts)
	case $mnt in
	*dax=always*) ;;
	*) echo "BENCH $1 error DAX: no dax=always in /proc/mounts: $mnt $(dmesg | grep -i dax | tail -n 2 | tr "\n" " ")"; return 1 ;;
	esac
	drop
	c0=$(cached)
	while read -r prog args; do
		[ -f "/mnt/b$prog" ] && [ ! -L "/mnt/b$prog" ] || continue
		# shellcheck disable=SC2086
		out=$(probe pagemap "/mnt/b$prog" $PMEM) ||
			{ echo "BENCH $1 error DAX: probe pagemap /mnt/b$prog: $out"; return 1; }
		n=${out#pages=}; n=${n%% *}
		m=${out#*in_image=}
		pages=$((pages + n))
		inpmem=$((inpmem + m))
	done </data/progs
	c1=$(cached)
	echo "BENCH $1 dax mount=dax=always pages_mapped=$pages in_pmem=$inpmem page_cache_growth_kb=$((c1 - c0))"
	if [ $pages -eq 0 ] || [ $inpmem -ne $pages ] || [ $((c1 - c0)) -ge $pages ]; then
		echo "BENCH $1 error DAX: of $pages pages mapped $inpmem are in the pmem range, page cache grew by $((c1 - c0)) KiB"
		return 1
	fi
}

echo "$FS" | while IFS='|' read -r name fstype src opts medium; do
	# The profiler exists only where the mount asks for it.
	[ -n "${PROFILE:-}" ] && [ "$fstype" = axfs ] && opts="${opts:+$opts,}profile=off"
	dev=$(source_of "$name" "$src") &&
		mount -t "$fstype" -o "ro${opts:+,$opts}" "$dev" /mnt/b ||
		{ echo "BENCH $name error mount -t $fstype -o ro${opts:+,$opts} $dev: $(dmesg | tail -n 2 | tr "\n" " ")"; continue; }
	if [ -n "${PROFILE:-}" ]; then
		echo "$PROFILE" >/proc/axfs/volume0 && echo clear >/proc/axfs/volume0
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
	progs "$name"		# timed, cold
	# Memory: the programs again after a drop, with every inode and
	# dentry of the mount in memory before mem0, on every row: the drop
	# frees the inodes of files without page cache (AXFS's XIP files,
	# all of squashfs's) but not those whose DAX entries keep them
	# (erofs-dax's), so the delta would count inode allocations on some
	# rows and not on others.  (The timed run above stays cold.)
	drop
	ls -lR /mnt/b >/dev/null 2>&1
	slabs >/tmp/slab0	# before mem0: the file is page cache too
	echo "BENCH $name mem0 $(meminfo)"
	progs "$name" >/dev/null
	sleep 1
	echo "BENCH $name mem1 $(meminfo)"
	slabs | awk -v n="$name" 'NR == FNR { was[$1] = $2; next }
		{ d = $2 - was[$1]; if (d) print d, $1 }' /tmp/slab0 - |
		sort -rn | head -n 6 | sed "s|^|BENCH-SLAB $name |"
	probe incore /mnt/b | sort -rn | head -n 12 | sed "s|^|BENCH-INCORE $name |"
	case ",$opts," in *,dax=always,*) dax_check "$name" ;; esac
	[ "$fstype" = cramfs ] && cramfs_xipmaps "$name" "$src"
	umount /mnt/b
done
