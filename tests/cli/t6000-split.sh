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

# The JSON is checked against the seed reader's view of the superblock
# and the descriptors, the files split wrote, and the text of --info.
test_expect_success 'split --info --json: sizes and regions as the seed reader and the files say' '
	"$AXFS" split --info --json img.axfs >info.json &&
	"$AXFS" split --info --json nor.bin nand.bin >info2.json &&
	python3 -c "
import json, os, sys
sys.path.insert(0, os.environ[\"AXFS_TOP\"] + \"/tests/tools\")
import seedread
fs = seedread.Axfs(\"img.axfs\")
d = json.load(open(\"info.json\"))
assert d[\"image\"] == \"img.axfs\" and d[\"store\"] is None, d
assert d[\"size\"] == fs.size == os.path.getsize(\"img.axfs\"), d
assert d[\"mmap_size\"] == fs.mmap_size == os.path.getsize(\"nor.bin\"), d
assert d[\"store_size\"] == os.path.getsize(\"nand.bin\"), d
assert [r[\"name\"] for r in d[\"regions\"]] == list(seedread.REGIONS)
text = {}
for line in open(\"info\"):
    w = line.split()
    if len(w) == 5 and w[0] in seedread.REGIONS:
        text[w[0]] = w
seen = set()
for r in d[\"regions\"]:
    g = fs.regions[r[\"name\"]]
    stored = g.compressed_size or g.size
    assert (r[\"fsoffset\"], r[\"size\"], r[\"stored_size\"]) == \\
        (g.fsoffset, g.size, stored), (r, vars(g))
    if stored == 0:
        want = \"none\"
    elif g.fsoffset + stored <= fs.mmap_size:
        want = \"mmap\"
    elif g.fsoffset >= fs.mmap_size:
        want = \"store\"
    else:
        want = \"both\"
    assert r[\"segment\"] == want, (r, want)
    seen.add(want)
    t = text[r[\"name\"]]
    assert [int(t[1]), int(t[2]), int(t[3])] == \\
        [r[\"fsoffset\"], r[\"size\"], r[\"stored_size\"]], (t, r)
    assert t[4] == (\"-\" if want == \"none\" else want), (t, r)
assert {\"mmap\", \"store\", \"none\"} <= seen, seen
d2 = json.load(open(\"info2.json\"))
assert d2[\"image\"] == \"nor.bin\" and d2[\"store\"] == \"nand.bin\", d2
del d[\"image\"], d[\"store\"], d2[\"image\"], d2[\"store\"]
assert d == d2
"
'

test_expect_success 'split --json: only with --info, and a full stdout is an error' '
	test_expect_code 16 "$AXFS" split --json img.axfs --mmap a.bin --store b.bin 2>err &&
	grep -q "json.*--info" err &&
	! test -e a.bin &&
	if test -w /dev/full; then
		test_expect_code 8 "$AXFS" split --info --json img.axfs >/dev/full 2>err &&
		grep -q "^axfs split: error writing to standard output" err
	fi
'

test_expect_success 'join restores the original bytes' '
	"$AXFS" split --join nor.bin nand.bin -o joined.axfs &&
	cmp img.axfs joined.axfs
'

test_expect_success 'the two segments read back like the whole image' '
	"$AXFS" extract --store nand.bin nor.bin out1 &&
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
	test_expect_code 4 "$AXFS" fsck nand.bin nor.bin >out &&
	grep "segments are swapped" out &&
	head -c $(( $(stat -c %s nand.bin) - 100 )) nand.bin >cut.bin &&
	! "$AXFS" fsck nor.bin cut.bin
'

test_expect_success 'swapped segments are refused with a reason' '
	! "$AXFS" split --join nand.bin nor.bin -o bad.axfs 2>err &&
	test ! -e bad.axfs &&
	grep "nand.bin.*segments are swapped" err &&
	! "$AXFS" dump nand.bin nor.bin 2>err && grep "segments are swapped" err &&
	! "$AXFS" extract --store nor.bin nand.bin swapped 2>err && grep "segments are swapped" err
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

# An independent reader (tests/tools/mmapseg.py, no code shared with the
# C tools) gets only the mmap segment and must find in it every XIP page
# that the seed-driver reader finds in the whole image, and every region
# the 2008 driver uses in place.  Profiles, whole-file XIP, mmap limits,
# cblock sizes and compressed metadata vary.
MMAPSEG="python3 $AXFS_TOP/tests/tools/mmapseg.py"
SEEDREAD="python3 $AXFS_TOP/tests/tools/seedread.py"
mk_profile() {	# page p of /bin/prog is counted p + 1 times: high pages are hot
	p=0 && while [ $p -lt 74 ]; do
		echo "./bin/prog,$((p * 4096)),$((p + 1))"; p=$((p + 1))
	done >prof.csv &&
	p=0 && while [ $p -lt 18 ]; do
		echo "./lib/l8,$((p * 4096)),$((200 + p))"; p=$((p + 1))
	done >>prof.csv
}

test_expect_success 'the mmap segment alone holds every XIP page and in-place region' '
	mk_profile &&
	printf "split: {mmap-limit: 2MiB}\nxip: {files: [/etc/conf]}\n" >pol.yaml &&
	n=0 &&
	for opts in "--xip /bin/prog --mmap-limit 1MiB" \
		    "-p prof.csv --mmap-limit 1MiB -b 4KiB" \
		    "-p prof.csv --mmap-limit 2MiB -b 1MiB --compress-metadata=yes" \
		    "--xip /lib/* --mmap-limit 4MiB -b 16KiB" \
		    "-c pol.yaml -p prof.csv"; do
		n=$((n + 1)) &&
		(set -f; "$AXFS" mkfs -q $opts tree -o v$n.axfs) &&
		"$AXFS" split -q v$n.axfs --mmap v$n.nor --store v$n.nand &&
		"$AXFS" split -q --join v$n.nor v$n.nand -o v$n.joined &&
		cmp v$n.axfs v$n.joined &&
		$SEEDREAD xip v$n.axfs | sort >v$n.want &&
		$MMAPSEG v$n.nor >v$n.got &&
		test -s v$n.want && cmp v$n.want v$n.got &&
		$MMAPSEG --regions v$n.nor >v$n.regions &&
		grep -q "^xip .* in-place$" v$n.regions &&
		grep -q "^compressed .* store$" v$n.regions ||
		{ echo "failed: $opts"; exit 1; }
	done &&
	grep -q "^node_type .* in-place$" v2.regions &&
	grep -q "^node_type .* copied$" v3.regions
'

test_expect_success 'the segment reader refuses a short segment and a bad cut' '
	head -c $(( $(stat -c %s v1.nor) - 4096 )) v1.nor >short.nor &&
	! $MMAPSEG short.nor 2>err && grep "mmap_size" err &&
	! $MMAPSEG v1.axfs 2>err && grep "mmap_size" err &&
	x=$(python3 "$AXFS_TOP/tests/tools/axfs_patch.py" v1.axfs get desc.xip.fsoffset) &&
	xs=$(python3 "$AXFS_TOP/tests/tools/axfs_patch.py" v1.axfs get desc.xip.size) &&
	cp v1.axfs early.axfs &&
	python3 "$AXFS_TOP/tests/tools/axfs_patch.py" early.axfs set sb.mmap_size $((x + xs)) &&
	head -c $((x + xs)) early.axfs >early.nor &&
	! $MMAPSEG early.nor 2>err && grep "strings" err
'

test_expect_success 'an mmap limit too small for the --xip pages names the exact excess' '
	"$AXFS" mkfs -q --xip /bin/prog --mmap-limit 16MiB tree -o roomy.axfs &&
	need=$("$AXFS" dump --json roomy.axfs | python3 -c "import json,sys; print(json.load(sys.stdin)[\"superblock\"][\"mmap_size\"])") &&
	! "$AXFS" mkfs -q --xip /bin/prog --mmap-limit 128KiB tree -o small.axfs 2>err &&
	grep "needs $need bytes, $((need - 131072)) more than the mmap limit of 131072" err &&
	test ! -e small.axfs
'

test_expect_success 'over the mmap limit without a budget, profiled pages fail the build with a hint' '
	! "$AXFS" mkfs -p prof.csv --mmap-limit 256KiB tree -o fit.axfs 2>err &&
	grep "more than the mmap limit of 262144; 92 of the XIP pages come from the profile: with an XIP budget" err &&
	test ! -e fit.axfs &&
	printf "split: {mmap-limit: 256KiB}\n" >lim.yaml &&
	! "$AXFS" mkfs -c lim.yaml -p prof.csv tree -o fit.axfs 2>err &&
	grep "92 of the XIP pages come from the profile" err &&
	test ! -e fit.axfs
'

test_expect_success 'over the mmap limit with a budget, the coldest profiled pages are dropped, with a warning' '
	"$AXFS" mkfs -q -p prof.csv --mmap-limit 16MiB tree -o all.axfs &&
	$SEEDREAD xip all.axfs | sort >all.xip &&
	test $(wc -l <all.xip) -eq 92 &&
	printf "split: {mmap-limit: 256KiB}\nxip: {budget: 16MiB}\n" >limb.yaml &&
	"$AXFS" mkfs -q -c limb.yaml -p prof.csv tree -o pol.axfs &&
	"$AXFS" mkfs -p prof.csv --xip-budget 16MiB --mmap-limit 256KiB tree -o fit.axfs 2>err &&
	cmp pol.axfs fit.axfs &&
	grep "warning: the mmap limit of 262144 bytes leaves no room for [0-9]* profiled XIP pages" err &&
	dropped=$(sed -n "s/.*leaves no room for \([0-9]*\) profiled.*/\1/p" err) &&
	"$AXFS" split -q fit.axfs --mmap fit.nor --store fit.nand &&
	test $(stat -c %s fit.nor) -le 262144 &&
	$MMAPSEG fit.nor >fit.xip &&
	kept=$(wc -l <fit.xip) && test "$kept" -gt 0 &&
	test $((kept + dropped)) -eq 92 &&
	sort -t, -k3,3nr prof.csv | head -n "$kept" |
		sed "s/^\.//; s/,[0-9]*\$//" | sort >hottest &&
	cmp hottest fit.xip
'

test_expect_success 'usage errors exit 16' '
	"$AXFS" split img.axfs --mmap only; test $? -eq 16
'

test_done
