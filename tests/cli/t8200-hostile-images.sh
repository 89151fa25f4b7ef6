#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Hostile images (issue 9 item 4): each case patches one field of a real
# image (tests/tools/axfs_patch.py) and runs dump, extract and fsck on it.
# Whatever the bytes, every command must end (timeout), not crash, not
# allocate from an unchecked field (memory is limited, and "out of memory"
# counts as a failure), name the image in its errors, and extract must
# never create anything outside its target.  fsck must call every case
# corrupt (exit 4).  Cases that make the tree unsafe (names with '/', '..'
# or NUL, duplicates, cycles, shared subtrees) must be refused by extract.
. "$(dirname "$0")/lib.sh"
. "$AXFS_TOP/tests/cli/lib-hostile.sh"

# The memory limit: far more than any of these images needs, far less than
# an allocation sized from a patched count.
MEMORY_MIB=1024

# name_off IMG INO: byte offset in IMG of the name of inode INO (raw strings).
name_off() {
	echo $(( $(P "$1" get desc.strings.fsoffset) + $(P "$1" get entry.inode_name_offset.$2) ))
}

# run_all IMG: dump, extract, fsck, mkfs IMG, extract --tar; writes
# IMG.{dump,extract,fsck,mkfs,tar} (exit status) and IMG.err.  Fails on a
# crash, a timeout or an allocation failure.
run_all() {
	img=$1
	: >"$img.err"
	(
		limit_memory $MEMORY_MIB
		timeout 60 "$AXFS" dump "$img" >/dev/null 2>>"$img.err"; echo $? >"$img.dump"
		timeout 60 "$AXFS" dump --pages "$img" >/dev/null 2>>"$img.err" || true
		timeout 60 "$AXFS" dump --json "$img" >/dev/null 2>>"$img.err" || true
		timeout 60 "$AXFS" extract -q "$img" "work/out" 2>>"$img.err"; echo $? >"$img.extract"
		timeout 60 "$AXFS" fsck -q "$img" >"$img.fsck.out" 2>>"$img.err"; echo $? >"$img.fsck"
		# The image source (mkfs IMAGE, diff) and extract --tar.
		timeout 60 "$AXFS" mkfs -q "$img" -o "$img.re" 2>>"$img.err"; echo $? >"$img.mkfs"
		timeout 60 "$AXFS" extract -q --tar "$img.pax" "$img" 2>>"$img.err"; echo $? >"$img.tar"
	)
	for c in dump extract fsck mkfs tar; do
		rc=$(cat "$img.$c")
		if test "$rc" -ge 124; then
			echo "$c $img: exit $rc (crash or timeout)" >&2
			cat "$img.err" >&2
			return 1
		fi
	done
	if ! no_alloc_failure "$img.err"; then
		echo "$img: an allocation failed or a sanitizer spoke" >&2
		return 1
	fi
	# Nothing outside the target: work/ holds only out/.
	if test -n "$(ls -A work | grep -v '^out$')"; then
		echo "extract wrote outside its target:" >&2
		ls -lA work >&2
		return 1
	fi
	return 0
}

# hostile NAME HOW PATCH...: copy the base image, apply PATCH (shell code;
# $img is the copy), recompute the digest (so that fsck must find the
# defect itself), run everything.  HOW=refuse: extract must fail (8)
# before it creates anything (the walk refuses the tree); HOW=fail: it
# must fail (8) naming the byte, possibly after writing other files.
hid=0
hostile() {
	name=$1 strict=$2
	shift 2
	hid=$((hid + 1))
	test_expect_success "hostile image: $name" '
		img=case'$hid'.axfs && cp base.axfs $img &&
		'"$*"' && P $img digest &&
		rm -rf work && mkdir work &&
		run_all $img &&
		test "$(cat $img.fsck)" = 4 &&
		{ test "$(cat $img.dump)" = 0 || grep -q "$img" $img.err; } &&
		test "$(cat $img.extract)" = 8 &&
		grep "^axfs extract: .$img.: byte [0-9]*: " $img.err &&
		if test '"$strict"' = refuse; then
			test ! -e work/out
		fi
	'
}

test_expect_success 'setup: a small image with raw metadata' '
	mkdir -p tree/dir/sub tree/x &&
	echo victim >tree/aa &&
	head -c 70000 /dev/urandom >tree/dir/file &&
	ln -s ../outside tree/y &&
	echo s >tree/dir/sub/s &&
	yes axfs | head -c 300000 >tree/dir/sub/t &&
	"$AXFS" mkfs -q --compress-metadata=no tree -o base.axfs &&
	"$AXFS" mkfs -q --compress-metadata=yes tree -o basez.axfs &&
	"$AXFS" fsck -q base.axfs && "$AXFS" fsck -q basez.axfs &&
	test "$(P base.axfs ino /x)" = 3 && test "$(P base.axfs ino /y)" = 4 &&
	test "$(P base.axfs ino /dir)" = 2 && test "$(P base.axfs ino /dir/sub)" = 6 &&
	test "$(P base.axfs ino /dir/file)" = 5 &&
	test "$(P base.axfs ino /dir/sub/t)" = 8 &&
	test "$(P base.axfs region cblock_offset | cut -d" " -f5)" -gt 0 &&
	rm -rf work && mkdir work && run_all base.axfs &&
	test "$(cat base.axfs.extract)" = 0 && diff -r --no-dereference tree work/out
'

# ---- names --------------------------------------------------------------------
# Inodes: 0 /, 1 /aa, 2 /dir, 3 /x, 4 /y -> ../outside, 5 /dir/file,
# 6 /dir/sub, 7 /dir/sub/s, 8 /dir/sub/t (compressed).  Names are patched
# in place (same length); tables that must hold wider values are moved
# to the free bytes before the end of the image, 8 bytes deep.
WIDE=$(for r in strings byte_aligned compressed node_type node_index \
	cnode_offset cnode_index banode_offset cblock_offset inode_file_size \
	inode_name_offset inode_num_entries inode_mode_index inode_array_index \
	modes uids gids; do P base.axfs region $r; done |
	awk '{ e = $1 + ($3 ? $3 : $2); if (e > m) m = e } END { print int((m + 7) / 8) * 8 }')
test_expect_success 'setup: 512 free bytes at the end of the image' '
	test $(( $(stat -c %s base.axfs) - 4 - WIDE )) -ge 512
'
hostile "name with a slash" refuse 'P $img poke $(name_off $img 1) 0x2f'
hostile "name .." refuse 'P $img poke $(name_off $img 1) 0x2e 0x2e'
hostile "name ." refuse 'P $img poke $(name_off $img 1) 0x2e 0x00'
hostile "name with a NUL first" refuse 'P $img poke $(name_off $img 1) 0x00'
hostile "name ../aa via /dir/sub" refuse 'P $img poke $(name_off $img 6) 0x2e 0x2e 0x2f'
hostile "a dir and a symlink with the same name" refuse \
	'P $img poke $(name_off $img 4) 0x78'
hostile "names out of order" refuse 'P $img poke $(name_off $img 1) 0x7a 0x7a'
hostile "name offset past the strings" refuse \
	'P $img set entry.inode_name_offset.1 22'
hostile "strings not NUL-terminated" refuse \
	'P $img poke $(( $(P $img get desc.strings.fsoffset) + $(P $img get desc.strings.size) - 1 )) 0x41'

# ---- the shape of the tree --------------------------------------------------------
hostile "a directory containing its parent (cycle)" refuse \
	'P $img set entry.inode_array_index.6 1 && P $img set entry.inode_num_entries.6 4'
hostile "a directory containing the root" refuse \
	'P $img set entry.inode_array_index.6 0 && P $img set entry.inode_num_entries.6 1'
hostile "two directories sharing children" refuse \
	'P $img set entry.inode_array_index.3 5 && P $img set entry.inode_num_entries.3 2'
hostile "a directory with entries past the last inode" refuse \
	'P $img set entry.inode_array_index.3 7 && P $img set entry.inode_num_entries.3 5'
hostile "a directory with 2^40 entries" refuse \
	'P $img move inode_num_entries $WIDE 8 && P $img set entry.inode_num_entries.0 1099511627776'
hostile "a symlink turned into a directory" refuse \
	'P $img set entry.inode_mode_index.4 $(P $img get entry.inode_mode_index.2) &&
	 P $img set entry.inode_num_entries.4 3 && P $img set entry.inode_array_index.4 5'

# ---- sizes and counts ---------------------------------------------------------------
hostile "a file of 2^64-1 bytes" fail \
	'P $img move inode_file_size $WIDE 8 && P $img set entry.inode_file_size.5 18446744073709551615'
hostile "a symlink of 2^40 bytes" fail \
	'P $img move inode_file_size $WIDE 8 && P $img set entry.inode_file_size.4 1099511627776'
hostile "a symlink of 70000 bytes" fail 'P $img set entry.inode_file_size.4 70000'
hostile "2^62 inodes in the superblock" refuse 'P $img set sb.files 4611686018427387904'
hostile "2^62 nodes in the superblock" refuse 'P $img set sb.blocks 4611686018427387904'
hostile "a table claiming 2^63 entries" refuse \
	'P $img set desc.inode_file_size.max_index 9223372036854775808'
hostile "a table of depth 9" refuse 'P $img set desc.inode_file_size.depth 9'
hostile "a table of depth 0" refuse 'P $img set desc.inode_array_index.depth 0'
hostile "a region past the end of the image" refuse \
	'P $img set desc.node_index.fsoffset 1099511627776'
hostile "a region of 2^64-1 bytes" refuse \
	'P $img set desc.inode_mode_index.size 18446744073709551615'
hostile "cblock size 0" refuse 'P $img set sb.cblock_size 0'
hostile "cblock size 2^31" refuse 'P $img set sb.cblock_size 2147483648'
hostile "cblock size 12345" refuse 'P $img set sb.cblock_size 12345'
hostile "image size 2^64-1" refuse 'P $img set sb.size 18446744073709551615'
hostile "a node index past the regions" fail \
	'P $img move node_index $WIDE 8 && P $img set entry.node_index.0 16777215'
hostile "a cblock offset past the end" fail \
	'P $img move cblock_offset $WIDE 8 && P $img set entry.cblock_offset.1 4294967296'
hostile "a cblock that inflates to more than the block size" fail \
	'P $img set sb.cblock_size 4096'
hostile "a cnode offset past its cblock" fail \
	'P $img move cnode_offset $WIDE 8 && P $img set entry.cnode_offset.0 1099511627776'
hostile "a descriptor offset inside the superblock" refuse \
	'P $img set sb.region.modes 8'

# The same on compressed metadata: a region that claims to inflate to
# 1 TiB (a zip bomb) must not be inflated into 1 TiB.
test_expect_success 'hostile image: compressed strings claiming 1 TiB' '
	cp basez.axfs bomb.axfs &&
	test "$(P bomb.axfs get desc.strings.compressed_size)" -gt 0 &&
	P bomb.axfs set desc.strings.size 1099511627776 &&
	rm -rf work && mkdir work && run_all bomb.axfs &&
	test "$(cat bomb.axfs.fsck)" = 4 && test "$(cat bomb.axfs.extract)" = 8 &&
	grep "bomb.axfs.*byte [0-9]" bomb.axfs.err
'
# Within zlib's expansion bound but over what the superblock's counts
# allow (256 bytes an inode for strings): the reader refuses it, and fsck
# must say so with the same bound (region.bound), naming the region and
# the byte offset of its size field, without inflating it.
test_expect_success 'hostile image: compressed strings over the counts bound' '
	cp basez.axfs over.axfs &&
	max=$(( $(P over.axfs get sb.files) * 256 + 4096 )) &&
	P over.axfs set desc.strings.size $((max + 1)) && P over.axfs digest &&
	rm -rf work && mkdir work && run_all over.axfs &&
	test "$(cat over.axfs.fsck)" = 4 && test "$(cat over.axfs.extract)" = 8 &&
	at=$(P over.axfs off desc.strings.size) &&
	test_expect_code 4 "$AXFS" fsck over.axfs >fsck.out &&
	grep "^over.axfs: byte $at: .*region .strings. claims $((max + 1)) bytes.*\[region.bound\]\$" fsck.out &&
	grep "over.axfs.: byte $at: region .strings. claims" over.axfs.err
'
test_expect_success 'hostile image: compressed tables claiming 1 TiB' '
	cp basez.axfs bomb2.axfs &&
	P bomb2.axfs set desc.inode_file_size.size 1099511627776 &&
	P bomb2.axfs set desc.inode_file_size.max_index 137438953472 &&
	rm -rf work && mkdir work && run_all bomb2.axfs &&
	test "$(cat bomb2.axfs.fsck)" = 4 && test "$(cat bomb2.axfs.extract)" = 8
'

# ---- symlinks never followed ------------------------------------------------------------
test_expect_success 'a symlink to outside is created as a link, never followed' '
	rm -rf work && mkdir work &&
	"$AXFS" extract -q base.axfs work/out &&
	test -L work/out/y && test "$(readlink work/out/y)" = ../outside &&
	test ! -e work/outside && test "$(ls -A work)" = out
'
test_expect_success 'an absolute symlink target is stored as it is, not followed' '
	mkdir -p abs && ln -s /etc/passwd abs/p && ln -s / abs/root &&
	mkdir abs/d && echo x >abs/d/f &&
	"$AXFS" mkfs -q abs -o abs.axfs &&
	rm -rf work && mkdir work && "$AXFS" extract -q abs.axfs work/out &&
	test "$(readlink work/out/p)" = /etc/passwd &&
	test "$(readlink work/out/root)" = / && test -f work/out/d/f
'

# Issue 38 §5: a byte-aligned page whose bytes run past the end of its
# region: the driver serves zeros there, fsck reports banode.range, and
# the reader now refuses it as fsck does (cat and extract filled the page
# with zeros and exited 0): cat fails that PATH (exit 1, its position),
# extract exit 8, mount EIO, each naming the banode entry.
test_expect_success 'a byte-aligned page running past its region: fsck, cat and extract all refuse it' '
	mkdir -p batree &&
	head -c 9000 /dev/urandom >batree/r &&
	"$AXFS" mkfs -q batree -o ba.axfs &&
	set -- $(P ba.axfs region byte_aligned) &&
	test "$2" = 9000 &&
	P ba.axfs set desc.byte_aligned.size $(($2 - 100)) --digest &&
	test_expect_code 4 "$AXFS" fsck ba.axfs >out &&
	grep "banode 2: 808 bytes at offset 8192 do not fit in the byte-aligned region (8900 bytes) \[banode.range\]" out &&
	test_expect_code 1 "$AXFS" cat ba.axfs /r >got 2>err &&
	grep "byte [0-9]*: banode_offset\[2\]: inode 1 page 2: its 808 bytes at offset 8192 do not fit in the byte_aligned region (8900 bytes)" err &&
	test_expect_code 8 "$AXFS" extract -q ba.axfs bax 2>err &&
	grep "banode_offset\[2\]: inode 1 page 2: its 808 bytes" err &&
	test_path_is_missing bax/r
'

test_done
