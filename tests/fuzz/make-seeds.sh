#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Generates a seed corpus for one fuzz target from real inputs:
#   make-seeds.sh TARGET OUTDIR
# reader/fsck: small images built by axfs mkfs from generated trees;
# kernel: images of examples/rootfs and of the qemu suite's "mini" tree,
# and the hostile images kernel/tests/corrupt.py makes from the latter;
# profile: profile CSVs; policy: the example policy and variants;
# archive: small archives in several formats and filters.
set -eu
t=$1
out=$2
top=${AXFS_TOP:-$(cd "$(dirname "$0")/../.." && pwd)}
AXFS=${AXFS:-$top/build/axfs}
mkdir -p "$out"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

mktree() {	# a small tree with every kind of file the source can hold
	d=$1
	mkdir -p "$d/bin" "$d/etc/deep/er" "$d/empty"
	printf 'hello\n' >"$d/etc/motd"
	head -c 5000 /dev/urandom >"$d/bin/random"
	yes axfs | head -c 20000 >"$d/bin/text"
	ln -s ../etc/motd "$d/bin/link"
	ln "$d/etc/motd" "$d/etc/motd.hard"
	: >"$d/etc/deep/er/zero"
	mkfifo "$d/etc/fifo" 2>/dev/null || true
}

case $t in
reader|fsck|vfs)
	mktree "$tmp/tree"
	for bs in 4096 65536; do
		"$AXFS" mkfs -q -b $bs "$tmp/tree" -o "$out/tree-$bs.axfs" || true
		"$AXFS" mkfs -q -b $bs --xip '/bin/*' "$tmp/tree" -o "$out/xip-$bs.axfs" || true
	done
	# Metadata stored raw and compressed; an XIP page chosen by a
	# profile; a split point (mmap_size) inside the image, which
	# fuzz_fsck also checks as two segments.
	"$AXFS" mkfs -q --compress-metadata=no "$tmp/tree" -o "$out/meta-raw.axfs" || true
	"$AXFS" mkfs -q --compress-metadata=yes "$tmp/tree" -o "$out/meta-z.axfs" || true
	printf './bin/text,4096,7\n./bin/random,0,3\n' >"$tmp/prof.csv"
	"$AXFS" mkfs -q -b 4096 -p "$tmp/prof.csv" "$tmp/tree" -o "$out/profile.axfs" || true
	"$AXFS" mkfs -q -b 4096 --xip '/bin/*' --mmap-limit 1MiB "$tmp/tree" -o "$out/split.axfs" || true
	# Devices, owners and modes from a policy; a wide directory (byte
	# tables two bytes deep); a deep chain of directories.
	printf 'devices:\n  - { path: /dev/null, type: char, major: 1, minor: 3, mode: "0666" }\n  - { path: /dev/sda, type: block, major: 8, minor: 0 }\nfiles:\n  - { match: "/etc/**", mode: "0600", uid: 1000, gid: 1000 }\n' >"$tmp/pol.yaml"
	mkdir -p "$tmp/tree/dev"
	"$AXFS" mkfs -q -c "$tmp/pol.yaml" "$tmp/tree" -o "$out/policy.axfs" || true
	mkdir -p "$tmp/wide"
	i=0
	while [ $i -lt 300 ]; do
		printf '%d\n' $i >"$tmp/wide/f$i"
		i=$((i + 1))
	done
	"$AXFS" mkfs -q --compress-metadata=no "$tmp/wide" -o "$out/wide.axfs" || true
	d=$tmp/deep
	i=0
	while [ $i -lt 40 ]; do
		d=$d/d
		i=$((i + 1))
	done
	mkdir -p "$d" && ln -s ../../../../x "$d/up"
	"$AXFS" mkfs -q "$tmp/deep" -o "$out/deep.axfs" || true
	# One empty file: about the smallest image there is.
	mkdir -p "$tmp/one" && : >"$tmp/one/e"
	"$AXFS" mkfs -q "$tmp/one" -o "$out/one.axfs" || true
	;;
kernel)
	# examples/rootfs as mkfs can store it: block sizes, raw and zlib
	# metadata, XIP files, a split (mmap_size inside the image).
	r=$top/examples/rootfs
	"$AXFS" mkfs -q "$r" -o "$out/rootfs.axfs" || true
	"$AXFS" mkfs -q -b 4096 --compress-metadata=no --xip '/usr/bin/*' "$r" -o "$out/rootfs-xip.axfs" || true
	"$AXFS" mkfs -q -b 4096 --compress-metadata=yes --xip '/etc/*' --mmap-limit 64KiB "$r" -o "$out/rootfs-split.axfs" || true
	# The mini tree of kernel/tests/mktree.sh (the device from a policy,
	# so that no root is needed), built as kernel/tests/run.sh builds
	# it, and corrupt.py's damaged copies of it.
	m=$tmp/mini
	mkdir -p "$m/bin" "$m/sub/deeper"
	head -c 12288 /dev/urandom >"$m/bin/xipfile"
	yes 'comp comp the quick brown fox comp' | head -c 20000 >"$m/comp"
	head -c 6000 /dev/urandom >"$m/ba"
	yes 'big big the quick brown fox big' | head -c 300000 >"$m/sub/deeper/big"
	echo small >"$m/sub/small"
	ln -s ../comp "$m/sub/link"
	mkfifo "$m/fifo" 2>/dev/null || true
	printf 'devices:\n  - { path: /null, type: char, major: 1, minor: 3, mode: "0666" }\nfiles:\n  - { match: "/ba", compress: none }\n' >"$tmp/mini.yaml"
	"$AXFS" mkfs -q --compress-metadata=no -c "$tmp/mini.yaml" --xip /bin/xipfile "$m" -o "$out/mini-raw.axfs"
	"$AXFS" mkfs -q --compress-metadata=yes -b 4KiB -c "$tmp/mini.yaml" --xip /bin/xipfile "$m" -o "$out/mini-zmeta.axfs"
	python3 "$top/kernel/tests/corrupt.py" "$out/mini-raw.axfs" "$out/mini-zmeta.axfs" "$tmp/corrupt"
	for f in "$tmp"/corrupt/*.img; do
		cp "$f" "$out/corrupt-${f##*/}"
	done
	;;
profile)
	[ -f "$top/examples/profile.csv" ] && cp "$top/examples/profile.csv" "$out/example.csv"
	printf './bin/busybox,0,12\r\n./bin/busybox,4096,3\n# comment\n\n./a,b/c d,8192,1\n' >"$out/mixed.csv"
	printf '# axfs-profile order\n./bin/busybox,0,12,2\n./bin/busybox,4096,0,1\n./a,b/c d,8192,1,0\n./bin/busybox,0,1,9\n' >"$out/ordered.csv"
	;;
policy)
	[ -f "$top/examples/policy.yaml" ] && cp "$top/examples/policy.yaml" "$out/example.yaml"
	printf 'compression: { level: 9, block-size: 64KiB }\nxip: { budget: 8MiB, files: [/bin/sh] }\n' >"$out/small.yaml"
	;;
archive)
	mktree "$tmp/tree"
	rm -f "$tmp/tree/etc/fifo"
	(cd "$tmp/tree" && tar -cf "$out/gnu.tar" . && tar --format=pax -cf "$out/pax.tar" . &&
		tar -czf "$out/gz.tgz" . && tar -cJf "$out/xz.txz" .) || true
	(cd "$tmp/tree" && find . | cpio -o -H newc >"$out/newc.cpio" 2>/dev/null) || true
	;;
esac
