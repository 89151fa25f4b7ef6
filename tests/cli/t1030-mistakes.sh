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

test_expect_success 'a profile that matches nothing is an error, naming it' '
	printf "./usr/bin/true,0,9\n./usr/bin/env,4096,3\n" >stale.csv &&
	test_expect_code 8 "$AXFS" mkfs -q tree -p stale.csv -o p.img 2>err &&
	grep "^axfs mkfs: .stale.csv.: no profile entry names a page of the image" err &&
	grep "2 not in the image" err && grep "/usr/bin/true" err &&
	test_path_is_missing p.img
'

test_expect_success 'some entries skipped: a warning -q does not hide; --strict-profile and xip.strict-profile make it an error' '
	printf "./bin/true,0,9\n./usr/bin/env,0,3\n" >half.csv &&
	"$AXFS" mkfs -q tree -p half.csv -o h.img 2>err &&
	grep "warning: 1 profile entry skipped (1 not in the image" err &&
	grep "/usr/bin/env" err && test "$(wc -l <err)" -eq 1 &&
	test "$(seedread xip h.img)" = "/bin/true,0" &&
	test_expect_code 8 "$AXFS" mkfs -q tree -p half.csv --strict-profile -o s.img 2>err &&
	grep "1 profile entry skipped.*--strict-profile (xip.strict-profile) makes that an error" err &&
	test_path_is_missing s.img &&
	printf "xip:\n  strict-profile: true\n" >strict.yaml &&
	test_expect_code 8 "$AXFS" mkfs -q tree -c strict.yaml -p half.csv -o s.img 2>err &&
	grep "makes that an error" err && test_path_is_missing s.img &&
	printf "xip: {strict-profile: maybe}\n" >bad.yaml &&
	test_expect_code 8 "$AXFS" mkfs -q tree -c bad.yaml -o s.img 2>err &&
	grep "bad.yaml:1:23: xip.strict-profile" err
'

test_expect_success '--xip-budget is a limit: whole files over it fail the build, naming them' '
	pages=$(( ($(wc -c <tree/bin/true) + 4095) / 4096 )) &&
	test_expect_code 8 "$AXFS" mkfs -q tree --xip "/bin/*" --xip-budget 4KiB -o b.img 2>err &&
	grep "whole-file XIP (--xip, xip.files, xip rules) takes $((pages * 4096)) bytes, more than the XIP budget of 4096 bytes" err &&
	grep "./bin/true. ($pages pages)" err && test_path_is_missing b.img &&
	printf "xip: {budget: 4KiB, files: [/bin/true]}\n" >b.yaml &&
	test_expect_code 8 "$AXFS" mkfs -q tree -c b.yaml -o b.img 2>err &&
	grep "more than the XIP budget of 4096 bytes" err &&
	"$AXFS" mkfs -q tree --xip "/bin/*" --xip-budget $((pages * 4096)) -o b.img &&
	test "$(seedread xip b.img | wc -l)" -eq "$pages"
'

test_expect_success 'did you mean: a misspelt subcommand or option; axfs help nothing exits 16' '
	test_expect_code 16 "$AXFS" help nothing 2>err &&
	grep "^axfs: .nothing. is not an axfs command. See .axfs --help.\.$" err &&
	test_expect_code 16 "$AXFS" mkfz tree -o x.img 2>err &&
	grep "^axfs: .mkfz. is not an axfs command; did you mean .mkfs.?" err &&
	test_expect_code 16 "$AXFS" help fsk 2>err && grep "did you mean .fsck.?" err &&
	test_expect_code 16 "$AXFS" help mkfs fsck 2>err && grep "takes one command" err &&
	test_expect_code 16 "$AXFS" mkfs --xip-budgte 1MiB tree -o x.img 2>err &&
	grep "^axfs mkfs: unrecognized option .--xip-budgte.; did you mean .--xip-budget.?$" err &&
	test_expect_code 16 "$AXFS" fsck --stirct=1 img 2>err &&
	grep "unrecognized option .--stirct=1.; did you mean .--strict.?$" err &&
	test_expect_code 16 "$AXFS" extract --frobnicate img out 2>err &&
	grep "^axfs extract: unrecognized option .--frobnicate.$" err &&
	"$AXFS" help mkfs >help.out && grep "^usage: axfs mkfs" help.out &&
	test_path_is_missing x.img
'

test_expect_success 'SIGKILL mid-build leaves no temporary file (O_TMPFILE)' '
	mkdir k && mkfifo k/fifo &&
	ls -A k >before &&
	{ "$AXFS" mkfs -q - -o k/k.img <k/fifo & } &&
	pid=$! && exec 3>k/fifo &&
	n=0 && until ls -l /proc/$pid/fd 2>/dev/null | grep -q "$TRASH/k/.*(deleted)"; do
		n=$((n + 1)) && test $n -lt 100 || break; sleep 0.1
	done &&
	ls -l /proc/$pid/fd | grep "$TRASH/k/.*(deleted)" &&
	kill -9 $pid && { wait $pid; true; } && exec 3>&- &&
	ls -A k >after && test_cmp before after
'

test_expect_success 'a reader that goes away (SIGPIPE) leaves no temporary file' '
	mkdir sp && cp -r tree sp/t &&
	for i in $(seq 1 200); do echo $i >sp/t/etc/f$i; done &&
	touch -d @1000000 sp/t/etc/f1 &&
	("$AXFS" mkfs -vv sp/t -o sp/s.img 2>&1 | head -1 >/dev/null) &&
	! ls -A sp | grep "^\.s\.img\." &&
	{ test_path_is_missing sp/s.img || "$AXFS" fsck -q sp/s.img; }
'

test_expect_success 'a full TMPDIR is named in the message' '
	mkdir spool && head -c 2000000 /dev/urandom >tree/big &&
	tar cf big.tar -C tree . && rm tree/big &&
	(ulimit -f 200; TMPDIR=$TRASH/spool "$AXFS" mkfs -q big.tar -o big.img) 2>err;
	test $? -eq 8 &&
	grep "cannot write the spool file for the archive.s data in .$TRASH/spool.: File too large" err &&
	test_path_is_missing big.img && ! ls -A | grep "^\.big\.img\." &&
	(ulimit -f 200; TMPDIR=$TRASH/spool "$AXFS" mkfs -q - -o big.img <big.tar) 2>err;
	test $? -eq 8 && grep "in .$TRASH/spool." err
'

test_expect_success 'extract --force into the directory of the image: an entry of its name is refused' '
	mkdir -p holds out2 && echo data >holds/e.img && "$AXFS" mkfs -q holds -o out2/e.img &&
	cp out2/e.img e.orig &&
	(cd out2 && test_expect_code 8 "$AXFS" extract --force e.img .) 2>err &&
	grep "the image holds ./e.img., which would replace the input .e.img. (IMAGE) in .\.." err &&
	cmp out2/e.img e.orig &&
	"$AXFS" extract --force out2/e.img out2/sub && cmp out2/sub/e.img holds/e.img
'

test_done
