#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# A build without libfuse3 (FUSE=0), as a Buildroot or Yocto build that
# does not depend on it makes: it builds and links without libfuse3, every
# other command works (an image made, checked, listed and extracted),
# `axfs mount` answers --help and --version and otherwise says it was built
# without libfuse3 and exits 8, whatever options it is given.  It compiles
# everything once more: run by `make check-all`, not by `make check`.
. "$(dirname "$0")/../cli/lib.sh"

top=$AXFS_TOP
unset MAKEFLAGS MFLAGS MAKELEVEL MAKEOVERRIDES
nofuse=$TRASH/build-nofuse/axfs

test_expect_success 'make FUSE=0 WERROR=1 builds axfs without libfuse3' '
	make -s -C "$top" -j2 B="$TRASH/build-nofuse" FUSE=0 WERROR=1 "$TRASH/build-nofuse/axfs" \
		>build.log 2>&1 || { tail -n 30 build.log; false; } &&
	test -x "$nofuse" &&
	ldd "$nofuse" >ldd.out &&
	grep -q libarchive ldd.out &&
	! grep -q fuse ldd.out
'

test_expect_success 'the other commands work: mkfs, fsck, ls, extract, bytes compared' '
	mkdir -p tree/etc tree/bin &&
	seq 1 5000 >tree/etc/numbers &&
	cp "$nofuse" tree/bin/prog &&
	ln -s prog tree/bin/alias &&
	"$nofuse" mkfs -q tree -o img.axfs &&
	"$nofuse" fsck img.axfs &&
	"$nofuse" ls -R img.axfs >ls.out &&
	grep -q "numbers" ls.out &&
	"$nofuse" extract -q img.axfs out &&
	diff -r tree out &&
	test "$(readlink out/bin/alias)" = prog
'

test_expect_success 'axfs mount --help and --version answer with 0' '
	"$nofuse" mount --help >help.out &&
	grep -q "^usage: axfs mount" help.out &&
	grep -q "built without" help.out &&
	grep -q -- "--version" help.out &&
	"$nofuse" mount -V >version.out &&
	# VERSION, followed in a git checkout by -N-gHASH (git describe)
	grep -q "^axfs mount (axfs-tools) $(cat "$top/VERSION")\(-[0-9]*-g[0-9a-f]*\(-dirty\)\{0,1\}\)\{0,1\}$" version.out
'

test_expect_success 'axfs mount says it was built without libfuse3 and exits 8' '
	mkdir mnt &&
	for args in "img.axfs mnt" "-o ro img.axfs mnt" "-f img.axfs mnt" ""; do
		# shellcheck disable=SC2086
		test_expect_code 8 "$nofuse" mount $args 2>err &&
		grep -q "^axfs mount: this axfs was built without libfuse3" err ||
			{ echo "axfs mount $args:"; cat err; return 1; }
	done &&
	test -z "$(ls mnt)"
'

test_done
