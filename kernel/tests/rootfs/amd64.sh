# SPDX-License-Identifier: GPL-2.0-only
# shellcheck shell=sh
# rootfs.sh's facts about amd64 (sourced): Debian's 6.1 kernel under
# qemu-system-x86_64 -M pc, RAM for the image reserved with memmap=.
# Every architecture file defines the same names:
#   RA_DEBARCH            Debian's name of the architecture
#   RA_PHYS_BASE/SIZE     the reserved RAM qemu's loader puts the image in
#   ra_setup              tools, kernel (KVER KDIR VMLINUZ MODROOT), KO,
#                         KT_GUEST_BUSYBOX; returns 1 with KT_SKIP set
#   ra_download DIR PKG.. apt-get download of that architecture's packages
#   ra_boot LOG TIMEOUT APPEND QEMU-ARGS...   boot KT_INITRD (may be empty)
#   ra_disk FILE SERIAL   qemu arguments for a read-only virtio disk
RA_DEBARCH=amd64
RA_PHYS_BASE=$KT_PHYS_BASE		# lib.sh: 64 MiB at 256 MiB, memmap=
RA_PHYS_SIZE=$KT_PHYS_SIZE

ra_setup() {
	kt_need_tools || return 1
	kt_kernel || return 1
	KT_BUILD_DIR=$W/kbuild
	kt_build_module >"$W/build.log" 2>&1 ||
		{ KT_SKIP="axfs.ko does not build"; cat "$W/build.log" >&2; return 1; }
	KT_GUEST_BUSYBOX=$KT_BUSYBOX
}

ra_download() {	# ra_download DIR PKG...: the host is amd64 Debian 12
	local dir=$1
	shift
	(cd "$dir" && apt-get download -q "$@")
}

ra_boot() {
	kt_boot "$@"
}

ra_disk() {
	drive "$1" "$2"
}
