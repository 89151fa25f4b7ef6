#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Checks for the Debian packages a part of the project needs:
#   install-deps.sh [--install] GROUP...
#     build   the libraries and pkg-config (checked by every `make`)
#     unit    Check, for the unit tests
#     tests   python3, for the tests' tools
# Without --install it names what is missing and the one apt-get command
# that installs it, and fails: a plain `make` or `make install` never
# installs anything (packagers and cross builds bring their own
# libraries).  With --install (`make deps`, run by `make check` and
# `make demo`), as root, it installs what is missing with apt-get and says
# so.  The libraries are looked up with $PKG_CONFIG (default pkg-config),
# so a cross or host build finds its own.
set -eu

install=0
if [ "${1:-}" = --install ]; then
	install=1
	shift
fi
PKG_CONFIG=${PKG_CONFIG:-pkg-config}

# package : how we detect it is present (a pkg-config module; empty: the
# command named like the package)
[ $# -gt 0 ] || set -- build
need=""
what=""
for group in "$@"; do
	case $group in
	build)	need="$need pkg-config: zlib1g-dev:zlib libdeflate-dev:libdeflate libarchive-dev:libarchive libyaml-dev:yaml-0.1 libmd-dev:libmd" ;;
	unit)	need="$need check:check" ;;
	# The tests' tools (tests/tools/*.py, seedread.py among them) are
	# Python; python3 is not on a minimal Debian 12.
	tests)	need="$need python3:" ;;
	*)	echo "install-deps.sh: unknown group '$group'" >&2; exit 2 ;;
	esac
	what="$what $group"
done

missing=""
for item in $need; do
	pkg=${item%%:*}
	pc=${item#*:}
	if [ -z "$pc" ]; then
		if [ "$pkg" = pkg-config ]; then
			command -v "$PKG_CONFIG" >/dev/null 2>&1 || missing="$missing $pkg"
		else
			command -v "$pkg" >/dev/null 2>&1 || missing="$missing $pkg"
		fi
	elif ! "$PKG_CONFIG" --exists "$pc" 2>/dev/null; then
		missing="$missing $pkg"
	fi
done

[ -z "$missing" ] && exit 0

if [ $install = 0 ] || [ "$(id -u)" != 0 ]; then
	echo "axfs-tools: missing Debian packages for the$what dependencies:$missing" >&2
	echo "axfs-tools: install them with: apt-get install$missing" >&2
	[ $install = 1 ] || echo "axfs-tools: (as root, 'make deps' does it)" >&2
	exit 1
fi

echo "axfs-tools: installing missing Debian packages:$missing"
export DEBIAN_FRONTEND=noninteractive
# A fresh machine has no package lists yet; refresh them once if the
# install fails for that reason.
if ! apt-get install -y -q -o DPkg::Lock::Timeout=600 --no-install-recommends $missing </dev/null; then
	echo "axfs-tools: refreshing package lists (apt-get update)"
	apt-get update -q </dev/null
	apt-get install -y -q -o DPkg::Lock::Timeout=600 --no-install-recommends $missing </dev/null
fi
