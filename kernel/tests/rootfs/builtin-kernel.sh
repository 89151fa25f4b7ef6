#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# builtin-kernel.sh - the built-in route's kernel: Debian trixie's
# linux-source-6.12 (the current LTS), the AXFS patch applied
# (scripts/mkpatch.sh --tree, what `make -C kernel patch` writes as a
# patch), arm64 tinyconfig + builtin-arm64.config (CONFIG_AXFS=y), built
# with the host's aarch64-linux-gnu-gcc (gcc-12 builds 6.12: the
# -fmin-function-alignment problem of Debian's headers comes from their
# gcc-14 configuration, not from the source).
#
#   sh kernel/tests/rootfs/builtin-kernel.sh     prints KIMAGE=PATH
#
# Cached in $AXFS_CACHE/builtin/KEY/, KEY the SHA-256 of the source
# package's name, the patch, the configuration fragment, the recipe's
# number (RECIPE below) and the compiler's version: check-all builds it
# once.  The source is fetched with apt-get download through a private
# apt configuration
# ($AXFS_CACHE/linux-src/apt-trixie; the host's sources are untouched)
# and unpacked once into $AXFS_CACHE/linux-src/linux-source-6.12.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../../.." && pwd)
cache=${AXFS_CACHE:-/var/cache/axfs-tools}
CROSS=aarch64-linux-gnu-
say() { echo "builtin-kernel: $*" >&2; }

srcdir=$cache/linux-src
src=$srcdir/linux-source-6.12
apt=$srcdir/apt-trixie
mkdir -p "$apt/lists/partial" "$apt/cache/archives/partial"
(
	flock 9
	[ -f "$src/Makefile" ] && exit 0
	keyring=/usr/share/keyrings/debian-archive-keyring.gpg
	{
		echo "deb [signed-by=$keyring] http://deb.debian.org/debian trixie main"
		echo "deb [signed-by=$keyring] http://deb.debian.org/debian-security trixie-security main"
	} >"$apt/sources.list"
	set -- -o Dir::Etc::sourcelist="$apt/sources.list" -o Dir::Etc::sourceparts=/dev/null \
		-o Dir::State::Lists="$apt/lists" -o Dir::Cache="$apt/cache" \
		-o Dir::State::status=/dev/null -o Debug::NoLocking=1
	cd "$srcdir"
	if ! ls linux-source-6.12_*_all.deb >/dev/null 2>&1; then
		say "apt-get download linux-source-6.12 (trixie)"
		apt-get "$@" update -q >&2 && apt-get "$@" download linux-source-6.12 >&2
	fi
	rm -rf deb612 "$src"
	dpkg-deb -x linux-source-6.12_*_all.deb deb612
	tar xJf deb612/usr/src/linux-source-6.12.tar.xz
	rm -rf deb612
) 9>"$srcdir/.lock612"
deb=$(cd "$srcdir" && ls linux-source-6.12_*_all.deb 2>/dev/null | tail -n 1)
[ -n "$deb" ] || deb=unknown

# RECIPE: raise it when the build steps below change what they make.
RECIPE=1
key=$( { echo "$deb recipe $RECIPE"; sh "$top/kernel/scripts/mkpatch.sh" --patch "$src";
	 cat "$here/builtin-arm64.config"; ${CROSS}gcc --version | head -n 1; } |
	sha256sum | cut -c1-16)
out=$cache/builtin/$key
mkdir -p "$cache/builtin"
exec 8>"$cache/builtin/.lock"
flock 8
if [ ! -f "$out/Image" ]; then
	say "building $deb + AXFS patch (arm64 tinyconfig + builtin-arm64.config) in $out.work"
	t0=$(date +%s)
	rm -rf "$out.work" "$out"
	mkdir -p "$out.work"
	# Hard links: mkpatch.sh replaces fs/Kconfig and fs/Makefile (sed -i
	# writes new files), the shared source stays as unpacked.
	cp -al "$src" "$out.work/linux"
	sh "$top/kernel/scripts/mkpatch.sh" --tree "$out.work/linux"
	kb=$out.work/build
	m() { make -C "$out.work/linux" O="$kb" ARCH=arm64 CROSS_COMPILE=$CROSS "$@"; }
	m tinyconfig >&2
	"$out.work/linux/scripts/kconfig/merge_config.sh" -m -O "$kb" "$kb/.config" \
		"$here/builtin-arm64.config" >&2
	m olddefconfig >&2
	# Every line of the fragment must have survived olddefconfig.
	missing=$(grep '^CONFIG_' "$here/builtin-arm64.config" | while read -r l; do
		grep -qx "$l" "$kb/.config" || echo "$l"
	done)
	[ -z "$missing" ] || { say "not set after olddefconfig:" $missing; exit 1; }
	m -j"${AXFS_JOBS:-2}" Image >&2
	mkdir -p "$out"
	cp "$kb/arch/arm64/boot/Image" "$kb/.config" "$out/"
	echo "$deb" >"$out/source"
	echo "$(($(date +%s) - t0))" >"$out/build-seconds"
	rm -rf "$out.work"
	say "built in $(cat "$out/build-seconds") s"
fi
echo "KIMAGE=$out/Image"
