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
# how long it took; kernel-build.sh).  The source is unpacked once into
# $AXFS_CACHE/linux-src/linux-source-6.1 (linux-source.sh), the tree
# tests/packaging/kernel-patch.sh uses too.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
CC=gcc-12
say() { echo "debug-kernel: $*" >&2; }
KB_TESTS=$here
. "$here/kernel-build.sh"

kb_source 6.1 || { say "cannot get Debian's linux-source-6.1"; exit 1; }
# RECIPE: raise it when the build steps below change what they make.
RECIPE=1
if ! kb_cached debug $RECIPE "$here/debug-amd64.config" $CC; then
	out=$KB_OUT
	say "building $KB_DEB (x86_64 tinyconfig + debug-amd64.config) in $out"
	rm -rf "$out"
	mkdir -p "$out"
	kb=$out/build
	m() { make -C "$KB_SRC" O="$kb" ARCH=x86_64 CC=$CC HOSTCC=$CC "$@"; }
	kb_configure "$kb" "$here/debug-amd64.config" m
	m -j"${AXFS_JOBS:-2}" bzImage modules >&2
	# Unsigned, as axfs.ko is: the lockdown LSM selects MODULE_SIG, but
	# this kernel lacks the RSA code to check a signature, and a signed
	# module then fails to load (ENOENT) where an unsigned one loads.
	m INSTALL_MOD_PATH="$out/root" CONFIG_MODULE_SIG_ALL= modules_install >&2
	kb_built
fi
out=$KB_OUT
kver=$(make -s -C "$KB_SRC" O="$out/build" ARCH=x86_64 CC=$CC kernelrelease 2>/dev/null | tail -n 1)
echo "KVER=$kver"
echo "KDIR=$out/build"
echo "VMLINUZ=$out/build/arch/x86/boot/bzImage"
echo "MODROOT=$out/root/lib/modules/$kver"
echo "GCC=$CC"
echo "RELEASE=bookworm"
echo "SUITE=debug"
