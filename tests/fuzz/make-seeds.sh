#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Generates a seed corpus for one fuzz target from real inputs:
#   make-seeds.sh TARGET OUTDIR
# reader/fsck: small images built by axfs mkfs from generated trees;
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
reader|fsck)
	mktree "$tmp/tree"
	for bs in 4096 65536; do
		"$AXFS" mkfs -q -b $bs "$tmp/tree" -o "$out/tree-$bs.axfs" || true
		"$AXFS" mkfs -q -b $bs --xip '/bin/*' "$tmp/tree" -o "$out/xip-$bs.axfs" || true
	done
	;;
profile)
	[ -f "$top/examples/profile.csv" ] && cp "$top/examples/profile.csv" "$out/example.csv"
	printf './bin/busybox,0,12\r\n./bin/busybox,4096,3\n# comment\n\n./a,b/c d,8192,1\n' >"$out/mixed.csv"
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
