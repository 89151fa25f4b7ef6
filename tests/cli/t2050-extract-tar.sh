#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# axfs extract --tar: a pax archive of an image, written without root, with
# the image's owners, modes, device numbers, symlinks and hard links, that
# GNU tar and Python's tarfile read back as the image, and that mkfs turns
# into the same image bytes again (extract --tar - | mkfs -).
. "$(dirname "$0")/lib.sh"

root=false
test "$(id -u)" = 0 && root=true

test_expect_success 'setup: an image of a tree with programs, links, devices and owners' '
	cp -a "$AXFS_TOP"/examples/rootfs tree &&
	mkdir -p tree/usr/bin tree/srv &&
	for f in /usr/bin/ls /usr/bin/perl /usr/bin/env; do
		test -f "$f" && cp -p "$f" tree/usr/bin/
	done &&
	ln tree/usr/bin/ls tree/usr/bin/dir.hard &&
	ln tree/usr/bin/ls tree/srv/ls.hard &&
	cp tree/usr/bin/ls tree/srv/ls.copy && chmod 700 tree/srv/ls.copy &&
	printf "x" >tree/srv/one && mkdir tree/srv/empty &&
	chmod 2755 tree/srv/empty && chmod 4711 tree/usr/bin/env &&
	if $root; then
		mkdir -p tree/dev &&
		mknod tree/dev/null c 1 3 && mknod tree/dev/mtdblock3 b 31 3 &&
		chown 0:6 tree/dev/mtdblock3 && mkfifo tree/dev/fifo &&
		chown 1000:100 tree/srv/one && chown -h 7:8 tree/srv
	fi &&
	printf "./usr/bin/dir.hard,0,9\n" >p.csv &&
	"$AXFS" mkfs -q tree -o a.axfs
'

test_expect_success 'without SOURCE_DATE_EPOCH: the archive gives the image timestamp back' '
	(unset SOURCE_DATE_EPOCH &&
	 "$AXFS" mkfs -q --mtime 1234567890 tree -o t.axfs &&
	 "$AXFS" extract --tar - t.axfs | "$AXFS" mkfs -q - -o t2.axfs) &&
	cmp t.axfs t2.axfs &&
	tar -C tree -cf varied.tar --mtime=@1 etc &&
	touch -d @5 tree/srv/one && tar -C tree -rf varied.tar srv/one &&
	now=$(date +%s) &&
	(unset SOURCE_DATE_EPOCH && "$AXFS" mkfs -q varied.tar -o v.axfs) &&
	"$AXFS" dump --json v.axfs >v.json &&
	python3 -c "import json,sys; t = json.load(open(\"v.json\"))[\"superblock\"][\"timestamp\"]; sys.exit(not t >= $now)"
'

test_expect_success 'extract --tar - | mkfs - writes the same bytes (and with a profile, a new block size)' '
	"$AXFS" extract --tar - a.axfs | "$AXFS" mkfs -q - -o b.axfs &&
	cmp a.axfs b.axfs &&
	"$AXFS" extract --tar - a.axfs | "$AXFS" mkfs -q -b 8KiB -p p.csv - -o c.axfs &&
	"$AXFS" mkfs -q -b 8KiB -p p.csv tree -o d.axfs &&
	cmp c.axfs d.axfs
'

test_expect_success 'the archive holds what the image holds, as tarfile reads it' '
	"$AXFS" extract --tar a.tar a.axfs &&
	"$AXFS" dump --json a.axfs >a.json &&
	python3 - <<-\EOF_PY
	import json, stat, tarfile
	d = json.load(open("a.json"))
	inodes = {i["path"]: i for i in d["inodes"]}
	t = tarfile.open("a.tar")
	assert t.pax_headers is not None
	members = {"/" if m.name == "." else "/" + m.name.rstrip("/"): m
	           for m in t.getmembers()}
	socks = [p for p, i in inodes.items() if stat.S_ISSOCK(i["mode"])]
	assert set(members) == set(inodes) - set(socks), set(members) ^ set(inodes)
	for p, m in sorted(members.items()):
	    i = inodes[p]
	    assert (m.uid, m.gid) == (i["uid"], i["gid"]), p
	    assert m.mtime == d["superblock"]["timestamp"], p
	    if m.islnk():
	        target = inodes["/" + m.linkname]
	        assert target["array_index"] == i["array_index"], p
	        continue
	    assert m.mode == i["mode"] & 0o7777, (p, oct(m.mode))
	    if m.issym():
	        assert m.linkname == i["target"], p
	    elif m.ischr() or m.isblk():
	        assert (m.devmajor, m.devminor) == (i["rdev_major"], i["rdev_minor"]), p
	    elif m.isfile():
	        assert m.size == i["size"], p
	links = sorted(p for p, m in members.items() if m.islnk())
	assert links == ["/usr/bin/dir.hard", "/usr/bin/ls"], links
	print("ok", len(members), "members")
	EOF_PY
'

test_expect_success 'GNU tar extracts it into the tree the image holds' '
	mkdir x && tar -C x -xpf a.tar --numeric-owner &&
	if $root; then
		seedread compare --mtime a.axfs x && "$AXFS" diff a.axfs x
	else
		seedread compare --mtime --no-owner a.axfs x &&
		"$AXFS" diff --no-owner a.axfs x
	fi &&
	test "$(stat -c %h x/usr/bin/ls)" = 3 &&
	test "$(stat -c %h x/srv/ls.copy)" = 1
'

test_expect_success SETPRIV 'an ordinary user writes the archive with root-owned device nodes' '
	mkdir -m 777 u && cp a.axfs u/ && chmod 644 u/a.axfs &&
	(cd u && as_nobody \
		"$AXFS_NOBODY" extract --tar u.tar a.axfs) &&
	cmp u/u.tar a.tar &&
	tar tvf u/u.tar >list &&
	grep -q "^brw-r--r-- 0/6 *31,3 .* dev/mtdblock3$" list &&
	grep -q "^-rw-r--r-- 1000/100 " list
'

test_expect_success 'the store segment of a split image' '
	"$AXFS" mkfs -q --mmap-limit 1MiB --xip /usr/bin/ls tree -o s.axfs &&
	"$AXFS" split s.axfs --mmap s.nor --store s.nand &&
	"$AXFS" extract --tar - --store s.nand s.nor >s.tar &&
	"$AXFS" extract --tar - s.axfs | cmp - s.tar
'

test_expect_success 'a write error on standard output is exit 8 with a message' '
	{ "$AXFS" extract --tar - a.axfs >/dev/full 2>err; test $? = 8; } &&
	grep -q "standard output" err
'

test_expect_success 'corrupt file data: exit 8, FILE untouched, no temporary file left' '
	cp a.axfs bad.axfs &&
	off=$("$AXFS" dump --json a.axfs | python3 -c "
import json, sys
r = [r for r in json.load(sys.stdin)[\"regions\"] if r[\"name\"] == \"compressed\"][0]
print(r[\"fsoffset\"] + 2)") &&
	dd if=/dev/zero of=bad.axfs bs=1 seek=$off count=64 conv=notrunc 2>/dev/null &&
	echo keep >bad.tar &&
	{ "$AXFS" extract -q --tar bad.tar bad.axfs 2>err; test $? = 8; } &&
	cat err && grep -q "bad.axfs" err &&
	test "$(cat bad.tar)" = keep &&
	test -z "$(ls -A | grep "^\.bad\.tar")"
'

test_expect_success 'usage errors' '
	{ "$AXFS" extract --tar - 2>err; test $? = 16; } &&
	# after an image that is not split, operands are PATHs: resolved
	# before anything is written
	{ "$AXFS" extract --tar x.tar a.axfs s.nand extra 2>err; test $? = 8; } &&
	grep -q "s.nand.: no such file" err && grep -q "extra.: no such file" err &&
	test ! -e x.tar &&
	{ "$AXFS" extract --tar - tree 2>err; test $? = 8; } && grep -q "not an AXFS image" err
'

test_done
