#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# axfs mount (FUSE), mounted for real: the full listing of each mount
# (types, modes, owners, sizes, device numbers, link targets, sha256 of
# every file) equals the source tree's, for examples/rootfs and a tree of
# installed Debian packages (with devices and odd owners as root); inode
# numbers are the driver's; mmap reads the same bytes; readers in several
# processes at once get the right data while each cblock is inflated once;
# split images mount from their two segments; a damaged cblock gives EIO
# for its file only; an ordinary user mounts and unmounts; mount(8) uses
# the mount.fuse.axfs helper, and fuse3's mount.fuse reaches `axfs IMAGE
# DIR -o ...`; -o no_default_permissions lets another user read a 0600
# file.  Skips only where there is no /dev/fuse.
. "$(dirname "$0")/lib.sh"

root=false
test "$(id -u)" = 0 && root=true

# lib.sh removes $TRASH at exit: unmount what a failed test left first.
unmount_leftovers() {
	awk -v t="$TRASH/" 'index($2, t) == 1 { print $2 }' /proc/mounts |
		sort -r | while read -r m; do
			fusermount3 -u -z "$m" 2>/dev/null || umount -l "$m" 2>/dev/null
		done
}
test_atexit unmount_leftovers

# /dev/fuse present (as root, modprobe fuse) and usable by this user
# (Debian makes it 0666).
test_require_prereq FUSE

# Every path's type, mode, owner and link target; sizes of files and
# links; device numbers; the sha256 of every file.
listing() {
	(cd "$1" &&
	 find . -printf '%y %m %U %G %p -> %l\n' | sort &&
	 find . \( -type f -o -type l \) -printf '%s %p\n' | sort -k2 &&
	 find . \( -type b -o -type c \) -exec stat -c '%t:%T %n' {} + | sort -k2 &&
	 find . -type f -exec sha256sum {} + | sort -k2)
}
mounted() { awk -v d="$(cd "$1" && pwd)" '$2 == d { f = 1 } END { exit !f }' /proc/mounts; }
# Waits (10 s at most) for a mount made in the background.
wait_mounted() {
	i=0
	while ! mounted "$1"; do
		i=$((i + 1))
		test $i -le 100 || return 1
		sleep 0.1
	done
}

test_expect_success 'setup: an image of examples/rootfs' '
	"$AXFS" mkfs -q "$AXFS_TOP/examples/rootfs" -o rootfs.axfs &&
	mkdir m
'

test_expect_success 'axfs mount shows examples/rootfs as it is, read-only' '
	"$AXFS" mount rootfs.axfs m &&
	mounted m &&
	grep " $TRASH/m fuse.axfs ro," /proc/mounts &&
	listing "$AXFS_TOP/examples/rootfs" >want &&
	listing m >got &&
	diff want got &&
	! touch m/new 2>err && grep -q "Read-only file system" err &&
	stat -f -c "%s %l" m >sfs && test "$(cat sfs)" = "4096 255"
'

test_expect_success 'inode numbers are the driver'"'"'s: image inode + 1' '
	"$AXFS" dump --inodes rootfs.axfs |
		awk "NR > 1 { p = \$6; sub(\"^/\", \"\", p); print \$5 + 1, p }" | sort >want &&
	(cd m && find . -printf "%i %P\n") | sort >got &&
	diff want got &&
	test "$(stat -c %i m)" = 1 &&
	ls -ai m | awk "\$2 == \".\" { print \$1 }" | grep -qx 1
'

test_expect_success 'mmap of every file reads the bytes of the source' '
	python3 - "$AXFS_TOP/examples/rootfs" m <<-\EOF
	import mmap, os, sys
	src, mnt = sys.argv[1], sys.argv[2]
	n = 0
	for d, _, files in os.walk(src):
	    for f in files:
	        s = os.path.join(d, f)
	        if os.path.islink(s) or not os.path.isfile(s) or os.path.getsize(s) == 0:
	            continue
	        with open(os.path.join(mnt, os.path.relpath(s, src)), "rb") as fh:
	            m = mmap.mmap(fh.fileno(), 0, prot=mmap.PROT_READ)
	            assert m[:] == open(s, "rb").read(), s
	            m.close()
	        n += 1
	assert n > 10, n
	print(n, "files mapped")
	EOF
'

test_expect_success 'fusermount3 -u unmounts' '
	fusermount3 -u m && ! mounted m
'

test_expect_success 'SIGTERM to the daemon in the foreground unmounts, exit 0' '
	{ "$AXFS" mount -f rootfs.axfs m 2>err & } &&
	pid=$! && wait_mounted m &&
	kill -TERM $pid && wait $pid &&
	! mounted m && ! test -s err
'

test_expect_success ROOT 'umount unmounts (as root)' '
	"$AXFS" mount rootfs.axfs m && mounted m &&
	umount m && ! mounted m
'

# ---- a tree of installed Debian packages ----------------------------------
pkgs=""
if command -v dpkg-query >/dev/null; then
	for p in login passwd mount util-linux; do
		s=$(dpkg-query -W -f='${db:Status-Status}' "$p" 2>/dev/null)
		test "$s" = installed && pkgs="$pkgs $p"
	done
fi
test_lazy_prereq DEBIAN_PKGS 'test -n "$pkgs"'
test_expect_success DEBIAN_PKGS "setup: the files of$pkgs (devices and owners as root)" '
	dpkg -L $pkgs | python3 -c "
import os, sys
for p in sorted(set(l.rstrip(chr(10)) for l in sys.stdin)):
    d = os.path.dirname(p)
    if p.startswith(chr(47)) and p != chr(47) + chr(46) and \\
       os.path.realpath(d) == d and os.path.lexists(p):
        print(p[1:])
" >list &&
	mkdir deb &&
	tar -C / --no-recursion -cf - -T list | tar -C deb --numeric-owner -xpf - &&
	test "$(find deb -type f | wc -l)" -gt 100 &&
	if $root; then
		mkdir deb/dev deb/run &&
		mknod deb/dev/null c 1 3 && mknod deb/dev/sda1 b 8 1 &&
		mknod deb/dev/max c 255 255 &&
		chown 0:6 deb/dev/sda1 && chmod 660 deb/dev/sda1 &&
		mkfifo deb/run/fifo && chmod 600 deb/run/fifo &&
		echo cfg >deb/run/owned && chown 1000:1000 deb/run/owned &&
		chown -h 65534:4294967294 deb/run/fifo &&
		chmod 4755 deb/run/owned && mkdir -m 1777 deb/tmp
	fi &&
	"$AXFS" mkfs -q -b 4KiB --xip "/usr/bin/*" deb -o deb.axfs &&
	"$AXFS" dump --pages deb.axfs | grep -o "(cblock [0-9]*" | sort -u | wc -l >cblocks &&
	test "$(cat cblocks)" -gt 100
'

test_expect_success DEBIAN_PKGS 'the Debian tree mounts as it is: owners, modes, devices, links, contents' '
	mkdir -p d && "$AXFS" mount deb.axfs d &&
	listing deb >want && listing d >got &&
	diff want got &&
	fusermount3 -u d
'

# Four processes hash every file at once; the daemon (in the
# foreground, -v) then says how often it inflated: once per cblock.
test_expect_success DEBIAN_PKGS 'concurrent readers get the right bytes; each cblock is inflated once' '
	(cd deb && find . -type f -exec sha256sum {} + | sort -k2) >want &&
	{ "$AXFS" mount -f -v -o cache=512MiB deb.axfs d 2>stats & } &&
	wait_mounted d &&
	(for i in 1 2 3 4; do
		(cd d && find . -type f -exec sha256sum {} + | sort -k2 >../got$i &&
		 find . -type l -exec readlink {} + >/dev/null) &
	done; wait) &&
	for i in 1 2 3 4; do diff want got$i || return 1; done &&
	fusermount3 -u d &&
	wait &&
	cat stats &&
	grep -q "cblock cache: $(cat cblocks) inflated, [0-9]* hits, [0-9]* waited, 0 evicted" stats
'

test_expect_success DEBIAN_PKGS 'a cache of 4 cblocks serves concurrent readers right' '
	{ "$AXFS" mount -f -v -o cache=1,threads=8 deb.axfs d 2>stats & } &&
	wait_mounted d &&
	(for i in 1 2 3; do
		(cd d && find . -type f -exec sha256sum {} + | sort -k2 >../g$i) &
	done; wait) &&
	diff want g1 && diff want g2 && diff want g3 &&
	fusermount3 -u d && wait &&
	cat stats &&
	grep -q "[1-9][0-9]* evicted.* of 4 slots held" stats
'

# ---- split images ----------------------------------------------------------
test_expect_success 'a split image mounts from its two segments' '
	mkdir -p st/bin st/etc &&
	head -c 300000 /dev/urandom >st/bin/prog &&
	yes "some text that compresses" | head -c 200000 >st/etc/conf &&
	ln -s ../etc/conf st/bin/conf &&
	"$AXFS" mkfs -q --xip /bin/prog --mmap-limit 1MiB st -o split.axfs &&
	"$AXFS" split split.axfs --mmap split.nor --store split.nand &&
	"$AXFS" mount split.nor split.nand m &&
	listing st >want && listing m >got && diff want got &&
	fusermount3 -u m &&
	"$AXFS" mount -o store=split.nand split.nor m &&
	listing m >got && diff want got &&
	fusermount3 -u m
'

test_expect_success 'a split image without its store segment is refused, nothing mounted' '
	! "$AXFS" mount split.nor m 2>err &&
	cat err && grep -q "^axfs mount: .*split.nor" err &&
	! mounted m
'

# ---- damage -----------------------------------------------------------------
# /big is text (compressible) in 4 KiB cblocks: page 2 has a cblock of
# its own.  Zeros in the middle of that stream make it fail to inflate.
test_expect_success 'a damaged cblock gives EIO for its file only' '
	mkdir -p bad/sub &&
	seq 1 100000 >bad/big &&
	yes "other file" | head -c 50000 >bad/sub/other &&
	echo small >bad/small &&
	"$AXFS" mkfs -q -b 4KiB bad -o bad.axfs &&
	line=$("$AXFS" dump --pages bad.axfs | sed -n "/ \/big$/,/^[^ ]/p" | grep "page 2:") &&
	echo "$line" &&
	at=$(echo "$line" | sed -n "s/.* at byte \([0-9]*\) (cblock [0-9]* of \([0-9]*\) bytes.*/\1 \2/p") &&
	set -- $at && test "$2" -gt 40 &&
	dd if=/dev/zero of=bad.axfs bs=1 seek=$(($1 + 10)) count=20 conv=notrunc 2>/dev/null &&
	{ "$AXFS" mount -f bad.axfs m 2>daemon.err & } &&
	wait_mounted m &&
	! cat m/big >/dev/null 2>err &&
	grep -q "Input/output error" err &&
	cmp m/sub/other bad/sub/other &&
	cmp m/small bad/small &&
	head -c 8192 m/big | cmp - bad/big -n 8192 &&
	! cat m/big >/dev/null 2>/dev/null &&
	ls m >/dev/null &&
	fusermount3 -u m && wait &&
	cat daemon.err &&
	grep -q "^axfs mount: .*bad.axfs.*cblock" daemon.err
'

test_expect_success 'a truncated image is refused before anything is mounted' '
	head -c 3000 rootfs.axfs >short.axfs &&
	! "$AXFS" mount short.axfs m 2>err &&
	grep -q "^axfs mount: .*short.axfs" err &&
	! mounted m
'

# ---- the command line ---------------------------------------------------------
test_expect_success 'usage errors exit 16, a missing image or mount point 8' '
	{ "$AXFS" mount rootfs.axfs 2>err; test $? = 16; } &&
	grep -q "no mount point given" err &&
	{ "$AXFS" mount -o rw rootfs.axfs m 2>err; test $? = 16; } &&
	grep -q "read-only" err &&
	{ "$AXFS" mount -o cache=zero rootfs.axfs m 2>err; test $? = 16; } &&
	{ "$AXFS" mount -o threads=0 rootfs.axfs m 2>err; test $? = 16; } &&
	{ "$AXFS" mount nothere.axfs m 2>err; test $? = 8; } &&
	grep -q "^axfs mount: cannot open .nothere.axfs." err &&
	{ "$AXFS" mount rootfs.axfs nodir 2>err; test $? = 8; } &&
	! mounted m
'

# mount(8) runs /sbin/mount.fuse.axfs SOURCE DIR [-fnsv] -o OPTIONS, where
# -f means "fake"; mount's own options (rw, defaults, x-*) are dropped.
test_expect_success 'mount.fuse.axfs: the helper convention of mount(8)' '
	ln -s "$AXFS" mount.fuse.axfs &&
	./mount.fuse.axfs split.nor m -f -o rw,defaults,store=split.nand &&
	! mounted m &&
	./mount.fuse.axfs split.nor m -n -o rw,defaults,x-test=1,store=split.nand &&
	listing st >want && listing m >got && diff want got &&
	fusermount3 -u m
'

# With /usr/sbin (where mount(8) looks for helpers) replaced inside a
# private mount namespace, nothing outside the test changes.
test_lazy_prereq UNSHARE 'command -v unshare'
test_expect_success ROOT,UNSHARE 'mount -t fuse.axfs and umount (private mount namespace)' '
	unshare -m --propagation private sh -c "
		mount -t tmpfs helpers /usr/sbin &&
		ln -s \"$AXFS\" /usr/sbin/mount.fuse.axfs &&
		mount -t fuse.axfs -o store=$TRASH/split.nand $TRASH/split.nor $TRASH/m &&
		grep \" $TRASH/m fuse.axfs ro,\" /proc/mounts &&
		cmp $TRASH/m/etc/conf $TRASH/st/etc/conf &&
		umount $TRASH/m
	"
'

# fuse3's mount.fuse (what mount(8) runs for -t fuse.axfs where /sbin has
# no mount.fuse.axfs) runs `axfs SOURCE DIR -o OPTIONS`, as for squashfuse.
test_expect_success 'axfs IMAGE DIR -o OPTIONS: the command line mount.fuse gives' '
	"$AXFS" "$TRASH/split.nor" "$TRASH/m" -o rw,store=$TRASH/split.nand,dev,suid &&
	listing st >want && listing m >got && diff want got &&
	fusermount3 -u m &&
	{ "$AXFS" "$TRASH/nothere.nor" "$TRASH/m" -o rw 2>err; test $? = 8; } &&
	grep -q "^axfs mount: cannot open ./.*nothere.nor." err &&
	{ "$AXFS" nothere m 2>err; test $? = 16; } &&
	grep -q "is not an axfs command" err &&
	! mounted m
'

# -o no_default_permissions: whoever may enter the mount reads every file,
# as with squashfuse; by default the kernel checks the image's modes.
test_expect_success ROOT,SETPRIV 'no_default_permissions lets another user read a 0600 file' '
	mkdir -p perm/etc && echo secret >perm/etc/shadow && chmod 600 perm/etc/shadow &&
	chmod 755 . perm && "$AXFS" mkfs -q perm -o perm.axfs && mkdir pm && chmod 755 pm &&
	nobody="setpriv --reuid=65534 --regid=65534 --clear-groups" &&
	"$AXFS" mount -o allow_other perm.axfs pm &&
	grep " $TRASH/pm fuse.axfs .*default_permissions" /proc/mounts &&
	! $nobody cat pm/etc/shadow 2>err && grep -q "Permission denied" err &&
	fusermount3 -u pm &&
	"$AXFS" mount -o allow_other,no_default_permissions perm.axfs pm &&
	! grep " $TRASH/pm fuse.axfs .*default_permissions" /proc/mounts &&
	$nobody cat pm/etc/shadow >got && echo secret >want && cmp want got &&
	! $nobody touch pm/etc/new 2>/dev/null &&
	fusermount3 -u pm
'

# ---- an ordinary user ------------------------------------------------------------
# As root: nobody runs the mount (no account is created), with the copy of
# the tools nobody can reach (prerequisite SETPRIV).  Where /dev/fuse is
# 0600 (some containers), a private mount namespace gets a 0666 node over
# it, as Debian's udev rule makes it.  As another user: that user.
# user_mount USER_CMD AXFS: the user mounts, reads and unmounts.
user_mount() {
	_ucmd=$1 _uaxfs=$2
	mkdir -p user/m && cp rootfs.axfs user/ &&
	cp "$AXFS_TOP/examples/rootfs/etc/passwd" user/passwd.want &&
	chmod 755 user user/m && chmod 644 user/rootfs.axfs user/passwd.want &&
	if test_have_prereq ROOT; then chown 65534:65534 user/m; fi &&
	cat >user/run.sh <<-EOF &&
	set -e
	cd "$TRASH/user"
	test "\$(id -u)" != 0
	"$_uaxfs" mount rootfs.axfs m
	mountpoint -q m
	cmp m/etc/passwd passwd.want
	stat -c "%u %g" m/etc/passwd | grep -qx "0 0"
	fusermount3 -u m
	! mountpoint -q m
	"$_uaxfs" mount rootfs.axfs m
	mountpoint -q m
	umount m
	EOF
	if test_have_prereq ROOT && ! $_ucmd test -r /dev/fuse -a -w /dev/fuse 2>/dev/null; then
		mkdir dev &&
		unshare -m --propagation private sh -c "
			mount -t tmpfs dev $TRASH/dev &&
			mknod -m 0666 $TRASH/dev/fuse c 10 229 &&
			mount --bind $TRASH/dev/fuse /dev/fuse &&
			$_ucmd sh $TRASH/user/run.sh"
	else
		$_ucmd sh "$TRASH/user/run.sh"
	fi &&
	! mounted user/m
}
test_lazy_prereq FUSERMOUNT 'command -v fusermount3'
test_expect_success ROOT,SETPRIV,FUSERMOUNT 'nobody mounts, reads and unmounts (fusermount3 -u, umount)' '
	user_mount "setpriv --reuid=65534 --regid=65534 --clear-groups --reset-env" "$AXFS_NOBODY"
'
test_expect_success !ROOT,FUSERMOUNT 'this user mounts, reads and unmounts (fusermount3 -u, umount)' '
	user_mount env "$AXFS"
'

test_done
