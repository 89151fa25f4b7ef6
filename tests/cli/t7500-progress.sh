#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The progress bars of mkfs, extract and fsck: drawn on a terminal with
# bytes done, rate and ETA (and files for mkfs and extract), never on a
# pipe or with CI set, and --progress / --no-progress override both.
# script(1) gives the commands a terminal.
. "$(dirname "$0")/lib.sh"

mkdir -p tree/bin tree/usr/share &&
cp "$AXFS" tree/bin/prog &&
seq 1 200000 >tree/usr/share/numbers &&
printf 'x\n' >tree/small
"$AXFS" mkfs -q tree -o ref.axfs

bar() { tr '\r' '\n' <"$1" | grep -a -- "$2" | tail -n 1; }

test_expect_success TTY 'mkfs draws files, bytes, rate and ETA on a terminal' '
	(unset CI; on_tty mkfs.tty "$AXFS" mkfs tree -o a.axfs) &&
	cmp a.axfs ref.axfs &&
	bar mkfs.tty "axfs mkfs: 100%" >line &&
	grep -q "files \([0-9]*\)/\1, [0-9.]*/[0-9.]* MiB, [0-9.]* MiB/s, ETA [0-9]*:[0-9][0-9]" line
'

test_expect_success TTY 'extract draws files, bytes, rate and ETA on a terminal' '
	(unset CI; on_tty extract.tty "$AXFS" extract ref.axfs out) &&
	diff -r tree out &&
	bar extract.tty "axfs extract: 100%" >line &&
	grep -q "files \([0-9]*\)/\1, [0-9.]*/[0-9.]* MiB, [0-9.]* MiB/s, ETA [0-9]*:[0-9][0-9]" line
'

test_expect_success TTY 'fsck draws bytes, rate and ETA on a terminal' '
	(unset CI; on_tty fsck.tty "$AXFS" fsck ref.axfs) &&
	bar fsck.tty "checking file data: 100%" >line &&
	grep -q "[0-9.]*/[0-9.]* MiB, [0-9.]* MiB/s, ETA [0-9]*:[0-9][0-9]" line &&
	grep -q "ref.axfs: clean" fsck.tty
'

test_expect_success TTY 'CI=true or --no-progress: no bar on a terminal' '
	(export CI=true; on_tty ci1.tty "$AXFS" mkfs tree -o b.axfs &&
	 on_tty ci2.tty "$AXFS" extract ref.axfs out-ci &&
	 on_tty ci3.tty "$AXFS" fsck ref.axfs) &&
	(unset CI; on_tty np1.tty "$AXFS" mkfs --no-progress tree -o c.axfs &&
	 on_tty np2.tty "$AXFS" extract --no-progress ref.axfs out-np &&
	 on_tty np3.tty "$AXFS" fsck --no-progress ref.axfs) &&
	! grep -a "MiB/s" ci1.tty ci2.tty ci3.tty np1.tty np2.tty np3.tty &&
	grep -q "ref.axfs: clean" ci3.tty
'

test_expect_success 'no bar on a pipe; --progress forces it' '
	(unset CI
	 "$AXFS" mkfs tree -o d.axfs 2>p1 | cat &&
	 "$AXFS" extract ref.axfs out-p 2>p2 | cat &&
	 "$AXFS" fsck ref.axfs 2>p3 | cat &&
	 "$AXFS" mkfs --progress tree -o e.axfs 2>f1 | cat &&
	 "$AXFS" extract --progress ref.axfs out-f 2>f2 | cat &&
	 "$AXFS" fsck --progress ref.axfs 2>f3 | cat) &&
	! grep -a "MiB/s" p1 p2 p3 &&
	! tr -d "\\n" <p1 | grep -q "$(printf "\\r")" &&
	for f in f1 f2 f3; do grep -q -a "MiB/s, ETA" $f || { echo "no bar in $f"; return 1; }; done
'

test_done
