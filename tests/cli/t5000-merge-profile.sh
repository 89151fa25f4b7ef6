#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# axfs merge-profile: sum, max, weights, --min-count, --top, --stats,
# determinism, stdin, atomic output, and every kind of error.
. "$(dirname "$0")/lib.sh"

# Two runs of the same device, as /proc/axfs/volume0 printed them (the
# second one saved on Windows: CRLF), with awkward names.
printf '%s\n' \
	'./bin/busybox,0,10' \
	'./bin/busybox,4096,3' \
	'./lib/libc.so.6,8192,5' \
	'./usr/share/a,b c,0,1' >run1.csv
printf '%s\r\n' \
	'# second run' \
	'./bin/busybox,0,4' \
	'/lib/libc.so.6,8192,9' \
	'lib/libc.so.6,0,2' \
	'./usr/share/a,b c,0,1' >run2.csv

test_expect_success 'sum is the default and the output is canonical' '
	"$AXFS" merge-profile run1.csv run2.csv >out.csv &&
	printf "%s\n" ./bin/busybox,0,14 ./bin/busybox,4096,3 \
		./lib/libc.so.6,0,2 ./lib/libc.so.6,8192,14 \
		"./usr/share/a,b c,0,2" >expect &&
	cmp expect out.csv
'

test_expect_success '--mode max keeps the largest count of each page' '
	"$AXFS" merge-profile --mode max run1.csv run2.csv >out.csv &&
	printf "%s\n" ./bin/busybox,0,10 ./bin/busybox,4096,3 \
		./lib/libc.so.6,0,2 ./lib/libc.so.6,8192,9 \
		"./usr/share/a,b c,0,1" >expect &&
	cmp expect out.csv
'

test_expect_success 'duplicates inside one input are summed before max' '
	printf "./x,0,3\n./x,0,4\n" >dup.csv &&
	printf "./x,0,6\n" >six.csv &&
	"$AXFS" merge-profile -m max dup.csv six.csv >out.csv &&
	echo ./x,0,7 >expect &&
	cmp expect out.csv
'

test_expect_success '--weight FILE=W and FILE:W scale counts (rounded half up)' '
	"$AXFS" merge-profile --weight run1.csv=0.5 -w run2.csv:2 run1.csv run2.csv >out.csv &&
	printf "%s\n" ./bin/busybox,0,13 ./bin/busybox,4096,2 \
		./lib/libc.so.6,0,4 ./lib/libc.so.6,8192,21 \
		"./usr/share/a,b c,0,3" >expect &&
	cmp expect out.csv
'

test_expect_success 'a weight of 0 removes an input, pages at 0 are dropped' '
	"$AXFS" merge-profile -w run2.csv=0 run1.csv run2.csv >out.csv &&
	"$AXFS" merge-profile run1.csv >expect &&
	cmp expect out.csv &&
	printf "./z,0,0\n./y,0,1\n" >zero.csv &&
	"$AXFS" merge-profile zero.csv >out.csv &&
	echo ./y,0,1 >expect &&
	cmp expect out.csv
'

test_expect_success 'a weight for a file that is not an input is a usage error' '
	"$AXFS" merge-profile -w other.csv=2 run1.csv 2>err; test $? -eq 16 &&
	grep "merge-profile: --weight names .other.csv., which is not an input" err
'

test_expect_success 'bad weights are usage errors' '
	for w in run1.csv=-1 run1.csv=x run1.csv= run1.csv=1.2.3 run1.csv=0.0000000001 =2 nosep; do
		"$AXFS" merge-profile -w "$w" run1.csv >/dev/null 2>err
		test $? -eq 16 || { echo "weight $w: wrong exit"; exit 1; }
		grep -q "weight" err || exit 1
	done
'

test_expect_success '--min-count drops pages below N after merging' '
	"$AXFS" merge-profile --min-count 3 run1.csv run2.csv >out.csv &&
	printf "%s\n" ./bin/busybox,0,14 ./bin/busybox,4096,3 \
		./lib/libc.so.6,8192,14 >expect &&
	cmp expect out.csv
'

test_expect_success '--top N keeps the hottest pages, ties by path then offset' '
	printf "%s\n" ./c,0,5 ./a,4096,5 ./b,0,9 ./a,0,5 ./d,0,1 >ties.csv &&
	"$AXFS" merge-profile --top 3 ties.csv >out.csv &&
	printf "%s\n" ./a,0,5 ./a,4096,5 ./b,0,9 >expect &&
	cmp expect out.csv &&
	"$AXFS" merge-profile --top 0 ties.csv >out.csv &&
	test ! -s out.csv &&
	"$AXFS" merge-profile --top 99 ties.csv >out.csv &&
	test $(wc -l <out.csv) -eq 5
'

test_expect_success 'the output does not depend on the order of the inputs' '
	printf "./b,0,1\n./a,4096,2\n" >p3.csv &&
	"$AXFS" merge-profile run1.csv run2.csv p3.csv >o1 &&
	"$AXFS" merge-profile p3.csv run2.csv run1.csv >o2 &&
	"$AXFS" merge-profile run2.csv p3.csv run1.csv >o3 &&
	cmp o1 o2 && cmp o1 o3
'

test_expect_success 'the canonical form is a fixed point' '
	"$AXFS" merge-profile run1.csv run2.csv >once &&
	"$AXFS" merge-profile once >twice &&
	cmp once twice
'

test_expect_success '- reads standard input' '
	"$AXFS" merge-profile run1.csv - <run2.csv >out.csv &&
	"$AXFS" merge-profile run1.csv run2.csv >expect &&
	cmp expect out.csv &&
	"$AXFS" merge-profile -w -=3 - <run1.csv >out.csv &&
	grep -x ./bin/busybox,0,30 out.csv
'

test_expect_success '- twice is a usage error' '
	"$AXFS" merge-profile - - </dev/null 2>err; test $? -eq 16 &&
	grep "read only once" err
'

test_expect_success '--stats prints pages, files and the hottest files on stderr' '
	"$AXFS" merge-profile --stats -o merged.csv run1.csv run2.csv >out 2>stats &&
	test ! -s out &&
	grep -x "inputs: 2" stats &&
	grep -x "pages: 5 (20 KiB)" stats &&
	grep -x "files: 3" stats &&
	grep -x "faults: 35" stats &&
	sed -n "/^hottest files:/,\$p" stats | sed 1,2d | awk "{print \$1, \$2}" >hot &&
	printf "%s\n" "17 2" "16 2" "2 1" >expect &&
	cmp expect hot &&
	sed -n 7p stats | grep "/bin/busybox\$" &&
	sed -n 9p stats | grep "/usr/share/a,b c\$"
'

# The JSON is recomputed from the merged CSV it describes, and agrees with
# the text of --stats; a name that is not UTF-8 comes back byte for byte,
# and a fault total beyond 2^64 stays exact.
test_expect_success '--stats --json: the statistics as JSON on stdout, as the merged CSV says' '
	m=18446744073709551615 &&
	printf "./big,0,%s\n./big,4096,%s\n./lat\351n,0,3\n" $m $m >big.csv &&
	"$AXFS" merge-profile --stats --json -o merged.csv run1.csv run2.csv big.csv >stats.json 2>err &&
	test ! -s err &&
	"$AXFS" merge-profile --stats -o merged2.csv run1.csv run2.csv big.csv 2>stats.txt &&
	cmp merged.csv merged2.csv &&
	python3 -c "
import json, os, sys
sys.path.insert(0, os.environ[\"AXFS_TOP\"] + \"/tests/tools\")
from jsonname import to_bytes
d = json.load(open(\"stats.json\"))
pages = {}
for line in open(\"merged.csv\", \"rb\"):
    path, off, count = line.rstrip(b\"\\n\").rsplit(b\",\", 2)
    assert path.startswith(b\"./\")
    n, f = pages.get(path[1:], (0, 0))
    pages[path[1:]] = (n + 1, f + int(count))
assert d[\"inputs\"] == 3, d
assert d[\"pages\"] == sum(n for n, f in pages.values()) == 8, d
assert d[\"bytes\"] == 4096 * d[\"pages\"], d
assert d[\"files\"] == len(pages) == 5, d
assert d[\"faults\"] == sum(f for n, f in pages.values()) == 35 + 2 * (2**64 - 1) + 3, d
want = sorted(pages.items(), key=lambda kv: (-kv[1][1], kv[0]))
got = [(to_bytes(h[\"path\"]), (h[\"pages\"], h[\"faults\"])) for h in d[\"hottest_files\"]]
assert got == want, (got, want)
assert got[0][0] == b\"/big\" and b\"/lat\\xe9n\" in dict(got)
text = dict(l.split(\": \", 1) for l in open(\"stats.txt\", errors=\"replace\") if \": \" in l)
assert int(text[\"inputs\"]) == d[\"inputs\"] and int(text[\"files\"]) == d[\"files\"]
assert int(text[\"faults\"]) == d[\"faults\"], (text, d)
assert text[\"pages\"].split()[0] == str(d[\"pages\"])
"
'

test_expect_success '--json alone implies --stats; it needs -o FILE; a full stdout is an error' '
	"$AXFS" merge-profile --json -o m1.csv run1.csv >j1 &&
	python3 -c "import json; d = json.load(open(\"j1\")); assert d[\"inputs\"] == 1 and d[\"pages\"] == 4, d" &&
	"$AXFS" merge-profile --json run1.csv >j2 2>err; test $? -eq 16 &&
	grep -q -- "-o FILE" err && ! test -s j2 &&
	"$AXFS" merge-profile --json -o - run1.csv >j3 2>err; test $? -eq 16 &&
	! test -s j3 &&
	if test -w /dev/full; then
		"$AXFS" merge-profile --json -o m4.csv run1.csv >/dev/full 2>err; test $? -eq 8 &&
		grep -q "^axfs merge-profile: error writing to standard output" err
	fi
'

test_expect_success '-o writes the file and nothing to stdout' '
	"$AXFS" merge-profile -o merged.csv run1.csv run2.csv >out &&
	test ! -s out &&
	"$AXFS" merge-profile run1.csv run2.csv >expect &&
	cmp expect merged.csv
'

test_expect_success 'a failed merge leaves an existing -o file untouched' '
	echo precious >keep.csv &&
	printf "./ok,0,1\n./bad,123,1\n" >bad.csv &&
	"$AXFS" merge-profile -o keep.csv run1.csv bad.csv 2>err; test $? -eq 8 &&
	echo precious >expect &&
	cmp expect keep.csv &&
	test $(ls -A | grep -c "keep.csv.") -eq 0
'

test_expect_success 'errors name file:line(:column) and exit 8' '
	"$AXFS" merge-profile bad.csv 2>err; test $? -eq 8 &&
	grep -x "axfs merge-profile: bad.csv:2:7: offset 123 is not a multiple of the page size (4096)" err &&
	printf "./a,0,1\n\n# c\nbroken\n" >bad2.csv &&
	"$AXFS" merge-profile run1.csv bad2.csv 2>err; test $? -eq 8 &&
	grep -x "axfs merge-profile: bad2.csv:4: expected .path,offset,count., found no comma" err &&
	printf "./a,0,1\n./b/../c,0,1\n" >bad3.csv &&
	"$AXFS" merge-profile bad3.csv 2>err; test $? -eq 8 &&
	grep -x "axfs merge-profile: bad3.csv:2:5: .\.\.. is not allowed in a path" err &&
	"$AXFS" merge-profile missing.csv 2>err; test $? -eq 8 &&
	grep -x "axfs merge-profile: cannot open .missing.csv.: No such file or directory" err
'

test_expect_success 'counts are 64-bit; a sum past 2^64-1 is an error' '
	printf "./a,0,18446744073709551615\n" >max1.csv &&
	"$AXFS" merge-profile max1.csv >out.csv &&
	grep -x ./a,0,18446744073709551615 out.csv &&
	"$AXFS" merge-profile -m max max1.csv max1.csv >out.csv &&
	grep -x ./a,0,18446744073709551615 out.csv &&
	printf "./a,0,1\n" >one.csv &&
	"$AXFS" merge-profile max1.csv one.csv 2>err; test $? -eq 8 &&
	grep "add up to more than 64 bits" err &&
	"$AXFS" merge-profile -w max1.csv=2 max1.csv 2>err; test $? -eq 8 &&
	grep "max1.csv:1: the count of page 0 of ./a. times its weight does not fit in 64 bits" err
'

test_expect_success 'usage errors exit 16' '
	"$AXFS" merge-profile 2>err; test $? -eq 16 && grep "no profile CSV" err &&
	"$AXFS" merge-profile --mode avg run1.csv 2>err; test $? -eq 16 &&
	grep "sum.* or .max" err &&
	"$AXFS" merge-profile --bogus run1.csv 2>err; test $? -eq 16 &&
	grep "Try .axfs merge-profile --help" err &&
	"$AXFS" merge-profile --top x run1.csv 2>err; test $? -eq 16 &&
	"$AXFS" merge-profile --min-count -1 run1.csv 2>err; test $? -eq 16 &&
	"$AXFS" merge-profile -o 2>err; test $? -eq 16
'

test_expect_success 'cannot write the output: exit 8, nothing left behind' '
	"$AXFS" merge-profile -o no/such/dir/out.csv run1.csv 2>err; test $? -eq 8 &&
	grep "no/such/dir/out.csv" err
'

test_expect_success '-q silences warnings, -v says what is read' '
	: >empty.csv &&
	"$AXFS" merge-profile empty.csv run1.csv >/dev/null 2>err &&
	grep "warning: .empty.csv. holds no profile entries" err &&
	"$AXFS" merge-profile -q empty.csv run1.csv >/dev/null 2>err &&
	test ! -s err &&
	"$AXFS" merge-profile -v run1.csv >/dev/null 2>err &&
	grep "read 4 pages from .run1.csv." err
'

test_expect_success '--help and --version' '
	"$AXFS" merge-profile --help >out &&
	grep "^usage: axfs merge-profile" out &&
	grep -- "--weight FILE=W" out &&
	"$AXFS" merge-profile --version >out &&
	grep "^axfs merge-profile (axfs-tools) " out &&
	"$AXFS" help merge-profile >out &&
	grep "^usage: axfs merge-profile" out
'

test_expect_success 'stdout write errors are reported' '
	if test -w /dev/full; then
		"$AXFS" merge-profile run1.csv >/dev/full 2>err; test $? -eq 8
	fi
'

test_done
