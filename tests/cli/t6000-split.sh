#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# axfs split: cut at mmap_size, join back byte-identical, refuse bad input.
. "$(dirname "$0")/lib.sh"

mk_tree() {
	mkdir -p tree/bin tree/etc tree/lib &&
	head -c 300000 /dev/urandom >tree/bin/prog &&
	yes 'some text that compresses' | head -c 200000 >tree/etc/conf &&
	for i in 1 2 3 4 5 6 7 8; do yes "lib $i" | head -c $((i * 9000)) >tree/lib/l$i; done &&
	ln -s ../etc/conf tree/bin/conf
}

test_expect_success 'build an image with an mmap limit' '
	mk_tree &&
	"$AXFS" mkfs -q --xip /bin/prog --mmap-limit 1MiB tree -o img.axfs
'

test_expect_success 'split writes two segments that add up to the image' '
	"$AXFS" split img.axfs --mmap nor.bin --store nand.bin &&
	a=$(stat -c %s nor.bin) && b=$(stat -c %s nand.bin) &&
	test $((a + b)) -eq $(stat -c %s img.axfs) &&
	test $((a % 4096)) -eq 0 && test "$b" -gt 0
'

test_expect_success 'the mmap segment holds the superblock and the XIP pages' '
	cmp -n $(stat -c %s nor.bin) nor.bin img.axfs &&
	"$AXFS" split --info img.axfs >info &&
	grep -E "^xip .* mmap$" info &&
	grep -E "^compressed .* store$" info &&
	! grep -E " both$" info
'

test_expect_success 'join restores the original bytes' '
	"$AXFS" split --join nor.bin nand.bin -o joined.axfs &&
	cmp img.axfs joined.axfs
'

test_expect_success 'the two segments read back like the whole image' '
	"$AXFS" extract nor.bin nand.bin out1 &&
	"$AXFS" extract img.axfs out2 &&
	diff -r out1 out2
'

test_expect_success 'fsck and dump take the two segments' '
	"$AXFS" fsck nor.bin nand.bin &&
	"$AXFS" dump nor.bin nand.bin >dump &&
	grep -E "^  xip .* mmap$" dump && grep -E "^  compressed .* store$" dump
'

test_expect_success 'everything the driver reads in place lies inside the mmap segment' '
	"$AXFS" dump --json nor.bin nand.bin >d.json &&
	python3 -c "
import json, os
d = json.load(open(\"d.json\"))
mm = d[\"superblock\"][\"mmap_size\"]
assert mm == os.path.getsize(\"nor.bin\"), mm
for r in d[\"regions\"]:
    stored = r[\"compressed_size\"] or r[\"size\"]
    if r[\"name\"] in (\"byte_aligned\", \"compressed\") or not stored:
        continue
    assert r[\"fsoffset\"] + stored <= mm, r
    assert r[\"compressed_size\"] == 0, r  # used in place, not inflated
"
'

test_expect_success 'fsck refuses swapped and truncated segments' '
	test_expect_code() { want=$1; shift; "$@"; test $? -eq $want; } &&
	test_expect_code 4 "$AXFS" fsck nand.bin nor.bin &&
	head -c $(( $(stat -c %s nand.bin) - 100 )) nand.bin >cut.bin &&
	! "$AXFS" fsck nor.bin cut.bin
'

test_expect_success 'swapped segments are refused with a reason' '
	! "$AXFS" split --join nand.bin nor.bin -o bad.axfs 2>err &&
	test ! -e bad.axfs &&
	grep "nand.bin" err
'

test_expect_success 'a truncated store segment is refused' '
	head -c $(( $(stat -c %s nand.bin) - 100 )) nand.bin >short.bin &&
	! "$AXFS" split --join nor.bin short.bin -o bad.axfs 2>err &&
	test ! -e bad.axfs && test -s err
'

test_expect_success 'an image without a store segment is not split' '
	"$AXFS" mkfs -q tree -o whole.axfs &&
	! "$AXFS" split whole.axfs --mmap a --store b 2>err &&
	grep -i "no store segment" err && test ! -e a && test ! -e b
'

test_expect_success 'an mmap limit too small for the XIP pages fails and says by how much' '
	! "$AXFS" mkfs -q --xip /bin/prog --mmap-limit 64KiB tree -o small.axfs 2>err &&
	grep -i "bytes" err && test ! -e small.axfs
'

test_expect_success 'usage errors exit 16' '
	"$AXFS" split img.axfs --mmap only; test $? -eq 16
'

test_done
