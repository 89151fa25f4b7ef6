#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# axfs mkfs: what the writer stores, read back by the independent
# seed-driver reader: a real Debian tree, every metadata layout, owners,
# hard links sharing data, the mmap-limit layout, XIP globs, and the
# warnings for what AXFS cannot store.
. "$(dirname "$0")/lib.sh"

# desc IMAGE REGION FIELD: a field of a region descriptor (by index).
desc() {
	python3 - "$@" <<-\EOF
	import struct, sys
	img = open(sys.argv[1], "rb").read()
	r, f = int(sys.argv[2]), int(sys.argv[3])
	d = struct.unpack(">Q", img[96 + 8 * r:104 + 8 * r])[0]
	print(struct.unpack(">QQQQBB", img[d:d + 34])[f])
	EOF
}

# field of an entry in `seedread list` (JSON)
entry() {	# IMAGE PATH FIELD
	seedread list "$1" >list.json &&
	python3 -c 'import json,sys; print(json.load(open("list.json"))[sys.argv[1]][sys.argv[2]])' "$2" "$3"
}

zi=/usr/share/zoneinfo
test_lazy_prereq ZONEINFO 'test -d /usr/share/zoneinfo'

test_expect_success ZONEINFO 'a Debian tree (zoneinfo) reads back as the driver would' '
	"$AXFS" mkfs -q $zi -o zi.axfs && seedread compare zi.axfs $zi
'

test_expect_success ZONEINFO 'the same with every metadata layout and block size' '
	for a in "--compress-metadata=yes" "--compress-metadata=no" \
		 "-b 4KiB" "-b 1MiB -l 1"; do
		"$AXFS" mkfs -q $a $zi -o zi2.axfs &&
		seedread compare zi2.axfs $zi || { echo "failed: $a"; exit 1; }
	done
'

test_expect_success 'metadata compression: yes compresses, no does not' '
	mkdir -p t/d && seq 1 5000 | sed "s/^/t\/d\/file-with-a-long-name-/" |
		xargs touch &&
	"$AXFS" mkfs -q --compress-metadata=yes t -o y.axfs &&
	"$AXFS" mkfs -q --compress-metadata=no t -o n.axfs &&
	"$AXFS" mkfs -q t -o a.axfs &&
	test "$(desc y.axfs 0 2)" -gt 0 &&
	test "$(desc n.axfs 0 2)" -eq 0 &&
	test "$(desc a.axfs 0 2)" -gt 0 &&
	test "$(desc a.axfs 0 2)" -lt "$(desc a.axfs 0 1)" &&
	test $(stat -c %s a.axfs) -lt $(stat -c %s n.axfs) &&
	seedread compare y.axfs t && seedread compare n.axfs t
'

test_expect_success 'hard links share one copy of the data' '
	mkdir -p hl1 hl2 &&
	head -c 1048576 /dev/urandom >hl1/data && cp hl1/data hl2/data &&
	for i in 1 2 3 4 5; do ln hl1/data hl1/link$i; cp hl1/data hl2/copy$i; done &&
	"$AXFS" mkfs -q hl1 -o hl1.axfs && seedread compare hl1.axfs hl1 &&
	test $(stat -c %s hl1.axfs) -lt 1200000 &&
	test "$(entry hl1.axfs /link3 sha256)" = "$(entry hl1.axfs /data sha256)"
'

test_expect_success 'owners: kept, --all-root, --uid, --gid' '
	mkdir -p own/sub && echo x >own/sub/f && chown -R 1234:5678 own &&
	"$AXFS" mkfs -q own -o o1.axfs && seedread compare o1.axfs own &&
	test "$(entry o1.axfs /sub/f uid)" -eq 1234 &&
	"$AXFS" mkfs -q --all-root own -o o2.axfs &&
	test "$(entry o2.axfs /sub/f uid)" -eq 0 &&
	test "$(entry o2.axfs /sub/f gid)" -eq 0 &&
	test "$(entry o2.axfs / uid)" -eq 0 &&
	"$AXFS" mkfs -q --uid 7 own -o o3.axfs &&
	test "$(entry o3.axfs /sub/f uid)" -eq 7 &&
	test "$(entry o3.axfs /sub/f gid)" -eq 5678 &&
	"$AXFS" mkfs -q --all-root --gid 9 own -o o4.axfs &&
	test "$(entry o4.axfs /sub uid)" -eq 0 &&
	test "$(entry o4.axfs /sub gid)" -eq 9 &&
	seedread compare --no-owner o4.axfs own
'

test_expect_success 'XIP globs store whole files page-aligned' '
	mkdir -p x/bin x/lib && head -c 10000 /dev/urandom >x/bin/a &&
	head -c 5000 /dev/urandom >x/lib/b && echo c >x/bin/c &&
	"$AXFS" mkfs -q --xip "/bin/*" x -o x.axfs &&
	seedread xip x.axfs >xip &&
	grep -x "/bin/a,0" xip && grep -x "/bin/a,8192" xip &&
	grep -x "/bin/c,0" xip && ! grep "/lib/b" xip &&
	test $(( $(desc x.axfs 1 0) % 4096 )) -eq 0 &&
	seedread compare x.axfs x
'

test_expect_success 'an mmap limit puts the mapped part first, uncompressed' '
	"$AXFS" mkfs -q --xip "/bin/*" --mmap-limit 1MiB x -o m.axfs &&
	size=$(stat -c %s m.axfs) && mm=$(be m.axfs 88 8) &&
	test $((mm % 4096)) -eq 0 && test "$mm" -lt "$size" &&
	test "$mm" -le 1048576 &&
	for r in 0 4 5 6 7 8 9 10 11 12 13 14 15 16 17; do
		test "$(desc m.axfs $r 2)" -eq 0 || exit 1
		test $(( $(desc m.axfs $r 0) + $(desc m.axfs $r 1) )) -le "$mm" ||
			exit 1
	done &&
	test "$(desc m.axfs 2 1)" -gt 0 && test "$(desc m.axfs 2 0)" -eq "$mm" &&
	seedread compare m.axfs x
'

test_expect_success 'without an mmap limit mmap_size is the image size' '
	test "$(be x.axfs 88 8)" -eq "$(stat -c %s x.axfs)"
'

test_expect_success 'per-file times that differ: no warning, one line with -v, each path with -vv' '
	mkdir -p mt/d && echo 1 >mt/a && echo 2 >mt/d/b &&
	touch -d @1000000000 mt/a &&
	"$AXFS" mkfs mt -o mt.axfs 2>err && ! test -s err &&
	"$AXFS" mkfs -v mt -o mt.axfs 2>err &&
	test $(grep -c "modification times are not stored: [0-9]* entries get the image timestamp" err) -eq 1 &&
	! grep "./a." err &&
	"$AXFS" mkfs -vv mt -o mt.axfs 2>err &&
	grep "./a.: not stored: its own mtime" err &&
	"$AXFS" mkfs -q mt -o mt.axfs 2>err && ! test -s err
'

test_expect_success 'one shared time is not a loss' '
	find mt -exec touch -h -d @1000000000 {} + &&
	"$AXFS" mkfs mt -o mt.axfs 2>err && ! test -s err
'

test_expect_success XATTR_USER 'extended attributes are reported as not stored' '
	mkdir xa && echo v >xa/f && touch -d @1700000000 xa xa/f &&
	python3 -c "import os; os.setxattr(\"xa/f\", \"user.k\", b\"v\")" &&
	"$AXFS" mkfs xa -o xa.axfs 2>err &&
	grep "warning: AXFS cannot store extended attributes (1 entry)" err &&
	"$AXFS" mkfs -v xa -o xa.axfs 2>err && grep "./f.: not stored: xattrs" err
'

test_done
