#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# bench/kernel/cblock-cache.sh - the AXFS driver's cblock cache (module
# parameter cblock_cache) at 1, 2, 4 and 8 entries under two readers of
# different files, in one boot of Debian's kernel under qemu.
#
#   sh bench/kernel/cblock-cache.sh [--tree DIR] [AXFS-BINARY]     (root)
#
# The image is `axfs mkfs` with its defaults (64 KiB cblocks) of DIR, or
# of the package tree of bench/kernel/run.sh (BENCH_TREE: an unpacked
# tree, e.g. a BENCH_KEEP=1 work directory's tree/).  The two readers
# read the two largest files, 4 KiB a read: "pair" interleaves them read
# by read in one process (the same order every run, so the count of
# cblocks inflated is deterministic), "two" runs them as two processes at
# once.  Inflations come from /proc/self/mountstats (kernel/README.md);
# times are TCG wall-clock times and move with the host's load.
set -u
export LC_ALL=C
here=$(cd "$(dirname "$0")" && pwd)
AXFS_TOP=${AXFS_TOP:-$(cd "$here/../.." && pwd)}
tests=$AXFS_TOP/kernel/tests
. "$tests/lib.sh"

die() { echo "bench/kernel: $*" >&2; exit 1; }
say() { echo "bench/kernel: $*" >&2; }

tree=${BENCH_TREE:-}
if [ "${1:-}" = --tree ]; then
	[ $# -ge 2 ] && [ -d "$2" ] || die "--tree needs a directory"
	tree=$2
	shift 2
fi
[ -n "$tree" ] && [ -d "$tree" ] || die "give the tree: --tree DIR (or BENCH_TREE=DIR)"
AXFS=${1:-${AXFS:-$AXFS_TOP/build/axfs}}
SIZES=${BENCH_SIZES:-1 2 4 8}

[ "$(id -u)" = 0 ] || die "needs root"
kt_need_tools || die "$KT_SKIP"
kt_kernel || die "$KT_SKIP"
[ -x "$AXFS" ] || die "no axfs binary at $AXFS (make, or pass its path)"
kt_build_module >/dev/null 2>&1 || die "cannot build axfs.ko (make -C kernel)"
kt_workdir axfs-bench-cblock "${BENCH_KEEP:-0}" say

# The two largest files, as paths under the tree.
# shellcheck disable=SC2046
set -- $(find "$tree" -type f -printf '%s %P\n' | sort -n | tail -n 2 | cut -d' ' -f2)
[ $# = 2 ] || die "the tree needs two files (and no blanks in their names)"
"$AXFS" mkfs -q --mtime 1700000000 "$tree" -o "$W/axfs-64K.img" || die "axfs mkfs failed"

stage=$W/stage
mkdir -p "$stage/tests" "$stage/data" "$stage/bin"
cc -static -O2 -Wall -o "$stage/bin/benchio" "$here/benchio.c" || die "cannot build benchio"
cp "$tests/guest/init" "$stage/init"
chmod 755 "$stage/init"
cp "$here/guest/cblock-cache.sh" "$stage/tests/"
printf 'SIZES="%s"\nA=%s\nB=%s\n' "$SIZES" "$1" "$2" >"$stage/data/config"
KT_INITRD=$W/initrd.cpio
kt_initramfs "$stage" "$KT_INITRD" || die "cannot build the initramfs"
say "boot: cblock cache sizes $SIZES ($(date -u +%T))"
kt_boot "$W/boot.log" "${BENCH_TIMEOUT:-3000}" "axfsplan=cblock-cache" \
	-drive file="$W/axfs-64K.img",if=virtio,format=raw,readonly=on ||
	grep -q AXFS-GUEST-END "$W/boot.log" || die "the guest did not finish: $W/boot.log"

echo "Debian $KVER, TCG -smp 2 -m 512M; axfs-64K image of $(du -sm "$tree" | cut -f1) MiB;"
echo "readers: $1 ($(stat -c %s "$tree/$1") bytes) and $2 ($(stat -c %s "$tree/$2") bytes), 4 KiB reads."
echo
echo "| cblock_cache | pair: cblocks inflated | pair: ms | two processes: cblocks inflated | two processes: ms |"
echo "|---:|---:|---:|---:|---:|"
awk '$1 == "BENCH" {
	for (i = 4; i <= NF; i++) { split($i, kv, "="); v[$2, $3, kv[1]] = kv[2] }
	if (!($2 in seen)) { seen[$2] = 1; order[++n] = $2 }
}
END {
	for (i = 1; i <= n; i++) {
		s = order[i]
		printf "| %s | %s | %s | %s | %s |\n", s, v[s, "pair", "inflations"], v[s, "pair", "ms"],
			v[s, "two", "inflations"], v[s, "two", "ms"]
	}
}' "$W/boot.log"
grep 'BENCH [0-9]* [a-z]* error ' "$W/boot.log" >&2 && exit 1
exit 0
