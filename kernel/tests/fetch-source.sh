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
d=$CACHE_TOP/apt/src-$suite
case $suite in
trixie)	lines="$MIRROR trixie
${MIRROR%/debian}/debian-security trixie-security" ;;
newest)	lines="$MIRROR trixie-backports
$MIRROR sid" ;;
*)	lines="$MIRROR $suite" ;;
esac
mkdir -p "$d/lists/partial" "$d/cache/archives/partial"
echo "$lines" | while read -r url s; do
	echo "deb [arch=amd64] $url $s main"
done >"$d/sources.list"
APT_OPTS="-o Dir::Etc::sourcelist=$d/sources.list
	-o Dir::Etc::sourceparts=/dev/null -o Dir::State::Lists=$d/lists
	-o Dir::Cache=$d/cache -o Dir::Etc::preferencesparts=/dev/null
	-o APT::Architecture=amd64 -o APT::Architectures=amd64
	-o Debug::NoLocking=1"
(
	flock 8
	# Refresh the lists at most every 6 hours.
	if [ -z "$(find "$d/lists" -maxdepth 1 -name '*Packages*' -mmin -360 2>/dev/null | head -n 1)" ]; then
		say "apt-get update ($suite, private lists in $d)"
		# shellcheck disable=SC2086
		apt-get $APT_OPTS update -q >&2 </dev/null ||
			say "apt-get update failed: using what is cached"
	fi
) 8>"$d.lock"

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
