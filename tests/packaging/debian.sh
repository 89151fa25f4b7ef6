#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The Debian packages (packaging/debian): built with dpkg-buildpackage from
# the `make dist` tarball as the .orig.tar.xz, lintian-clean at --pedantic
# (but for the overrides packaging/debian explains), installed in a clean
# Debian 12 root (debootstrap minbase, cached in $AXFS_CACHE) with
# linux-headers-amd64, where axfs --version names the release, a program
# builds against libaxfsimg-dev, and axfs-dkms builds axfs.ko for the
# installed Debian kernel.  Slow (minutes; network for the root's
# packages): run by `make check-packages`, not by `make check`.
# As root, installs what it needs: debhelper, dh-dkms, dkms, lintian,
# fakeroot, debootstrap, xz-utils and the build dependencies.
. "$(dirname "$0")/../cli/lib.sh"

top=$AXFS_TOP
cache=${AXFS_CACHE:-/var/cache/axfs-tools}/debootstrap
version=$(cat "$top/VERSION")
unset MAKEFLAGS MFLAGS MAKELEVEL MAKEOVERRIDES

# The packaging tools and build dependencies: make deps-tests-all (group
# packages of scripts/install-deps.sh) installs them.
test_lazy_prereq DEB_BUILD_DEPS '
	for p in debhelper dh-dkms dkms lintian fakeroot debootstrap xz-utils \
		 dpkg-dev check libarchive-dev libdeflate-dev libmd-dev libyaml-dev \
		 pkgconf zlib1g-dev; do
		dpkg-query -W -f "\${db:Status-Abbrev}" "$p" | grep -q "^ii" || exit 1
	done
'
test_require_prereq ROOT,DEB_BUILD_DEPS "dpkg-buildpackage, a chroot; make deps-tests-all installs the packages"

test_expect_success 'dpkg-buildpackage -us -uc builds the four packages from the dist tarball' '
	make -s -C "$top" dist DISTDIR="$TRASH" >dist.log &&
	mv axfs-tools-$version.tar.xz axfs-tools_$version.orig.tar.xz &&
	tar xJf axfs-tools_$version.orig.tar.xz &&
	cp -r axfs-tools-$version/packaging/debian axfs-tools-$version/debian &&
	(cd axfs-tools-$version && dpkg-buildpackage -us -uc -j2) >build.log 2>&1 ||
		{ tail -n 40 build.log; false; } &&
	for p in axfs-tools_${version}-1_amd64 libaxfsimg0_${version}-1_amd64 \
		 libaxfsimg-dev_${version}-1_amd64 axfs-dkms_${version}-1_all; do
		test -f $p.deb || { echo "missing $p.deb"; return 1; }
	done
'

test_expect_success 'the build used dpkg-buildflags (CPPFLAGS, CFLAGS, LDFLAGS) and no -Werror' '
	grep "libaxfsimg/read/reader.c" build.log | grep -q -- "-D_FORTIFY_SOURCE=2" &&
	grep "libaxfsimg/read/reader.c" build.log | grep -q -- "-fstack-protector-strong" &&
	grep "libaxfsimg/read/reader.c" build.log | grep -v -q -- "-Werror " &&
	! grep -q "dpkg-gensymbols: warning" build.log &&
	! grep -q "dpkg-shlibdeps: warning" build.log &&
	dpkg-deb -x axfs-tools_${version}-1_amd64.deb x &&
	readelf -d x/usr/bin/axfs >dyn &&
	! grep -q "NEEDED.*libaxfsimg" dyn &&
	grep -q "BIND_NOW" dyn &&
	! grep -E -q "RPATH|RUNPATH" dyn
'

test_expect_success 'lintian --pedantic finds nothing but what packaging/debian overrides' '
	lintian --pedantic -I --suppress-tags running-with-root-privileges \
		axfs-tools_${version}-1_amd64.changes >lintian.log 2>&1; cat lintian.log &&
	! grep -E "^[EWIP]: " lintian.log
'

test_expect_success 'the packages hold what they should' '
	dpkg-deb -c libaxfsimg0_${version}-1_amd64.deb >lib.list &&
	grep -q "usr/lib/x86_64-linux-gnu/libaxfsimg.so.0 -> libaxfsimg.so.$version" lib.list &&
	dpkg-deb -c libaxfsimg-dev_${version}-1_amd64.deb >dev.list &&
	grep -q "usr/lib/x86_64-linux-gnu/pkgconfig/axfsimg.pc" dev.list &&
	grep -q "usr/include/axfs/axfs_reader.h" dev.list &&
	dpkg-deb -c axfs-dkms_${version}-1_all.deb >dkms.list &&
	grep -q "usr/src/axfs-$version/dkms.conf" dkms.list &&
	grep -q "usr/src/axfs-$version/axfs_fs.h" dkms.list &&
	dpkg-deb -I axfs-dkms_${version}-1_all.deb | grep -q "Depends:.*dkms" &&
	dpkg-deb -I libaxfsimg0_${version}-1_amd64.deb >lib.info &&
	grep -q "Version: $version-1" lib.info
'

# ---- a clean Debian 12 root ------------------------------------------------------
root=$TRASH/root
mkroot() {
	mkdir -p "$cache" &&
	flock "$cache/bookworm-minbase.lock" sh -c '
		test -f "$1/bookworm-minbase.tar" && exit 0
		rm -rf "$1/build" &&
		debootstrap --variant=minbase bookworm "$1/build" http://deb.debian.org/debian >"$1/debootstrap.log" 2>&1 &&
		tar -C "$1/build" -cf "$1/bookworm-minbase.tar.tmp" . &&
		mv "$1/bookworm-minbase.tar.tmp" "$1/bookworm-minbase.tar" &&
		rm -rf "$1/build"' sh "$cache" &&
	mkdir -p "$root" && tar -C "$root" -xf "$cache/bookworm-minbase.tar"
}
in_root() { chroot "$root" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin DEBIAN_FRONTEND=noninteractive "$@"; }
cleanup_root() {
	for m in "$root/proc" "$root/sys" "$root/dev/pts"; do
		mountpoint -q "$m" && umount "$m"
	done
	rm -rf "$root"
}
trap 'cleanup_root; rm -rf "$TRASH"' EXIT

test_expect_success 'the packages and linux-headers-amd64 install in a clean Debian 12 root' '
	mkroot &&
	mount -t proc proc "$root/proc" && mount -t sysfs sys "$root/sys" &&
	cp /etc/resolv.conf "$root/etc/resolv.conf" &&
	mkdir -p "$root/debs" && cp ./*.deb "$root/debs/" &&
	in_root apt-get update -q >root.log 2>&1 &&
	in_root apt-get install -y -q --no-install-recommends linux-headers-amd64 >>root.log 2>&1 &&
	in_root sh -c "apt-get install -y -q --no-install-recommends /debs/axfs-tools_*.deb /debs/libaxfsimg0_*.deb /debs/libaxfsimg-dev_*.deb /debs/axfs-dkms_*.deb gcc libc6-dev pkgconf" >>root.log 2>&1 ||
		{ tail -n 40 root.log; false; }
'

test_expect_success 'axfs --version in the root names the release' '
	in_root axfs --version >v.out && cat v.out &&
	grep -qx "axfs (axfs-tools) $version" v.out &&
	in_root mkfs.axfs --version >/dev/null &&
	test "$(in_root pkg-config --modversion axfsimg)" = "$version"
'

test_expect_success 'a program builds against libaxfsimg-dev and reads an image in the root' '
	mkdir -p "$root/t/tree/etc" && echo hello >"$root/t/tree/etc/hostname" &&
	cat >"$root/t/prog.c" <<-\PROG &&
	#include <stdio.h>
	#include <axfs_reader.h>
	static int show(void *ctx, const char *path, const struct axfs_inode_info *ino)
	{ (void)ctx; (void)ino; puts(path); return 0; }
	int main(int argc, char **argv)
	{
		struct axfs_open_opts o = { .struct_size = sizeof(o) };
		struct axfs_error err;
		struct axfs_image *img;
		if (argc != 2 || axfs_image_open(&img, argv[1], &o, &err) < 0)
			return 1;
		if (axfs_image_walk(img, show, NULL, &err) < 0)
			return 1;
		axfs_image_close(img);
		return 0;
	}
	PROG
	in_root sh -c "cd /t && axfs mkfs -q tree -o t.axfs && gcc -o prog prog.c \$(pkg-config --cflags --libs axfsimg) && ./prog t.axfs" >prog.out &&
	grep -qx /etc/hostname prog.out
'

test_expect_success 'axfs-dkms built axfs.ko for the installed Debian kernel' '
	kver=$(ls "$root/usr/src" | sed -n "s/^linux-headers-\(.*-amd64\)\$/\1/p" | sort -V | tail -n 1) &&
	test -n "$kver" && echo "kernel $kver" &&
	in_root dkms status >status && cat status &&
	grep -q "^axfs/$version, $kver, x86_64: installed" status &&
	ko=$(find "$root/lib/modules/$kver" -name "axfs.ko*") && test -n "$ko" &&
	in_root modinfo -F vermagic "${ko#$root}" >vermagic &&
	grep -q "^$kver " vermagic
'

test_done
