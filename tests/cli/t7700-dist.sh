#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# `make dist`: axfs-tools-VERSION.tar.xz of HEAD is the same bytes twice
# (and from another clone), holds exactly the committed files under
# axfs-tools-VERSION/, owned by root with the commit's time, and its
# .sha256 matches.  axfs --version shows git describe (VERSION-N-gHASH)
# in a checkout and VERSION in a build of the tarball.
. "$(dirname "$0")/lib.sh"

top=$AXFS_TOP
unset MAKEFLAGS MFLAGS MAKELEVEL MAKEOVERRIDES

# make dist needs a git checkout.
test_require_prereq GIT
version=$(cat "$top/VERSION")
name=axfs-tools-$version

test_expect_success 'VERSION holds one X.Y.Z line' '
	test "$(wc -l <"$top/VERSION")" = 1 &&
	echo "$version" | grep -qx "[0-9]*\.[0-9]*\.[0-9]*"
'

# Built in a checkout: git describe of the v* tags (before the first tag,
# every commit counted), so that two builds between releases tell apart;
# from the release tarball: VERSION alone, even unpacked inside another
# git work tree.
test_expect_success 'axfs --version: VERSION-N-gHASH in a checkout' '
	"$AXFS" --version | head -n 1 >v &&
	h=$(git -C "$top" rev-parse --short HEAD) &&
	grep -qx "axfs (axfs-tools) $version-[0-9]*-g$h\(-dirty\)\{0,1\}" v ||
	{ cat v; false; }
'

test_expect_success 'make dist twice, and from another clone, writes the same bytes' '
	make -s -C "$top" dist DISTDIR="$TRASH/a" >a.log &&
	make -s -C "$top" dist DISTDIR="$TRASH/b" >b.log &&
	cmp a/$name.tar.xz b/$name.tar.xz &&
	git clone -q --no-local "$top" clone &&
	git -C clone checkout -q "$(git -C "$top" rev-parse HEAD)" &&
	make -s -C clone dist DISTDIR="$TRASH/c" >c.log &&
	cmp a/$name.tar.xz c/$name.tar.xz
'

test_expect_success 'the .sha256 file matches the tarball' '
	(cd a && sha256sum -c $name.tar.xz.sha256)
'

test_expect_success 'the tarball holds the committed files, owned by root, with the commit time' '
	tar tJf a/$name.tar.xz | grep -v "/\$" | sed "s|^$name/||" | sort >files &&
	git -C "$top" ls-tree -r --name-only HEAD | sort >want &&
	diff want files &&
	tar tvJf a/$name.tar.xz --numeric-owner | awk "{ print \$2 }" | sort -u >owners &&
	test "$(cat owners)" = "0/0" &&
	mkdir x && tar xJf a/$name.tar.xz -C x &&
	test "$(stat -c %Y x/$name/VERSION)" = "$(git -C "$top" log -1 --format=%ct)"
'

test_expect_success 'the build version: git describe in a clone, at and after a tag; VERSION from the tarball' '
	git clone -q "$top" tagged &&
	make -s -C tagged B=b b/build_version.h &&
	n=$(git -C tagged rev-list --count HEAD) && h=$(git -C tagged rev-parse --short HEAD) &&
	grep -qx "#define AXFS_VERSION \"$version-$n-g$h\"" tagged/b/build_version.h &&
	git -C tagged tag "v$version" &&
	make -s -C tagged B=b b/build_version.h &&
	grep -qx "#define AXFS_VERSION \"$version\"" tagged/b/build_version.h &&
	git -C tagged -c user.name=t -c user.email=t@example.org commit -q --allow-empty -m next &&
	make -s -C tagged B=b b/build_version.h &&
	h=$(git -C tagged rev-parse --short HEAD) &&
	grep -qx "#define AXFS_VERSION \"$version-1-g$h\"" tagged/b/build_version.h &&
	echo x >>tagged/README.md &&
	make -s -C tagged B=b b/build_version.h &&
	grep -qx "#define AXFS_VERSION \"$version-1-g$h-dirty\"" tagged/b/build_version.h &&
	tar xJf a/$name.tar.xz -C tagged &&
	make -s -C tagged/$name B=b b/build_version.h &&
	grep -qx "#define AXFS_VERSION \"$version\"" tagged/$name/b/build_version.h
'

test_expect_success 'make dist refuses a VERSION that is not committed' '
	git clone -q "$top" dirty &&
	echo 9.9.9 >dirty/VERSION &&
	! make -s -C dirty dist DISTDIR="$TRASH/d" 2>err &&
	grep -q "VERSION differs" err
'

test_done
