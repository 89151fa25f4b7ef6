#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Installs the Debian packages the build needs, when they are missing.
# Run by `make` (through the deps target).  As root it installs with
# apt-get, saying what it installs; otherwise it names what is missing.
set -eu

# package : how we detect it is present
need="zlib1g-dev:zlib libdeflate-dev:libdeflate libarchive-dev:libarchive libyaml-dev:yaml-0.1 check:check libmd-dev:libmd pkg-config:"

missing=""
for item in $need; do
	pkg=${item%%:*}
	pc=${item#*:}
	if [ -z "$pc" ]; then
		command -v pkg-config >/dev/null 2>&1 || missing="$missing $pkg"
	elif ! pkg-config --exists "$pc" 2>/dev/null; then
		missing="$missing $pkg"
	fi
done

[ -z "$missing" ] && exit 0

if [ "$(id -u)" != 0 ]; then
	echo "axfs-tools: missing build dependencies:$missing" >&2
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
