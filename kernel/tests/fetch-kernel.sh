#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# fetch-kernel.sh - put Debian's current amd64 kernel and its headers in a
# cache directory, without installing them, for building axfs.ko and
# booting it under qemu.
#
#   sh kernel/tests/fetch-kernel.sh        prints KVER=, KDIR=, VMLINUZ=,
#                                          MODROOT= lines for `eval`
#
# The ABI (6.1.0-N) moves with security updates, so it is resolved at run
# time from linux-image-amd64.  The cache (AXFS_KCACHE, default
# /var/cache/axfs-tools/kernel) keeps one directory per kernel version and
# a `current` link to the last one fetched; a second run only prints.
# Needs apt-get (any user for download; root for `apt-get update`).
set -eu

KCACHE=${AXFS_KCACHE:-/var/cache/axfs-tools/kernel}
say() { echo "fetch-kernel: $*" >&2; }

resolve_abi() {
	apt-cache depends linux-image-amd64 2>/dev/null |
		sed -n 's/^ *Depends: linux-image-\(.*\)-amd64$/\1/p' | head -n 1
}

abi=$(resolve_abi)
if [ -z "$abi" ] && [ "$(id -u)" = 0 ]; then
	say "no package lists yet: apt-get update"
	apt-get update -q >&2 </dev/null || true
	abi=$(resolve_abi)
fi
if [ -z "$abi" ]; then
	# No package information: fall back to what is already cached.
	if [ -e "$KCACHE/current/.complete" ]; then
		abi=$(cat "$KCACHE/current/.abi")
	else
		say "cannot resolve linux-image-amd64 (apt-cache depends)"
		exit 1
	fi
fi
kver=$abi-amd64
dir=$KCACHE/$kver

mkdir -p "$KCACHE"
# Two test runs at once must not unpack into the same place.
exec 9>"$KCACHE/.lock"
if command -v flock >/dev/null 2>&1; then
	flock 9
fi

if [ ! -e "$dir/.complete" ]; then
	rm -rf "$dir"
	mkdir -p "$dir/debs" "$dir/root"
	kbuild=$(apt-cache depends "linux-headers-$kver" 2>/dev/null |
		sed -n 's/^ *Depends: \(linux-kbuild-[0-9.]*\)$/\1/p' | head -n 1)
	common=$(apt-cache depends "linux-headers-$kver" 2>/dev/null |
		sed -n 's/^ *Depends: \(linux-headers-.*-common[^ ]*\)$/\1/p' | head -n 1)
	[ -n "$kbuild" ] || kbuild=linux-kbuild-${abi%%.0-*}
	[ -n "$common" ] || common=linux-headers-$abi-common
	say "downloading linux-image-$kver linux-headers-$kver $common $kbuild"
	# apt-get download writes to the current directory.
	(cd "$dir/debs" && apt-get download -q "linux-image-$kver" \
		"linux-headers-$kver" "$common" "$kbuild" >&2)
	for deb in "$dir"/debs/*.deb; do
		dpkg -x "$deb" "$dir/root"
	done
	rm -rf "$dir/debs"
	hdr=$dir/root/usr/src/linux-headers-$kver
	# The arch headers include the common tree by absolute path.
	sed -i "s|^include /usr/src/|include $dir/root/usr/src/|" "$hdr/Makefile"
	ln -sfn "root/usr/src/linux-headers-$kver" "$dir/build"
	ln -sfn "root/boot/vmlinuz-$kver" "$dir/vmlinuz"
	# lib/modules/KVER/build is an absolute link into /usr/src: re-point it.
	ln -sfn "$hdr" "$dir/root/lib/modules/$kver/build"
	echo "$abi" >"$dir/.abi"
	touch "$dir/.complete"
	say "unpacked into $dir"
fi
ln -sfn "$kver" "$KCACHE/current.tmp" && mv -T "$KCACHE/current.tmp" "$KCACHE/current"

echo "KVER=$kver"
echo "KDIR=$dir/build"
echo "VMLINUZ=$dir/vmlinuz"
echo "MODROOT=$dir/root/lib/modules/$kver"
