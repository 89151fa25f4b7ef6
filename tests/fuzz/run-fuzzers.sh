#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Runs libFuzzer targets built by `make fuzz` (in $FUZZ_B, default
# build-fuzz/) for FUZZ_SECONDS each:
#   FUZZ_SECONDS=600 FUZZ_JOBS=2 sh tests/fuzz/run-fuzzers.sh reader fsck ...
# Each target starts from the regression corpus (tests/fuzz/regress/T/),
# seeds made by make-seeds.sh (from real images built by $AXFS) and its own
# corpus of earlier runs ($FUZZ_B/corpus/T/, which grows).  A crash, leak,
# sanitizer report, timeout (FUZZ_TIMEOUT s per input) or out-of-memory
# (FUZZ_RSS_MB) is saved under $FUZZ_B/crashes/T/ and makes the script exit
# 1; replay one with `$FUZZ_B/fuzz_T FILE`, then minimise it into
# tests/fuzz/regress/T/ once fixed.  FUZZ_JOBS targets run at once.
set -u
top=${AXFS_TOP:-$(cd "$(dirname "$0")/../.." && pwd)}
FUZZ_B=${FUZZ_B:-build-fuzz}
case $FUZZ_B in /*) ;; *) FUZZ_B=$top/$FUZZ_B ;; esac
secs=${FUZZ_SECONDS:-60}
jobs=${FUZZ_JOBS:-1}
timeout_s=${FUZZ_TIMEOUT:-10}
rss=${FUZZ_RSS_MB:-2048}
export AXFS=${AXFS:-$top/build/axfs}
targets=${*:-reader fsck vfs profile policy archive kernel}

# The seeds are regenerated once per run (cheap), the corpus is kept.
fuzz_one() {	# TARGET: fuzz it, print one summary line, return 1 on a find
	t=$1
	bin=$FUZZ_B/fuzz_$t
	if [ ! -x "$bin" ]; then
		echo "fuzz $t: $bin is not built (make fuzz)" >&2
		return 1
	fi
	seeds=$FUZZ_B/seeds/$t
	corpus=$FUZZ_B/corpus/$t
	crashes=$FUZZ_B/crashes/$t
	log=$FUZZ_B/logs/$t.log
	rm -rf "$seeds"
	mkdir -p "$seeds" "$corpus" "$crashes" "$FUZZ_B/logs"
	sh "$top/tests/fuzz/make-seeds.sh" "$t" "$seeds" >/dev/null 2>&1 ||
		echo "fuzz $t: make-seeds.sh failed; fuzzing without its seeds" >&2
	set -- "$corpus" "$seeds"
	[ -d "$top/tests/fuzz/regress/$t" ] && set -- "$@" "$top/tests/fuzz/regress/$t"
	dict=
	[ -f "$top/tests/fuzz/$t.dict" ] && dict=-dict=$top/tests/fuzz/$t.dict
	before=$(ls "$crashes" | wc -l)
	# detect_leaks: the library frees everything, so a leak is a bug.
	ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:allocator_may_return_null=1} \
	UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1} \
	# -malloc_limit_mb: the reader's memory budget (libaxfsimg/budget.h:
	# 64 MiB + 8 x the input) of the largest input, so that a single
	# allocation past it is a finding (libaxfsimg/README.md, Memory).
	"$bin" -max_total_time="$secs" -timeout="$timeout_s" -rss_limit_mb="$rss" \
		-malloc_limit_mb=66 \
		-max_len=262144 -print_final_stats=1 $dict \
		-artifact_prefix="$crashes/" "$@" >"$log" 2>&1
	rc=$?
	after=$(ls "$crashes" | wc -l)
	runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
	cov=$(grep -o 'cov: [0-9]*' "$log" | tail -n 1)
	if [ "$rc" -ne 0 ] || [ "$after" -gt "$before" ]; then
		echo "fuzz $t: FOUND A PROBLEM after ${runs:-?} runs (exit $rc); log $log, inputs in $crashes/:"
		ls -t "$crashes" | head -n 5 | sed "s|^|  $crashes/|"
		grep -m 3 -E 'ERROR: |runtime error:|SUMMARY:' "$log" | sed 's/^/  /'
		return 1
	fi
	echo "fuzz $t: ok, ${runs:-?} runs in ${secs}s, ${cov:-cov: ?}, corpus $(ls "$corpus" | wc -l) files"
	return 0
}

status=0
set -- $targets
while [ $# -gt 0 ]; do
	pids=
	i=0
	while [ $# -gt 0 ] && [ $i -lt "$jobs" ]; do
		fuzz_one "$1" &
		pids="$pids $!"
		shift
		i=$((i + 1))
	done
	for p in $pids; do
		wait "$p" || status=1
	done
done
exit $status
