#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Installs the Debian packages the build needs, when they are missing.
# Run by `make` (through the deps target), and with --tests by
# tests/run-tests.sh for what only the tests need.  As root it installs
# with apt-get, saying what it installs; otherwise it names what is missing.
set -eu

# package : how we detect it is present (a pkg-config module; empty: the
# command named like the package)
need="zlib1g-dev:zlib libdeflate-dev:libdeflate libarchive-dev:libarchive libyaml-dev:yaml-0.1 check:check libmd-dev:libmd pkg-config:"
# What the tests use: tests/tools/*.py (python3), archivers and filters
# (t4000), fakeroot, valgrind (t8100), man-db and groff (t7200), kconfiglib
# (t7300).  None is on a minimal Debian 12; the tests run in parallel, so
# they are installed here, once, before the tests start, and the scripts
# find them present (dpkg: pc "-").
what="build dependencies"
if [ "${1:-}" = --tests ]; then
	need="python3: fakeroot: valgrind: cpio: libarchive-tools:- gzip: xz-utils:-
	      bzip2: lz4: zstd: man-db:- groff-base:- python3-kconfiglib:-"
	what="test dependencies"
fi

missing=""
for item in $need; do
	pkg=${item%%:*}
	pc=${item#*:}
	if [ "$pc" = - ]; then
		dpkg-query -W -f '${Status}' "$pkg" 2>/dev/null |
			grep -q ' installed$' || missing="$missing $pkg"
	elif [ -z "$pc" ]; then
		command -v "$pkg" >/dev/null 2>&1 || missing="$missing $pkg"
	elif ! pkg-config --exists "$pc" 2>/dev/null; then
		missing="$missing $pkg"
	fi
done

[ -z "$missing" ] && exit 0

if [ "$(id -u)" != 0 ]; then
	echo "axfs-tools: missing $what:$missing" >&2
	echo "axfs-tools: install them with: apt-get install$missing" >&2
	# Without them the tests that need them skip (and say so).
	[ "$what" = "test dependencies" ] && exit 0
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
