#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# `make dist`: axfs-tools-VERSION.tar.xz of HEAD is the same bytes twice
# (and from another clone), holds exactly the committed files under
# axfs-tools-VERSION/, owned by root with the commit's time, and its
# .sha256 matches.  The version shows in axfs --version and the .pc file.
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

test_expect_success 'axfs --version shows VERSION' '
	"$AXFS" --version | head -n 1 >v &&
	grep -qx "axfs (axfs-tools) $version" v
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

test_expect_success 'make dist refuses a VERSION that is not committed' '
	git clone -q "$top" dirty &&
	echo 9.9.9 >dirty/VERSION &&
	! make -s -C dirty dist DISTDIR="$TRASH/d" 2>err &&
	grep -q "VERSION differs" err
'

test_done
