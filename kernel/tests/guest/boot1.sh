# SPDX-License-Identifier: GPL-2.0-only
#
# boot1.sh - the first guest boot of tests/run.sh: every backend, the
# profiler, dual-device images, hostile images.  /data/config (written by
# the host) names the physical addresses and sizes; every image is built
# from the same tree, whose expected listing is /data/tree.list.
. /tests/lib.sh

LIST=/data/tree.list
DEEP_FILE=deep/level1/level2/level3/level4/level5/level6/level7/level8/level9/level10/level11/level12/file
mkdir -p /mnt/a /mnt/b /mnt/c
dmesg_mark

check "load axfs.ko (modprobe resolves mtd)" modprobe axfs
check "axfs is in /proc/filesystems" grep -qw axfs /proc/filesystems
modprobe virtio_blk 2>/dev/null; modprobe virtio_pci 2>/dev/null
sleep 1

# ---- block device (virtio-blk), with the profiler first: volume0 -------
TREE=$(disk tree)
check "virtio-blk: a mount without the option profile has no profile" \
	sh -c "mount -t axfs '$TREE' /mnt/a && test -d /proc/axfs && test -z \"\$(ls /proc/axfs)\" && umount /mnt/a"
SYS=/sys/fs/axfs/${TREE#/dev/}
check "counters: every mount has $SYS, three read-only files, gone at unmount" \
	sh -c "mount -t axfs '$TREE' /mnt/a &&
	       [ \"\$(cd $SYS && ls -l cblocks_inflated device_bytes_read readahead_cblocks | cut -c1-10 | sort -u)\" = -r--r--r-- ] &&
	       umount /mnt/a && test ! -e $SYS"
check "virtio-blk: mount $TREE -o profile" mount -t axfs -o profile "$TREE" /mnt/a
PROF=/proc/axfs/volume0
check "profiling: $PROF exists for the mount that asked, root's alone (-rw-------, root root)" \
	sh -c "ls -ln $PROF | grep -q '^-rw------- *1 0 *0 '"
check "profiling: \"profile\" alone starts in \"on\" (/proc/mounts: profile)" \
	sh -c "grep -q '^$TREE /mnt/a axfs ro.*,profile' /proc/mounts && probe mmap /mnt/a/$DEEP_FILE >/dev/null 2>&1 && grep -q '^\./$DEEP_FILE,0,1\$' $PROF"
# Another user: a user added to the guest's /etc/passwd (busybox su).
grep -q '^axfsuser:' /etc/passwd 2>/dev/null ||
	echo 'axfsuser:x:1000:1000:axfs test user:/tmp:/bin/sh' >>/etc/passwd
check "profiling: the test user runs commands as uid 1000" \
	sh -c '[ "$(su -s /bin/sh axfsuser -c "id -u")" = 1000 ]'
check_fails "profiling: another user cannot read the profile" su -s /bin/sh axfsuser -c "cat $PROF"
check_fails "profiling: another user cannot write a command" su -s /bin/sh axfsuser -c "echo off >$PROF"
# A container's root: uid 0 mapped into a new user namespace has no
# CAP_SYS_ADMIN where the file lives, so it cannot steer the profiler.
# It is uid 0 to the file's mode (it can open and read it): the refusal
# is the capability check of the write.
check "profiling: root of a user namespace (uid 0 mapped) opens and reads it" \
	unshare -r sh -c "cat $PROF >/dev/null"
check_fails "profiling: root of a user namespace cannot write a command" unshare -r sh -c "echo off >$PROF"

# Exact counts: a fresh mmap of a 17-page file faults each page once.
F=sizes/text-65537
DEEP=$DEEP_FILE
echo clear >$PROF && echo on >$PROF
probe mmap "/mnt/a/$F" >/dev/null 2>&1
probe mmap "/mnt/a/$DEEP" >/dev/null 2>&1
echo off >$PROF
cat $PROF >/tmp/exact.csv
{ seq 0 16 | awk -v f="./$F" '{ print f "," $1 * 4096 ",1" }'; echo "./$DEEP,0,1"; } |
	sort >/tmp/exact.want
check "profiling: one count per faulted page, seed format ./dir/name,offset,count" \
	sh -c 'sort /tmp/exact.csv | diff /tmp/exact.want -'
# The same file mapped from a cold page cache (probe mmap read() it
# first, probe xip does not): a fault that reads (the read-around, or
# read_folio for a page the readahead left) drops the mmap lock and the
# mm retries it; each page still counts once.
echo 3 >/proc/sys/vm/drop_caches
echo clear >$PROF && echo on >$PROF
probe xip "/mnt/a/$F" >/dev/null 2>&1
echo off >$PROF
cat $PROF >/tmp/cold.csv
seq 0 16 | awk -v f="./$F" '{ print f "," $1 * 4096 ",1" }' >/tmp/cold.want
check "profiling: faults from a cold page cache count once a page (retried faults too)" \
	diff /tmp/cold.want /tmp/cold.csv

# "all" counts the pages read() (here sendfile, through splice) copies
# out as well; "on" counts faults only, so the second cat adds nothing.
echo clear >$PROF && echo all >$PROF
cat "/mnt/a/$F" >/dev/null
echo on >$PROF
cat "/mnt/a/$DEEP" >/dev/null
echo off >$PROF
cat $PROF >/tmp/reads.csv
seq 0 16 | awk -v f="./$F" '{ print f "," $1 * 4096 ",1" }' >/tmp/reads.want
check "profiling: \"all\" counts each page read once, \"on\" counts no reads" \
	diff /tmp/reads.want /tmp/reads.csv
# probe cow on a one-page file: two read()s, a fault in a private writable
# mapping, one in a read-only mapping.  "on" counts the last only.
cow_count() {	# cow_count MODE: the file's count after probe cow
	echo clear >$PROF && echo "$1" >$PROF
	probe cow "/mnt/a/$DEEP" >/dev/null 2>&1
	echo off >$PROF
	sed -n "s|^\./$DEEP,0,||p" $PROF
}
check "profiling: \"on\" counts faults of read-only mappings only, \"all\" reads and writable mappings too" \
	test "$(cow_count on) $(cow_count all)" = "1 4"
check "private writable mapping on virtio-blk: writes copied, the file unchanged" probe cow /mnt/a/bin/busybox

echo clear >$PROF && echo on >$PROF
sh /tests/workload.sh /mnt/a/bin/busybox >/tmp/workload.out 2>&1
echo off >$PROF
cat $PROF >/tmp/profile.csv
cat $PROF.order >/tmp/profile-order.csv
check "profiling: the workload ran busybox from the image" grep -q "workload: done" /tmp/workload.out
check "profiling: busybox pages were counted" grep -q '^\./bin/busybox,[0-9]*,[1-9][0-9]*$' /tmp/profile.csv
check "profiling: every line is ./path,offset,count with a page offset" \
	awk -F, 'substr($0, 1, 2) != "./" || NF < 3 || $(NF - 1) % 4096 || $NF < 1 { print; bad = 1 } END { exit bad }' /tmp/profile.csv
sh /tests/workload.sh /mnt/a/bin/busybox >/dev/null 2>&1
check "profiling: off stops the counting" sh -c "cat $PROF | cmp /tmp/profile.csv -"
echo clear >$PROF
check "profiling: clear empties the profile" sh -c "test -z \"\$(cat $PROF)\""
echo on >$PROF
check_fails "profiling: an unknown command is refused" sh -c "echo bogus >$PROF"

# ---- the ordered view: volumeN.order -------------------------------------
# order_ranks FILE: the header, then ./path,offset,count,first lines whose
# ranks are 1..N, each once.
order_ranks() {
	head -n 1 "$1" | grep -qx '# axfs-profile order' || { echo "no header"; return 1; }
	sed 1d "$1" >/tmp/order.lines
	awk -F, 'substr($0, 1, 2) != "./" || NF < 4 || $(NF - 2) % 4096 || $NF < 1 { print; bad = 1 } END { exit bad }' \
		/tmp/order.lines || return 1
	awk -F, '{ print $NF }' /tmp/order.lines | sort -n >/tmp/order.ranks
	seq 1 "$(wc -l </tmp/order.lines)" | cmp - /tmp/order.ranks
}
ORDER=$PROF.order
check "order: $ORDER exists beside $PROF, root's alone (-rw-------, root root)" \
	sh -c "ls -ln $ORDER | grep -q '^-rw------- *1 0 *0 '"
check_fails "order: another user cannot read it" su -s /bin/sh axfsuser -c "cat $ORDER"
check "order: the workload's profile, with ranks 1..N each once" order_ranks /tmp/profile-order.csv
check "order: its lines with a count are $PROF's lines" \
	sh -c "sed 1d /tmp/profile-order.csv | awk -F, '\$(NF - 1) > 0' | sed 's/,[0-9]*\$//' | cmp /tmp/profile.csv -"
# A read() of a compressed 17-page file, then a fault on another file, in
# "on" (which counts the fault only): the pages read are ranked in the
# order read, the page faulted after them.
echo 3 >/proc/sys/vm/drop_caches
echo clear >$PROF && echo on >$PROF
cat "/mnt/a/$F" >/dev/null
probe mmap "/mnt/a/$DEEP" >/dev/null 2>&1
echo off >$PROF
cat $ORDER >/tmp/order.csv
{ echo '# axfs-profile order'
  seq 0 16 | awk -v f="./$F" '{ print f "," $1 * 4096 ",0," $1 + 1 }'
  echo "./$DEEP,0,1,18"; } >/tmp/order.want
check "order: pages read by read() ranked 1..17, then the faulted page 18" \
	sh -c 'sort /tmp/order.csv >/tmp/order.got && sort /tmp/order.want | diff - /tmp/order.got'
echo clear >$PROF
check "order: clear leaves the header alone" sh -c "[ \"\$(cat $ORDER)\" = '# axfs-profile order' ]"
echo on >$PROF
cat "/mnt/a/$DEEP" >/dev/null
cat "/mnt/a/$F" >/dev/null
echo off >$PROF
cat $ORDER >/tmp/order2.csv
check "order: after clear, ranks start again at 1 (a read() of a cached page is a use)" \
	sh -c "grep -qx '\./$DEEP,0,0,1' /tmp/order2.csv && [ \$(sed 1d /tmp/order2.csv | wc -l) = 18 ]"
check "order: ... and run 1..18, each once" order_ranks /tmp/order2.csv
cat /mnt/a/bin/busybox >/dev/null
check "order: off ranks nothing" sh -c "cat $ORDER | cmp /tmp/order2.csv -"
echo on >$PROF

# ---- per-mount counters: /sys/fs/axfs/<s_id>/ ------------------------------
counter() { cat "$SYS/$1"; }
echo 3 >/proc/sys/vm/drop_caches
c0=$(counter cblocks_inflated) b0=$(counter device_bytes_read)
cat /mnt/a/bin/busybox >/dev/null
c1=$(counter cblocks_inflated) b1=$(counter device_bytes_read)
cat /mnt/a/bin/busybox >/dev/null
c2=$(counter cblocks_inflated) b2=$(counter device_bytes_read)
check "counters: reading busybox inflates cblocks and reads the device ($c0 -> $c1 cblocks, $b0 -> $b1 bytes)" \
	test "$c1" -gt "$c0" -a "$b1" -gt "$b0"
check "counters: reading it again from the page cache adds nothing ($c2 cblocks, $b2 bytes)" \
	test "$c2" = "$c1" -a "$b2" = "$b1"
check "counters: mountstats' cblock_inflations is cblocks_inflated ($c2)" \
	grep -q " on /mnt/a with fstype axfs cblock_cache=[0-9]* cblock_inflations=$c2\$" /proc/self/mountstats
check "readahead: reading busybox in order took cblocks from the readahead ($(counter readahead_cblocks))" \
	test "$(counter readahead_cblocks)" -gt 0
echo "AXFS-PROFILE-BEGIN"
cat /tmp/profile.csv
echo "AXFS-PROFILE-END"

check "virtio-blk: every file, type, mode, owner, size, device number, link target and content" compare_listing /mnt/a $LIST
check "readdir: . and .. first, d_type and d_ino agree with lstat" probe dtype /mnt/a
check "pread at and past EOF returns 0" sh -c 'for f in /mnt/a/sizes/*; do probe pread "$f" || exit 1; done'
check "mmap reads what read() reads, zero after EOF" sh -c 'for f in /mnt/a/sizes/* /mnt/a/bin/busybox; do probe mmap "$f" || exit 1; done'
check "4 concurrent readers see the same bytes (cblock cache)" probe threads 4 /mnt/a/sizes
check "statfs: type 0x48a0e4cd, name length 255" sh -c '[ "$(stat -f -c "%t %l" /mnt/a)" = "48a0e4cd 255" ]'
check "st_blksize is 4096" sh -c '[ "$(stat -c %o /mnt/a/bin/busybox /mnt/a/sizes)" = "$(printf "4096\n4096")" ]'
check "/proc/mounts: axfs, read-only" grep -q "^$TREE /mnt/a axfs ro[ ,]" /proc/mounts
check_fails "writes are refused" touch /mnt/a/newfile
check "remount read-only" mount -o remount,ro /mnt/a
umount /mnt/a

# ---- the cblock cache: module parameter cblock_cache, /proc/self/mountstats
# Readahead off, so a read of one page inflates only its cblock: page 0 of
# A, page 0 of B, the page cache dropped, page 0 of A again.  With two
# entries A's cblock is still cached: 2 inflations.  With one entry it is
# 3 only if the drop really evicted A's page; it did not in one run (2),
# perhaps held by a per-CPU LRU batch (compact_memory drains those, but
# costs seconds a call under TCG), so that case checks only that the
# parameter and the counter work.
revisit() {	# revisit ENTRIES READAHEAD-KIB: cblocks inflated by the reads above
	# cblock_cache is read-only once loaded: reload with it.
	rmmod axfs && modprobe axfs cblock_cache="$1" cblock_readahead="$2" &&
		mount -t axfs "$TREE" /mnt/a || return 1
	for f in bin/busybox sizes/text-65537 bin/busybox; do
		echo 1 >/proc/sys/vm/drop_caches
		dd if="/mnt/a/$f" of=/dev/null bs=4096 count=1 2>/dev/null
	done
	sed -n 's|.* on /mnt/a with fstype axfs *cblock_cache='"$1"' cblock_inflations=\([0-9]*\)$|\1|p' \
		/proc/self/mountstats
	ra_read "$2" >/tmp/readahead-$2
	umount /mnt/a
}
# Readahead in the image's order (module parameter cblock_readahead), on
# the same mounts: busybox read whole, with the readahead off (0) and at
# its default; the device requests (/sys/block/DEV/stat, reads completed)
# and the counters.  The cblocks inflated are the same; with the
# readahead the device is asked less often.
ra_read() {	# ra_read KIB: "KIB requests cblocks_inflated readahead_cblocks device_bytes"
	local stat=/sys/block/${TREE#/dev/}/stat r0 c0 a0 b0
	echo 3 >/proc/sys/vm/drop_caches
	read -r r0 _ <$stat
	c0=$(cat $SYS/cblocks_inflated) a0=$(cat $SYS/readahead_cblocks) b0=$(cat $SYS/device_bytes_read)
	cat /mnt/a/bin/busybox >/dev/null
	read -r r1 _ <$stat
	echo "$1 $((r1 - r0)) $(($(cat $SYS/cblocks_inflated) - c0)) $(($(cat $SYS/readahead_cblocks) - a0)) $(($(cat $SYS/device_bytes_read) - b0))"
}
RA=/sys/block/${TREE#/dev/}/queue/read_ahead_kb
ra=$(cat "$RA")
cc=$(cat /sys/module/axfs/parameters/cblock_cache)
check_fails "cblock cache: the module parameter is read-only once loaded" \
	sh -c "echo 8 >/sys/module/axfs/parameters/cblock_cache"
ra_def=$(cat /sys/module/axfs/parameters/cblock_readahead)
echo 0 >"$RA"
n1=$(revisit 1 0)
n2=$(revisit 2 "$ra_def")
echo "$ra" >"$RA"
rmmod axfs && modprobe axfs cblock_cache="$cc"
check "cblock cache: cblock_cache=1 read at mount, inflations counted in /proc/self/mountstats (2 or 3: ${n1:-none})" \
	sh -c "[ '$n1' = 2 ] || [ '$n1' = 3 ]"
check "cblock cache: 2 entries, two readers in turn: each cblock inflated once (2: ${n2:-none})" \
	test "$n2" = 2
ra0=$(cat /tmp/readahead-0)
ra1=$(cat /tmp/readahead-$ra_def)
echo "# busybox read whole: readahead KiB, device requests, cblocks inflated, read ahead, bytes: $ra0 / $ra1"
set -- $ra0 $ra1
check "readahead: off (0 KiB): nothing read ahead ($ra0)" test "${4:-x}" = 0 -a "${2:-0}" -gt 0
check "readahead: $ra_def KiB: cblocks taken from it, fewer device requests for the same inflations ($ra1 against $ra0)" \
	test "${9:-0}" -gt 0 -a "${7:-0}" -lt "${2:-0}" -a "${8:-x}" = "${3:-y}"


M=$(disk treemeta)
check "virtio-blk: compressed metadata and 4 KiB cblocks: full comparison" mount_compare /mnt/a "$M"
umount /mnt/a 2>/dev/null
M=$(disk treebig)
check "virtio-blk: 1 MiB cblocks: full comparison" mount_compare /mnt/a "$M"
check "1 MiB cblocks: 4 concurrent readers" probe threads 4 /mnt/a/sizes
umount /mnt/a 2>/dev/null

# ---- loop device ---------------------------------------------------------
modprobe loop
losetup -r /dev/loop0 "$TREE"
check "loop device: full comparison" mount_compare /mnt/a /dev/loop0
umount /mnt/a 2>/dev/null
losetup -d /dev/loop0

# ---- MTD: mtdram (point() with virtual address), every source syntax -----
# Big enough for the tree image and, later, the dual image's mmap segment.
sz=$TREE_SIZE
[ "$DUAL_MMAP_SIZE" -gt "$sz" ] && sz=$DUAL_MMAP_SIZE
kb=$(( (sz + 131071) / 131072 * 128 ))
modprobe mtdram total_size=$kb erase_size=128
N=$(mtdnum "mtdram test device")
dd if="$TREE" of=/dev/mtd$N bs=128k 2>/dev/null
check "mtdram: mount mtd$N: full comparison" mount_compare /mnt/a mtd$N
umount /mnt/a 2>/dev/null
BBSUM=$(grep ' \./bin/busybox$' $LIST | cut -c1-64)
for src in "mtd:mtdram test device" /dev/mtd$N; do
	check "mtdram: mount '$src', st_blksize 4096" sh -c "mount -t axfs '$src' /mnt/a &&
		[ \"\$(sha256sum </mnt/a/bin/busybox | cut -c1-64)\" = $BBSUM ] &&
		[ \"\$(stat -c %o /mnt/a/bin/busybox)\" = 4096 ]"
	umount /mnt/a 2>/dev/null
done
modprobe mtdblock
dmesg_mark
check "mtdram: mount /dev/mtdblock$N: full comparison" mount_compare /mnt/a /dev/mtdblock$N
mtdblock_mapped() { dmesg_since | grep -q "axfs (mtd$N): /dev/mtdblock$N: .*, mapped"; }
check "mtdram: /dev/mtdblock$N is read through the MTD (mapped), not the block layer" mtdblock_mapped
umount /mnt/a 2>/dev/null

# ---- physical address: XIP to user space --------------------------------
check "physaddr=$PHYS_XIP: full comparison" mount_compare /mnt/b -o physaddr=$PHYS_XIP none
check "physaddr: /proc/mounts shows physaddr=" grep -q "physaddr=$PHYS_XIP" /proc/mounts
check "counters: /sys/fs/axfs/physaddr=$PHYS_XIP: bytes copied from memory, cblocks inflated, none read ahead ($(cat /sys/fs/axfs/physaddr=$PHYS_XIP/* | tr '\n' ' '))" \
	sh -c "cd /sys/fs/axfs/physaddr=$PHYS_XIP && [ \$(cat device_bytes_read) -gt 0 ] && [ \$(cat cblocks_inflated) -gt 0 ] && [ \$(cat readahead_cblocks) = 0 ]"
# The mount claims its memory (request_mem_region): /proc/iomem names it,
# and a second mount of the same memory is refused.
grep -B 1 -A 1 ': axfs$' /proc/iomem | detail
check "physaddr: /proc/iomem shows the image's memory claimed by axfs" \
	grep -q "^ *${PHYS_XIP#0x}-[0-9a-f]* : axfs\$" /proc/iomem
refused "physaddr: a second mount of the same memory is refused" "is in use" -o physaddr=$PHYS_XIP none
check "physaddr: run busybox from the XIP mount" sh -c '[ "$(/mnt/b/bin/busybox echo xip-exec-ok)" = xip-exec-ok ]'
check "physaddr: the workload runs from the XIP mount" sh -c 'sh /tests/workload.sh /mnt/b/bin/busybox | grep -q "workload: done"'
probe xip /mnt/b/bin/busybox >/tmp/xip.out 2>&1
check "physaddr: busybox text is mapped VM_MIXEDMAP with $XIP_BB_RSS_KB kB in RAM ($(head -n 1 /tmp/xip.out))" \
	grep -q "^mixedmap=1 size_kb=[0-9]* rss_kb=$XIP_BB_RSS_KB\$" /tmp/xip.out
# XIP checked, not assumed: the mapped bytes equal read()'s, and every XIP
# page's frame, per /proc/self/pagemap, lies in the image's memory.
probe pagemap /mnt/b/bin/busybox $PHYS_XIP $XIP_SIZE >/tmp/pagemap.out 2>&1
XIP_BB_PAGES=$(sed -n 's/^pages=\([0-9]*\) .*/\1/p' /tmp/pagemap.out)
check "physaddr: busybox mapped from the image's memory, not copied ($(head -n 1 /tmp/pagemap.out), $((XIP_BB_RSS_KB / 4)) not XIP)" \
	grep -q "^pages=[0-9]* in_image=$((${XIP_BB_PAGES:-0} - XIP_BB_RSS_KB / 4))\$" /tmp/pagemap.out
# read() copies XIP pages from the image, a private writable mapping
# copies them on write from there too, and with no readahead on a memory
# mount, faults and reads of the other pages do not read XIP ones around
# them into the page cache: after busybox is mapped and every page
# touched, mapped writable and written, then read whole, at most its
# non-XIP pages are cached.
sync && echo 3 >/proc/sys/vm/drop_caches
probe xip /mnt/b/bin/busybox >/dev/null 2>&1
check "physaddr: private writable mapping: writes copied, the file unchanged" probe cow /mnt/b/bin/busybox
cat /mnt/b/bin/busybox >/dev/null
probe incore /mnt/b/bin/busybox >/tmp/incore.out 2>&1
check "physaddr: XIP pages read, mapped and copied on write without the page cache ($(tail -n 1 /tmp/incore.out), $XIP_BB_RSS_KB KiB not XIP)" \
	sh -c "[ \$(sed -n 's/^incore_kb=\\([0-9]*\\) .*/\\1/p' /tmp/incore.out) -le $XIP_BB_RSS_KB ]"
check "physaddr: mmap of compressed files through the page cache" \
	sh -c 'for f in /mnt/b/sizes/*; do probe mmap "$f" || exit 1; done'
check "physaddr: readdir, pread, st_blksize" \
	sh -c 'probe dtype /mnt/b && probe pread /mnt/b/bin/busybox && [ "$(stat -c %o /mnt/b/bin/busybox)" = 4096 ]'
umount /mnt/b

# ---- phram: an MTD over the same memory, point() without physical address
modprobe phram phram=axfsxip,$PHYS_XIP,$XIP_SIZE
check "phram: mount mtd:axfsxip: full comparison" mount_compare /mnt/b mtd:axfsxip
check "phram: mapped, XIP pages through the page cache" \
	sh -c 'probe xip /mnt/b/bin/busybox | grep -q "^mixedmap=0"'
# phram's point() gives a kernel address but no physical one: the same
# bytes are served from page-cache copies, none from the image's frames.
probe pagemap /mnt/b/bin/busybox $PHYS_XIP $XIP_SIZE >/tmp/pagemap.out 2>&1
check "phram: mapped bytes equal read(), from page-cache copies ($(head -n 1 /tmp/pagemap.out))" \
	grep -q "^pages=[1-9][0-9]* in_image=0\$" /tmp/pagemap.out
umount /mnt/b 2>/dev/null

# ---- dual device ---------------------------------------------------------
STORE=$(disk store)
check "dual: physaddr=$PHYS_DUAL + second_dev=$STORE: full comparison" \
	mount_compare /mnt/c -o physaddr=$PHYS_DUAL,second_dev=$STORE none
check "dual: run busybox from the XIP segment" sh -c '[ "$(/mnt/c/bin/busybox echo dual-ok)" = dual-ok ]'
umount /mnt/c 2>/dev/null
RW=$(disk storerw)
modprobe block2mtd block2mtd=$RW,128KiB
B2M=$(awk -F'[: "]+' -v n="block2mtd: $RW" 'index($0, "\"" n "\"") { sub("mtd", "", $1); print $1 }' /proc/mtd)
check "dual: physaddr + second_dev=mtd$B2M (block2mtd): full comparison" \
	mount_compare /mnt/c -o physaddr=$PHYS_DUAL,second_dev=mtd$B2M none
check "readahead: on the MTD (block2mtd) store, cblocks taken from it ($(cat /sys/fs/axfs/physaddr=$PHYS_DUAL/readahead_cblocks))" \
	test "$(cat /sys/fs/axfs/physaddr=$PHYS_DUAL/readahead_cblocks)" -gt 0
umount /mnt/c 2>/dev/null
MMAPSEG=$(disk mmapseg)
check "dual: two block devices ($MMAPSEG + second_dev=$STORE): full comparison" \
	mount_compare /mnt/c -o second_dev=$STORE "$MMAPSEG"
umount /mnt/c 2>/dev/null
dd if="$MMAPSEG" of=/dev/mtd$N bs=128k 2>/dev/null
check "dual: two MTDs (mtd$N mtdram + second_dev=mtd$B2M block2mtd): full comparison" \
	mount_compare /mnt/c -o second_dev=mtd$B2M mtd$N
umount /mnt/c 2>/dev/null

# ---- options and refusals ----------------------------------------------------
refused "dual image without second_dev= is refused" "no magic at the end" -o physaddr=$PHYS_DUAL none
refused "missing second_dev device is refused" "cannot open second_dev" -o physaddr=$PHYS_DUAL,second_dev=/dev/nonexistent none
refused "unknown mount option is refused" "Unknown parameter" -o bogus=1 "$TREE"
refused "unaligned physaddr= is refused" "not aligned" -o physaddr=0x10000800 none
refused "physaddr= in System RAM is refused" "System RAM" -o physaddr=0x1000000 none
refused "physsize= smaller than the image is refused" "physsize" -o physaddr=$PHYS_XIP,physsize=64K none
# Without -t, mount(8) probes with MS_SILENT: no message for a wrong magic.
refused "a store segment alone is not an AXFS image" "" "$STORE"

# ---- images as found in the field (field-images.sh) ------------------------
[ -f /tests/field.sh ] && . /tests/field.sh

# ---- corrupted images (smoke runs of matrix.sh: HOSTILE=1) -----------------
# hostile.sh empties the kernel log into /tmp/dmesg.before and .hostile.
: >/tmp/dmesg.before
: >/tmp/dmesg.hostile
if [ "${HOSTILE:-0}" = 1 ]; then
	umount /mnt/a /mnt/b /mnt/c 2>/dev/null
	. /tests/hostile.sh
fi

# ---- lockdown: physaddr= is refused where /dev/mem is ----------------------
# Raised through securityfs to the level lockdown=integrity on the command
# line sets (the same state: kernel_locked_down).  A boot with it on the
# command line refuses the unsigned axfs.ko of these tests outright
# (kernel/README.md, "Lockdown"); axfs.ko is loaded by then here, and
# nothing is loaded after this point.
umount /mnt/a /mnt/b /mnt/c 2>/dev/null
LD=/sys/kernel/security/lockdown
[ -e $LD ] || mount -t securityfs securityfs /sys/kernel/security
check "lockdown: the lockdown LSM is active, level none ($(cat $LD 2>&1))" grep -q '\[none\]' $LD
echo integrity >$LD 2>/dev/null
check "lockdown: raised to integrity ($(cat $LD 2>&1))" grep -q '\[integrity\]' $LD
check_fails "lockdown: /dev/mem cannot be opened" dd if=/dev/mem of=/dev/null bs=4096 count=1
lockdown_eperm() {	# lockdown_eperm MOUNT-ARGS...: EPERM, and dmesg says why
	dmesg_mark
	if mount -t axfs "$@" /mnt/c 2>/tmp/lockdown.err; then
		umount /mnt/c
		echo "mounted"
		return 1
	fi
	# busybox mount says this for EPERM and only for it.
	grep -q "permission denied (are you root?)" /tmp/lockdown.err &&
		dmesg_since | grep -q "physaddr= reads physical memory, which the kernel lockdown forbids" ||
		{ cat /tmp/lockdown.err; dmesg_since; return 1; }
}
check "lockdown: physaddr=$PHYS_XIP is refused with EPERM" lockdown_eperm -o physaddr=$PHYS_XIP none
check "lockdown: physaddr=$PHYS_DUAL with second_dev= is refused with EPERM" \
	lockdown_eperm -o physaddr=$PHYS_DUAL,second_dev="$(disk store)" none
check "lockdown: a block device still mounts, XIP pages through the page cache" \
	sh -c "mount -t axfs '$TREE' /mnt/a && [ \"\$(/mnt/a/bin/busybox echo ld-ok)\" = ld-ok ] && umount /mnt/a"

# ---- the end ---------------------------------------------------------------
umount /mnt/a /mnt/b /mnt/c 2>/dev/null
check "unload axfs.ko" rmmod axfs
check "/proc/axfs is gone after unloading" test ! -e /proc/axfs
dmesg >>/tmp/dmesg.hostile
echo "AXFS-DMESG-BEGIN"
cat /tmp/dmesg.before /tmp/dmesg.hostile | grep -i -E 'axfs|mtd|phram|block2mtd|slub' | tail -n 400
echo "AXFS-DMESG-END"
check "dmesg: no oops, BUG (KASAN), WARNING (lockdep), UBSAN or slab corruption" \
	sh -c '! cat /tmp/dmesg.before /tmp/dmesg.hostile | grep -E "Oops|BUG|WARNING|UBSAN:|Call Trace|general protection|RIP:|Kernel panic|Redzone|Poison overwritten|Object padding|slab error|corrupted"'
