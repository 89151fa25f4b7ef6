#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Run by `make check` (tests/run-tests.sh fuzz):
#  1. replays the regression corpus (tests/fuzz/regress/TARGET/) and the
#     seed corpus generated from real test images (make-seeds.sh) through
#     every fuzz target's standalone driver: the ASan+UBSan build in
#     $SAN_B/fuzz/ when there is one, else $AXFS_BUILD/fuzz/;
#  2. when the libFuzzer builds exist ($AXFS_BUILD-fuzz/fuzz_TARGET, made
#     by `make check` if clang can link libFuzzer), fuzzes each target for
#     FUZZ_CHECK_SECONDS (default 5; 0 turns it off).  A finding is saved
#     under $AXFS_BUILD-fuzz/crashes/TARGET/ and fails the run.
set -u
top=${AXFS_TOP:-$(cd "$(dirname "$0")/../.." && pwd)}
B=${AXFS_BUILD:-$top/build}
secs=${FUZZ_CHECK_SECONDS:-5}
drvdir=$B/fuzz
san=""
if [ -n "${SAN_B:-}" ] && [ -d "$top/$SAN_B/fuzz" ]; then
	drvdir=$top/$SAN_B/fuzz
	san=" under ASan+UBSan"
fi
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:allocator_may_return_null=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
n=0
targets=""
for drv in "$drvdir"/replay_*; do
	[ -x "$drv" ] || continue
	t=${drv##*/replay_}
	targets="$targets $t"
	n=$((n + 1))
	seeds="$top/tests/fuzz/regress/$t"
	gen="$B/fuzz/seeds/$t"
	if [ -x "$top/tests/fuzz/make-seeds.sh" ] && [ ! -d "$gen" ]; then
		sh "$top/tests/fuzz/make-seeds.sh" "$t" "$gen" >/dev/null 2>&1 || true
	fi
	dirs=""
	[ -d "$seeds" ] && dirs="$seeds"
	[ -d "$gen" ] && dirs="$dirs $gen"
	if [ -z "$dirs" ]; then
		echo "ok $n # skip $t: no corpus"
		continue
	fi
	# The reader's memory budget (libaxfsimg/budget.h: 64 MiB + 8 x the
	# input) of the largest input is the most one allocation may take:
	# past it ASan stops the replay (allocator_may_return_null=0), so an
	# allocation over the budget is a finding, not a quiet NULL.
	biggest=$(find $dirs -type f -printf '%s\n' | sort -n | tail -n 1)
	budget_mb=$((64 + (8 * ${biggest:-0} + 1048575) / 1048576))
	if out=$(ASAN_OPTIONS="$ASAN_OPTIONS:max_allocation_size_mb=$budget_mb:allocator_may_return_null=0" \
		timeout 300 "$drv" $dirs 2>&1); then
		echo "ok $n - fuzz corpus replays clean$san: $t"
	else
		echo "not ok $n - fuzz corpus replay$san: $t"
		echo "$out" | tail -n 30 | sed 's/^/# /'
	fi
done

# Brief libFuzzer runs: new inputs go to a scratch corpus, thrown away.
fb=$B-fuzz
for t in $targets; do
	n=$((n + 1))
	if [ "$secs" = 0 ]; then
		echo "ok $n # skip fuzzing $t: FUZZ_CHECK_SECONDS=0"
		continue
	fi
	if [ ! -x "$fb/fuzz_$t" ]; then
		echo "ok $n # skip fuzzing $t: no libFuzzer build (clang with libclang-rt-dev needed)"
		continue
	fi
	scratch=$(mktemp -d "${TMPDIR:-/tmp}/axfs-fuzz.XXXXXX") || exit 1
	mkdir -p "$fb/crashes/$t"
	dict=
	[ -f "$top/tests/fuzz/$t.dict" ] && dict=-dict=$top/tests/fuzz/$t.dict
	set -- "$scratch"
	[ -d "$top/tests/fuzz/regress/$t" ] && set -- "$@" "$top/tests/fuzz/regress/$t"
	[ -d "$B/fuzz/seeds/$t" ] && set -- "$@" "$B/fuzz/seeds/$t"
	# -malloc_limit_mb: the reader's budget for the largest input
	# (64 MiB + 8 x 256 KiB): one allocation past it is a finding.
	if "$fb/fuzz_$t" -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 \
		-malloc_limit_mb=66 \
		-max_len=262144 $dict -artifact_prefix="$fb/crashes/$t/" \
		"$@" >"$scratch.log" 2>&1; then
		echo "ok $n - fuzzing $t for ${secs}s finds nothing"
	else
		echo "not ok $n - fuzzing $t found a problem (input saved in $fb/crashes/$t/)"
		grep -E 'ERROR: |runtime error:|SUMMARY:|Test unit written' "$scratch.log" |
			head -n 10 | sed 's/^/# /'
	fi
	rm -rf "$scratch" "$scratch.log"
done
