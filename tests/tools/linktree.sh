#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# linktree.sh DEST: a small tree shaped like a Debian root for the tests of
# paths inside images (cat, ls, extract PATH): usr-merge links (/bin ->
# usr/bin, /lib -> usr/lib), /etc/os-release -> ../usr/lib/os-release, an
# absolute link and a chain of them (editor -> /etc/alternatives/editor ->
# /usr/bin/sh), a link climbing above the root, a loop, a dangling link,
# nested and empty directories, a hidden file, a hard link, names with a
# tab, a control byte and a backslash.
set -eu
d=$1
mkdir "$d"
cd "$d"
mkdir -p usr/bin usr/sbin usr/lib/x86_64-linux-gnu \
	usr/share/doc/base/deep/er/est etc/alternatives etc/loop var/empty
printf '#!/bin/sh\necho ls\n' >usr/bin/ls
printf '#!/bin/sh\necho sh\n' >usr/bin/sh
printf 'init\n' >usr/sbin/init
chmod 755 usr/bin/ls usr/bin/sh usr/sbin/init
printf 'PRETTY_NAME="Debian GNU/Linux 12 (bookworm)"\nID=debian\n' \
	>usr/lib/os-release
head -c 20000 /dev/urandom >usr/lib/x86_64-linux-gnu/libc.so.6
seq 1 3000 >usr/share/doc/base/copyright
ln usr/share/doc/base/copyright usr/share/doc/base/copyright.hard
printf 'deep\n' >usr/share/doc/base/deep/er/est/file
printf 'odd\n' >"usr/share/doc/base/$(printf 'tab\there\001back\\slash')"
printf 'hidden\n' >etc/.hidden
ln -s usr/bin bin
ln -s usr/sbin sbin
ln -s usr/lib lib
ln -s ../usr/lib/os-release etc/os-release
ln -s /usr/bin/sh etc/alternatives/editor
ln -s /etc/alternatives/editor usr/bin/editor
ln -s ../../../../../usr etc/up
ln -s b etc/loop/a
ln -s ./a etc/loop/b
ln -s nowhere etc/dangling
