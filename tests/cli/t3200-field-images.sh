#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Images as they are found in the field: the quirks of the legacy C
# mkfs.axfs (reproduced by tests/tools/legacy_quirks.py on images of real
# trees, one switch per quirk), images padded into bigger files (mkfs --pad,
# 0x00 and 0xFF), and images on loop devices.  fsck passes them with exit
# 0 and the expected warnings (--strict: 4), dump --json parses, extract
# gives the tree back.  With AXFS_LEGACY_MKFS set to a built legacy
# mkfs.axfs (never part of this project), its own images are checked too.
. "$(dirname "$0")/lib.sh"

Q() { python3 "$AXFS_TOP/tests/tools/legacy_quirks.py" "$@"; }

# A real tree: the example root file system, a Debian package, and the
# things the legacy mkfs writes oddly (empty files and directories, long
# symlinks).
mk_tree() {
	mkdir -p "$1" && cp -a "$AXFS_TOP/examples/rootfs/." "$1/" &&
	for f in $(dpkg -L libc-bin 2>/dev/null); do
		[ -f "$f" ] && [ ! -L "$f" ] || continue
		mkdir -p "$1/pkg$(dirname "$f")" && cp -p "$f" "$1/pkg$f"
	done &&
	mkdir -p "$1/empty/dir" "$1/e" && : >"$1/e/empty" &&
	ln -s "$(printf "%03000d" 7)" "$1/e/long" &&
	ln -s "$(printf "%0900d" 1)/x" "$1/e/long2"
}

# check IMG CHECK...: fsck exits 0 and reports each CHECK; --strict exits 4
# when there is a warning; dump --json parses; extract gives tree back.
check() {
	c_img=$1; shift
	"$AXFS" fsck --max-per-check 0 "$c_img" >out 2>err ||
		{ echo "fsck exited $?"; cat out err; return 1; }
	for c in "$@"; do
		grep -q "\[$c\]\$" out || { echo "no [$c]:"; cat out; return 1; }
	done
	if grep -q "warning: " out; then
		"$AXFS" fsck -q --strict "$c_img"; test $? -eq 4 ||
			{ echo "--strict did not exit 4"; return 1; }
	fi
	"$AXFS" dump --json "$c_img" >j &&
	python3 -c "import json, sys; json.load(open('j'))" &&
	rm -rf x && "$AXFS" extract -q "$c_img" x &&
	diff -r --no-dereference tree x
}

test_expect_success 'a tree and images of it, with and without XIP' '
	mk_tree tree &&
	"$AXFS" mkfs -q -b 4KiB tree -o plain.axfs &&
	"$AXFS" mkfs -q -b 4KiB --xip "/bin/*" --xip "/pkg/**" tree -o xip.axfs &&
	"$AXFS" fsck -q plain.axfs && "$AXFS" fsck -q xip.axfs
'

# switch : the checks fsck must report
for q in "size-unaligned:sb.size-align image.trailing" \
	 "depth4:region.depth-minimal" \
	 "max-index-zero:region.max-index" \
	 "unused-nodes:node.unused" \
	 "blocks-short:sb.blocks-count node.unused" \
	 "unused-cnode:cnode.unused" \
	 "unused-banode:banode.unused" \
	 "root-name:root.name" \
	 "empty-dir-index:dir.fields" \
	 "empty-file-index:file.empty-fields" \
	 "version:" \
	 "timestamp-zero:" \
	 "no-digest:digest.none" \
	 "symlink-cblock-end:symlink.nul" \
	 "all:sb.size-align sb.blocks-count root.name dir.fields symlink.nul digest.none"; do
	sw=${q%%:*} checks=${q#*:}
	test_expect_success "legacy quirk --$sw: fsck 0, dump --json, extract" "
		for i in plain xip; do
			Q --$sw \$i.axfs q.axfs && check q.axfs $checks || return 1
		done
	"
done

test_expect_success 'a corruption inside a quirky image is still an error' '
	Q --all plain.axfs q.axfs &&
	python3 "$AXFS_TOP/tests/tools/axfs_patch.py" q.axfs set sb.magic 0 &&
	"$AXFS" fsck -q q.axfs; test $? -eq 4
'

test_expect_success 'mkfs --pad: 0x00 and 0xFF, the image bytes unchanged' '
	"$AXFS" mkfs -q -b 4KiB tree -o a.axfs &&
	"$AXFS" mkfs -q -b 4KiB --pad 2MiB tree -o z.axfs &&
	"$AXFS" mkfs -q -b 4KiB --pad 2MiB --pad-byte 0xff tree -o f.axfs &&
	test "$(stat -c %s z.axfs)" = 2097152 &&
	test "$(stat -c %s f.axfs)" = 2097152 &&
	n=$(stat -c %s a.axfs) &&
	cmp -n $n a.axfs z.axfs && cmp -n $n a.axfs f.axfs &&
	tail -c +$((n + 1)) f.axfs | od -An -tx1 | tr -s " " "\n" | sort -u |
		grep -qx ff &&
	check z.axfs image.trailing && grep -q "are all 0x00 \[" out &&
	grep -q "digest ok" out &&
	check f.axfs image.trailing && grep -q "are all 0xFF \[" out &&
	grep -q "digest ok" out &&
	! "$AXFS" mkfs -q --pad 4KiB tree -o small.axfs 2>err &&
	grep "larger than the 4096 bytes to pad it to" err &&
	"$AXFS" mkfs --pad-byte 256 tree -o b.axfs 2>err; test $? -eq 16
'

test_expect_success 'policy pad: {size, byte} as --pad' '
	printf "pad:\n  size: 1MiB\n  byte: 0xff\n" >p.yaml &&
	"$AXFS" mkfs -q -b 4KiB -c p.yaml tree -o pp.axfs &&
	test "$(stat -c %s pp.axfs)" = 1048576 &&
	check pp.axfs image.trailing && grep -q "are all 0xFF \[" out &&
	printf "pad:\n  byte: 300\n" >bad.yaml &&
	! "$AXFS" mkfs -q -c bad.yaml tree -o bad.axfs 2>err &&
	grep "bad.yaml:2:.*pad.byte" err
'

test_expect_success 'an image followed by other bytes: a notice; a flip inside: an error' '
	cp a.axfs o.axfs && head -c 5000 /dev/urandom >>o.axfs &&
	check o.axfs image.trailing && grep -q "are other bytes \[" out &&
	cp f.axfs g.axfs &&
	printf "\001" | dd of=g.axfs bs=1 seek=100 conv=notrunc 2>/dev/null &&
	"$AXFS" fsck g.axfs >out; test $? -eq 4 && grep -q "digest.mismatch" out
'

test_expect_success LOOP 'a loop device: fsck, dump, extract read the image' '
	loop=$(losetup -r -f --show "$TRASH/f.axfs") &&
	test_when_finished "losetup -d $loop" &&
	check "$loop" image.device-larger &&
	grep -q "are all 0xFF \[" out && grep -q "digest ok" out
'
test_expect_success LOOP 'a split image on two loop devices: fsck, extract, join' '
	"$AXFS" mkfs -q -b 4KiB --mmap-limit 32KiB tree -o s.axfs &&
	"$AXFS" split s.axfs --mmap s.mmap --store s.store &&
	cp s.mmap s.mmap.part &&
	truncate -s 1M s.mmap.part s.store &&
	loop2=$(losetup -r -f --show "$TRASH/s.store") &&
	test_when_finished "losetup -d $loop2" &&
	loop3=$(losetup -r -f --show "$TRASH/s.mmap.part") &&
	test_when_finished "losetup -d $loop3" &&
	"$AXFS" fsck "$loop3" "$loop2" >out &&
	grep -q "digest ok" out &&
	rm -rf x && "$AXFS" extract -q --store "$loop2" "$loop3" x &&
	diff -r --no-dereference tree x &&
	"$AXFS" split --join "$loop3" "$loop2" -o j.axfs &&
	cmp j.axfs s.axfs
'

# AXFS_LEGACY_MKFS: the 2008 mkfs.axfs, built (not part of the project).
test_lazy_prereq LEGACY_MKFS 'test -x "${AXFS_LEGACY_MKFS:-/nonexistent}"'
test_expect_success LEGACY_MKFS 'the legacy mkfs.axfs itself, with and without XIP' '
	"$AXFS_LEGACY_MKFS" -s tree l.axfs >/dev/null &&
	check l.axfs sb.size-align root.name &&
	"$AXFS_LEGACY_MKFS" -s -a tree la.axfs >/dev/null &&
	check la.axfs root.name &&
	printf "pkg/usr/bin/ldd,0,5\n" >prof.csv &&
	"$AXFS_LEGACY_MKFS" -s -i prof.csv tree li.axfs >/dev/null &&
	check li.axfs root.name
'

test_done
