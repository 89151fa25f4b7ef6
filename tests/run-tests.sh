#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Runs the test suites and ends with one line: "N passed, N failed".
#   tests/run-tests.sh [unit] [cli] [kernel] [fuzz]   (default: all)
# Every suite prints TAP-style "ok N - ..." / "not ok N - ..." lines
# (Check's own summary is printed too); this script counts them.
set -u
B=${B:-build}
top=$(cd "$(dirname "$0")/.." && pwd)
export AXFS_TOP="$top" AXFS_BUILD="$top/$B"
export AXFS="$top/$B/axfs"
suites=${*:-unit cli fuzz san kernel}
SAN_B=${SAN_B:-}
log=$(mktemp "${TMPDIR:-/tmp}/axfs-tests.XXXXXX")
trap 'rm -f "$log"' EXIT INT TERM
passed=0
failed=0
# python3, which the tests use, installed as root when missing.
sh "$top/scripts/install-deps.sh" --install tests || exit 1

count() {	# count ok / not ok lines of the log
	p=$(grep -c '^ok ' "$log")
	f=$(grep -c '^not ok ' "$log")
	passed=$((passed + p))
	failed=$((failed + f))
}

for s in $suites; do
	start=$(date +%s)
	: >"$log"
	case $s in
	unit)
		echo "== unit tests (Check)"
		CK_FORK=yes "$top/$B/unit-tests" >"$log" 2>&1
		rc=$?
		cat "$log"
		run=$(sed -n 's/^unit: \([0-9]*\) run, \([0-9]*\) failed$/\1/p' "$log")
		bad=$(sed -n 's/^unit: \([0-9]*\) run, \([0-9]*\) failed$/\2/p' "$log")
		if [ -z "$run" ]; then
			echo "not ok - unit-tests did not finish (exit $rc)"
			failed=$((failed + 1))
		else
			passed=$((passed + run - bad))
			failed=$((failed + bad))
		fi
		;;
	cli)
		echo "== command-line tests (tests/cli)"
		for t in "$top"/tests/cli/t[0-9]*.sh; do
			[ -e "$t" ] || continue
			: >"$log"
			sh "$t" >"$log" 2>&1
			rc=$?
			sed 's/^/  /' "$log" | grep -E '^  (ok|not ok|# )' || true
			if [ $rc -ne 0 ] && ! grep -q '^not ok ' "$log"; then
				echo "not ok - $(basename "$t") exited $rc" >>"$log"
				tail -n 20 "$log" | sed 's/^/    /'
			elif grep -q '^not ok ' "$log"; then
				echo "  --- output of $(basename "$t"):"
				tail -n 40 "$log" | sed 's/^/    /'
			fi
			count
		done
		;;
	san)
		# Unit and CLI tests again against the ASan+UBSan build; any
		# sanitizer report makes the affected test fail.
		[ -n "$SAN_B" ] && [ -x "$top/$SAN_B/axfs" ] || continue
		echo "== unit and CLI tests under ASan+UBSan ($SAN_B)"
		# Reports also go to files in $sanlog: a test that expects a
		# command to fail, or sends its stderr to a file, would hide them.
		sanlog=$(mktemp -d "${TMPDIR:-/tmp}/axfs-san.XXXXXX")
		export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=0:exitcode=99}:log_path=$sanlog/asan
		export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1:exitcode=99}:log_path=$sanlog/ubsan
		CK_FORK=yes "$top/$SAN_B/unit-tests" >"$log" 2>&1
		cat "$sanlog"/* >>"$log" 2>/dev/null; rm -f "$sanlog"/*
		run=$(sed -n 's/^unit: \([0-9]*\) run, \([0-9]*\) failed$/\1/p' "$log")
		bad=$(sed -n 's/^unit: \([0-9]*\) run, \([0-9]*\) failed$/\2/p' "$log")
		grep -E '^[0-9]+%: Checks' "$log" | sed 's/^/  san /'
		if [ -z "$run" ] || grep -q 'Sanitizer' "$log"; then
			echo "not ok - unit tests under sanitizers"; tail -n 30 "$log"
			failed=$((failed + 1))
		else
			passed=$((passed + run - bad)); failed=$((failed + bad))
		fi
		for t in "$top"/tests/cli/t[0-9]*.sh; do
			[ -e "$t" ] || continue
			: >"$log"
			AXFS="$top/$SAN_B/axfs" AXFS_SANITIZED=1 sh "$t" >"$log" 2>&1
			rc=$?
			cat "$sanlog"/* >>"$log" 2>/dev/null; rm -f "$sanlog"/*
			if grep -q 'Sanitizer\|runtime error:' "$log"; then
				echo "not ok - $(basename "$t") under sanitizers"
				grep -B2 -A20 'Sanitizer\|runtime error:' "$log" | head -n 40
				failed=$((failed + 1))
			elif [ $rc -ne 0 ] || grep -q '^not ok ' "$log"; then
				echo "not ok - $(basename "$t") under sanitizers (exit $rc)"
				grep '^not ok' "$log" | head
				failed=$((failed + 1))
			else
				echo "ok - $(basename "$t") under sanitizers"
				passed=$((passed + 1))
			fi
		done
		rm -rf "$sanlog"
		;;
	fuzz)
		[ -x "$top/tests/fuzz/replay.sh" ] || continue
		echo "== fuzz regression corpus"
		sh "$top/tests/fuzz/replay.sh" >"$log" 2>&1
		cat "$log" | grep -E '^(ok|not ok|#)' ; count
		;;
	kernel)
		[ -f "$top/kernel/tests/run.sh" ] || continue
		echo "== kernel module under qemu"
		sh "$top/kernel/tests/run.sh" >"$log" 2>&1
		rc=$?
		grep -E '^(ok|not ok|#)' "$log"
		if [ $rc -ne 0 ] && ! grep -q '^not ok ' "$log"; then
			echo "not ok - kernel tests exited $rc" >>"$log"
			tail -n 30 "$log"
		fi
		count
		;;
	*)
		echo "unknown suite '$s'" >&2
		exit 2
		;;
	esac
	# How long each suite took: make check has a time budget.
	echo "# suite $s took $(($(date +%s) - start)) s"
done

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
