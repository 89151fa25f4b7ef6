#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# buildroot.sh - a cached Debian build root (debootstrap minbase) for
# building axfs.ko against kernels whose compiler the host lacks.
#
#   sh kernel/tests/buildroot.sh [--arch ARCH] RELEASE [PKG...]
#       makes (once) AXFS_ROOTS/RELEASE-ARCH with the build tools and PKG
#       (e.g. gcc-14, gcc-14-aarch64-linux-gnu), installs any PKG it does
#       not have yet, and prints ROOT=DIR for `eval`
#   sh kernel/tests/buildroot.sh --run DIR [--bind PATH]... -- CMD...
#       runs CMD in root DIR with each PATH (and the cache) mounted at
#       the same path inside, in a private mount namespace (no mounts
#       survive the command)
#
# ARCH is the root's own architecture (default: the host's); a cross
# compiler for another one is just a PKG.  The root is made from the
# release's archive with --variant=minbase, so the same command makes the
# same root on any machine; AXFS_ROOTS defaults to
# /var/cache/axfs-tools/roots.  Runs at once (two test runs, two helpers)
# are serialized by flock on the root's lock file.  Needs root.
set -eu

ROOTS=${AXFS_ROOTS:-/var/cache/axfs-tools/roots}
CACHE_TOP=${AXFS_CACHE_TOP:-/var/cache/axfs-tools}
MIRROR=${AXFS_DEBIAN_MIRROR:-http://deb.debian.org/debian}
# What a kernel module build needs besides the compiler.
BASE_PKGS="make libc6-dev libelf-dev bc kmod dwarves xz-utils perl"

say() { echo "buildroot: $*" >&2; }
die() { say "$*"; exit 1; }

run_in_root() {	# run_in_root DIR [--bind PATH]... -- CMD...
	local dir=$1 binds=$CACHE_TOP
	shift
	while [ $# -gt 0 ] && [ "$1" != -- ]; do
		[ "$1" = --bind ] || die "--run: unknown argument '$1'"
		binds="$binds $2"
		shift 2
	done
	[ $# -gt 1 ] || die "--run DIR [--bind PATH]... -- CMD..."
	shift
	[ -e "$dir/.complete" ] || die "$dir is not a finished build root"
	# The paths are the same inside and out, so kernel trees unpacked
	# outside (with absolute paths in their Makefiles) work inside.
	unshare -m -- sh -eu -c '
		dir=$1; binds=$2; shift 2
		mount --make-rprivate /
		for p in $binds; do
			[ -e "$p" ] || continue
			mkdir -p "$dir$p"
			mount --bind "$p" "$dir$p"
		done
		mount -t proc proc "$dir/proc"
		exec chroot "$dir" env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin \
			HOME=/root LC_ALL=C.UTF-8 "$@"
	' sh "$dir" "$binds" "$@"
}

if [ "${1:-}" = --run ]; then
	shift
	run_in_root "$@"
	exit
fi

arch=$(dpkg --print-architecture)
if [ "${1:-}" = --arch ]; then
	arch=$2
	shift 2
fi
[ $# -ge 1 ] || die "usage: buildroot.sh [--arch ARCH] RELEASE [PKG...]"
release=$1
shift
[ "$(id -u)" = 0 ] || die "needs root (debootstrap, chroot)"
dir=$ROOTS/$release-$arch
mkdir -p "$ROOTS"

exec 9>"$dir.lock"
flock 9

if [ ! -e "$dir/.complete" ]; then
	command -v debootstrap >/dev/null 2>&1 ||
		die "debootstrap is missing (as root: make deps-tests-all)"
	rm -rf "$dir"
	inc=$(echo $BASE_PKGS "$@" | tr ' ' ,)
	say "debootstrap $release ($arch) into $dir: a few minutes"
	debootstrap --variant=minbase --arch="$arch" --include="$inc" \
		"$release" "$dir" "$MIRROR" >"$dir.log" 2>&1 ||
		{ tail -n 20 "$dir.log" >&2; die "debootstrap $release failed (log: $dir.log)"; }
	# Nothing in the root needs to start services or keep the downloads.
	rm -rf "$dir"/var/cache/apt/archives/*.deb
	echo $BASE_PKGS "$@" | tr ' ' '\n' | sort -u >"$dir/.packages"
	touch "$dir/.complete"
fi

# Packages asked for now that the root does not have yet.
missing=
for p in $BASE_PKGS "$@"; do
	grep -qx "$p" "$dir/.packages" || missing="$missing $p"
done
if [ -n "$missing" ]; then
	say "installing$missing in $dir"
	cp /etc/resolv.conf "$dir/etc/resolv.conf" 2>/dev/null || true
	run_in_root "$dir" -- sh -c "apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends $missing && apt-get clean" >&2 </dev/null ||
		die "cannot install$missing in $dir"
	{ cat "$dir/.packages"; echo $missing | tr ' ' '\n'; } | sort -u >"$dir/.packages.tmp"
	mv "$dir/.packages.tmp" "$dir/.packages"
fi
echo "ROOT=$dir"
