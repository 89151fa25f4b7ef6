#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# axfs fsck: one corruption per check, each on a real image built by axfs
# mkfs; every test asserts the exact finding (check id and byte offset) and
# the exit code.  Structural corruptions recompute the digest (--digest) so
# that the structural check is the one under test.  Clean images from
# several trees and options pass with 0.
. "$(dirname "$0")/lib.sh"

. "$AXFS_TOP/tests/cli/lib-hostile.sh"

# expect CHECK OFFSET [RC [FSCK-ARGUMENTS...]]: fsck exits RC and prints
# "IMAGE: byte OFFSET: ...[CHECK]", IMAGE being the first argument that is
# not an option (default: t.axfs).  Without RC: 4 for an error; for a
# warning (the driver copes) 0 when there is no error, and --strict must
# then exit 4.
expect() {
	e_check=$1 e_off=$2 e_rc=${3:-}
	if [ $# -ge 3 ]; then shift 3; else shift $#; fi
	[ $# -gt 0 ] || set -- t.axfs
	e_img=
	for e_a in "$@"; do
		case $e_a in -*) ;; *) e_img=$e_a; break ;; esac
	done
	"$AXFS" fsck --max-per-check 0 "$@" >out 2>err
	e_got=$?
	if [ -z "$e_rc" ]; then
		e_rc=4
		if grep -q "^$e_img: byte $e_off: .*warning: .*\[$e_check\]\$" out &&
		   grep -q "^$e_img: no errors, " out; then
			e_rc=0
			"$AXFS" fsck -q --strict "$@"
			e_strict=$?
			if [ "$e_strict" -ne 4 ]; then
				echo "fsck --strict exited $e_strict, not 4"
				return 1
			fi
		fi
	fi
	if [ "$e_got" -ne "$e_rc" ]; then
		echo "fsck exited $e_got, not $e_rc"; cat out err; return 1
	fi
	if ! grep -q "^$e_img: byte $e_off: .*\[$e_check\]\$" out; then
		echo "no [$e_check] at byte $e_off:"; cat out; return 1
	fi
}

fresh() { cp good.axfs t.axfs; }
ino() { P good.axfs ino "$1"; }
off() { P good.axfs off "$1"; }
ent() { P good.axfs entry "$1" "$2"; }
fsoff() { P good.axfs region "$1" | cut -d' ' -f1; }
rsize() { P good.axfs region "$1" | cut -d' ' -f2; }
desc() { P good.axfs get "sb.region.$1"; }
len() { stat -c %s "$1"; }

mk_tree() {
	python3 - "$1" "$AXFS_TOP/tests/tools" <<-'EOF'
	import sys
	sys.path.insert(0, sys.argv[2])
	from treegen import Tree
	t = Tree(sys.argv[1], 3000)
	t.file("bin/prog", t.random(30000), 0o755)
	t.file("bin/x", b"x")
	t.file("etc/conf", b"".join(b"option %d = value %d\n" % (i, i * 7)
	                       for i in range(4000)))
	t.file("etc/small", b"hi\n", 0o600)
	t.file("etc/rand", t.random(9000))
	t.file("etc/b64", t.b64(60000))
	t.file("etc/empty", b"")
	t.file("long/" + "l" * 200, b"long name\n")
	t.file("long/" + "m" * 100, b"medium name\n")
	t.link("etc/conf", "etc/hl")
	t.symlink("prog", "bin/sh")
	t.symlink("etc/conf", "lnk2")
	t.dir("empty")
	EOF
}

test_expect_success 'build the images under test' '
	mk_tree tree &&
	cat >policy.yaml <<-\EOF &&
	devices:
	  - { path: /dev/console, type: char, major: 5, minor: 1, mode: "0600" }
	  - { path: /dev/fifo, type: fifo, mode: "0600" }
	files:
	  - { match: /etc/rand, compress: none }
	  - { match: /etc/small, compress: none }
	EOF
	"$AXFS" mkfs -q --compress-metadata=no --xip /bin/prog -b 8KiB \
		-c policy.yaml tree -o good.axfs &&
	"$AXFS" mkfs -q --compress-metadata=yes --xip /bin/prog -b 8KiB \
		-c policy.yaml tree -o good-z.axfs &&
	"$AXFS" mkfs -q --compress-metadata=no -b 64KiB -c policy.yaml tree \
		-o good-64k.axfs &&
	test "$(P good-z.axfs region strings | cut -d" " -f3)" -gt 0
'

# ---- clean images -----------------------------------------------------------

test_expect_success 'clean images from several trees and options pass with 0' '
	mkdir -p src2 && cp -R "$AXFS_TOP/libaxfsimg" "$AXFS_TOP/man" src2/ &&
	set -f &&
	for args in "tree" "-b 4KiB tree" "-b 1MiB --compress-metadata=no tree" \
		    "--xip /** --compress-metadata=yes tree" "src2" \
		    "-b 16KiB --xip /man/* src2"; do
		"$AXFS" mkfs -q $args -o c.axfs &&
		"$AXFS" fsck c.axfs >out &&
		grep "^c.axfs: clean, .* digest ok\$" out &&
		"$AXFS" fsck --fast c.axfs >/dev/null || return 1
	done &&
	for i in good good-z good-64k; do
		"$AXFS" fsck -q $i.axfs || return 1
	done
'

test_expect_success 'a clean image built from a tarball passes' '
	tar -C tree -cf tree.tar . &&
	"$AXFS" mkfs -q tree.tar -o tar.axfs &&
	"$AXFS" fsck tar.axfs >out && grep "clean" out
'

test_expect_success 'a split image is checked as the joined image' '
	"$AXFS" mkfs -q --mmap-limit 1MiB --xip /bin/prog tree -o split.axfs &&
	"$AXFS" split split.axfs --mmap nor.bin --store nand.bin &&
	"$AXFS" fsck nor.bin nand.bin >out && grep "^nor.bin: clean" out &&
	cp nand.bin bad.bin && P bad.bin truncate 100 &&
	expect sb.size 72 4 nor.bin bad.bin
'

# ---- the command line -----------------------------------------------------

test_expect_success 'exit codes: 8 unreadable, 16 usage, -q silent' '
	"$AXFS" fsck does-not-exist.axfs 2>err; test $? -eq 8 &&
	grep "cannot open .does-not-exist.axfs." err &&
	"$AXFS" fsck . 2>err; test $? -eq 8 &&
	"$AXFS" fsck 2>err; test $? -eq 16 &&
	"$AXFS" fsck --bogus good.axfs 2>err; test $? -eq 16 &&
	"$AXFS" fsck a b c 2>err; test $? -eq 16 &&
	fresh && P t.axfs set sb.magic 0 &&
	"$AXFS" fsck -q t.axfs >out 2>err; test $? -eq 4 &&
	test ! -s out && test ! -s err
'

test_expect_success 'fsck.axfs and the options fsck(8) passes' '
	ln -s "$AXFS" fsck.axfs &&
	./fsck.axfs -a good.axfs && ./fsck.axfs -p good.axfs &&
	./fsck.axfs -n -f good.axfs && ./fsck.axfs -y good.axfs >out &&
	grep "^good.axfs: clean" out &&
	./fsck.axfs --version | grep "axfs-tools"
'

test_expect_success '--json is one valid document with the schema' '
	fresh && P t.axfs set entry.node_type.1 3 --digest &&
	"$AXFS" fsck --json t.axfs >j; test $? -eq 4 &&
	python3 - <<-\EOF
	import json
	d = json.load(open("j"))
	assert d["version"] == 1 and d["image"] == "t.axfs"
	assert d["clean"] is False and d["exit_code"] == 4
	assert d["digest"] == "ok" and len(d["sha1"]) == 40
	f = [x for x in d["findings"] if x["check"] == "node.type"]
	assert f and f[0]["severity"] == "error" and f[0]["path"] == "/bin/prog"
	assert d["errors"] >= 1
	EOF
'

test_expect_success 'every check id is documented in axfs-fsck(8)' '
	"$AXFS" fsck --list-checks >checks &&
	test $(wc -l <checks) -gt 90 &&
	sed "s/\\\\-/-/g" "$AXFS_TOP/man/axfs-fsck.8" >man.txt &&
	while read -r id sev rest; do
		grep -q "^\.BR $id \" ($sev)\"" man.txt ||
		{ echo "$id is not in the manual"; return 1; }
	done <checks
'

test_expect_success 'fsck never writes to the image' '
	fresh && P t.axfs set sb.files 99 && cp t.axfs before &&
	"$AXFS" fsck t.axfs >/dev/null; cmp t.axfs before
'

# ---- superblock and image -----------------------------------------------

test_expect_success 'image.short' '
	head -c 100 good.axfs >t.axfs && expect image.short 0
'
test_expect_success 'image.slack' '
	fresh && P t.axfs poke 2000 1 --digest && expect image.slack 2000
'
test_expect_success LOOP 'image.device-larger (a loop device)' '
	cp good.axfs dev.img && head -c 65536 /dev/zero >>dev.img &&
	loop=$(losetup -f --show "$TRASH/dev.img") &&
	test_when_finished "losetup -d $loop" &&
	expect image.device-larger $(len good.axfs) 0 "$loop" &&
	grep "65536 bytes after it (not part of the image) are all 0x00" out
'
test_expect_success 'sb.magic' '
	fresh && P t.axfs set sb.magic 0 --digest && expect sb.magic 0
'
test_expect_success 'sb.signature' '
	fresh && P t.axfs poke 4 0x61 --digest && expect sb.signature 4
'
test_expect_success 'sb.version' '
	fresh && P t.axfs set sb.version_minor 1 --digest && expect sb.version 240
'
test_expect_success 'sb.compression' '
	fresh && P t.axfs set sb.compression_type 1 --digest &&
	expect sb.compression 243
'
test_expect_success 'sb.padding' '
	fresh && P t.axfs set sb.padding 1 --digest && expect sb.padding 244
'
test_expect_success 'sb.page-shift' '
	fresh && P t.axfs set sb.page_shift 13 --digest &&
	expect sb.page-shift 256
'
test_expect_success 'sb.no-page-shift is a notice: exit 0' '
	fresh && P t.axfs set sb.page_shift 0 --digest &&
	expect sb.no-page-shift 256 0 && grep "notice:" out
'
test_expect_success 'sb.cblock-size' '
	fresh && P t.axfs set sb.cblock_size 12288 --digest &&
	expect sb.cblock-size 60
'
test_expect_success 'sb.size' '
	fresh && P t.axfs set sb.size $(($(len good.axfs) + 4096)) --digest &&
	expect sb.size 72
'
test_expect_success 'sb.size-align' '
	fresh && head -c 508 /dev/zero >>t.axfs &&
	printf "\110\240\344\315" >>t.axfs &&
	P t.axfs set sb.size $(len t.axfs) --digest && expect sb.size-align 72
'
test_expect_success 'sb.end-magic' '
	fresh && l=$(len t.axfs) && P t.axfs poke $((l - 1)) 0 --digest &&
	expect sb.end-magic $((l - 4))
'
test_expect_success 'sb.over-4gib (a sparse image, without the digest)' '
	fresh && big=$((4 * 1024 * 1024 * 1024 + 4096)) &&
	truncate -s $big t.axfs &&
	python3 - $big <<-\EOF &&
	import sys
	big = int(sys.argv[1])
	with open("t.axfs", "r+b") as f:
	    f.seek(72); f.write(big.to_bytes(8, "big"))
	    f.seek(big - 4); f.write(bytes.fromhex("48a0e4cd"))
	EOF
	expect sb.end-magic-u32 72 4 --no-digest --fast t.axfs &&
	printf "\110\240\344\315" | dd of=t.axfs bs=1 seek=4092 conv=notrunc \
		2>/dev/null &&
	expect sb.over-4gib 72 "" --no-digest --fast t.axfs &&
	rm t.axfs
'
test_expect_success 'sb.mmap-size' '
	fresh && P t.axfs set sb.mmap_size $(($(len t.axfs) + 4096)) --digest &&
	expect sb.mmap-size 88
'
test_expect_success 'sb.mmap-align' '
	fresh && P t.axfs set sb.mmap_size 40000 --digest &&
	expect sb.mmap-align 88
'
test_expect_success 'sb.files' '
	fresh && P t.axfs set sb.files 21 --digest && expect sb.files 64
'
test_expect_success 'sb.blocks' '
	fresh && P t.axfs set sb.blocks 61 --digest && expect sb.blocks 80
'
test_expect_success 'sb.blocks-count' '
	fresh && P t.axfs set sb.blocks 63 --digest && expect sb.blocks-count 80
'

# ---- descriptors and regions ---------------------------------------------

test_expect_success 'desc.range' '
	fresh && P t.axfs set sb.region.gids $(len t.axfs) --digest &&
	expect desc.range 232
'
test_expect_success 'desc.overlap' '
	fresh && P t.axfs set sb.region.uids $(($(desc gids) + 8)) --digest &&
	expect desc.overlap 224
'
test_expect_success 'desc.padding' '
	fresh && P t.axfs poke $(($(desc strings) + 34)) 1 --digest &&
	expect desc.padding $(($(desc strings) + 34))
'
test_expect_success 'desc.incore' '
	fresh && P t.axfs set desc.strings.incore 2 --digest &&
	expect desc.incore $(off desc.strings.incore)
'
test_expect_success 'region.range' '
	fresh && P t.axfs set desc.compressed.fsoffset $(len t.axfs) --digest &&
	expect region.range $(off desc.compressed.fsoffset)
'
test_expect_success 'region.overlap' '
	fresh &&
	P t.axfs set desc.byte_aligned.fsoffset $(($(fsoff strings) + 1)) \
		--digest &&
	expect region.overlap $(off desc.byte_aligned.fsoffset)
'
test_expect_success 'region.depth' '
	fresh && P t.axfs set desc.node_type.depth 9 --digest &&
	expect region.depth $(off desc.node_type.depth)
'
test_expect_success 'region.not-table' '
	fresh && P t.axfs set desc.strings.depth 1 --digest &&
	expect region.not-table $(off desc.strings.depth)
'
test_expect_success 'region.size' '
	fresh &&
	P t.axfs set desc.node_index.size $(($(rsize node_index) + 1)) --digest &&
	expect region.size $(off desc.node_index.size)
'
test_expect_success 'region.count' '
	fresh && P t.axfs set desc.inode_mode_index.max_index 21 --digest &&
	expect region.count $(off desc.inode_mode_index.max_index)
'
test_expect_success 'region.depth-minimal' '
	fresh && P t.axfs move inode_mode_index 1024 2 --digest &&
	expect region.depth-minimal $(off desc.inode_mode_index.depth)
'
test_expect_success 'region.bound: strings claiming more than 256 bytes an inode' '
	cp good-z.axfs t.axfs &&
	test "$(P t.axfs get desc.strings.compressed_size)" -gt 0 &&
	max=$(( $(P t.axfs get sb.files) * 256 + 4096 )) &&
	P t.axfs set desc.strings.size $((max + 1)) --digest &&
	expect region.bound $(P t.axfs off desc.strings.size) &&
	grep "region .strings. claims $((max + 1)) bytes;.* allow at most $max" out &&
	! grep "region.inflate" out
'
test_expect_success 'region.inflate' '
	cp good-z.axfs t.axfs &&
	s=$(P t.axfs get desc.strings.size) &&
	P t.axfs set desc.strings.size $((s + 1)) --digest &&
	expect region.inflate $(P t.axfs off desc.strings.size)
'
test_expect_success 'region.stream-tail' '
	cp good-z.axfs t.axfs &&
	set -- $(P t.axfs region strings) &&
	P t.axfs set desc.strings.compressed_size $(($3 + 1)) --digest &&
	expect region.stream-tail $(($1 + $3))
'
test_expect_success 'region.empty' '
	fresh && test "$(rsize uids)" -eq 0 &&
	P t.axfs set desc.uids.fsoffset 8 --digest &&
	expect region.empty $(off desc.uids.fsoffset)
'
test_expect_success 'region.max-index' '
	fresh && P t.axfs set desc.strings.max_index 21 --digest &&
	expect region.max-index $(off desc.strings.max_index)
'
test_expect_success 'region.xip-align' '
	fresh && P t.axfs set desc.xip.fsoffset 4097 --digest &&
	expect region.xip-align $(off desc.xip.fsoffset)
'
test_expect_success 'region.mmap' '
	fresh && P t.axfs set sb.mmap_size 4096 --digest &&
	expect region.mmap $(off desc.xip.fsoffset)
'
test_expect_success 'region.compressed-data' '
	fresh &&
	P t.axfs set desc.byte_aligned.compressed_size $(rsize byte_aligned) &&
	P t.axfs set sb.mmap_size 8192 --digest &&
	expect region.compressed-data $(off desc.byte_aligned.compressed_size)
'
test_expect_success 'limit.memory' '
	"$AXFS" fsck --max-memory 1KiB good.axfs >out; test $? -eq 4 &&
	grep "\[limit.memory\]" out
'

# ---- the inode tree --------------------------------------------------------

test_expect_success 'root.type' '
	fresh && m=$(ent inode_mode_index 0) &&
	P t.axfs set entry.modes.$m 0x81ed --digest &&
	expect root.type $(off entry.modes.$m)
'
test_expect_success 'root.empty' '
	fresh && P t.axfs set entry.inode_num_entries.0 0 --digest &&
	expect root.empty $(off entry.inode_num_entries.0)
'
test_expect_success 'root.name' '
	fresh &&
	P t.axfs set entry.inode_name_offset.0 $(ent inode_name_offset 1) \
		--digest &&
	expect root.name $(off entry.inode_name_offset.0)
'
test_expect_success 'dir.range' '
	fresh && i=$(ino /etc) &&
	P t.axfs set entry.inode_array_index.$i 20 --digest &&
	expect dir.range $(off entry.inode_array_index.$i)
'
test_expect_success 'dir.order' '
	fresh && a=$(ino /bin/prog) && b=$(ino /bin/sh) &&
	P t.axfs set entry.inode_name_offset.$a $(ent inode_name_offset $b) &&
	P t.axfs set entry.inode_name_offset.$b $(ent inode_name_offset $a) \
		--digest &&
	expect dir.order $(off entry.inode_name_offset.$b)
'
test_expect_success 'dir.duplicate' '
	fresh && a=$(ino /bin/prog) && b=$(ino /bin/sh) &&
	P t.axfs set entry.inode_name_offset.$b $(ent inode_name_offset $a) \
		--digest &&
	expect dir.duplicate $(off entry.inode_name_offset.$b)
'
test_expect_success 'dir.fields' '
	fresh && i=$(ino /etc) &&
	P t.axfs set entry.inode_file_size.$i $(($(ent inode_file_size $i) + 1)) \
		--digest &&
	expect dir.fields $(off entry.inode_file_size.$i)
'
test_expect_success 'inode.multiple' '
	fresh && i=$(ino /long) &&
	P t.axfs set entry.inode_array_index.$i \
		$(ent inode_array_index $(ino /etc)) --digest &&
	expect inode.multiple $(off entry.inode_array_index.$i)
'
test_expect_success 'inode.unreachable' '
	fresh && i=$(ino /long) && m=$(ino /long/$(printf "m%.0s" $(seq 100))) &&
	P t.axfs set entry.inode_num_entries.$i 1 --digest &&
	expect inode.unreachable $(off entry.inode_num_entries.$m)
'
test_expect_success 'inode.tables' '
	fresh && set -- $(P t.axfs region inode_file_size) &&
	P t.axfs set desc.inode_file_size.size $(($2 - $5)) &&
	P t.axfs set desc.inode_file_size.max_index $(($4 - 1)) --digest &&
	expect inode.tables $(($1 + ($4 - 1) * $5))
'
# tree.depth (more than 4096 nested directories) is tested on a hand-built
# image in tests/unit/test_fsck.c: no source tree that deep can be made here.
test_expect_success 'name.range' '
	fresh && i=$(ino /bin/x) &&
	P t.axfs set entry.inode_name_offset.$i $(rsize strings) --digest &&
	expect name.range $(off entry.inode_name_offset.$i)
'
test_expect_success 'name.unterminated' '
	fresh && last=$(($(P t.axfs get sb.files) - 1)) &&
	P t.axfs poke $(($(fsoff strings) + $(rsize strings) - 1)) 0x7a \
		--digest &&
	expect name.unterminated $(($(fsoff strings) + $(ent inode_name_offset $last)))
'
test_expect_success 'name.empty' '
	fresh && i=$(ino /bin/x) &&
	P t.axfs set entry.inode_name_offset.$i 0 --digest &&
	expect name.empty $(fsoff strings)
'
test_expect_success 'name.slash' '
	fresh && n=$(($(fsoff strings) + $(ent inode_name_offset $(ino /bin/x)))) &&
	P t.axfs poke $n 0x2f --digest && expect name.slash $n
'
test_expect_success 'name.dot' '
	fresh && n=$(($(fsoff strings) + $(ent inode_name_offset $(ino /bin/x)))) &&
	P t.axfs poke $n 0x2e --digest && expect name.dot $n
'
test_expect_success 'name.too-long' '
	fresh && l=$(ino /long/$(printf "l%.0s" $(seq 200))) &&
	n=$(($(fsoff strings) + $(ent inode_name_offset $l))) &&
	P t.axfs poke $((n + 200)) 0x6c --digest && expect name.too-long $n
'
test_expect_success 'strings.unused' '
	fresh && i=$(ino /etc/b64) && o=$(ent inode_name_offset $i) &&
	P t.axfs set entry.inode_name_offset.$i $((o + 1)) --digest &&
	expect strings.unused $(($(fsoff strings) + o))
'
test_expect_success 'mode.index' '
	fresh && i=$(ino /bin/x) &&
	P t.axfs set entry.inode_mode_index.$i $(P t.axfs get desc.modes.max_index) \
		--digest &&
	expect mode.index $(off entry.inode_mode_index.$i)
'
test_expect_success 'mode.type' '
	fresh && m=$(ent inode_mode_index $(ino /etc/small)) &&
	P t.axfs set entry.modes.$m 0xf180 --digest &&
	expect mode.type $(off entry.modes.$m)
'
test_expect_success 'mode.bits' '
	fresh && P t.axfs move modes 1024 3 &&
	P t.axfs set entry.modes.0 0x141ed --digest && expect mode.bits 1024
'
test_expect_success 'mode.unused' '
	fresh && s=$(ino /etc/small) && m=$(ent inode_mode_index $s) &&
	P t.axfs set entry.inode_mode_index.$s \
		$(ent inode_mode_index $(ino /etc/rand)) --digest &&
	expect mode.unused $(off entry.modes.$m)
'
test_expect_success 'file.num-entries' '
	fresh && i=$(ino /etc/rand) &&
	P t.axfs set entry.inode_num_entries.$i 17 --digest &&
	expect file.num-entries $(off entry.inode_num_entries.$i)
'
test_expect_success 'file.nodes' '
	fresh && i=$(ino /etc/rand) &&
	P t.axfs set entry.inode_array_index.$i $(P t.axfs get sb.blocks) \
		--digest &&
	expect file.nodes $(off entry.inode_array_index.$i)
'
test_expect_success 'file.empty-fields' '
	fresh && i=$(ino /etc/empty) &&
	P t.axfs set entry.inode_array_index.$i 1 --digest &&
	expect file.empty-fields $(off entry.inode_array_index.$i)
'
test_expect_success 'symlink.size' '
	fresh && i=$(ino /bin/sh) &&
	P t.axfs set entry.inode_file_size.$i 0 --digest &&
	expect symlink.size $(off entry.inode_file_size.$i)
'
# A target without a NUL after it is read right by every kernel since
# 2.6.31 (the legacy mkfs writes such targets): a warning.  One with a NUL
# inside is read short: an error.
test_expect_success 'symlink.nul' '
	fresh && i=$(ino /bin/sh) && set -- $(P t.axfs page $i 0) &&
	P t.axfs set entry.inode_file_size.$i 3 --digest &&
	case $2 in
	compressed) where=$(off entry.cnode_offset.$6) ;;
	ba) where=$(($3 + 3)) ;;
	xip) where=$(($3 + 3)) ;;
	esac &&
	expect symlink.nul $where
'
test_expect_success 'symlink.target' '
	fresh && i=$(ino /bin/sh) && set -- $(P t.axfs page $i 0) &&
	n=$(P t.axfs get entry.inode_file_size.$i) &&
	P t.axfs set entry.inode_file_size.$i $((n + 1)) --digest &&
	case $2 in
	compressed) where=$(off entry.cnode_offset.$6) ;;
	*) where=$3 ;;
	esac &&
	expect symlink.target $where
'
test_expect_success 'dev.number' '
	fresh && i=$(ino /dev/console) &&
	P t.axfs set entry.inode_file_size.$i 0x10000 --digest &&
	expect dev.number $(off entry.inode_file_size.$i)
'
test_expect_success 'special.fields' '
	fresh && i=$(ino /dev/fifo) &&
	P t.axfs set entry.inode_num_entries.$i 1 --digest &&
	expect special.fields $(off entry.inode_num_entries.$i)
'

# ---- file data ------------------------------------------------------------

test_expect_success 'node.type' '
	fresh && n=$(P t.axfs page $(ino /bin/prog) 0 | cut -d" " -f1) &&
	P t.axfs set entry.node_type.$n 3 --digest &&
	expect node.type $(off entry.node_type.$n)
'
test_expect_success 'node.index' '
	fresh && n=$(P t.axfs page $(ino /bin/prog) 1 | cut -d" " -f1) &&
	P t.axfs set entry.node_index.$n $(P t.axfs get desc.xip.max_index) \
		--digest &&
	expect node.index $(off entry.node_index.$n)
'
test_expect_success 'node.unused' '
	fresh && i=$(ino /etc/rand) &&
	n=$(P t.axfs page $i 2 | cut -d" " -f1) &&
	P t.axfs set entry.inode_file_size.$i 8000 --digest &&
	expect node.unused $(off entry.node_type.$n)
'
test_expect_success 'node.overlap' '
	fresh && i=$(ino /etc/rand) && s=$(ino /etc/small) &&
	P t.axfs set entry.inode_array_index.$i \
		$(($(ent inode_array_index $i) + 1)) --digest &&
	expect node.overlap $(off entry.inode_array_index.$s)
'
# Profiles make exactly the profiled pages XIP, so an XIP page may be
# followed by a compressed one: only the 2008 driver's read() misreads an
# unaligned read across them, hence a notice (exit 0), not a defect.
test_expect_success 'node.xip-order is a notice: exit 0' '
	mkdir -p xo/bin && head -c 20000 /dev/urandom >xo/bin/p &&
	printf "./bin/p,0,5\n" >xo.csv &&
	"$AXFS" mkfs -q -p xo.csv xo -o xo.axfs &&
	"$AXFS" fsck -v xo.axfs >out 2>&1 &&
	grep "^xo.axfs: byte [0-9]*: /bin/p: notice: .*\[node.xip-order\]$" out
'
test_expect_success 'xip.shared' '
	fresh && n=$(P t.axfs page $(ino /bin/prog) 1 | cut -d" " -f1) &&
	P t.axfs set entry.node_index.$n 0 --digest &&
	expect xip.shared $(off entry.node_index.$n)
'
test_expect_success 'xip.unused' '
	fresh && n=$(P t.axfs page $(ino /bin/prog) 1 | cut -d" " -f1) &&
	P t.axfs set entry.node_index.$n 0 --digest &&
	expect xip.unused $(($(fsoff xip) + 4096))
'
test_expect_success 'xip.tail' '
	fresh && set -- $(P t.axfs page $(ino /bin/prog) 7) &&
	o=$(($3 + 30000 - 7 * 4096 + 10)) &&
	P t.axfs poke $o 1 --digest && expect xip.tail $o
'
test_expect_success 'cnode.cblock' '
	fresh && set -- $(P t.axfs page $(ino /bin/x) 0) &&
	P t.axfs set entry.cnode_index.$6 $(($(P t.axfs get desc.cblock_offset.max_index) - 1)) \
		--digest &&
	expect cnode.cblock $(off entry.cnode_index.$6)
'
test_expect_success 'cnode.offset' '
	fresh && set -- $(P t.axfs page $(ino /bin/x) 0) &&
	P t.axfs set entry.cnode_offset.$6 8192 --digest &&
	expect cnode.offset $(off entry.cnode_offset.$6)
'
test_expect_success 'cnode.offset against the inflated length (deep)' '
	fresh && set -- $(P t.axfs page $(ino /bin/x) 0) &&
	P t.axfs set entry.cnode_offset.$6 8000 --digest &&
	expect cnode.offset $(off entry.cnode_offset.$6) &&
	grep "inflates to only" out
'
# samecblock: pages $p and $p+1 of /etc/conf that share a cblock; sets
# ja and jb to their cnodes.
samecblock() {
	c=$(ino /etc/conf) && p=0 &&
	while [ $p -lt 20 ]; do
		set -- $(P good.axfs page $c $p) && cb=$3 && ja=$6 &&
		set -- $(P good.axfs page $c $((p + 1))) && jb=$6 &&
		[ "$3" = "$cb" ] && return 0
		p=$((p + 1))
	done
	return 1
}
test_expect_success 'cnode.overlap' '
	fresh && samecblock &&
	P t.axfs set entry.cnode_offset.$jb $(ent cnode_offset $ja) --digest &&
	expect cnode.overlap $(off entry.cnode_offset.$jb)
'
test_expect_success 'cnode.shared' '
	fresh && set -- $(P t.axfs page $(ino /bin/x) 0) && x=$1 &&
	set -- $(P t.axfs page $(ino /etc/conf) 0) && c=$1 && j=$6 &&
	P t.axfs set entry.node_index.$x $j --digest &&
	expect cnode.shared $(off entry.node_index.$((x > c ? x : c)))
'
test_expect_success 'cnode.unused' '
	fresh && set -- $(P t.axfs page $(ino /bin/x) 0) && x=$1 && j=$6 &&
	set -- $(P t.axfs page $(ino /etc/conf) 0) &&
	P t.axfs set entry.node_index.$x $6 --digest &&
	expect cnode.unused $(off entry.cnode_index.$j)
'
test_expect_success 'cblock.order' '
	fresh && P t.axfs set entry.cblock_offset.1 0 --digest &&
	expect cblock.order $(off entry.cblock_offset.1)
'
test_expect_success 'cblock.range' '
	fresh && n=$(($(P t.axfs get desc.cblock_offset.max_index) - 1)) &&
	P t.axfs set entry.cblock_offset.$n $(($(rsize compressed) + 1)) \
		--digest &&
	expect cblock.range $(off entry.cblock_offset.$n)
'
test_expect_success 'cblock.too-long' '
	cp good-64k.axfs t.axfs &&
	c=$(P t.axfs cblocks | awk "\$3 > 4096 {print \$1; exit}") &&
	test -n "$c" && P t.axfs set sb.cblock_size 4096 --digest &&
	expect cblock.too-long $(P t.axfs off entry.cblock_offset.$((c + 1)))
'
test_expect_success 'cblock.inflate' '
	fresh && set -- $(P t.axfs cblocks | sed -n 6p) &&
	P t.axfs poke $2 0 --digest && expect cblock.inflate $2
'
test_expect_success 'cblock.oversize' '
	fresh &&
	set -- $(P t.axfs cblocks | awk "\$3 <= 4096 && \$4 > 4096" | head -n 1) &&
	P t.axfs set sb.cblock_size 4096 --digest && expect cblock.oversize $2
'
test_expect_success 'cblock.stream-tail' '
	fresh && set -- $(P t.axfs cblocks | sed -n 6p) &&
	P t.axfs set entry.cblock_offset.5 $(($(ent cblock_offset 5) + 1)) \
		--digest &&
	expect cblock.stream-tail $2
'
test_expect_success 'cblock.unused' '
	fresh && c=3 &&
	for j in $(seq 0 $(($(P t.axfs get desc.cnode_index.max_index) - 1))); do
		[ "$(P t.axfs entry cnode_index $j)" = $c ] || continue
		P t.axfs set entry.cnode_index.$j $((c + 1)) || return 1
	done &&
	P t.axfs digest && expect cblock.unused $(off entry.cblock_offset.$c)
'
test_expect_success 'cblock.slack' '
	fresh && c=$(ino /etc/conf) && h=$(ino /etc/hl) &&
	s=$(ent inode_file_size $c) &&
	set -- $(P t.axfs page $c $(((s - 1) / 4096))) &&
	P t.axfs set entry.inode_file_size.$c $((s - 1)) &&
	P t.axfs set entry.inode_file_size.$h $((s - 1)) --digest &&
	expect cblock.slack $5
'
test_expect_success 'compressed.unused' '
	fresh && set -- $(P t.axfs region compressed) &&
	P t.axfs set desc.compressed.size $(($2 + 1)) --digest &&
	expect compressed.unused $(($1 + $2))
'
test_expect_success 'banode.range' '
	fresh && P t.axfs set entry.banode_offset.0 $(rsize byte_aligned) \
		--digest &&
	expect banode.range $(off entry.banode_offset.0)
'
test_expect_success 'banode.overlap' '
	fresh && P t.axfs set entry.banode_offset.1 $(ent banode_offset 0) \
		--digest &&
	expect banode.overlap $(off entry.banode_offset.1)
'
# Two full pages may share a banode or cnode (mkfs stores identical pages
# once); a tail that shares with a page may not.
test_expect_success 'banode.shared' '
	fresh && set -- $(P t.axfs page $(ino /etc/rand) 2) &&
	P t.axfs set entry.node_index.$1 0 --digest &&
	expect banode.shared $(off entry.node_index.$1)
'
test_expect_success 'banode.unused' '
	fresh && set -- $(P t.axfs page $(ino /etc/rand) 1) && b=$4 &&
	P t.axfs set entry.node_index.$1 0 --digest &&
	expect banode.unused $(off entry.banode_offset.$b)
'
test_expect_success 'banode.slack' '
	fresh && i=$(ino /etc/rand) &&
	P t.axfs set entry.inode_file_size.$i 8999 --digest &&
	expect banode.slack $(($(fsoff byte_aligned) + $(ent banode_offset 2) + 8999 - 8192))
'
# A region made longer over zero bytes: nothing but the size tells.
test_expect_success 'byte-aligned.unused' '
	printf "files:\n  - { match: \"/**\", compress: none }\n" >none.yaml &&
	"$AXFS" mkfs -q --compress-metadata=no -c none.yaml tree -o t.axfs &&
	test "$(P t.axfs region compressed)" = "0 0 0 0 0" &&
	set -- $(P t.axfs region byte_aligned) &&
	test $(($1 + $2)) -lt $(len t.axfs) && "$AXFS" fsck -q t.axfs &&
	P t.axfs set desc.byte_aligned.size $(($2 + 1)) --digest &&
	expect byte-aligned.unused $(($1 + $2)) &&
	! grep -v "byte-aligned.unused\]\$" out | grep "^t.axfs: byte" &&
	expect byte-aligned.unused $(($1 + $2)) 0 --fast t.axfs
'

test_expect_success 'many cblocks (inflated on all CPUs): findings in cblock order' '
	mkdir -p many && python3 -c "
import random
r = random.Random(5)
words = [b\"alpha\", b\"beta\", b\"gamma\", b\"delta\", b\"omega\"]
open(\"many/text\", \"wb\").write(b\" \".join(r.choice(words) for _ in range(150000)))
" &&
	"$AXFS" mkfs -q --compress-metadata=no -b 4KiB many -o m.axfs &&
	test $(P m.axfs cblocks | wc -l) -ge 100 &&
	a=$(P m.axfs cblocks | sed -n 11p | cut -d" " -f2) &&
	b=$(P m.axfs cblocks | sed -n 91p | cut -d" " -f2) &&
	P m.axfs xor $((b + 20)) 0x55 && P m.axfs xor $((a + 20)) 0x55 \
		--digest &&
	"$AXFS" fsck m.axfs >out1; test $? -eq 4 &&
	grep -n "\[cblock.inflate\]" out1 >lines && test $(wc -l <lines) -eq 2 &&
	head -n 1 lines | grep "byte $a: .*cblock 10 " &&
	tail -n 1 lines | grep "byte $b: .*cblock 90 " &&
	"$AXFS" fsck m.axfs >out2; cmp out1 out2
'

# ---- the digest ----------------------------------------------------------

test_expect_success 'digest.none is a notice: exit 0' '
	fresh && P t.axfs set sb.digest 0 &&
	expect digest.none 20 0 && grep "notice: .*no digest" out &&
	grep "digest none\$" out
'
test_expect_success 'digest.mismatch: a changed byte of file data' '
	fresh && P t.axfs xor 5000 1 && expect digest.mismatch 20
'
test_expect_success 'digest.padding' '
	fresh && P t.axfs poke 50 1 && expect digest.padding 40
'
test_expect_success '--no-digest and --fast skip what they say' '
	fresh && P t.axfs xor 5000 1 &&
	"$AXFS" fsck --no-digest t.axfs >out &&
	grep "digest not-checked" out &&
	fresh && set -- $(P t.axfs page $(ino /bin/prog) 7) &&
	P t.axfs poke $(($3 + 4000)) 1 --digest &&
	"$AXFS" fsck --fast t.axfs >out && grep clean out &&
	expect xip.tail $(($3 + 4000))
'

test_done
