# SPDX-License-Identifier: GPL-2.0-only
# shellcheck shell=sh
# rootfs.sh's facts about an architecture that kernel/tests/cross.sh boots
# (sourced by rootfs/arm64.sh, armhf.sh and riscv64.sh; see amd64.sh for the
# names): everything comes from arch/KT_ARCH.sh, which lib.sh has sourced
# (Debian's kernel of KT_SUITE/KT_FLAVOUR fetched by arch/fetch.sh, qemu's
# virt machine KT_MACHINE with the reserved-memory node of kt_dtb), and
# the module is cross-built as cross.sh builds it: with Debian 12's cross
# compiler for a kernel built by gcc-12, in the trixie build root
# (buildroot.sh) for one built by gcc-14.
RA_DEBARCH=$KT_DEB_ARCH
RA_PHYS_BASE=$KT_PHYS_BASE
RA_PHYS_SIZE=$KT_PHYS_SIZE
RA_CROSS=$KT_CROSS
# Where /proc/iomem does not list no-map reserved memory (armhf), a
# physaddr= mount also needs physsize= (kernel/README.md, armhf).
if [ "$KT_IOMEM_RESERVED" = no ]; then
	RA_ROOTFLAGS="physaddr=$RA_PHYS_BASE,physsize=$RA_PHYS_SIZE"
fi
# Whether XIP pages count in a process's RSS (no special PTEs: armmp).
RA_XIP_IN_RSS=$KT_XIP_IN_RSS

ra_setup() {
	local need out
	for need in $KT_QEMU:$KT_QEMU_PKG ${RA_CROSS}gcc:$KT_CROSS_PKG \
		    dtc:device-tree-compiler; do
		command -v "${need%%:*}" >/dev/null 2>&1 ||
			{ KT_SKIP="${need%%:*}: $(kt_missing "${need#*:}" kernel-all)"; return 1; }
	done
	KT_BUSYBOX=$(kt_static_busybox) ||
		{ KT_SKIP="no static busybox: $(kt_missing busybox-static kernel-all)"; return 1; }
	out=$(sh "$KT_KERNEL/tests/arch/fetch.sh" --arch "$KT_ARCH" "$KT_SUITE" "$KT_FLAVOUR") ||
		{ KT_SKIP="cannot fetch Debian's $KT_ARCH kernel packages ($KT_SUITE $KT_FLAVOUR)"; return 1; }
	eval "$out"
	KT_GUEST_BUSYBOX=$GUEST_BUSYBOX
	# Built in a copy: other tests may build kernel/ at the same time.
	sh "$KT_KERNEL/tests/module-tree.sh" "$W"
	ra_kbuild "$W/kernel" "$W/build.log" ||
		{ KT_SKIP="axfs.ko does not cross-build for $KVER"; cat "$W/build.log" >&2; return 1; }
	KO=$W/kernel/axfs.ko
	KT_DTB=$W/virt.dtb
	kt_dtb "$KT_DTB" >"$W/dtc.log" 2>&1 ||
		{ KT_SKIP="cannot make the device tree"; return 1; }
}

# ra_kbuild DIR LOG: kbuild of the module sources in DIR (under $W) for
# KDIR, with the compiler the kernel was built with: Debian 12's cross
# compiler for gcc-12, the trixie build root's for gcc-14.  Also used for
# other test modules (bench/kernel/boot-order.sh: ramflash.ko).
ra_kbuild() {
	local gcc root
	gcc=$(sed -n 's/^CONFIG_GCC_VERSION=\([0-9]*\)$/\1/p' "$KDIR/include/config/auto.conf")
	if [ $((${gcc:-0} / 10000)) = 12 ]; then
		make -C "$KDIR" M="$1" ARCH=$KT_KARCH CROSS_COMPILE=$RA_CROSS modules >"$2" 2>&1
	else
		root=$(sh "$KT_KERNEL/tests/buildroot.sh" trixie "$KT_CROSS_PKG14" 2>"$2") &&
			eval "$root" &&
			sh "$KT_KERNEL/tests/buildroot.sh" --run "$ROOT" --bind "$W" -- \
				make -C "$KDIR" M="$1" ARCH=$KT_KARCH CROSS_COMPILE=$RA_CROSS modules \
				>>"$2" 2>&1
	fi
}

# The private apt configuration arch/fetch.sh made (amd64 + ARCH), of the
# architecture's own suite (RA_DEB_SUITE, rootfs.sh) whichever kernel
# boots: the root tree is the same for every kernel (rootfs.sh --kernel).
ra_download() {	# ra_download DIR PKG...
	local dir=$1 suite=${RA_DEB_SUITE:-$KT_SUITE} apt p
	apt=${AXFS_KCACHE:-/var/cache/axfs-tools/kernel}/$KT_ARCH/apt-$suite
	shift
	[ -f "$apt/sources.list" ] ||
		sh "$KT_KERNEL/tests/arch/fetch.sh" --arch "$KT_ARCH" "$suite" >/dev/null ||
		return 1
	set -- $(for p in "$@"; do echo "$p:$RA_DEBARCH"; done)
	(cd "$dir" && apt-get -o APT::Architectures=amd64,$RA_DEBARCH \
		-o Dir::Etc::sourcelist="$apt/sources.list" -o Dir::Etc::sourceparts=/dev/null \
		-o Dir::State::Lists="$apt/lists" -o Dir::Cache="$apt/cache" \
		-o Dir::State::status=/dev/null -o Debug::NoLocking=1 download -q "$@")
}

ra_boot() {
	kt_boot "$@"
}

ra_disk() {
	drive "$1" "$2"
}
