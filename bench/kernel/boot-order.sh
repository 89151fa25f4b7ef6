#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# bench/kernel/boot-order.sh - the measured boot of issue 40: a root tree
# booted by Debian's kernel under qemu, the same workload on each root,
# for AXFS laid out by a profile without order and with it, squashfs with
# a -sort file made from the same profile, and erofs.
#
#   sh bench/kernel/boot-order.sh [--boots N] [--jobs N] [--results FILE]
#                                 [--rows REGEX] [AXFS-BINARY]   (root)
#   sh bench/kernel/boot-order.sh --check [AXFS-BINARY]
#
# --check is the reduced form for the test runner (make check-all): one
# boot of each AXFS row of the block medium, TAP lines: the profile has
# the order, the ordered image is within 1 % of the unordered one's size
# and its boot inflates fewer cblocks (counts, which do not depend on the
# clock; the times and the ratios are the bench's).
#
# The tree and the workload are kernel/tests/rootfs.sh's (Debian 12
# packages of amd64: busybox-static, dash, coreutils, perl-base and their
# libraries; kernel/tests/rootfs/workload.sh, run by dash from the root's
# /sbin/init, guest/boot-order-init.sh).  The initramfs
# (guest/boot-order-initramfs) mounts the root and switch_roots to it;
# its uptime just before the mount is the zero of the times, so the times
# are those of the boot from its root: init's start, the workload's first
# output (ROOTFS-T first) and its end (ROOTFS-T end).
#
# Clock: deterministic (bench/kernel/run.sh --icount, bench/RESULTS.md):
# one vCPU, -icount shift=2,sleep=off, 3 boots of each row (--boots),
# BENCH_JOBS (default 2) at a time; a figure is the median of the boots,
# a ratio a result when every boot's ratio lies within +-10 % of it
# (boot-order-table.py).  No virtio device in the measured boots: under
# -icount,sleep=off a virtio request's wait is not deterministic.
#
# Media (one per column group of the table):
#   block  the image on legacy pmem (memmap=64M!0x20000000, nd_pmem),
#          a synchronous block device: the bio and page-cache path of any
#          disk, reads are the guest's own copies (root=/dev/pmem0)
#   mtd    phram over reserved RAM (memmap=64M$0x10000000): AXFS reads
#          the MTD (root=mtd:root, point() without a physical address: no
#          XIP), squashfs and erofs its mtdblock (root=/dev/mtdblock0)
#   phys   the image in reserved RAM, rootflags=physaddr= (AXFS only:
#          XIP pages mapped in place, the others inflated)
# Images (AXFS: `axfs mkfs -p`, the profile of a profiling boot of the
# unprofiled image as mkfs builds it (64 KiB cblocks), from pmem
# (BOOT_ORDER_PROFILE_MEDIUM=mtd or phys: from there), mounted with
# rootflags=profile=all, read from /proc/axfs/volume0.order, or volume0
# from a driver without it):
#   axfs-unordered   -p PROFILE (the 2008 form: no order) --xip-budget 0
#                    (block, mtd: every page compressed)
#   axfs-ordered     -p ORDERED-PROFILE --xip-budget 0
#   axfs-xip-unordered, axfs-xip-ordered  the same with --xip-budget
#                    BOOT_ORDER_XIP_BUDGET (default 2MiB: less than the
#                    pages the boot touches, so that some of them stay
#                    compressed) (phys)
#   sqfs             mksquashfs -comp gzip -b 128K (no sort file)
#   sqfs-sorted      the same with -sort: each file the boot touched, by
#                    its first-touched page's rank, the earliest highest
#                    (profile-to-sort.sh)
#   erofs-lz4hc      mkfs.erofs -zlz4hc
# Columns: image size; cblocks inflated (the decompressor's calls, counted
# by a kprobe on axfs_inflate, squashfs_decompress, z_erofs_lz4_decompress,
# and AXFS's own cblocks_inflated counter where the driver has it); bytes
# read from the device (/sys/block/pmem0 or mtdblock0 stat; AXFS on MTD
# and physaddr=: its device_bytes_read counter); the decompressor's time
# (kretprobe); time to the first output and the end; RAM after it.
set -u
export LC_ALL=C
here=$(cd "$(dirname "$0")" && pwd)
AXFS_TOP=${AXFS_TOP:-$(cd "$here/../.." && pwd)}
tests=$AXFS_TOP/kernel/tests
die() { echo "boot-order: $*" >&2; exit 1; }
say() { echo "boot-order: $*" >&2; }

boots=3 jobs=${BENCH_JOBS:-2} results= rows= check=0
while [ $# -gt 0 ]; do
	case $1 in
	--check) check=1; boots=1; rows='block-axfs-unordered|block-axfs-ordered'; shift ;;
	--boots) boots=$2; shift 2 ;;
	--jobs) jobs=$2; shift 2 ;;
	--results) results=$2; shift 2 ;;
	--rows) rows=$2; shift 2 ;;
	-*) die "unknown option '$1'" ;;
	*) break ;;
	esac
done
case $boots in [1-9]|[1-9][0-9]) ;; *) die "--boots needs a number from 1 to 99" ;; esac
case $jobs in [1-9]) ;; *) die "--jobs needs a number from 1 to 9" ;; esac
AXFS=${1:-${AXFS:-${AXFS_BUILD:-$AXFS_TOP/build}/axfs}}
case $AXFS in /*) ;; *) AXFS=$PWD/$AXFS ;; esac
XIP_BUDGET=${BOOT_ORDER_XIP_BUDGET:-2MiB}
ICOUNT=${BENCH_ICOUNT_SHIFT:-2}

. "$tests/lib.sh"
# shellcheck disable=SC2034	# read by kt_boot
KT_ICOUNT=$ICOUNT
KT_MEM=768M
KT_MODULES="$KT_MODULES squashfs erofs crc32c_generic nd_e820 nd_pmem"
PMEM_ADDR=0x20000000
# The pmem range and the rest of its 128 MiB memory section reserved
# (nd_pmem maps whole sections), the same in every boot so that every
# root has the same RAM; nokaslr: the kernel in the same place each boot.
APPEND_ALL="nokaslr memmap=64M!$PMEM_ADDR memmap=64M\$0x24000000"

if [ $check = 1 ]; then
	# A failure is a failed test, not a silent exit.
	die() { tap fail "$*"; kt_summary "boot order (reduced)"; }
	kt_need_root
	kt_need_tools || skip_all "$KT_SKIP"
	kt_kernel || skip_all "$KT_SKIP"
	command -v mksquashfs >/dev/null && command -v mkfs.erofs >/dev/null ||
		skip_all "$(kt_missing "squashfs-tools erofs-utils" bench)"
else
	[ "$(id -u)" = 0 ] || die "needs root (the tree's owners, apt-get)"
	kt_need_tools || die "$KT_SKIP"
	kt_kernel || die "$KT_SKIP"
	command -v mksquashfs >/dev/null && command -v mkfs.erofs >/dev/null ||
		sh "$AXFS_TOP/scripts/install-deps.sh" --install bench >&2 ||
		die "mksquashfs or mkfs.erofs missing and cannot be installed"
fi
[ -x "$AXFS" ] || die "no axfs binary at $AXFS (make, or pass its path)"
kt_build_module >/dev/null 2>&1 || die "cannot build axfs.ko (make -C kernel)"
kt_workdir axfs-boot-order "${BENCH_KEEP:-0}" say
t0=$(date +%s)

# ---- the root tree: rootfs.sh's packages, its workload --------------------
ROOT_PKGS="busybox-static dash coreutils perl-base libc6 libgcc-s1 libacl1 libattr1 libgmp10 libselinux1 libpcre2-8-0 libcrypt1"
debs=${AXFS_KCACHE:-/var/cache/axfs-tools/kernel}/rootfs-debs/amd64
mkdir -p "$debs"
(
	flock 9
	[ "$(cat "$debs/.complete" 2>/dev/null)" = "$ROOT_PKGS" ] && exit 0
	rm -f "$debs"/*.deb "$debs/.complete"
	# shellcheck disable=SC2086
	(cd "$debs" && apt-get download -q $ROOT_PKGS) >&2 && echo "$ROOT_PKGS" >"$debs/.complete"
) 9>"$debs/.lock" || die "apt-get download of the root's packages failed"
tree=$W/tree
mkdir -p "$tree"
for deb in "$debs"/*.deb; do
	dpkg-deb -x "$deb" "$tree" || die "cannot unpack $deb"
done
mkdir -p "$tree/proc" "$tree/sys" "$tree/dev" "$tree/tmp" "$tree/run" "$tree/sbin" "$tree/etc"
[ -e "$tree/bin/sh" ] || ln -s dash "$tree/bin/sh"
cp "$here/guest/boot-order-init.sh" "$tree/sbin/init"
chmod 755 "$tree/sbin/init"
cp "$tests/rootfs/workload.sh" "$tree/etc/axfs-workload.sh"
tree_kib=$(du -sk "$tree" | cut -f1)
tree_entries=$(find "$tree" | wc -l)

# ---- the initramfs ---------------------------------------------------------
stage=$W/stage
mkdir -p "$stage"
cp "$here/guest/boot-order-initramfs" "$stage/init"
chmod 755 "$stage/init"
KT_INITRD=$W/initrd.cpio
kt_initramfs "$stage" "$KT_INITRD" || die "cannot build the initramfs"

# ---- one boot ----------------------------------------------------------------
# boot LOG IMAGE MEDIUM FSTYPE [ROOTFLAGS]
boot() {
	local log=$1 img=$2 medium=$3 fs=$4 flags=${5:-} append size kp
	size=$(( ($(stat -c %s "$img") + 65535) / 65536 * 65536 ))
	case $fs in
	axfs) kp=axfs:axfs_inflate ;;
	squashfs) kp=squashfs:squashfs_decompress ;;
	erofs) kp=erofs:z_erofs_lz4_decompress ;;
	esac
	case $medium in
	block)
		append="root=/dev/pmem0 bo.blk=pmem0"
		set -- -device loader,file="$img",addr=$PMEM_ADDR,force-raw=on ;;
	mtd)
		append="bo.phram=$KT_PHYS_BASE,$size"
		if [ "$fs" = axfs ]; then
			append="$append root=mtd:root"
		else
			append="$append root=/dev/mtdblock0 bo.blk=mtdblock0"
		fi
		set -- -device loader,file="$img",addr=$KT_PHYS_BASE,force-raw=on ;;
	phys)
		append="root=/dev/root"
		flags="physaddr=$KT_PHYS_BASE${flags:+,$flags}"
		set -- -device loader,file="$img",addr=$KT_PHYS_BASE,force-raw=on ;;
	esac
	append="$APPEND_ALL $append rootfstype=$fs${flags:+ rootflags=$flags} bo.medium=$([ "$medium" = block ] && echo pmem || echo "$medium") bo.kprobe=$kp"
	kt_boot "$log" 900 "$append" "$@"
	grep -q '^BO-GUEST-END' "$log"
}

# ---- the profile: the unprofiled image's boot from pmem, profile=all -----------
MTIME=1700000000
mk() { "$AXFS" mkfs -q --mtime $MTIME "$@"; }
# The profiled image has mkfs's default 64 KiB cblocks
# (BOOT_ORDER_PROFILE_BS to change it).  The driver ranks a page at its
# first use (a fault, a read()), not when the page cache fills it, so the
# order does not depend on the cblock size; a driver that ranked fills
# needed a profile from 4 KiB cblocks (bench/RESULTS.md).
PROFILE_BS=${BOOT_ORDER_PROFILE_BS:-64KiB}
mk -b "$PROFILE_BS" "$tree" -o "$W/axfs-plain.img" || die "axfs mkfs failed"
say "profiling boot ($(date -u +%T))"
# BOOT_ORDER_PROFILE_MEDIUM (block, mtd or phys): where the profiling
# boot mounts it.
PROFILE_MEDIUM=${BOOT_ORDER_PROFILE_MEDIUM:-block}
boot "$W/profile.log" "$W/axfs-plain.img" "$PROFILE_MEDIUM" axfs profile=all ||
	{ kt_crash_report "$W/profile.log" >&2; die "the profiling boot did not finish"; }
sed -n '/^AXFS-PROFILE-BEGIN$/,/^AXFS-PROFILE-END$/p' "$W/profile.log" | sed '1d;$d' >"$W/profile.raw"
[ -s "$W/profile.raw" ] || die "no profile in $W/profile.log"
ordered=0
if [ "$(head -n 1 "$W/profile.raw")" = "# axfs-profile order" ]; then
	ordered=1
	cp "$W/profile.raw" "$W/profile.order.csv"
	# The 2008 form of the same profile: the counted pages, no rank.
	sed -n '2,$s/^\(.*\),\([0-9]*\),\([0-9]*\),[0-9]*$/\1,\2,\3/p' "$W/profile.raw" |
		grep -v ',0$' >"$W/profile.csv"
	sh "$here/profile-to-sort.sh" "$W/profile.order.csv" >"$W/sqfs.sort" ||
		die "profile-to-sort.sh failed"
else
	[ $check = 0 ] || die "the profiling boot printed an ordered profile (/proc/axfs/volume0.order)"
	cp "$W/profile.raw" "$W/profile.csv"
	say "the driver printed no ordered profile (no /proc/axfs/volume0.order): the ordered rows are not measured"
fi
profile_pages=$(grep -c -v '^#' "$W/profile.csv")

# ---- images ------------------------------------------------------------------
mk -p "$W/profile.csv" --xip-budget 0 "$tree" -o "$W/axfs-unordered.img" || die "axfs mkfs -p failed"
mk -p "$W/profile.csv" --xip-budget "$XIP_BUDGET" "$tree" -o "$W/axfs-xip-unordered.img" ||
	die "axfs mkfs -p --xip-budget $XIP_BUDGET failed"
if [ $ordered = 1 ]; then
	mk -p "$W/profile.order.csv" --xip-budget 0 "$tree" -o "$W/axfs-ordered.img" ||
		die "axfs mkfs -p ORDERED failed"
	mk -p "$W/profile.order.csv" --xip-budget "$XIP_BUDGET" "$tree" -o "$W/axfs-xip-ordered.img" ||
		die "axfs mkfs -p ORDERED --xip-budget $XIP_BUDGET failed"
fi
sq() {	# sq IMAGE [OPTION...]
	local out=$1
	shift
	mksquashfs "$tree" "$out" -comp gzip -b 128K -noappend -quiet -no-progress \
		-mkfs-time $MTIME -all-time $MTIME "$@" >/dev/null
}
sq "$W/sqfs.img" || die "mksquashfs failed"
[ $ordered = 0 ] || sq "$W/sqfs-sorted.img" -sort "$W/sqfs.sort" || die "mksquashfs -sort failed"
mkfs.erofs -zlz4hc -T $MTIME --quiet "$W/erofs-lz4hc.img" "$tree" >/dev/null ||
	die "mkfs.erofs failed"

# ---- the measured boots ----------------------------------------------------------
# ROW: NAME MEDIUM IMAGE FSTYPE
ROWS="block-axfs-unordered block axfs-unordered axfs
block-axfs-ordered block axfs-ordered axfs
block-sqfs block sqfs squashfs
block-sqfs-sorted block sqfs-sorted squashfs
block-erofs-lz4hc block erofs-lz4hc erofs
mtd-axfs-unordered mtd axfs-unordered axfs
mtd-axfs-ordered mtd axfs-ordered axfs
mtd-sqfs mtd sqfs squashfs
mtd-sqfs-sorted mtd sqfs-sorted squashfs
mtd-erofs-lz4hc mtd erofs-lz4hc erofs
phys-axfs-unordered phys axfs-xip-unordered axfs
phys-axfs-ordered phys axfs-xip-ordered axfs"
[ -z "$rows" ] || ROWS=$(printf '%s\n' "$ROWS" | grep -E "^($rows) ") || die "--rows '$rows' matches no row"
printf '%s\n' "$ROWS" | while read -r name medium img fs; do
	[ -f "$W/$img.img" ] && echo "$name $medium $img $fs"
done >"$W/rows"
n=$(($(wc -l <"$W/rows") * boots))
say "$n measured boots, $jobs at a time ($(date -u +%T))"
# Boot 1 of every row first, then boot 2...: a run cut short has every
# row measured.
b=1
while [ $b -le "$boots" ]; do
	sed "s/\$/ $b/" "$W/rows"
	b=$((b + 1))
done >"$W/queue"
# $jobs workers, each taking every $jobs-th boot of the queue.
worker() {
	awk -v j="$1" -v n="$jobs" 'NR % n == j' "$W/queue" | while read -r name medium img fs b; do
		boot "$W/boot-$name-$b.log" "$W/$img.img" "$medium" "$fs" ||
			say "boot $b of $name did not finish: $W/boot-$name-$b.log"
	done
}
j=0
while [ $j -lt "$jobs" ]; do
	worker $j &
	j=$((j + 1))
done
wait
t1=$(date +%s)
say "done ($(date -u +%T))"

if [ $check = 1 ]; then
	tap ok "the profiling boot printed an ordered profile: $(($(wc -l <"$W/profile.order.csv") - 1)) pages ranked"
	for r in unordered ordered; do
		grep -q '^BO-GUEST-END' "$W/boot-block-axfs-$r-1.log" &&
			tap ok "the $r image booted as the root from pmem and ran the workload" ||
			{ tap fail "the $r image booted as the root from pmem and ran the workload"
			  kt_crash_report "$W/boot-block-axfs-$r-1.log" | sed 's/^/#   /'; }
	done
	fig() { sed -n "s/^BO-M $2 //p" "$W/boot-block-axfs-$1-1.log" | tail -n 1; }
	su=$(stat -c %s "$W/axfs-unordered.img") so=$(stat -c %s "$W/axfs-ordered.img")
	host_check "the ordered image ($so bytes) is at most 1.01 x the unordered one ($su)" \
		test $((so * 100)) -le $((su * 101))
	cu=$(fig unordered inflate_calls) co=$(fig ordered inflate_calls)
	# Fewer; the half issue 40 aims at is the bench's (3 boots agreeing).
	fewer=0
	[ -n "$cu" ] && [ -n "$co" ] && [ "${co%.*}" -lt "${cu%.*}" ] && fewer=1
	host_check "the ordered root's boot inflates fewer cblocks than the unordered one's (kprobe: $co against $cu)" \
		test $fewer = 1
	for r in unordered ordered; do
		k=$(fig $r inflate_calls) c=$(fig $r cblocks_inflated)
		# The kprobe counts every inflate (metadata, symbolic links too),
		# the driver the cblocks of file data.
		host_check "$r: the driver counted cblocks_inflated ($c), at most the decompressor's calls (kprobe: $k)" \
			sh -c "[ -n '$c' ] && [ -n '$k' ] && [ '$c' -gt 0 ] && [ '$c' -le '${k%.*}' ]"
	done
	kt_summary "boot order (reduced, block root)"
fi

# ---- the table -----------------------------------------------------------------
{
	echo "Debian $KVER, $(qemu-system-x86_64 --version | head -n 1), TCG -smp 1 -icount shift=$ICOUNT,sleep=off -m $KT_MEM."
	echo "Root tree: $tree_kib KiB, $tree_entries entries (Debian 12 amd64: $ROOT_PKGS)."
	echo "Profile: from a boot of the unprofiled image with $PROFILE_BS cblocks ($PROFILE_MEDIUM medium), $profile_pages pages counted$([ $ordered = 1 ] && echo ", $(($(wc -l <"$W/profile.order.csv") - 1)) ranked (volume0.order)" || echo " (volume0: the driver has no order view)"); phys rows: --xip-budget $XIP_BUDGET, $(python3 "$AXFS_TOP/tests/tools/seedread.py" xip "$W/axfs-xip-unordered.img" | wc -l) XIP pages."
	echo "Run: $((t1 - t0)) s, $boots boots of each row, $jobs at a time."
	echo
	python3 "$here/boot-order-table.py" --arch amd64 "$W" "$boots"
} >"$W/table.md" || die "no table"
cat "$W/table.md"
if [ -n "$results" ]; then
	python3 - "$results" amd64 "$W/table.md" <<'PY'
import os, sys
path, arch, table = sys.argv[1], sys.argv[2], open(sys.argv[3]).read()
begin = "<!-- boot-order.sh %s: begin -->\n" % arch
end = "<!-- boot-order.sh %s: end -->\n" % arch
text = open(path).read() if os.path.exists(path) else ""
block = begin + table + end
if begin in text and end in text:
    text = text[:text.index(begin)] + block + text[text.index(end) + len(end):]
else:
    text += ("\n" if text and not text.endswith("\n\n") else "") + block
open(path + ".tmp", "w").write(text)
os.replace(path + ".tmp", path)
PY
	say "table written to $results"
fi
