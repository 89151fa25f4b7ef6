#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Issue 28, §1 and §4: extraction turned against the one who extracts, and
# names that forge output.  The hostile input rules of libaxfsimg/README.md:
# no metadata call on a created name follows a symlink (a node swapped for a
# symlink mid-extraction leaves its target untouched), link groups are hard
# links and the size is bounded before writing, ordinary users get no
# set-user-ID bits, and names are escaped in every line for people.
. "$(dirname "$0")/lib.sh"
. "$AXFS_TOP/tests/cli/lib-hostile.sh"

test_lazy_prereq STRACE 'command -v strace'
# strace that can delay a system call (strace >= 4.22: inject delay_exit).
test_lazy_prereq STRACE_DELAY '
	command -v strace &&
	strace -f -qq -o /dev/null -e trace=getpid \
		-e inject=getpid:delay_exit=1 true
'
# DIR on ext2/3/4, which allows 65,000 links to a file (EMLINK past them).
test_lazy_prereq EXT_LINK_LIMIT 'test "$(stat -f -c %T .)" = ext2/ext3'
# A mount namespace of its own (for a small tmpfs at DIR).
test_lazy_prereq UNSHARE_MOUNT 'command -v unshare && unshare -m true'

# The swap tests hold the extraction for this long after the call that
# creates the entry, while the test swaps it: long enough for a loaded
# machine (the wait costs no CPU).
SWAP_DELAY_US=1500000

# strace_run ARGS...: strace with LeakSanitizer off for the traced command
# (it cannot run under ptrace; the sanitizer build checks leaks elsewhere).
strace_run() {
	ASAN_OPTIONS="${ASAN_OPTIONS:-}${ASAN_OPTIONS:+:}detect_leaks=0" strace "$@"
}

# mode FILE: octal permission bits; links FILE: link count.
mode() { stat -c %a "$1"; }
links() { stat -c %h "$1"; }

# A name with a newline that would forge a diff line, and one with ESC.
NL_NAME=$(printf 'new\nchanged motd: mode 0640 -> 0666')
ESC_NAME=$(printf 'x\033]0;owned\007\033[2J')

test_expect_success 'setup: trees with specials, link groups, set-user-ID bits and hostile names' '
	mkdir -p tree/d &&
	head -c 1048576 /dev/zero >tree/big &&
	printf "some data\n" >>tree/big &&
	i=1 && while [ $i -le 40 ]; do ln tree/big tree/d/l$i || exit 1; i=$((i + 1)); done &&
	printf "run me" >tree/suid && chmod 6777 tree/suid &&
	mkdir tree/sgid-dir && chmod 2777 tree/sgid-dir &&
	mkfifo tree/fifo && chmod 0666 tree/fifo &&
	printf n >"tree/$NL_NAME" && printf e >"tree/$ESC_NAME" &&
	"$AXFS" mkfs -q tree -o img.axfs && chmod 644 img.axfs &&
	test $(stat -c %s img.axfs) -lt 65536
'

# ---- §1: no metadata call follows a symlink ------------------------------

test_expect_success ROOT,STRACE_DELAY 'a FIFO swapped for a symlink between mknodat and the mode call: the target keeps its mode' '
	mkdir ft && mkfifo ft/fifo && chmod 0777 ft/fifo &&
	"$AXFS" mkfs -q ft -o fifo.axfs &&
	printf secret >victim && chmod 600 victim &&
	mkdir -m 777 out &&
	{ strace_run -f -qq -o /dev/null -e trace=mknodat \
		-e inject=mknodat:delay_exit=$SWAP_DELAY_US \
		"$AXFS" extract --force fifo.axfs out 2>err1; echo $? >rc1; } &
	i=0 && while ! test -p out/fifo && [ $i -lt 1000 ]; do sleep 0.02; i=$((i + 1)); done &&
	test -p out/fifo &&
	rm out/fifo && ln -s ../victim out/fifo &&
	test ! -e rc1 &&
	wait &&
	cat err1 &&
	test "$(cat rc1)" = 8 &&
	grep "^axfs extract: .out/fifo. was replaced while it was extracted (another user writing to .out.?): left as it is" err1 &&
	test "$(mode victim)" = 600 && test "$(cat victim)" = secret &&
	test -L out/fifo
'
test_expect_success ROOT,STRACE_DELAY 'as root, a set-user-ID FIFO swapped for a hard link to another file: refused, the file untouched' '
	mkdir st && mkfifo st/fifo && chmod 4666 st/fifo &&
	"$AXFS" mkfs -q st -o suidfifo.axfs &&
	printf secret >victim2 && chmod 600 victim2 &&
	mkdir out2 &&
	{ strace_run -f -qq -o /dev/null -e trace=mknodat \
		-e inject=mknodat:delay_exit=$SWAP_DELAY_US \
		"$AXFS" extract --force suidfifo.axfs out2 2>err2; echo $? >rc2; } &
	i=0 && while ! test -p out2/fifo && [ $i -lt 1000 ]; do sleep 0.02; i=$((i + 1)); done &&
	rm out2/fifo && ln victim2 out2/fifo &&
	test ! -e rc2 &&
	wait &&
	cat err2 &&
	test "$(cat rc2)" = 8 &&
	grep "^axfs extract: .out2/fifo. was replaced while it was extracted" err2 &&
	test "$(mode victim2)" = 600
'
test_expect_success ROOT,STRACE_DELAY 'DIR swapped for a symlink right after extract created it: nothing written through it' '
	mkdir -m 777 pubdir elsewhere &&
	{ strace_run -f -qq -o /dev/null -e trace=mkdir \
		-e inject=mkdir:delay_exit=$SWAP_DELAY_US \
		"$AXFS" extract fifo.axfs pubdir/x 2>err3; echo $? >rc3; } &
	i=0 && while ! test -d pubdir/x && [ $i -lt 1000 ]; do sleep 0.02; i=$((i + 1)); done &&
	rmdir pubdir/x && ln -s ../elsewhere pubdir/x &&
	test ! -e rc3 &&
	wait &&
	cat err3 &&
	test "$(cat rc3)" = 8 &&
	grep "^axfs extract: cannot open directory .pubdir/x.: " err3 &&
	test -z "$(ls -A elsewhere)"
'

test_expect_success ROOT,STRACE 'no chmod, chown or utimes by name that may follow a symlink (strace of every kind of entry)' '
	mkdir -p all/dir && printf f >all/file && chmod 4755 all/file &&
	ln all/file all/dir/hard && ln -s file all/link &&
	mkfifo all/fifo && chmod 2640 all/fifo &&
	mknod all/null c 1 3 && chown 12:34 all/null && chmod 6666 all/null &&
	python3 -c "import socket; socket.socket(socket.AF_UNIX).bind(\"all/sock\")" &&
	"$AXFS" mkfs -q all -o all.axfs &&
	strace_run -f -qq -o trace -e trace=%file,fchmod,fchown \
		"$AXFS" extract all.axfs allx &&
	"$AXFS" diff all allx &&
	test "$(links allx/file)" = 2 &&
	test "$(stat -c %a allx/null)" = 6666 &&
	! grep -E " (chmod|chown|lchown)\(" trace | grep -v "(\"/proc/self/fd/[0-9]*\"" &&
	! grep -E " (fchmodat|utime|utimes|futimesat)\(" trace &&
	! grep -E " (fchownat|utimensat)\([0-9A-Z_]+, \"[^\"]" trace | grep -v AT_SYMLINK_NOFOLLOW &&
	! grep -E " linkat\(" trace | grep -v "(AT_FDCWD, \"/proc/self/fd/[0-9]*\"" &&
	! grep -E "O_CREAT" trace | grep -v O_EXCL &&
	! grep -E "O_CREAT" trace | grep -v O_NOFOLLOW &&
	grep "chmod(\"/proc/self/fd/[0-9]*\", 06666)" trace
'

test_expect_success 'with --force, symlinks planted at the names of a FIFO and of a hard link are replaced, not followed' '
	printf secret >victim3 && chmod 600 victim3 &&
	mkdir -p planted/d &&
	ln -s ../victim3 planted/fifo &&
	ln -s ../../victim3 planted/d/l7 &&
	"$AXFS" extract -q --force img.axfs planted &&
	test "$(mode victim3)" = 600 && test "$(cat victim3)" = secret &&
	test -p planted/fifo && ! test -L planted/d/l7 &&
	test "$(links planted/big)" = 41
'

# ---- §1: link groups -------------------------------------------------------

test_expect_success 'a link group is extracted as hard links: one inode, the right link count, the data once' '
	"$AXFS" extract -q img.axfs lg &&
	test "$(links lg/big)" = 41 &&
	test "$(stat -c %i lg/big)" = "$(stat -c %i lg/d/l40)" &&
	cmp tree/big lg/d/l17 &&
	test $(du -sk lg | cut -f1) -lt 2048 &&
	"$AXFS" diff tree lg
'

test_expect_success '--max-size below the files total refuses before writing: exit 8, no DIR' '
	test_expect_code 8 "$AXFS" extract --max-size 1MiB img.axfs ms 2>err &&
	cat err &&
	grep "^axfs extract: .img.axfs. holds [0-9]* bytes of file data, more than --max-size 1048576: nothing extracted" err &&
	test ! -e ms &&
	"$AXFS" extract -q --max-size 2MiB img.axfs ms2 &&
	test "$(links ms2/big)" = 41
'

test_expect_success 'inodes sharing one node range with different modes (copies) count each: a 4 KiB image claiming 8 MiB is refused' '
	mkdir cp &&
	for m in 600 604 640 644 700 704 740 744; do
		{ head -c 1048576 /dev/zero && printf x; } >cp/f$m && chmod $m cp/f$m || exit 1
	done &&
	"$AXFS" mkfs -q cp -o cp.axfs &&
	test $(stat -c %s cp.axfs) -le 8192 &&
	test $("$AXFS" dump --inodes -v cp.axfs | grep -c "array_index 0 ") = 8 &&
	test_expect_code 8 "$AXFS" extract --max-size 4MiB cp.axfs cpx 2>err &&
	grep "holds 8388616 bytes of file data, more than --max-size 4194304: nothing extracted" err &&
	test ! -e cpx &&
	"$AXFS" extract -q --max-size 9MiB cp.axfs cpx && "$AXFS" diff cp cpx
'

test_expect_success '--max-size: usage errors' '
	test_expect_code 16 "$AXFS" extract --max-size lots img.axfs x 2>err &&
	grep "invalid size .lots. for --max-size" err &&
	test_expect_code 16 "$AXFS" extract --max-size 1M --tar - img.axfs 2>err &&
	grep "are for a target directory, not --tar" err &&
	test ! -e x
'

# Issue 38 §1: inodes that share a node range but not their mode and
# owner cannot be hard links and are written once each; what an image's
# files would write may be at most --max-ratio (8) times what it holds
# (share.h), into DIR and as --tar, and fsck says node.amplified.
# own.axfs: /big (8 MiB) and 300 empty files, each with its own owner
# (its own mode without root), given /big's node range; sz.axfs: 100 of
# them with /big's owner, the k-th k bytes shorter.
test_expect_success 'setup: images of a few KiB whose 300 inodes share one 8 MiB range, each with its own owner, and 100 whose sizes differ by one byte' '
	mkdir -p own sz &&
	yes axfs | head -c 8388608 >own/big && cp own/big sz/big &&
	i=0 && while test $i -lt 300; do
		f=$(printf e%03d $i) && : >own/$f &&
		if test "$(id -u)" = 0; then
			chown $((1000 + i)):$((1000 + i)) own/$f
		else
			chmod $(printf %o $((256 + i))) own/$f
		fi &&
		{ test $i -ge 100 || : >sz/$f; } && i=$((i + 1)) || exit 1
	done &&
	for d in own sz; do
		"$AXFS" mkfs -q --compress-metadata=no $d -o $d.axfs &&
		step=1 && { test $d = sz || step=0; } &&
		P $d.axfs share /big $step $(cd $d && ls -d e* | sed "s|^|/|") &&
		P $d.axfs digest || exit 1
	done &&
	test $(stat -c %s own.axfs) -le 32768 && test $(stat -c %s sz.axfs) -le 32768
'

test_expect_success 'extract refuses them before writing anything (exit 8, no DIR), into DIR and as --tar' '
	for d in own sz; do
		test_expect_code 8 "$AXFS" extract $d.axfs $d.x 2>err &&
		cat err &&
		grep "^axfs extract: .$d.axfs. would write [0-9]* bytes of file data from the 8388608 bytes it holds, more than --max-ratio 8 times" err &&
		test ! -e $d.x &&
		test_expect_code 8 "$AXFS" extract --tar $d.tar $d.axfs 2>err &&
		grep "^axfs extract: .$d.axfs. would write [0-9]* bytes .* more than --max-ratio 8 times" err &&
		test ! -e $d.tar &&
		test_expect_code 8 "$AXFS" extract --tar - $d.axfs >out.tar 2>err &&
		test ! -s out.tar || exit 1
	done
'

test_expect_success 'fsck: node.amplified, a warning that --strict makes an error' '
	for d in own sz; do
		"$AXFS" fsck $d.axfs >fsck.out &&
		grep "^$d.axfs: byte [0-9]*: warning: files share node ranges but not their mode and owner: .* more than 8 times \[node.amplified\]$" fsck.out &&
		test_expect_code 4 "$AXFS" fsck --strict $d.axfs >fsck.out &&
		grep "node.amplified" fsck.out || exit 1
	done &&
	"$AXFS" fsck --strict img.axfs >fsck.out && ! grep node.amplified fsck.out
'

test_expect_success '--max-ratio raises the bound: 21 modes of one 64 KiB range extract, each file its data, and as --tar' '
	mkdir few && yes few | head -c 65536 >few/big &&
	for i in 00 01 02 03 04 05 06 07 10 11 12 13 14 15 16 17 20 21 22 23; do
		: >few/e$i && chmod 4$i few/e$i || exit 1
	done &&
	"$AXFS" mkfs -q --compress-metadata=no few -o few.axfs &&
	P few.axfs share /big 0 $(cd few && ls -d e* | sed "s|^|/|") && P few.axfs digest &&
	test_expect_code 8 "$AXFS" extract few.axfs fx 2>err &&
	grep "would write 1376256 bytes of file data from the 65536 bytes it holds, more than --max-ratio 8 times" err &&
	"$AXFS" extract -q --max-ratio 21 few.axfs fx &&
	for f in fx/e*; do cmp few/big $f || exit 1; done &&
	test "$(stat -c %a fx/e17)" = 417 &&
	test_expect_code 8 "$AXFS" extract --max-ratio 20 --tar few.tar few.axfs &&
	"$AXFS" extract --max-ratio 21 --tar few.tar few.axfs &&
	test $(tar tvf few.tar | grep -c " 65536 ") = 21
'

test_expect_success '--max-ratio: usage errors' '
	test_expect_code 16 "$AXFS" extract --max-ratio 0 img.axfs x 2>err &&
	grep "invalid ratio .0. for --max-ratio: use 1 to 1000000" err &&
	test_expect_code 16 "$AXFS" extract --max-ratio many img.axfs x &&
	test ! -e x
'

# A group of more links than DIR allows to one file: the first file holds
# 65,000, a copy (counted before writing) the rest, instead of a failure
# half-way.  mkfs stores the two identical files of the tree, with 65,000
# and 21 links, as one link group of 65,021 inodes.
test_expect_success EXT_LINK_LIMIT 'a link group larger than the link limit (65,000 on ext4): a copy for the rest, not a failure half-way' '
	python3 - <<-\EOF &&
	import os
	os.makedirs("ml/d")
	for name, links in (("a", 64999), ("b", 20)):
	    with open("ml/" + name, "wb") as f:
	        f.write(b"axfs link limit\n" * 300)
	    for i in range(links):
	        d = "ml/d/%s%d" % (name, i // 10000)
	        os.makedirs(d, exist_ok=True)
	        os.link("ml/" + name, "%s/%05d" % (d, i))
	EOF
	"$AXFS" mkfs -q ml -o ml.axfs &&
	"$AXFS" extract -q ml.axfs mlx &&
	find mlx -type f -exec stat -c "%h %i" {} + | sort | uniq -c >counts &&
	cat counts &&
	test $(wc -l <counts) = 2 &&
	grep -q "^ *65000 65000 " counts && grep -q "^ *21 21 " counts &&
	for f in mlx/a mlx/b mlx/d/b0/00019 mlx/d/a6/64998; do
		cmp ml/a $f || exit 1
	done
'

test_expect_success ROOT,UNSHARE_MOUNT 'more than the free space of DIR is refused before writing (a 512 KiB tmpfs)' '
	mkdir small &&
	test_expect_code 8 unshare -m sh -c "
		mount -t tmpfs -o size=512k tmpfs small &&
		\"\$AXFS\" extract img.axfs small/out; rc=\$?; ls -A small >ls; exit \$rc" 2>err &&
	cat err &&
	grep "holds [0-9]* bytes of file data, more than the [0-9]* bytes free in .small/out.: nothing extracted" err &&
	test ! -s ls
'

# ---- §1: set-user-ID bits for ordinary users -------------------------------

test_expect_success SETPRIV 'not root: set-user-ID/set-group-ID dropped and the umask applied' '
	mkdir -m 777 pub &&
	(umask 027 && as_nobody "$AXFS_NOBODY" extract -q img.axfs pub/a) &&
	test "$(mode pub/a/suid)" = 750 &&
	test "$(mode pub/a/sgid-dir)" = 750 &&
	test "$(mode pub/a/fifo)" = 640 &&
	test "$(links pub/a/big)" = 41
'
test_expect_success SETPRIV 'not root, -p: the image modes, set-user-ID included' '
	(umask 027 && as_nobody "$AXFS_NOBODY" extract -q -p img.axfs pub/b) &&
	test "$(mode pub/b/suid)" = 6777 &&
	test "$(mode pub/b/sgid-dir)" = 2777 &&
	test "$(mode pub/b/fifo)" = 666
'

test_expect_success ROOT 'as root: modes as in the image, set-user-ID included' '
	(umask 077 && "$AXFS" extract -q img.axfs rootx) &&
	test "$(mode rootx/suid)" = 6777 &&
	test "$(mode rootx/sgid-dir)" = 2777 &&
	test "$(mode rootx/fifo)" = 666
'

# ---- §4: names that forge output --------------------------------------------

# no_raw_controls FILE: no control byte but newline, and no C1 in FILE.
no_raw_controls() {
	! LC_ALL=C grep -q "$(printf "[\001-\011\013-\037\177]")" "$1"
}

test_expect_success 'axfs diff: a name with a newline is one escaped line, not a forged one' '
	mkdir -p da db && printf same >da/f && printf same >db/f &&
	printf n >"db/$NL_NAME" && printf e >"db/$ESC_NAME" &&
	"$AXFS" mkfs -q da -o da.axfs && "$AXFS" mkfs -q db -o db.axfs &&
	test_expect_code 1 "$AXFS" diff da.axfs db.axfs >lines &&
	cat lines &&
	test $(wc -l <lines) = 2 &&
	! grep "^changed motd" lines &&
	grep -Fx "added /new\\012changed motd: mode 0640 -> 0666 (file)" lines &&
	grep -Fx "added /x\\033]0;owned\\007\\033[2J (file)" lines &&
	no_raw_controls lines
'

test_expect_success 'axfs diff: link targets are escaped too' '
	mkdir -p la lb && ln -s "$NL_NAME" la/s && ln -s "$ESC_NAME" lb/s &&
	test_expect_code 1 "$AXFS" diff la lb >lines &&
	test $(wc -l <lines) = 1 && no_raw_controls lines &&
	grep -F "link target" lines
'

test_expect_success 'extract -v: one escaped line per entry' '
	"$AXFS" extract -v img.axfs vx >lines 2>err &&
	test $(wc -l <lines) = $(find vx -mindepth 1 -printf x | wc -c) &&
	grep -Fx "vx/new\\012changed motd: mode 0640 -> 0666" lines &&
	grep -Fx "vx/x\\033]0;owned\\007\\033[2J" lines &&
	! grep "^changed" lines &&
	no_raw_controls lines && no_raw_controls err
'

test_expect_success 'error messages quote hostile names escaped' '
	mkdir -p "blk/$NL_NAME/keep" &&
	test_expect_code 8 "$AXFS" extract -q --force img.axfs blk 2>err &&
	cat err &&
	test $(wc -l <err) = 1 &&
	grep -F "blk/new\\012changed motd" err &&
	no_raw_controls err
'

test_expect_success 'a refused hostile name is quoted once, with the same rule, by the reader and fsck' '
	mkdir hn && printf x >hn/aaaq &&
	"$AXFS" mkfs -q --compress-metadata=no hn -o hn.axfs &&
	python3 -c "
import sys
d = bytearray(open(sys.argv[1], \"rb\").read())
i = d.index(b\"\\0aaaq\\0\") + 1
d[i:i + 4] = b\"\\n/\\x1b]\"
open(sys.argv[1], \"wb\").write(d)" hn.axfs &&
	test_expect_code 8 "$AXFS" extract hn.axfs hnx 2>err &&
	cat err &&
	grep -F "has a '"'/'"' in its name ('"'\\012/\\033]'"')" err &&
	test $(wc -l <err) = 1 && no_raw_controls err &&
	test ! -e hnx &&
	test_expect_code 4 "$AXFS" fsck hn.axfs >fsck-hn.txt 2>&1 &&
	grep -F "\\012/\\033]" fsck-hn.txt && no_raw_controls fsck-hn.txt
'

test_expect_success 'dump, fsck -v and the mkfs report escape names the same way' '
	"$AXFS" dump img.axfs >dump.txt &&
	grep -F "/new\\012changed motd" dump.txt && no_raw_controls dump.txt &&
	"$AXFS" mkfs -q tree --report report.txt -o img2.axfs &&
	no_raw_controls report.txt &&
	"$AXFS" fsck -v img.axfs >fsck.txt 2>&1 && no_raw_controls fsck.txt
'

test_expect_success 'a UTF-8 name is shown as it is, C1 controls and stray bytes escaped' '
	mkdir u && printf a >"u/$(printf "caf\303\251")" &&
	printf b >"u/$(printf "c1\302\233x")" && printf c >"u/$(printf "bad\377")" &&
	"$AXFS" mkfs -q u -o u.axfs && "$AXFS" extract -v u.axfs ux >lines &&
	grep -Fx "$(printf "ux/caf\303\251")" lines &&
	grep -Fx "ux/c1\\302\\233x" lines &&
	grep -Fx "ux/bad\\377" lines
'

test_done
