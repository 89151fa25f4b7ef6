# SPDX-License-Identifier: GPL-2.0-only
#
# cross.sh - the one guest boot of tests/cross.sh: Debian's kernel of
# $ARCH (arm64, armhf, riscv64) on qemu's virt machine, 256 MiB at
# $PHYS_BASE reserved by a device-tree reserved-memory node with no-map.
# Block, MTD and physical-address mounts with full comparisons; Debian's
# busybox of that architecture executed from XIP
# pages, the mappings checked in /proc/self/pagemap; images written into
# memory after boot and executed; the profiler; corrupted images.
# /data/config (written by the host) names the addresses and sizes.
. /tests/lib.sh

LIST=/data/tree.list
PHYS_END=$((PHYS_BASE + PHYS_SIZE))
mkdir -p /mnt/a /mnt/b /mnt/c /mnt/p
dmesg_mark

check "load axfs.ko (modprobe resolves mtd)" modprobe axfs
modprobe virtio_blk 2>/dev/null; modprobe virtio_pci 2>/dev/null
sleep 1
# not_system_ram ADDR: no "System RAM" range of /proc/iomem holds ADDR.
not_system_ram() {
	sed -n 's/^ *\([0-9a-f]*\)-\([0-9a-f]*\) : System RAM$/\1 \2/p' /proc/iomem | {
		while read -r lo hi; do
			if [ $((0x$lo)) -le $(($1)) ] && [ $(($1)) -le $((0x$hi)) ]; then
				exit 1
			fi
		done
		exit 0
	}
}
# arm64 and riscv64 list a no-map reserved-memory range in /proc/iomem as
# "reserved" (physaddr= alone is then enough); 32-bit ARM lists it not at
# all, and mounts there give physsize= (IOMEM_RESERVED, arch/ARCH.sh).
range_re="^ *0*$(printf %x $PHYS_BASE)-0*$(printf %x $((PHYS_END - 1))) : "
reserved_listed() {
	grep -i -E 'ram|reserved' /proc/iomem
	grep -q -i "${range_re}reserved" /proc/iomem
}
reserved_unlisted() {
	grep -i -E 'ram|reserved' /proc/iomem
	! grep -q "$range_re" /proc/iomem && not_system_ram $PHYS_BASE &&
		not_system_ram $((PHYS_END - 1))
}
if [ "$IOMEM_RESERVED" = yes ]; then
	check "device tree: the reserved range is \"reserved\", not System RAM, in /proc/iomem" \
		reserved_listed
else
	check "device tree: the reserved range is neither System RAM nor listed in /proc/iomem" \
		reserved_unlisted
fi
# physopt ADDR: mount options for an image at ADDR in the reserved range.
physopt() {
	if [ "$IOMEM_RESERVED" = yes ]; then
		echo "physaddr=$1"
	else
		echo "physaddr=$1,physsize=$((PHYS_END - $1))"
	fi
}

# Pages of FILE (mmap'ed read+exec) whose physical address is in [LO, HI).
inrange() {	# inrange FILE LO HI WANT: WANT = all | none
	probe pagemap "$1" "$2" "$(($3 - $2))" >/tmp/pagemap.out 2>&1 || return 1
	cat /tmp/pagemap.out
	case $4 in
	all) grep -q '^pages=\([1-9][0-9]*\) in_image=\1$' /tmp/pagemap.out ;;
	none) grep -q '^pages=[1-9][0-9]* in_image=0$' /tmp/pagemap.out ;;
	esac
}
runs() {	# runs PROG: Debian's busybox, run from the mount
	[ "$("$1" echo xip-exec-ok)" = xip-exec-ok ] &&
		"$1" sha256sum "$1" | grep -q "^$BB_SHA256 "
}

# ---- block device (virtio-blk); the profiler (volume0) ------------------
TREE=$(disk tree)
check "virtio-blk: mount $TREE with the profiler" mount -t axfs -o profile=off "$TREE" /mnt/a
PROF=/proc/axfs/volume0
echo clear >$PROF && echo on >$PROF
sh /tests/workload.sh /mnt/a/bin/busybox >/tmp/workload.out 2>&1
echo off >$PROF
cat $PROF >/tmp/profile.csv
check "virtio-blk: the workload runs Debian's $ARCH busybox from the image" \
	grep -q "workload: done" /tmp/workload.out
check "profiling: busybox pages were counted" grep -q '^\./bin/busybox,[0-9]*,[1-9][0-9]*$' /tmp/profile.csv
echo "AXFS-PROFILE-BEGIN"
cat /tmp/profile.csv
echo "AXFS-PROFILE-END"
check "virtio-blk: every file, type, mode, owner, size, device number, link target and content" \
	compare_listing /mnt/a $LIST
# 32-bit ARM: the page cache goes to highmem first, so the pages the
# driver filled (and kmapped) for that comparison are highmem pages.
highmem_cache() {
	awk '/^Node .* zone / { z = $4 }
	     z == "HighMem" && $1 ~ /^nr_zone_(in)?active_file$/ { n += $2 }
	     END { print "HighMem file pages " n + 0; exit !(n > 0) }' /proc/zoneinfo
}
if [ "$HIGHMEM" = yes ]; then
	check "virtio-blk: the page cache is in highmem ($(highmem_cache))" highmem_cache
fi
check "readdir: . and .. first, d_type and d_ino agree with lstat" probe dtype /mnt/a
check "mmap reads what read() reads, zero after EOF" \
	sh -c 'for f in /mnt/a/sizes/* /mnt/a/bin/busybox; do probe mmap "$f" || exit 1; done'
check "4 concurrent readers see the same bytes (cblock cache)" probe threads 4 /mnt/a/sizes
check "virtio-blk: busybox pages come from the page cache, not the reserved range" \
	inrange /mnt/a/bin/busybox $PHYS_BASE $PHYS_END none
umount /mnt/a

# ---- physical address: the image qemu's loader put in reserved memory ----
check "physaddr=$PHYS_XIP: full comparison" mount_compare /mnt/b -o "$(physopt $PHYS_XIP)" none
check "physaddr: Debian's $ARCH busybox runs from XIP pages" runs /mnt/b/bin/busybox
check "physaddr: the workload runs from the XIP mount" \
	sh -c 'sh /tests/workload.sh /mnt/b/bin/busybox | grep -q "workload: done"'
probe xip /mnt/b/bin/busybox >/tmp/xip.out 2>&1
# In RSS: the non-XIP pages; on 32-bit ARM without LPAE (no special PTEs)
# also the XIP ones, mapped as refcounted pages of the image's memory.
check "physaddr: busybox text is mapped VM_MIXEDMAP with $XIP_BB_RSS_KB kB in RSS ($(head -n 1 /tmp/xip.out))" \
	grep -q "^mixedmap=1 size_kb=[0-9]* rss_kb=$XIP_BB_RSS_KB\$" /tmp/xip.out
check "physaddr: pagemap: every busybox page is in the image's memory" \
	inrange /mnt/b/bin/busybox $PHYS_XIP $((PHYS_XIP + XIP_SIZE)) all
check "physaddr: a running busybox has a VM_MIXEDMAP text mapping (smaps)" \
	running_mixedmap /mnt/b/bin/busybox
check "physaddr: mmap of compressed files through the page cache" \
	sh -c 'for f in /mnt/b/sizes/*; do probe mmap "$f" || exit 1; done'
umount /mnt/b

# ---- MTD: Debian's map_ram over reserved memory (ramflash.ko) -------------
# The XIP image is written after boot through /dev/mtdN; point() gives
# the physical address, so XIP pages are mapped straight from the MTD.
check "ramflash: MTDs over the reserved memory (map_ram)" \
	sh -c "modprobe map_ram && modprobe ramflash map=axfsnor@$PHYS_MTD+$MTD_SIZE,axfslate@$PHYS_LATE+$LATE_SIZE,axfshostile@$PHYS_HMTD+$HMTD_SIZE"
NOR=$(mtdnum axfsnor)
LATE=$(mtdnum axfslate)
check "MTD: write the XIP image to /dev/mtd$NOR after boot" \
	dd if="$(disk xip)" of=/dev/mtd$NOR bs=64k
dmesg_mark
check "MTD: mount mtd:axfsnor: full comparison" mount_compare /mnt/c mtd:axfsnor
nor_xip() { dmesg_since | grep -q "axfs (mtd$NOR): mtd:axfsnor: .*, mapped, XIP to user space"; }
check "MTD: mapped with point(), XIP to user space" nor_xip
check "MTD: Debian's $ARCH busybox runs from XIP pages written after boot" runs /mnt/c/bin/busybox
check "MTD: pagemap: every busybox page is in the MTD's memory" \
	inrange /mnt/c/bin/busybox $PHYS_MTD $((PHYS_MTD + MTD_SIZE)) all
check "MTD: the workload runs from it" \
	sh -c 'sh /tests/workload.sh /mnt/c/bin/busybox | grep -q "workload: done"'
umount /mnt/c

# ---- written after boot, executed: the I-cache must follow --------------
# Image A (/bin/prog = busybox) is written through the MTD, mounted at its
# physical address and run; then image B (/bin/prog = probe) over the
# same memory: the same physical pages now hold other instructions.
check "late: write image A to /dev/mtd$LATE" dd if=/data/lateA.img of=/dev/mtd$LATE bs=64k
check "late: mount image A at physaddr=$PHYS_LATE" mount -t axfs -o "$(physopt $PHYS_LATE)" none /mnt/p
check "late: A's /bin/prog is busybox and runs from XIP pages" \
	sh -c 'cmp /mnt/p/bin/prog /bin/busybox && [ "$(/mnt/p/bin/busybox echo late-A)" = late-A ]'
check "late: A's pages are in memory" inrange /mnt/p/bin/prog $PHYS_LATE $((PHYS_LATE + LATE_SIZE)) all
umount /mnt/p
check "late: write image B over it" dd if=/data/lateB.img of=/dev/mtd$LATE bs=64k
check "late: mount image B at the same address" mount -t axfs -o "$(physopt $PHYS_LATE)" none /mnt/p
check "late: B's /bin/prog (probe) runs from the pages that held busybox" \
	sh -c 'cmp /mnt/p/bin/prog /bin/probe && /mnt/p/bin/prog 2>&1 | grep -q "^usage: probe"'
check "late: B's pages are in memory" inrange /mnt/p/bin/prog $PHYS_LATE $((PHYS_LATE + LATE_SIZE)) all
umount /mnt/p
# And through /dev/mem (an mmap of it: arm64 refuses read()/write() there).
check "late: write image A through /dev/mem at $PHYS_DEVMEM" probe memwrite /data/lateA.img $PHYS_DEVMEM
check "late: /dev/mem-written image: busybox runs from XIP pages" \
	sh -c "mount -t axfs -o $(physopt $PHYS_DEVMEM) none /mnt/p &&
	       [ \"\$(/mnt/p/bin/busybox echo devmem-ok)\" = devmem-ok ]"
check "late: /dev/mem-written image: pages in memory" \
	inrange /mnt/p/bin/prog $PHYS_DEVMEM $((PHYS_DEVMEM + LATE_SIZE)) all
umount /mnt/p

# ---- refusals -------------------------------------------------------------
refused "physaddr= in System RAM is refused" "System RAM" -o physaddr=$SYSRAM none
if [ "$IOMEM_RESERVED" != yes ]; then
	refused "physaddr= without physsize= in memory /proc/iomem does not list is refused" \
		"not all memory the kernel knows of" -o physaddr=$PHYS_XIP none
fi
if [ "$PHYS_ADDR_BITS" = 32 ]; then
	refused "physaddr= above 4 GiB is refused with a 32-bit phys_addr_t" \
		"beyond 32-bit physical addresses" -o physaddr=0x100000000 none
fi
refused "physsize= smaller than the image is refused" "physsize" -o physaddr=$PHYS_XIP,physsize=64K none

# ---- corrupted images: loop, MTD (ramflash), memory ------------------------
HOSTILE_MTD=axfshostile
if [ "$IOMEM_RESERVED" != yes ]; then
	# Each corrupted image has 1 MiB (kt_corrupt_loaders).
	PHYS_CORRUPT=$(for nameaddr in $PHYS_CORRUPT; do
		echo "$nameaddr,physsize=1048576"; done)
fi
. /tests/hostile.sh

umount /mnt/a /mnt/b /mnt/c /mnt/p 2>/dev/null
check "unload axfs.ko" rmmod axfs
dmesg >>/tmp/dmesg.hostile
echo "AXFS-DMESG-BEGIN"
cat /tmp/dmesg.before /tmp/dmesg.hostile | grep -i -E 'axfs|mtd|ramflash|slub|bug|warn' | tail -n 400
echo "AXFS-DMESG-END"
check "dmesg: no oops, BUG, WARNING or slab corruption" \
	sh -c '! cat /tmp/dmesg.before /tmp/dmesg.hostile | grep -E "Oops|BUG|WARNING|UBSAN:|Call Trace|Internal error|Unable to handle|Kernel panic|Redzone|Poison overwritten|Object padding|slab error|corrupted"'
