#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# fetch.sh - Debian's kernel of another architecture, its headers (with
# the amd64 kbuild helpers, for cross-building) and busybox-static of that
# architecture, from a private apt configuration, into a cache; nothing is
# installed and neither the host's apt sources nor its dpkg architectures
# change.
#
#   sh kernel/tests/arch/fetch.sh --arch ARCH [SUITE [FLAVOUR]]
#       prints KVER=, KDIR=, VMLINUZ=, MODROOT=, GUEST_BUSYBOX= for eval
#
# ARCH is a Debian architecture with a file here (arm64.sh, armhf.sh,
# riscv64.sh) that names its default SUITE and FLAVOUR.  SUITE is the
# Debian release whose linux-image-FLAVOUR is used (trixie-backports: the
# newest, 7.x, with trixie for the rest); the ABI is resolved at run time.
# FLAVOUR: arm64, arm64-16k (16 KiB pages), armmp, armmp-lpae, riscv64.
# The cache is $AXFS_KCACHE/ARCH (default /var/cache/axfs-tools/kernel/
# ARCH): the apt state in apt-SUITE/, one directory per kernel.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
[ "${1:-}" = --arch ] && [ $# -ge 2 ] ||
	{ echo "usage: fetch.sh --arch ARCH [SUITE [FLAVOUR]]" >&2; exit 2; }
arch=$2
shift 2
[ -f "$here/$arch.sh" ] && [ "$arch" != load ] || { echo "fetch.sh: no $here/$arch.sh" >&2; exit 2; }
. "$here/load.sh"
kt_load_arch "$here" "$arch"
suite=${1:-$KT_SUITE}
flavour=${2:-$KT_FLAVOUR}
top=${AXFS_KCACHE:-/var/cache/axfs-tools/kernel}/$arch
current=$top/current-$suite
[ "$flavour" = "$KT_FLAVOUR" ] || current=$current-$flavour
apt=$top/apt-$suite
say() { echo "fetch-$arch: $*" >&2; }

mkdir -p "$apt/lists/partial" "$apt/cache/archives/partial"
exec 9>"$top/.lock"
flock 9

keyring=/usr/share/keyrings/debian-archive-keyring.gpg
opts="[arch=amd64,$arch signed-by=$keyring]"
{
	echo "deb $opts http://deb.debian.org/debian $suite main"
	case $suite in
	bookworm|trixie) echo "deb $opts http://deb.debian.org/debian-security $suite-security main" ;;
	*-backports) echo "deb $opts http://deb.debian.org/debian ${suite%-backports} main" ;;
	esac
} >"$apt/sources.list"

# Backports are not chosen unless asked for.
release=
case $suite in *-backports) release=$suite ;; esac

aptx() {	# apt-get/apt-cache with the private configuration
	cmd=$1
	shift
	"$cmd" -o APT::Architectures=amd64,$arch \
		-o Dir::Etc::sourcelist="$apt/sources.list" \
		-o Dir::Etc::sourceparts=/dev/null \
		-o Dir::State::Lists="$apt/lists" -o Dir::Cache="$apt/cache" \
		-o Dir::State::status=/dev/null -o Debug::NoLocking=1 \
		${release:+-o APT::Default-Release="$release"} "$@"
}

# Package lists older than a day are refreshed; without network the old
# ones (or the last kernel fetched) are used.
if [ -z "$(find "$apt/lists" -maxdepth 1 -name '*Packages*' -mtime -1 2>/dev/null)" ]; then
	say "apt-get update ($suite, amd64+$arch)"
	aptx apt-get update -q >&2 </dev/null || say "apt-get update failed"
fi

dep() {	# dep PACKAGE REGEX: the first dependency of PACKAGE matching REGEX
	aptx apt-cache depends "$1" 2>/dev/null |
		sed -n "s/^ *Depends: <*\($2\)\(:[a-z0-9]*\)\{0,1\}>*\$/\1/p" | head -n 1
}
image=$(dep "linux-image-$flavour:$arch" "linux-image-[^:]*-$flavour")
if [ -z "$image" ]; then
	[ -e "$current/.complete" ] ||
		{ say "cannot resolve linux-image-$flavour in $suite"; exit 1; }
	kver=$(cat "$current/.kver")
else
	kver=${image#linux-image-}
	kver=${kver%-unsigned}
fi
dir=$top/$kver
# Modules are in /usr/lib/modules from trixie on (merged /usr).
modroot() {
	if [ -d "$dir/root/lib/modules/$kver" ]; then
		echo "$dir/root/lib/modules/$kver"
	else
		echo "$dir/root/usr/lib/modules/$kver"
	fi
}

if [ ! -e "$dir/.complete" ]; then
	rm -rf "$dir"
	mkdir -p "$dir/debs" "$dir/root"
	common=$(dep "linux-headers-$kver:$arch" 'linux-headers-[^:>]*-common[^:>]*')
	kbuild=$(dep "linux-headers-$kver:$arch" 'linux-kbuild-[^:>]*')
	# The kernel and headers for $arch, the kbuild programs for the host.
	# From 7.x linux-image-KVER is a meta package: the kernel is in
	# linux-binary-KVER, the modules in linux-modules-KVER.
	split=$(aptx apt-cache depends "$image:$arch" 2>/dev/null |
		sed -n "s/^ *Depends: \(linux-\(binary\|modules\|base\)-$kver\)\(:$arch\)\{0,1\}\$/\1:$arch/p")
	pkgs="$image:$arch $split linux-headers-$kver:$arch $common $kbuild:amd64 busybox-static:$arch"
	say "downloading $pkgs"
	# shellcheck disable=SC2086
	(cd "$dir/debs" && aptx apt-get download -q $pkgs >&2)
	for deb in "$dir"/debs/*.deb; do
		dpkg -x "$deb" "$dir/root"
	done
	rm -rf "$dir/debs"
	hdr=$dir/root/usr/src/linux-headers-$kver
	# The arch headers name the common tree (and from 7.x themselves) by
	# absolute paths in /usr/src.
	sed -i "s#^\(include \|KBUILD_OUTPUT=\)/usr/src/#\1$dir/root/usr/src/#" "$hdr/Makefile"
	ln -sfn "root/usr/src/linux-headers-$kver" "$dir/build"
	# riscv64 ships an uncompressed Image as /boot/vmlinux-KVER.
	for vmlinuz in root/boot/vmlinuz-$kver root/usr/lib/modules/$kver/vmlinuz \
		       root/boot/vmlinux-$kver; do
		[ ! -e "$dir/$vmlinuz" ] || break
	done
	ln -sfn "$vmlinuz" "$dir/vmlinuz"
	ln -sfn "$hdr" "$(modroot)/build"
	# 7.x modules are xz-compressed: the test initramfs wants them plain.
	find "$(modroot)" -name '*.ko.xz' -exec xz -d {} +
	[ ! -f "$(modroot)/modules.order" ] ||
		sed -i 's/\.ko\.xz$/.ko/' "$(modroot)/modules.order"
	echo "$kver" >"$dir/.kver"
	touch "$dir/.complete"
	say "unpacked into $dir"
fi
ln -sfn "$kver" "$current.tmp" && mv -T "$current.tmp" "$current"

echo "KVER=$kver"
echo "KDIR=$dir/build"
echo "VMLINUZ=$dir/vmlinuz"
echo "MODROOT=$(modroot)"
# busybox-static is in /usr/bin from trixie on.
bb=$dir/root/bin/busybox
[ -e "$bb" ] || bb=$dir/root/usr/bin/busybox
echo "GUEST_BUSYBOX=$bb"
