#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Operator mistakes that would lose data or pass silently (issue 28 section 3,
# issue 31 item 10): an output that is an input or another output is refused
# before anything is written, in every command that writes files; an output
# that cannot be written is refused before the build.
. "$(dirname "$0")/lib.sh"

test_expect_success 'setup: a real tree, its tarball, an image' '
	mkdir -p tree/bin tree/etc &&
	cp /bin/true tree/bin/true && echo "root:x:0:0" >tree/etc/passwd &&
	tar cf a.tar -C tree . && cp a.tar a.orig &&
	"$AXFS" mkfs -q tree -o img && cp img img.orig
'

test_expect_success 'mkfs a.tar -o a.tar: refused, a.tar unchanged' '
	test_expect_code 16 "$AXFS" mkfs a.tar -o a.tar 2>err &&
	grep "the output .a.tar. (the image) is the input .a.tar. (SOURCE)" err &&
	cmp a.tar a.orig && ! ls -a | grep "^\.a\.tar\."
'

test_expect_success 'the same file through a symbolic link, a hard link, ..' '
	ln -s a.tar link.tar && ln a.tar hard.tar && mkdir sub &&
	test_expect_code 16 "$AXFS" mkfs a.tar -o link.tar 2>err &&
	grep "is the input" err &&
	test_expect_code 16 "$AXFS" mkfs a.tar -o ./sub/../hard.tar 2>err &&
	grep "is the input" err && cmp a.tar a.orig
'

test_expect_success 'mkfs --report-json SRC, --report OUT.img, --report-svg PROFILE' '
	test_expect_code 16 "$AXFS" mkfs a.tar -o new.img --report-json a.tar 2>err &&
	grep "(--report-json) is the input .a.tar. (SOURCE)" err &&
	test_expect_code 16 "$AXFS" mkfs tree -o new.img --report new.img 2>err &&
	grep "(the image) and .new.img. (--report) are the same file" err &&
	echo "/bin/true,0,1" >p.csv && cp p.csv p.orig &&
	test_expect_code 16 "$AXFS" mkfs tree -o new.img -p p.csv --report-svg p.csv 2>err &&
	grep "is the input .p.csv. (--profile)" err &&
	test_expect_code 16 "$AXFS" mkfs tree -o new.img --report - --report-json - 2>err &&
	grep "both write to standard output" err &&
	cmp a.tar a.orig && cmp p.csv p.orig && test_path_is_missing new.img
'

test_expect_success 'extract --tar img img and split --mmap X --store X are refused' '
	test_expect_code 16 "$AXFS" extract --tar img img 2>err &&
	grep "the output .img. (--tar) is the input .img. (IMAGE)" err && cmp img img.orig &&
	test_expect_code 16 "$AXFS" split --mmap X --store X img 2>err &&
	grep "(--mmap) and .X. (--store) are the same file" err &&
	test_path_is_missing X &&
	test_expect_code 16 "$AXFS" split --mmap img --store S img 2>err &&
	grep "is the input .img. (MMAP)" err && cmp img img.orig
'

test_expect_success 'split --join and merge-profile: an output that is an input' '
	"$AXFS" mkfs -q tree --mmap-limit 4KiB -o whole.img &&
	"$AXFS" split --mmap m.seg --store s.seg whole.img && cp m.seg m.orig &&
	test_expect_code 16 "$AXFS" split --join m.seg s.seg -o m.seg 2>err &&
	grep "is the input .m.seg. (MMAP)" err && cmp m.seg m.orig &&
	test_expect_code 16 "$AXFS" merge-profile p.csv -o p.csv 2>err &&
	grep "is the input .p.csv. (CSV)" err && cmp p.csv p.orig
'

test_expect_success 'an output that cannot be written is refused before the build' '
	test_expect_code 8 "$AXFS" mkfs tree -o new.img --report nodir/r.txt 2>err &&
	grep "cannot write .nodir/r.txt. (--report): No such file or directory" err &&
	mkdir adir &&
	test_expect_code 8 "$AXFS" mkfs tree -o new.img --report-json adir 2>err &&
	grep "cannot write .adir. (--report-json): it is a directory" err &&
	test_path_is_missing new.img
'

test_expect_success 'an image inside the source directory is left out of it' '
	"$AXFS" mkfs -q tree -o tree/self.img && "$AXFS" mkfs -q tree -o tree/self.img &&
	"$AXFS" extract tree/self.img out && test_path_is_missing out/self.img &&
	test_path_is_file out/etc/passwd
'

test_done
