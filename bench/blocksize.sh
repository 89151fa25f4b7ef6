#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Measures what the cblock size costs and buys: for each --block-size from
# 4 KiB to 1 MiB, `axfs mkfs` of one tree (image size, wall and CPU time)
# and the driver's price of a page fault in a compressed page, which
# inflates the whole cblock (mean time to inflate one cblock of the image,
# zlib on one core, and the mean KiB inflated per fault).
#   bench/blocksize.sh [-n RUNS] [-l LEVEL] [-j JOBS] [TREE]
# TREE: a directory or archive; default bench/work/large (bench/make-trees.sh).
# Prints a Markdown table (bench/BLOCKSIZE.md keeps the latest one).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)
AXFS=${AXFS:-$top/build/axfs}
runs=1
level=9
jobs=$(nproc)
while getopts n:l:j: opt; do
	case $opt in
	n) runs=$OPTARG ;;
	l) level=$OPTARG ;;
	j) jobs=$OPTARG ;;
	*) echo "usage: $0 [-n RUNS] [-l LEVEL] [-j JOBS] [TREE]" >&2; exit 16 ;;
	esac
done
shift $((OPTIND - 1))
tree=${1:-$here/work/large}
if [ ! -e "$tree" ]; then
	echo "$0: no tree '$tree' (run bench/make-trees.sh, or name one)" >&2
	exit 8
fi
[ -x "$AXFS" ] || { echo "$0: build axfs first ($AXFS)" >&2; exit 8; }

out=$(mktemp -d "${TMPDIR:-/tmp}/axfs-bs.XXXXXX")
trap 'rm -rf "$out"' EXIT INT TERM

# Mean inflate time and inflated KiB per cblock of IMAGE,
# reading the superblock, the cblock_offset table and the compressed
# region the way the driver does.
inflate_cost() {
	python3 - "$1" <<'EOF'
import struct, sys, time, zlib
img = open(sys.argv[1], 'rb').read()
def region(r):
    d = struct.unpack('>Q', img[96 + 8 * r:104 + 8 * r])[0]
    off, size, csize, maxi, depth = struct.unpack('>QQQQB', img[d:d + 33])
    raw = img[off:off + (csize or size)]
    return (zlib.decompress(raw) if csize else raw), depth, maxi
cbs = struct.unpack('>I', img[60:64])[0]
comp, _, _ = region(3)
cbo, depth, n = region(9)
offs = [int.from_bytes(cbo[i * depth:(i + 1) * depth], 'big') for i in range(n)]
blocks = [comp[offs[i]:offs[i + 1]] for i in range(len(offs) - 1)]
if not blocks:
    print('- -'); sys.exit()
# the fastest of 5 inflates of each cblock: other load on the machine
# only ever adds time
t = 0.0; out = 0
for b in blocks:
    best = None
    for _ in range(5):
        t0 = time.perf_counter()
        n = len(zlib.decompressobj().decompress(b, cbs))
        d = time.perf_counter() - t0
        best = d if best is None or d < best else best
    t += best; out += n
# a fault in any page of a cblock inflates all of it
print('%.1f %.1f' % (t / len(blocks) * 1e6, out / len(blocks) / 1024.0))
EOF
}

printf '| block size | image MiB | vs 64 KiB | wall s | CPU s | cblocks | inflate us/fault | KiB inflated/fault |\n'
printf '|---:|---:|---:|---:|---:|---:|---:|---:|\n'
ref=
for bs in 4096 8192 16384 32768 65536 131072 262144 524288 1048576; do
	best=
	i=0
	while [ $i -lt "$runs" ]; do
		rm -f "$out/img"
		/usr/bin/time -f '%e %U %S' -o "$out/t" "$AXFS" mkfs -q --no-progress \
			-b "$bs" -l "$level" -j "$jobs" --mtime 0 "$tree" -o "$out/img"
		read -r w u s <"$out/t"
		cpu=$(echo "$u $s" | awk '{printf "%.1f", $1 + $2}')
		if [ -z "$best" ] || awk "BEGIN{exit !($w < $best)}"; then
			best=$w bcpu=$cpu
		fi
		i=$((i + 1))
	done
	size=$(stat -c %s "$out/img")
	[ "$bs" = 65536 ] && ref=$size
	echo "$bs $size $best $bcpu $(inflate_cost "$out/img")" >>"$out/rows"
	nblk=$("$AXFS" dump --regions "$out/img" | awk '$1 == "compressed" {print $6}')
	echo "$nblk" >>"$out/nblk"
done
paste -d' ' "$out/rows" "$out/nblk" | while read -r bs size w cpu us kib nblk; do
	awk -v bs="$bs" -v size="$size" -v ref="$ref" -v w="$w" -v cpu="$cpu" \
	    -v us="$us" -v kib="$kib" -v nblk="$nblk" 'BEGIN {
		printf "| %d KiB | %.2f | %+.1f%% | %s | %s | %s | %s | %s |\n",
		    bs / 1024, size / 1048576, (size - ref) * 100 / ref, w, cpu,
		    nblk, us, kib }'
done
