# SPDX-License-Identifier: GPL-2.0-only
# shellcheck shell=sh
# rootfs.sh's facts about arm64 (sourced; see amd64.sh for the names):
# Debian's 6.1 arm64 kernel under qemu-system-aarch64 -M virt, the module
# cross-built, RAM for the image reserved by a reserved-memory node with
# no-map in qemu's own device tree, as for armhf and riscv64 (virt.sh,
# from arch/arm64.sh); and the built-in route, arm64's alone.
# shellcheck disable=SC1091
. "$KT_KERNEL/tests/rootfs/virt.sh"

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
