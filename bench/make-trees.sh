#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Builds the benchmark trees from Debian packages (apt-get download, dpkg -x;
# no root needed to unpack) plus their tarballs:
#   bench/work/small/   busybox-sized: busybox, libc6 and a few libraries
#   bench/work/large/   about 250 MiB from 44 packages, half the bytes ELF
# Usage: bench/make-trees.sh [WORKDIR]
set -eu
work=${1:-$(dirname "$0")/work}
mkdir -p "$work/debs"
work=$(cd "$work" && pwd)

small="busybox libc6 zlib1g liblzma5 libzstd1 ncurses-base libtinfo6 libncursesw6"
large="zlib1g liblzma5 ncurses-base curl sqlite3 libzstd1 busybox libcurl4
libkrb5-3 libx11-6 libx11-data libsqlite3-0 libxml2 git-man openssl tzdata
libstdc++6 libgnutls30 iproute2 vim libglib2.0-0 ncurses-term util-linux
libpython3.11-minimal openssh-client libssl3 python3.11-minimal bash
libmagic-mgc libpython3.11-stdlib systemd udev binutils-x86-64-linux-gnu gdb
libc6-dev libc6 libgcc-12-dev locales perl-modules-5.36 coreutils
libstdc++-12-dev libtinfo6 libncursesw6 libreadline8"

fetch() {	# download the .debs we do not have yet
	cd "$work/debs"
	for p in "$@"; do
		ls "${p}"_*.deb >/dev/null 2>&1 && continue
		apt-get download -q "$p" >/dev/null 2>&1 || {
			[ "$(id -u)" = 0 ] && apt-get update -q >/dev/null 2>&1
			apt-get download -q "$p" >/dev/null
		}
	done
}

unpack() {	# unpack packages into a fresh tree and make its tarball
	name=$1; shift
	[ -d "$work/$name" ] && return 0
	rm -rf "$work/$name.tmp"
	mkdir -p "$work/$name.tmp"
	for p in "$@"; do
		dpkg -x "$work"/debs/"${p}"_*.deb "$work/$name.tmp"
	done
	chmod -R u+rwX "$work/$name.tmp"
	mv "$work/$name.tmp" "$work/$name"
	tar -C "$work/$name" --numeric-owner --owner=0 --group=0 --sort=name \
		-cf "$work/$name.tar" .
	echo "bench: $name: $(find "$work/$name" | wc -l) entries," \
	     "$(du -sm "$work/$name" | cut -f1) MiB"
}

fetch $small $large
unpack small $small
unpack large $large
