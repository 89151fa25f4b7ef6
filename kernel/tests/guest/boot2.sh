# SPDX-License-Identifier: GPL-2.0-only
#
# boot2.sh - the second guest boot of tests/run.sh, with slub_debug on
# kmalloc caches:
#  - the image built with `axfs mkfs -p` from the profile boot 1
#    collected, in memory at $PHYS_PROF: the pages the workload touched
#    must now be XIP, mapped straight from memory, not copied into RAM;
#    the same image over virtio-blk and over an MTD (phram);
#  - the image built with the profile and --mmap-limit, cut by axfs
#    split: mmap segment at $PHYS_DUAL, store segment on a virtio disk;
#  - the corrupted images (hostile.sh).
. /tests/lib.sh

LIST=/data/tree.list
mkdir -p /mnt/p
check "load axfs.ko" modprobe axfs
check "profiled image at physaddr=$PHYS_PROF: full comparison" mount_compare /mnt/p -o physaddr=$PHYS_PROF none
check "profiled image: the workload runs from it" \
	sh -c 'sh /tests/workload.sh /mnt/p/bin/busybox | grep -q "workload: done"'
probe xip /mnt/p/bin/busybox >/tmp/xip.out 2>&1
check "profiled image: busybox mapped VM_MIXEDMAP, only its $PROF_BB_NONXIP non-XIP pages in RAM ($(head -n 1 /tmp/xip.out))" \
	grep -q "^mixedmap=1 size_kb=[0-9]* rss_kb=$((PROF_BB_NONXIP * 4))\$" /tmp/xip.out
# While a busybox from the image runs, its text mapping is mixed.
check "profiled image: a running busybox has a VM_MIXEDMAP text mapping" \
	running_mixedmap /mnt/p/bin/busybox
umount /mnt/p

# The same profiled image (files part XIP, part compressed) on the other
# backends: a block device and an MTD (phram over the same memory).
modprobe virtio_blk 2>/dev/null; modprobe virtio_pci 2>/dev/null
sleep 1
check "profiled image over virtio-blk: full comparison" mount_compare /mnt/p "$(disk prof)"
check "profiled image over virtio-blk: mmap reads what read() reads" \
	sh -c 'for f in /mnt/p/bin/busybox /mnt/p/sizes/mixed; do probe mmap "$f" || exit 1; done'
umount /mnt/p 2>/dev/null
modprobe phram phram=axfsprof,$PHYS_PROF,$(( (PROF_SIZE + 4095) / 4096 * 4096 ))
check "profiled image over MTD (phram mtd:axfsprof): full comparison" mount_compare /mnt/p mtd:axfsprof
umount /mnt/p 2>/dev/null

# Profile and two segments: the mmap segment in memory, the store on a disk.
check "profiled dual image: physaddr=$PHYS_DUAL + second_dev: full comparison" \
	mount_compare /mnt/p -o physaddr=$PHYS_DUAL,second_dev="$(disk pstore)" none
probe xip /mnt/p/bin/busybox >/tmp/xip.out 2>&1
check "profiled dual image: busybox mapped VM_MIXEDMAP, only its $PROFDUAL_BB_NONXIP non-XIP pages in RAM ($(head -n 1 /tmp/xip.out))" \
	grep -q "^mixedmap=1 size_kb=[0-9]* rss_kb=$((PROFDUAL_BB_NONXIP * 4))\$" /tmp/xip.out
check "profiled dual image: the workload runs from it" \
	sh -c 'sh /tests/workload.sh /mnt/p/bin/busybox | grep -q "workload: done"'
umount /mnt/p

. /tests/hostile.sh

umount /mnt/p /mnt/c 2>/dev/null
check "unload axfs.ko" rmmod axfs
dmesg >>/tmp/dmesg.hostile
echo "AXFS-DMESG-BEGIN"
cat /tmp/dmesg.before /tmp/dmesg.hostile | grep -i -E 'axfs|mtd|slub|bug|warn' | tail -n 400
echo "AXFS-DMESG-END"
check "dmesg: no oops, BUG (KASAN), WARNING (lockdep), UBSAN or slab corruption" \
	sh -c '! cat /tmp/dmesg.before /tmp/dmesg.hostile | grep -E "Oops|BUG|WARNING|UBSAN:|Call Trace|general protection|RIP:|Kernel panic|Redzone|Poison overwritten|Object padding|slab error|corrupted"'
