# SPDX-License-Identifier: GPL-2.0-only
# shellcheck shell=sh
# rootfs.sh's facts about arm64 (sourced; see amd64.sh for the names):
# Debian's 6.1 arm64 kernel under qemu-system-aarch64 -M virt, the module
# cross-built, RAM for the image reserved by a reserved-memory node with
# no-map in qemu's own device tree (lib.sh kt_arm64_dtb).
RA_DEBARCH=arm64
RA_PHYS_BASE=$KT_PHYS_BASE		# lib.sh: 256 MiB at 0x70000000
RA_PHYS_SIZE=$KT_PHYS_SIZE
RA_CROSS=aarch64-linux-gnu-

ra_setup() {
	local need out
	for need in qemu-system-aarch64:qemu-system-arm ${RA_CROSS}gcc:gcc-aarch64-linux-gnu \
		    dtc:device-tree-compiler; do
		command -v "${need%%:*}" >/dev/null 2>&1 ||
			{ KT_SKIP="${need%%:*}: $(kt_missing "${need#*:}" kernel-all)"; return 1; }
	done
	KT_BUSYBOX=$(kt_static_busybox) ||
		{ KT_SKIP="no static busybox: $(kt_missing busybox-static kernel-all)"; return 1; }
	out=$(sh "$KT_KERNEL/tests/arm64/fetch.sh" bookworm) ||
		{ KT_SKIP="cannot fetch Debian's arm64 kernel packages"; return 1; }
	eval "$out"
	KT_GUEST_BUSYBOX=$GUEST_BUSYBOX
	mkdir -p "$W/kernel" "$W/include/axfs"
	cp "$KT_KERNEL"/*.c "$KT_KERNEL"/*.h "$KT_KERNEL/Kbuild" "$KT_KERNEL/compat.mk" "$W/kernel/"
	cp -R "$KT_KERNEL/probes" "$W/kernel/"
	rm -f "$W/kernel/axfs-probes.h" "$W/kernel"/*.mod.c
	cp "$KT_TOP/include/axfs/axfs_fs.h" "$W/include/axfs/"
	make -C "$KDIR" M="$W/kernel" ARCH=arm64 CROSS_COMPILE=$RA_CROSS modules \
		>"$W/build.log" 2>&1 ||
		{ KT_SKIP="axfs.ko does not cross-build"; cat "$W/build.log" >&2; return 1; }
	KO=$W/kernel/axfs.ko
	KT_DTB=$W/virt.dtb
	kt_arm64_dtb "$KT_DTB" >"$W/dtc.log" 2>&1 ||
		{ KT_SKIP="cannot make the device tree"; return 1; }
}

# The private apt configuration arm64/fetch.sh made (amd64 + arm64).
ra_download() {	# ra_download DIR PKG...
	local dir=$1 apt=${AXFS_KCACHE:-/var/cache/axfs-tools/kernel}/arm64/apt-bookworm p
	shift
	set -- $(for p in "$@"; do echo "$p:arm64"; done)
	(cd "$dir" && apt-get -o APT::Architectures=amd64,arm64 \
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

# The built-in route (rootfs.sh --builtin): Debian's 6.12 source with the
# AXFS patch, CONFIG_AXFS=y, tinyconfig-based (builtin-kernel.sh, cached).
ra_builtin_kernel() {
	local out
	out=$(sh "$KT_KERNEL/tests/rootfs/builtin-kernel.sh") || return 1
	eval "$out"
	echo "$(cat "${KIMAGE%/*}/source") + AXFS patch, tinyconfig + rootfs/builtin-arm64.config, $(stat -c %s "$KIMAGE") bytes, built in $(cat "${KIMAGE%/*}/build-seconds") s (cached: $KIMAGE)"
}

# No initramfs, no modules: the kernel mounts the root itself.  It has
# no PCI: disks are virtio-mmio (virtio-blk-device).
ra_boot_builtin() {	# ra_boot_builtin LOG TIMEOUT APPEND QEMU-ARGS...
	local log=$1 tmo=$2 append=$3 a
	shift 3
	for a in "$@"; do
		shift
		set -- "$@" "$(echo "$a" | sed 's/virtio-blk-pci,/virtio-blk-device,/')"
	done
	tmo=$((tmo * ${AXFS_KT_SLOW:-1}))
	# shellcheck disable=SC2086
	timeout -k 10 "$tmo" qemu-system-aarch64 $KT_MACHINE -dtb "$KT_DTB" \
		-accel tcg,thread=multi -nographic -no-reboot -nic none \
		-kernel "$KIMAGE" -append "console=ttyAMA0 panic=-1 $append" \
		"$@" </dev/null >"$log" 2>&1
	a=$?
	tr -d '\r' <"$log" >"$log.tmp" && mv "$log.tmp" "$log"
	return $a
}
