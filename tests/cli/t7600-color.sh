#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Colour: on a terminal, the "axfs CMD:" of an error message is red, the
# "warning:" of a warning yellow, and in fsck's report the "IMAGE: byte N:"
# of an error red and the word "warning" yellow.  Never on a pipe or a
# file, never with NO_COLOR set to a non-empty value or TERM=dumb (or
# unset), and never in JSON.  Each stream is decided on its own.
# script(1) gives the commands a terminal.
. "$(dirname "$0")/lib.sh"

ESC=$(printf '\033')
RED="${ESC}[1;31m"
YELLOW="${ESC}[1;33m"
RESET="${ESC}[m"

# tty_run OUT CMD...: lib.sh's on_tty, whatever CMD's exit status (most of
# them fail on purpose: the status is not the point here).
tty_run() { on_tty "$@" || :; }
# Any SGR (colour) sequence in the files?
has_sgr() { grep -a -q "${ESC}\[[0-9;]*m" "$@"; }
# starts FILE TEXT: a line of FILE starts with TEXT (literally).
starts() { tr -d '\r' <"$1" | awk -v p="$2" 'index($0, p) == 1 { f = 1 } END { exit !f }'; }
# The text without colour and carriage returns (the terminal adds \r).
plain() { tr -d '\r' <"$1" | sed "s/${ESC}\[[0-9;]*m//g"; }

# An image with one warning (superblock padding, byte 244) and so one
# error (the digest no longer matches), an empty profile (a warning).
mkdir -p tree && printf 'hello\n' >tree/a &&
"$AXFS" mkfs -q tree -o ok.axfs &&
cp ok.axfs bad.axfs &&
printf '\001' | dd of=bad.axfs bs=1 seek=245 conv=notrunc 2>/dev/null &&
: >empty.csv

# Every command run: tty_run OUT, and then the same through a pipe.
run_all() {	# run_all SUFFIX RUNNER
	$2 fsck.$1 "$AXFS" fsck --no-progress bad.axfs
	$2 mkfs.$1 "$AXFS" mkfs -q missing-dir -o x.axfs
	$2 mp.$1 "$AXFS" merge-profile empty.csv -o out.csv
	$2 cmd.$1 "$AXFS" no-such-command
}
on_pipe() { out=$1; shift; { "$@" 2>&1 </dev/null; } | cat >"$out"; }

test_expect_success 'through a pipe nothing is coloured' '
	unset NO_COLOR; export TERM=xterm &&
	run_all pipe on_pipe &&
	! has_sgr fsck.pipe mkfs.pipe mp.pipe cmd.pipe &&
	grep -q "^bad.axfs: byte 244: warning: superblock padding" fsck.pipe &&
	grep -q "^bad.axfs: byte 20: SHA-1 digest .* \[digest.mismatch\]" fsck.pipe &&
	grep -q "^axfs mkfs: cannot open .missing-dir." mkfs.pipe &&
	grep -q "^axfs merge-profile: warning: .empty.csv. holds no profile entries" mp.pipe &&
	grep -q "^axfs: .no-such-command. is not an axfs command" cmd.pipe
'

test_expect_success TTY 'on a terminal errors are red and warnings yellow' '
	unset NO_COLOR; export TERM=xterm &&
	run_all tty tty_run &&
	starts fsck.tty "bad.axfs: byte 244: ${YELLOW}warning:${RESET} superblock padding" &&
	starts fsck.tty "${RED}bad.axfs: byte 20:${RESET} SHA-1 digest" &&
	starts mkfs.tty "${RED}axfs mkfs:${RESET} cannot open " &&
	starts mp.tty "axfs merge-profile: ${YELLOW}warning:${RESET} " &&
	starts cmd.tty "${RED}axfs:${RESET} " &&
	test "$(grep -a -c "${ESC}" fsck.tty)" = 2
'

test_expect_success TTY 'the coloured text is the piped text' '
	for o in fsck mkfs mp cmd; do
		plain $o.tty >$o.tty.txt &&
		cmp $o.tty.txt $o.pipe || return 1
	done
'

test_expect_success TTY 'NO_COLOR=1 on a terminal: no colour' '
	export NO_COLOR=1 TERM=xterm &&
	run_all nc tty_run &&
	! has_sgr fsck.nc mkfs.nc mp.nc cmd.nc &&
	for o in fsck mkfs mp cmd; do
		plain $o.nc | cmp - $o.pipe || return 1
	done
'

test_expect_success TTY 'an empty NO_COLOR does not disable colour' '
	export NO_COLOR= TERM=xterm &&
	tty_run e.tty "$AXFS" mkfs -q missing-dir -o x.axfs &&
	starts e.tty "${RED}axfs mkfs:${RESET} cannot open "
'

test_expect_success TTY 'TERM=dumb or no TERM on a terminal: no colour' '
	unset NO_COLOR &&
	(export TERM=dumb && run_all dumb tty_run) &&
	(unset TERM && run_all noterm tty_run) &&
	! has_sgr fsck.dumb mkfs.dumb mp.dumb cmd.dumb &&
	! has_sgr fsck.noterm mkfs.noterm mp.noterm cmd.noterm &&
	grep -a -q "^axfs mkfs: cannot open" mkfs.dumb mkfs.noterm
'

test_expect_success TTY 'each stream on its own: fsck piped, its error on the terminal' '
	unset NO_COLOR; export TERM=xterm &&
	tty_run split.tty "$AXFS" fsck --no-progress bad.axfs ">findings.txt;" \
		"$AXFS" fsck --no-progress nothing.axfs ">/dev/null" &&
	! has_sgr findings.txt &&
	cmp findings.txt fsck.pipe &&
	starts split.tty "${RED}axfs fsck:${RESET} " &&
	grep -a -q "nothing.axfs" split.tty &&
	tty_run redir.tty "$AXFS" mkfs -q missing-dir -o x.axfs "2>err.txt" &&
	! has_sgr err.txt &&
	grep -q "^axfs mkfs: cannot open" err.txt
'

test_expect_success TTY 'fsck --json on a terminal is plain JSON' '
	unset NO_COLOR; export TERM=xterm &&
	tty_run json.tty "$AXFS" fsck --json --no-progress bad.axfs &&
	! has_sgr json.tty &&
	tr -d "\\r" <json.tty >json.txt &&
	python3 -c "
import json, sys
d = json.load(open(\"json.txt\"))
sev = sorted(f[\"severity\"] for f in d[\"findings\"])
assert sev == [\"error\", \"warning\"], sev
assert d[\"errors\"] == 1 and d[\"warnings\"] == 1
"
'

test_done
