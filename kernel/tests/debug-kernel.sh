#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# debug-kernel.sh - a kernel with the checkers syzbot runs with, for the
# corrupted-image suite: Debian 12's linux-source-6.1 (the host's own
# kernel line), x86_64 tinyconfig + debug-amd64.config (KASAN, UBSAN,
# lockdep, atomic-sleep checks; the devices the test guest loads as
# modules), built with the host's gcc-12.  run.sh boots it when
# AXFS_KSUITE=debug, with panic_on_warn=1 (tests/run-tests.sh kernel-debug).
#
#   sh kernel/tests/debug-kernel.sh
#
# prints KVER=, KDIR= (the build directory, for building axfs.ko),
# VMLINUZ=, MODROOT=, GCC=, RELEASE= and SUITE= lines for `eval`, as
# fetch-kernel.sh does.  Cached in $AXFS_CACHE/debug/KEY/, KEY the SHA-256
# of the source package's name, the fragment, RECIPE and the compiler's
# version: check-all builds it once (build-seconds in that directory says
# how long it took).  The source is unpacked once into
# $AXFS_CACHE/linux-src/linux-source-6.1, as tests/packaging/kernel-patch.sh
# does (same place, same lock).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
cache=${AXFS_CACHE:-/var/cache/axfs-tools}
CC=gcc-12
say() { echo "debug-kernel: $*" >&2; }

srcdir=$cache/linux-src
src=$srcdir/linux-source-6.1
mkdir -p "$srcdir"
flock "$srcdir.lock" sh -c '
	cd "$1" && test -f linux-source-6.1/Makefile && exit 0
	ls linux-source-6.1_*_all.deb >/dev/null 2>&1 || apt-get download linux-source-6.1 || exit 1
	rm -rf deb linux-source-6.1 &&
	dpkg-deb -x linux-source-6.1_*_all.deb deb &&
	tar xJf deb/usr/src/linux-source-6.1.tar.xz && rm -rf deb' sh "$srcdir" >&2 ||
	{ say "cannot get Debian's linux-source-6.1"; exit 1; }
deb=$(cd "$srcdir" && ls linux-source-6.1_*_all.deb 2>/dev/null | tail -n 1)
[ -n "$deb" ] || deb=unknown

# RECIPE: raise it when the build steps below change what they make.
RECIPE=1
key=$( { echo "$deb recipe $RECIPE"; cat "$here/debug-amd64.config";
	 $CC --version | head -n 1; } | sha256sum | cut -c1-16)
out=$cache/debug/$key
mkdir -p "$cache/debug"
exec 8>"$cache/debug/.lock"
flock 8
if [ ! -f "$out/done" ]; then
	say "building $deb (x86_64 tinyconfig + debug-amd64.config) in $out"
	t0=$(date +%s)
	rm -rf "$out"
	mkdir -p "$out"
	kb=$out/build
	m() { make -C "$src" O="$kb" ARCH=x86_64 CC=$CC HOSTCC=$CC "$@"; }
	m tinyconfig >&2
	"$src/scripts/kconfig/merge_config.sh" -m -O "$kb" "$kb/.config" \
		"$here/debug-amd64.config" >&2
	m olddefconfig >&2
	# Every line of the fragment must have survived olddefconfig.
	missing=$(grep '^CONFIG_' "$here/debug-amd64.config" | while read -r l; do
		grep -qx "$l" "$kb/.config" || echo "$l"
	done)
	[ -z "$missing" ] || { say "not set after olddefconfig:" $missing; exit 1; }
	m -j"${AXFS_JOBS:-2}" bzImage modules >&2
	# Unsigned, as axfs.ko is: the lockdown LSM selects MODULE_SIG, but
	# this kernel lacks the RSA code to check a signature, and a signed
	# module then fails to load (ENOENT) where an unsigned one loads.
	m INSTALL_MOD_PATH="$out/root" CONFIG_MODULE_SIG_ALL= modules_install >&2
	echo "$deb" >"$out/source"
	echo "$(($(date +%s) - t0))" >"$out/build-seconds"
	touch "$out/done"
	say "built in $(cat "$out/build-seconds") s"
fi
kver=$(make -s -C "$src" O="$out/build" ARCH=x86_64 CC=$CC kernelrelease 2>/dev/null | tail -n 1)
echo "KVER=$kver"
echo "KDIR=$out/build"
echo "VMLINUZ=$out/build/arch/x86/boot/bzImage"
echo "MODROOT=$out/root/lib/modules/$kver"
echo "GCC=$CC"
echo "RELEASE=bookworm"
echo "SUITE=debug"
