#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# axfs mkfs --device-table: Buildroot's makedevs tables (ranges included)
# built into real images from a directory and a tarball and read back; the
# same image as Buildroot's own route (makedevs under fakeroot, then the
# filesystem maker on the tree); every line checked, hostile tables (a
# count of 10^9, '..') refused with FILE:line:column and nothing written.
. "$(dirname "$0")/lib.sh"

mkdir -p tree/bin tree/etc tree/home/user tree/dev &&
cp /bin/true tree/bin/busybox &&
echo 'root:x:0:0::/root:/bin/sh' >tree/etc/passwd &&
echo 'root:*::' >tree/etc/shadow &&
echo 'hi' >tree/home/user/notes &&
chmod 644 tree/etc/shadow tree/etc/passwd && chmod 755 tree/bin/busybox || exit 1

# A table as Buildroot's system/device_table.txt and a package's
# permission table write them, with a range of each kind (a count of 1
# is the name itself, as makedevs makes it).
cat >table.txt <<-'EOF' || exit 1
# See package/makedevs/README for details
#
# This device table is used to assign proper ownership and permissions
# on various files. It doesn't create any device file, as it is left
# to devtmpfs, mdev or udev.
#
# <name>	<type>	<mode>	<uid>	<gid>	<major>	<minor>	<start>	<inc>	<count>
/dev		d	755	0	0	-	-	-	-	-
/tmp		d	1777	0	0	-	-	-	-	-
/etc		d	755	0	0	-	-	-	-	-
/home/user	r	700	1000	1000	-	-	-	-	-
/bin/busybox	f	4755	0	0	-	-	-	-	-
/etc/shadow	f	600	0	0	-	-	-	-	-
/etc/optional	F	600	0	0	-	-	-	-	-
/dev/console	c	600	0	0	5	1	-	-	-
/dev/ttyS	c	660	0	5	4	64	0	1	4
/dev/mtdblock	b	640	0	6	31	0	0	1	3
/dev/hda	b	640	0	6	3	0	1	2	2
/dev/initctl	p	600	0	0	-	-	-	-	-
/dev/rtc	c	644	0	0	254	0	0	0	1
EOF

test_expect_success 'mkfs --device-table builds the table into the image' '
	"$AXFS" mkfs -q --mtime 1700000000 --all-root --device-table table.txt \
		tree -o dt.axfs &&
	"$AXFS" fsck -q dt.axfs &&
	"$AXFS" ls -nR dt.axfs / | sed "s/ 2023-11-14 22:13 / /" >ls.out &&
	cat >want <<-\EOF &&
	-rwsr-xr-x 0/0 /bin/busybox
	drwxr-xr-x 0/0 /dev
	crw------- 0/0 5,1 /dev/console
	brw-r----- 0/6 3,0 /dev/hda1
	brw-r----- 0/6 3,2 /dev/hda2
	prw------- 0/0 /dev/initctl
	brw-r----- 0/6 31,0 /dev/mtdblock0
	brw-r----- 0/6 31,1 /dev/mtdblock1
	brw-r----- 0/6 31,2 /dev/mtdblock2
	crw-r--r-- 0/0 254,0 /dev/rtc
	crw-rw---- 0/5 4,64 /dev/ttyS0
	crw-rw---- 0/5 4,65 /dev/ttyS1
	crw-rw---- 0/5 4,66 /dev/ttyS2
	crw-rw---- 0/5 4,67 /dev/ttyS3
	drwxr-xr-x 0/0 /etc
	-rw-r--r-- 0/0 /etc/passwd
	-rw------- 0/0 /etc/shadow
	drwxr-xr-x 0/0 /home
	drwx------ 1000/1000 /home/user
	-rwx------ 1000/1000 /home/user/notes
	drwxrwxrwt 0/0 /tmp
	EOF
	awk "{ if (\$1 ~ /^[cb]/) print \$1, \$2, \$3 \$4, \$NF; else print \$1, \$2, \$NF }" ls.out |
		grep -v "^d[^ ]* 0/0 /bin$" >got &&
	test_cmp want got
'

test_expect_success 'the same table applied to a tarball of the tree' '
	tar -C tree --numeric-owner -cf tree.tar . &&
	"$AXFS" mkfs -q --mtime 1700000000 --all-root --device-table table.txt \
		tree.tar -o tar.axfs &&
	cmp dt.axfs tar.axfs
'

# Buildroot's route (fs/common.mk): under fakeroot, chown -h -R 0:0 the
# target tree, makedevs -d TABLE on it, then the filesystem maker sees
# the nodes and modes through fakeroot.  makedevs is Buildroot's own
# host tool; what it does for each line of table.txt is written out.
test_lazy_prereq FAKEROOT 'fakeroot true'
test_expect_success FAKEROOT 'the same image as makedevs under fakeroot gives' '
	cp -a tree br &&
	cat >makedevs.sh <<-\EOF &&
	set -e
	chown -h -R 0:0 br
	mkdir -p br/dev br/tmp br/etc
	chmod 755 br/dev br/etc && chmod 1777 br/tmp
	chown -R 1000:1000 br/home/user && chmod -R 700 br/home/user
	chmod 4755 br/bin/busybox && chmod 600 br/etc/shadow
	mknod -m 600 br/dev/console c 5 1
	for i in 0 1 2 3; do
		mknod -m 660 br/dev/ttyS$i c 4 $((64 + i)); chown 0:5 br/dev/ttyS$i
	done
	for i in 0 1 2; do
		mknod -m 640 br/dev/mtdblock$i b 31 $i; chown 0:6 br/dev/mtdblock$i
	done
	for i in 1 2; do
		mknod -m 640 br/dev/hda$i b 3 $(( (i - 1) * 2 )); chown 0:6 br/dev/hda$i
	done
	mkfifo -m 600 br/dev/initctl
	mknod -m 644 br/dev/rtc c 254 0
	"$AXFS" mkfs -q --mtime 1700000000 br -o fakeroot.axfs
	EOF
	ASAN_OPTIONS="${ASAN_OPTIONS:-}:verify_asan_link_order=0" \
		fakeroot sh makedevs.sh &&
	cmp dt.axfs fakeroot.axfs
'

test_expect_success 'tables are applied in order after the policy; later lines win' '
	printf "devices:\n  - {path: /dev/console, type: fifo}\n" >p.yaml &&
	printf "/dev/console c 620 0 5 5 1 - - -\n/etc/passwd f 640 0 0 - - - - -\n" >t1 &&
	printf "/etc/passwd f 444 0 0 - - - - -\n" >t2 &&
	"$AXFS" mkfs -q -c p.yaml --device-table t1 --device-table t2 tree -o o.axfs &&
	"$AXFS" ls -n o.axfs /dev/console /etc/passwd >l &&
	grep -q "^crw--w---- 0/5 .* /dev/console$" l &&
	grep -q "^-r--r--r-- 0/0 .* /etc/passwd$" l
'

test_expect_success 'a count of 10^9 is refused before anything is made' '
	printf "/dev d 755 0 0 - - - - -\n/dev/tty c 600 0 0 4 0 0 0 1000000000\n" >big.txt &&
	test_expect_code 8 "$AXFS" mkfs --device-table big.txt tree -o big.axfs 2>err &&
	echo "axfs mkfs: big.txt:2:28: count: 1000000000 nodes on one line; at most 65536" >want &&
	test_cmp want err &&
	test_path_is_missing big.axfs
'

test_expect_success 'every line is checked: a bad last line builds nothing' '
	{ cat table.txt && printf "/dev/null\tc\t666\t0\t0\t1\t3\t-\t-\t-\textra\n"; } >bad.txt &&
	test_expect_code 8 "$AXFS" mkfs --device-table bad.txt tree -o bad.axfs 2>err &&
	grep -xF "axfs mkfs: bad.txt:21:31: more than 10 fields (<name> <type> <mode> <uid> <gid> <major> <minor> <start> <inc> <count>)" err &&
	test_path_is_missing bad.axfs
'

test_expect_success 'names with .., names of users, bad types and ranges are refused' '
	while IFS="|" read -r line want; do
		printf "%s\n" "$line" >t.txt &&
		test_expect_code 8 "$AXFS" mkfs --device-table t.txt tree -o x.axfs 2>err &&
		echo "axfs mkfs: t.txt:$want" >want &&
		test_cmp want err || return 1
	done <<-\EOF &&
	/dev/../../etc/shadow c 600 0 0 1 1 - - -|1:1: '\''/dev/../../etc/shadow'\'': '\''..'\'' is not allowed in a path
	/var/log d 755 root root - - - - -|1:16: uid: '\''root'\'' is not a number (names are not looked up: give the number)
	/dev/x s 600 0 0 - - - - -|1:8: type: '\''s'\'' is not one of d, f, F, r, c, b, p
	/dev/sda b 660 0 6 8 250 0 1 10|1:22: minor: 250 + 9 x 1 is past 255, the largest minor AXFS stores
	/dev/x c 600 0 0 300 1 - - -|1:18: major: 300 is out of range (0 to 255)
	/nothing f 600 0 0 - - - - -|1:1: '\''/nothing'\'' is not in the image (type f sets the mode and owners of a regular file that is there)
	/etc f 600 0 0 - - - - -|1:1: '\''/etc'\'' is a directory, not a file
	/bin/ping f 4755 0 0 - - - - -|1:1: '\''/bin/ping'\'' is not in the image (type f sets the mode and owners of a regular file that is there)
	EOF
	test_path_is_missing x.axfs
'

test_expect_success 'a table that is not there, or a directory, is named' '
	test_expect_code 8 "$AXFS" mkfs --device-table nothing.txt tree -o x.axfs 2>err &&
	grep -xF "axfs mkfs: cannot open '\''nothing.txt'\'': No such file or directory" err &&
	test_path_is_missing x.axfs
'

test_done
