#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# axfs mkfs: bad input is refused with a clear message and the right exit
# code, no temporary file is left behind and an existing image survives.
. "$(dirname "$0")/lib.sh"

no_temp() {	# no .NAME.XXXXXX left in the current directory
	! ls -a | grep -E '^\..*\.axfs\.'
}

test_expect_success 'setup' '
	mkdir -p tree/d && echo data >tree/d/f &&
	echo precious >keep.axfs && cp keep.axfs keep.orig
'

test_expect_success 'an empty root is refused (the driver will not mount it)' '
	mkdir empty &&
	"$AXFS" mkfs empty -o e.axfs 2>err; test $? -eq 8 &&
	grep "the root directory is empty" err &&
	grep "refuses to mount an image with no entries" err &&
	test ! -e e.axfs && no_temp
'

test_expect_success 'a missing source is named' '
	"$AXFS" mkfs nothere -o m.axfs 2>err; test $? -eq 8 &&
	grep "^axfs mkfs: cannot open .nothere.: No such file or directory" err &&
	test ! -e m.axfs && no_temp
'

test_expect_success 'bad block sizes are usage errors' '
	for b in 3000 2048 8MiB 2MiB 0 -4096 64x ""; do
		"$AXFS" mkfs -b "$b" tree -o b.axfs 2>err; test $? -eq 16 &&
		grep "invalid block size" err &&
		grep "Try .axfs mkfs --help." err || exit 1
	done &&
	test ! -e b.axfs
'

test_expect_success 'bad levels, jobs, ids, times and sizes are usage errors' '
	for a in "-l 0" "-l 13" "--compressor zlib -l 10" "-l 10 --compressor zlib" \
		 "-l x" "--compressor gzip" "--compressor" "-j -1" "-j many" "--uid -1" \
		 "--gid 4294967296" "--mtime yesterday" "--mtime -5" \
		 "--xip-budget lots" "--mmap-limit 0" "--mmap-limit 5000" \
		 "--compress-metadata=maybe" "--xip bin/../x" "--bogus" "-Z"; do
		"$AXFS" mkfs $a tree -o x.axfs 2>err; rc=$?
		test $rc -eq 16 || { echo "$a: exit $rc"; exit 1; }
		test -s err || exit 1
	done &&
	test ! -e x.axfs
'

test_expect_success 'missing operands are usage errors' '
	"$AXFS" mkfs 2>err; test $? -eq 16 && grep "no source" err &&
	"$AXFS" mkfs tree 2>err; test $? -eq 16 && grep "no image" err &&
	"$AXFS" mkfs tree a.axfs -o b.axfs 2>err; test $? -eq 16 &&
	"$AXFS" mkfs tree a.axfs c.axfs 2>err; test $? -eq 16 &&
	"$AXFS" mkfs -o 2>err; test $? -eq 16 && grep "needs a value" err &&
	test ! -e a.axfs && test ! -e b.axfs
'

test_expect_success 'an output in a missing directory is named' '
	"$AXFS" mkfs tree -o nodir/x.axfs 2>err; test $? -eq 8 &&
	grep "nodir/x.axfs" err && test ! -e nodir
'

test_expect_success 'a directory as the output is refused' '
	mkdir outdir &&
	"$AXFS" mkfs tree -o outdir 2>err; test $? -eq 8 &&
	grep "outdir.*directory" err && test -d outdir &&
	test -z "$(ls -A outdir)"
'

test_expect_success 'a device number the format cannot hold is named; the old image survives' '
	mkdir -p dev/d &&
	echo x >dev/d/f &&
	mknod dev/d/nvme b 259 3 &&
	"$AXFS" mkfs dev -o keep.axfs 2>err; test $? -eq 8 &&
	grep "./d/nvme. is a block device with number 259:3" err &&
	cmp keep.axfs keep.orig && no_temp
'

# Permissions mean nothing to root: these run as nobody through setpriv,
# with the copy of the tools nobody can reach ($AXFS_NOBODY).
test_expect_success SETPRIV 'an unreadable file is named (not as root)' '
	mkdir -p -m 755 nob/src && echo secret >nob/src/f &&
	echo open >nob/src/g && chmod 000 nob/src/f &&
	chmod 777 nob && cp keep.orig nob/keep.axfs && chmod 666 nob/keep.axfs &&
	as_nobody "$AXFS_NOBODY" mkfs nob/src -o nob/keep.axfs 2>err; test $? -eq 8 &&
	grep "cannot read .nob/src/f.: Permission denied" err &&
	cmp nob/keep.axfs keep.orig &&
	! ls -a nob | grep "^\.keep"
'

test_expect_success SETPRIV 'an unreadable directory is named (not as root)' '
	chmod 644 nob/src/f && mkdir -m 700 nob/src/private &&
	as_nobody "$AXFS_NOBODY" mkfs nob/src -o nob/keep.axfs 2>err; test $? -eq 8 &&
	grep "cannot open directory .nob/src/private.: Permission denied" err &&
	cmp nob/keep.axfs keep.orig
'

test_expect_success 'an invalid SOURCE_DATE_EPOCH is an error' '
	SOURCE_DATE_EPOCH=soon "$AXFS" mkfs tree -o t.axfs 2>err
	test $? -eq 8 && grep "SOURCE_DATE_EPOCH" err && test ! -e t.axfs
'

test_expect_success 'SIGTERM while building removes the named temporary file' '
	mkfifo fifo &&
	{ AXFS_OUTFILE_NAMED=1 "$AXFS" mkfs - -o sig.axfs <fifo 2>err & pid=$!; } &&
	exec 3>fifo &&
	i=0 && while ! ls -a | grep -q "^\.sig\.axfs\." && test $i -lt 100; do
		sleep 0.1; i=$((i + 1))
	done &&
	ls -a | grep -q "^\.sig\.axfs\." &&
	kill -TERM $pid && exec 3>&- &&
	{ wait $pid; test $? -ne 0; } &&
	test ! -e sig.axfs && ! ls -a | grep "^\.sig\.axfs\."
'

test_expect_success 'SIGTERM while building: the unnamed temporary file goes with us' '
	{ "$AXFS" mkfs - -o sig2.axfs <fifo 2>err & pid=$!; } &&
	exec 3>fifo &&
	i=0 && until ls -l /proc/$pid/fd 2>/dev/null | grep -q "$TRASH/.*(deleted)" || test $i -ge 100; do
		sleep 0.1; i=$((i + 1))
	done &&
	ls -l /proc/$pid/fd | grep "$TRASH/.*(deleted)" &&
	kill -TERM $pid && exec 3>&- &&
	{ wait $pid; test $? -ne 0; } &&
	test ! -e sig2.axfs && ! ls -a | grep "^\.sig2\.axfs\."
'

test_expect_success 'the named temporary file (AXFS_OUTFILE_NAMED) gives the same image' '
	AXFS_OUTFILE_NAMED=1 "$AXFS" mkfs -q tree -o named.axfs &&
	"$AXFS" mkfs -q tree -o unnamed.axfs && cmp named.axfs unnamed.axfs &&
	! ls -a | grep "^\.named\.axfs\."
'

test_done
