#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# "-" everywhere and --store (issue 31 items 5 and 2): "-" is standard input
# for every IMAGE operand (from a file and from a pipe) and standard output
# for mkfs -o, and no file named "-" is ever made; the store segment of a
# split image is given with --store in every command that reads images
# (the positional STORE stays where it cannot be mistaken, and extract
# refuses it and names --store).
. "$(dirname "$0")/lib.sh"

test_expect_success 'setup: a tree, its image, a split image' '
	mkdir -p tree/bin tree/etc &&
	head -c 300000 /dev/urandom >tree/bin/prog &&
	yes "some text" | head -c 100000 >tree/etc/conf &&
	ln -s ../etc/conf tree/bin/conf &&
	"$AXFS" mkfs -q tree -o img.axfs &&
	"$AXFS" mkfs -q --xip /bin/prog --mmap-limit 1MiB tree -o big.axfs &&
	"$AXFS" split big.axfs --mmap nor.bin --store nand.bin
'

test_expect_success 'fsck -: from a file and from a pipe' '
	"$AXFS" fsck - <img.axfs >out &&
	grep "clean" out &&
	cat img.axfs | "$AXFS" fsck - &&
	test_path_is_missing ./-
'

test_expect_success 'dump -, cat -, from a pipe: the same as from the file' '
	"$AXFS" dump img.axfs >want &&
	cat img.axfs | "$AXFS" dump - >got &&
	sed "s/<stdin>/img.axfs/" got | test_cmp want - &&
	cat img.axfs | "$AXFS" cat - /etc/conf >conf &&
	cmp conf tree/etc/conf
'

test_expect_success 'extract - DIR and extract --tar - -' '
	cat img.axfs | "$AXFS" extract -q - xout &&
	cmp xout/bin/prog tree/bin/prog &&
	cat img.axfs | "$AXFS" extract -q --tar - - >t.tar &&
	tar tf t.tar >names &&
	grep "bin/prog" names &&
	test_path_is_missing ./-
'

test_expect_success 'diff - B: an image on standard input, and an archive' '
	cat img.axfs | "$AXFS" diff - tree &&
	tar -C tree -cf - . | "$AXFS" diff - img.axfs
'

test_expect_success 'mkfs -o - writes the image to standard output, no file named -' '
	"$AXFS" mkfs -q tree -o - >stdout.axfs &&
	cmp stdout.axfs img.axfs &&
	"$AXFS" mkfs -q tree - >stdout2.axfs &&
	cmp stdout2.axfs img.axfs &&
	test_path_is_missing ./- &&
	test_path_is_missing tree/-
'

test_expect_success 'mkfs -o - refuses a report on standard output too, and a failed build writes nothing' '
	test_expect_code 16 "$AXFS" mkfs -q tree -o - --report - >o 2>err &&
	grep "report cannot go there too" err &&
	test_must_fail "$AXFS" mkfs -q nothing-here -o - >o 2>err &&
	test ! -s o
'

test_expect_success 'mkfs -: an image on standard input, from a pipe and from a file' '
	cat img.axfs | "$AXFS" mkfs -q - -o again.axfs &&
	cmp again.axfs img.axfs &&
	"$AXFS" mkfs -q - -o again2.axfs <img.axfs &&
	cmp again2.axfs img.axfs
'

test_expect_success 'mkfs -: an archive on standard input still works (plain and gzip)' '
	tar -C tree -cf - . | "$AXFS" mkfs -q - -o fromtar.axfs &&
	cmp fromtar.axfs img.axfs &&
	tar -C tree -czf - . | "$AXFS" mkfs -q - -o fromtgz.axfs &&
	cmp fromtgz.axfs img.axfs
'

test_expect_success '--store in dump, fsck, cat, extract, diff; the positional form where kept' '
	"$AXFS" dump --store nand.bin nor.bin >d1 &&
	"$AXFS" dump nor.bin nand.bin >d2 &&
	test_cmp d1 d2 &&
	"$AXFS" fsck --store nand.bin nor.bin &&
	"$AXFS" cat --store nand.bin nor.bin /bin/prog >p &&
	cmp p tree/bin/prog &&
	"$AXFS" extract -q --store nand.bin nor.bin x1 &&
	"$AXFS" extract -q big.axfs x2 &&
	diff -r x1 x2 &&
	"$AXFS" diff --store-a nand.bin nor.bin big.axfs &&
	"$AXFS" diff --store-b nand.bin big.axfs nor.bin
'

test_expect_success 'an mmap segment without its store: refused, naming --store' '
	test_must_fail "$AXFS" dump nor.bin >/dev/null 2>err &&
	grep "mmap segment of a split image.*--store" err &&
	test_must_fail "$AXFS" cat nor.bin /bin/prog >/dev/null 2>err &&
	grep -- "--store" err &&
	test_must_fail "$AXFS" extract -q nor.bin x3 2>err &&
	grep -- "--store" err
'

test_expect_success 'extract IMAGE STORE DIR: STORE is no store segment, --store is named' '
	test_expect_code 8 "$AXFS" extract nor.bin nand.bin x4 2>err &&
	grep -- "--store" err &&
	test_path_is_missing nand.bin/x4 && test_path_is_missing x4
'

test_expect_success 'the store given twice is a usage error' '
	test_expect_code 16 "$AXFS" dump --store nand.bin nor.bin nand.bin 2>err &&
	grep "given twice" err &&
	test_expect_code 16 "$AXFS" fsck --store nand.bin --store nand.bin nor.bin 2>err &&
	grep "given twice" err
'

# mount: only where FUSE can mount (t2500 has the full story).  lib.sh
# removes $TRASH at exit: unmount what a failed test left first.
test_lazy_prereq FUSERMOUNT 'command -v fusermount3'
test_atexit 'fusermount3 -u -z "$TRASH/mnt" 2>/dev/null'
test_expect_success FUSE,FUSERMOUNT 'mount -: the image from a pipe; mount --store' '
	mkdir mnt &&
	cat img.axfs | "$AXFS" mount - mnt &&
	cmp mnt/bin/prog tree/bin/prog &&
	fusermount3 -u mnt &&
	"$AXFS" mount --store nand.bin nor.bin mnt &&
	cmp mnt/bin/prog tree/bin/prog &&
	fusermount3 -u mnt &&
	test_expect_code 16 "$AXFS" mount --store nand.bin -o store=nand.bin nor.bin mnt 2>err &&
	grep "given twice" err
'

test_done
