#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# fetch-source.sh - Debian's linux-source of a release, unpacked once into
# the cache, for building the kernel patch and series in a real tree.
#
#   sh kernel/tests/fetch-source.sh SUITE
#
# SUITE: trixie (6.12, with trixie-security), trixie-backports (the newest
# line Debian ships), sid, or newest (the highest of trixie-backports and
# sid).  The package is resolved at run time (the highest linux-source-X.Y
# the suite has) through a private apt configuration
# (AXFS_CACHE_TOP/apt/src-SUITE; the host's sources are never touched)
# and downloaded with apt-get download; the tree is unpacked into
# AXFS_CACHE_TOP/linux-src/linux-source-X.Y-VERSION.  Prints SRC= (the
# tree), LINE= (X.Y) and VERSION= (the Debian version) for `eval`.
set -eu

CACHE_TOP=${AXFS_CACHE_TOP:-/var/cache/axfs-tools}
MIRROR=${AXFS_DEBIAN_MIRROR:-http://deb.debian.org/debian}
say() { echo "fetch-source: $*" >&2; }
die() { say "$*"; exit 1; }

suite=${1:?usage: fetch-source.sh SUITE}
. "$(dirname "$0")/apt.sh"
case $suite in
trixie)	apt_private "src-$suite" amd64 "deb $MIRROR trixie main" \
		"deb ${MIRROR%/debian}/debian-security trixie-security main" ;;
newest)	apt_private "src-$suite" amd64 "deb $MIRROR trixie-backports main" \
		"deb $MIRROR sid main" ;;
*)	apt_private "src-$suite" amd64 "deb $MIRROR $suite main" ;;
esac

# The highest linux-source-X.Y package and its highest version.
# shellcheck disable=SC2086
best=$(apt-cache $APT_OPTS search --names-only '^linux-source-[0-9]+\.[0-9]+$' 2>/dev/null |
	awk '{print $1}' | sed 's/^linux-source-//' | sort -t. -k1,1n -k2,2n | tail -n 1)
[ -n "$best" ] || die "no linux-source-X.Y in $suite"
pkg=linux-source-$best
# shellcheck disable=SC2086
ver=$(apt-cache $APT_OPTS policy "$pkg" 2>/dev/null | sed -n 's/^ *Candidate: //p')
[ -n "$ver" ] && [ "$ver" != "(none)" ] || die "no candidate for $pkg in $suite"
src=$CACHE_TOP/linux-src/$pkg-$ver
mkdir -p "$CACHE_TOP/linux-src"
(
	flock 8
	[ -f "$src/.complete" ] && exit 0
	rm -rf "$src" "$src.tmp"
	mkdir -p "$src.tmp"
	say "downloading $pkg=$ver"
	# shellcheck disable=SC2086
	(cd "$src.tmp" && apt-get $APT_OPTS download -q "$pkg=$ver" >&2 </dev/null) ||
		die "apt-get download $pkg=$ver failed"
	deb=$(ls "$src.tmp"/*.deb)
	dpkg-deb --fsys-tarfile "$deb" | tar -xO "./usr/src/$pkg.tar.xz" |
		tar -xJ -C "$src.tmp"
	mv "$src.tmp/$pkg" "$src"
	rm -rf "$src.tmp"
	touch "$src/.complete"
	say "unpacked into $src"
) 8>"$CACHE_TOP/linux-src/.lock"
echo "SRC=$src"
echo "LINE=$best"
echo "VERSION=$ver"
