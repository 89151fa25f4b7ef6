#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# axfs diff: two real trees that differ in a few hidden ways (one byte in
# the middle of a large file, a mode, an owner, a symlink target, a device
# number, a type, added and removed paths), compared as images, trees and
# tarballs in every mix: the same list of differences each time, exit
# status 0 / 1 / 2 as diff(1), --no-owner / --no-mode, --json.
. "$(dirname "$0")/lib.sh"

root=false
test "$(id -u)" = 0 && root=true

test_expect_success 'setup: a tree, a changed copy, their images and tarballs' '
	cp -a "$AXFS_TOP"/examples/rootfs a &&
	mkdir -p a/usr/bin a/opt/old/sub &&
	for f in /usr/bin/ls /usr/bin/perl /usr/bin/env; do
		test -f "$f" && cp -p "$f" a/usr/bin/
	done &&
	echo x >a/opt/old/sub/f && echo y >a/opt/old/g &&
	ln a/usr/bin/ls a/usr/bin/ls.hard &&
	ln -s busybox a/bin/ash &&
	cp -a a b &&
	python3 -c "
import os
p = \"b/usr/bin/perl\"
with open(p, \"r+b\") as f:
    f.seek(os.path.getsize(p) // 2)
    c = f.read(1)
    f.seek(-1, 1)
    f.write(bytes([c[0] ^ 1]))
" &&
	chmod 600 b/etc/hostname &&
	rm b/bin/ash && ln -s sh b/bin/ash &&
	rm -r b/opt/old && echo new >b/opt/new &&
	rm b/etc/motd && mkdir b/etc/motd &&
	rm b/usr/bin/ls.hard && cp -p b/usr/bin/ls b/usr/bin/ls.hard &&
	if $root; then
		mkdir -p a/dev b/dev &&
		mknod a/dev/ttyS0 c 4 64 && mknod b/dev/ttyS0 c 4 65 &&
		chown 1000:1000 b/etc/group
	fi &&
	"$AXFS" mkfs -q a -o a.axfs && "$AXFS" mkfs -q b -o b.axfs &&
	tar -C a -cf a.tar . && tar -C b -czf b.tgz . &&
	{
		echo "changed /bin/ash: link target '\''busybox'\'' -> '\''sh'\''" &&
		if $root; then
			echo "changed /dev/ttyS0: device 4,64 -> 4,65"
			echo "changed /etc/group: owner 0:0 -> 1000:1000"
		fi &&
		echo "changed /etc/hostname: mode 0644 -> 0600" &&
		echo "changed /etc/motd: type file -> directory, mode 0644 -> 0755" &&
		echo "added /opt/new (file)" &&
		echo "removed /opt/old (directory)" &&
		echo "removed /opt/old/g (file)" &&
		echo "removed /opt/old/sub (directory)" &&
		echo "removed /opt/old/sub/f (file)" &&
		echo "changed /usr/bin/perl: content"
	} >want
'

# Every mix of image, directory and tarball gives the same report.
for pair in "a.axfs b.axfs" "a b" "a.axfs b" "a b.axfs" "a.tar b.tgz" "a.tar b.axfs"; do
	test_expect_success "diff $pair: the hidden changes, exit 1" '
		{ "$AXFS" diff '"$pair"' >got; test $? = 1; } &&
		diff -u want got
	'
done

test_expect_success 'the same inputs in any form: no output, exit 0' '
	"$AXFS" diff a.axfs a >out && test ! -s out &&
	"$AXFS" diff a.tar a.axfs >out && test ! -s out &&
	"$AXFS" diff b.tgz b >out && test ! -s out &&
	"$AXFS" diff a.axfs a.axfs
'

test_expect_success '--no-owner and --no-mode leave those changes out' '
	{ "$AXFS" diff --no-owner --no-mode a.axfs b.axfs >got; test $? = 1; } &&
	grep -v -e "owner 0:0" -e "mode 0644 -> 0600" want |
		sed "s/, mode 0644 -> 0755//" >want2 &&
	diff -u want2 got &&
	cp -a a c && chmod 700 c/etc/passwd &&
	if $root; then chown -R 5:5 c/usr; fi &&
	{ "$AXFS" diff a.axfs c >/dev/null; test $? = 1; } &&
	"$AXFS" diff --no-owner --no-mode a.axfs c
'

test_expect_success '-q: nothing printed, the exit status says' '
	{ "$AXFS" diff -q a.axfs b.axfs >out 2>&1; test $? = 1; } && test ! -s out &&
	"$AXFS" diff -q a.axfs a >out 2>&1 && test ! -s out
'

test_expect_success '--json: every difference, with both sides' '
	{ "$AXFS" diff --json a.axfs b >d.json; test $? = 1; } &&
	"$AXFS" diff --json a.axfs a >s.json &&
	python3 - <<-\EOF_PY
	import json
	d = json.load(open("d.json"))
	s = json.load(open("s.json"))
	assert s["same"] is True and s["differences"] == [], s
	assert (d["a"], d["b"], d["same"]) == ("a.axfs", "b", False)
	by = {x["path"]: x for x in d["differences"]}
	assert by["/usr/bin/perl"]["changes"] == ["content"]
	assert by["/usr/bin/perl"]["a"]["size"] == by["/usr/bin/perl"]["b"]["size"]
	assert by["/bin/ash"]["b"]["target"] == "sh"
	assert by["/etc/motd"]["changes"] == ["type", "mode"]
	assert by["/etc/motd"]["b"]["type"] == "directory"
	assert by["/etc/hostname"]["a"]["mode"] == 0o644
	assert by["/etc/hostname"]["b"]["mode"] == 0o600
	assert by["/opt/new"]["status"] == "added" and "a" not in by["/opt/new"]
	assert by["/opt/old/sub/f"]["status"] == "removed"
	assert d["added"] == 1 and d["removed"] == 4
	assert d["changed"] == len(d["differences"]) - 5
	lines = [l for l in open("want") if l.startswith("changed")]
	assert d["changed"] == len(lines), (d["changed"], lines)
	print("ok")
	EOF_PY
'

test_expect_success 'trouble is exit 2: a missing input, a corrupt image, a bad command line, a full stdout' '
	{ "$AXFS" diff a.axfs nothing 2>err; test $? = 2; } && grep -q nothing err &&
	cp a.axfs bad.axfs &&
	printf "\377\377\377\377" | dd of=bad.axfs bs=1 seek=8 conv=notrunc 2>/dev/null &&
	{ "$AXFS" diff bad.axfs a 2>err; test $? = 2; } && grep -q bad.axfs err &&
	{ "$AXFS" diff a.axfs 2>err; test $? = 2; } &&
	{ "$AXFS" diff --bogus a b 2>err; test $? = 2; } &&
	{ "$AXFS" diff a.axfs b.axfs >/dev/full 2>err; test $? = 2; } &&
	grep -q "standard output" err
'

test_done
