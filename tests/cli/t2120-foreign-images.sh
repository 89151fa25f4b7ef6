#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Another read-only image given by mistake: a SquashFS (mksquashfs), EROFS
# (mkfs.erofs) or cramfs (mkfs.cramfs) image of examples/rootfs is named as
# such, with the byte of its magic, by every reader (fsck, its --json,
# dump, ls, cat, mount, split --info, standard input) and by diff and mkfs
# (which would otherwise try it as an archive: libarchive's "Unrecognized
# archive format", or an EROFS image taken for an empty tar); a tar
# archive still reads.  fsck --json keeps its keys (errors, clean) when it
# exits 8.
. "$(dirname "$0")/lib.sh"

test_lazy_prereq MKSQUASHFS 'command -v mksquashfs'
test_lazy_prereq MKEROFS 'command -v mkfs.erofs'
test_lazy_prereq MKCRAMFS 'PATH=$PATH:/sbin:/usr/sbin command -v mkfs.cramfs'

rootfs=$AXFS_TOP/examples/rootfs

test_expect_success 'setup: an AXFS image and a tar of examples/rootfs' '
	"$AXFS" mkfs -q "$rootfs" -o r.axfs &&
	tar -C "$rootfs" -cf r.tar . &&
	mkdir m
'

# named FILE WHAT BYTE: every reader names FILE as WHAT at BYTE.
named() {
	_f=$1 _what=$2 _at=$3
	_msg="'$_f': byte $_at: the magic of $_what: not an AXFS image"
	for _c in "dump _" "ls _" "cat _ /etc/hostname" "split --info _" "mount _ m"; do
		set -- $_c && _cmd=$1 && shift &&
		_args=$(echo "$*" | sed "s|_|$_f|") &&
		{ "$AXFS" $_cmd $_args >out 2>err; _rc=$?; } &&
		{ test $_rc = 8 || { echo "$_cmd: exit $_rc"; return 1; }; } &&
		grep -qF "axfs $_cmd: $_msg (axfs reads AXFS only)" err ||
			{ echo "$_cmd:"; cat err; return 1; }
	done &&
	{ "$AXFS" ls - <"$_f" 2>err; test $? = 8; } &&
	grep -qF "'<stdin>': byte $_at: the magic of $_what" err &&
	{ "$AXFS" fsck "$_f" >out 2>err; test $? = 4; } &&
	grep -qF "(the magic of $_what at byte $_at: not an AXFS image) [sb.magic]" out &&
	{ "$AXFS" diff r.axfs "$_f" >out 2>err; test $? = 2; } &&
	grep -qxF "axfs diff: $_msg, a directory or an archive that can be read" err &&
	{ "$AXFS" mkfs -q "$_f" -o x.axfs 2>err; test $? = 8; } &&
	grep -qxF "axfs mkfs: $_msg, a directory or an archive that can be read" err &&
	test ! -e x.axfs
}

test_expect_success MKSQUASHFS 'a SquashFS image is named as one' '
	mksquashfs "$rootfs" sq.img -quiet -noappend -no-progress >/dev/null &&
	named sq.img "a SquashFS image" 0
'
test_expect_success MKEROFS 'an EROFS image is named as one (not an empty tar)' '
	mkfs.erofs er.img "$rootfs" >/dev/null &&
	named er.img "an EROFS image" 1024
'
test_expect_success MKCRAMFS 'a cramfs image is named as one' '
	PATH=$PATH:/sbin:/usr/sbin mkfs.cramfs "$rootfs" cr.img >/dev/null &&
	named cr.img "a cramfs image" 0
'

test_expect_success 'a tar archive is still read; random bytes are still no archive' '
	"$AXFS" diff r.tar r.axfs &&
	head -c 4096 /dev/urandom >junk &&
	{ "$AXFS" diff r.axfs junk 2>err; test $? = 2; } &&
	grep -q "neither a directory nor an archive that can be read" err
'

test_expect_success 'fsck --json keeps errors and clean when it exits 8' '
	{ "$AXFS" fsck --json nothere.axfs >j 2>err; test $? = 8; } &&
	python3 - <<-\PY
	import json
	d = json.load(open("j"))
	assert d["exit_code"] == 8 and d["clean"] is False
	assert d["errors"] == 0 and d["warnings"] == 0 and d["notices"] == 0
	assert "nothere.axfs" in d["operational_error"]
	assert d["image_size"] is None and d["sha1"] is None
	assert d["digest"] == "not-checked" and d["strict"] is False
	PY
	"$AXFS" fsck --json r.axfs >ok.json &&
	python3 -c "
import json
a = json.load(open(\"j\")); b = json.load(open(\"ok.json\"))
assert set(b) <= set(a), set(b) - set(a)
assert set(a) - set(b) == {\"operational_error\"}
assert b[\"clean\"] is True and b[\"exit_code\"] == 0"
'

test_done
