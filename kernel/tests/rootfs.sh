#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# rootfs.sh - AXFS as the root filesystem, booted, profiled and re-tuned.
#   AXFS=build/axfs sh kernel/tests/rootfs.sh [--arch ARCH] [--builtin]
#                                             [--results FILE]
#
# ARCH (default amd64) is one of the architecture files rootfs/ARCH.sh
# (kernel, module build, reserved memory, qemu command line: the only
# per-architecture code).  As root:
#  1. a root tree from real Debian packages of ARCH (busybox-static, dash,
#     coreutils, perl-base and their libraries: apt-get download into the
#     cache, dpkg-deb -x), /sbin/init = rootfs/init.sh, the fixed workload
#     rootfs/workload.sh; `axfs mkfs` without a profile, and mksquashfs;
#  2. module route: Debian's kernel, an initramfs (busybox, axfs.ko and
#     what modinfo says it depends on, virtio, squashfs; /init =
#     rootfs/initramfs-init) that mounts the root read-only and
#     switch_roots to its /sbin/init.  Boot 1: the unprofiled image from
#     reserved RAM (root=/dev/root rootfstype=axfs
#     rootflags=physaddr=ADDR,profile=MODE, with ,physsize=SIZE where
#     /proc/iomem does not list the reserved RAM: RA_ROOTFLAGS, armhf;
#     every AXFS root is mounted with profile=MODE, the profiler existing
#     only where the mount asks); init runs the workload with the profiler
#     on (mode "all"; AXFS_ROOTFS_PROFILE=on for the 2008 mode) and prints
#     /proc/axfs/volume0, which the host reads back from the serial console;
#  3. `axfs mkfs -p PROFILE --xip-budget` (AXFS_ROOTFS_BUDGET, 8MiB), boot
#     2 from it: the workload again, and busybox's text must be mapped
#     from page frames inside the image (pagemap) adding nothing to the
#     page cache; boot 3: squashfs of the same tree from a virtio disk;
#     boot 4: the unprofiled AXFS image from a virtio disk (block route);
#  4. with --builtin (arm64): the built-in route, Debian's 6.12 source
#     with the AXFS patch and CONFIG_AXFS=y (rootfs/builtin-kernel.sh,
#     cached), booted with no initramfs from the profiled image in memory,
#     the same checks;
#  5. prints the table (image size, RAM in use and page cache after the
#     workload, time to the first output and to the end, as ratios to the
#     unprofiled boot's); --results FILE puts it in FILE (bench/RESULTS.md)
#     between markers.
# --placements (armhf) replaces 2 to 5: an image with every file XIP,
# booted as the root once from each place the architecture file lists
# (kt_placement in arch/ARCH.sh: RAM in lowmem and in highmem reserved
# with no-map, memory beyond the kernel's RAM), each proving XIP by
# pagemap and running a program that writes into a private writable
# mapping of XIP pages (probe cow).  --kernel SUITE:FLAVOUR picks the
# kernel of an architecture that cross.sh boots (armhf: trixie:armmp-lpae).
# make check-all runs the placements as one job per armhf kernel.
# The guest gets its configuration from a small tar on a virtio disk
# (serial axfsdata).  Prints "ok N - name" lines and a summary; skips
# ("ok 1 # skip") only when qemu, the kernel or the packages cannot be had.
set -u
export LC_ALL=C
here=$(cd "$(dirname "$0")" && pwd)
AXFS_TOP=${AXFS_TOP:-$(cd "$here/../.." && pwd)}
ARCH=amd64 BUILTIN=0 RESULTS= PLACEMENTS=0 KERNEL=
while [ $# -gt 0 ]; do
	case $1 in
	--arch) ARCH=$2; shift ;;
	--arch=*) ARCH=${1#--arch=} ;;
	--builtin) BUILTIN=1 ;;
	--results) RESULTS=$2; shift ;;
	--placements) PLACEMENTS=1 ;;
	--kernel) KERNEL=$2; shift ;;
	*) echo "usage: rootfs.sh [--arch ARCH] [--builtin] [--results FILE] [--placements] [--kernel SUITE:FLAVOUR]" >&2; exit 2 ;;
	esac
	shift
done
[ -f "$here/rootfs/$ARCH.sh" ] || { echo "rootfs.sh: no architecture file rootfs/$ARCH.sh" >&2; exit 2; }
# What boot 1's profiler counts (/proc/axfs/volume0): "all", every page
# the workload uses, read() and data segments included, the better
# profile for a root in memory, whose XIP pages read() copies in place
# (amd64: page cache after the workload 152 KiB instead of 784, RAM in
# use 704 KiB less, image 332 KiB larger), or "on", the 2008 semantics:
# faults of read-only mappings only.
PROFILE_MODE=${AXFS_ROOTFS_PROFILE:-all}
case $PROFILE_MODE in
on|all) ;;
*) echo "rootfs.sh: AXFS_ROOTFS_PROFILE='$PROFILE_MODE': use on or all" >&2; exit 2 ;;
esac
KT_ARCH=$ARCH
. "$here/lib.sh"
if [ -n "$KERNEL" ]; then
	command -v kt_flavour >/dev/null 2>&1 ||
		{ echo "rootfs.sh: --kernel: $ARCH has one kernel" >&2; exit 2; }
	# The root tree's packages stay those of the architecture's suite.
	RA_DEB_SUITE=$KT_SUITE
	KT_SUITE=${KERNEL%%:*}
	KT_FLAVOUR=${KERNEL#*:}
	kt_flavour "$KT_FLAVOUR"
fi
. "$here/rootfs/$ARCH.sh"

finish() { kt_summary "rootfs tests ($ARCH${KVER:+, $KVER}$([ "$PLACEMENTS" = 1 ] && echo ', placements'))"; }

kt_need_root
command -v mksquashfs >/dev/null 2>&1 ||
	skip_all "mksquashfs: $(kt_missing squashfs-tools kernel-all)"
kt_workdir axfs-rootfs "${AXFS_KEEP:-0}" kt_say
ra_setup || skip_all "$KT_SKIP"
AXFS=${AXFS:-$AXFS_TOP/build/axfs}
[ -x "$AXFS" ] || { tap fail "the axfs binary exists ($AXFS)"; finish; }
SEEDREAD="python3 $AXFS_TOP/tests/tools/seedread.py"

# ---- the root tree from real Debian packages ---------------------------------
ROOT_PKGS="busybox-static dash coreutils perl-base libc6 libgcc-s1 libacl1 libattr1 libgmp10 libselinux1 libpcre2-8-0 libcrypt1"
debs=${AXFS_KCACHE:-/var/cache/axfs-tools/kernel}/rootfs-debs/$RA_DEBARCH
mkdir -p "$debs"
if (
	flock 9
	[ "$(cat "$debs/.complete" 2>/dev/null)" = "$ROOT_PKGS" ] && exit 0
	rm -f "$debs"/*.deb "$debs/.complete"
	# shellcheck disable=SC2086
	ra_download "$debs" $ROOT_PKGS >&2 && echo "$ROOT_PKGS" >"$debs/.complete"
) 9>"$debs/.lock" 2>"$W/debs.log"; then
	:
else
	cat "$W/debs.log" >&2
	skip_all "apt-get download of $RA_DEBARCH packages failed"
fi
tree=$W/tree
mkdir -p "$tree"
for deb in "$debs"/*.deb; do
	dpkg-deb -x "$deb" "$tree" || { tap fail "unpack $deb"; finish; }
done
# Packages of a merged-/usr release (trixie: riscv64) ship /usr/bin,
# /usr/sbin and /usr/lib only; base-files' symlinks make /bin, /sbin and
# /lib (the ELF interpreter's directory).  BIN: where busybox is.
BIN=bin
if [ ! -e "$tree/bin" ]; then
	mkdir -p "$tree/usr/bin" "$tree/usr/sbin" "$tree/usr/lib"
	ln -s usr/bin "$tree/bin"
	ln -s usr/sbin "$tree/sbin"
	ln -s usr/lib "$tree/lib"
	BIN=usr/bin
fi
mkdir -p "$tree/proc" "$tree/sys" "$tree/dev" "$tree/tmp" "$tree/run" "$tree/sbin" "$tree/etc"
[ -e "$tree/bin/sh" ] || ln -s dash "$tree/bin/sh"
cp "$here/rootfs/init.sh" "$tree/sbin/init"
chmod 755 "$tree/sbin/init"
cp "$here/rootfs/workload.sh" "$tree/etc/axfs-workload.sh"
host_check "root tree from $RA_DEBARCH packages: $(du -sk "$tree" | cut -f1) KiB, $(find "$tree" | wc -l) entries" \
	sh -c "test -x '$tree/bin/busybox' && test -x '$tree/usr/bin/perl' && test -x '$tree/bin/dash' && test -x '$tree/bin/ls'"

# ---- images ------------------------------------------------------------------
MTIME=1700000000
if "$AXFS" mkfs -q --mtime $MTIME "$tree" -o "$W/unprofiled.img" >"$W/mkfs-u.log" 2>&1; then
	tap ok "axfs mkfs (no profile): $(stat -c %s "$W/unprofiled.img") bytes"
else
	tap fail "axfs mkfs (no profile)"
	sed 's/^/#   /' "$W/mkfs-u.log"
	finish
fi
if mksquashfs "$tree" "$W/squashfs.img" -noappend -comp gzip -quiet -no-progress \
	-mkfs-time $MTIME -all-time $MTIME >"$W/mksquashfs.log" 2>&1; then
	tap ok "mksquashfs (gzip, 128 KiB blocks): $(stat -c %s "$W/squashfs.img") bytes"
else
	tap fail "mksquashfs"
	sed 's/^/#   /' "$W/mksquashfs.log"
	finish
fi
pad() { truncate -s %4096 "$1"; }	# qemu wants whole sectors; loader any size
pad "$W/squashfs.img"

# ---- the module route's initramfs --------------------------------------------
# As kernel/README.md's recipe makes it (kernel/tools/mkinitramfs.sh):
# axfs.ko and what it depends on, plus the disks and squashfs.
KT_INITRD=$W/initrd.cpio
if sh "$KT_KERNEL/tools/mkinitramfs.sh" -k "$KVER" -m "$MODROOT" \
	-b "${KT_GUEST_BUSYBOX:-$KT_BUSYBOX}" -H "$KT_BUSYBOX" -o "$KT_INITRD" \
	"$KO" virtio_pci virtio_blk squashfs >"$W/initramfs.log" 2>&1; then
	tap ok "initramfs (kernel/tools/mkinitramfs.sh): $(sed 's/^[^:]*: //' "$W/initramfs.log")"
else
	tap fail "build the initramfs (kernel/tools/mkinitramfs.sh)"
	sed 's/^/#   /' "$W/initramfs.log"
	finish
fi

# ---- one boot ------------------------------------------------------------------
# AXFS_ROOTFS_BOOTS limits the boots after the first (which makes the
# profile): "profiled squashfs axfs-disk builtin" by default.
BOOTS=${AXFS_ROOTFS_BOOTS:-profiled squashfs axfs-disk builtin}

# rootboot NAME IMAGE ROUTE XIPCHECK: ROUTE phys (image in reserved RAM),
# block (first virtio disk) or builtin (phys, the built-in kernel, no
# initramfs).  Sets the M_* and T_* numbers of NAME for the table.
rootboot() {
	local name=$1 img=$2 route=$3 xc=$4 fstype=axfs append args size d prof=
	case " $BOOTS ${5:-} " in *" $name "*|*" always "*) ;; *) return 0 ;; esac
	size=$(( ($(stat -c %s "$img") + 4095) / 4096 * 4096 ))
	d=$W/data-$name
	mkdir -p "$d"
	[ "$name" = squashfs ] && fstype=squashfs
	cat >"$d/config" <<EOC
ROOT_FSTYPE=$fstype
ROOT_DESC="$route"
PHYS_BASE=$RA_PHYS_BASE
IMG_SIZE=$size
XIP_CHECK=$xc
XIP_IN_RSS=${RA_XIP_IN_RSS:-0}
PROFILE_MODE=$PROFILE_MODE
EOC
	if [ "$fstype" = axfs ]; then
		$SEEDREAD xip "$img" | sed -n "s|^/$BIN/busybox,||p" >"$d/bb.xip"
	fi
	[ -z "${RA_PROBE:-}" ] || cp "$RA_PROBE" "$d/probe"
	tar -cf "$W/data-$name.tar" -C "$d" .
	# An AXFS root has the profiler only when its mount asks (init.sh
	# clears it and sets the mode before the workload).
	[ "$fstype" = axfs ] && prof=profile=$PROFILE_MODE
	case $route in
	block)
		append="root=/dev/vda rootfstype=$fstype${prof:+ rootflags=$prof}"
		args="$(ra_disk "$img" root) $(ra_disk "$W/data-$name.tar" axfsdata)" ;;
	*)
		append="root=/dev/root rootfstype=axfs rootflags=${RA_ROOTFLAGS:-physaddr=$RA_PHYS_BASE},$prof${RA_APPEND:+ $RA_APPEND}"
		args="-device loader,file=$img,addr=$RA_PHYS_BASE,force-raw=on $(ra_disk "$W/data-$name.tar" axfsdata)" ;;
	esac
	echo "# boot $name: $route, $append"
	local t
	t=$(date +%s)
	if [ "$route" = builtin ]; then
		# shellcheck disable=SC2086
		ra_boot_builtin "$W/boot-$name.log" 600 "$append" $args
	else
		# shellcheck disable=SC2086
		ra_boot "$W/boot-$name.log" 600 "$append" $args
	fi
	echo "# boot $name: $(($(date +%s) - t)) s"
	parse_guest "$W/boot-$name.log" "$name"
	sed -n 's/^ROOTFS-MEMINFO /#   meminfo after the workload: /p' "$W/boot-$name.log"
	sed -n 's/^ROOTFS-[MT] \([a-z_]*\) \(-\{0,1\}[0-9.]*\)$/\1=\2/p' "$W/boot-$name.log" >"$W/m-$name"
	echo "image=$(stat -c %s "$img")" >>"$W/m-$name"
}

# ---- --placements: every file XIP, booted from each place -------------------
# kt_placement NAME (arch/ARCH.sh) sets P_ADDR, P_SIZE, P_NOMAP (yes: a
# no-map reserved-memory node over the range, RAM with struct pages the
# kernel does not map; no: no node), P_MEM (the kernel's mem=, its RAM
# ending below P_ADDR, or empty) and P_MACHINE (qemu's machine options).
placement_boots() {
	local p
	command -v kt_placement >/dev/null 2>&1 ||
		skip_all "$ARCH lists no placements (kt_placement in arch/$ARCH.sh)"
	if "$AXFS" mkfs -q --mtime $MTIME --xip '/**/*' "$tree" -o "$W/xipall.img" \
		>"$W/mkfs-x.log" 2>&1; then
		tap ok "axfs mkfs --xip '/**/*' (every file XIP): $(stat -c %s "$W/xipall.img") bytes"
	else
		tap fail "axfs mkfs --xip '/**/*'"
		sed 's/^/#   /' "$W/mkfs-x.log"
		finish
	fi
	RA_PROBE=$W/probe
	host_check "cross-compile the static probe program (probe cow in the guest)" \
		"${RA_CROSS}gcc" -static -O2 -Wall -pthread -o "$RA_PROBE" "$here/probe.c"
	set -- "$KT_MACHINE" "$KT_PHYS_BASE" "$KT_PHYS_SIZE"
	for p in $KT_PLACEMENTS; do
		KT_MACHINE=$1 KT_PHYS_BASE=$2 KT_PHYS_SIZE=$3
		kt_placement "$p"
		KT_MACHINE=$P_MACHINE
		KT_PHYS_BASE=$P_ADDR
		KT_PHYS_SIZE=$P_SIZE
		KT_DTB_NOMAP=$P_NOMAP
		KT_DTB=$W/virt-$p.dtb
		if ! kt_dtb "$KT_DTB" >"$W/dtc-$p.log" 2>&1; then
			tap fail "$p: device tree"
			sed 's/^/#   /' "$W/dtc-$p.log"
			continue
		fi
		host_check "$p: the image fits the $P_SIZE at $P_ADDR" \
			test "$(stat -c %s "$W/xipall.img")" -le "$(numfmt --from=iec "$P_SIZE")"
		RA_PHYS_BASE=$P_ADDR
		RA_ROOTFLAGS="physaddr=$P_ADDR,physsize=$P_SIZE"
		RA_APPEND=${P_MEM:+mem=$P_MEM}
		# Without a struct page (memory beyond the kernel's RAM) XIP
		# pages are never normal pages: not in RSS, special PTEs or not.
		RA_XIP_IN_RSS=$KT_XIP_IN_RSS
		[ "$P_NOMAP" = yes ] || RA_XIP_IN_RSS=0
		rootboot "$p" "$W/xipall.img" phys 1 always
	done
}
if [ "$PLACEMENTS" = 1 ]; then
	placement_boots
	finish
fi

# ---- boot 1: unprofiled AXFS root, profile ------------------------------------
host_check "the unprofiled image fits the reserved RAM ($RA_PHYS_SIZE)" \
	test "$(stat -c %s "$W/unprofiled.img")" -le "$(numfmt --from=iec "$RA_PHYS_SIZE")"
rootboot unprofiled "$W/unprofiled.img" phys 0 always
sed -n '/^AXFS-PROFILE-BEGIN$/,/^AXFS-PROFILE-END$/p' "$W/boot-unprofiled.log" |
	sed '1d;$d' >"$W/profile.csv"
host_check "profile of the workload from /proc/axfs/volume0: $(wc -l <"$W/profile.csv") pages, busybox, perl, libc, coreutils among them" \
	sh -c "grep -q '^\./$BIN/busybox,' '$W/profile.csv' && grep -q '^\./usr/bin/perl,' '$W/profile.csv' &&
	       grep -q '/libc\.so\.6,' '$W/profile.csv' && grep -q '^\./usr/bin/sort,' '$W/profile.csv'"

# ---- boot 2: profiled ----------------------------------------------------------
BUDGET=${AXFS_ROOTFS_BUDGET:-8MiB}
if "$AXFS" mkfs -q --mtime $MTIME -p "$W/profile.csv" --xip-budget "$BUDGET" "$tree" \
	-o "$W/profiled.img" >"$W/mkfs-p.log" 2>&1; then
	tap ok "axfs mkfs -p PROFILE --xip-budget $BUDGET: $(stat -c %s "$W/profiled.img") bytes"
else
	tap fail "axfs mkfs -p PROFILE --xip-budget $BUDGET"
	sed 's/^/#   /' "$W/mkfs-p.log"
	finish
fi
$SEEDREAD xip "$W/profiled.img" | sort >"$W/profiled.xip"
sed -n 's/^\.\(\/.*\),\([0-9]*\),[0-9]*$/\1,\2/p' "$W/profile.csv" | sort >"$W/profile.pages"
host_check "every profiled page ($(wc -l <"$W/profile.pages")) is XIP in the new image (seedread.py)" \
	sh -c "test -s '$W/profile.pages' && comm -23 '$W/profile.pages' '$W/profiled.xip' | head -n 5 | { ! grep .; }"
rootboot profiled "$W/profiled.img" phys 1

# ---- boot 3: squashfs of the same tree, boot 4: AXFS from a disk --------------
rootboot squashfs "$W/squashfs.img" block 0
cp "$W/unprofiled.img" "$W/unprofiled-disk.img"
pad "$W/unprofiled-disk.img"
rootboot axfs-disk "$W/unprofiled-disk.img" block 0

# ---- the built-in route ----------------------------------------------------------
if [ "$BUILTIN" = 1 ]; then
	if command -v ra_boot_builtin >/dev/null 2>&1 && ra_builtin_kernel >"$W/builtin.log" 2>&1; then
		tap ok "built-in kernel: $(cat "$W/builtin.log" | tail -n 1)"
		rootboot builtin "$W/profiled.img" builtin 1
	else
		tap fail "built-in kernel for $ARCH"
		tail -n 30 "$W/builtin.log" | sed 's/^/#   /'
	fi
fi

# ---- the table --------------------------------------------------------------------
val() { sed -n "s/^$2=//p" "$W/m-$1" 2>/dev/null | tail -n 1; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (a == "" || b == "" || b <= 0) print "?"; else printf "%.2f", a / b }'; }
table() {
	local r s f e u0f u0e
	u0f=$(awk -v a="$(val unprofiled first)" -v b="$(val unprofiled start)" 'BEGIN { print a - b }')
	u0e=$(awk -v a="$(val unprofiled end)" -v b="$(val unprofiled start)" 'BEGIN { print a - b }')
	echo "| root ($ARCH, $KVER) | image size | MemTotal − MemAvailable after the workload | MemTotal − MemFree − per-CPU free lists | Cached | busybox runs add to the page cache | first output | end of the workload |"
	echo "|---|---:|---:|---:|---:|---:|---:|---:|"
	for r in unprofiled profiled squashfs axfs-disk builtin; do
		[ -f "$W/m-$r" ] || continue
		s=$(val $r start)
		f=$(awk -v a="$(val $r first)" -v b="$s" 'BEGIN { print a - b }')
		e=$(awk -v a="$(val $r end)" -v b="$s" 'BEGIN { print a - b }')
		case $r in
		unprofiled) what="AXFS, no profile (physaddr=)" ;;
		profiled) what="AXFS, profiled, --xip-budget $BUDGET (physaddr=)" ;;
		squashfs) what="squashfs, gzip (virtio disk)" ;;
		axfs-disk) what="AXFS, no profile (virtio disk)" ;;
		builtin) what="AXFS, profiled, built-in 6.12 kernel, no initramfs" ;;
		esac
		printf '| %s | %s KiB | %s KiB | %s KiB | %s KiB | %s KiB | %s s (%s) | %s s (%s) |\n' "$what" \
			$(( $(val $r image) / 1024 )) "$(val $r used_kb)" "$(val $r nonfree_kb)" "$(val $r cached_kb)" \
			"$(val $r bb_cache_growth_kb)" "$f" "$(ratio "$f" "$u0f")" "$e" "$(ratio "$e" "$u0e")"
	done
}
table >"$W/table.md"
sed 's/^/# /' "$W/table.md"
if [ -f "$W/m-profiled" ]; then
	pg=$(val profiled bb_cache_growth_kb) ug=$(val unprofiled bb_cache_growth_kb)
	host_check "busybox's runs add less to the page cache on the profiled root ($pg KiB) than on the unprofiled one ($ug KiB)" \
		sh -c "[ -n '$pg' ] && [ -n '$ug' ] && [ '$pg' -lt '$ug' ]"
fi
if [ -f "$W/m-profiled" ] && [ -f "$W/m-squashfs" ]; then
	pc=$(val profiled cached_kb) uc=$(val unprofiled cached_kb) sc=$(val squashfs cached_kb)
	host_check "profiled root: less page cache after the workload ($pc KiB) than unprofiled ($uc) and squashfs ($sc)" \
		sh -c "[ -n '$pc' ] && [ -n '$uc' ] && [ -n '$sc' ] && [ '$pc' -lt '$uc' ] && [ '$pc' -lt '$sc' ]"
	# MemAvailable counts the page cache as available: the RAM XIP saves is
	# what MemFree shows (MemTotal - MemAvailable is in the table too).
	pu=$(val profiled nonfree_kb) uu=$(val unprofiled nonfree_kb) su=$(val squashfs nonfree_kb)
	host_check "profiled root: less RAM in use (MemTotal - MemFree - per-CPU free pages) after the workload ($pu KiB) than unprofiled ($uu) and squashfs ($su)" \
		sh -c "[ -n '$pu' ] && [ -n '$uu' ] && [ -n '$su' ] && [ '$pu' -lt '$uu' ] && [ '$pu' -lt '$su' ]"
fi
if [ -n "$RESULTS" ]; then
	python3 - "$RESULTS" "$ARCH" "$W/table.md" <<'PY'
import sys
path, arch, table = sys.argv[1], sys.argv[2], open(sys.argv[3]).read()
begin = "<!-- rootfs.sh %s: begin -->\n" % arch
end = "<!-- rootfs.sh %s: end -->\n" % arch
try:
    text = open(path).read()
except FileNotFoundError:
    text = ""
block = begin + table + end
if begin in text and end in text:
    a = text.index(begin)
    b = text.index(end) + len(end)
    text = text[:a] + block + text[b:]
else:
    text += ("\n" if text and not text.endswith("\n\n") else "") + block
open(path + ".tmp", "w").write(text)
import os
os.replace(path + ".tmp", path)
PY
	echo "# table written to $RESULTS"
fi
finish
