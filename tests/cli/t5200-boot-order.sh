#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The boot order (issue 40): an ordered profile (/proc/axfs/volumeN.order)
# makes mkfs store the ranked compressed pages in rank order in the first,
# fewest cblocks, ahead of the cold data, as `axfs dump --json` reads the
# image back; the files read back byte for byte (our reader and the
# independent 2008-driver reader), fsck is clean, the XIP choice is the
# 2008 form's, the size stays within 1 %, the bytes are reproducible, and
# dedup, holes, hard links, --mmap-limit and split keep working.
# merge-profile writes and merges the ordered form.
. "$(dirname "$0")/lib.sh"

SEEDREAD="python3 $AXFS_TOP/tests/tools/seedread.py"

test_expect_success 'setup: a tree of programs, text, a sparse file, links' '
	mkdir -p tree/bin tree/lib tree/share tree/var &&
	for f in ls cp tar gzip sed; do
		cp /usr/bin/$f tree/bin/ || exit 1
	done &&
	cp /bin/bash tree/lib/ &&
	python3 -c "
import random
r = random.Random(5)
words = [\"%x\" % r.getrandbits(20) for _ in range(3000)]
for i in range(6):
    with open(\"tree/share/doc%d\" % i, \"w\") as f:
        f.write(\" \".join(r.choice(words) for _ in range(40000 + 9000 * i)))
" &&
	truncate -s 600K tree/var/sparse &&
	printf data | dd of=tree/var/sparse bs=1 seek=300000 conv=notrunc 2>/dev/null &&
	cp tree/share/doc1 tree/share/doc1.copy &&
	ln tree/bin/cp tree/bin/cp.hard &&
	ln -s ../bin/ls tree/var/ls &&
	printf tiny >tree/var/tiny
'

# An ordered profile shaped like a boot: files in a random order, each read
# in a few runs of pages, ranks rising; a third of the pages counted.
# Files of which the tree holds an identical copy are left out: dedup may
# store such a page before its rank is known (see pack_order.c).
test_expect_success 'setup: an ordered profile and its 2008 form' '
	python3 - <<-\EOF_PY
	import os, random
	r = random.Random(40)
	files = []
	for root, dirs, names in os.walk("tree"):
	    for n in sorted(names):
	        p = os.path.join(root, n)
	        if os.path.islink(p) or n.endswith(".copy") or n == "doc1":
	            continue
	        files.append((p[4:], (os.path.getsize(p) + 4095) // 4096))
	files.sort()
	r.shuffle(files)
	rank = 0
	out = ["# axfs-profile order\n"]
	for path, n in files:
	    pages = set()
	    for _ in range(max(1, n // 6)):
	        s = r.randrange(n)
	        pages.update(range(s, min(n, s + r.randint(1, 6))))
	    for pg in sorted(pages):
	        rank += 1
	        count = r.choice([0, 0, 3])
	        out.append(".%s,%d,%d,%d\n" % (path, pg * 4096, count, rank))
	open("boot.order", "w").write("".join(out))
	open("boot.csv", "w").write("".join(
	    ",".join(l.split(",")[:3]) + "\n" for l in out[1:]
	    if l.split(",")[2] != "0"))
	EOF_PY
	test $(wc -l <boot.order) -gt 100 &&
	test -s boot.csv
'

test_expect_success 'mkfs -v with the ordered profile says how the order was packed' '
	SOURCE_DATE_EPOCH=1000000 "$AXFS" mkfs -v -p boot.order tree -o ord.axfs 2>log >out &&
	cat log out &&
	grep "^  boot order: [0-9]* ranked pages, [0-9]* of them compressed in rank order into the first [0-9]* blocks$" out &&
	SOURCE_DATE_EPOCH=1000000 "$AXFS" mkfs -q -p boot.csv tree -o un.axfs &&
	! "$AXFS" mkfs -p boot.csv tree -o un2.axfs | grep "boot order"
'

test_expect_success 'the files read back byte for byte (axfs extract, axfs cat, the 2008 reader)' '
	"$AXFS" extract ord.axfs x &&
	diff -r tree x &&
	"$AXFS" cat ord.axfs /share/doc3 | cmp - tree/share/doc3 &&
	"$AXFS" cat ord.axfs /var/sparse | cmp - tree/var/sparse &&
	$SEEDREAD compare ord.axfs tree
'

test_expect_success 'fsck is clean' '
	"$AXFS" fsck ord.axfs &&
	"$AXFS" fsck un.axfs
'

# From dump --json and the profile: every compressed page that has a rank
# is in cblocks 0..H-1, H = ceil(pages / pages per cblock); the ranks rise
# from one cblock to the next; only ranked pages (or pages sharing a ranked
# page's data) are there; XIP pages are the 2008 form's.
test_expect_success 'dump: ranked pages in the first, fewest cblocks, in rank order' '
	"$AXFS" dump --json --pages ord.axfs >ord.json &&
	"$AXFS" dump --json --pages un.axfs >un.json &&
	python3 - ord.json un.json boot.order out <<-\EOF_PY
	import json, re, sys
	ordj, unj = (json.load(open(f)) for f in sys.argv[1:3])
	rank = {}
	for line in open(sys.argv[3]).read().splitlines()[1:]:
	    path, off, count, first = line.rsplit(",", 3)
	    rank[(path[1:], int(off) // 4096)] = int(first)
	per = 65536 // 4096
	m = re.search(r"boot order: (\d+) ranked pages, (\d+) of them compressed "
	              r"in rank order into the first (\d+) blocks",
	              open(sys.argv[4]).read())
	ordered, H = int(m.group(2)), int(m.group(3))
	cb = {}        # cnode -> cblock
	pages = {}     # cnode -> pages holding it
	hot = {}       # cnode -> smallest rank of its pages
	xip = set()
	for ino in ordj["inodes"]:
	    for pg in ino.get("pages", []):
	        key = (ino["path"], pg["page"])
	        if pg["type"] == "xip":
	            xip.add(key)
	        if pg["type"] != "compressed":
	            continue
	        c = pg["node_index"]
	        cb[c] = pg["cblock"]
	        pages.setdefault(c, set()).add(key)
	        if key in rank:
	            hot[c] = min(rank[key], hot.get(c, 1 << 62))
	infront = [c for c in hot if cb[c] < H]
	assert len(infront) == ordered, (len(infront), ordered)
	assert H == -(-ordered // per), ("not the fewest cblocks", H, ordered)
	assert ordered * 10 >= len(hot) * 9, (ordered, len(hot))
	assert H > 2, H
	for c, k in cb.items():
	    if k < H:
	        assert c in hot, ("a cold page in a front cblock", c, k)
	for c in hot:
	    if cb[c] >= H:	# shares the data of an earlier cold page
	        assert len(pages[c]) > 1, ("a ranked page left behind", c)
	last = 0
	for k in range(H):
	    rs = sorted(r for c, r in hot.items() if cb[c] == k)
	    assert rs and rs[0] > last, ("ranks do not rise", k, last)
	    last = rs[-1]
	unxip = set((i["path"], p["page"]) for i in unj["inodes"]
	            for p in i.get("pages", []) if p["type"] == "xip")
	assert xip == unxip and xip, "the XIP pages differ from the 2008 form"
	print("%d ranked compressed pages in %d cblocks" % (ordered, H))
	EOF_PY
'

test_expect_success 'the ordered image is within 1 % of the unordered one' '
	a=$(stat -c %s ord.axfs) && b=$(stat -c %s un.axfs) &&
	echo "ordered $a unordered $b" &&
	test $((a * 100)) -le $((b * 101))
'

test_expect_success 'reproducible: the same bytes with 1 and 2 jobs, twice' '
	SOURCE_DATE_EPOCH=1000000 "$AXFS" mkfs -q -j 1 -p boot.order tree -o r1.axfs &&
	SOURCE_DATE_EPOCH=1000000 "$AXFS" mkfs -q -j 2 -p boot.order tree -o r2.axfs &&
	SOURCE_DATE_EPOCH=1000000 "$AXFS" mkfs -q -j 2 -p boot.order tree -o r3.axfs &&
	cmp ord.axfs r1.axfs && cmp r1.axfs r2.axfs && cmp r2.axfs r3.axfs
'

test_expect_success 'no rank, no change: rank 0 everywhere gives the 2008 bytes' '
	{ echo "# axfs-profile order" &&
	  sed "s/\$/,0/" boot.csv; } >zero.order &&
	SOURCE_DATE_EPOCH=1000000 "$AXFS" mkfs -q -p zero.order tree -o z.axfs &&
	cmp z.axfs un.axfs
'

test_expect_success 'dedup and hard links still share: identical files, one copy' '
	python3 - ord.json <<-\EOF_PY
	import json, sys
	j = json.load(open(sys.argv[1]))
	by = {i["path"]: i for i in j["inodes"]}
	def nodes(p):
	    return [(q["type"], q["node_index"]) for q in by[p]["pages"]]
	assert nodes("/share/doc1") == nodes("/share/doc1.copy")
	assert nodes("/bin/cp") == nodes("/bin/cp.hard")
	EOF_PY
'

test_expect_success 'block sizes 4 KiB and 1 MiB, --mmap-limit, split, a rebuild from the split image: read back and clean' '
	for opts in "-b 4KiB" "-b 1MiB" "--xip-budget 1MiB --mmap-limit 400KiB" "--xip-budget 16KiB -b 16KiB"; do
		"$AXFS" mkfs -q $opts -p boot.order tree -o v.axfs &&
		"$AXFS" fsck -q v.axfs &&
		$SEEDREAD compare v.axfs tree &&
		rm -rf y && "$AXFS" extract v.axfs y && diff -r tree y ||
		{ echo "failed: $opts"; exit 1; }
	done &&
	"$AXFS" mkfs -v --xip-budget 1MiB --mmap-limit 400KiB -p boot.order tree -o s.axfs >out 2>err &&
	grep "they are stored compressed" err &&
	grep "boot order" out &&
	"$AXFS" split -q s.axfs --mmap s.nor --store s.nand &&
	"$AXFS" fsck -q s.nor s.nand &&
	rm -rf y && "$AXFS" extract --store s.nand s.nor y && diff -r tree y &&
	$SEEDREAD compare s.axfs tree &&
	"$AXFS" split -q --join s.nor s.nand -o s.joined && cmp s.axfs s.joined &&
	"$AXFS" mkfs -v -p boot.order s.nor s.nand -o re.axfs >out &&
	grep "boot order: [0-9]* ranked pages, [1-9][0-9]* of them" out &&
	"$AXFS" fsck -q re.axfs &&
	rm -rf y && "$AXFS" extract re.axfs y && diff -r tree y
'

test_expect_success 'merge-profile: the ordered form out, ranks merged by position' '
	cat >a.order <<-\EOF_A &&
	# axfs-profile order
	./bin/ls,0,3,1
	./bin/ls,4096,0,2
	./share/doc0,0,0,3
	./share/doc0,4096,1,4
	EOF_A
	cat >b.order <<-\EOF_B &&
	# axfs-profile order
	./share/doc0,4096,2,1
	./bin/tar,0,0,2
	EOF_B
	printf "./bin/ls,0,5\n./bin/sed,0,1\n" >c.csv &&
	"$AXFS" merge-profile a.order b.order c.csv -o m.order &&
	cat >want <<-\EOF_W &&
	# axfs-profile order
	./bin/ls,0,8,1
	./bin/ls,4096,0,3
	./bin/sed,0,1,0
	./bin/tar,0,0,4
	./share/doc0,0,0,5
	./share/doc0,4096,3,2
	EOF_W
	test_cmp want m.order &&
	"$AXFS" merge-profile c.csv >c.out && ! grep "#" c.out &&
	"$AXFS" merge-profile --min-count 4 a.order >mc.order &&
	grep -x "./bin/ls,4096,0,2" mc.order &&
	grep -x "./share/doc0,4096,0,4" mc.order &&
	"$AXFS" merge-profile m.order >again && test_cmp m.order again &&
	"$AXFS" mkfs -q -p m.order tree -o mm.axfs && "$AXFS" fsck -q mm.axfs
'

test_expect_success 'merge-profile: a bad ordered line names file:line:column' '
	printf "# axfs-profile order\n./bin/ls,0,1\n" >bad1 &&
	test_expect_code 8 "$AXFS" merge-profile bad1 2>err &&
	grep "bad1:2: expected .path,offset,count,first., found only two commas" err &&
	printf "# axfs-profile order\n./bin/ls,0,1,-1\n" >bad2 &&
	test_expect_code 8 "$AXFS" merge-profile bad2 2>err &&
	grep "bad2:2:14: first .-1. is not a non-negative decimal number" err &&
	test_expect_code 8 "$AXFS" mkfs -q -p bad2 tree -o no.axfs 2>err &&
	grep "bad2:2:14" err && ! test -e no.axfs
'

test_done
