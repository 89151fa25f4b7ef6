#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# fetch.sh - Debian's arm64 kernel, its headers (with the amd64 kbuild
# helpers, for cross-building) and busybox-static:arm64, from a private apt
# configuration, into a cache; nothing is installed and neither the host's
# apt sources nor its dpkg architectures change.
#
#   sh kernel/tests/arm64/fetch.sh [SUITE [FLAVOUR]]
#       prints KVER=, KDIR=, VMLINUZ=, MODROOT=, GUEST_BUSYBOX= for eval
#
# SUITE (default bookworm) is the Debian release whose linux-image-arm64
# is used (trixie-backports: the newest, 7.x, with trixie for the rest);
# the ABI is resolved at run time.  FLAVOUR (default arm64) may be
# arm64-16k (16 KiB pages).  The cache is
# $AXFS_KCACHE/arm64 (default /var/cache/axfs-tools/kernel/arm64): the
# apt state in apt-SUITE/, one directory per kernel.
set -eu

suite=${1:-bookworm}
flavour=${2:-arm64}
top=${AXFS_KCACHE:-/var/cache/axfs-tools/kernel}/arm64
current=$top/current-$suite
[ "$flavour" = arm64 ] || current=$current-$flavour
apt=$top/apt-$suite
say() { echo "fetch-arm64: $*" >&2; }

mkdir -p "$apt/lists/partial" "$apt/cache/archives/partial"
exec 9>"$top/.lock"
flock 9

keyring=/usr/share/keyrings/debian-archive-keyring.gpg
opts="[arch=amd64,arm64 signed-by=$keyring]"
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
	"$cmd" -o APT::Architectures=amd64,arm64 \
		-o Dir::Etc::sourcelist="$apt/sources.list" \
		-o Dir::Etc::sourceparts=/dev/null \
		-o Dir::State::Lists="$apt/lists" -o Dir::Cache="$apt/cache" \
		-o Dir::State::status=/dev/null -o Debug::NoLocking=1 \
		${release:+-o APT::Default-Release="$release"} "$@"
}

# Package lists older than a day are refreshed; without network the old
# ones (or the last kernel fetched) are used.
if [ -z "$(find "$apt/lists" -maxdepth 1 -name '*Packages*' -mtime -1 2>/dev/null)" ]; then
	say "apt-get update ($suite, amd64+arm64)"
	aptx apt-get update -q >&2 </dev/null || say "apt-get update failed"
fi

dep() {	# dep PACKAGE REGEX: the first dependency of PACKAGE matching REGEX
	aptx apt-cache depends "$1" 2>/dev/null |
		sed -n "s/^ *Depends: <*\($2\)\(:[a-z0-9]*\)\{0,1\}>*\$/\1/p" | head -n 1
}
image=$(dep "linux-image-$flavour:arm64" "linux-image-[^:]*-$flavour")
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
	common=$(dep "linux-headers-$kver:arm64" 'linux-headers-[^:>]*-common[^:>]*')
	kbuild=$(dep "linux-headers-$kver:arm64" 'linux-kbuild-[^:>]*')
	# The kernel and headers for arm64, the kbuild programs for the host.
	# From 7.x linux-image-KVER is a meta package: the kernel is in
	# linux-binary-KVER, the modules in linux-modules-KVER.
	split=$(aptx apt-cache depends "$image:arm64" 2>/dev/null |
		sed -n "s/^ *Depends: \(linux-\(binary\|modules\|base\)-$kver\)\(:arm64\)\{0,1\}\$/\1:arm64/p")
	pkgs="$image:arm64 $split linux-headers-$kver:arm64 $common $kbuild:amd64 busybox-static:arm64"
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
	vmlinuz=root/boot/vmlinuz-$kver
	[ -e "$dir/$vmlinuz" ] || vmlinuz=root/usr/lib/modules/$kver/vmlinuz
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
