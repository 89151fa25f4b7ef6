#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# bench/kernel/run.sh - the AXFS driver beside squashfs and erofs, and beside
# erofs with DAX (an execute-in-place peer), in one boot of Debian's kernel
# under qemu (TCG: emulated times; compare the rows with each other, not
# with hardware).
#
#   sh bench/kernel/run.sh [--icount] [--boots N]
#                          [--pkgs 'PKG...' | --pkgs scripting | --tree DIR]
#                          [AXFS-BINARY]                (root: apt-get, chroot)
#
# Timing.  By default the guest's clock is wall-clock time (two vCPUs on
# multi-threaded TCG), which moves with the host's load: one measured
# boot, its timings labelled wall-clock.  --icount makes the clock
# deterministic: one vCPU and `-icount shift=N,sleep=off` (N from
# BENCH_ICOUNT_SHIFT, default 2: kernel/tests/lib.sh's KT_ICOUNT), so that
# virtual time counts the guest's instructions (4 ns each, a 250 MIPS
# CPU), not the host's load; then 3 measured boots (--boots N to change),
# BENCH_JOBS (default: the host's CPUs) of them at a time, since each
# uses one host CPU and their clocks do not depend on each other.  The
# table gives each figure's median, its spread over the boots, and its
# ratio to sqfs-128K, marked as a result only when the boots agree within
# +-10 % (table.awk).  The images and the profiling boot are made once.
#
# Tree: real Debian 12 packages unpacked (busybox, bash, coreutils, libc6,
# openssl, sqlite3 and their libraries: BENCH_PKGS below), fetched once
# with apt-get download into AXFS_CACHE_TOP/bench-kernel.  --pkgs unpacks
# another package list instead; --pkgs scripting, the second tree of
# bench/RESULTS.md (BENCH_PKGS_SCRIPTING: Python and Perl, tzdata),
# --tree measures an existing directory as it is.  The in-memory images
# must fit in 192 MiB together, so a tree of up to about 100 MiB.  Of the
# programs started cold (PROGS below), those the tree lacks are left out.
# Images of it (image size in the table):
#   axfs-64K       `axfs mkfs` defaults (64 KiB cblocks), virtio-blk
#   axfs-4K        `axfs mkfs -b 4KiB`, virtio-blk
#   axfs-64K-mem   the first image in reserved RAM, physaddr=
#   axfs-xip-mem   `axfs mkfs -p PROFILE`: the pages the program set used
#                  (a profiling boot before the measured ones, with
#                  /proc/axfs/volume0 in "all" mode: every fault and the
#                  pages read() copies; BENCH_PROFILE=on: faults of
#                  read-only mappings only, as the 2008 driver counted)
#                  are XIP, in reserved RAM, physaddr=
#   sqfs-128K      mksquashfs -comp gzip -b 128K (the reference row)
#   sqfs-4K        mksquashfs -comp gzip -b 4K
#   sqfs-128K-mtd  the 128 KiB image on phram + mtdblock (memory)
#   erofs-lz4hc    mkfs.erofs -zlz4hc (the only compressors Debian 12's
#                  erofs-utils and 6.1 share are lz4 and lz4hc)
#   erofs-dax      mkfs.erofs uncompressed (-E noinline_data: no file
#                  tails in the metadata, which DAX cannot map), on a
#                  legacy pmem device (memmap=SIZE!ADDR above the guest's
#                  512 MiB of RAM, nd_e820 + nd_pmem), mounted -o
#                  dax=always: every file page mapped in place.  The guest
#                  checks that DAX is in effect (/proc/mounts, pagemap: the
#                  programs' pages lie in the pmem range, no page cache for
#                  them); run.sh fails if not.
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
# and RAM in use after that set (a second run of it, after a drop: the
# difference from before it, with every inode and dentry of the mount
# already in memory, guest/bench.sh says why).  The
# host prints a Markdown table with every figure also as a ratio to
# sqfs-128K, then the acceptance checks of
# issue 29, and the files whose pages the axfs-xip-mem row kept in the
# page cache.  BENCH_KEEP=1 keeps the work directory; BENCH_RAND (1000)
# sets the number of random reads; BENCH_ROWS=REGEX measures only the
# rows whose names it matches (and sqfs-128K, the reference), for quicker
# runs while working on one row.
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
# --pkgs scripting: the second tree, a small root file system with the
# Python and Perl interpreters (thousands of small library files beside
# the large shared objects of the first tree; bench/RESULTS.md).
BENCH_PKGS_SCRIPTING="busybox libc6 zlib1g bash libtinfo6 coreutils libacl1
libattr1 libselinux1 libpcre2-8-0 libgmp10 python3.11-minimal
libpython3.11-minimal libpython3.11-stdlib libexpat1 libffi8 libbz2-1.0
liblzma5 libuuid1 perl-base libcrypt1 libstdc++6 libgcc-s1 tzdata"
src_tree=
icount=
boots=
while [ $# -gt 0 ]; do
	case $1 in
	--icount) icount=${BENCH_ICOUNT_SHIFT:-2}; shift ;;
	--boots) case ${2:-} in [1-9]|[1-9][0-9]) boots=$2 ;;
		*) die "--boots needs a number of boots (1 to 99)" ;; esac
		shift 2 ;;
	--pkgs)	[ $# -ge 2 ] || die "--pkgs needs a package list"
		BENCH_PKGS=$2
		[ "$2" != scripting ] || BENCH_PKGS=$BENCH_PKGS_SCRIPTING
		shift 2 ;;
	--tree)	[ $# -ge 2 ] && [ -d "$2" ] || die "--tree needs a directory"
		src_tree=$(cd "$2" && pwd); shift 2 ;;
	-*)	die "unknown option '$1'" ;;
	*)	break ;;
	esac
done
AXFS=${1:-${AXFS:-$AXFS_TOP/build/axfs}}
if [ -n "$icount" ]; then
	# shellcheck disable=SC2034	# read by kt_boot (kernel/tests/lib.sh)
	KT_ICOUNT=$icount
	boots=${boots:-3}
	jobs=${BENCH_JOBS:-$(nproc)}
	CLOCK="icount (deterministic): one vCPU, -icount shift=$icount,sleep=off, virtual time = guest instructions x $((1 << icount)) ns; an idle vCPU jumps to its next timer"
	cpus="-smp 1 -icount shift=$icount,sleep=off"
else
	boots=${boots:-1}
	jobs=1		# wall-clock boots side by side would load each other
	CLOCK="wall-clock: the guest's clock, -smp 2 on multi-threaded TCG, on a shared host (moves with its load)"
	cpus="-smp 2"
fi
# What the guest needs beyond lib.sh's list.
# erofs needs libcrc32c, which asks the crypto API for crc32c at load.
# nd_e820 and nd_pmem: the legacy pmem device of erofs-dax.
KT_MODULES="$KT_MODULES squashfs erofs crc32c_generic nd_e820 nd_pmem"
# Reserved RAM for the in-memory images: 192 MiB at 256 MiB (of 512).
KT_PHYS_SIZE=192M
PHYS_BYTES=$((192 << 20))
# The pmem ranges (erofs-dax, and the block devices in icount mode): from
# 512 MiB up (pmem_add), the 64 MiB of RAM between the reserved images and
# there reserved as well; the firmware's tables at the top of RAM stay out
# of them.
PMEM_BASE=0x20000000

t0=$(date +%s)
[ "$(id -u)" = 0 ] || die "needs root (apt-get, the guest's chroot)"
kt_need_tools || die "$KT_SKIP"
kt_kernel || die "$KT_SKIP"
[ -x "$AXFS" ] || die "no axfs binary at $AXFS (make, or pass its path)"
sh "$AXFS_TOP/scripts/install-deps.sh" --install bench >&2 ||
	die "mksquashfs or mkfs.erofs missing and cannot be installed"
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
	# The mount point of the guest's /dev, as in any root file system
	# (perl -e opens /dev/null): guest/bench.sh binds /dev there.
	mkdir -p "$1/dev"
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

# no_timer_check: on a loaded host the emulated timer can miss the
# kernel's IO-APIC check, which then panics.  nokaslr: the decompressor
# avoids at most 4 memmap= ranges when it places the kernel at random, and
# the pmem layout below has more: the kernel landed on an image.
BOOT_APPEND="axfsplan=bench no_timer_check nokaslr"
BOOT_APPEND="$BOOT_APPEND memmap=$(( (PMEM_BASE - KT_PHYS_BASE - PHYS_BYTES) >> 20 ))M\$$(printf 0x%x $((KT_PHYS_BASE + PHYS_BYTES)))"
boot_config() {	# boot_config CONFIG: the guest's /data/config, its initramfs
	printf '%s\n' "$1" >"$stage/data/config"
	kt_initramfs "$stage" "$KT_INITRD" || die "cannot build the initramfs"
}
boot() {	# boot LOG QEMU-ARGS...: one boot of the initramfs as configured
	local log=$1
	shift
	kt_boot "$log" "${BENCH_TIMEOUT:-3000}" "$BOOT_APPEND" "$@" ||
		grep -q AXFS-GUEST-END "$log" || die "the guest did not finish: $log"
}
# measured_boots QEMU-ARGS...: $boots boots into boot2-I.log, $jobs at a
# time (icount: each boot's clock is its own, so they may share the host).
measured_boots() {
	local i=1 j
	while [ $i -le $boots ]; do
		j=0
		while [ $j -lt $jobs ] && [ $i -le $boots ]; do
			say "measured boot $i of $boots ($(date -u +%T))"
			( boot "$W/boot2-$i.log" "$@" ) &
			i=$((i + 1))
			j=$((j + 1))
		done
		wait
	done
	i=1
	while [ $i -le $boots ]; do
		grep -q AXFS-GUEST-END "$W/boot2-$i.log" 2>/dev/null ||
			die "measured boot $i did not finish: $W/boot2-$i.log"
		i=$((i + 1))
	done
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
# Uncompressed, 4 KiB blocks (the page size) and no file tails inlined in
# the metadata (-E noinline_data): 6.1's erofs maps only files stored
# flat and plain with DAX, the others go through the page cache.
mkfs.erofs -E noinline_data -T $MTIME --all-root --quiet "$W/erofs-dax.img" "$tree" >/dev/null ||
	die "mkfs.erofs (uncompressed) failed"
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
t_start=$(date +%s)
say "boot 1: profile the program set ($(date -u +%T))"
boot_config "PROFILE=${BENCH_PROFILE:-all}
FS='axfs-64K|axfs|/dev/vda||block'"
boot "$W/boot1.log" \
	-drive file="$W/axfs-64K.img",if=virtio,format=raw,readonly=on
sed -n '/^AXFS-PROFILE-BEGIN$/,/^AXFS-PROFILE-END$/p' "$W/boot1.log" | sed '1d;$d' >"$W/profile.csv"
[ -s "$W/profile.csv" ] || die "no profile collected ($W/boot1.log)"
mk -p "$W/profile.csv" "$tree" -o "$W/axfs-xip-mem.img" || die "axfs mkfs -p failed"

# ---- boots 2: everything, measured ----------------------------------------------
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
# Legacy pmem ranges (memmap=SIZE!ADDR, nd_e820 + nd_pmem), one per
# 128 MiB slot from PMEM_BASE up: the image rounded up to 2 MiB (nd_pmem
# maps a range with memremap_pages(), which wants both ends 2 MiB
# aligned), loaded there like the reserved-RAM images, the rest of the
# slot reserved (memmap=SIZE$ADDR), so that no two ranges share a memory
# section (two did, and their probes failed at random) nor merge into one
# region.  RAM below PMEM_BASE, after the reserved images, is reserved
# too, and the guest's RAM grows by all of it: the kernel keeps the RAM it
# has without them.
pmem_next=$((PMEM_BASE))
pmem_add() {	# pmem_add IMAGE -> PMEM_AT (its address), PMEM_BYTES
	local slot
	PMEM_BYTES=$(( ($(stat -c %s "$1") + (2 << 20) - 1) >> 21 << 21 ))
	slot=$(( (PMEM_BYTES + (2 << 20) + (128 << 20) - 1) >> 27 << 27 ))
	PMEM_AT=$(printf 0x%x $pmem_next)
	loaders="$loaders -device loader,file=$1,addr=$PMEM_AT,force-raw=on"
	BOOT_APPEND="$BOOT_APPEND memmap=$((PMEM_BYTES >> 20))M!$PMEM_AT"
	BOOT_APPEND="$BOOT_APPEND memmap=$(( (slot - PMEM_BYTES) >> 20 ))M\$$(printf 0x%x $((pmem_next + PMEM_BYTES)))"
	pmem_next=$((pmem_next + slot))
	KT_MEM=$(( (pmem_next >> 20) + 64 ))M
}
# The block-device rows: on virtio-blk (wall-clock mode), or on pmem
# (icount mode, or BENCH_BLOCK=pmem): a synchronous block device whose
# reads are the guest's own memory copies.  Under -icount,sleep=off a
# virtio request is waited for idle, and an idle vCPU's clock jumps to its
# next timer, however soon the host completes the request: virtio timings
# are not deterministic there (bench/RESULTS.md, issue 29).
block=${BENCH_BLOCK:-$([ -n "$icount" ] && echo pmem || echo virtio)}
drives=
vd=a
block_row() {	# block_row NAME FSTYPE: NAME.img as a block device in FS
	if [ "$block" = pmem ]; then
		pmem_add "$W/$1.img"
		FS="$FS$1|$2|pmem:$PMEM_AT||pmem-blk
"
	else
		drives="$drives -drive file=$W/$1.img,if=virtio,format=raw,readonly=on"
		FS="$FS$1|$2|/dev/vd$vd||block
"
		vd=$(echo $vd | tr a-y b-z)
	fi
}
FS=
block_row axfs-64K axfs
block_row axfs-4K axfs
block_row sqfs-128K squashfs
block_row sqfs-4K squashfs
block_row erofs-lz4hc erofs
FS="${FS}axfs-64K-mem|axfs|none|physaddr=$gz_at|memory
axfs-xip-mem|axfs|none|physaddr=$xip_at|memory
sqfs-128K-mtd|squashfs|phram:${sq_at% *},${sq_at#* }||memory"
# cramfs: bench/kernel/cramfs.sh, in the reserved RAM after the others.
[ -n "$CRAMFS_WHY" ] ||
	{ cramfs_place "$W/cramfs-xip.img" && cx_at="${placed% *},${placed#* }" &&
	  cramfs_place "$W/cramfs-mkfs.img" && cm_at="${placed% *},${placed#* }"; }
[ -n "$CRAMFS_WHY" ] || FS="$FS
cramfs-xip|cramfs|physmap:$cx_at||memory
cramfs-xip-phram|cramfs|mtd-phram:$cx_at||memory
cramfs-mkfs|cramfs|physmap:$cm_at||memory"
# erofs-dax: its own pmem range, mounted with DAX (the guest checks it).
pmem_add "$W/erofs-dax.img"
FS="$FS
erofs-dax|erofs|pmem:$PMEM_AT|dax=always|pmem-dax"
[ -z "${BENCH_ROWS:-}" ] ||
	FS=$(printf '%s\n' "$FS" | grep -E "^(sqfs-128K|$BENCH_ROWS)\|") ||
	die "BENCH_ROWS='$BENCH_ROWS' matches no row"
say "boots 2: measure $(echo "$FS" | wc -l) file systems, $boots boot(s), $jobs at a time ($(date -u +%T))"
boot_config "FS='$FS'
PMEM='$PMEM_AT $PMEM_BYTES'
RAND=${BENCH_RAND:-1000}"
# shellcheck disable=SC2086
measured_boots $drives $loaders
t_end=$(date +%s)
say "done ($(date -u +%T))"

# ---- the table ----------------------------------------------------------------
xip_pages=$(python3 "$AXFS_TOP/tests/tools/seedread.py" xip "$W/axfs-xip-mem.img" 2>/dev/null | wc -l)
echo "Debian $KVER, $(qemu-system-x86_64 --version | head -n 1), TCG $cpus -m $KT_MEM."
echo "Tree: $tree_mib MiB, $tree_files files ($tree_what)."
echo "Programs started cold: $(cut -d' ' -f1 "$stage/data/progs" | xargs -r -n1 basename | xargs)."
echo "Block-device rows: $([ "$block" = pmem ] && echo "on legacy pmem as a plain block device (pmem-blk: synchronous, no DAX)" || echo "on virtio-blk (block)")."
echo "axfs-xip-mem: $xip_pages XIP pages from the profile."
if [ -n "$CRAMFS_WHY" ]; then
	echo "cramfs-xip: not measured: $CRAMFS_WHY."
else
	echo "cramfs-xip: $(cramfs_xip_pages) XIP pages (every ELF file whole)."
fi
echo "erofs-dax: $(grep -h '^BENCH erofs-dax dax ' "$W"/boot2-*.log | head -n 1 | cut -d' ' -f4-)."
echo "Run: $((t_end - t0)) s in all, $((t_end - t_start)) s of it in the profiling boot and $boots measured boots ($jobs at a time)."
echo
{
	echo "$FS" | cut -d'|' -f1,5 | while IFS='|' read -r name medium; do
		img=$W/$name.img
		[ -f "$img" ] || img=$W/${name%-m*}.img
		echo "SIZE $name $medium $(stat -c %s "$img")"
	done
	i=1
	while [ $i -le $boots ]; do
		echo "BOOT $i"
		cat "$W/boot2-$i.log"
		i=$((i + 1))
	done
} | awk -v CLOCK="$CLOCK" -f "$here/table.awk"
cat "$W"/boot2-*.log | sed -n 's/^BENCH \([^ ]*\) error /\1 not measured: /p' | sort -u
cramfs_notes "$W/boot2-1.log"
if grep -q '^BENCH-INCORE axfs-xip-mem ' "$W/boot2-1.log"; then
	echo
	echo "axfs-xip-mem: the files with pages in the page cache after the programs (boot 1, KiB):"
	sed -n 's/^BENCH-INCORE axfs-xip-mem /    /p' "$W/boot2-1.log"
fi
# erofs-dax must really be DAX: the guest said why not.
if grep -h '^BENCH erofs-dax error' "$W"/boot2-*.log >&2; then
	die "erofs-dax: DAX was not in effect (above); its row is not a DAX row"
fi
exit 0
