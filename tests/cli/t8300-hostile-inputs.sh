#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Inputs that never end, or claim more than they hold (issue 28 §2): every
# command reads a stream superblock first and only as far as it claims;
# no command needs more memory than 64 MiB + 8 x the image's real size,
# whatever the image claims (a 1 MB zlib stream claiming 1 GiB is refused
# with the region's name and byte offset, under a memory limit far below
# the claim); fsck ends an image cut short with a message, not SIGBUS; a
# profile that never ends is an error.  See libaxfsimg/README.md, Memory.
. "$(dirname "$0")/lib.sh"
. "$AXFS_TOP/tests/cli/lib-hostile.sh"

# Far below the 1 GiB the bombs claim, far above what the commands need.
MEMORY_MIB=586

test_expect_success 'setup: a small image' '
	mkdir -p tree/d &&
	echo hello >tree/d/x &&
	yes data | head -c 20000 >tree/d/y &&
	"$AXFS" mkfs -q tree -o img.axfs
'

test_expect_success 'fsck /dev/zero: stops at the superblock (bad magic, byte 0), exit 4' '
	(limit_memory $MEMORY_MIB; timeout 20 "$AXFS" fsck /dev/zero >out 2>err; echo $? >rc) &&
	test "$(cat rc)" = 4 &&
	grep "^/dev/zero: byte 0: magic is 0x00000000" out &&
	no_alloc_failure err
'

test_expect_success 'dump, cat, extract, diff of /dev/zero and of - from /dev/zero: bad magic at byte 0, exit 8' '
	(
		limit_memory $MEMORY_MIB
		timeout 20 "$AXFS" dump /dev/zero >/dev/null 2>err1; echo $? >rc1
		timeout 20 "$AXFS" cat - /d/x </dev/zero >/dev/null 2>err2; echo $? >rc2
		timeout 20 "$AXFS" extract - xout </dev/zero 2>err3; echo $? >rc3
		timeout 20 "$AXFS" fsck - </dev/zero >out4 2>err4; echo $? >rc4
	) &&
	test "$(cat rc1)" = 8 && grep "/dev/zero.: byte 0: bad magic" err1 &&
	test "$(cat rc2)" = 8 && grep "<stdin>.: byte 0: bad magic" err2 &&
	test "$(cat rc3)" = 8 && grep "byte 0: bad magic" err3 &&
	test "$(cat rc4)" = 4 && grep "byte 0: magic is 0x00000000" out4 &&
	test_path_is_missing xout
'

test_expect_success 'a FIFO is read as far as the superblock claims, not to its end' '
	mkfifo fifo &&
	{ cat img.axfs; yes; } >fifo 2>/dev/null &
	(limit_memory $MEMORY_MIB; timeout 20 "$AXFS" fsck fifo >out 2>err; echo $? >rc) &&
	kill $! 2>/dev/null; wait $! 2>/dev/null;
	test "$(cat rc)" = 0 && grep "^fifo: clean" out
'

test_expect_success 'a pipe that goes on after the image: dump - reads only the claimed size' '
	{ cat img.axfs; head -c 10000000 /dev/zero; } | timeout 20 "$AXFS" dump - >out 2>err &&
	grep "superblock of .<stdin>." out
'

test_expect_success 'a stream whose superblock claims 1 TiB: refused at once (byte 72), within --max-memory' '
	head -c 264 img.axfs >huge.sb &&
	P huge.sb set sb.size 1099511627776 &&
	{ cat huge.sb; cat /dev/zero; } | { limit_memory $MEMORY_MIB; timeout 20 "$AXFS" dump - >/dev/null 2>err; echo $? >rc; } ;
	test "$(cat rc)" = 8 &&
	grep "byte 72: the superblock claims 1099511627776 bytes, more than" err &&
	{ cat huge.sb; cat /dev/zero; } | { limit_memory $MEMORY_MIB; timeout 20 "$AXFS" fsck --max-memory 1MiB - >/dev/null 2>err; echo $? >rc; } ;
	test "$(cat rc)" = 8 &&
	grep "more than the 1048576 this reads" err
'

# 1 MB of zlib stream that inflates to 1 GiB of zeros, as strings.
test_expect_success 'build the bomb: a 1 MB image whose strings claim 1 GiB' '
	cp img.axfs bomb.axfs &&
	P bomb.axfs bomb strings 1073741824 &&
	test $(stat -c %s bomb.axfs) -lt 1200000
'

test_expect_success 'every reader refuses it by the superblock counts, naming region and byte offset, under the memory limit' '
	off=$(( $(P bomb.axfs off sb.region.strings) )) &&
	desc=$(P bomb.axfs get sb.region.strings) &&
	want="byte $((desc + 8)): region .strings. claims 1073741824 bytes; the superblock.s" &&
	(
		limit_memory $MEMORY_MIB
		timeout 60 "$AXFS" dump bomb.axfs >/dev/null 2>e.dump; echo $? >r.dump
		timeout 60 "$AXFS" cat bomb.axfs /d/x >/dev/null 2>e.cat; echo $? >r.cat
		timeout 60 "$AXFS" extract -q bomb.axfs xb 2>e.extract; echo $? >r.extract
		timeout 60 "$AXFS" diff bomb.axfs tree 2>e.diff; echo $? >r.diff
		timeout 60 "$AXFS" mkfs -q bomb.axfs -o re.axfs 2>e.mkfs; echo $? >r.mkfs
		timeout 60 "$AXFS" extract -q --tar b.tar bomb.axfs 2>e.tar; echo $? >r.tar
		cat bomb.axfs | timeout 60 "$AXFS" dump - >/dev/null 2>e.stdin; echo $? >r.stdin
	) &&
	for c in dump cat extract mkfs tar stdin; do
		test "$(cat r.$c)" = 8 || { echo "$c: exit $(cat r.$c)"; cat e.$c; exit 1; }
		grep "$want" e.$c || { echo "$c:"; cat e.$c; exit 1; }
		no_alloc_failure e.$c || exit 1
	done &&
	test "$(cat r.diff)" = 2 && grep "$want" e.diff &&
	test_path_is_missing re.axfs && test_path_is_missing b.tar
'

test_expect_success 'claims the counts allow are refused by the memory budget (64 MiB + 8 x size)' '
	cp bomb.axfs bomb2.axfs &&
	P bomb2.axfs set sb.files 4194304 --digest &&
	desc=$(P bomb2.axfs get sb.region.strings) &&
	(limit_memory $MEMORY_MIB; timeout 60 "$AXFS" dump bomb2.axfs >/dev/null 2>err; echo $? >rc) &&
	test "$(cat rc)" = 8 &&
	size=$(stat -c %s bomb2.axfs) &&
	grep "byte $((desc + 8)): region .strings. needs [0-9]* bytes; 0 of the $((67108864 + 8 * size))-byte memory budget" err &&
	no_alloc_failure err
'

# fsck applies the readers' bound too (region.bound), so it refuses the
# region before inflating any of it.
test_expect_success 'fsck of the bomb: the same bound, named, exit 4, nothing inflated' '
	desc=$(P bomb.axfs get sb.region.strings) &&
	(limit_memory $MEMORY_MIB; timeout 60 "$AXFS" fsck bomb.axfs >out 2>err; echo $? >rc) &&
	test "$(cat rc)" = 4 &&
	grep "^bomb.axfs: byte $((desc + 8)): .*region .strings. claims 1073741824 bytes.*\[region.bound\]\$" out &&
	! grep "limit.memory\|region.inflate" out &&
	no_alloc_failure err
'

test_expect_success '--max-memory lowers the budget of every reader' '
	yes name | head -n 300 | while read -r n; do : >"tree/d/f$(printf %s "$n$RANDOM")"; done;
	"$AXFS" mkfs -q tree -o many.axfs &&
	for c in "dump many.axfs" "cat many.axfs /d/x" "extract -q many.axfs xm" \
		 "fsck many.axfs"; do
		test_must_fail "$AXFS" ${c%% *} --max-memory 64 ${c#* } >out 2>err ||
			exit 1
		grep -E "memory budget|limit.memory" err out >/dev/null || { echo "$c:"; cat err out; exit 1; }
	done &&
	test_expect_code 2 "$AXFS" diff --max-memory 64 many.axfs tree 2>err &&
	grep "memory budget" err
'

test_expect_success 'fsck of an image cut short while it is checked: a message or a result, never a signal' '
	mkdir -p big &&
	head -c 3000000 /dev/urandom >big/r &&
	"$AXFS" mkfs -q big -o big.axfs &&
	cp big.axfs live.axfs &&
	{ for i in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20; do
		truncate -s 300000 live.axfs; cp big.axfs live.axfs.new; mv live.axfs.new live.axfs
		truncate -s 100000 live.axfs
		cat big.axfs >live.axfs
	done; } &
	pid=$! &&
	bad=0 &&
	for i in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20; do
		"$AXFS" fsck -q --fast --no-digest live.axfs 2>err; rc=$?
		if test $rc -ge 126; then echo "fsck died: exit $rc"; bad=1; fi
		if test $rc = 8 && ! grep -q -E "changed while it was read|cannot" err; then cat err; bad=1; fi
	done;
	wait $pid;
	test $bad = 0
'

test_expect_success 'a sparse file (all its pages one shared zero page): every reader takes what mkfs writes' '
	mkdir -p sparse &&
	truncate -s 64M sparse/hole &&
	echo end >>sparse/hole &&
	tar -C sparse -cSf sparse.tar . &&
	"$AXFS" mkfs -q sparse.tar -o sparse.axfs &&
	test $(stat -c %s sparse.axfs) -lt 16384 &&
	"$AXFS" fsck -q sparse.axfs &&
	"$AXFS" dump --inodes sparse.axfs >/dev/null &&
	"$AXFS" cat sparse.axfs /hole | cmp - sparse/hole &&
	"$AXFS" extract -q sparse.axfs sx &&
	cmp sx/hole sparse/hole
'

test_expect_success 'merge-profile /dev/zero: an error with file:line, no output' '
	test_expect_code 8 "$AXFS" merge-profile /dev/zero -o m.csv 2>err &&
	grep "/dev/zero:1: line longer than 16384 bytes" err &&
	test_path_is_missing m.csv
'

test_expect_success 'mkfs -p /dev/zero: an error, no image' '
	test_must_fail "$AXFS" mkfs -q -p /dev/zero tree -o p.axfs 2>err &&
	grep "/dev/zero:1: line longer than 16384 bytes" err &&
	test_path_is_missing p.axfs
'

test_expect_success 'a profile line of 20000 bytes is an error naming its line' '
	printf "/d/x,0,1\n" >long.csv &&
	python3 -c "print(\"/\" + \"a\" * 20000 + \",0,1\")" >>long.csv &&
	test_must_fail "$AXFS" merge-profile long.csv -o m.csv 2>err &&
	grep "long.csv:2: line longer than 16384 bytes" err
'

# Issue 38 §5: a binary output (an image, a tar) never goes to a terminal,
# whose escape sequences the names and bytes would reach raw: one check in
# cmd/outputs.c, before anything is read (as GNU tar refuses).  script(1)
# gives the commands a terminal.
test_expect_success 'extract --tar - and mkfs -o - on a terminal: refused, exit 16, nothing written' '
	on_tty tar.tty "$AXFS" extract --tar - img.axfs "; echo rc=\$?" &&
	grep "axfs extract:.* standard output is a terminal: not writing --tar there" tar.tty &&
	grep "^rc=16" tar.tty &&
	! grep -a "ustar" tar.tty &&
	on_tty mkfs.tty "$AXFS" mkfs -q tree -o - "; echo rc=\$?" &&
	grep "axfs mkfs:.* standard output is a terminal: not writing the image there" mkfs.tty &&
	grep "^rc=16" mkfs.tty &&
	"$AXFS" extract --tar - img.axfs | tar tf - >names &&
	grep "^d/x\$" names
'

# Issue 38 §5: the descriptors name where the image ends; a stream is read
# only as far as the regions they name (with the end magic, in whole
# pages), not to the size the superblock claims: 900 MiB claimed, 905 MiB
# on the pipe, refused after the first pages by every command that reads
# a stream (the code before read the 900 MiB, 8-15 s, then refused it).
test_expect_success 'a stream claiming 900 MiB for regions of 4 KiB: refused before reading it, by every reader' '
	cp img.axfs claim.axfs &&
	P claim.axfs set sb.size $((900 * 1048576)) &&
	for c in "dump -" "ls -" "fsck -" "cat - /d/x" "extract - cx" "mkfs -q - -o cm.axfs"; do
		{ cat claim.axfs; head -c $((905 * 1048576)) /dev/zero; } |
			{ limit_memory $MEMORY_MIB; timeout 20 "$AXFS" $c >/dev/null 2>err; echo $? >rc; } 2>/dev/null
		test "$(cat rc)" = 8 || { echo "$c: exit $(cat rc)"; return 1; }
		grep "<stdin>.: byte 72: the superblock claims 943718400 bytes, but its regions end at byte [0-9]* (4096 with the end magic" err ||
			{ cat err; return 1; }
		no_alloc_failure err || return 1
	done &&
	test_path_is_missing cm.axfs && test_path_is_missing cx &&
	cat img.axfs | "$AXFS" fsck - &&
	{ cat img.axfs; head -c 100000 /dev/zero; } | "$AXFS" cat - /d/x >x &&
	cmp x tree/d/x
'

test_done
