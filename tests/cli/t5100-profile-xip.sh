#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# axfs mkfs -p: a profile turns exactly the listed pages into XIP pages, as
# read back by the independent seed-driver reader (not from mkfs's log);
# budgets take the hottest pages with deterministic ties; the reports say
# the same thing the image does.
. "$(dirname "$0")/lib.sh"

pages() {	# FILE PAGES: a file of PAGES distinct 4 KiB pages (+ a tail)
	python3 -c '
import sys, random
r = random.Random(sys.argv[1])
n = int(sys.argv[2])
sys.stdout.buffer.write(bytes(r.getrandbits(8) for _ in range(4096 * n + 100)))
' "$1" "$2" >"$1"
}

test_expect_success 'set up a tree with awkward names' '
	mkdir -p "tree/usr/bin" "tree/opt/my app" &&
	(cd tree/usr/bin && pages prog 6) &&
	(cd "tree/opt/my app" && pages "a,b c" 4) &&
	(cd tree/usr/bin && pages other 3) &&
	ln -s prog tree/usr/bin/link &&
	cat >profile.csv <<-\EOF_CSV
	# recorded on the device
	./usr/bin/prog,0,40
	./usr/bin/prog,8192,7
	./opt/my app/a,b c,4096,9
	./usr/bin/prog,0,2
	./usr/bin/missing,0,100
	./usr/bin/link,0,3
	./usr/bin/other,65536,5
	EOF_CSV
	printf "./usr/bin/other,4096,1\r\n" >>profile.csv
'

test_expect_success 'exactly the profiled pages are XIP' '
	"$AXFS" mkfs -q tree -p profile.csv -o img.axfs 2>err &&
	seedread xip img.axfs | sort >got &&
	sort >want <<-\EOF_W &&
	/opt/my app/a,b c,4096
	/usr/bin/other,4096
	/usr/bin/prog,0
	/usr/bin/prog,8192
	EOF_W
	diff want got &&
	seedread compare img.axfs tree
'

test_expect_success 'profile lines for absent, non-regular and past-EOF pages are reported' '
	"$AXFS" mkfs tree -p profile.csv -o img2.axfs 2>err &&
	grep -i "missing" err && grep "link" err && grep "other" err &&
	cmp img.axfs img2.axfs
'

test_expect_success 'the XIP pages are read back by axfs dump --pages too' '
	"$AXFS" dump --pages img.axfs >dump &&
	test "$(grep -c " xip index " dump)" = 4 &&
	grep -A8 " /usr/bin/prog$" dump >prog &&
	grep "^    7 pages: 2 xip, [0-9]* compressed, [0-9]* byte-aligned$" prog
'

# count_pages DUMP: "path xip compressed byte-aligned" from the page lines
# of `axfs dump --pages`, and the same from its per-file count lines.
count_pages() {
	python3 - "$1" <<-\EOF_PY
	import re, sys
	lines = open(sys.argv[1]).read().splitlines()
	path, seen = None, {}
	for l in lines:
	    m = re.match(r"^-\S+ +\d+ +\d+ +\d+ +\d+ (.*)$", l)
	    if m:
	        path = m.group(1)
	        seen[path] = [0, 0, 0]
	        continue
	    m = re.match(r"^    page \d+: node \d+ (\S+) ", l)
	    if m:
	        seen[path][["xip", "compressed", "byte-aligned"].index(m.group(1))] += 1
	        continue
	    m = re.match(r"^    (\d+) pages?: (\d+) xip, (\d+) compressed, (\d+) byte-aligned", l)
	    if m:
	        n, x, c, b = map(int, m.groups())
	        assert [x, c, b] == seen[path] and n == x + c + b, (path, l, seen[path])
	        print("%s %d %d %d" % (path, x, c, b))
	EOF_PY
}

test_expect_success 'dump --pages counts each file'"'"'s pages by node type' '
	"$AXFS" dump --pages img.axfs >dump &&
	count_pages dump >counts &&
	test "$(wc -l <counts)" = 3 &&
	seedread xip img.axfs | sed "s/,[0-9]*\$//" | sort | uniq -c |
		while read n p; do
			grep -F "$p $n " counts || exit 1
		done
'

test_expect_success 'a budget keeps the hottest pages; ties go by path, then offset' '
	cat >tie.csv <<-\EOF_T &&
	./usr/bin/prog,4096,5
	./usr/bin/other,0,5
	./usr/bin/prog,0,5
	./usr/bin/prog,12288,9
	EOF_T
	"$AXFS" mkfs -q tree -p tie.csv --xip-budget 8KiB -o b.axfs &&
	seedread xip b.axfs | sort >got &&
	printf "/usr/bin/other,0\n/usr/bin/prog,12288\n" >want &&
	diff want got &&
	"$AXFS" mkfs -q tree -p tie.csv --xip-budget 12KiB -o b3.axfs &&
	seedread xip b3.axfs | sort >got3 &&
	printf "/usr/bin/other,0\n/usr/bin/prog,0\n/usr/bin/prog,12288\n" >want3 &&
	diff want3 got3
'

test_expect_success 'the chosen set and the bytes do not depend on -j' '
	"$AXFS" mkfs -q -j 1 tree -p tie.csv --xip-budget 8KiB -o j1.axfs &&
	"$AXFS" mkfs -q -j 3 tree -p tie.csv --xip-budget 8KiB -o j3.axfs &&
	cmp b.axfs j1.axfs && cmp b.axfs j3.axfs
'

test_expect_success 'dump -p: profile counts, and why pages are XIP or not' '
	"$AXFS" dump -p tie.csv b.axfs >dump 2>err &&
	test ! -s err &&
	count_pages dump >counts &&
	grep -A8 " /usr/bin/prog$" dump >prog &&
	grep "^    page 0: .*, profile count 5$" prog &&
	grep "^    page 1: .*, profile count 5$" prog &&
	grep "^    page 3: node [0-9]* xip .*, profile count 9$" prog &&
	! grep "page 2: .*profile" prog &&
	grep "^    7 pages: 1 xip, [0-9]* compressed, [0-9]* byte-aligned; why: profile 1, not-profiled 0, left-out 2$" prog &&
	grep -A5 " /usr/bin/other$" dump | grep "why: profile 1, not-profiled 0, left-out 0$" &&
	"$AXFS" dump -p tie.csv --json b.axfs >dump.json &&
	python3 - <<-\EOF_PY
	import json
	d = {i["path"]: i for i in json.load(open("dump.json"))["inodes"]}
	prog = d["/usr/bin/prog"]
	assert prog["xip"] == 1 and prog["compressed"] + prog["byte_aligned"] == 6
	assert prog["why"] == {"profile": 1, "not_profiled": 0, "left_out": 2}
	assert [p.get("profile_count") for p in prog["pages"]] == \
	    [5, 5, None, 9, None, None, None], prog["pages"]
	EOF_PY
'

test_expect_success 'dump -p: whole files, hard links, lines the image lacks' '
	mkdir -p hl &&
	(cd hl && pages a 3 && ln a b && pages c 2) &&
	printf "./b,4096,3\n./a,4096,2\n./gone,0,1\n./c,65536,1\n" >hl.csv &&
	"$AXFS" mkfs -q hl -p hl.csv --xip /c -o hl.axfs &&
	"$AXFS" dump -p hl.csv hl.axfs >dump 2>err &&
	grep "2 profile pages name no page of a regular file" err &&
	for f in a b; do
		grep -A5 " /$f$" dump | grep "^    page 1: .* xip .*, profile count 5$" &&
		grep -A5 " /$f$" dump |
			grep "why: profile 1, not-profiled 0, left-out 0$" || return 1
	done &&
	grep -A4 " /c$" dump | grep "3 pages: 3 xip, .*why: profile 0, not-profiled 3, left-out 0$" &&
	"$AXFS" dump -q -p hl.csv hl.axfs >/dev/null 2>err && test ! -s err &&
	printf "./a,100,1\n" >bad.csv &&
	{ "$AXFS" dump -p bad.csv hl.axfs 2>err; test $? = 8; } &&
	grep "bad.csv:1:" err
'

test_expect_success 'several profiles are summed' '
	printf "./usr/bin/other,8192,4\n" >p2.csv &&
	printf "./usr/bin/other,8192,4\n./usr/bin/prog,4096,1\n" >p3.csv &&
	"$AXFS" mkfs -q tree -p p2.csv -p p3.csv --xip-budget 4KiB -o s.axfs &&
	seedread xip s.axfs >got && test "$(cat got)" = "/usr/bin/other,8192"
'

test_expect_success 'the text and JSON reports agree with the image' '
	"$AXFS" mkfs -q tree -p profile.csv -o r.axfs --report rep.txt \
		--report-json rep.json --report-svg rep.svg &&
	cmp img.axfs r.axfs &&
	python3 - <<-\EOF_PY
	import json, subprocess, collections
	rep = json.load(open("rep.json"))
	out = subprocess.run(["python3", __import__("os").environ["AXFS_TOP"] +
	      "/tests/tools/seedread.py", "xip", "r.axfs"], capture_output=True,
	      text=True, check=True).stdout.splitlines()
	want = collections.Counter(l.rsplit(",", 1)[0] for l in out)
	got = {f["path"]: f["xip"] for f in rep["files"] if f["xip"]}
	assert got == dict(want), (got, want)
	assert rep["totals"]["xip_pages"] == 4
	assert rep["totals"]["ram_saved"] == 4 * 4096
	assert rep["profile"]["missing"] == 1
	prog = [f for f in rep["files"] if f["path"] == "/usr/bin/prog"][0]
	assert prog["why"]["profile"] == 2 and prog["profile_count"] == 49, prog
	EOF_PY
	grep "/usr/bin/prog" rep.txt | grep "profile:2" &&
	grep -q "<svg" rep.svg && grep -q "/usr/bin/prog" rep.svg
'

# A profile that names a middle page of prog and the first page of other.
test_expect_success 'without --xip-suffix: exactly the profile, and fsck notes the order' '
	printf "./usr/bin/prog,8192,7\n./usr/bin/other,0,3\n" >mid.csv &&
	"$AXFS" mkfs -q tree -p mid.csv -o mid.axfs &&
	seedread xip mid.axfs | sort >got &&
	printf "/usr/bin/other,0\n/usr/bin/prog,8192\n" >want &&
	diff want got &&
	"$AXFS" fsck mid.axfs >out 2>&1 &&
	test "$(grep -c "xip-order" out)" -eq 1 &&
	grep "^mid.axfs: notice: 2 findings: an XIP page is followed by a non-XIP page: the 2008 driver.* (-v lists them) \[node.xip-order\]$" out &&
	grep "^mid.axfs: clean, " out && test "$(wc -l <out)" -eq 2 &&
	"$AXFS" fsck -v mid.axfs >out 2>&1 &&
	grep "/usr/bin/prog: notice: page 2 is XIP and page 3 is not.*\[node.xip-order\]" out &&
	grep "/usr/bin/other: notice: .*\[node.xip-order\]" out &&
	"$AXFS" fsck --json mid.axfs >out.json &&
	test "$(grep -c node.xip-order out.json)" -eq 2
'

test_expect_success '--xip-suffix: every page from the first XIP page to the end is XIP' '
	"$AXFS" mkfs -q tree -p mid.csv --xip-suffix -o suf.axfs \
		--report-json suf.json --report suf.txt &&
	seedread xip suf.axfs | sort >got &&
	{ for p in 0 4096 8192 12288; do echo "/usr/bin/other,$p"; done &&
	  for p in 8192 12288 16384 20480 24576; do echo "/usr/bin/prog,$p"; done
	} | sort >want &&
	diff want got &&
	seedread compare suf.axfs tree &&
	"$AXFS" fsck suf.axfs >out 2>&1 &&
	! grep "xip-order" out &&
	python3 - <<-\EOF_PY &&
	import json
	f = {x["path"]: x for x in json.load(open("suf.json"))["files"]}
	assert f["/usr/bin/prog"]["why"].get("suffix") == 4, f["/usr/bin/prog"]
	assert f["/usr/bin/prog"]["why"].get("profile") == 1
	assert f["/usr/bin/other"]["why"].get("suffix") == 3, f["/usr/bin/other"]
	EOF_PY
	grep "/usr/bin/prog .*suffix:4" suf.txt &&
	! cmp -s mid.axfs suf.axfs
'

test_expect_success 'the default build is unchanged; the policy key gives the same bytes' '
	"$AXFS" mkfs -q tree -p mid.csv -o mid2.axfs &&
	cmp mid.axfs mid2.axfs &&
	printf "xip: {suffix: false}\n" >nosuf.yaml &&
	"$AXFS" mkfs -q tree -p mid.csv -c nosuf.yaml -o mid3.axfs &&
	cmp mid.axfs mid3.axfs &&
	printf "xip: {suffix: true}\n" >suf.yaml &&
	"$AXFS" mkfs -q tree -p mid.csv -c suf.yaml -o suf2.axfs &&
	cmp suf.axfs suf2.axfs &&
	"$AXFS" mkfs -q tree -p mid.csv -c nosuf.yaml --xip-suffix -o suf3.axfs &&
	cmp suf.axfs suf3.axfs &&
	printf "./usr/bin/prog,24576,7\n" >last.csv &&
	"$AXFS" mkfs -q tree -p last.csv -o last.axfs &&
	"$AXFS" mkfs -q tree -p last.csv --xip-suffix -o last2.axfs &&
	cmp last.axfs last2.axfs
'

test_expect_success '--xip-suffix stays within the budget: a page costs its suffix' '
	"$AXFS" mkfs -q tree -p mid.csv --xip-budget 20KiB --xip-suffix -o sb.axfs &&
	seedread xip sb.axfs | sort >got &&
	for p in 8192 12288 16384 20480 24576; do echo "/usr/bin/prog,$p"; done |
		sort >want &&
	diff want got &&
	"$AXFS" fsck sb.axfs >out 2>&1 && ! grep "xip-order" out &&
	"$AXFS" mkfs -q tree -p mid.csv --xip-budget 16KiB --xip-suffix -o s4.axfs &&
	seedread xip s4.axfs | sort >got &&
	for p in 0 4096 8192 12288; do echo "/usr/bin/other,$p"; done | sort >want &&
	diff want got &&
	"$AXFS" mkfs -q tree -p mid.csv --xip-budget 36KiB --xip-suffix -o s9.axfs &&
	test "$(seedread xip s9.axfs | wc -l)" -eq 9
'

test_expect_success '--xip-suffix with an mmap limit: the trim shrinks suffixes' '
	"$AXFS" mkfs tree -p mid.csv --xip-suffix --mmap-limit 1GiB \
		-o full.axfs >out &&
	mapped=$(sed -n "s/.*memory-mapped part: \([0-9]*\) bytes.*/\1/p" out) &&
	test -n "$mapped" &&
	"$AXFS" mkfs tree -p mid.csv --xip-suffix --xip-budget 1MiB \
		--mmap-limit $((mapped - 4096)) -o lim.axfs \
		--report-json lim.json 2>err &&
	grep "leaves no room for [0-9]* profiled XIP pages" err &&
	seedread xip lim.axfs >got &&
	test "$(wc -l <got)" -lt 9 &&
	seedread compare lim.axfs tree &&
	"$AXFS" fsck lim.axfs >out 2>&1 && ! grep "xip-order" out &&
	python3 - <<-\EOF_PY
	import json
	# each file: XIP pages, if any, run from some page to the end
	f = {x["path"]: x for x in json.load(open("lim.json"))["files"]}
	got = [l.rsplit(",", 1) for l in open("got").read().splitlines()]
	for path, x in f.items():
	    offs = sorted(int(o) // 4096 for p, o in got if p == path)
	    assert offs == list(range(x["pages"] - len(offs), x["pages"])), (path, offs)
	assert any(x["why"].get("mmap-limit") for x in f.values()), f
	EOF_PY
'

test_expect_success 'a malformed profile names its file and line' '
	printf "./usr/bin/prog,0,1\n./usr/bin/prog,100,1\n" >bad.csv &&
	! "$AXFS" mkfs -q tree -p bad.csv -o bad.axfs 2>err &&
	grep "bad.csv:2" err && test ! -e bad.axfs
'

test_done
