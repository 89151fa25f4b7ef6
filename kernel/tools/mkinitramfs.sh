#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# mkinitramfs.sh - the initramfs of the module route: what a distribution
# kernel (AXFS not built in) boots through to an AXFS root
# (kernel/README.md, "Recipe: AXFS as root on a board, module route";
# kernel/tests/rootfs.sh boots what this makes on amd64, arm64, armhf and
# riscv64).
#
#   sh kernel/tools/mkinitramfs.sh -k KVER -m MODDIR -b BUSYBOX
#       [-H HOST-BUSYBOX] [-d DIR] [-s] -o OUT.cpio AXFS.KO [MODULE...]
#
# KVER     the board's kernel release (uname -r there)
# MODDIR   that kernel's modules, ROOT/lib/modules/KVER (from its
#          package: dpkg-deb -x linux-image-KVER_*.deb ROOT; modules.dep
#          is made when missing)
# BUSYBOX  a static busybox of the board's architecture (Debian's
#          busybox-static): the initramfs's only program
# HOST-BUSYBOX  a busybox that runs here, for depmod and cpio (default:
#          busybox in PATH)
# DIR      files of your own, copied in first (a /init there replaces
#          the default; busybox's applets do not replace its files)
# AXFS.KO  the module built for KVER (make -C kernel KDIR=...)
# MODULE   what else /init loads (a root on a disk: its driver, e.g.
#          virtio_pci virtio_blk); the modules axfs.ko depends on (its
#          depends=, mtd on Debian's kernels) come with it, each with
#          what modules.dep says it needs
# -s       skip a MODULE the kernel does not have (a list meant for
#          several kernels); without it, that is an error
# /init is kernel/tests/rootfs/initramfs-init: it reads root=,
# rootfstype= and rootflags= from the kernel command line as a kernel with
# AXFS built in does, loads the module, mounts the root read-only and
# switch_roots to its /sbin/init.  Run as root (or under fakeroot): the
# initramfs holds /dev/console.  The kernel tests' guests are made with
# it too (kernel/tests/lib.sh, kt_initramfs: their DIR, their /init).
set -eu

usage() {
	echo "usage: mkinitramfs.sh -k KVER -m MODDIR -b BUSYBOX [-H HOST-BUSYBOX] [-d DIR] [-s] -o OUT.cpio AXFS.KO [MODULE...]" >&2
	exit 2
}
here=$(cd "$(dirname "$0")" && pwd)
kver='' moddir='' busybox='' hostbb=busybox out='' add='' skip=no
while getopts k:m:b:H:d:so: opt; do
	case $opt in
	k) kver=$OPTARG ;;
	m) moddir=$OPTARG ;;
	b) busybox=$OPTARG ;;
	H) hostbb=$OPTARG ;;
	d) add=$OPTARG ;;
	s) skip=yes ;;
	o) out=$OPTARG ;;
	*) usage ;;
	esac
done
shift $((OPTIND - 1))
[ -n "$kver" ] && [ -n "$moddir" ] && [ -n "$busybox" ] && [ -n "$out" ] && [ $# -ge 1 ] || usage
ko=$1
shift
for f in "$ko" "$busybox"; do
	[ -f "$f" ] || { echo "mkinitramfs.sh: no $f" >&2; exit 1; }
done
[ -z "$add" ] || [ -d "$add" ] || { echo "mkinitramfs.sh: no directory $add" >&2; exit 1; }
# A kernel package unpacked with dpkg-deb has no modules.dep (its
# postinst runs depmod): made here, for MODDIR = ROOT/lib/modules/KVER.
[ -f "$moddir/modules.dep" ] || "$hostbb" depmod -b "$moddir/../../.." "$kver"

stage=$(mktemp -d "${TMPDIR:-/tmp}/axfs-initramfs.XXXXXX")
trap 'rm -rf "$stage"' EXIT
[ -z "$add" ] || cp -a "$add/." "$stage/"
mkdir -p "$stage/bin" "$stage/sbin" "$stage/proc" "$stage/sys" \
	"$stage/dev" "$stage/tmp" "$stage/mnt" "$stage/etc" \
	"$stage/lib/modules/$kver/extra"
[ -e "$stage/dev/console" ] || mknod -m 600 "$stage/dev/console" c 5 1
cp "$busybox" "$stage/bin/busybox"
for applet in $("$hostbb" --list); do
	[ -e "$stage/bin/$applet" ] || [ -L "$stage/bin/$applet" ] ||
		ln -s busybox "$stage/bin/$applet"
done
if [ ! -e "$stage/init" ]; then
	cp "$here/../tests/rootfs/initramfs-init" "$stage/init"
	chmod 755 "$stage/init"
fi

# The modules: what axfs.ko depends on (modinfo's depends=, read from the
# file: modinfo may not read a module of another architecture) and the
# MODULEs, each with what modules.dep says it needs (one built into the
# kernel, in modules.builtin, is left out).
depends=$(tr '\0' '\n' <"$ko" | sed -n 's/^depends=//p' | tr ',' ' ')
want=""
for m in $depends "$@"; do
	rel=$(grep -E "(^|/)$m\.ko:" "$moddir/modules.dep" | head -n 1) || :
	if [ -z "$rel" ]; then
		# Built into this kernel: nothing to load.
		grep -qE "(^|/)$m\.ko$" "$moddir/modules.builtin" 2>/dev/null && continue
		[ $skip = no ] || continue
		echo "mkinitramfs.sh: $m.ko is neither in $moddir/modules.dep nor built in" >&2
		exit 1
	fi
	want="$want ${rel%%:*} ${rel#*:}"
done
for rel in $want; do
	mkdir -p "$stage/lib/modules/$kver/$(dirname "$rel")"
	cp "$moddir/$rel" "$stage/lib/modules/$kver/$rel"
done
cp "$ko" "$stage/lib/modules/$kver/extra/axfs.ko"
for f in modules.builtin modules.order; do
	[ ! -f "$moddir/$f" ] || cp "$moddir/$f" "$stage/lib/modules/$kver/"
done
"$hostbb" depmod -b "$stage" "$kver"
(cd "$stage" && find . | "$hostbb" cpio -o -H newc 2>/dev/null) >"$out.tmp"
mv "$out.tmp" "$out"
echo "$out: busybox, axfs.ko (depends: ${depends:-none})${*:+, $*}: $(stat -c %s "$out") bytes"
