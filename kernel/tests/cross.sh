#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# cross.sh - axfs.ko on another architecture: cross-built against Debian's
# headers of that architecture, booted once on Debian's kernel under
# qemu's virt machine (TCG), tested there (guest/cross.sh).
#   AXFS=build/axfs sh kernel/tests/cross.sh --arch ARCH [SUITE [FLAVOUR]]
#
# ARCH: arm64, armhf or riscv64; what is particular to each (qemu machine
# and console, reserved memory, cross compiler, kernel flavour, default
# SUITE, modules) is in arch/ARCH.sh.  Defaults: arm64 and armhf 6.1
# (bookworm; armhf: armmp, or armmp-lpae), riscv64 6.12 (trixie).
#
# Prints one "ok N - name" / "not ok N - name" line per check and ends with
# "# ARCH kernel tests (KVER): N passed, N failed".  Needs root; installs
# qemu, the cross compiler, device-tree-compiler and busybox-static when
# missing; fetches the kernel, headers and busybox-static of ARCH through
# a private apt configuration (arch/fetch.sh).  Only when those cannot be
# had does it print "ok 1 # skip REASON".  A kernel built with gcc-12
# (Debian 12's) is built on the host with Debian 12's cross compiler;
# one built with gcc-14 in a trixie build root (buildroot.sh) with
# trixie's.  At the end it also cross-builds the module against the
# kernels arch/ARCH.sh lists in KT_XBUILDS (arm64: the newest, and its
# 16 KiB-page flavour, against which the build must stop; armhf: 6.12
# armmp and armmp-lpae).
#
# Memory: qemu's own device tree for the machine, plus a reserved-memory
# node with no-map over 256 MiB (lib.sh kt_dtb, arch/ARCH.sh KT_PHYS_BASE).
# Inside it: the XIP image (qemu's loader), three MTDs made by
# ramflash.ko (Debian's kernels here have no phram or mtdram) that the
# guest writes after boot, an area written through /dev/mem, and the
# corrupted images (loader).
set -u
export LC_ALL=C
here=$(cd "$(dirname "$0")" && pwd)
AXFS_TOP=${AXFS_TOP:-$(cd "$here/../.." && pwd)}
[ "${1:-}" = --arch ] && [ $# -ge 2 ] && [ -f "$here/arch/$2.sh" ] ||
	{ echo "usage: cross.sh --arch arm64|armhf|riscv64 [SUITE [FLAVOUR]]" >&2; exit 2; }
KT_ARCH=$2
shift 2
. "$here/lib.sh"

SUITE=${1:-$KT_SUITE}
FLAVOUR=${2:-$KT_FLAVOUR}
# The arch file may change the machine or memory for a flavour.
! command -v kt_flavour >/dev/null 2>&1 || kt_flavour "$FLAVOUR"
CROSS=$KT_CROSS

# The matrix table (matrix.sh --table) gets a line for this kernel.
finish() {
	if [ -n "${KVER:-}" ] && [ -n "${built:-}" ]; then
		v=${KVER%%-*}
		kt_record "$KVER" VERSION="${v%%+*}" KVER="$KVER" \
			DEBIAN="$(debian_release "$SUITE"), $KT_ARCH" GCC="${CROSS}$gcc" BUILT="$built"
		if [ "${booted:-0}" = 1 ] && [ "$failed" -eq 0 ]; then
			kt_record "$KVER" BOOTED="cross.sh ($passed passed), $(date -u +%F)"
		elif [ "${booted:-0}" = 1 ]; then
			kt_record "$KVER" BOOTED="FAILS (cross.sh: $failed of $((passed + failed))), $(date -u +%F)"
		fi
	fi
	kt_summary "$KT_ARCH kernel tests (${KVER:-$SUITE $FLAVOUR})"
}
debian_release() {
	case $1 in
	bookworm) echo "12 (bookworm)" ;;
	trixie) echo "13 (trixie)" ;;
	*) echo "$1" ;;
	esac
}

# ---- tools, kernel, modules -----------------------------------------------
kt_need_root
for need in $KT_QEMU:$KT_QEMU_PKG ${CROSS}gcc:$KT_CROSS_PKG \
	    dtc:device-tree-compiler; do
	command -v "${need%%:*}" >/dev/null 2>&1 ||
		skip_all "${need%%:*}: $(kt_missing "${need#*:}" kernel-all)"
done
dpkg -s "$KT_CROSS_LIBC" >/dev/null 2>&1 ||
	skip_all "no C library for ${CROSS}gcc: $(kt_missing "$KT_CROSS_LIBC" kernel-all)"
KT_BUSYBOX=$(kt_static_busybox) ||
	skip_all "no static busybox: $(kt_missing busybox-static kernel-all)"
out=$(sh "$here/arch/fetch.sh" --arch "$KT_ARCH" "$SUITE" "$FLAVOUR") ||
	skip_all "cannot fetch Debian's $KT_ARCH kernel packages ($SUITE $FLAVOUR)"
eval "$out"
KT_GUEST_BUSYBOX=$GUEST_BUSYBOX
[ -r "$VMLINUZ" ] && [ -d "$KDIR" ] && [ -x "$KT_GUEST_BUSYBOX" ] ||
	skip_all "$KT_ARCH kernel cache incomplete"

AXFS=${AXFS:-$AXFS_TOP/build/axfs}
SEEDREAD="python3 $AXFS_TOP/tests/tools/seedread.py"
kt_workdir "axfs-$KT_ARCH" "${AXFS_KEEP:-0}" kt_say

# Cross-build with every warning W=1 adds; any warning fails the check.
# The compiler is the one the kernel was built with: gcc-12 (Debian 12)
# on the host; gcc-14 in a trixie build root, where trixie's kbuild
# programs run too.
xmake_in() {	# xmake_in KDIR DIR: kbuild of the module in DIR
	local gcc root
	gcc=$(sed -n 's/^CONFIG_GCC_VERSION=\([0-9]*\)$/\1/p' "$1/include/config/auto.conf")
	if [ $((${gcc:-0} / 10000)) = 12 ]; then
		make -C "$1" M="$2" ARCH=$KT_KARCH CROSS_COMPILE=$CROSS W=1 modules
	else
		root=$(sh "$here/buildroot.sh" trixie "$KT_CROSS_PKG14") && eval "$root" &&
			sh "$here/buildroot.sh" --run "$ROOT" --bind "${2%/*}" -- \
				make -C "$1" M="$2" ARCH=$KT_KARCH CROSS_COMPILE=$CROSS W=1 modules
	fi
}
xmake() { xmake_in "$KDIR" "$1"; }
# Built in copies: the x86 tests may build kernel/ at the same time.
sh "$here/module-tree.sh" "$W"
cp -r "$here/ramflash" "$W/ramflash"
gcc=gcc-$(($(sed -n 's/^CONFIG_GCC_VERSION=//p' "$KDIR/include/config/auto.conf") / 10000))
built="FAILS, $(date -u +%F)"
if xmake "$W/kernel" >"$W/build.log" 2>&1; then
	tap ok "cross-build axfs.ko against $KVER (${CROSS}$gcc, W=1)"
	host_check "axfs.ko builds without warnings" sh -c "! grep 'warning:' '$W/build.log'"
	grep -q 'warning:' "$W/build.log" || built="yes, $(date -u +%F)"
else
	tap fail "cross-build axfs.ko against $KVER (W=1)"
	sed 's/^/#   /' "$W/build.log" | tail -n 30
	finish
fi
KO=$W/kernel/axfs.ko
host_check "axfs.ko is a $KT_ARCH module for $KVER" \
	sh -c "file '$KO' | grep -q '$KT_ELF' && tr '\\0' '\\n' <'$KO' | grep -a -q '^vermagic=$KVER '"
if xmake "$W/ramflash" >"$W/ramflash.log" 2>&1; then
	host_check "cross-build ramflash.ko (test MTD over reserved memory) without warnings" \
		sh -c "! grep 'warning:' '$W/ramflash.log'"
else
	tap fail "cross-build ramflash.ko"
	sed 's/^/#   /' "$W/ramflash.log" | tail -n 30
	finish
fi
[ -x "$AXFS" ] || { tap fail "the axfs binary exists ($AXFS)"; finish; }

stage=$W/stage
mkdir -p "$stage/tests" "$stage/data" "$stage/corrupt" "$stage/bin"
host_check "cross-compile the static probe program" \
	${CROSS}gcc -static -O2 -Wall -pthread -o "$stage/bin/probe" "$here/probe.c"

# ---- trees and images -------------------------------------------------------
MTIME=1700000000
KT_DEBROOT=
kt_debian_pkgs >"$W/debian-pkgs.log" 2>&1 || KT_DEBROOT=
MKTREE_BUSYBOX=$KT_GUEST_BUSYBOX sh "$here/mktree.sh" "$W/full" full "$MODROOT" "$KT_DEBROOT" \
	>"$W/mktree.log" 2>&1 &&
	sh "$here/mktree.sh" "$W/mini" mini >>"$W/mktree.log" 2>&1 ||
	{ tap fail "build the source trees"; sed 's/^/#   /' "$W/mktree.log"; finish; }
mkdir -p "$W/lateA/bin" "$W/lateB/bin"
cp "$KT_GUEST_BUSYBOX" "$W/lateA/bin/prog"
ln -s prog "$W/lateA/bin/busybox"	# busybox picks its applet by name
cp "$stage/bin/probe" "$W/lateB/bin/prog"

mk() {	# mk NAME MKFS-OPTIONS... SOURCE
	local name=$1
	shift
	"$AXFS" mkfs -q --mtime $MTIME "$@" -o "$W/$name.img" >"$W/mkfs-$name.log" 2>&1 ||
		{ sed 's/^/#   /' "$W/mkfs-$name.log" | head -n 10; return 1; }
}
printf 'files:\n  - { match: "/ba", compress: none }\n' >"$W/mini.yaml"
mk tree "$W/full" && mk xip --xip '/bin/*' "$W/full" &&
	mk lateA --xip '/bin/*' "$W/lateA" && mk lateB --xip '/bin/*' "$W/lateB" &&
	mk miniraw --compress-metadata=no -c "$W/mini.yaml" --xip /bin/xipfile "$W/mini" &&
	mk minizmeta --compress-metadata=yes -b 4KiB -c "$W/mini.yaml" --xip /bin/xipfile "$W/mini" ||
	{ tap fail "mkfs: every image"; finish; }
tap ok "mkfs: every image"
host_check "corrupted images (corrupt.py), and a sparse 3 GiB one claiming 2 GiB of strings" \
	python3 "$here/corrupt.py" "$W/miniraw.img" "$W/minizmeta.img" "$stage/corrupt" \
	"$W/hugemeta.img"

# ---- memory layout inside the reserved 256 MiB ------------------------------
at() { printf '0x%x' $((KT_PHYS_BASE + $1)); }	# an offset in the reserved range
PHYS_XIP=$(at 0)		# XIP image, placed by qemu's loader (48 MiB)
PHYS_MTD=$(at 0x3000000)	# ramflash "axfsnor" (48 MiB)
MTD_SIZE=0x3000000
PHYS_LATE=$(at 0x6000000)	# ramflash "axfslate" (8 MiB)
LATE_SIZE=0x800000
PHYS_DEVMEM=$(at 0x6800000)	# written through /dev/mem (8 MiB)
PHYS_HMTD=$(at 0x7000000)	# ramflash "axfshostile" (2 MiB)
HMTD_SIZE=0x200000
PHYS_CORRUPT_BASE=$((KT_PHYS_BASE + 0x8000000))	# corrupted images, 1 MiB apart
size_of() { stat -c %s "$1"; }
host_check "images fit their places in the reserved memory" sh -c "
	test $(size_of "$W/xip.img") -le $((MTD_SIZE)) &&
	test $(size_of "$W/lateA.img") -le $((LATE_SIZE)) &&
	test $(size_of "$W/lateB.img") -le $((LATE_SIZE))"

kt_corrupt_loaders "$stage/corrupt" $PHYS_CORRUPT_BASE

XIP_BB_NONXIP=$(( ($(size_of "$W/full/bin/busybox") + 4095) / 4096 -
	$($SEEDREAD xip "$W/xip.img" | grep -c '^/bin/busybox,') ))
cp "$here/guest/init" "$stage/init"
chmod 755 "$stage/init"
cp "$here/guest/lib.sh" "$here/guest/listing.sh" "$here/guest/workload.sh" \
	"$here/guest/hostile.sh" "$here/guest/cross.sh" "$stage/tests/"
cp "$W/lateA.img" "$W/lateB.img" "$stage/data/"
mkdir -p "$stage/lib/modules/$KVER/extra"
cp "$W/ramflash/ramflash.ko" "$stage/lib/modules/$KVER/extra/"
"$KT_BUSYBOX" sh "$here/guest/listing.sh" "$W/full" >"$stage/data/tree.list"
cat >"$stage/data/config" <<EOF
ARCH=$KT_ARCH
SYSRAM=$KT_SYSRAM
IOMEM_RESERVED=$KT_IOMEM_RESERVED
PHYS_ADDR_BITS=$KT_PHYS_ADDR_BITS
HIGHMEM=${KT_HIGHMEM:-no}
MTIME=$MTIME
PHYS_BASE=$KT_PHYS_BASE
PHYS_SIZE=$(numfmt --from=iec "$KT_PHYS_SIZE")
PHYS_XIP=$PHYS_XIP
XIP_SIZE=$(( ($(size_of "$W/xip.img") + 4095) / 4096 * 4096 ))
XIP_BB_RSS_KB=$(( (KT_XIP_IN_RSS == 1 ? ($(size_of "$W/full/bin/busybox") + 4095) / 4096 : XIP_BB_NONXIP) * 4 ))
BB_SHA256=$(sha256sum <"$KT_GUEST_BUSYBOX" | cut -c1-64)
PHYS_MTD=$PHYS_MTD
MTD_SIZE=$MTD_SIZE
PHYS_LATE=$PHYS_LATE
LATE_SIZE=$LATE_SIZE
PHYS_DEVMEM=$PHYS_DEVMEM
PHYS_HMTD=$PHYS_HMTD
HMTD_SIZE=$HMTD_SIZE
PHYS_CORRUPT="$KT_PHYS_CORRUPT"
EOF

# ---- the boot ---------------------------------------------------------------
KT_DTB=$W/virt.dtb
if kt_dtb "$KT_DTB" >"$W/dtc.log" 2>&1; then
	tap ok "device tree: qemu's virt tree + reserved-memory no-map at $KT_PHYS_BASE"
else
	tap fail "device tree: qemu's virt tree + reserved-memory no-map at $KT_PHYS_BASE"
	sed 's/^/#   /' "$W/dtc.log"
	finish
fi
KT_INITRD=$W/initrd.cpio
kt_initramfs "$stage" "$KT_INITRD" || { tap fail "build the initramfs"; finish; }
echo "# booting $KVER ($KT_ARCH, TCG) after $(($(date +%s) - T0)) s"
t_boot=$(date +%s)
# shellcheck disable=SC2046,SC2086
kt_boot "$W/boot.log" 900 "axfsplan=cross slub_debug=FZPU,kmalloc-*" \
	$(drive "$W/tree.img" tree) $(drive "$W/xip.img" xip) \
	$(drive "$W/hugemeta.img" hugemeta) $(drive "$W/hugemeta-ram.img" hugeram) \
	-device loader,file="$W/xip.img",addr=$PHYS_XIP,force-raw=on \
	$KT_LOADERS
booted=1
echo "# the guest ran $(($(date +%s) - t_boot)) s"
parse_guest "$W/boot.log" "$KT_ARCH"

# ---- the profile, back on the host -------------------------------------------
sed -n '/^AXFS-PROFILE-BEGIN$/,/^AXFS-PROFILE-END$/p' "$W/boot.log" |
	sed '1d;$d' >"$W/profile.csv"
host_check "profile: collected from /proc/axfs/volume0 ($(wc -l <"$W/profile.csv") lines)" \
	grep -q '^\./bin/busybox,' "$W/profile.csv"
if mk treeprof -p "$W/profile.csv" "$W/full"; then
	tap ok "mkfs -p: image from the $KT_ARCH guest's profile"
	$SEEDREAD xip "$W/treeprof.img" | sort >"$W/treeprof.xip"
	sed -n 's/^\.\(\/.*\),\([0-9]*\),[0-9]*$/\1,\2/p' "$W/profile.csv" | sort >"$W/profile.pages"
	host_check "mkfs -p: every profiled page is XIP in the new image ($(wc -l <"$W/profile.pages") pages)" \
		sh -c "test -s '$W/profile.pages' && comm -23 '$W/profile.pages' '$W/treeprof.xip' | head -n 5 | { ! grep .; }"
else
	tap fail "mkfs -p: image from the $KT_ARCH guest's profile"
fi

# ---- other kernels of the architecture (KT_XBUILDS): builds only ------------
# Only in the run of the default kernel: the other runs (armhf's LPAE
# flavour) would repeat them.
if [ "$SUITE:$FLAVOUR" != "$KT_SUITE:$KT_FLAVOUR" ]; then
	KT_XBUILDS=
fi
for sf in $KT_XBUILDS; do
	d=$W/build-${sf%%:*}-${sf#*:}
	sh "$here/module-tree.sh" "$d"
	(out=$(sh "$here/arch/fetch.sh" --arch "$KT_ARCH" "${sf%%:*}" "${sf#*:}") && eval "$out" &&
	 echo "KVER $KVER $(sed -n 's/^CONFIG_PAGE_SHIFT=//p' "$KDIR/.config")" &&
	 xmake_in "$KDIR" "$d/kernel") >"$d.log" 2>&1
	set -- $(sed -n 's/^KVER //p' "$d.log")
	if [ -n "${2:-}" ] && [ "$2" != 12 ]; then
		# Pages of 16 or 64 KiB: the module must not build (in tree,
		# Kconfig's PAGE_SIZE_4KB keeps AXFS from being chosen).
		host_check "cross-build axfs.ko against $1 ($((1 << $2 >> 10)) KiB pages) stops with 'AXFS needs a kernel with 4 KiB pages'" \
			sh -c "[ ! -f '$d/kernel/axfs.ko' ] && grep -q 'AXFS needs a kernel with 4 KiB pages' '$d.log'"
	elif [ -f "$d/kernel/axfs.ko" ]; then
		host_check "cross-build axfs.ko against $1 ($((1 << ${2:-12} >> 10)) KiB pages, W=1) without warnings" \
			sh -c "! grep 'warning:' '$d.log'"
	else
		tap fail "cross-build axfs.ko against the Debian $KT_ARCH kernel $sf"
		tail -n 20 "$d.log" | sed 's/^/#   /'
	fi
done

finish
