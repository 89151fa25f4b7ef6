#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# What a policy adds beside the source (axfs-policy(5), entries; owners'
# id maps and offsets), as mksquashfs pseudo files do: built into real
# images from a directory, a tarball and an image, read back with axfs
# ls, cat and extract and the independent reader, bytes and attributes
# compared; and the hostile cases: a host file that is a symlink to
# /etc/shadow, a FIFO, '..' in a path.
. "$(dirname "$0")/lib.sh"

mkdir -p tree/bin tree/etc tree/home/user files &&
cp /bin/true tree/bin/busybox &&
echo 'root:x:0:0::/root:/bin/sh' >tree/etc/passwd &&
echo 'hello' >tree/home/user/notes &&
chown -R 1000:1000 tree/home/user &&
chown 0:0 tree/etc/passwd &&
chown 7:7 tree/bin/busybox &&
head -c 300000 /dev/urandom >files/blob &&
printf 'Welcome to the board\n' >files/motd &&
chmod 600 files/motd || exit 1

# The host files are named relative to the policy's directory.
cat >policy.yaml <<-EOF || exit 1
owners:
  uid-map: {1000: 0}
  gid-map: {1000: 100}
  uid-offset: 10
entries:
  - {path: /etc/motd, type: file, source: files/motd, mode: "0644", uid: 0, gid: 0}
  - {path: /usr/lib/blob.bin, type: file, source: files/blob, mode: "0640", uid: 3, gid: 4}
  - {path: /bin/sh, type: symlink, target: busybox}
  - {path: /sbin/init, type: hardlink, target: /bin/busybox}
  - {path: /bin/ls, type: hardlink, target: /sbin/init}
  - {path: /dev/console, type: char, major: 5, minor: 1, mode: "0600"}
  - {path: /proc, type: dir, mode: "0555"}
EOF

test_expect_success 'mkfs from a directory with entries and id maps' '
	mkdir elsewhere && (cd elsewhere && "$AXFS" mkfs -q --mtime 1700000000 \
		-c ../policy.yaml ../tree -o ../dir.axfs) &&
	"$AXFS" fsck -q dir.axfs
'

test_expect_success 'the files taken from the host hold their bytes' '
	"$AXFS" cat dir.axfs /etc/motd >motd.out &&
	cmp files/motd motd.out &&
	"$AXFS" cat dir.axfs /usr/lib/blob.bin >blob.out &&
	cmp files/blob blob.out
'

# What the image must hold, made on the host by hand (mknod needs root):
# the independent reader compares it entry by entry.
test_expect_success ROOT 'the 2008 driver reads what a tree made by hand holds' '
	cp -a tree exp &&
	cp files/motd exp/etc/motd && chmod 644 exp/etc/motd &&
	mkdir -p exp/usr/lib exp/sbin exp/dev exp/proc &&
	cp files/blob exp/usr/lib/blob.bin && chmod 640 exp/usr/lib/blob.bin &&
	ln -s busybox exp/bin/sh &&
	ln exp/bin/busybox exp/sbin/init && ln exp/bin/busybox exp/bin/ls &&
	mknod -m 600 exp/dev/console c 5 1 && chmod 555 exp/proc &&
	seedread compare --no-owner dir.axfs exp
'

test_expect_success 'modes, owners, symlinks and hard links as the policy says' '
	"$AXFS" ls -nR dir.axfs / | sed "s/ 2023-11-14 22:13 / /" >ls.out &&
	grep -x "lrwxrwxrwx 0/0 *7 /bin/sh -> busybox" ls.out &&
	grep -x "crw------- 0/0 *5, *1 /dev/console" ls.out &&
	grep -x "dr-xr-xr-x 0/0 *[0-9]* /proc" ls.out &&
	grep -x "\-rw-r--r-- 0/0 *21 /etc/motd" ls.out &&
	grep -x "\-rw-r----- 3/4 *300000 /usr/lib/blob.bin" ls.out &&
	grep -x "drwxr-xr-x 0/0 *[0-9]* /usr/lib" ls.out
'

test_expect_success 'uid-map and gid-map name ids, uid-offset moves the others' '
	grep -x "\-rw-r--r-- 0/100 *6 /home/user/notes" ls.out &&
	grep -x "drwxr-xr-x 0/100 *[0-9]* /home/user" ls.out &&
	grep -x "\-rw-r--r-- 10/0 *[0-9]* /etc/passwd" ls.out &&
	grep -x "\-rwxr-xr-x 17/7 *[0-9]* /bin/busybox" ls.out
'

test_expect_success 'a hard link entry shares its data with its target' '
	grep -x "\-rwxr-xr-x 17/7 *[0-9]* /sbin/init" ls.out &&
	grep -x "\-rwxr-xr-x 17/7 *[0-9]* /bin/ls" ls.out &&
	"$AXFS" extract -q dir.axfs out &&
	test "$(stat -c %i out/bin/busybox)" = "$(stat -c %i out/sbin/init)" &&
	test "$(stat -c %i out/bin/ls)" = "$(stat -c %i out/sbin/init)" &&
	cmp tree/bin/busybox out/sbin/init &&
	cmp files/blob out/usr/lib/blob.bin &&
	test "$(readlink out/bin/sh)" = busybox &&
	test "$(stat -c %a out/etc/motd)" = 644
'

test_expect_success 'the same policy on a tarball of the tree gives the same image' '
	tar -C tree --numeric-owner -cf tree.tar . &&
	"$AXFS" mkfs -q --mtime 1700000000 -c policy.yaml tree.tar -o tar.axfs &&
	cmp dir.axfs tar.axfs
'

test_expect_success 'and on an image: entries replace, host files are read again' '
	printf "second\n" >files/motd2 &&
	cat >again.yaml <<-EOF &&
	entries:
	  - {path: /etc/motd, type: file, source: files/motd2}
	  - {path: /bin/sh, type: symlink, target: /sbin/init}
	EOF
	"$AXFS" mkfs --mtime 1700000000 -c again.yaml dir.axfs -o img.axfs 2>err &&
	grep -F "again.yaml:2:5: entries[0]: '\''/etc/motd'\'' replaces the file from the source" err &&
	"$AXFS" cat img.axfs /etc/motd >m2 &&
	cmp files/motd2 m2 &&
	"$AXFS" cat img.axfs /usr/lib/blob.bin >b2 &&
	cmp files/blob b2 &&
	"$AXFS" ls -l img.axfs /bin/sh | grep -q " /bin/sh -> /sbin/init$"
'

test_expect_success 'a host file that is a symlink (to /etc/shadow) is refused, not followed' '
	ln -s /etc/shadow files/shadow &&
	printf "entries:\n  - {path: /etc/shadow, type: file, source: files/shadow}\n" >evil.yaml &&
	test_expect_code 8 "$AXFS" mkfs -c evil.yaml tree -o evil.axfs 2>err &&
	test_path_is_missing evil.axfs &&
	grep -xF "axfs mkfs: evil.yaml:2:5: entries[0]: cannot take '\''files/shadow'\'': it is a symbolic link (name the file itself, or add a symlink entry)" err
'

test_expect_success 'a FIFO is refused without being opened for reading' '
	mkfifo files/fifo &&
	printf "entries:\n  - {path: /x, type: file, source: files/fifo}\n" >fifo.yaml &&
	test_expect_code 8 timeout 60 "$AXFS" mkfs -c fifo.yaml tree -o fifo.axfs 2>err &&
	grep -xF "axfs mkfs: fifo.yaml:2:5: entries[0]: '\''files/fifo'\'' is not a regular file" err &&
	test_path_is_missing fifo.axfs
'

test_expect_success 'a host file that is missing is named' '
	printf "entries:\n  - {path: /x, type: file, source: nothing}\n" >missing.yaml &&
	test_expect_code 8 "$AXFS" mkfs -c missing.yaml tree -o m.axfs 2>err &&
	grep -xF "axfs mkfs: missing.yaml:2:5: entries[0]: cannot open '\''nothing'\'': No such file or directory" err
'

test_expect_success '.. in a path, a hard link to a directory, a bad map are refused' '
	printf "entries:\n  - {path: /etc/../../shadow, type: symlink, target: x}\n" >dd.yaml &&
	test_expect_code 8 "$AXFS" mkfs -c dd.yaml tree -o x.axfs 2>err &&
	grep -xF "axfs mkfs: dd.yaml:2:12: entries[0].path: '\''/etc/../../shadow'\'': '\''..'\'' is not allowed in a path" err &&
	printf "entries:\n  - {path: /e, type: hardlink, target: /etc}\n" >hd.yaml &&
	test_expect_code 8 "$AXFS" mkfs -c hd.yaml tree -o x.axfs 2>err &&
	grep -F "hd.yaml:2:5: entries[0]: hard link '\''/e'\'' points to the directory '\''etc'\''" err &&
	printf "owners:\n  gid-offset: 4294967295\n" >off.yaml &&
	test_expect_code 8 "$AXFS" mkfs -c off.yaml tree -o x.axfs 2>err &&
	grep -xF "axfs mkfs: off.yaml:2:15: owners.gid-offset: '\''/home/user'\'' has gid 1000, which the offset 4294967295 moves past 4294967295" err &&
	test_path_is_missing x.axfs
'

test_expect_success '--all-root replaces the id maps; entries keep their owners' '
	"$AXFS" mkfs -q --mtime 1700000000 --all-root -c policy.yaml tree -o root.axfs &&
	"$AXFS" ls -n root.axfs /home/user/notes /usr/lib/blob.bin >l &&
	grep -q "^-rw-r--r-- 0/0 " l &&
	grep -q "^-rw-r----- 3/4 " l
'

test_done
