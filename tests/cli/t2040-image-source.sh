#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# axfs mkfs with an AXFS image as SOURCE: re-planning a released image
# with a new profile, block size or XIP options gives the very bytes a
# build from the original tree with those options gives (same timestamp),
# for a real tree of installed Debian programs and libraries, with (as
# root) device nodes, odd owners and hard links, from one image or from
# the two segments of a split image, without root.
. "$(dirname "$0")/lib.sh"

root=false
test "$(id -u)" = 0 && root=true

# A file of N distinct pages plus a tail.
pages() {
	python3 -c '
import sys, random
r = random.Random(sys.argv[1])
sys.stdout.buffer.write(bytes(r.getrandbits(8) for _ in range(4096 * int(sys.argv[2]) + 77)))
' "$1" "$2" >"$1"
}

test_expect_success 'setup: a tree of installed programs and libraries, and a profile' '
	mkdir -p tree/usr/bin tree/usr/lib tree/etc tree/data &&
	cp -a "$AXFS_TOP"/examples/rootfs/. tree/ &&
	for f in /usr/bin/ls /usr/bin/cp /usr/bin/tar /usr/bin/perl /bin/mount; do
		test -f "$f" && cp -p "$f" tree/usr/bin/
	done &&
	for f in /lib/x86_64-linux-gnu/libc.so.6 /usr/lib/x86_64-linux-gnu/libz.so.1 \
		 /usr/lib/x86_64-linux-gnu/libarchive.so.13; do
		test -f "$f" && cp -pL "$f" tree/usr/lib/
	done &&
	test "$(ls tree/usr/bin | wc -l)" -ge 3 &&
	(cd tree/data && pages big 40 && pages small 2) &&
	cp tree/data/small tree/data/small.copy &&
	ln tree/usr/bin/ls tree/usr/bin/ls.hard &&
	ln -s ../usr/bin/ls tree/data/ls.link &&
	: >tree/data/empty && : >tree/data/empty2 &&
	mkdir tree/data/emptydir && chmod 1777 tree/data/emptydir &&
	chmod 4755 tree/usr/bin/cp &&
	if $root; then
		mkdir -p tree/dev &&
		mknod tree/dev/console c 5 1 && mknod tree/dev/sda1 b 8 1 &&
		chown 0:6 tree/dev/sda1 && chmod 660 tree/dev/sda1 &&
		mkfifo tree/dev/initctl &&
		python3 -c "import socket; socket.socket(socket.AF_UNIX).bind(\"tree/dev/log\")" &&
		chown 1000:1000 tree/data/small.copy &&
		chown -h 65534:4294967294 tree/data/ls.link &&
		chown 33:33 tree/data/emptydir
	fi &&
	{
		echo "./usr/bin/ls.hard,0,50" &&
		echo "./usr/bin/ls,8192,5" &&
		echo "./usr/lib/libc.so.6,4096,30" &&
		echo "./usr/lib/libc.so.6,65536,12" &&
		echo "./data/big,0,9" && echo "./data/big,40960,8" &&
		echo "./data/small,4096,3"
	} >new.csv &&
	echo "./data/big,81920,4" >other.csv &&
	"$AXFS" mkfs -q tree -o released.axfs
'

# Option mixes that change every part of the layout (under sanitizers,
# which are slow, the first two).
mixes="'-p new.csv' '-p new.csv -b 4KiB' \
	'-p new.csv -p other.csv -b 1MiB --compress-metadata=no --xip /usr/bin/tar' \
	'-p new.csv --xip-budget 64KiB -l 1 --compressor zlib' \
	'-p other.csv --xip-suffix --xip /data/*'"
test "${AXFS_SANITIZED:-0}" = 1 && mixes="'-p new.csv' '-p new.csv -b 4KiB'"
eval "set -- $mixes"
i=0
for opts in "$@"; do
	i=$((i + 1))
	test_expect_success "rebuilt from the image with $opts: the bytes of a build from the tree" '
		set -f &&
		"$AXFS" mkfs -q '"$opts"' tree -o want'$i'.axfs &&
		"$AXFS" mkfs -q '"$opts"' released.axfs -o got'$i'.axfs &&
		cmp want'$i'.axfs got'$i'.axfs &&
		! cmp -s want'$i'.axfs released.axfs
	'
done

test_expect_success 'the profile made the pages XIP, and the rebuilt image reads back as the tree' '
	seedread xip got1.axfs >xip &&
	grep -qx "/usr/bin/ls,0" xip && grep -qx "/usr/bin/ls.hard,0" xip &&
	grep -qx "/usr/bin/ls,8192" xip && grep -qx "/data/small,4096" xip &&
	! grep -q "^/data/small.copy," xip &&
	seedread compare got1.axfs tree &&
	"$AXFS" fsck -q got1.axfs
'

test_expect_success 'without --mtime or SOURCE_DATE_EPOCH the rebuild keeps the image timestamp' '
	"$AXFS" mkfs -q --mtime 2001-02-03 tree -o ts.axfs &&
	(unset SOURCE_DATE_EPOCH && "$AXFS" mkfs -q ts.axfs -o ts2.axfs) &&
	cmp ts.axfs ts2.axfs &&
	SOURCE_DATE_EPOCH=1800000000 "$AXFS" mkfs -q ts.axfs -o ts3.axfs &&
	! cmp -s ts.axfs ts3.axfs &&
	"$AXFS" mkfs -q --mtime 1800000000 tree -o ts4.axfs && cmp ts3.axfs ts4.axfs
'

test_expect_success 'a split image rebuilds from its two segments' '
	"$AXFS" mkfs -q --mmap-limit 2MiB --xip /usr/bin/ls tree -o s.axfs &&
	"$AXFS" split s.axfs --mmap s.nor --store s.nand &&
	"$AXFS" mkfs -q s.nor s.nand -p new.csv -o s1.axfs &&
	"$AXFS" mkfs -q -p new.csv tree -o s2.axfs &&
	cmp s1.axfs s2.axfs &&
	"$AXFS" mkfs -q --mmap-limit 2MiB -p new.csv s.nor s.nand s3.axfs &&
	"$AXFS" mkfs -q --mmap-limit 2MiB -p new.csv tree s4.axfs &&
	cmp s3.axfs s4.axfs
'

test_expect_success 'an image rebuilt from itself with its own options is the same image' '
	"$AXFS" mkfs -q released.axfs -o again.axfs &&
	cmp released.axfs again.axfs &&
	"$AXFS" mkfs -q -b 4KiB got1.axfs -p new.csv -o again2.axfs &&
	cmp got2.axfs again2.axfs
'

test_expect_success SETPRIV 'an ordinary user rebuilds an image with devices and other owners' '
	mkdir -m 777 user && cp released.axfs new.csv user/ &&
	chmod 644 user/* &&
	(cd user && as_nobody \
		"$AXFS_NOBODY" mkfs -q released.axfs -p new.csv -o byuser.axfs) &&
	cmp user/byuser.axfs want1.axfs &&
	"$AXFS" dump user/byuser.axfs >dump &&
	grep -q "^c.* 5, *1 .*/dev/console$" dump &&
	grep -q "^b.* 0 *6 .*/dev/sda1$" dump
'

test_expect_success 'a corrupt image is refused, naming the byte offset, and no output is left' '
	cp released.axfs bad.axfs &&
	printf "\377\377\377\377" | dd of=bad.axfs bs=1 seek=8 conv=notrunc 2>/dev/null &&
	{ "$AXFS" mkfs -q bad.axfs -o out.axfs 2>err; test $? = 8; } &&
	cat err && grep -q "bad.axfs" err && grep -q "byte" err &&
	! test -e out.axfs && test -z "$(ls .out.axfs.* 2>/dev/null)"
'

test_expect_success 'a store segment after a source that is no image is an error' '
	{ "$AXFS" mkfs -q tree s.nand -o x.axfs 2>err; test $? = 16; } &&
	grep -q "only an AXFS image source takes a store segment" err &&
	! test -e x.axfs
'

test_done
