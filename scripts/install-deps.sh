#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Installs the Debian packages the build needs, when they are missing.
# Run by `make` (through the deps target), and with --tests by
# tests/run-tests.sh for what only the tests need.  As root it installs
# with apt-get, saying what it installs; otherwise it names what is missing.
set -eu

# package : how we detect it is present (a pkg-config module; cmd=NAME: the
# command NAME; empty: the command named like the package)
need="zlib1g-dev:zlib libdeflate-dev:libdeflate libarchive-dev:libarchive libyaml-dev:yaml-0.1 check:check libmd-dev:libmd libfuse3-dev:fuse3 pkg-config:"
# The tests' tools (tests/tools/*.py, seedread.py among them) are Python;
# python3 is not on a minimal Debian 12.
what="build dependencies"
if [ "${1:-}" = --tests ]; then
	# fuse3: fusermount3, which axfs mount needs as an ordinary user.
	need="python3: fuse3:cmd=fusermount3"
	what="test dependencies"
fi

missing=""
for item in $need; do
	pkg=${item%%:*}
	pc=${item#*:}
	if [ -z "$pc" ] || [ "${pc#cmd=}" != "$pc" ]; then
		[ -n "$pc" ] || pc=cmd=$pkg
		command -v "${pc#cmd=}" >/dev/null 2>&1 || missing="$missing $pkg"
	elif ! pkg-config --exists "$pc" 2>/dev/null; then
		missing="$missing $pkg"
	fi
done

[ -z "$missing" ] && exit 0

if [ "$(id -u)" != 0 ]; then
	echo "axfs-tools: missing $what:$missing" >&2
	echo "axfs-tools: install them with: apt-get install$missing" >&2
	exit 1
fi

echo "axfs-tools: installing missing Debian packages:$missing"
export DEBIAN_FRONTEND=noninteractive
# A fresh machine has no package lists yet; refresh them once if the
# install fails for that reason.
if ! apt-get install -y -q --no-install-recommends $missing </dev/null; then
	echo "axfs-tools: refreshing package lists (apt-get update)"
	apt-get update -q </dev/null
	apt-get install -y -q --no-install-recommends $missing </dev/null
fi
