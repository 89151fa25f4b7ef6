#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# patch-build.sh - the kernel patch (or the patch series) in a real kernel
# tree, built with W=1 and sparse (C=1) for one architecture and several
# configurations; no warning in fs/axfs.
#
#   sh kernel/tests/patch-build.sh [--series DIR] SRC ARCH VARIANT...
#
# SRC is a pristine kernel tree (fetch-source.sh), never written to.  It is
# copied (hard links) to AXFS_CACHE_TOP/kbuild/NAME/src, where NAME is
# SRC's directory name (the Debian package and version), and the patch
# that `make -C kernel patch KSRC=SRC` writes is applied there with `git
# apply`; with --series, every patch of DIR (`make -C kernel series`) in
# turn, each built before the next is applied (with the first VARIANT
# once fs/Kconfig has AXFS; before that, the objects fs/axfs/Makefile
# lists so far, with CONFIG_AXFS=m given to make), then coccicheck on
# fs/axfs with every semantic patch of the tree (report mode; patch mode,
# an empty patch, for those without one; AXFS_COCCICHECK=0 leaves it
# out).  The build directory of ARCH, AXFS_CACHE_TOP/kbuild/NAME/ARCH,
# is configured (defconfig; multi_v7_defconfig for armhf) and prepared
# once and kept: a later run rebuilds only fs/axfs and what a changed
# option touches.  Runs on one tree are serialised (flock).
#
# ARCH: x86_64 arm64 armhf riscv64 (the Debian cross compilers).
# VARIANT: AXFS=y or m, then what is off: y, m, y-noprof, m-nomtd,
# m-noprof-nomtd...  (profiling and MTD are on unless named: MTD set like
# AXFS, AXFS_MTD and AXFS_PROFILING on; nomtd: MTD off).
#
# Sparse: the host's if the tree's scripts/checker-valid.sh accepts it,
# else Debian sid's source package built once into
# AXFS_CACHE_TOP/sparse-VERSION (Debian 12's 0.6.4 lacks
# __typeof_unqual__, which 6.14 and later need).
#
# Prints one line per build: "ok ARCH VARIANT SECONDS" or "FAIL ARCH
# VARIANT: reason" followed by the lines that say why; exit status 1 if
# any failed.  Build logs: AXFS_CACHE_TOP/kbuild/NAME/logs/.
set -eu

top=$(cd "$(dirname "$0")/../.." && pwd)
CACHE_TOP=${AXFS_CACHE_TOP:-/var/cache/axfs-tools}
MIRROR=${AXFS_DEBIAN_MIRROR:-http://deb.debian.org/debian}
say() { echo "patch-build: $*" >&2; }
die() { say "$*"; exit 2; }
unset MAKEFLAGS MFLAGS MAKELEVEL MAKEOVERRIDES

series=
if [ "${1:-}" = --series ]; then
	series=$(cd "$2" && pwd)
	shift 2
fi
[ $# -ge 3 ] || die "usage: patch-build.sh [--series DIR] SRC ARCH VARIANT..."
src=$(cd "$1" && pwd)
arch=$2
shift 2
[ -f "$src/Makefile" ] || die "'$src' is not a kernel tree"

case $arch in
x86_64)	karch=x86_64 cross= defconfig=defconfig ;;
arm64)	karch=arm64 cross=aarch64-linux-gnu- defconfig=defconfig ;;
armhf)	karch=arm cross=arm-linux-gnueabihf- defconfig=multi_v7_defconfig ;;
riscv64) karch=riscv cross=riscv64-linux-gnu- defconfig=defconfig ;;
*)	die "unknown architecture '$arch'" ;;
esac
command -v "${cross}gcc" >/dev/null || die "no ${cross}gcc (make deps-tests-all)"

name=$(basename "$src")
work=$CACHE_TOP/kbuild/$name
tree=$work/src
obj=$work/$arch
logs=$work/logs
mkdir -p "$work" "$logs"
exec 9>"$work.lock"
flock 9

# ---- sparse ---------------------------------------------------------------
# sparse_ok SPARSE: whether the tree's own test accepts it.
sparse_ok() {
	[ -f "$src/scripts/checker-valid.sh" ] || return 0
	[ "$(sh "$src/scripts/checker-valid.sh" "$1" 2>/dev/null)" = 1 ]
}

# Debian sid's sparse, built from its source package (private apt lists).
build_sparse() {
	. "$top/kernel/tests/apt.sh"
	apt_private sid-src amd64 "deb-src $MIRROR sid main" >&2
	opts=$APT_OPTS
	tmp=$(mktemp -d "$CACHE_TOP/sparse-src.XXXXXX")
	# shellcheck disable=SC2086
	(cd "$tmp" && apt-get $opts source --download-only sparse >&2 </dev/null) ||
		{ rm -rf "$tmp"; return 1; }
	ver=$(ls "$tmp"/sparse_*.dsc | sed 's/.*sparse_\(.*\)\.dsc$/\1/')
	dest=$CACHE_TOP/sparse-$ver
	if [ ! -x "$dest/sparse" ]; then
		(cd "$tmp" && tar xf sparse_*.orig.tar.* && cd sparse-*/ &&
		 nice make -s -j2 HAVE_LLVM=no HAVE_GTK=no HAVE_SQLITE=no \
			HAVE_LIBXML=no sparse >&2) || { rm -rf "$tmp"; return 1; }
		mkdir -p "$dest.tmp"
		cp "$tmp"/sparse-*/sparse "$dest.tmp/"
		rm -rf "$dest"
		mv "$dest.tmp" "$dest"
	fi
	rm -rf "$tmp"
	echo "$dest/sparse"
}

sparse=$(command -v sparse || true)
if [ -z "$sparse" ] || ! sparse_ok "$sparse"; then
	sparse=
	for s in "$CACHE_TOP"/sparse-*/sparse; do
		[ -x "$s" ] && sparse_ok "$s" && sparse=$s
	done
	if [ -z "$sparse" ]; then
		say "the host's sparse is too old for $name: building Debian sid's"
		sparse=$(build_sparse) && sparse_ok "$sparse" ||
			die "no sparse that $name accepts"
	fi
fi

# ---- the tree ---------------------------------------------------------------
# reset_tree: the pristine tree again, as hard links (unchanged files keep
# their times, so the kept build directories stay valid).
reset_tree() {
	rm -rf "$tree"
	cp -al "$src" "$tree"
}

# apply PATCH: git apply, after replacing the files it changes by copies
# (a hard link would let the change reach the pristine tree).
apply() {
	sed -n 's|^--- a/\(.*\)$|\1|p' "$1" | sort -u | while read -r f; do
		[ -f "$tree/$f" ] && cp -p "$tree/$f" "$tree/$f.unlink" &&
			mv "$tree/$f.unlink" "$tree/$f"
	done
	(cd "$tree" && git apply --whitespace=error "$1")
}

kmake() {
	nice make -C "$tree" O="$obj" ARCH="$karch" CROSS_COMPILE="$cross" "$@"
}

prepare() {
	[ -f "$obj/.axfs-prepared" ] && return 0
	rm -rf "$obj"
	mkdir -p "$obj"
	t0=$(date +%s)
	kmake -s "$defconfig" >"$logs/$arch-prepare.log" 2>&1 &&
	cp "$obj/.config" "$obj/.config.base" &&
	kmake -s -j2 prepare >>"$logs/$arch-prepare.log" 2>&1 || {
		say "configuring $arch failed:"
		tail -n 20 "$logs/$arch-prepare.log" >&2
		return 1
	}
	say "$arch: $defconfig + prepare in $(($(date +%s) - t0)) s (kept in $obj)"
	touch "$obj/.axfs-prepared"
}

# no_warnings: whether $log holds no warning or error in fs/axfs (else
# says which, for $tag).
no_warnings() {
	if grep -E '(warning|error):' "$log" | grep -q '/axfs/\|^fs/axfs/'; then
		echo "FAIL $arch $tag: warnings in fs/axfs"
		grep -E '(warning|error):' "$log" | grep '/axfs/\|^fs/axfs/' | head -n 20
		return 1
	fi
}

# build VARIANT TAG: configure and build fs/axfs/; prints the result line.
build() {
	v=$1 tag=$2
	axfs=${v%%-*}
	prof=y mtd=y
	case $v in *noprof*) prof=n ;; esac
	case $v in *nomtd*) mtd=n ;; esac
	log=$logs/$arch-$tag.log
	t0=$(date +%s)
	cp "$obj/.config.base" "$obj/.config"
	set -- --file "$obj/.config"
	if [ "$mtd" = y ]; then
		set -- "$@" --set-val MTD "$axfs" -e MTD_BLOCK
	else
		set -- "$@" -d MTD
	fi
	set -- "$@" --set-val AXFS "$axfs"
	if [ "$prof" = y ]; then set -- "$@" -e AXFS_PROFILING; else set -- "$@" -d AXFS_PROFILING; fi
	"$tree/scripts/config" "$@"
	if ! kmake -s olddefconfig >"$log" 2>&1; then
		echo "FAIL $arch $tag: olddefconfig"
		tail -n 20 "$log"
		return 1
	fi
	want="CONFIG_AXFS=$axfs"
	grep -qx "$want" "$obj/.config" || {
		echo "FAIL $arch $tag: $want did not stick (Kconfig dependencies: $(grep 'CONFIG_MMU\|PAGE_SIZE_4KB\|CONFIG_MTD=' "$obj/.config" | tr '\n' ' '))"
		return 1
	}
	if [ "$prof" = y ]; then
		grep -qx CONFIG_AXFS_PROFILING=y "$obj/.config"
	else
		! grep -q '^CONFIG_AXFS_PROFILING=' "$obj/.config"
	fi || { echo "FAIL $arch $tag: CONFIG_AXFS_PROFILING is not $prof"; return 1; }
	if [ "$mtd" = n ] && grep -q '^CONFIG_MTD=' "$obj/.config"; then
		echo "FAIL $arch $tag: CONFIG_MTD is still set"
		return 1
	fi
	if [ "$mtd" = y ]; then
		grep -qx CONFIG_AXFS_MTD=y "$obj/.config"
	else
		! grep -q '^CONFIG_AXFS_MTD=' "$obj/.config"
	fi || { echo "FAIL $arch $tag: CONFIG_AXFS_MTD is not $mtd"; return 1; }
	rm -rf "$obj/fs/axfs"
	if ! kmake -j2 W=1 C=1 CHECK="$sparse" fs/axfs/ >>"$log" 2>&1; then
		echo "FAIL $arch $tag: the build failed"
		grep -E 'error|warning' "$log" | head -n 20
		return 1
	fi
	# Every source was compiled (and checked: C=1 runs sparse on each
	# object built, and none was left from before).
	for c in "$tree"/fs/axfs/*.c; do
		o=$(basename "$c" .c).o
		case $o:$prof:$mtd in profiling.o:n:* | mtd.o:*:n) continue ;; esac
		[ -f "$obj/fs/axfs/$o" ] || { echo "FAIL $arch $tag: no fs/axfs/$o"; return 1; }
	done
	if [ "$axfs" = y ]; then
		[ -f "$obj/fs/axfs/built-in.a" ] || { echo "FAIL $arch $tag: no built-in.a"; return 1; }
	else
		[ -f "$obj/fs/axfs/axfs.o" ] || { echo "FAIL $arch $tag: no axfs.o"; return 1; }
	fi
	no_warnings || return 1
	echo "ok $arch $tag $(($(date +%s) - t0))"
}

# build_unhooked TAG: fs/axfs/ part way through the series, before the
# patch that adds its Kconfig and the fs/Makefile hook: the objects its
# Makefile lists so far, as a module with MTD and profiling (the settings
# Kconfig would make, CONFIG_AXFS_MTD and CONFIG_AXFS_PROFILING, given on
# the command line and to the compiler).
# Kbuild reaches a directory only through its parent's Makefile: the
# hook is added to a copy of fs/Makefile for the build, then taken away.
build_unhooked() {
	m=$tree/fs/Makefile
	cp -p "$m" "$m.axfs-orig"
	{ cat "$m.axfs-orig"; echo 'obj-$(CONFIG_AXFS) += axfs/'; } >"$m.axfs-tmp"
	mv "$m.axfs-tmp" "$m"
	build_unhooked_1 "$@"
	r=$?
	mv "$m.axfs-orig" "$m"
	return $r
}

build_unhooked_1() {
	tag=$1
	log=$logs/$arch-$tag.log
	t0=$(date +%s)
	cp "$obj/.config.base" "$obj/.config"
	"$tree/scripts/config" --file "$obj/.config" --set-val MTD m -e MTD_BLOCK
	if ! kmake -s olddefconfig >"$log" 2>&1; then
		echo "FAIL $arch $tag: olddefconfig"
		tail -n 20 "$log"
		return 1
	fi
	rm -rf "$obj/fs/axfs"
	if ! kmake -j2 W=1 C=1 CHECK="$sparse" CONFIG_AXFS=m CONFIG_AXFS_MTD=y \
		CONFIG_AXFS_PROFILING=y \
		KCFLAGS="-DCONFIG_AXFS_MTD=1 -DCONFIG_AXFS_PROFILING=1" fs/axfs/ >>"$log" 2>&1; then
		echo "FAIL $arch $tag: the build failed"
		grep -E 'error|warning' "$log" | head -n 20
		return 1
	fi
	for c in "$tree"/fs/axfs/*.c; do
		o=$(basename "$c" .c).o
		[ -f "$obj/fs/axfs/$o" ] || { echo "FAIL $arch $tag: no fs/axfs/$o"; return 1; }
	done
	no_warnings || return 1
	echo "ok $arch $tag (not yet in fs/Kconfig: CONFIG_AXFS=m given) $(($(date +%s) - t0))"
}

# coccicheck: every semantic patch of the kernel (scripts/coccinelle) on
# fs/axfs, one at a time: in report mode, no report; those without a
# report mode (kmalloc_objs.cocci in 7.3) in patch mode, an empty patch
# (the same: nothing they would change).  None is left out: those with
# OCaml script rules (badzero.cocci, check_bq27xxx_data.cocci in 7.3)
# need the OCaml compiler (Debian's spatch compiles them with ocamlopt:
# package ocaml-nox, which make deps-tests-all installs), and one that
# scripts/coccicheck skips (a "Requires:" newer than this spatch) fails.
coccicheck() {
	log=$logs/$arch-coccicheck.log
	t0=$(date +%s)
	command -v spatch >/dev/null || { echo "FAIL coccicheck: no spatch (Debian package coccinelle: make deps-tests-all)"; return 1; }
	: >"$log"
	n=0 np=0
	for c in $(find "$tree/scripts/coccinelle" -name '*.cocci' | LC_ALL=C sort); do
		if grep -q '^@\(script\|initialize\|finalize\):ocaml' "$c" &&
			! command -v ocamlopt >/dev/null; then
			echo "FAIL coccicheck: ${c#"$tree"/} has OCaml rules and there is no ocamlopt (Debian package ocaml-nox: make deps-tests-all)"
			return 1
		fi
		if grep -q '^virtual report' "$c"; then
			mode=report
		elif grep -q '^virtual patch' "$c"; then
			mode=patch np=$((np + 1))
		else
			echo "FAIL coccicheck: ${c#"$tree"/} has neither a report nor a patch mode"
			return 1
		fi
		n=$((n + 1))
		out=$logs/$arch-coccicheck.one
		if ! kmake coccicheck MODE=$mode M=fs/axfs COCCI="$c" J=2 >"$out" 2>&1; then
			cat "$out" >>"$log"
			echo "FAIL coccicheck: make coccicheck MODE=$mode COCCI=${c#"$tree"/} failed"
			tail -n 20 "$out"
			return 1
		fi
		cat "$out" >>"$log"
		if grep -q '^Skipping coccinelle SmPL patch' "$out"; then
			echo "FAIL coccicheck: scripts/coccicheck skipped ${c#"$tree"/}:"
			grep -A2 '^Skipping coccinelle SmPL patch' "$out"
			return 1
		fi
		# A patch: its file headers and hunks.
		if [ $mode = patch ] && grep -q '^\(+++\|---\|@@\) ' "$out"; then
			echo "FAIL coccicheck: ${c#"$tree"/} (patch mode) would change fs/axfs:"
			grep -v '^$' "$out" | head -n 30
			return 1
		fi
	done
	# A report names a file and line: ./super.c:12:3-9: or fs/axfs/...
	if grep -q '^[^ ]*\.[ch]:[0-9][0-9]*:' "$log"; then
		echo "FAIL coccicheck: reports on fs/axfs"
		grep '^[^ ]*\.[ch]:[0-9][0-9]*:' "$log" | head -n 20
		return 1
	fi
	echo "ok coccicheck $n semantic patches (none left out; $np in patch mode, an empty patch), 0 reports $(($(date +%s) - t0))"
}

rc=0
reset_tree
prepare || exit 2
if [ -z "$series" ]; then
	patch=$work/axfs.patch
	make -s -C "$top/kernel" patch KSRC="$src" PATCH="$patch" || die "make -C kernel patch failed"
	apply "$patch" || { echo "FAIL $arch: the patch does not apply (git apply)"; exit 1; }
	for v in "$@"; do
		build "$v" "$v" || rc=1
	done
else
	for p in "$series"/[0-9][0-9][0-9][0-9]-*.patch; do
		case ${p##*/} in 0000-*) continue ;; esac	# the cover letter
		tag=$(basename "$p" .patch | cut -c1-4)
		apply "$p" || { echo "FAIL $arch: $(basename "$p") does not apply after the ones before it"; exit 1; }
		if ! grep -q '^+++ b/\(fs\|include\)/' "$p"; then
			echo "ok $arch $tag (changes no source: nothing to build)"
		elif grep -q '^source "fs/axfs/Kconfig"' "$tree/fs/Kconfig"; then
			build "$1" "$tag" || rc=1
		elif [ -f "$tree/fs/axfs/Makefile" ]; then
			build_unhooked "$tag" || rc=1
		else
			echo "ok $arch $tag (no fs/axfs/Makefile yet: nothing to build)"
		fi
	done
	[ "${AXFS_COCCICHECK:-1}" = 0 ] || coccicheck || rc=1
fi
exit $rc
