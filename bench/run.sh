#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The benchmark: axfs mkfs / fsck --deep / extract against mksquashfs,
# gensquashfs, mkfs.erofs and mkfs.cramfs on the same trees, in one run.
# Prints a Markdown table (wall s, CPU s, peak RSS MiB, image MiB, and the
# ratio of wall time and size to mksquashfs -comp gzip) per tree.
#   bench/run.sh [-n RUNS] [TREE...]     (default: small large)
# Trees come from bench/make-trees.sh.  As root it installs the peer tools
# (squashfs-tools, squashfs-tools-ng, erofs-utils) if they are missing.
# Each figure is the median of RUNS runs (default 3), timed with GNU time.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)
AXFS=${AXFS:-$top/build/axfs}
WORK=${BENCH_WORK:-$here/work}
runs=3
if [ "${1:-}" = "-n" ]; then runs=$2; shift 2; fi
trees=${*:-small large}
jobs=$(nproc)

need() {	# install a peer tool's package when missing (root only)
	command -v "$1" >/dev/null 2>&1 && return 0
	if [ "$(id -u)" = 0 ]; then
		DEBIAN_FRONTEND=noninteractive apt-get install -y -q "$2" \
			>/dev/null 2>&1 || { apt-get update -q >/dev/null 2>&1 &&
			DEBIAN_FRONTEND=noninteractive apt-get install -y -q "$2" >/dev/null 2>&1; }
	fi
	command -v "$1" >/dev/null 2>&1
}
need mksquashfs squashfs-tools || true
need gensquashfs squashfs-tools-ng || true
need mkfs.erofs erofs-utils || true
PATH=$PATH:/sbin:/usr/sbin
sh "$here/make-trees.sh" "$WORK" >/dev/null

out=$(mktemp -d "${TMPDIR:-/tmp}/axfs-bench.XXXXXX")
trap 'rm -rf "$out"' EXIT

# measure NAME IMAGE CMD...: runs CMD $runs times; records median wall,
# CPU (user+sys), max RSS and the size of IMAGE (or "-").
measure() {
	name=$1 img=$2; shift 2
	: >"$out/t"
	i=0
	while [ $i -lt "$runs" ]; do
		rm -rf "$out/x" "$out/img"
		/usr/bin/time -f '%e %U %S %M' -a -o "$out/t" "$@" \
			>/dev/null 2>"$out/err" || {
			echo "| $name | failed: $(tail -n1 "$out/err") | | | | | |"
			return 0
		}
		i=$((i + 1))
	done
	sort -n "$out/t" | awk -v n="$runs" 'NR == int((n + 1) / 2)' >"$out/med"
	read -r wall user sys rss <"$out/med"
	size=-
	[ "$img" != - ] && [ -e "$img" ] && size=$(stat -c %s "$img")
	echo "$name $wall $(awk -v u="$user" -v s="$sys" 'BEGIN {printf "%.2f", u + s}') $((rss / 1024)) $size" >>"$out/rows"
}

table() {
	ref_wall=$(awk '$1 == "mksquashfs-gzip-128K" {print $2}' "$out/rows")
	ref_size=$(awk '$1 == "mksquashfs-gzip-128K" {print $5}' "$out/rows")
	echo "| command | wall s | CPU s | peak RSS MiB | size MiB | wall / mksquashfs | size / mksquashfs |"
	echo "|---|---:|---:|---:|---:|---:|---:|"
	awk -v rw="${ref_wall:-0}" -v rs="${ref_size:-0}" '{
		size = ($5 == "-") ? "" : sprintf("%.2f", $5 / 1048576)
		wr = (rw > 0) ? sprintf("%.2f", $2 / rw) : ""
		sr = (rs > 0 && $5 != "-") ? sprintf("%.3f", $5 / rs) : ""
		printf "| %s | %.2f | %.2f | %d | %s | %s | %s |\n", $1, $2, $3, $4, size, wr, sr
	}' "$out/rows"
}

for t in $trees; do
	src="$WORK/$t"
	: >"$out/rows"
	img="$out/img"
	measure "axfs-mkfs-default" "$img" "$AXFS" mkfs -q -j "$jobs" "$src" -o "$img"
	cp "$img" "$out/axfs.img"
	measure "axfs-mkfs-b128K" "$img" "$AXFS" mkfs -q -j "$jobs" -b 128KiB "$src" -o "$img"
	measure "axfs-mkfs-b4K" "$img" "$AXFS" mkfs -q -j "$jobs" -b 4KiB "$src" -o "$img"
	measure "axfs-mkfs-tar" "$img" "$AXFS" mkfs -q -j "$jobs" "$WORK/$t.tar" -o "$img"
	if command -v mksquashfs >/dev/null; then
		measure "mksquashfs-gzip-128K" "$img" mksquashfs "$src" "$img" -comp gzip -processors "$jobs" -noappend -quiet -no-progress
		cp "$img" "$out/sq.img"
		measure "mksquashfs-gzip-4K" "$img" mksquashfs "$src" "$img" -comp gzip -b 4096 -processors "$jobs" -noappend -quiet -no-progress
	fi
	command -v gensquashfs >/dev/null &&
		measure "gensquashfs-gzip" "$img" gensquashfs -q -j "$jobs" -c gzip -D "$src" -f "$img"
	if command -v mkfs.erofs >/dev/null; then
		measure "mkfs.erofs-lz4hc-4K" "$img" mkfs.erofs -q -zlz4hc "$img" "$src"
		measure "mkfs.erofs-lz4hc-64K" "$img" mkfs.erofs -q -zlz4hc -C65536 "$img" "$src"
	fi
	command -v mkfs.cramfs >/dev/null &&
		measure "mkfs.cramfs" "$img" mkfs.cramfs "$src" "$img"
	measure "axfs-fsck-deep" - "$AXFS" fsck -q --deep "$out/axfs.img"
	measure "axfs-extract" - "$AXFS" extract -q "$out/axfs.img" "$out/x"
	if [ -e "$out/sq.img" ]; then
		command -v sqfs2tar >/dev/null &&
			measure "sqfs2tar-cat" - sh -c "sqfs2tar '$out/sq.img' | cat >/dev/null"
		measure "unsquashfs" - unsquashfs -q -n -d "$out/x" "$out/sq.img"
	fi
	echo
	echo "### $t: $(find "$src" | wc -l) entries, $(du -sm "$src" | cut -f1) MiB"
	echo
	table
done
