#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# measure-xip.sh - what execute-in-place buys, measured in Debian's kernel
# under qemu (software emulation: times are emulated times; compare the
# rows with each other, not with real hardware).
#
#   sh kernel/tools/measure-xip.sh [-n RUNS] [AXFS-BINARY]     (RUNS: 5)
#   sh kernel/tools/measure-xip.sh -p FILE [AXFS-BINARY]
#       only boot 1: the profile of the workload on the compressed image
#       (as /proc/axfs/volume0 prints it) is written to FILE, with a
#       comment that says how it was recorded (examples/profile.csv).
#
# One tree: a static busybox in /bin.  Three images of it, each loaded by
# qemu into reserved memory and mounted with physaddr= (NOR-like memory):
#   compressed   `axfs mkfs` defaults: every page compressed
#   profiled     `axfs mkfs -p PROFILE`: the pages the workload faulted
#                in on the compressed image are XIP, the rest compressed
#   all-xip      `axfs mkfs --xip /bin/*`: the whole binary XIP
# For each, RUNS cold runs (caches dropped) of tests/guest/workload.sh with
# busybox and its shell exec'd from the image, reporting the page cache
# it used (growth of Cached), the RAM it used (drop of free memory,
# MemFree plus the per-CPU free lists), the time to its first line of
# output and to its end,
# each the median of the runs.  Results go to stdout as a Markdown table.
set -u
here=$(cd "$(dirname "$0")" && pwd)
AXFS_TOP=${AXFS_TOP:-$(cd "$here/../.." && pwd)}
tests=$AXFS_TOP/kernel/tests
. "$tests/lib.sh"

RUNS=5
PROFILE_OUT=
while [ $# -gt 1 ]; do
	case $1 in
	-n) RUNS=$2 ;;
	-p) PROFILE_OUT=$2 RUNS=1 ;;
	*) break ;;
	esac
	shift 2
done
AXFS=${1:-${AXFS:-$AXFS_TOP/build/axfs}}
die() { echo "measure-xip: $*" >&2; exit 1; }

kt_need_tools || die "$KT_SKIP"
kt_kernel || die "$KT_SKIP"
[ -x "$AXFS" ] || die "no axfs binary at $AXFS (make, or pass its path)"
kt_build_module >/dev/null 2>&1 || die "cannot build axfs.ko (make -C kernel)"

W=$(mktemp -d "${TMPDIR:-/tmp}/axfs-measure.XXXXXX")
trap 'rm -rf "$W"' EXIT
stage=$W/stage
mkdir -p "$W/tree/bin" "$stage/tests" "$stage/data" "$stage/bin"
cp "$KT_BUSYBOX" "$W/tree/bin/busybox"
cc -static -O2 -pthread -o "$stage/bin/probe" "$tests/probe.c" || die "cannot build probe"
cp "$tests/guest/init" "$stage/init"
cp "$tests/guest/lib.sh" "$tests/guest/listing.sh" "$tests/guest/workload.sh" \
	"$tests/guest/measure.sh" "$stage/tests/"
chmod 755 "$stage/init"

mk() { "$AXFS" mkfs -q --mtime 1700000000 "$@"; }
boot() {	# boot LOG IMAGES-CONFIG LOADER-ARGS...
	local log=$1
	printf '%s\n' "$2" >"$stage/data/config"
	shift 2
	KT_INITRD=$W/initrd.cpio
	kt_initramfs "$stage" "$KT_INITRD" || die "cannot build the initramfs"
	kt_boot "$log" 600 "axfsplan=measure" "$@" ||
		grep -q AXFS-GUEST-END "$log" || die "the guest did not finish: $log"
}

mk "$W/tree" -o "$W/compressed.img" || die "mkfs failed"
echo "measure-xip: boot 1: profile and measure the compressed image" >&2
boot "$W/boot1.log" "IMAGES=\"compressed@0x10000000\"
PROFILE=1
RUNS=$RUNS" -device loader,file="$W/compressed.img",addr=0x10000000,force-raw=on
sed -n '/^AXFS-PROFILE-BEGIN$/,/^AXFS-PROFILE-END$/p' "$W/boot1.log" | sed '1d;$d' >"$W/profile.csv"
[ -s "$W/profile.csv" ] || die "no profile collected"
if [ -n "$PROFILE_OUT" ]; then
	bb=$(dpkg-query -S "$(readlink -f "$KT_BUSYBOX")" 2>/dev/null | cut -d: -f1)
	bbv=$(dpkg-query -W -f '${Version}' "${bb:-busybox-static}" 2>/dev/null)
	{
		echo "# SPDX-License-Identifier: GPL-2.0-or-later"
		echo "# Recorded, not written by hand: sh kernel/tools/measure-xip.sh -p FILE"
		echo "# on $(date -u +%Y-%m-%d)."
		echo "# booted Debian's kernel $KVER under qemu (TCG), mounted an image of"
		echo "# a tree holding only /bin/busybox with physaddr=, switched profiling"
		echo "# on (echo on >/proc/axfs/volume0), ran kernel/tests/guest/workload.sh"
		echo "# (every command a new exec of the image's busybox) and copied"
		echo "# /proc/axfs/volume0: \"path,offset,count\", one line per page"
		echo "# faulted in through mmap."
		echo "# The busybox: this machine's $KT_BUSYBOX, ${bb:-busybox-static} $bbv,"
		echo "# sha256 $(sha256sum <"$KT_BUSYBOX" | cut -d' ' -f1)."
		echo "# Another busybox has other pages at these offsets: the profile then"
		echo "# still names real pages, but not the ones this workload used."
		cat "$W/profile.csv"
	} >"$PROFILE_OUT.tmp" && mv "$PROFILE_OUT.tmp" "$PROFILE_OUT" ||
		die "cannot write $PROFILE_OUT"
	echo "measure-xip: profile written to $PROFILE_OUT ($(wc -l <"$W/profile.csv") pages)" >&2
	exit 0
fi
mk -p "$W/profile.csv" "$W/tree" -o "$W/profiled.img" || die "mkfs -p failed"
mk --xip '/bin/*' "$W/tree" -o "$W/all-xip.img" || die "mkfs --xip failed"
echo "measure-xip: boot 2: measure the profiled and all-XIP images" >&2
boot "$W/boot2.log" "IMAGES=\"profiled@0x10000000 all-xip@0x12000000\"
RUNS=$RUNS" \
	-device loader,file="$W/profiled.img",addr=0x10000000,force-raw=on \
	-device loader,file="$W/all-xip.img",addr=0x12000000,force-raw=on

pages=$(( ($(stat -c %s "$W/tree/bin/busybox") + 4095) / 4096 ))
echo "busybox: $pages pages; workload: tests/guest/workload.sh (11 commands, each a new exec of busybox); median of $RUNS cold runs."
echo "Debian $KVER under qemu TCG (-smp 2, -m 512M); images in reserved RAM, mounted with physaddr=."
echo
echo "| image | image size | XIP pages of busybox | page cache used | RAM used | first output | whole workload |"
echo "|---|---:|---:|---:|---:|---:|---:|"
for name in compressed profiled all-xip; do
	xp=$(python3 "$AXFS_TOP/tests/tools/seedread.py" xip "$W/$name.img" | grep -c '^/bin/busybox,')
	cat "$W/boot1.log" "$W/boot2.log" | grep "^AXFS-MEASURE $name " | awk -v name="$name" \
		-v size="$(stat -c %s "$W/$name.img")" -v xp="$xp" -v pages="$pages" '
	function median(a, n,  i, j, t) {	# insertion sort, then the middle
		for (i = 2; i <= n; i++)
			for (j = i; j > 1 && a[j - 1] > a[j]; j--) { t = a[j]; a[j] = a[j - 1]; a[j - 1] = t }
		return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
	}
	{
		n++
		for (i = 1; i <= NF; i++) {
			split($i, kv, "=")
			if (kv[1] == "first_ms") f[n] = kv[2]
			if (kv[1] == "total_ms") t[n] = kv[2]
			if ($i == "before:") side = "b"
			if ($i == "after:") side = "a"
			if (kv[1] == "Cached") c[side] = kv[2]
			if (kv[1] == "MemFree") m[side] += kv[2]
			if (kv[1] == "PcpFree") m[side] += kv[2]
		}
		dc[n] = c["a"] - c["b"]; dm[n] = m["b"] - m["a"]; m["a"] = m["b"] = 0
	}
	END {
		if (!n) { printf "| %s | | | (no measurement) | | | |\n", name; exit }
		printf "| %s | %d KiB | %d of %d | %d KiB | %d KiB | %.0f ms | %.0f ms |\n",
			name, size / 1024, xp, pages, median(dc, n), median(dm, n),
			median(f, n), median(t, n)
	}'
done
