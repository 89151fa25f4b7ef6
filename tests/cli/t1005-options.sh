#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The typed parsers of the option tables (cmd/options.c): a bad size, an
# overflow, a count out of range, a name that is none of an enum's, a bad
# time, a missing value and an unknown option are usage errors worded
# exactly so, with util-linux's exit code 16 (diff's 2), and a hint to
# --help.  Nothing is read or written: the command line is refused first.
. "$(dirname "$0")/lib.sh"

# fails CODE MESSAGE ARGS...: axfs ARGS exits with CODE, printing exactly
# "axfs CMD: MESSAGE" and the hint to --help on stderr, nothing on stdout.
fails() {
	code=$1 msg=$2
	shift 2
	"$AXFS" "$@" >out 2>err
	rc=$?
	printf 'axfs %s: %s\nTry '\''axfs %s --help'\'' for more information.\n' \
		"$1" "$msg" "$1" >expect
	test "$rc" = "$code" || { echo "axfs $*: exit $rc, not $code"; cat err; return 1; }
	test_cmp expect err && ! test -s out
}

test_expect_success 'setup' '
	mkdir tree && echo data >tree/f
'

test_expect_success 'sizes: bad suffix, fraction, overflow, empty, zero' '
	fails 16 "invalid --xip-budget: '\''4Q'\'': unknown unit '\''Q'\'' (use B, KiB, MiB, GiB or TiB)" \
		mkfs --xip-budget 4Q tree -o x.axfs &&
	fails 16 "invalid --xip-budget: '\''1.5M'\'': fractions are not accepted (use a smaller unit)" \
		mkfs --xip-budget 1.5M tree -o x.axfs &&
	fails 16 "invalid --xip-budget: '\''99999999999999999999'\'' is too large" \
		mkfs --xip-budget 99999999999999999999 tree -o x.axfs &&
	fails 16 "invalid --xip-budget: '\''16777216TiB'\'' is too large" \
		mkfs --xip-budget 16777216TiB tree -o x.axfs &&
	fails 16 "invalid --xip-budget: empty size" mkfs --xip-budget "" tree -o x.axfs &&
	fails 16 "invalid --pad: not a positive size" mkfs --pad 0 tree -o x.axfs &&
	fails 16 "invalid --pad: '\''4X'\'': unknown unit '\''X'\'' (use B, KiB, MiB, GiB or TiB)" \
		mkfs --pad 4X tree -o x.axfs &&
	fails 16 "invalid --mmap-limit: it must be a positive multiple of 4KiB" \
		mkfs --mmap-limit 1000 tree -o x.axfs &&
	fails 16 "invalid --mmap-limit: '\''4X'\'': unknown unit '\''X'\'' (use B, KiB, MiB, GiB or TiB)" \
		mkfs --mmap-limit 4X tree -o x.axfs &&
	fails 16 "invalid block size '\''64x'\'': use a power of two from 4KiB to 1MiB" \
		mkfs -b 64x tree -o x.axfs &&
	fails 16 "invalid size '\''1Q'\'' for --max-size: use a number of bytes with an optional unit (64KiB, 2G)" \
		extract --max-size 1Q x.axfs d &&
	fails 16 "invalid size '\''0'\'' for --max-size: use a number of bytes with an optional unit (64KiB, 2G)" \
		extract --max-size 0 x.axfs d &&
	fails 16 "--max-memory: '\''12Q'\'' is not a size" fsck --max-memory 12Q x.axfs &&
	fails 16 "--max-memory: '\''0'\'' is not a size" ls --max-memory 0 x.axfs &&
	fails 2 "--max-memory: '\''0'\'' is not a size" diff --max-memory 0 a b
'

test_expect_success 'counts: out of range, negative, not a number' '
	fails 16 "invalid level '\''0'\'': use 1 to 12 with libdeflate, 1 to 9 with zlib" \
		mkfs -l 0 tree -o x.axfs &&
	fails 16 "invalid level '\''abc'\'': use 1 to 12 with libdeflate, 1 to 9 with zlib" \
		mkfs -l abc tree -o x.axfs &&
	fails 16 "invalid level '\''13'\'': libdeflate takes 1 to 12" mkfs -l 13 tree -o x.axfs &&
	fails 16 "invalid level '\''10'\'': zlib takes 1 to 9" \
		mkfs --compressor zlib -l 10 tree -o x.axfs &&
	fails 16 "invalid number of jobs '\''1025'\'': use 1 to 1024 (0: one per CPU)" \
		mkfs -j 1025 tree -o x.axfs &&
	fails 16 "invalid number of jobs '\''-1'\'': use 1 to 1024 (0: one per CPU)" \
		mkfs -j -1 tree -o x.axfs &&
	fails 16 "invalid number of jobs '\''2000'\'': use 1 to 1024 (0: one per CPU)" \
		extract -j 2000 x.axfs d &&
	fails 16 "invalid uid '\''4294967296'\'': use a number from 0 to 4294967295" \
		mkfs --uid 4294967296 tree -o x.axfs &&
	fails 16 "invalid gid '\''x'\'': use a number from 0 to 4294967295" \
		mkfs --gid x tree -o x.axfs &&
	fails 16 "invalid --pad-byte: '\''256'\'' is not 0 to 255 (0x00 to 0xff)" \
		mkfs --pad-byte 256 tree -o x.axfs &&
	fails 16 "--max-per-check: '\''-1'\'' is not a number" fsck --max-per-check -1 x.axfs &&
	fails 16 "--min-count wants a non-negative integer, not '\''x'\''" \
		merge-profile --min-count x a.csv &&
	fails 16 "--top wants a non-negative integer, not '\''-3'\''" merge-profile --top -3 a.csv &&
	fails 16 "invalid number of threads '\''0'\'': use 1 to 1024" mount -o threads=0 x.axfs d &&
	fails 16 "invalid cache size '\''0'\'': give 1 byte to 4GiB, e.g. 64MiB" mount -o cache=0 x.axfs d
'

test_expect_success 'enums: a name that is none of the list (no guessing)' '
	fails 16 "invalid --compress-metadata '\''maybe'\'': use auto, yes or no" \
		mkfs --compress-metadata maybe tree -o x.axfs &&
	fails 16 "invalid --compress-metadata '\''Yes'\'': use auto, yes or no" \
		mkfs --compress-metadata=Yes tree -o x.axfs &&
	fails 16 "invalid --xattrs '\''drop'\'': use warn, error or ignore" \
		mkfs --xattrs drop tree -o x.axfs &&
	fails 16 "invalid compressor '\''zstd'\'': use libdeflate or zlib" \
		mkfs --compressor zstd tree -o x.axfs &&
	fails 16 "--mode wants '\''sum'\'' or '\''max'\'', not '\''avg'\''" merge-profile --mode avg a.csv
'

test_expect_success 'times: neither seconds nor a date, or before 1970' '
	fails 16 "invalid time '\''yesterday'\'': use seconds since 1970 or YYYY-MM-DD[THH:MM:SS] (UTC)" \
		mkfs --mtime yesterday tree -o x.axfs &&
	fails 16 "invalid time '\''1969-12-31'\'': use seconds since 1970 or YYYY-MM-DD[THH:MM:SS] (UTC)" \
		mkfs --mtime 1969-12-31 tree -o x.axfs
'

test_expect_success 'strings and callbacks: empty, twice, not a normalised path' '
	fails 16 "--store: no file given" extract --store "" x.axfs d &&
	fails 16 "--store: no file given" cat -s "" x.axfs /f &&
	fails 16 "--store is given twice ('\''a'\'' and '\''b'\'')" extract --store a --store b x.axfs d &&
	fails 16 "--store is given twice ('\''a'\'' and '\''b'\'')" ls -s a --store b x.axfs &&
	fails 16 "--xip '\''/a/../b'\'': '\''..'\'' components are not allowed (paths are normalised)" \
		mkfs --xip /a/../b tree -o x.axfs &&
	fails 16 "--weight wants FILE=W or FILE:W, not '\''a.csv'\''" merge-profile --weight a.csv a.csv &&
	fails 16 "an AXFS image is read-only: option '\''rw'\'' is not possible" mount -o rw x.axfs d &&
	fails 16 "option '\''store'\'' needs a value: store=FILE" mount -o ro,store x.axfs d &&
	fails 16 "option '\''ro'\'' takes no value" mount -o ro=1 x.axfs d
'

test_expect_success 'a missing value, an unknown option, the nearest long one' '
	fails 16 "option '\''--block-size'\'' needs a value" mkfs --block-size &&
	fails 16 "option '\''-b'\'' needs a value" mkfs -b &&
	fails 16 "option '\''--max-memory'\'' needs a value" ls --max-memory &&
	fails 16 "invalid option -- '\''Z'\''" mkfs -Z tree &&
	fails 16 "unrecognized option '\''--xip-budgte'\''; did you mean '\''--xip-budget'\''?" \
		mkfs --xip-budgte 1M tree -o x.axfs &&
	fails 16 "unrecognized option '\''--jion'\''; did you mean '\''--join'\''?" split --jion a b &&
	fails 16 "unrecognized option '\''--superblocx'\''; did you mean '\''--superblock'\''?" \
		dump --pages --superblocx x.axfs &&
	fails 2 "unrecognized option '\''--store'\''; did you mean '\''--store-a'\''?" diff --store x a b &&
	fails 16 "unrecognized option '\''--frobnicate'\''" fsck --frobnicate x.axfs
'

# axfs's own options come before the command, from a table as well.
test_expect_success 'axfs: its own options, before the command' '
	"$AXFS" --bogus >out 2>err
	rc=$? &&
	printf "axfs: unrecognized option '\''--bogus'\''\nTry '\''axfs --help'\'' for more information.\n" >expect &&
	test "$rc" = 16 && test_cmp expect err && ! test -s out &&
	"$AXFS" -V mkfs >out && grep -q "^axfs (axfs-tools) " out &&
	"$AXFS" mkfs -V >out && grep -q "^axfs mkfs (axfs-tools) " out &&
	"$AXFS" >out 2>err
	rc=$? &&
	test "$rc" = 16 && ! test -s out && grep -q "^  -h, --help " err
'

# mount.fuse.axfs: mount(8)'s convention (options after the operands, even
# with POSIXLY_CORRECT set), the same -o table as axfs mount.
test_expect_success 'mount.fuse.axfs: its table, its operands, its -o' '
	ln -s "$AXFS" mount.fuse.axfs &&
	{ ./mount.fuse.axfs x.axfs 2>err; test $? = 16; } &&
	grep -qx "axfs mount: no mount point given" err &&
	{ ./mount.fuse.axfs x.axfs d e 2>err; test $? = 16; } &&
	grep -qx "axfs mount: too many arguments" err &&
	{ ./mount.fuse.axfs x.axfs d -f -q 2>err; test $? = 16; } &&
	grep -qx "axfs mount: invalid option -- '\''q'\''" err &&
	{ ./mount.fuse.axfs x.axfs d -f -o cache=5GiB 2>err; test $? = 16; } &&
	grep -qx "axfs mount: invalid cache size '\''5GiB'\'': give 1 byte to 4GiB, e.g. 64MiB" err &&
	{ POSIXLY_CORRECT=1 ./mount.fuse.axfs nothere.axfs d -fnsv -t fuse.axfs -o rw,defaults,x-a=1,ro 2>err
	  test $? = 8; } &&
	grep -q "^axfs mount: cannot open .nothere.axfs." err &&
	./mount.fuse.axfs --help >help.txt &&
	for o in "-o OPTIONS" -f -n -s -v "-t TYPE" "-N NS" "-h, --help" "-V, --version"; do
		grep -q "^  $o " help.txt || { echo "not in --help: $o"; return 1; }
	done
'

# The column where the texts start, computed from the rows: the same on
# every row and continuation line; a row whose names are too wide has its
# text on the next line, in that column.  Every line within 80 columns.
help_columns() {
	awk '
		length > 80 { print "too long: " $0 }
		/^  (-[A-Za-z0-9]|    --)/ {
			rows = 1
			match($0, /^ +/)
			at = RLENGTH	# where the names start, less one
			i = index(substr($0, at + 1), "  ")
			if (i == 0)
				next	# names alone; the text on the next line
			match(substr($0, at + i), /^ +/)
			print "column " (at + i - 1 + RLENGTH)
			next
		}
		rows && /^ +[^ ]/ {
			match($0, /^ +/)
			print "column " RLENGTH
		}
		!/^ / { rows = 0 }
	'
}

test_expect_success '--help: the texts in one computed column, within 80 columns' '
	for c in mkfs dump extract fsck merge-profile split mount diff cat ls \
		 "" ./mount.fuse.axfs; do
		case $c in
		./*) $c --help ;;
		*) "$AXFS" $c --help ;;
		esac >help.txt &&
		help_columns <help.txt | sort -u >cols &&
		test "$(wc -l <cols)" = 1 &&
		grep -q "^column [0-9]*$" cols || { echo "axfs $c --help:"; cat cols; return 1; }
	done
'

test_expect_success 'nothing was written' '
	! test -e x.axfs && ! test -e d
'

test_done
