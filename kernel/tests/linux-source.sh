#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# linux-source.sh - Debian's linux-source-LINE package, downloaded once and
# unpacked once into $AXFS_CACHE/linux-src/linux-source-LINE: the tree
# that debug-kernel.sh (6.1), rootfs/builtin-kernel.sh (6.12) and
# tests/packaging/kernel-patch.sh (6.1) build.
#
#   sh kernel/tests/linux-source.sh LINE [RELEASE]
#
# RELEASE: the Debian release that has the package when the host's does
# not (trixie for 6.12), read with its -security suite through a private
# apt configuration (apt.sh, $AXFS_CACHE/apt/src-RELEASE; the host's
# sources are untouched); without it, the host's apt.  The package file
# once there is kept (no newer version is fetched): the kernels built from
# the tree are cached under its name.  Prints SRC= (the tree) and DEB=
# (the package's file name) for `eval`.
set -eu
line=${1:?usage: linux-source.sh LINE [RELEASE]}
release=${2:-}
CACHE_TOP=${AXFS_CACHE:-/var/cache/axfs-tools}
MIRROR=${AXFS_DEBIAN_MIRROR:-http://deb.debian.org/debian}
pkg=linux-source-$line
srcdir=$CACHE_TOP/linux-src
src=$srcdir/$pkg
say() { echo "linux-source: $*" >&2; }

mkdir -p "$srcdir"
(
	flock 9
	[ -f "$src/Makefile" ] && exit 0
	cd "$srcdir"
	if ! ls "$pkg"_*_all.deb >/dev/null 2>&1; then
		APT_OPTS=
		if [ -n "$release" ]; then
			. "$(dirname "$0")/apt.sh"
			apt_private "src-$release" amd64 "deb $MIRROR $release main" \
				"deb ${MIRROR%/debian}/debian-security $release-security main"
		fi
		say "apt-get download $pkg${release:+ ($release)}"
		# shellcheck disable=SC2086
		apt-get $APT_OPTS download -q "$pkg" >&2 </dev/null
	fi
	# Unpacked beside, then renamed: a tree with a Makefile is complete.
	rm -rf "$src" "$src.tmp"
	mkdir "$src.tmp"
	dpkg-deb --fsys-tarfile "$(ls "$pkg"_*_all.deb | tail -n 1)" |
		tar -xO "./usr/src/$pkg.tar.xz" | tar -xJ -C "$src.tmp"
	mv "$src.tmp/$pkg" "$src"
	rm -rf "$src.tmp"
	say "unpacked into $src"
) 9>"$src.lock" || { say "cannot get Debian's $pkg"; exit 1; }
deb=$(cd "$srcdir" && ls "$pkg"_*_all.deb 2>/dev/null | tail -n 1)
echo "SRC=$src"
echo "DEB=${deb:-unknown}"
