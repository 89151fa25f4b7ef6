#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# fetch-kernel.sh - put a Debian kernel and its headers in a cache
# directory, without installing them, for building axfs.ko and booting it
# under qemu.
#
#   sh kernel/tests/fetch-kernel.sh [--arch ARCH] [SUITE]
#
# prints KVER=, KDIR=, VMLINUZ=, MODROOT=, GCC= (the compiler the headers
# call), RELEASE= (the Debian release whose build root has that compiler)
# and SUITE= lines for `eval`.
#
# Without SUITE: the kernel of the host's own apt sources (Debian 12:
# 6.1), and the cache's `current` link points to it.  With SUITE, through
# a private apt configuration (AXFS_CACHE_TOP/apt/SUITE-ARCH; the host's
# sources are never touched):
#   bullseye  5.10 (with bullseye-security)    bookworm  6.1
#   trixie    6.12 (with trixie-security)      trixie-backports, sid
#   newest    the highest of trixie-backports and sid
# ARCH (default amd64) may be arm64: the packages of that architecture.
#
# The ABI (6.1.0-N, 6.12.N+deb13, ...) moves with updates, so it is
# resolved at run time from the linux-headers-ARCH meta package; the
# packages fetched are the closure of the image's and the headers'
# dependencies named linux-{image,headers,binary,modules,base,kbuild}-N...
# (7.x splits the kernel into linux-binary, linux-modules and linux-base).
# The cache (AXFS_KCACHE, default /var/cache/axfs-tools/kernel) keeps one
# directory per kernel version; a second run only prints.  Compressed
# modules (.ko.xz) are decompressed and modules.dep is made.
set -eu

CACHE_TOP=${AXFS_CACHE_TOP:-/var/cache/axfs-tools}
KCACHE=${AXFS_KCACHE:-$CACHE_TOP/kernel}
MIRROR=${AXFS_DEBIAN_MIRROR:-http://deb.debian.org/debian}
say() { echo "fetch-kernel: $*" >&2; }
die() { say "$*"; exit 1; }

arch=amd64
if [ "${1:-}" = --arch ]; then
	arch=$2
	shift 2
fi
suite=${1:-}
host_arch=$(dpkg --print-architecture)
[ -n "$suite" ] || [ "$arch" = "$host_arch" ] || suite=bookworm

# apt-get/apt-cache with the private configuration of $suite, if any
# (apt.sh: AXFS_CACHE_TOP/apt/SUITE-ARCH).
APT_OPTS=
. "$(dirname "$0")/apt.sh"
private_apt() {
	local sec="${MIRROR%/debian}/debian-security"
	case $suite in
	bullseye|bookworm|trixie)
		apt_private "$suite-$arch" "$arch" "deb [arch=$arch] $MIRROR $suite main" \
			"deb [arch=$arch] $sec $suite-security main" ;;
	newest)	apt_private "$suite-$arch" "$arch" "deb [arch=$arch] $MIRROR trixie-backports main" \
			"deb [arch=$arch] $MIRROR sid main" ;;
	*)	apt_private "$suite-$arch" "$arch" "deb [arch=$arch] $MIRROR $suite main" ;;
	esac
}

apt_cache() {
	# shellcheck disable=SC2086
	apt-cache $APT_OPTS "$@" 2>/dev/null
}

# The highest version of the meta package, then the ABI package it names.
resolve_kver() {
	local ver
	ver=$(apt_cache madison "linux-headers-$arch" | awk -F' [|] ' '{print $2}' |
		while read -r v; do echo "$v"; done |
		sort -u | sort_versions | tail -n 1)
	[ -n "$ver" ] || return 0
	apt_cache show "linux-headers-$arch=$ver" |
		sed -n 's/^Depends:.*\(linux-headers-[0-9][^ ,]*-'"$arch"'\) .*/\1/p' |
		head -n 1 | sed 's/^linux-headers-//'
}

sort_versions() {	# dpkg's order, lowest first
	local list= v
	while read -r v; do list="$list $v"; done
	python3 -c '
import subprocess, sys, functools
def cmp(a, b):
    if a == b: return 0
    r = subprocess.run(["dpkg", "--compare-versions", a, "lt", b])
    return -1 if r.returncode == 0 else 1
for v in sorted(sys.argv[1:], key=functools.cmp_to_key(cmp)): print(v)
' $list
}

# The packages to download: the closure of the image's and the headers'
# dependencies among the versioned kernel packages.
closure() {
	local todo="$*" done_=" " p
	while [ -n "$todo" ]; do
		set -- $todo
		p=$1
		shift
		todo="$*"
		case $done_ in *" $p "*) continue ;; esac
		done_="$done_$p "
		echo "$p"
		todo="$todo $(apt_cache depends "$p" |
			sed -n 's/^ *[|]*\(Pre\)*Depends: \(linux-\(image\|headers\|binary\|modules\|base\|kbuild\)-[0-9][^ ]*\)$/\2/p' |
			tr '\n' ' ')"
	done
}

[ -z "$suite" ] || private_apt
mkdir -p "$KCACHE"
last=$KCACHE/.last-${suite:-host}-$arch
kver=$(resolve_kver)
if [ -z "$kver" ] && [ -z "$suite" ] && [ "$(id -u)" = 0 ]; then
	say "no package lists yet: apt-get update"
	apt-get update -q >&2 </dev/null || true
	kver=$(resolve_kver)
fi
if [ -z "$kver" ]; then
	# No package information: fall back to what is already cached.
	[ -s "$last" ] && [ -e "$KCACHE/$(cat "$last")/.complete" ] ||
		die "cannot resolve linux-headers-$arch (${suite:-host apt sources})"
	kver=$(cat "$last")
fi
dir=$KCACHE/$kver

# Two test runs at once must not unpack into the same place.
exec 9>"$KCACHE/.lock"
flock 9

if [ ! -e "$dir/.complete" ]; then
	rm -rf "$dir"
	mkdir -p "$dir/debs" "$dir/root"
	pkgs=$(closure "linux-image-$kver" "linux-headers-$kver" | tr '\n' ' ')
	say "downloading $pkgs"
	# apt-get download writes to the current directory.
	# shellcheck disable=SC2086
	(cd "$dir/debs" && apt-get $APT_OPTS download -q $pkgs >&2 </dev/null) ||
		die "apt-get download failed"
	for deb in "$dir"/debs/*.deb; do
		dpkg -x "$deb" "$dir/root"
	done
	rm -rf "$dir/debs"
	hdr=$dir/root/usr/src/linux-headers-$kver
	[ -f "$hdr/Makefile" ] || die "no $hdr/Makefile in the packages"
	# The arch headers name the common tree (and, from 7.x, themselves
	# as KBUILD_OUTPUT) by absolute path.
	sed -i "s#^\(include \|KBUILD_OUTPUT=\)/usr/src/#\1$dir/root/usr/src/#" \
		"$hdr/Makefile"
	mods=$dir/root/lib/modules/$kver
	[ -d "$mods" ] || mods=$dir/root/usr/lib/modules/$kver
	vmlinuz=
	for f in "$dir/root/boot/vmlinuz-$kver" "$mods/vmlinuz" \
		"$dir/root/boot/vmlinux-$kver"; do
		[ -f "$f" ] && { vmlinuz=$f; break; }
	done
	[ -n "$vmlinuz" ] || die "no kernel image in the packages"
	find "$mods" -name '*.ko.xz' -exec xz -d {} +
	find "$mods" -name '*.ko.zst' -exec zstd -q -d --rm {} +
	# lib/modules/KVER/build is an absolute link into /usr/src: re-point it.
	ln -sfn "$hdr" "$mods/build"
	ln -sfn "${hdr#"$dir"/}" "$dir/build"
	ln -sfn "${vmlinuz#"$dir"/}" "$dir/vmlinuz"
	ln -sfn "${mods#"$dir"/}" "$dir/modules"
	if [ -f "$mods/modules.order" ]; then
		sed -i 's/\.ko\.\(xz\|zst\)$/.ko/' "$mods/modules.order"
		# depmod -b BASE reads BASE/lib/modules (7.x: under usr/).
		base=${mods%/lib/modules/"$kver"}
		/sbin/depmod -b "$base" "$kver" 2>/dev/null ||
			busybox depmod -b "$base" "$kver" 2>/dev/null || true
	fi
	echo "$kver" >"$dir/.abi"
	touch "$dir/.complete"
	say "unpacked into $dir"
fi
echo "$kver" >"$last"
if [ -z "$suite" ]; then
	ln -sfn "$kver" "$KCACHE/current.tmp" && mv -T "$KCACHE/current.tmp" "$KCACHE/current"
fi

# The compiler the headers call, and the Debian release that has it.
gcc_ver=$(sed -n 's/^CONFIG_GCC_VERSION=\([0-9]*\)$/\1/p' \
	"$dir/build/include/config/auto.conf" 2>/dev/null)
gcc_major=$((${gcc_ver:-0} / 10000))
case $gcc_major in
10) release=bullseye ;;
12) release=bookworm ;;
14) release=trixie ;;
*) release=sid ;;
esac

echo "KVER=$kver"
echo "KDIR=$dir/build"
echo "VMLINUZ=$dir/vmlinuz"
echo "MODROOT=$(readlink -f "$dir/modules")"
echo "GCC=gcc-$gcc_major"
echo "RELEASE=$release"
echo "SUITE=${suite:-host}"
