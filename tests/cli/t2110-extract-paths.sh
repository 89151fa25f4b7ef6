#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# axfs extract IMAGE DIR PATH... and extract --tar FILE IMAGE PATH...: only
# the subtrees named, with the directories on the way to them and the
# links followed to reach them (resolved inside the image as the kernel
# resolves them), compared entry by entry, bytes and owners, with the same
# selection copied from the source tree by tar; a PATH that is not there
# or loops is an error naming it before anything is written.  On a tree
# shaped like Debian's (tests/tools/linktree.sh) and on the files of the
# installed base-files package (tests/tools/pkgtree.sh).
. "$(dirname "$0")/lib.sh"

# want SRC DEST ENTRY... : DEST gets the ENTRYs of SRC, an ENTRY ending in
# /... with everything below it, the others alone (tar --no-recursion).
want() {
	_src=$1 _dst=$2
	shift 2
	mkdir "$_dst" &&
	for _e in "$@"; do
		case $_e in
		*/...) tar -C "$_src" -cf - "${_e%/...}" ;;
		*) tar -C "$_src" --no-recursion -cf - "$_e" ;;
		esac | tar -C "$_dst" --numeric-owner -xpf - || return 1
	done
}

test_expect_success 'setup: an image of a tree shaped like Debian' '
	sh "$AXFS_TOP/tests/tools/linktree.sh" tree &&
	"$AXFS" mkfs -q tree -o img.axfs
'

test_expect_success 'two subtrees, with their parent directories' '
	"$AXFS" extract img.axfs out /usr/share/doc/base /etc/alternatives &&
	want tree exp usr usr/share usr/share/doc usr/share/doc/base/... \
		etc etc/alternatives/... &&
	compare_trees exp out --content --owners
'

test_expect_success 'links followed on the way are written as links, with what they lead to' '
	"$AXFS" extract img.axfs o1 /etc/os-release bin/ls &&
	want tree e1 etc etc/os-release usr usr/lib usr/lib/os-release bin \
		usr/bin usr/bin/ls &&
	compare_trees e1 o1 --content --owners &&
	"$AXFS" extract img.axfs o2 /bin &&
	want tree e2 bin usr usr/bin/... && compare_trees e2 o2 --content --owners &&
	"$AXFS" extract img.axfs o3 /usr/bin/editor /etc/up/lib/os-release &&
	want tree e3 usr usr/bin usr/bin/editor etc etc/alternatives \
		etc/alternatives/editor usr/bin/sh etc/up usr/lib usr/lib/os-release &&
	compare_trees e3 o3 --content --owners &&
	cmp o1/usr/lib/os-release tree/usr/lib/os-release
'

test_expect_success 'the root, or the same subtree twice, is the whole tree or that subtree' '
	"$AXFS" extract img.axfs all / &&
	compare_trees tree all --content --owners &&
	"$AXFS" extract img.axfs twice /var /var/empty/ var/../var &&
	want tree e4 var/... && compare_trees e4 twice --content --owners
'

test_expect_success 'a missing PATH or a loop: named, exit 8, nothing written' '
	{ "$AXFS" extract img.axfs bad /etc /nope /etc/loop/b 2>err; test $? = 8; } &&
	grep -q "img.axfs.: ./nope.: no such file or directory" err &&
	grep -q "/etc/loop/b.: too many levels of symbolic links" err &&
	test ! -e bad &&
	mkdir empty &&
	{ "$AXFS" extract img.axfs empty /etc/dangling 2>err; test $? = 8; } &&
	grep -q "/etc/dangling.: no such file or directory" err &&
	test -z "$(ls -A empty)" &&
	{ "$AXFS" extract --tar x.tar img.axfs /etc /usr/sbin/init/ 2>err; test $? = 8; } &&
	grep -q "init/.: not a directory" err && test ! -e x.tar
'

test_expect_success 'a damaged image: exit 8 naming the byte, nothing written' '
	"$AXFS" mkfs -q --compress-metadata=no tree -o raw.axfs &&
	off=$(grep -obUa alternatives raw.axfs | head -n 1 | cut -d: -f1) &&
	cp raw.axfs bad.axfs &&
	printf / | dd of=bad.axfs bs=1 seek=$((off + 6)) conv=notrunc 2>/dev/null &&
	{ "$AXFS" extract bad.axfs dmg /usr/bin 2>err; test $? = 8; } &&
	grep -q "bad.axfs.: byte $off: .*a ./. in its name" err && test ! -e dmg
'

test_expect_success '--tar: the same selection; a hard link whose first member is left out is written in full' '
	"$AXFS" extract --tar - img.axfs /usr/share/doc/base /bin/ls >a.tar &&
	mkdir ta && tar -C ta -xpf a.tar &&
	want tree et usr usr/share usr/share/doc usr/share/doc/base/... bin \
		usr/bin usr/bin/ls &&
	compare_trees et ta --content &&
	tar tvf a.tar | grep -q "copyright.hard link to usr/share/doc/base/copyright" &&
	"$AXFS" extract --tar b.tar img.axfs /usr/share/doc/base/copyright.hard &&
	tar tvf b.tar >list && cat list && ! grep -q " link to " list &&
	tar -xOf b.tar usr/share/doc/base/copyright.hard | cmp - tree/usr/share/doc/base/copyright
'

test_expect_success 'a split image: --store, then DIR and PATHs' '
	"$AXFS" mkfs -q --mmap-limit 16KiB --xip /usr/bin/ls tree -o s.axfs &&
	"$AXFS" split s.axfs --mmap s.nor --store s.nand &&
	"$AXFS" extract --store s.nand s.nor so /etc/os-release &&
	want tree es etc etc/os-release usr usr/lib usr/lib/os-release &&
	compare_trees es so --content --owners &&
	"$AXFS" extract --tar - --store s.nand s.nor /usr/bin/ls | tar -xOf - usr/bin/ls |
		cmp - tree/usr/bin/ls
'

test_expect_success BASE_FILES 'setup: the files of the installed base-files package' '
	sh "$AXFS_TOP/tests/tools/pkgtree.sh" deb base-files &&
	test -L deb/etc/os-release &&
	"$AXFS" mkfs -q deb -o deb.axfs
'
test_expect_success BASE_FILES 'base-files: extract P1 P2 writes exactly those subtrees' '
	"$AXFS" extract deb.axfs dout /usr/share/common-licenses /etc/os-release &&
	t=$(readlink deb/etc/os-release) && r=$(cd deb/etc && realpath -m --relative-to=.. "$t") &&
	want deb dexp usr usr/share usr/share/common-licenses/... etc \
		etc/os-release "$(dirname "$r")" "$r" &&
	compare_trees dexp dout --content --owners &&
	"$AXFS" extract --tar - deb.axfs /usr/share/common-licenses /etc/os-release |
		tar -tf - | sort >got &&
	(cd dexp && find . -mindepth 1 | sed "s|^\./||" | sort) >w &&
	sed "s|/$||" got | sed "/^\.$/d" | test_cmp w -
'

test_done
