#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# axfs cat: the bytes of files of an image (compressed, XIP, byte-aligned,
# shared, of a split image) on standard output, byte for byte as in the
# tree; the exit status names the first PATH that failed; write errors
# on standard output are reported.  Symbolic links inside the image are
# followed as the kernel follows them (tests/tools/linktree.sh: usr-merge,
# os-release, absolute links, "..", loops), on the files of the installed
# base-files package too (tests/tools/pkgtree.sh).
. "$(dirname "$0")/lib.sh"

test_expect_success 'setup: an image with compressed, XIP and uncompressible files' '
	cp -a "$AXFS_TOP"/examples/rootfs tree &&
	mkdir -p tree/usr/bin &&
	for f in /usr/bin/ls /usr/bin/perl; do
		test -f "$f" && cp -p "$f" tree/usr/bin/
	done &&
	head -c 300000 /dev/urandom >tree/random &&
	: >tree/empty && cp tree/usr/bin/ls tree/ls.copy &&
	"$AXFS" mkfs -q --xip /usr/bin/ls -b 16KiB tree -o img.axfs
'

test_expect_success 'each file, and several in a row, byte for byte' '
	"$AXFS" cat img.axfs /usr/bin/perl | cmp - tree/usr/bin/perl &&
	"$AXFS" cat img.axfs usr/bin/ls | cmp - tree/usr/bin/ls &&
	"$AXFS" cat img.axfs /random | cmp - tree/random &&
	"$AXFS" cat img.axfs /empty | cmp - tree/empty &&
	"$AXFS" cat img.axfs /etc/passwd /ls.copy /etc/passwd >got &&
	cat tree/etc/passwd tree/ls.copy tree/etc/passwd | cmp - got
'

test_expect_success 'a split image with --store' '
	"$AXFS" mkfs -q --mmap-limit 1MiB --xip /usr/bin/ls tree -o s.axfs &&
	"$AXFS" split s.axfs --mmap s.nor --store s.nand &&
	"$AXFS" cat -s s.nand s.nor /usr/bin/ls /usr/bin/perl >got &&
	cat tree/usr/bin/ls tree/usr/bin/perl | cmp - got
'

test_expect_success 'the exit status is the position of the first PATH that failed; the rest is written' '
	{ "$AXFS" cat img.axfs /nope 2>err; test $? = 1; } && grep -q "/nope" err &&
	{ "$AXFS" cat img.axfs /etc/passwd /etc /bin/sh /nope >got 2>err; test $? = 2; } &&
	cmp got tree/etc/passwd &&
	grep -q "^axfs cat: .img.axfs.: ./etc.: not a regular file$" err && grep -q "/bin/sh" err && grep -q "/nope" err &&
	{ "$AXFS" cat img.axfs /empty /empty /empty /empty /empty /empty /empty /x /y 2>err; test $? = 7; } &&
	{ "$AXFS" cat img.axfs /empty /empty /empty /empty /empty /empty /x 2>err; test $? = 7; } &&
	{ "$AXFS" cat img.axfs /empty /empty /x /empty 2>err; test $? = 3; }
'

test_expect_success 'corrupt data fails that PATH only' '
	mkdir t2 && yes "first file" | head -c 200000 >t2/a &&
	seq 1 40000 >t2/b &&
	"$AXFS" mkfs -q -b 4KiB t2 -o two.axfs &&
	off=$("$AXFS" dump --json two.axfs | python3 -c "
import json, sys
r = [r for r in json.load(sys.stdin)[\"regions\"] if r[\"name\"] == \"compressed\"][0]
print(r[\"fsoffset\"] + 2)") &&
	cp two.axfs bad.axfs &&
	dd if=/dev/zero of=bad.axfs bs=1 seek=$off count=64 conv=notrunc 2>/dev/null &&
	{ "$AXFS" cat bad.axfs /b /a /b >got 2>err; rc=$?; true; } &&
	cat err && test $rc = 2 &&
	grep -q "^axfs cat: .bad.axfs.: byte [0-9]*: cblock 0: .* (reading ./a.)$" err &&
	cat t2/b t2/b | cmp - got
'

test_expect_success 'symbolic links inside the image are followed as the kernel follows them' '
	sh "$AXFS_TOP/tests/tools/linktree.sh" lt &&
	"$AXFS" mkfs -q lt -o lt.axfs &&
	for p in /etc/os-release etc/os-release /lib/os-release /etc/up/lib/os-release \
		/../../etc/../lib/../bin/../lib/./os-release /etc/up/../../lib/os-release; do
		"$AXFS" cat lt.axfs "$p" | cmp - lt/usr/lib/os-release || return 1
	done &&
	"$AXFS" cat lt.axfs /usr/bin/editor /etc/alternatives/editor /bin/sh >got &&
	cat lt/usr/bin/sh lt/usr/bin/sh lt/usr/bin/sh | cmp - got
'

test_expect_success 'a loop, a dangling link, a link to a directory: named errors' '
	{ "$AXFS" cat lt.axfs /etc/loop/a 2>err; test $? = 1; } &&
	grep -q "lt.axfs.: ./etc/loop/a.: too many levels of symbolic links" err &&
	{ "$AXFS" cat lt.axfs /etc/os-release /etc/dangling 2>err >got; test $? = 2; } &&
	grep -q "/etc/dangling.: no such file or directory" err &&
	cmp got lt/usr/lib/os-release &&
	{ "$AXFS" cat lt.axfs /bin 2>err; test $? = 1; } &&
	grep -q "not a regular file" err &&
	{ "$AXFS" cat lt.axfs /etc/os-release/ 2>err; test $? = 1; } &&
	grep -q "not a directory" err
'

test_expect_success BASE_FILES 'base-files: cat follows /etc/os-release' '
	sh "$AXFS_TOP/tests/tools/pkgtree.sh" deb base-files &&
	test -L deb/etc/os-release &&
	"$AXFS" mkfs -q deb -o deb.axfs &&
	"$AXFS" cat deb.axfs /etc/os-release >got &&
	grep -q "^ID=" got && cmp got deb/usr/lib/os-release
'

test_expect_success 'operational errors are 8, usage errors 16' '
	{ "$AXFS" cat img.axfs /usr/bin/perl >/dev/full 2>err; test $? = 8; } &&
	grep -q "standard output" err &&
	{ "$AXFS" cat nothing.axfs /x 2>err; test $? = 8; } && grep -q nothing.axfs err &&
	{ "$AXFS" cat tree/etc/passwd /x 2>err; test $? = 8; } &&
	{ "$AXFS" cat img.axfs 2>err; test $? = 16; } &&
	{ "$AXFS" cat 2>err; test $? = 16; }
'

test_done
