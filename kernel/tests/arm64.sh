#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# arm64.sh - axfs.ko on arm64: cross-built with gcc-aarch64-linux-gnu
# against Debian's arm64 headers, booted once on Debian's arm64 kernel
# under qemu-system-aarch64 -M virt (TCG), tested there (guest/arm64.sh).
#   AXFS=build/axfs sh kernel/tests/arm64.sh [SUITE]     (default bookworm)
#
# Prints one "ok N - name" / "not ok N - name" line per check and ends with
# "# arm64 kernel tests: N passed, N failed".  Needs root; installs
# qemu-system-arm, gcc-aarch64-linux-gnu, device-tree-compiler and
# busybox-static when missing; fetches the arm64 kernel, headers and
# busybox-static:arm64 through a private apt configuration
# (arm64/fetch.sh).  Only when those cannot be had does it print
# "ok 1 # skip REASON".  At the end it also cross-builds the module
# against the newest Debian arm64 kernel and its 16 KiB-page flavour (in a
# trixie build root: buildroot.sh).
#
# Memory: qemu's own device tree for the machine, plus a reserved-memory
# node with no-map over 256 MiB at 0x70000000 (lib.sh kt_arm64_dtb).
# Inside it: the XIP image (qemu's loader), three MTDs made by
# ramflash.ko (Debian's arm64 kernels have no phram or mtdram) that the
# guest writes after boot, an area written through /dev/mem, and the
# corrupted images (loader).
set -u
export LC_ALL=C
here=$(cd "$(dirname "$0")" && pwd)
AXFS_TOP=${AXFS_TOP:-$(cd "$here/../.." && pwd)}
KT_ARCH=arm64
. "$here/lib.sh"
# Debian's arm64 kernels build no mtdram, phram or block2mtd: ramflash.ko
# (map_ram over reserved memory) stands in for them.
KT_MODULES="virtio_pci virtio_blk loop mtd mtdblock chipreg map_ram"

SUITE=${1:-bookworm}
CROSS=aarch64-linux-gnu-

finish() {
	kt_summary "arm64 kernel tests"
}

# ---- tools, kernel, modules -----------------------------------------------
kt_need_root
for need in qemu-system-aarch64:qemu-system-arm ${CROSS}gcc:gcc-aarch64-linux-gnu \
	    dtc:device-tree-compiler; do
	command -v "${need%%:*}" >/dev/null 2>&1 ||
		skip_all "${need%%:*}: $(kt_missing "${need#*:}" kernel-all)"
done
KT_BUSYBOX=$(kt_static_busybox) ||
	skip_all "no static busybox for the host side: $(kt_missing busybox-static kernel)"
out=$(sh "$here/arm64/fetch.sh" "$SUITE") ||
	skip_all "cannot fetch Debian's arm64 kernel packages ($SUITE)"
eval "$out"
KT_GUEST_BUSYBOX=$GUEST_BUSYBOX
[ -r "$VMLINUZ" ] && [ -d "$KDIR" ] && [ -x "$KT_GUEST_BUSYBOX" ] ||
	skip_all "arm64 kernel cache incomplete"

AXFS=${AXFS:-$AXFS_TOP/build/axfs}
SEEDREAD="python3 $AXFS_TOP/tests/tools/seedread.py"
kt_workdir axfs-arm64 "${AXFS_KEEP:-0}" kt_say

# Cross-build with every warning W=1 adds; any warning fails the check.
xmake() {	# xmake DIR: kbuild of the module in DIR for arm64
	make -C "$KDIR" M="$1" ARCH=arm64 CROSS_COMPILE=$CROSS W=1 modules
}
# Built in copies: the x86 tests may build kernel/ at the same time.
mkdir -p "$W/kernel" "$W/include/axfs"
cp "$KT_KERNEL"/*.c "$KT_KERNEL"/*.h "$KT_KERNEL/Kbuild" "$W/kernel/"
cp -R "$KT_KERNEL/probes" "$W/kernel/"
rm -f "$W/kernel/axfs-probes.h" "$W/kernel"/*.mod.c
cp "$AXFS_TOP/include/axfs/axfs_format.h" "$W/include/axfs/"
cp -r "$here/ramflash" "$W/ramflash"
if xmake "$W/kernel" >"$W/build.log" 2>&1; then
	tap ok "cross-build axfs.ko against $KVER (${CROSS}gcc, W=1)"
	host_check "axfs.ko builds without warnings" sh -c "! grep 'warning:' '$W/build.log'"
else
	tap fail "cross-build axfs.ko against $KVER (${CROSS}gcc, W=1)"
	sed 's/^/#   /' "$W/build.log" | tail -n 30
	finish
fi
KO=$W/kernel/axfs.ko
host_check "axfs.ko is an arm64 module for $KVER" \
	sh -c "file '$KO' | grep -q 'ARM aarch64' && modinfo -F vermagic '$KO' | grep -q '^$KVER '"
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
host_check "corrupted images (corrupt.py)" \
	python3 "$here/corrupt.py" "$W/miniraw.img" "$W/minizmeta.img" "$stage/corrupt"

# ---- memory layout inside the reserved 256 MiB ------------------------------
PHYS_XIP=0x70000000		# XIP image, placed by qemu's loader (48 MiB)
PHYS_MTD=0x73000000		# ramflash "axfsnor" (48 MiB)
MTD_SIZE=0x3000000
PHYS_LATE=0x76000000		# ramflash "axfslate" (8 MiB)
LATE_SIZE=0x800000
PHYS_DEVMEM=0x76800000		# written through /dev/mem (8 MiB)
PHYS_HMTD=0x77000000		# ramflash "axfshostile" (2 MiB)
HMTD_SIZE=0x200000
PHYS_CORRUPT_BASE=$((0x78000000))	# corrupted images, 1 MiB apart
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
	"$here/guest/hostile.sh" "$here/guest/arm64.sh" "$stage/tests/"
cp "$W/lateA.img" "$W/lateB.img" "$stage/data/"
mkdir -p "$stage/lib/modules/$KVER/extra"
cp "$W/ramflash/ramflash.ko" "$stage/lib/modules/$KVER/extra/"
"$KT_BUSYBOX" sh "$here/guest/listing.sh" "$W/full" >"$stage/data/tree.list"
cat >"$stage/data/config" <<EOF
MTIME=$MTIME
PHYS_BASE=$KT_PHYS_BASE
PHYS_SIZE=$(numfmt --from=iec "$KT_PHYS_SIZE")
PHYS_XIP=$PHYS_XIP
XIP_SIZE=$(( ($(size_of "$W/xip.img") + 4095) / 4096 * 4096 ))
XIP_BB_RSS_KB=$((XIP_BB_NONXIP * 4))
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
if kt_arm64_dtb "$KT_DTB" >"$W/dtc.log" 2>&1; then
	tap ok "device tree: qemu's virt tree + reserved-memory no-map at $KT_PHYS_BASE"
else
	tap fail "device tree: qemu's virt tree + reserved-memory no-map at $KT_PHYS_BASE"
	sed 's/^/#   /' "$W/dtc.log"
	finish
fi
KT_INITRD=$W/initrd.cpio
kt_initramfs "$stage" "$KT_INITRD" || { tap fail "build the initramfs"; finish; }
echo "# booting $KVER (arm64, TCG) after $(($(date +%s) - T0)) s"
t_boot=$(date +%s)
# shellcheck disable=SC2086
kt_boot "$W/boot.log" 900 "axfsplan=arm64 slub_debug=FZPU,kmalloc-*" \
	$(drive "$W/tree.img" tree) $(drive "$W/xip.img" xip) \
	-device loader,file="$W/xip.img",addr=$PHYS_XIP,force-raw=on \
	$KT_LOADERS
echo "# the guest ran $(($(date +%s) - t_boot)) s"
parse_guest "$W/boot.log" arm64

# ---- the profile, back on the host -------------------------------------------
sed -n '/^AXFS-PROFILE-BEGIN$/,/^AXFS-PROFILE-END$/p' "$W/boot.log" |
	sed '1d;$d' >"$W/profile.csv"
host_check "profile: collected from /proc/axfs/volume0 ($(wc -l <"$W/profile.csv") lines)" \
	grep -q '^\./bin/busybox,' "$W/profile.csv"
if mk treeprof -p "$W/profile.csv" "$W/full"; then
	tap ok "mkfs -p: image from the arm64 guest's profile"
	$SEEDREAD xip "$W/treeprof.img" | sort >"$W/treeprof.xip"
	sed -n 's/^\.\(\/.*\),\([0-9]*\),[0-9]*$/\1,\2/p' "$W/profile.csv" | sort >"$W/profile.pages"
	host_check "mkfs -p: every profiled page is XIP in the new image ($(wc -l <"$W/profile.pages") pages)" \
		sh -c "test -s '$W/profile.pages' && comm -23 '$W/profile.pages' '$W/treeprof.xip' | head -n 5 | { ! grep .; }"
else
	tap fail "mkfs -p: image from the arm64 guest's profile"
fi

# ---- the newest Debian arm64 kernel and its 16 KiB-page flavour: builds ------
# Their headers call aarch64-linux-gnu-gcc-14 and their kbuild programs
# need trixie's libc: they build in a trixie build root (buildroot.sh).
for flavour in arm64 arm64-16k; do
	d=$W/build-$flavour
	mkdir -p "$d/kernel" "$d/include/axfs"
	cp "$KT_KERNEL"/*.c "$KT_KERNEL"/*.h "$KT_KERNEL/Kbuild" "$d/kernel/"
	cp -R "$KT_KERNEL/probes" "$d/kernel/"
	rm -f "$d/kernel/axfs-probes.h" "$d/kernel"/*.mod.c
	cp "$AXFS_TOP/include/axfs/axfs_format.h" "$d/include/axfs/"
	if (out=$(sh "$here/arm64/fetch.sh" trixie-backports $flavour) && eval "$out" &&
	    root=$(sh "$here/buildroot.sh" trixie gcc-14-aarch64-linux-gnu) && eval "$root" &&
	    echo "KVER $KVER $(sed -n 's/^CONFIG_PAGE_SHIFT=//p' "$KDIR/.config")" &&
	    sh "$here/buildroot.sh" --run "$ROOT" --bind "$d" -- \
		make -C "$KDIR" M="$d/kernel" ARCH=arm64 CROSS_COMPILE=$CROSS W=1 modules) \
	    >"$d.log" 2>&1 && [ -f "$d/kernel/axfs.ko" ]; then
		set -- $(sed -n 's/^KVER //p' "$d.log")
		host_check "cross-build axfs.ko against $1 ($((1 << ${2:-12} >> 10)) KiB pages; trixie root, gcc-14, W=1) without warnings" \
			sh -c "! grep 'warning:' '$d.log'"
	else
		tap fail "cross-build axfs.ko against the newest Debian $flavour kernel"
		tail -n 20 "$d.log" | sed 's/^/#   /'
	fi
done

# ---- 16 KiB pages: boot that kernel, the module loads and refuses --------------
d=$W/build-arm64-16k
if [ -f "$d/kernel/axfs.ko" ] &&
   out=$(sh "$here/arm64/fetch.sh" trixie-backports arm64-16k 2>"$W/fetch16k.log"); then
	(
		eval "$out"
		[ -r "$VMLINUZ" ] || exit 1
		KO=$d/kernel/axfs.ko
		KT_GUEST_BUSYBOX=$GUEST_BUSYBOX
		KT_MODULES=mtd
		# cortex-a57 has no 16 KiB granule.
		KT_ARM64_MACHINE="-M virt -cpu max -smp 2 -m 1G"
		KT_DTB=$W/virt16k.dtb
		kt_arm64_dtb "$KT_DTB" || exit 1
		s16=$W/stage16k
		mkdir -p "$s16/tests"
		cp "$here/guest/init" "$s16/init"
		chmod 755 "$s16/init"
		cp "$here/guest/lib.sh" "$here/guest/pagesize.sh" "$s16/tests/"
		KT_INITRD=$W/initrd16k.cpio
		kt_initramfs "$s16" "$KT_INITRD" || exit 1
		echo "# booting $KVER (16 KiB pages, TCG)"
		kt_boot "$W/boot16k.log" 300 "axfsplan=pagesize"
	) >"$W/run16k.log" 2>&1
	grep '^# ' "$W/run16k.log"
	if [ -f "$W/boot16k.log" ]; then
		parse_guest "$W/boot16k.log" arm64-16k
	else
		tap fail "boot the 16 KiB-page kernel"
		tail -n 20 "$W/run16k.log" | sed 's/^/#   /'
	fi
else
	tap fail "fetch the 16 KiB-page kernel"
	tail -n 5 "$W/fetch16k.log" | sed 's/^/#   /'
fi
finish
