#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# axfs extract on hostile images and hostile target directories: bad names,
# cycles, absurd sizes and symlinks are refused or neutralised, nothing is
# ever written outside DIR, and errors name the byte at fault.
. "$(dirname "$0")/lib.sh"

# patch_table IMAGE TABLE INDEX VALUE: rewrite one entry of a byte table
# (stored raw); prints the byte offset of the entry.
patch_table() {
	python3 - "$@" <<-\EOF
	import json, os, subprocess, sys
	img, table, index, value = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
	d = json.loads(subprocess.check_output([os.environ["AXFS"], "dump", "--json", "--regions", img]))
	r = [r for r in d["regions"] if r["name"] == table][0]
	assert r["compressed_size"] == 0 and r["depth"] > 0, r
	if value < 0:
	    value = (1 << (8 * r["depth"])) - 1
	with open(img, "r+b") as f:
	    f.seek(r["fsoffset"] + index * r["depth"])
	    f.write(value.to_bytes(r["depth"], "big"))
	print(r["fsoffset"] + index * r["depth"])
	EOF
}

# patch_name IMAGE OLD NEW: rewrite a name in the strings region (NEW is
# a Python bytes literal of the same length); prints its byte offset.
patch_name() {
	python3 - "$@" <<-\EOF
	import ast, json, os, subprocess, sys
	img, old, new = sys.argv[1], sys.argv[2].encode(), ast.literal_eval(sys.argv[3])
	d = json.loads(subprocess.check_output([os.environ["AXFS"], "dump", "--json", "--regions", img]))
	r = [r for r in d["regions"] if r["name"] == "strings"][0]
	assert r["compressed_size"] == 0 and len(old) == len(new)
	data = bytearray(open(img, "rb").read())
	s = data[r["fsoffset"]:r["fsoffset"] + r["size"]]
	i = s.index(b"\0" + old + b"\0") + 1
	data[r["fsoffset"] + i:r["fsoffset"] + i + len(old)] = new
	open(img, "wb").write(data)
	print(r["fsoffset"] + i)
	EOF
}

# ino IMAGE PATH FIELD: a field of an inode, from dump --json.
ino() {
	"$AXFS" dump --json --inodes "$1" | python3 -c '
import json, sys
for i in json.load(sys.stdin)["inodes"]:
    if i["path"] == sys.argv[1]:
        print(i[sys.argv[2]])' "$2" "$3"
}

test_expect_success 'setup: an image with raw metadata' '
	mkdir -p tree/sub tree/bbbb &&
	printf victim >tree/aaaa &&
	head -c 70000 /dev/urandom >tree/sub/file &&
	printf small >tree/sub/small &&
	ln -s /etc/passwd tree/abs &&
	ln -s ../../../../../../tmp tree/up &&
	"$AXFS" mkfs -q --compress-metadata=no tree -o img.axfs &&
	"$AXFS" extract -q img.axfs good && diff -r --no-dereference tree good
'

for bad in '..\0a' 'a/aa' '\0aaa' '.\0aa' 'zzzz'; do
	what=$(printf "%s" "$bad" | sed "s/\\\\0/<NUL>/")
	test_expect_success "a name patched to '$what' is refused before writing" '
		cp img.axfs bad.axfs &&
		off=$(patch_name bad.axfs aaaa "b'"'$bad'"'") &&
		test_expect_code 8 "$AXFS" extract bad.axfs out-bad 2>err &&
		cat err &&
		grep "^axfs extract: .bad.axfs.: byte [0-9]*: inode [0-9]*" err &&
		if test "$bad" = zzzz; then
			grep "directory ./. lists .abs. after .zzzz.: names must be unique and in strcmp order" err
		else
			grep "byte $off: inode [0-9]* in directory ./. has " err
		fi &&
		test ! -e out-bad &&
		! seedread list bad.axfs >/dev/null 2>&1
	'
done

test_expect_success 'the refusal names the inode and quotes the name' '
	cp img.axfs bad.axfs &&
	patch_name bad.axfs aaaa "b\"a/aa\"" >/dev/null &&
	! "$AXFS" extract bad.axfs out 2>err &&
	grep "byte [0-9]*: inode $(ino img.axfs /aaaa ino) in directory ./. has a ./. in its name (.a/aa.)" err
'

test_expect_success 'a directory that contains its parent (a cycle) is refused' '
	cp img.axfs cyc.axfs &&
	sub=$(ino img.axfs /sub ino) &&
	patch_table cyc.axfs inode_array_index $sub $sub >/dev/null &&
	patch_table cyc.axfs inode_num_entries $sub 1 >/dev/null &&
	test_expect_code 8 "$AXFS" extract cyc.axfs out 2>err &&
	grep "cycle" err &&
	test ! -e out &&
	test_expect_code 2 seedread list cyc.axfs >/dev/null 2>err &&
	grep "reached twice" err
'

test_expect_success 'an absurd file size fails at the byte, leaving no partial file' '
	cp img.axfs big.axfs &&
	f=$(ino img.axfs /sub/file ino) &&
	patch_table big.axfs inode_file_size $f -1 >/dev/null &&
	cp img.axfs scratch.axfs &&
	aoff=$(patch_table scratch.axfs inode_array_index $f 0) &&
	test_expect_code 8 "$AXFS" extract big.axfs out 2>err &&
	# The first page the size now claims past what its node holds (a
	# byte-aligned page running past its region, as fsck says since
	# issue 38 §5), or the first page past the last node.
	grep -E "byte $aoff: inode_array_index\[$f\]: .*past the last node|byte [0-9]+: banode_offset\[[0-9]+\]: inode $f page [0-9]+: its [0-9]+ bytes at offset [0-9]+ do not fit in the byte_aligned region" err &&
	test ! -e out/sub/file &&
	test_expect_code 8 "$AXFS" dump --pages big.axfs >/dev/null 2>err &&
	grep "byte $aoff:" err
'

test_expect_success 'symlinks pointing outside are created, never followed' '
	test "$(readlink good/abs)" = /etc/passwd &&
	test "$(readlink good/up)" = ../../../../../../tmp &&
	test -L good/abs && test -L good/up
'

test_expect_success 'with --force, symlinks already in DIR are replaced, not followed' '
	mkdir -p outside dest &&
	printf original >outside/victim &&
	ln -s ../outside dest/sub &&
	ln -s ../outside/victim dest/aaaa &&
	"$AXFS" extract -q --force img.axfs dest &&
	test "$(cat outside/victim)" = original &&
	test ! -e outside/file && test ! -e outside/small &&
	test -d dest/sub && ! test -L dest/sub &&
	test -f dest/aaaa && ! test -L dest/aaaa &&
	diff -r --no-dereference tree dest
'

test_expect_success '--force never replaces a directory with a file' '
	mkdir -p dest2/aaaa/keep &&
	test_expect_code 8 "$AXFS" extract -q --force img.axfs dest2 2>err &&
	grep "cannot replace directory .dest2/aaaa.: Is a directory" err &&
	test -d dest2/aaaa/keep
'

test_expect_success 'a truncated image creates nothing' '
	head -c 4096 img.axfs >trunc.axfs &&
	test_expect_code 8 "$AXFS" extract trunc.axfs out-trunc 2>err &&
	grep "byte 72: image size [0-9]* is larger than the file (4096 bytes)" err &&
	test ! -e out-trunc
'

test_expect_success 'usage errors exit 16' '
	test_expect_code 16 "$AXFS" extract img.axfs 2>err &&
	grep "no target directory given" err &&
	test_expect_code 16 "$AXFS" extract 2>err && grep "no image given" err &&
	test_expect_code 16 "$AXFS" extract --nope img.axfs x 2>err &&
	"$AXFS" extract --help | grep "^usage: axfs extract" &&
	"$AXFS" extract --version | grep "^axfs extract (axfs-tools)"
'

test_expect_success SETPRIV 'not root: devices skipped and owners kept, one warning each' '
	mkdir -p rt/dev &&
	mknod rt/dev/null c 1 3 && mknod rt/dev/zero c 1 5 &&
	printf o >rt/owned && chown 1234:5678 rt/owned &&
	printf p >rt/other && chown 99:99 rt/other &&
	mkfifo rt/fifo &&
	"$AXFS" mkfs -q rt -o rt.axfs && chmod 644 rt.axfs &&
	mkdir -m 777 pub &&
	as_nobody "$AXFS_NOBODY" extract rt.axfs pub/out 2>err &&
	cat err &&
	test $(grep -c "skipped 2 device nodes" err) = 1 &&
	test $(grep -c "keep your owner" err) = 1 &&
	test $(wc -l <err) = 2 &&
	test -p pub/out/fifo && test "$(cat pub/out/owned)" = o &&
	test ! -e pub/out/dev/null
'

test_done
