#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Checks for the Debian packages a part of the project needs:
#   install-deps.sh [--install] GROUP...
#     build   the libraries and pkg-config (checked by every `make`)
#     unit    Check, for the unit tests
#     fuse    libfuse3, for axfs mount (a build without it has no mount)
#     tests   what the test scripts use (python3 for tests/tools, fuse3,
#             archivers, fakeroot, valgrind, man-db, kconfiglib, tzdata, flake8
#             and python3-magic for Buildroot's check-package, ...)
#     demo    a busybox for make demo's tree (busybox-static: what
#             examples/profile.csv was recorded on), unless one is there
#     kernel  what make check's kernel run needs on the host (qemu,
#             a static busybox for the guest)
#     kernel-all  what make check-all's kernel jobs add (debootstrap for the
#             build roots, qemu for arm64, armhf and riscv64, their cross
#             compilers and C libraries, dtc, sparse for the kernel patch builds)
#     bench   what bench/kernel/run.sh builds its peers' images with
#             (mksquashfs, mkfs.erofs)
#     packages    what tests/packaging needs (the Debian packaging tools
#             and build dependencies; a kernel build's tools for the patch,
#             coccinelle for its coccicheck, and ocaml-nox: Debian's spatch
#             compiles the OCaml rules of two of the kernel's semantic
#             patches, badzero.cocci and check_bq27xxx_data.cocci, with
#             ocamlopt, and kernel-series.sh runs every one)
# Without --install it names what is missing and the one apt-get command
# that installs it, and fails: a plain `make` or `make install` never
# installs anything (packagers and cross builds bring their own
# libraries).  With --install (`make deps`, run by `make check` and
# `make demo`; `make deps-tests`, run by every check target), as root, it
# installs what is missing with apt-get and says so.  The test runner and
# the test scripts never install anything: they find what these groups
# put there, or skip with the prerequisite they miss.  The libraries are looked up with $PKG_CONFIG (default pkg-config),
# so a cross or host build finds its own.
set -eu

install=0
if [ "${1:-}" = --install ]; then
	install=1
	shift
fi
PKG_CONFIG=${PKG_CONFIG:-pkg-config}

# package:how we detect it is present: a pkg-config module; cmd=NAME, the
# command NAME; empty, the command named like the package; -, dpkg says it
# is installed (no command or module to look for).
[ $# -gt 0 ] || set -- build
need=""
what=""
for group in "$@"; do
	case $group in
	build)	need="$need pkg-config: zlib1g-dev:zlib libdeflate-dev:libdeflate
		      libarchive-dev:libarchive libyaml-dev:yaml-0.1 libmd-dev:libmd" ;;
	fuse)	need="$need libfuse3-dev:fuse3" ;;
	unit)	need="$need check:check" ;;
	# None is on a minimal Debian 12; the tests run in parallel, so they
	# are installed here, once, before the tests start.  fuse3 gives
	# fusermount3, which axfs mount needs as an ordinary user.  jq and
	# less: the documentation's examples pipe into them (t7210 runs them).
	tests)	need="$need python3: fuse3:cmd=fusermount3 fakeroot: valgrind:
		      cpio: libarchive-tools:- gzip: xz-utils:- bzip2: lz4: zstd:
		      man-db:- groff-base:- python3-kconfiglib:- tzdata:-
		      python3-magic:- flake8: squashfs-tools:cmd=mksquashfs
		      erofs-utils:cmd=mkfs.erofs jq: less:" ;;
	demo)	need="$need busybox-static:cmd=busybox" ;;
	kernel)	need="$need qemu-system-x86:cmd=qemu-system-x86_64 busybox-static:-" ;;
	bench)	need="$need squashfs-tools:cmd=mksquashfs erofs-utils:cmd=mkfs.erofs" ;;
	kernel-all)
		need="$need debootstrap: qemu-system-arm:cmd=qemu-system-aarch64
		      qemu-system-misc:cmd=qemu-system-riscv64
		      gcc-aarch64-linux-gnu:cmd=aarch64-linux-gnu-gcc
		      gcc-arm-linux-gnueabihf:cmd=arm-linux-gnueabihf-gcc
		      gcc-riscv64-linux-gnu:cmd=riscv64-linux-gnu-gcc
		      libc6-dev-arm64-cross:- libc6-dev-armhf-cross:-
		      libc6-dev-riscv64-cross:- busybox-static:-
		      squashfs-tools:cmd=mksquashfs
		      device-tree-compiler:cmd=dtc sparse:" ;;
	packages)
		need="$need debhelper:- dh-dkms:- dkms: lintian: fakeroot: debootstrap:
		      xz-utils:- dpkg-dev:- check:- libarchive-dev:- libdeflate-dev:-
		      libmd-dev:- libyaml-dev:- pkgconf:- zlib1g-dev:- gcc-12:
		      bc: bison: flex: libelf-dev:- libssl-dev:- make: patch:
		      coccinelle:cmd=spatch ocaml-nox:cmd=ocamlopt" ;;
	*)	echo "install-deps.sh: unknown group '$group'" >&2; exit 2 ;;
	esac
	what="$what $group"
done

missing=""
for item in $need; do
	pkg=${item%%:*}
	how=${item#*:}
	[ -n "$how" ] || how=cmd=$pkg
	[ "$how" != cmd=pkg-config ] || how=cmd=$PKG_CONFIG
	case $how in
	-)	dpkg-query -W -f '${Status}' "$pkg" 2>/dev/null |
			grep -q ' installed$' || missing="$missing $pkg" ;;
	cmd=*)	command -v "${how#cmd=}" >/dev/null 2>&1 || missing="$missing $pkg" ;;
	*)	"$PKG_CONFIG" --exists "$how" 2>/dev/null || missing="$missing $pkg" ;;
	esac
done

[ -z "$missing" ] && exit 0

if [ $install = 0 ] || [ "$(id -u)" != 0 ]; then
	echo "axfs-tools: missing Debian packages for the$what dependencies:$missing" >&2
	echo "axfs-tools: install them with: apt-get install$missing" >&2
	case $what in
	" bench") echo "axfs-tools: (as root, bench/kernel/run.sh does it)" >&2; exit 1 ;;
	*build*|*unit*|*fuse*) target=deps ;;
	*demo*) target=demo ;;
	*kernel-all*|*packages*) target=deps-tests-all ;;
	*) target=deps-tests ;;
	esac
	[ $install = 1 ] || echo "axfs-tools: (as root, 'make $target' does it)" >&2
	# An ordinary user's test run goes on: the tests that need a missing
	# package skip and say so.
	case $what in *build*|*unit*|*fuse*) ;; *) exit 0 ;; esac
	exit 1
fi

echo "axfs-tools: installing missing Debian packages:$missing"
export DEBIAN_FRONTEND=noninteractive
# A fresh machine has no package lists yet; refresh them once if the
# install fails for that reason.  Another apt-get (a second checkout's
# tests) is waited for.
apt="apt-get -o DPkg::Lock::Timeout=600"
if ! $apt install -y -q --no-install-recommends $missing </dev/null; then
	echo "axfs-tools: refreshing package lists (apt-get update)"
	$apt update -q </dev/null
	$apt install -y -q --no-install-recommends $missing </dev/null
fi
