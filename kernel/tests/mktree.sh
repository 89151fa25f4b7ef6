#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# mktree.sh DIR KIND [MODROOT [DEBROOT]] - build a source tree for the qemu tests (run as root:
# it makes device nodes and gives files to other owners).
#
#   full   every file type and the awkward cases: empty and page-boundary
#          sizes, random and compressible data, long and odd names, deep
#          and large directories, hard links, symbolic links (relative,
#          absolute, dangling, 4000 bytes), devices, FIFOs, sockets,
#          set-id and sticky bits, other owners; a static busybox in
#          /bin; and real Debian package trees under /debian:
#          linux-kbuild, as dpkg unpacked it into the kernel cache
#          (MODROOT is its lib/modules/KVER), and each package that
#          DEBROOT holds unpacked (DEBROOT/PKG, see kt_debian_pkgs).
#   mini   a few small files covering the three node types, for the
#          corrupted-image tests.
set -eu
dir=$1
kind=$2
modroot=${3:-}
debroot=${4:-}

rm -rf "$dir"
mkdir -p "$dir"
cd "$dir"

text() {	# text BYTES WORD: compressible text
	yes "$2 $2 the quick brown fox $2" | head -c "$1"
}

if [ "$kind" = mini ]; then
	mkdir -p bin sub/deeper
	head -c 12288 /dev/urandom >bin/xipfile
	text 20000 comp >comp
	head -c 6000 /dev/urandom >ba
	text 300000 big >sub/deeper/big
	echo small >sub/small
	ln -s ../comp sub/link
	mkfifo fifo
	mknod null c 1 3
	exit 0
fi

# ---- full -----------------------------------------------------------------
mkdir -p bin sizes names deep links special modes owners many
# MKTREE_BUSYBOX: another build (busybox-static:ARCH for tests/cross.sh).
cp "${MKTREE_BUSYBOX:-$(command -v busybox)}" bin/busybox
chmod 755 bin/busybox

for n in 0 1 511 512 4095 4096 4097 8191 8192 12289 65535 65536 65537; do
	text "$n" "s$n" >"sizes/text-$n"
	head -c "$n" /dev/urandom >"sizes/rand-$n"
done
head -c 300000 /dev/zero >sizes/zeros-300k
text 1500000 big >sizes/text-1.5m
head -c 700000 /dev/urandom >sizes/rand-700k
# Every full page repeats a page of rand-700k or text-1.5m: mkfs stores
# them once and the nodes share (a banode, a cnode).
head -c 409600 sizes/rand-700k >sizes/rand-shared
tail -c +409601 sizes/text-1.5m | head -c 204800 >sizes/text-shared
# Half random, half text: pages of different node types in one file.
{ head -c 20000 /dev/urandom; text 40000 mixed; head -c 5000 /dev/urandom; } >sizes/mixed

echo space >"names/with space"
echo comma >"names/comma,in,name"
echo utf8 >"names/$(printf 'caf\303\251-\346\227\245\346\234\254')"
echo dash >"names/-leading-dash"
echo dots >"names/..three-dots"
echo hi >"names/$(printf 'x%.0s' $(seq 1 255))"
for c in A B Z a b z 0 9 _ '~'; do echo "$c" >"names/$c"; done
echo high >"names/$(printf '\377high')"

d=deep
for i in 1 2 3 4 5 6 7 8 9 10 11 12; do d=$d/level$i; done
mkdir -p "$d"
echo bottom >"$d/file"

for i in $(seq 1 300); do echo "$i" >"many/f$i"; done
mkdir many/zz-subdir

echo target >links/target
ln -s target links/rel
ln -s /bin/busybox links/abs
ln -s does-not-exist links/dangling
ln -s ../deep links/todir
ln -s "$(printf 'y%.0s' $(seq 1 4000))" links/long
ln links/target links/hard1
ln links/target links/hard2

mknod special/null c 1 3
mknod special/sda1 b 8 1
mknod special/maxdev c 255 255
mkfifo special/fifo
python3 -c 'import socket,sys; socket.socket(socket.AF_UNIX).bind(sys.argv[1])' special/socket

echo suid >modes/suid && chmod 4755 modes/suid
echo sgid >modes/sgid && chmod 2711 modes/sgid
echo none >modes/none && chmod 0000 modes/none
echo priv >modes/priv && chmod 0600 modes/priv
mkdir modes/sticky && chmod 1777 modes/sticky
mkdir modes/closed && chmod 0700 modes/closed

echo u >owners/u1234 && chown 1234:5678 owners/u1234
echo n >owners/nobody && chown 65534:65534 owners/nobody
echo big >owners/big && chown 4000000000:3000000000 owners/big
mkdir owners/dir && chown 42:43 owners/dir

# A real Debian package tree, as dpkg unpacked it.
if [ -n "$modroot" ]; then
	mkdir -p debian
	# modroot is ROOT/lib/modules/KVER, or from 7.x ROOT/usr/lib/...
	for kb in "$modroot"/../../../usr/lib/linux-kbuild-* \
		  "$modroot"/../../linux-kbuild-*; do
		[ -d "$kb" ] && cp -a "$kb" debian/
	done
fi
if [ -n "$debroot" ]; then
	mkdir -p debian
	for pkg in "$debroot"/*; do
		cp -a "$pkg" debian/
	done
fi
