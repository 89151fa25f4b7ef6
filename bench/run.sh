#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The benchmark: axfs mkfs / fsck --deep / extract against mksquashfs,
# gensquashfs, tar2sqfs, mkfs.erofs and mkfs.cramfs on the same trees, in
# one run.  Prints Markdown: the machine and tool versions, then per tree
# a table of image builders (wall s, CPU s, peak RSS MiB, image MiB, each
# also as a ratio to `mksquashfs -comp gzip`) and a table of readers
# (axfs fsck --deep against `sqfs2tar | cat`, axfs extract against
# unsquashfs, with ratios to those).
#   bench/run.sh [-n RUNS] [TREE...]     (TREE: small, large; default both)
# Trees come from bench/make-trees.sh (BENCH_WORK=DIR to keep them
# elsewhere).  As root it installs the peer tools (squashfs-tools,
# squashfs-tools-ng, erofs-utils, util-linux's mkfs.cramfs) if missing.
# Each figure is the median of RUNS runs (default 3) of the whole process,
# timed with GNU time, after the tree was read once (the page cache is
# warm).  Extraction writes to BENCH_DEST (default /dev/shm when it is a
# writable tmpfs, else TMPDIR): the same place for every tool.
# Environment: AXFS (default build/axfs), BENCH_WORK, BENCH_DEST, JOBS.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)
AXFS=${AXFS:-$top/build/axfs}
WORK=${BENCH_WORK:-$here/work}
PATH=$PATH:/sbin:/usr/sbin
runs=3
while getopts n: opt; do
	case $opt in
	n) runs=$OPTARG ;;
	*) echo "usage: $0 [-n RUNS] [small|large ...]" >&2; exit 16 ;;
	esac
done
shift $((OPTIND - 1))
case $runs in
''|*[!0-9]*|0) echo "$0: -n wants a positive number of runs" >&2; exit 16 ;;
esac
trees=${*:-small large}
jobs=${JOBS:-$(nproc)}
[ -x "$AXFS" ] || { echo "$0: no axfs binary at $AXFS (make, or set AXFS)" >&2; exit 8; }
[ -x /usr/bin/time ] || { echo "$0: needs GNU time (/usr/bin/time, Debian package time)" >&2; exit 8; }

need() {	# need COMMAND PACKAGE: install a peer tool when missing (root)
	command -v "$1" >/dev/null 2>&1 && return 0
	if [ "$(id -u)" = 0 ]; then
		DEBIAN_FRONTEND=noninteractive apt-get install -y -q "$2" \
			>/dev/null 2>&1 || { apt-get update -q >/dev/null 2>&1 &&
			DEBIAN_FRONTEND=noninteractive apt-get install -y -q "$2" >/dev/null 2>&1; } || true
	fi
	command -v "$1" >/dev/null 2>&1 ||
		echo "$0: $1 ($2) is not installed: its rows are left out" >&2
}
need mksquashfs squashfs-tools
need gensquashfs squashfs-tools-ng
need mkfs.erofs erofs-utils
need mkfs.cramfs util-linux
have() { command -v "$1" >/dev/null 2>&1; }
sh "$here/make-trees.sh" "$WORK" >&2

dest_top=${BENCH_DEST:-}
if [ -z "$dest_top" ]; then
	dest_top=${TMPDIR:-/tmp}
	[ -d /dev/shm ] && [ -w /dev/shm ] &&
		[ "$(stat -f -c %T /dev/shm 2>/dev/null)" = tmpfs ] && dest_top=/dev/shm
fi
out=$(mktemp -d "${TMPDIR:-/tmp}/axfs-bench.XXXXXX")
dest=$(mktemp -d "$dest_top/axfs-bench-x.XXXXXX")
trap 'rm -rf "$out" "$dest"' EXIT INT TERM

# median FILE COLUMN: the median of a column of numbers (lower middle).
median() {
	awk -v c="$2" '{print $c}' "$1" | sort -g |
		awk '{v[NR] = $1} END {print v[int((NR + 1) / 2)]}'
}

# measure ROWS NAME OUTPUT CMD...: runs CMD $runs times (OUTPUT, a file
# or directory, is removed before each run; "-" for none) and appends
# "NAME wall cpu rss_kib size" to ROWS, size being OUTPUT's bytes or "-".
# A run that fails gives a row "NAME failed ...".
measure() {
	rows=$1 name=$2 o=$3
	shift 3
	: >"$out/t"
	i=0
	while [ $i -lt "$runs" ]; do
		[ "$o" = - ] || rm -rf "$o"
		if ! /usr/bin/time -f '%e %U %S %M' -a -o "$out/t" "$@" \
			>/dev/null 2>"$out/err"; then
			echo "$name failed: $(grep -v '^Command exited' "$out/err" | tail -n 1)" >>"$rows"
			return 0
		fi
		i=$((i + 1))
	done
	awk '{printf "%s %.2f %s\n", $1, $2 + $3, $4}' "$out/t" >"$out/t2"
	size=-
	[ "$o" != - ] && [ -f "$o" ] && size=$(stat -c %s "$o")
	echo "$name $(median "$out/t2" 1) $(median "$out/t2" 2) $(median "$out/t2" 3) $size" >>"$rows"
}

# table ROWS REF...: Markdown rows with ratios to the row named REF (the
# builders), or for readers to the reference named in the rows' 6th field.
table() {
	awk -v ref="${2:-}" '
	function r(a, b) { if (b > 0) return sprintf("%.2f", a / b); return "" }
	{ line[NR] = $0; w[$1] = $2; c[$1] = $3; m[$1] = $4; s[$1] = $5 }
	END {
		for (i = 1; i <= NR; i++) {
			split(line[i], f, " ")
			if (f[2] == "failed:") {
				sub(/^[^ ]* failed: /, "", line[i])
				printf "| %s | failed: %s | | | | | | | |\n", f[1], line[i]
				continue
			}
			rf = ref
			if (rf == "")
				rf = f[6]
			name = f[1]
			if (ref == "" && rf != "-")
				name = name " (vs " rf ")"
			size = ""
			if (f[5] != "-")
				size = sprintf("%.2f", f[5] / 1048576)
			rw = ""; rc = ""; rm = ""; sr = ""
			if (rf in w && w[rf] != "failed:") {
				rw = r(f[2], w[rf]); rc = r(f[3], c[rf]); rm = r(f[4], m[rf])
				if (f[5] != "-" && s[rf] != "-" && s[rf] > 0)
					sr = sprintf("%.3f", f[5] / s[rf])
			}
			printf "| %s | %.2f | %.2f | %.0f | %s | %s | %s | %s | %s |\n", name, f[2], f[3], f[4] / 1024, size, rw, rc, rm, sr
		}
	}' "$1"
}

echo "## Machine"
echo
echo "- $(nproc) CPUs ($(grep -m1 'model name' /proc/cpuinfo | sed 's/.*: //')), $(awk '/MemTotal/ {printf "%.0f GiB", $2 / 1048576}' /proc/meminfo) RAM, Linux $(uname -r)"
echo "- load average at the start: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "- $("$AXFS" --version | head -n 1); $("$AXFS" --version | sed -n 's/^compressors: //p')"
have mksquashfs && echo "- $(mksquashfs -version 2>&1 | head -n 1)"
have gensquashfs && echo "- $(gensquashfs --version 2>&1 | head -n 1)"
have mkfs.erofs && echo "- mkfs.erofs (erofs-utils $(dpkg-query -W -f '${Version}' erofs-utils 2>/dev/null || echo '?'))"
have mkfs.cramfs && echo "- $(mkfs.cramfs -V 2>&1 | head -n 1)"
echo "- $jobs threads where a tool takes a number; median of $runs runs; extraction into $(stat -f -c %T "$dest") ($dest_top)"

for t in $trees; do
	src="$WORK/$t"
	[ -d "$src" ] || { echo "$0: no tree '$src'" >&2; exit 8; }
	b="$out/build.$t" r="$out/read.$t"
	: >"$b"
	: >"$r"
	img="$out/img"
	# Read the tree once so that every tool finds it in the page cache.
	tar -C "$src" -cf - . | cat >/dev/null
	cat "$WORK/$t.tar" >/dev/null

	measure "$b" "axfs-mkfs(default)" "$img" "$AXFS" mkfs -q -j "$jobs" "$src" -o "$img"
	[ -f "$img" ] && cp "$img" "$out/axfs.img"
	measure "$b" "axfs-mkfs-b128KiB" "$img" "$AXFS" mkfs -q -j "$jobs" -b 128KiB "$src" -o "$img"
	measure "$b" "axfs-mkfs-b4KiB" "$img" "$AXFS" mkfs -q -j "$jobs" -b 4KiB "$src" -o "$img"
	measure "$b" "axfs-mkfs-zlib" "$img" "$AXFS" mkfs -q -j "$jobs" --compressor zlib "$src" -o "$img"
	measure "$b" "axfs-mkfs-b128KiB-zlib" "$img" "$AXFS" mkfs -q -j "$jobs" --compressor zlib -b 128KiB "$src" -o "$img"
	measure "$b" "axfs-mkfs(default),tar-input" "$img" "$AXFS" mkfs -q -j "$jobs" "$WORK/$t.tar" -o "$img"
	if have mksquashfs; then
		measure "$b" "mksquashfs-gzip-128K" "$img" mksquashfs "$src" "$img" -comp gzip -processors "$jobs" -noappend -quiet -no-progress
		[ -f "$img" ] && cp "$img" "$out/sq.img"
		measure "$b" "mksquashfs-gzip-4K" "$img" mksquashfs "$src" "$img" -comp gzip -b 4096 -processors "$jobs" -noappend -quiet -no-progress
	fi
	if have gensquashfs; then
		measure "$b" "gensquashfs-gzip" "$img" gensquashfs -q -f -j "$jobs" -c gzip -D "$src" "$img"
		measure "$b" "tar2sqfs-gzip,tar-input" "$img" sh -c 'exec tar2sqfs -q -f -j "$1" -c gzip "$2" <"$3"' sh "$jobs" "$img" "$WORK/$t.tar"
	fi
	if have mkfs.erofs; then
		measure "$b" "mkfs.erofs-lz4hc-4K" "$img" mkfs.erofs --quiet -zlz4hc "$img" "$src"
		measure "$b" "mkfs.erofs-lz4hc-64K" "$img" mkfs.erofs --quiet -zlz4hc -C65536 "$img" "$src"
	fi
	if have mkfs.cramfs; then
		big=$(find "$src" -type f -size +16M | wc -l)
		name=mkfs.cramfs
		[ "$big" -gt 0 ] && name="mkfs.cramfs(truncates-$big-files>16MiB)"
		measure "$b" "$name" "$img" mkfs.cramfs "$src" "$img"
	fi

	if [ -f "$out/axfs.img" ]; then
		measure "$r" "axfs-fsck--deep" - "$AXFS" fsck -q --deep "$out/axfs.img"
		measure "$r" "axfs-extract" "$dest/x" "$AXFS" extract -q -j "$jobs" "$out/axfs.img" "$dest/x"
	fi
	if [ -f "$out/sq.img" ]; then
		have sqfs2tar && measure "$r" "sqfs2tar-piped-to-cat" - sh -c 'sqfs2tar "$1" | cat >/dev/null' sh "$out/sq.img"
		measure "$r" "unsquashfs" "$dest/x" unsquashfs -q -n -processors "$jobs" -d "$dest/x" "$out/sq.img"
	fi
	rm -rf "$dest/x"
	# Readers compare with their squashfs counterpart.
	awk '{ ref = "-"
	       if ($1 == "axfs-fsck--deep") ref = "sqfs2tar-piped-to-cat"
	       if ($1 == "axfs-extract") ref = "unsquashfs"
	       print $0, ref }' "$r" >"$r.ref"

	echo
	echo "### $t: $(find "$src" | wc -l) entries, $(du -sm "$src" | cut -f1) MiB"
	echo
	echo "Building an image (ratios to mksquashfs-gzip-128K):"
	echo
	echo "| command | wall s | CPU s | peak RSS MiB | size MiB | wall ratio | CPU ratio | RSS ratio | size ratio |"
	echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|"
	table "$b" mksquashfs-gzip-128K
	echo
	echo "Reading the image built with the defaults / with mksquashfs-gzip-128K (ratios to the squashfs reader):"
	echo
	echo "| command | wall s | CPU s | peak RSS MiB | size MiB | wall ratio | CPU ratio | RSS ratio | size ratio |"
	echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|"
	table "$r.ref"
done
