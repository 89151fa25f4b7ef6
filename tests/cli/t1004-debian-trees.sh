#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# axfs mkfs on real Debian package trees: the files that the installed
# packages ship (dpkg -L), with their setuid and setgid programs, group
# owners, symlinks and shared libraries, plus (as root) device nodes,
# a FIFO, a socket, odd owners and hard links.  Every image, built with
# several option mixes, is read back by the independent reader that
# follows the 2008 driver's read path (seedread.py): every file's content,
# size, mode, uid, gid, symlink target and device number must be what the
# driver returns.  Runs on any Debian machine (no download): dpkg is there.
. "$(dirname "$0")/lib.sh"

root=false
test "$(id -u)" = 0 && root=true

# Installed packages of several kinds: programs (setuid su, mount,
# passwd; setgid chage), the C library, zoneinfo data, perl modules.
pkgs=""
if command -v dpkg-query >/dev/null; then
	for p in util-linux mount login passwd libc-bin tzdata perl-base; do
		s=$(dpkg-query -W -f='${db:Status-Status}' "$p" 2>/dev/null)
		test "$s" = installed && pkgs="$pkgs $p"
	done
fi

test_lazy_prereq DEBIAN_PKGS 'test -n "$pkgs"'
test_require_prereq DEBIAN_PKGS

test_expect_success "setup: a tree of the files of$pkgs" '
	sh "$AXFS_TOP"/tests/tools/pkgtree.sh deb $pkgs &&
	test "$(find deb | wc -l)" -gt 500 &&
	n=$(find deb -type f | wc -l) && echo "$n files" && test "$n" -gt 300 &&
	test -n "$(find deb -type l)" &&
	if $root; then
		test -n "$(find deb -perm -4000 -type f)" &&
		mkdir deb/dev deb/run &&
		mknod deb/dev/null c 1 3 && mknod deb/dev/sda1 b 8 1 &&
		mknod deb/dev/max c 255 255 && mknod deb/dev/zero0 b 0 0 &&
		chown 0:6 deb/dev/sda1 && chmod 660 deb/dev/sda1 &&
		mkfifo deb/run/initctl && chmod 600 deb/run/initctl &&
		python3 -c "import socket; socket.socket(socket.AF_UNIX).bind(\"deb/run/sock\")" &&
		mkdir -m 1777 deb/tmp && mkdir deb/home &&
		{ cp -p deb/etc/login.defs deb/home/cfg 2>/dev/null ||
			echo cfg >deb/home/cfg; } &&
		chown 1000:1000 deb/home/cfg &&
		chown -h 65534:4294967294 deb/run/sock &&
		ln deb/home/cfg deb/home/cfg.hard &&
		f=$(find deb/usr -type f -perm -4000 | head -n 1) &&
		ln "$f" deb/home/setuid.hard
	fi
'

# The options change every part of the layout: cblock size, metadata
# compression, XIP pages of programs and shared libraries, compressor.
# Under sanitizers (slow) the first mix only.
mixes="'' '-b 4KiB --compress-metadata=no' \
	'-b 1MiB -l 1 --compressor zlib --xip /usr/bin/* --xip /usr/lib/**/*.so*'"
test "${AXFS_SANITIZED:-0}" = 1 && mixes="''"
i=0
eval "set -- $mixes"
for opts in "$@"; do
	i=$((i + 1))
	test_expect_success "mkfs ${opts:-(defaults)}: the 2008 driver reads every file back" '
		set -f && "$AXFS" mkfs -q '"$opts"' deb -o img'$i'.axfs && set +f &&
		seedread compare img'$i'.axfs deb &&
		"$AXFS" fsck -q img'$i'.axfs
	'
done

if test $i -ge 3; then
test_expect_success 'the XIP globs made programs and libraries XIP, nothing else' '
	seedread xip img3.axfs >xip &&
	grep -q "^/usr/bin/" xip && grep -q "^/usr/lib/.*\.so" xip &&
	! grep -v -e "^/usr/bin/" -e "^/usr/lib/.*\.so[^/]*," \
		-e "^/home/setuid.hard," xip
'
fi

# mkfs with the image as its source and a new profile (programs, a shared
# library, the hard link to a setuid program): the bytes of the build from
# the tree with that profile.
test_expect_success 'img1.axfs re-planned with a profile: the bytes of the tree built with it' '
	{
		find deb -type f -perm -4000 | head -n 2 &&
		find deb -type f -name "*.so*" -size +20k | sort | head -n 3 &&
		find deb/home -name setuid.hard
	} | sed "s|^deb/|./|" | while read -r f; do
		echo "$f,0,20" && echo "$f,8192,4"
	done >p.csv &&
	test -s p.csv &&
	"$AXFS" mkfs -q -b 16KiB -p p.csv deb -o pt.axfs &&
	"$AXFS" mkfs -q -b 16KiB -p p.csv img1.axfs -o pi.axfs &&
	cmp pt.axfs pi.axfs && ! cmp -s pt.axfs img1.axfs
'

test_expect_success 'a copy of the tree (other inode numbers and readdir order) with -j 1: the same bytes' '
	cp -a deb deb2 && "$AXFS" mkfs -q -j 1 deb2 -o j1.axfs &&
	cmp j1.axfs img1.axfs
'

test_expect_success 'axfs extract gives back what the driver reads' '
	"$AXFS" extract -q img1.axfs out &&
	if $root; then
		seedread compare --mtime img1.axfs out
	else
		seedread compare --mtime --no-owner img1.axfs out
	fi
'

test_done
