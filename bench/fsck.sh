#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# How fast `axfs fsck --deep` reads a large image, against `unsquashfs`
# extracting the same tree (same zlib compression, same 128 KiB block) to
# tmpfs, the closest thing to /dev/null-like storage that unsquashfs can
# write to, and against `sqfs2tar | cat` (squashfs-tools-ng: every file
# read and decompressed, nothing written; the README's reference).  Also
# `axfs fsck --fast`, `--deep --no-digest`, and `axfs extract` to tmpfs
# for reference.  Peak RSS is fsck's memory: it must not grow with the
# image's data (issue 38).
#   bench/fsck.sh [-n RUNS] [TREE...]     (default: large)
# Trees come from bench/make-trees.sh.  Caches are warm (one untimed run
# first); each figure is the median of RUNS runs (default 5), timed with
# GNU time.  Prints a Markdown table per tree.  Timings never go in tests.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)
AXFS=${AXFS:-$top/build/axfs}
WORK=${BENCH_WORK:-$here/work}
runs=5
if [ "${1:-}" = "-n" ]; then runs=$2; shift 2; fi
trees=${*:-large}
jobs=$(nproc)
PATH=$PATH:/sbin:/usr/sbin

if ! command -v mksquashfs >/dev/null 2>&1 ||
   ! command -v sqfs2tar >/dev/null 2>&1; then
	if [ "$(id -u)" = 0 ]; then
		DEBIAN_FRONTEND=noninteractive apt-get install -y -q \
			squashfs-tools squashfs-tools-ng >/dev/null
	else
		echo "bench/fsck.sh: needs squashfs-tools (mksquashfs," \
		     "unsquashfs) and squashfs-tools-ng (sqfs2tar)" >&2
		exit 1
	fi
fi
sh "$here/make-trees.sh" "$WORK" >/dev/null

shm=/dev/shm
[ -d "$shm" ] && [ -w "$shm" ] || shm=${TMPDIR:-/tmp}
out=$(mktemp -d "${TMPDIR:-/tmp}/axfs-fsck-bench.XXXXXX")
dest=$(mktemp -d "$shm/axfs-fsck-bench.XXXXXX")
trap 'rm -rf "$out" "$dest"' EXIT

# measure NAME CMD...: median wall, CPU (user+sys) and peak RSS of CMD.
measure() {
	name=$1; shift
	rm -rf "$dest/x"
	"$@" >/dev/null 2>&1 || true	# warm the cache
	: >"$out/t"
	i=0
	while [ $i -lt "$runs" ]; do
		rm -rf "$dest/x"
		/usr/bin/time -f '%e %U %S %M' -a -o "$out/t" "$@" \
			>/dev/null 2>"$out/err" || {
			# fsck exits 4 on findings: that is a result, not a failure
			[ "$1" = "$AXFS" ] && [ "$2" = fsck ] || {
				echo "| $name | failed: $(tail -n1 "$out/err") | | |"
				return 0
			}
		}
		i=$((i + 1))
	done
	sort -n "$out/t" | awk -v n="$runs" 'NR == int((n + 1) / 2)' >"$out/med"
	read -r wall user sys rss <"$out/med"
	echo "$name $wall $(awk -v u="$user" -v s="$sys" 'BEGIN {printf "%.2f", u + s}') $((rss / 1024))" >>"$out/rows"
}

for t in $trees; do
	src="$WORK/$t"
	: >"$out/rows"
	"$AXFS" mkfs -q -j "$jobs" -b 128KiB "$src" -o "$out/img.axfs"
	mksquashfs "$src" "$out/img.sqfs" -comp gzip -b 131072 -noappend \
		-no-progress -quiet -processors "$jobs" >/dev/null
	"$AXFS" fsck -q "$out/img.axfs" || {
		echo "bench/fsck.sh: the $t image is not clean:" >&2
		"$AXFS" fsck "$out/img.axfs" | tail -n 5 >&2
		exit 1
	}
	measure "unsquashfs-to-tmpfs" unsquashfs -q -n -no-xattrs \
		-processors "$jobs" -d "$dest/x" "$out/img.sqfs"
	measure "sqfs2tar-piped-to-cat" sh -c 'sqfs2tar "$1" | cat >/dev/null' \
		sh "$out/img.sqfs"
	measure "axfs-fsck-deep" "$AXFS" fsck -q --deep "$out/img.axfs"
	measure "axfs-fsck-deep-no-digest" "$AXFS" fsck -q --deep --no-digest \
		"$out/img.axfs"
	measure "axfs-fsck-fast" "$AXFS" fsck -q --fast "$out/img.axfs"
	measure "axfs-extract-to-tmpfs" "$AXFS" extract "$out/img.axfs" "$dest/x"

	echo "### $t: $(find "$src" | wc -l) entries, $(du -sm "$src" | cut -f1) MiB;" \
	     "axfs image $(($(stat -c %s "$out/img.axfs") / 1048576)) MiB," \
	     "squashfs $(($(stat -c %s "$out/img.sqfs") / 1048576)) MiB; $jobs CPUs"
	echo
	ref=$(awk '$1 == "unsquashfs-to-tmpfs" {print $2}' "$out/rows")
	ref2=$(awk '$1 == "sqfs2tar-piped-to-cat" {print $2}' "$out/rows")
	echo "| command | wall s | CPU s | peak RSS MiB | wall / unsquashfs | wall / sqfs2tar \\| cat |"
	echo "|---|---:|---:|---:|---:|---:|"
	awk -v rw="${ref:-0}" -v rw2="${ref2:-0}" '{
		r = (rw > 0) ? sprintf("%.2f", $2 / rw) : ""
		r2 = (rw2 > 0) ? sprintf("%.2f", $2 / rw2) : ""
		printf "| %s | %.2f | %.2f | %d | %s | %s |\n", $1, $2, $3, $4, r, r2
	}' "$out/rows"
	echo
done
