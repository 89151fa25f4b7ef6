#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# bench/kernel/run.sh - the AXFS driver beside squashfs and erofs, in one
# boot of Debian's kernel under qemu (TCG: emulated times; compare the rows
# with each other, not with hardware).
#
#   sh bench/kernel/run.sh [--pkgs 'PKG...' | --tree DIR] [AXFS-BINARY]
#                                                 (root: apt-get, chroot)
#
# Tree: real Debian 12 packages unpacked (busybox, bash, coreutils, libc6,
# openssl, sqlite3 and their libraries: BENCH_PKGS below), fetched once
# with apt-get download into AXFS_CACHE_TOP/bench-kernel.  --pkgs unpacks
# another package list instead (the second-tree check: bench/RESULTS.md),
# --tree measures an existing directory as it is.  The in-memory images
# must fit in 192 MiB together, so a tree of up to about 100 MiB.  Of the
# programs started cold (PROGS below), those the tree lacks are left out.
# Images of it (image size in the table):
#   axfs-64K       `axfs mkfs` defaults (64 KiB cblocks), virtio-blk
#   axfs-4K        `axfs mkfs -b 4KiB`, virtio-blk
#   axfs-64K-mem   the first image in reserved RAM, physaddr=
#   axfs-xip-mem   `axfs mkfs -p PROFILE`: the pages the program set
#                  faulted in (a profiling boot before the measured one)
#                  are XIP, in reserved RAM, physaddr=
#   sqfs-128K      mksquashfs -comp gzip -b 128K (the reference row)
#   sqfs-4K        mksquashfs -comp gzip -b 4K
#   sqfs-128K-mtd  the 128 KiB image on phram + mtdblock (memory)
#   erofs-lz4hc    mkfs.erofs -zlz4hc (the only compressors Debian 12's
#                  erofs-utils and 6.1 share are lz4 and lz4hc)
#   cramfs-xip     bench/kernel/mkcramfs-xip (what mkcramfs -X does: ELF
#                  files uncompressed, page-aligned) on a map_ram MTD over
#                  reserved RAM (xipflash.ko), -t cramfs mtd:physmap-flash.0
#   cramfs-xip-phram  the same image on phram (-t cramfs mtd:NAME): no XIP,
#                  phram's point() gives cramfs no physical address
#   cramfs-mkfs    util-linux mkfs.cramfs (no XIP), as cramfs-xip
# cramfs.ko is built from Debian's linux-source (CONFIG_CRAMFS is unset in
# Debian's kernels): bench/kernel/cramfs.sh; when it or an image cannot be
# had, the cramfs rows are left out and the line above the table says why.
# Every file system is measured in the same boot, caches dropped
# before each measurement (guest/bench.sh): cold sequential read of every
# file, 4 KiB random reads across the files of 1 MiB or more, the time to
# first output of a set of real programs started cold (chroot), page cache
# and RAM in use after that set.  The host prints a Markdown table with
# every figure also as a ratio to sqfs-128K.  BENCH_KEEP=1 keeps the work
# directory; BENCH_RAND (1000) sets the number of random reads.
set -u
export LC_ALL=C
here=$(cd "$(dirname "$0")" && pwd)
AXFS_TOP=${AXFS_TOP:-$(cd "$here/../.." && pwd)}
tests=$AXFS_TOP/kernel/tests
. "$tests/lib.sh"

die() { echo "bench/kernel: $*" >&2; exit 1; }
say() { echo "bench/kernel: $*" >&2; }

BENCH_PKGS="busybox libc6 zlib1g liblzma5 libzstd1 libtinfo6 libncursesw6 bash
coreutils libacl1 libattr1 libselinux1 libpcre2-8-0 libgmp10 libssl3 openssl
sqlite3 libsqlite3-0 libreadline8"
src_tree=
while [ $# -gt 0 ]; do
	case $1 in
	--pkgs)	[ $# -ge 2 ] || die "--pkgs needs a package list"
		BENCH_PKGS=$2; shift 2 ;;
	--tree)	[ $# -ge 2 ] && [ -d "$2" ] || die "--tree needs a directory"
		src_tree=$(cd "$2" && pwd); shift 2 ;;
	-*)	die "unknown option '$1'" ;;
	*)	break ;;
	esac
done
AXFS=${1:-${AXFS:-$AXFS_TOP/build/axfs}}
# What the guest needs beyond lib.sh's list.
# erofs needs libcrc32c, which asks the crypto API for crc32c at load.
KT_MODULES="$KT_MODULES squashfs erofs crc32c_generic"
# Reserved RAM for the in-memory images: 192 MiB at 256 MiB (of 512).
KT_PHYS_SIZE=192M
PHYS_BYTES=$((192 << 20))

[ "$(id -u)" = 0 ] || die "needs root (apt-get, the guest's chroot)"
kt_need_tools || die "$KT_SKIP"
kt_kernel || die "$KT_SKIP"
[ -x "$AXFS" ] || die "no axfs binary at $AXFS (make, or pass its path)"
for t in mksquashfs:squashfs-tools mkfs.erofs:erofs-utils; do
	command -v "${t%%:*}" >/dev/null 2>&1 || kt_install "${t#*:}" ||
		die "${t%%:*} missing and cannot be installed"
done
kt_build_module >/dev/null 2>&1 || die "cannot build axfs.ko (make -C kernel)"

kt_workdir axfs-bench-kernel "${BENCH_KEEP:-0}" say

# ---- the tree ---------------------------------------------------------------
unpack_pkgs() {	# unpack_pkgs DIR: BENCH_PKGS, downloaded once, into DIR
	cache=${AXFS_CACHE_TOP:-/var/cache/axfs-tools}/bench-kernel
	mkdir -p "$cache/debs"
	(
		flock 9
		cd "$cache/debs" || exit 1
		for p in $BENCH_PKGS; do
			ls "$p"_*.deb >/dev/null 2>&1 && continue
			apt-get download -q "$p" >/dev/null 2>&1 ||
				{ apt-get update -q >/dev/null 2>&1 && apt-get download -q "$p" >/dev/null; } ||
				exit 1
		done
	) 9>"$cache/.lock" || die "apt-get download failed"
	mkdir -p "$1"
	for p in $BENCH_PKGS; do
		dpkg-deb -x "$(ls "$cache/debs/$p"_*.deb | head -n 1)" "$1" ||
			die "cannot unpack $p"
	done
}
if [ -n "$src_tree" ]; then
	tree=$src_tree
	tree_what="$src_tree as it is"
else
	tree=$W/tree
	unpack_pkgs "$tree"
	tree_what="Debian 12: $(echo $BENCH_PKGS)"
fi
tree_files=$(find "$tree" -type f | wc -l)
tree_mib=$(du -sm "$tree" | cut -f1)

# ---- guest files --------------------------------------------------------------
stage=$W/stage
mkdir -p "$stage/tests" "$stage/data" "$stage/bin"
cc -static -O2 -Wall -o "$stage/bin/benchio" "$here/benchio.c" || die "cannot build benchio"
cc -static -O2 -pthread -o "$stage/bin/probe" "$tests/probe.c" || die "cannot build probe"
cp "$tests/guest/init" "$stage/init"
chmod 755 "$stage/init"
cp "$here/guest/bench.sh" "$here/guest/cramfs.sh" "$here/guest/manifest.sh" "$stage/tests/"
KT_INITRD=$W/initrd.cpio

boot() {	# boot LOG CONFIG QEMU-ARGS...
	local log=$1
	printf '%s\n' "$2" >"$stage/data/config"
	shift 2
	kt_initramfs "$stage" "$KT_INITRD" || die "cannot build the initramfs"
	# no_timer_check: on a loaded host the emulated timer can miss the
	# kernel's IO-APIC check, which then panics.
	kt_boot "$log" "${BENCH_TIMEOUT:-3000}" "axfsplan=bench no_timer_check" "$@" ||
		grep -q AXFS-GUEST-END "$log" || die "the guest did not finish: $log"
}

# ---- images -----------------------------------------------------------------
MTIME=1700000000
mk() { "$AXFS" mkfs -q --mtime $MTIME "$@"; }
mk "$tree" -o "$W/axfs-64K.img" || die "axfs mkfs failed"
mk -b 4KiB "$tree" -o "$W/axfs-4K.img" || die "axfs mkfs -b 4KiB failed"
sq() { mksquashfs "$tree" "$1" -comp gzip -b "$2" -noappend -quiet -no-progress \
	-all-root -mkfs-time $MTIME -all-time $MTIME >/dev/null; }
sq "$W/sqfs-128K.img" 128K || die "mksquashfs failed"
sq "$W/sqfs-4K.img" 4K || die "mksquashfs -b 4K failed"
mkfs.erofs -zlz4hc -T $MTIME --all-root --quiet "$W/erofs-lz4hc.img" "$tree" >/dev/null ||
	die "mkfs.erofs failed"
# cramfs with XIP: bench/kernel/cramfs.sh (module, images, guest checks).
. "$here/cramfs.sh"
cramfs_prepare "$stage" && cramfs_images "$tree" "$stage" ||
	say "no cramfs rows: $CRAMFS_WHY"

# The programs started cold, in this order (the guest's chroot is the mount).
PROGS='/bin/busybox echo busybox
/bin/bash --version
/usr/bin/openssl version
/usr/bin/sqlite3 -version
/bin/ls -l /usr/bin
/usr/bin/sha256sum /usr/lib/x86_64-linux-gnu/libcrypto.so.3
/usr/bin/python3.11 -c print(1)
/usr/bin/perl -e print(1)'
# Those the tree has (a --pkgs or --tree tree may lack some).
printf '%s\n' "$PROGS" | while read -r prog args; do
	[ -e "$tree$prog" ] || [ -L "$tree$prog" ] || continue
	case $args in /*) [ -e "$tree$args" ] || continue ;; esac
	echo "$prog${args:+ $args}"
done >"$stage/data/progs"
[ -s "$stage/data/progs" ] || say "the tree has none of the programs started cold"

# ---- boot 1: the profile of the program set on the compressed image ---------
say "boot 1: profile the program set ($(date -u +%T))"
boot "$W/boot1.log" "PROFILE=1
FS='axfs-64K|axfs|/dev/vda||block'" \
	-drive file="$W/axfs-64K.img",if=virtio,format=raw,readonly=on
sed -n '/^AXFS-PROFILE-BEGIN$/,/^AXFS-PROFILE-END$/p' "$W/boot1.log" | sed '1d;$d' >"$W/profile.csv"
[ -s "$W/profile.csv" ] || die "no profile collected ($W/boot1.log)"
mk -p "$W/profile.csv" "$tree" -o "$W/axfs-xip-mem.img" || die "axfs mkfs -p failed"

# ---- boot 2: everything ---------------------------------------------------------
# In-memory images one after another in the reserved RAM, 1 MiB aligned.
addr=$((KT_PHYS_BASE))
loaders=
place() {	# place IMAGE -> ADDR SIZE (rounded up to 1 MiB)
	local size=$(( ($(stat -c %s "$1") + (1 << 20) - 1) >> 20 << 20 ))
	[ $((addr + size)) -le $((KT_PHYS_BASE + PHYS_BYTES)) ] ||
		die "the in-memory images do not fit in $KT_PHYS_SIZE"
	loaders="$loaders -device loader,file=$1,addr=$(printf 0x%x $addr),force-raw=on"
	placed="$(printf 0x%x $addr) $size"
	addr=$((addr + size))
}
place "$W/axfs-xip-mem.img"; xip_at=${placed% *}
place "$W/axfs-64K.img"; gz_at=${placed% *}
place "$W/sqfs-128K.img"; sq_at=$placed
[ -n "$CRAMFS_WHY" ] ||
	{ cramfs_place "$W/cramfs-xip.img" && cx_at="${placed% *},${placed#* }" &&
	  cramfs_place "$W/cramfs-mkfs.img" && cm_at="${placed% *},${placed#* }"; }
FS="axfs-64K|axfs|/dev/vda||block
axfs-4K|axfs|/dev/vdb||block
sqfs-128K|squashfs|/dev/vdc||block
sqfs-4K|squashfs|/dev/vdd||block
erofs-lz4hc|erofs|/dev/vde||block
axfs-64K-mem|axfs|none|physaddr=$gz_at|memory
axfs-xip-mem|axfs|none|physaddr=$xip_at|memory
sqfs-128K-mtd|squashfs|phram:${sq_at% *},${sq_at#* }||memory"
[ -n "$CRAMFS_WHY" ] || FS="$FS
cramfs-xip|cramfs|physmap:$cx_at||memory
cramfs-xip-phram|cramfs|mtd-phram:$cx_at||memory
cramfs-mkfs|cramfs|physmap:$cm_at||memory"
say "boot 2: measure $(echo "$FS" | wc -l) file systems ($(date -u +%T))"
# shellcheck disable=SC2086
boot "$W/boot2.log" "FS='$FS'
RAND=${BENCH_RAND:-1000}" \
	-drive file="$W/axfs-64K.img",if=virtio,format=raw,readonly=on \
	-drive file="$W/axfs-4K.img",if=virtio,format=raw,readonly=on \
	-drive file="$W/sqfs-128K.img",if=virtio,format=raw,readonly=on \
	-drive file="$W/sqfs-4K.img",if=virtio,format=raw,readonly=on \
	-drive file="$W/erofs-lz4hc.img",if=virtio,format=raw,readonly=on \
	$loaders
say "done ($(date -u +%T))"

# ---- the table ----------------------------------------------------------------
xip_pages=$(python3 "$AXFS_TOP/tests/tools/seedread.py" xip "$W/axfs-xip-mem.img" 2>/dev/null | wc -l)
echo "Debian $KVER, $(qemu-system-x86_64 --version | head -n 1), TCG -smp 2 -m 512M."
echo "Tree: $tree_mib MiB, $tree_files files ($tree_what)."
echo "Programs started cold: $(cut -d' ' -f1 "$stage/data/progs" | xargs -r -n1 basename | xargs)."
echo "axfs-xip-mem: $xip_pages XIP pages from the profile."
if [ -n "$CRAMFS_WHY" ]; then
	echo "cramfs-xip: not measured: $CRAMFS_WHY."
else
	echo "cramfs-xip: $(cramfs_xip_pages) XIP pages (every ELF file whole)."
fi
echo
echo "$FS" | cut -d'|' -f1,5 | while IFS='|' read -r name medium; do
	img=$W/$name.img
	[ -f "$img" ] || img=$W/${name%-m*}.img
	echo "SIZE $name $medium $(stat -c %s "$img")"
done | cat - "$W/boot2.log" | awk -f "$here/table.awk"
sed -n 's/^BENCH \([^ ]*\) error /\1 not measured: /p' "$W/boot2.log"
cramfs_notes "$W/boot2.log"
exit 0
