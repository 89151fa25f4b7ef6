#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# axfs mkfs: the command line, the image's outer shape, the output file.
. "$(dirname "$0")/lib.sh"

mk_tree() {
	mkdir -p tree/bin tree/etc/sub &&
	printf 'hello\n' >tree/etc/hello &&
	seq 1 30000 >tree/etc/seq &&
	head -c 70000 /dev/urandom >tree/bin/prog &&
	ln -s ../etc/hello tree/bin/hello &&
	: >tree/empty
}

test_expect_success '--help prints the synopsis of the man page' '
	"$AXFS" mkfs --help >out &&
	grep "^usage: axfs mkfs \[options\] SOURCE \[STORE-SEGMENT\] -o IMAGE$" out &&
	grep "^       axfs mkfs \[options\] SOURCE IMAGE$" out &&
	tr -d "\\\\" <"$AXFS_TOP/man/axfs-mkfs.1" >man.txt &&
	for o in --output --block-size --level --jobs --xip --profile \
		 --policy --xip-budget --mmap-limit --all-root --uid --gid \
		 --mtime --compress-metadata --quiet --verbose --progress \
		 --no-progress --help --version; do
		grep -q -- "$o" out || { echo "help lacks $o"; exit 1; }
		grep -q -- "$o" man.txt || { echo "man page lacks $o"; exit 1; }
	done
'

test_expect_success '--version names the command and the version' '
	"$AXFS" mkfs --version >out &&
	grep "^axfs mkfs (axfs-tools) [0-9]" out
'

test_expect_success 'mkfs builds an image from a directory' '
	mk_tree &&
	"$AXFS" mkfs tree -o img.axfs 2>err &&
	test -s img.axfs && ! test -s err
'

test_expect_success 'the image is whole pages with the magic at both ends' '
	size=$(stat -c %s img.axfs) &&
	test $((size % 4096)) -eq 0 &&
	test "$(be img.axfs 0 4)" = "$(printf %d 0x48A0E4CD)" &&
	test "$(be img.axfs $((size - 4)) 4)" = "$(printf %d 0x48A0E4CD)" &&
	test "$(be img.axfs 72 8)" = "$size" &&
	test "$(dd if=img.axfs bs=1 skip=4 count=15 2>/dev/null)" = "Advanced XIP FS"
'

test_expect_success 'the superblock counts the inodes and has a block size' '
	test "$(be img.axfs 64 8)" -eq 9 &&
	test "$(be img.axfs 60 4)" -eq 65536 &&
	test "$(be img.axfs 243 1)" -eq 0 &&
	test "$(be img.axfs 256 1)" -eq 12 &&
	test "$(be img.axfs 96 8)" -eq 264
'

test_expect_success 'the temporary file is gone and the image is an ordinary file' '
	! ls -a | grep "^\.img\.axfs\." &&
		: >ref && test "$(stat -c %a img.axfs)" = "$(stat -c %a ref)"
'

test_expect_success 'SOURCE IMAGE works like SOURCE -o IMAGE' '
	"$AXFS" mkfs tree img2.axfs &&
	cmp img.axfs img2.axfs
'

test_expect_success 'mkfs.axfs and axfs-mkfs are aliases' '
	ln -s "$AXFS" mkfs.axfs && ln -s "$AXFS" axfs-mkfs &&
	./mkfs.axfs tree img3.axfs && cmp img.axfs img3.axfs &&
	./axfs-mkfs tree -o img4.axfs && cmp img.axfs img4.axfs
'

test_expect_success 'options may follow the operands' '
	"$AXFS" mkfs tree -o img5.axfs -b 64KiB -l 9 && cmp img.axfs img5.axfs
'

test_expect_success 'an existing image is replaced' '
	echo old >img6.axfs &&
	"$AXFS" mkfs tree -o img6.axfs && cmp img.axfs img6.axfs
'

test_expect_success 'the block size is recorded; units are accepted' '
	"$AXFS" mkfs -b 4096 tree -o b4k.axfs &&
	test "$(be b4k.axfs 60 4)" -eq 4096 &&
	"$AXFS" mkfs --block-size 1MiB tree -o b1m.axfs &&
	test "$(be b1m.axfs 60 4)" -eq 1048576 &&
	"$AXFS" mkfs -b 16k tree -o b16k.axfs &&
	test "$(be b16k.axfs 60 4)" -eq 16384
'

test_expect_success 'the image of a tree inside the tree leaves itself out' '
	cp -a tree self &&
	"$AXFS" mkfs self -o self/img.axfs &&
	cp self/img.axfs first.axfs &&
	"$AXFS" mkfs self -o self/img.axfs &&
	cmp first.axfs self/img.axfs &&
	test "$(be first.axfs 64 8)" -eq 9
'

test_expect_success 'a plain mkfs ends with a summary of at most 5 lines; -q prints nothing' '
	"$AXFS" mkfs -q tree -o q.axfs >out 2>err && ! test -s err && ! test -s out &&
	"$AXFS" mkfs tree -o s.axfs >out 2>err && ! test -s err &&
	size=$(stat -c %s s.axfs) &&
	grep "^wrote .s.axfs.: $size bytes (.*) in [0-9.]* s$" out &&
	grep "^  [0-9]* inodes, .* of file data: the image is [0-9.]*% of it$" out &&
	grep "^  [0-9]* pages: 0 XIP (0 bytes), [0-9]* compressed (.* in [0-9]* blocks of 64 KiB), [0-9]* byte-aligned" out &&
	test "$(wc -l <out)" -le 5 &&
	"$AXFS" mkfs -v tree -o v.axfs >out 2>err && grep "^wrote .v.axfs.: $size bytes" out &&
	cmp q.axfs v.axfs && cmp q.axfs s.axfs &&
	"$AXFS" mkfs tree -o r.axfs --report - >out 2>err &&
	grep "^wrote .r.axfs." err && ! grep "^wrote" out
'

test_expect_success 'no progress bar when stderr is not a terminal' '
	"$AXFS" mkfs tree -o p.axfs 2>err && ! test -s err
'

test_done
