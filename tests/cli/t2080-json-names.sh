#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Every JSON the commands print writes a name the same way (one writer,
# libaxfsimg/json.c): valid UTF-8 as is, any other byte and the backslash
# as \ooo (tests/tools/jsonname.py gives the name's bytes back), and the
# JSON is valid for a strict parser (no lone surrogates).
. "$(dirname "$0")/lib.sh"

# Python: every string of JSON file $1 whose bytes are named in $2.. must
# be found, decoded back to exactly those bytes (given as Python literals).
json_has_names() {
	python3 - "$@" <<'PY'
import ast, json, os, sys
sys.path.insert(0, os.environ["AXFS_TOP"] + "/tests/tools")
import jsonname
raw = open(sys.argv[1], "rb").read()
assert b"\\u00c3" not in raw, "UTF-8 bytes escaped as code points"
assert b"\\udc" not in raw.lower(), "a lone surrogate"
raw.decode("utf-8", "strict")
def strings(v):
    if isinstance(v, str):
        yield v
    elif isinstance(v, dict):
        for k, x in v.items():
            yield k
            yield from strings(x)
    elif isinstance(v, list):
        for x in v:
            yield from strings(x)
got = {jsonname.to_bytes(s) for s in strings(json.loads(raw.decode("utf-8")))}
for want in sys.argv[2:]:
    want = ast.literal_eval(want)
    assert want in got, (want, sorted(got))
PY
}

test_expect_success 'a tree with UTF-8, invalid UTF-8 and control bytes in names' '
	mkdir root &&
	printf 1 >"root/café" &&
	printf 2 >"$(printf "root/bad\377name")" &&
	printf 3 >"$(printf "root/t\tq\"b\\\\")" &&
	mkdir "root/日本" && printf 4 >"root/日本/x" &&
	head -c 20000 /dev/urandom >root/big &&
	img=$(printf "img-é\376.axfs") &&
	"$AXFS" mkfs -q --xip /café --mmap-limit 12KiB \
		--report-json report.json root "$img"
'

test_expect_success 'mkfs --report-json writes names as bytes' '
	json_has_names report.json "b\"/caf\\xc3\\xa9\"" "b\"/bad\\xffname\"" \
		"b\"/t\\tq\\\"b\\\\\"" "b\"/\\xe6\\x97\\xa5\\xe6\\x9c\\xac/x\""
'

test_expect_success 'dump --json writes the same names and the image name' '
	"$AXFS" dump --json "$(printf "img-é\376.axfs")" >dump.json &&
	json_has_names dump.json "b\"/caf\\xc3\\xa9\"" "b\"/bad\\xffname\"" \
		"b\"/t\\tq\\\"b\\\\\"" "b\"img-\\xc3\\xa9\\xfe.axfs\""
'

test_expect_success 'fsck --json writes the image and store names the same way' '
	"$AXFS" fsck --json "$(printf "img-é\376.axfs")" >fsck.json &&
	json_has_names fsck.json "b\"img-\\xc3\\xa9\\xfe.axfs\"" &&
	"$AXFS" split -q "$(printf "img-é\376.axfs")" -m "$(printf "m\377é")" -s "$(printf "s\377é")" &&
	"$AXFS" fsck --json "$(printf "m\377é")" "$(printf "s\377é")" >fsck2.json &&
	json_has_names fsck2.json "b\"m\\xff\\xc3\\xa9\"" "b\"s\\xff\\xc3\\xa9\""
'

test_expect_success 'split --info --json writes the image and store names the same way' '
	"$AXFS" split --info --json "$(printf "m\377é")" "$(printf "s\377é")" >split.json &&
	json_has_names split.json "b\"m\\xff\\xc3\\xa9\"" "b\"s\\xff\\xc3\\xa9\""
'

test_expect_success 'merge-profile --json writes the profiled names the same way' '
	printf "./café,0,5\n./bad\377name,0,3\n./日本/x,0,1\n" >p.csv &&
	"$AXFS" merge-profile --json -o merged.csv p.csv >merge.json &&
	json_has_names merge.json "b\"/caf\\xc3\\xa9\"" "b\"/bad\\xffname\"" \
		"b\"/\\xe6\\x97\\xa5\\xe6\\x9c\\xac/x\""
'

test_done
