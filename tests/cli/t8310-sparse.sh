#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Sparse files (issue 28 §2): mkfs from a directory finds holes with
# lseek(SEEK_DATA), from a GNU or pax sparse tar with the member's sparse
# map, and maps each run of hole pages to the one shared zero page without
# reading, hashing or copying it: a hole costs its node table entries, not
# its length.  Every file reads back byte for byte, the images of a tree
# and of its sparse tars are the same bytes, and a 16 GiB file with a few
# bytes of data is built under a CPU limit that reading it page by page
# exceeds (the code before this change needed about 10 s of CPU for it).
. "$(dirname "$0")/lib.sh"

# A file system that keeps holes (ext4, xfs, btrfs, tmpfs do): a 1 GiB
# file of one hole takes almost no blocks, and GNU tar finds its holes.
test_lazy_prereq HOLES '
	truncate -s 1G hole.probe &&
	test "$(du -k hole.probe | cut -f1)" -lt 1024 &&
	tar --sparse --format=gnu -cf hole.tar hole.probe &&
	test "$(stat -c %s hole.tar)" -lt 65536
'

# put FILE OFFSET: standard input written into FILE at byte OFFSET.
put() {
	dd of="$1" oflag=seek_bytes seek="$2" conv=notrunc status=none
}

# same IMG DIR FILE...: every FILE read back from IMG equals DIR/FILE.
same() {
	s_img=$1 s_dir=$2
	shift 2
	for s_f in "$@"; do
		"$AXFS" cat "$s_img" "/$s_f" >got || return 1
		cmp got "$s_dir/$s_f" || { echo "/$s_f differs in $s_img"; return 1; }
	done
}

. "$AXFS_TOP/tests/cli/lib-hostile.sh"

FILES="a b c dense a2 z"

test_expect_success HOLES 'setup: sparse files with holes of every shape' '
	mkdir tree &&
	# Data at 0, unaligned random data across pages, text across a page
	# boundary, a trailing hole ending inside a page.
	truncate -s $((12 * 1048576 + 1234)) tree/a &&
	echo "head of a" | put tree/a 0 &&
	head -c 9000 /dev/urandom | put tree/a $((5000000 + 123)) &&
	echo "across a page boundary" | put tree/a $((9 * 1048576 - 3)) &&
	# Nothing but a hole, with a partial last page.
	truncate -s $((8 * 1048576 + 17)) tree/b &&
	# A hole first, data in the very last byte.
	truncate -s $((3 * 1048576 - 1)) tree/c &&
	printf z | put tree/c $((3 * 1048576 - 1)) &&
	# The bytes of a, without holes (a twin of the same size: its key and
	# the comparison step over a`s holes), and a sparse copy of a.
	cp --sparse=never tree/a tree/dense &&
	cp --sparse=always tree/a tree/a2 &&
	# Zeros held as data: read, and still shared as zero pages.
	head -c 1048576 /dev/zero >tree/z &&
	test "$(du -k tree/a | cut -f1)" -lt 1024 &&
	test "$(du -k tree/dense | cut -f1)" -ge 12000
'

test_expect_success HOLES 'a sparse tree builds and reads back byte for byte' '
	SOURCE_DATE_EPOCH=1 "$AXFS" mkfs -q tree -o dir.axfs &&
	"$AXFS" fsck -q dir.axfs &&
	same dir.axfs tree $FILES &&
	test "$(stat -c %s dir.axfs)" -lt 200000
'

# a2 and dense share a's nodes: their keys, with a's holes stepped over
# and dense's zeros read, are the same.
test_expect_success HOLES 'the report: shared hole pages and twins are dedup' '
	SOURCE_DATE_EPOCH=1 "$AXFS" mkfs -q tree -o rep.axfs --report rep.txt &&
	cmp dir.axfs rep.axfs &&
	grep " /a  .* default:8 dedup:3065\$" rep.txt &&
	grep " /a2  .* dedup:3073\$" rep.txt &&
	grep " /dense  .* dedup:3073\$" rep.txt &&
	grep " /b  .* default:1 dedup:2048\$" rep.txt &&
	grep " /z  .* dedup:256\$" rep.txt
'

for fmt in gnu pax; do
	test_expect_success HOLES "a $fmt sparse tar: holes from its sparse map, the tree's image" '
		tar --sparse --format='$fmt' -cf '$fmt'.tar -C tree . &&
		test "$(stat -c %s '$fmt'.tar)" -lt $((14 * 1048576)) &&
		SOURCE_DATE_EPOCH=1 "$AXFS" mkfs -q '$fmt'.tar -o '$fmt'.axfs &&
		"$AXFS" fsck -q '$fmt'.axfs &&
		same '$fmt'.axfs tree $FILES &&
		cmp dir.axfs '$fmt'.axfs
	'
done

# 16 GiB of apparent size: 4 Mi pages.  Page by page that is about 10 s of
# CPU from a directory and more from a tar; with holes skipped, about
# 0.3 s (under ASan a few times that): the limit of 4 s tells them apart.
test_expect_success HOLES 'setup: a 16 GiB file with a few bytes of data' '
	mkdir big &&
	truncate -s 16G big/f &&
	echo "start of f" | put big/f 0 &&
	head -c 5000 /dev/urandom >rand && put big/f 70000 <rand &&
	echo middle | put big/f $((8 * 1073741824 + 5)) &&
	echo end | put big/f $((16 * 1073741824 - 4)) &&
	tar --sparse --format=gnu -cf big-gnu.tar -C big f &&
	tar --sparse --format=pax -cf big-pax.tar -C big f &&
	test "$(stat -c %s big-gnu.tar)" -lt 65536 &&
	test "$(stat -c %s big-pax.tar)" -lt 65536
'

for src in big big-gnu.tar big-pax.tar; do
	test_expect_success HOLES "mkfs $src (16 GiB) within 4 s of CPU" '
		(ulimit -t 4 &&
		 SOURCE_DATE_EPOCH=1 "$AXFS" mkfs -q '$src' -o '$src'.axfs) &&
		"$AXFS" fsck -q '$src'.axfs
	'
done

test_expect_success HOLES 'the 16 GiB images: the same bytes, its data, one zero page' '
	cmp big.axfs big-gnu.tar.axfs && cmp big.axfs big-pax.tar.axfs &&
	test "$(stat -c %s big.axfs)" -lt 1048576 &&
	"$AXFS" cat big.axfs /f | head -c 1048576 >got &&
	head -c 1048576 big/f | cmp - got &&
	# 4 Mi nodes, 6 cnodes: data in pages 0, 17 and 18 (bytes 70000 to
	# 74999), 2097152 and 4194303; every other page is the zero page.
	test "$(P big.axfs get sb.blocks)" = 4194304 &&
	test "$(P big.axfs get desc.cnode_index.max_index)" = 6
'

# Over the format: a member whose sparse map claims 2^50 bytes for five
# bytes of data is refused by name before anything is allocated or
# spooled for it.
test_expect_success 'a sparse member larger than an AXFS file is refused by name' '
	python3 - <<-\EOF &&
	import io, tarfile
	with tarfile.open("huge.tar", "w", format=tarfile.PAX_FORMAT) as t:
	    ti = tarfile.TarInfo("GNUSparseFile.0/f")
	    ti.size = 5
	    ti.pax_headers = {"GNU.sparse.size": str(1 << 50),
	                      "GNU.sparse.numblocks": "1",
	                      "GNU.sparse.offset": str((1 << 50) - 5),
	                      "GNU.sparse.numbytes": "5",
	                      "GNU.sparse.name": "f"}
	    t.addfile(ti, io.BytesIO(b"hello"))
	EOF
	test_expect_code 8 "$AXFS" mkfs -q huge.tar -o huge.axfs 2>err &&
	grep "huge.tar.: entry .f.: it is 1125899906842624 bytes; an AXFS file is at most 17592186040320 bytes" err &&
	test ! -e huge.axfs
'

# Issue 38 §4: what a sparse member may claim.  sparse_tar OUT NAME:SIZE...
# writes a pax tar (no file on disk) whose member NAME claims SIZE bytes
# with "hello" as its last 5 bytes: a few KiB whatever the sizes.
sparse_tar() {
	python3 - "$@" <<-\EOF
	import io, sys, tarfile
	with tarfile.open(sys.argv[1], "w", format=tarfile.PAX_FORMAT) as t:
	    for arg in sys.argv[2:]:
	        name, size = arg.rsplit(":", 1)
	        size = int(size)
	        ti = tarfile.TarInfo("GNUSparseFile.0/" + name)
	        ti.size = 5
	        ti.pax_headers = {"GNU.sparse.size": str(size),
	                          "GNU.sparse.numblocks": "1",
	                          "GNU.sparse.offset": str(size - 5),
	                          "GNU.sparse.numbytes": "5",
	                          "GNU.sparse.name": name}
	        t.addfile(ti, io.BytesIO(b"hello"))
	EOF
}

# Far below what packing a 1 TiB claim took (2.9 GB, 38 s).
MEMORY_MIB=390

# A hole costs no image byte but a node a page, which every reader holds
# in memory: the holes of a build are bounded (64 GiB by default,
# --max-holes) before anything is allocated for them, and the file that
# goes over is named.
test_expect_success 'a 10 KiB tar claiming 1 TiB: refused by name at once, no image' '
	sparse_tar tib.tar f:1099511627776 &&
	test "$(stat -c %s tib.tar)" -le 10240 &&
	(limit_memory $MEMORY_MIB; ulimit -t 5;
	 "$AXFS" mkfs -q tib.tar -o tib.axfs 2>err; echo $? >rc) &&
	test "$(cat rc)" = 8 &&
	grep "tib.tar.: ./f. is 1099511627776 bytes of which 1099511627771 are holes, which bring the image.s holes over the 68719476736 bytes max_holes (mkfs --max-holes) allows" err &&
	test_path_is_missing tib.axfs
'

test_expect_success HOLES 'a directory with a 1 TiB sparse file: the same refusal' '
	mkdir tib &&
	truncate -s 1T tib/f && echo hello | put tib/f $((1099511627776 - 6)) &&
	(limit_memory $MEMORY_MIB; ulimit -t 5;
	 "$AXFS" mkfs -q tib -o tibd.axfs 2>err; echo $? >rc) &&
	test "$(cat rc)" = 8 &&
	grep "tib.: ./f. is 1099511627776 bytes of which 109951162[0-9]* are holes, which bring the image.s holes over the 68719476736 bytes" err &&
	test_path_is_missing tibd.axfs
'

test_expect_success 'the holes of the whole build count: the member that goes over is named; --max-holes moves the bound' '
	sparse_tar two.tar a:42949672960 b:42949672960 &&
	test_expect_code 8 "$AXFS" mkfs -q two.tar -o two.axfs 2>err &&
	grep "two.tar.: ./b. is 42949672960 bytes of which 42949672955 are holes" err &&
	test_path_is_missing two.axfs &&
	sparse_tar small.tar a:8388608 b:8388608 &&
	test_expect_code 8 "$AXFS" mkfs -q --max-holes 12MiB small.tar -o small.axfs 2>err &&
	grep "small.tar.: ./b. is 8388608 bytes of which 8388603 are holes, which bring the image.s holes over the 12582912 bytes" err &&
	"$AXFS" mkfs -q --max-holes 16MiB small.tar -o small.axfs &&
	"$AXFS" fsck -q small.axfs &&
	"$AXFS" cat small.axfs /b | tail -c 5 | grep -x hello
'

# The packer keeps a run of hole pages as one run of its node tables
# (pack/pack_nodes.c), never an entry a page: at the holes bound, a member
# of 64 GiB - 16 KiB + 5 bytes (16 Mi nodes, its 5 bytes of data a tail
# alone in its block, stored byte-aligned: a reason the packer records in
# a list, not in a plan entry a page, which a file without a plan never
# gets) is built in an
# address space of 128 MiB (mkfs with 2 threads needs about 96 MiB of it,
# most of it libraries, stacks and buffers; the code before this change
# held 9 bytes a hole page, a 128 MiB node_index array alone, and ran out).
# Under the sanitizers limit_memory bounds each allocation instead: 64 MiB,
# half that array.  The writer still builds the node tables the format
# needs, an entry a page, one at a time: 16 MiB each here.
if test "${AXFS_SANITIZED:-0}" = 1; then HOLES_MIB=64; else HOLES_MIB=128; fi

test_expect_success 'at the holes bound: a 64 GiB sparse member packs in bounded memory, reads back, fsck clean' '
	sparse_tar b64.tar f:$((68719476736 - 16384 + 5)) &&
	(limit_memory $HOLES_MIB;
	 SOURCE_DATE_EPOCH=1 "$AXFS" mkfs -j 2 -q b64.tar -o b64.axfs 2>err;
	 echo $? >rc) &&
	no_alloc_failure err &&
	test "$(cat rc)" = 0 &&
	"$AXFS" fsck -q b64.axfs &&
	test "$(P b64.axfs get sb.blocks)" = 16777213 &&
	test "$(stat -c %s b64.axfs)" -lt 1048576 &&
	# holes read as zeros, the data where the map put it
	"$AXFS" cat b64.axfs /f | head -c 4194304 >got &&
	head -c 4194304 /dev/zero | cmp - got &&
	SOURCE_DATE_EPOCH=1 "$AXFS" mkfs -q b64.tar -o rep64.axfs --report rep64.txt &&
	grep " /f  .* default:1 tail:1 dedup:16777211\$" rep64.txt &&
	cmp b64.axfs rep64.axfs
'

# sparse_file NAME SIZE OFFSET:LEN...: NAME, SIZE bytes written sparse,
# with LEN bytes of a pattern that names the block at each OFFSET.
sparse_file() {
	python3 - "$@" <<-\EOF
	import sys
	name, size = sys.argv[1], int(sys.argv[2])
	with open(name, "wb") as w:
	    w.truncate(size)
	    for a in sys.argv[3:]:
	        off, n = map(int, a.split(":"))
	        w.seek(off)
	        w.write(((b"block at %d;" % off) * (n // 8 + 1))[:n])
	EOF
}

# Runs of holes between data, unaligned data, a twin of the same bytes
# (its nodes are the first file's), a hole at the end: every byte back,
# from a directory and from its sparse tar, the same image.
test_expect_success HOLES 'holes between data blocks, and a twin: extract and cat give every byte, fsck clean' '
	mkdir rt &&
	for f in r t; do
		sparse_file rt/$f $((96 * 1048576 + 77)) 0:5000 \
			$((3 * 1048576 + 17)):9000 $((50 * 1048576)):4096 \
			$((80 * 1048576 - 10)):20 || return 1
	done &&
	test "$(du -k rt/r | cut -f1)" -lt 1024 &&
	tar --sparse --format=pax -cf rt.tar -C rt r t &&
	(limit_memory $MEMORY_MIB;
	 SOURCE_DATE_EPOCH=1 "$AXFS" mkfs -q rt.tar -o rt.axfs 2>err) &&
	no_alloc_failure err &&
	"$AXFS" fsck -q rt.axfs &&
	same rt.axfs rt r t &&
	"$AXFS" extract rt.axfs out &&
	cmp out/r rt/r && cmp out/t rt/t &&
	SOURCE_DATE_EPOCH=1 "$AXFS" mkfs -q -j 1 rt -o rt-dir.axfs &&
	cmp rt.axfs rt-dir.axfs &&
	# node tables stored raw: written from the packer'"'"'s runs
	"$AXFS" mkfs -q --compress-metadata=no rt -o rt-raw.axfs &&
	"$AXFS" fsck -q rt-raw.axfs &&
	same rt-raw.axfs rt r t &&
	# t is r'"'"'s twin: one node range, and the report calls it dedup
	SOURCE_DATE_EPOCH=1 "$AXFS" mkfs -q rt -o rep2.axfs --report rep2.txt &&
	grep " /t  .* dedup:24577\$" rep2.txt
'

# Past the holes bound (raised), the image our readers would refuse at
# their defaults is not written: 18 Mi nodes need 72 MiB of tables and
# fsck arrays, over the 64 MiB + 8 x 40 KiB an image of that size gets.
test_expect_success 'with --max-holes raised, an image our readers would refuse is an error naming the file and the limit' '
	sparse_tar t72.tar big:77309411328 &&
	test_expect_code 8 "$AXFS" mkfs -q --max-holes 1TiB t72.tar -o t72.axfs 2>err &&
	grep "t72.tar.: the image would be [0-9]* bytes with 18874368 nodes (one a 4 KiB page, holes included), whose tables need [0-9]* bytes of memory to read; our readers give an image of that size [0-9]* (64 MiB + 8 x its size) unless run with --max-memory, so nothing was written; the largest file is ./big. (18874368 pages)" err &&
	test_path_is_missing t72.axfs
'

test_done
