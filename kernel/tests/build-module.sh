#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# build-module.sh - build axfs.ko against one kernel fetched by
# fetch-kernel.sh, with the compiler that kernel was built with.
#
#   sh kernel/tests/build-module.sh [--arch ARCH] SUITE OUTDIR [MAKE-ARGS...]
#
# SUITE as for fetch-kernel.sh ("" or host: the host's kernel), or debug
# (debug-kernel.sh's 6.1 with KASAN, UBSAN and lockdep).  The sources are
# copied to OUTDIR (module-tree.sh), so builds against several kernels
# can run at once; the module is OUTDIR/kernel/
# axfs.ko and the compiler's output OUTDIR/build.log.  If the host has the
# compiler the headers call (GCC=), the build runs here; otherwise in the
# cached build root of the release that has it (buildroot.sh).  Prints the
# fetch-kernel.sh lines plus KO= and WARNINGS= (count of warning lines).
# Exit status: 0 built, 1 build failed, 2 kernel or build root unavailable.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
archopt=
if [ "${1:-}" = --arch ]; then
	archopt="--arch $2"
	shift 2
fi
[ $# -ge 2 ] || { echo "usage: build-module.sh [--arch ARCH] SUITE OUTDIR [MAKE-ARGS...]" >&2; exit 2; }
suite=$1
out=$2
shift 2
[ "$suite" != host ] || suite=

if [ "$suite" = debug ]; then
	kinfo=$(sh "$here/debug-kernel.sh") || exit 2
	eval "$kinfo"
	# Built with the host's gcc-12: named as the kernel's was (kbuild
	# warns when the names differ).
	set -- CC="$GCC" "$@"
else
	# shellcheck disable=SC2086
	kinfo=$(sh "$here/fetch-kernel.sh" $archopt $suite) || exit 2
	eval "$kinfo"
fi
echo "$kinfo"

sh "$here/module-tree.sh" "$out"
out=$(cd "$out" && pwd)

cmd="make -C $out/kernel KDIR=$KDIR $*"
rc=0
if command -v "$GCC" >/dev/null 2>&1 ||
	command -v "$(uname -m)-linux-gnu-$GCC" >/dev/null 2>&1; then
	# shellcheck disable=SC2086
	$cmd >"$out/build.log" 2>&1 || rc=1
else
	root=$(sh "$here/buildroot.sh" "$RELEASE" "$GCC") || exit 2
	eval "$root"
	# shellcheck disable=SC2086
	sh "$here/buildroot.sh" --run "$ROOT" --bind "$out" -- $cmd \
		>"$out/build.log" 2>&1 || rc=1
fi
[ -f "$out/kernel/axfs.ko" ] || rc=1
echo "KO=$out/kernel/axfs.ko"
echo "WARNINGS=$(grep -c -i 'warning:' "$out/build.log" || true)"
exit $rc
