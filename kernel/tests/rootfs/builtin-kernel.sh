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
# once (kernel-build.sh).  The source is fetched with apt-get download
# through a private apt configuration ($AXFS_CACHE/apt/src-trixie; the
# host's sources are untouched) and unpacked once into
# $AXFS_CACHE/linux-src/linux-source-6.12 (linux-source.sh).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../../.." && pwd)
CROSS=aarch64-linux-gnu-
say() { echo "builtin-kernel: $*" >&2; }
KB_TESTS=$top/kernel/tests
. "$KB_TESTS/kernel-build.sh"

kb_source 6.12 trixie || { say "cannot get Debian's linux-source-6.12"; exit 1; }
# RECIPE: raise it when the build steps below change what they make.
RECIPE=1
if ! kb_cached builtin $RECIPE "$here/builtin-arm64.config" ${CROSS}gcc \
		sh "$top/kernel/scripts/mkpatch.sh" --patch "$KB_SRC"; then
	out=$KB_OUT
	say "building $KB_DEB + AXFS patch (arm64 tinyconfig + builtin-arm64.config) in $out.work"
	rm -rf "$out.work" "$out"
	mkdir -p "$out.work"
	# Hard links: mkpatch.sh replaces fs/Kconfig and fs/Makefile (sed -i
	# writes new files), the shared source stays as unpacked.
	cp -al "$KB_SRC" "$out.work/linux"
	sh "$top/kernel/scripts/mkpatch.sh" --tree "$out.work/linux"
	kb=$out.work/build
	m() { make -C "$out.work/linux" O="$kb" ARCH=arm64 CROSS_COMPILE=$CROSS "$@"; }
	kb_configure "$kb" "$here/builtin-arm64.config" m
	m -j"${AXFS_JOBS:-2}" Image >&2
	mkdir -p "$out"
	cp "$kb/arch/arm64/boot/Image" "$kb/.config" "$out/"
	kb_built
	rm -rf "$out.work"
fi
echo "KIMAGE=$KB_OUT/Image"
