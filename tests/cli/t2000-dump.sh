#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# axfs dump: every section, --json (and its agreement with the independent
# seed-driver reader), errors naming the byte at fault, exit codes.
. "$(dirname "$0")/lib.sh"

test_expect_success 'build an image with every node type' '
	mkdir -p tree/bin tree/etc tree/dev &&
	head -c 10000 /dev/urandom >tree/bin/prog &&
	yes "compressible text" | head -c 100000 >tree/etc/text &&
	printf "tail" >tree/etc/small &&
	: >tree/etc/empty &&
	ln -s ../etc/text tree/bin/link &&
	mkfifo tree/dev/fifo &&
	"$AXFS" mkfs -q --xip "/bin/*" tree -o img.axfs
'

test_expect_success 'default output: superblock, regions, inodes' '
	"$AXFS" dump img.axfs >out &&
	grep "^  magic  *0x48a0e4cd$" out &&
	grep "^  signature  *\"Advanced XIP FS\"$" out &&
	grep "^  timestamp  *1700000000 (2023-11-14 22:13:20 UTC)$" out &&
	grep "^  compression_type  *0 (zlib)$" out &&
	for r in strings xip byte_aligned compressed node_type node_index \
		cnode_offset cnode_index banode_offset cblock_offset \
		inode_file_size inode_name_offset inode_num_entries \
		inode_mode_index inode_array_index modes uids gids; do
		grep "^  $r  *[0-9]" out || return 1
	done &&
	grep "^drwxr-xr-x .* 0 /$" out &&
	grep "^-rw-r--r-- .* 100000 .* /etc/text$" out &&
	grep "^lrwxrwxrwx .* /bin/link -> ../etc/text$" out &&
	grep "^prw-r--r-- .* /dev/fifo$" out
'

test_expect_success 'sections can be chosen' '
	"$AXFS" dump --regions img.axfs >r &&
	grep "^regions:" r && ! grep "^superblock" r && ! grep "^inodes:" r &&
	"$AXFS" dump --superblock img.axfs >s &&
	grep "^superblock" s && ! grep "^regions:" s &&
	"$AXFS" dump --inodes img.axfs >i &&
	grep "^inodes:" i && ! grep "^regions:" i
'

test_expect_success '--pages shows XIP, compressed and byte-aligned pages' '
	"$AXFS" dump --pages img.axfs >p &&
	grep -A3 " /bin/prog$" p | grep "page 0: node [0-9]* xip index 0 at byte" &&
	grep -A3 " /etc/text$" p | grep "page 1: node [0-9]* compressed index [0-9]* at byte .*(cblock [0-9]* of" &&
	grep -c "^    page " p >n && test $(cat n) -ge 30
'

test_expect_success '--json is valid JSON with the documented keys' '
	"$AXFS" dump --json --superblock --regions --pages img.axfs >j.json &&
	python3 - j.json <<-\EOF
	import json, sys
	d = json.load(open(sys.argv[1]))
	assert d["image"] == "img.axfs" and d["store"] is None
	sb = d["superblock"]
	assert sb["magic"] == 0x48A0E4CD and sb["signature"] == "Advanced XIP FS"
	assert sb["timestamp"] == 1700000000 and sb["page_shift"] == 12
	assert all(v >= 256 for v in sb["region_descriptors"].values())
	assert [r["name"] for r in d["regions"]][:2] == ["strings", "xip"]
	for r in d["regions"]:
	    assert set(r) >= {"descriptor_offset", "fsoffset", "size",
	                      "compressed_size", "max_index", "depth",
	                      "incore", "segment"}
	paths = [i["path"] for i in d["inodes"]]
	assert paths[0] == "/" and "/etc/text" in paths
	ino = {i["path"]: i for i in d["inodes"]}
	assert ino["/bin/link"]["target"] == "../etc/text"
	assert ino["/dev/fifo"]["type"] == "fifo"
	assert ino["/bin/prog"]["pages"][0]["type"] == "xip"
	assert len(ino["/etc/text"]["pages"]) == 25
	assert ino["/etc/empty"]["pages"] == []
	EOF
'

test_expect_success 'dump --json agrees with the seed-driver reader' '
	"$AXFS" dump --json img.axfs >d.json &&
	seedread list img.axfs >s.json &&
	python3 - d.json s.json <<-\EOF
	import json, sys
	dump = json.load(open(sys.argv[1]))["inodes"]
	seed = json.load(open(sys.argv[2]))
	keys = ("ino", "type", "mode", "uid", "gid", "size", "mtime", "target",
	        "rdev_major", "rdev_minor")
	mine = {i["path"]: {k: i[k] for k in keys if k in i} for i in dump}
	theirs = {p: {k: v[k] for k in keys if k in v} for p, v in seed.items()}
	assert mine == theirs, (mine, theirs)
	EOF
'

test_expect_success 'names that are not UTF-8 come back byte for byte' '
	mkdir -p t2 &&
	printf x >"t2/$(printf "caf\351")" &&
	printf y >"t2/$(printf "\344\270\255")" &&
	"$AXFS" mkfs -q t2 -o names.axfs &&
	"$AXFS" dump --json --inodes names.axfs >n.json &&
	python3 - n.json <<-\EOF
	import json, os, sys
	sys.path.insert(0, os.environ["AXFS_TOP"] + "/tests/tools")
	from jsonname import to_bytes
	paths = sorted(to_bytes(i["path"]) for i in json.load(open(sys.argv[1]))["inodes"])
	assert paths == [b"/", b"/caf\xe9", b"/\xe4\xb8\xad"], paths
	EOF
'

test_expect_success 'a split image: each region names its segment' '
	mkdir -p big/bin &&
	head -c 300000 /dev/urandom >big/bin/prog &&
	yes "text" | head -c 400000 >big/text &&
	"$AXFS" mkfs -q --xip "/bin/*" --mmap-limit 1MiB big -o whole.axfs &&
	"$AXFS" split whole.axfs --mmap nor.bin --store nand.bin &&
	"$AXFS" dump --regions nor.bin nand.bin >r &&
	grep "^  name .*  segment$" r &&
	grep "^  xip .* mmap$" r &&
	grep "^  compressed .* store$" r &&
	"$AXFS" dump --json --inodes whole.axfs >w.json &&
	"$AXFS" dump --json --inodes nor.bin nand.bin >s.json &&
	python3 -c "import json,sys; a,b=(json.load(open(f))[\"inodes\"] for f in sys.argv[1:]); assert a==b" w.json s.json &&
	seedread list whole.axfs >sw.json && seedread list nor.bin nand.bin >ss.json &&
	cmp sw.json ss.json
'

test_expect_success 'the mmap segment alone: the error asks for the store' '
	test_expect_code 8 "$AXFS" dump nor.bin 2>err &&
	grep "byte 72: .*looks like the mmap segment of a split image .* give its store segment too" err
'

test_expect_success 'a truncated image is an error naming the byte (exit 8)' '
	head -c 8192 img.axfs >trunc.axfs &&
	test_expect_code 8 "$AXFS" dump trunc.axfs 2>err &&
	grep "^axfs dump: .trunc.axfs.: byte 72: image size [0-9]* is larger than the file (8192 bytes)" err
'

test_expect_success 'a corrupt descriptor is an error naming the byte' '
	cp img.axfs bad.axfs &&
	d=$(od -An -tu8 --endian=big -j96 -N8 img.axfs | tr -d " ") &&
	printf "\377\377\377\377\377\377\377\377" |
		dd of=bad.axfs bs=1 seek=$d conv=notrunc 2>/dev/null &&
	test_expect_code 8 "$AXFS" dump bad.axfs 2>err &&
	grep "byte $d: region .strings. extends past the end of the image" err
'

test_expect_success 'not an image, a missing file' '
	head -c 10000 /dev/zero >zero.bin &&
	test_expect_code 8 "$AXFS" dump zero.bin 2>err &&
	grep "byte 0: bad magic 0x00000000" err &&
	test_expect_code 8 "$AXFS" dump nothere.axfs 2>err &&
	grep "cannot open .nothere.axfs.: No such file" err
'

test_expect_success 'usage errors exit 16; --help and --version exit 0' '
	test_expect_code 16 "$AXFS" dump 2>err && grep "no image given" err &&
	test_expect_code 16 "$AXFS" dump --bogus img.axfs 2>err &&
	test_expect_code 16 "$AXFS" dump a b c 2>err &&
	"$AXFS" dump --help >h && grep "^usage: axfs dump" h &&
	"$AXFS" dump --version | grep "^axfs dump (axfs-tools) "
'

test_expect_success 'a write error on stdout is reported (exit 8)' '
	if test -w /dev/full; then
		test_expect_code 8 "$AXFS" dump img.axfs >/dev/full 2>err &&
		grep "error writing to standard output" err
	fi
'

test_done
