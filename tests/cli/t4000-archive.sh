#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Archive sources: tarballs and cpio archives of every format and filter,
# made here by GNU tar, bsdtar, cpio and python's tarfile, give the same
# image as the tree they were made from; standard input works; ownership
# and device nodes come from the archive without root; bad archives fail
# with the archive and the entry named and leave no output.
. "$(dirname "$0")/lib.sh"

root=false
test "$(id -u)" = 0 && root=true

have() { command -v "$1" >/dev/null 2>&1; }

# The archivers (make deps-tests installs them): one prerequisite each,
# named like the command in capitals.
for c in cpio bsdtar fakeroot gzip xz zstd bzip2 lz4; do
	test_lazy_prereq "$(echo "$c" | tr a-z A-Z)" "command -v $c"
done

mk() { "$AXFS" mkfs -q "$@"; }

# make_tree DIR [small]: every file type, hard links, modes, sparse data;
# "small" leaves out what ustar and odc cannot hold (255-byte names,
# long link targets, long paths).
make_tree() {
	t=$1
	mkdir -p "$t/bin" "$t/etc/sub" "$t/usr/lib" "$t/var/empty" \
		"$t/names" "$t/modes" &&
	printf 'axfs\n' >"$t/etc/hostname" &&
	: >"$t/etc/empty" &&
	yes "a line of text that compresses well" | head -c 150001 >"$t/etc/text" &&
	head -c 70000 /dev/urandom >"$t/bin/random" &&
	head -c 4096 /dev/urandom >"$t/etc/sub/page" &&
	printf 'linked data\n' >"$t/bin/prog" &&
	ln "$t/bin/prog" "$t/bin/prog2" &&
	ln "$t/bin/prog" "$t/usr/lib/prog3" &&
	ln -s prog "$t/bin/rel" &&
	ln -s /etc/hostname "$t/etc/abs" &&
	ln -s ../nowhere "$t/etc/dangling" &&
	truncate -s 300000 "$t/usr/lib/sparse" &&
	printf middle | dd of="$t/usr/lib/sparse" bs=1 seek=123456 conv=notrunc 2>/dev/null &&
	printf s >"$t/modes/suid" && chmod 4755 "$t/modes/suid" &&
	printf g >"$t/modes/sgid" && chmod 2711 "$t/modes/sgid" &&
	mkdir "$t/modes/sticky" && chmod 1777 "$t/modes/sticky" &&
	printf p >"$t/modes/private" && chmod 0600 "$t/modes/private" &&
	mkfifo "$t/modes/fifo" &&
	printf sp >"$t/names/with space" &&
	printf hi >"$t/names/$(printf '\377\376latin1')" &&
	printf utf >"$t/names/$(printf '\303\251t\303\251')" &&
	printf dash >"$t/names/-dash" &&
	if [ "${2:-}" != small ]; then
		printf long >"$t/names/$(printf '%0255d' 0 | tr 0 L)" &&
		ln -s "$(printf '%01000d' 0 | tr 0 x)" "$t/names/longlink" &&
		d="$t/deep" && i=0 &&
		while [ $i -lt 40 ]; do d="$d/level$i"; i=$((i + 1)); done &&
		mkdir -p "$d" && printf bottom >"$d/file"
	fi &&
	if $root; then
		mkdir "$t/dev" &&
		mknod "$t/dev/null" c 1 3 && mknod "$t/dev/loop0" b 7 0 &&
		mknod "$t/dev/tty" c 5 0 && chmod 0620 "$t/dev/tty" &&
		chown 0:5 "$t/dev/tty" &&
		printf z >"$t/modes/none" && chmod 0000 "$t/modes/none" &&
		printf o >"$t/modes/owned" && chown 1234:5678 "$t/modes/owned" &&
		chown -h 42:43 "$t/bin/rel" && chown 7:8 "$t/var/empty"
	fi
}

# cpio_of DIR FORMAT: a GNU cpio archive of DIR on stdout.
cpio_of() {
	(cd "$1" && find . -print0 | LC_ALL=C sort -z |
		cpio -o -0 --quiet -H "$2")
}

test_expect_success 'trees to archive' '
	make_tree tree && make_tree small small &&
	mk tree -o tree.axfs && mk small -o small.axfs
'

# ---- every format and filter: the same image as the tree -----------------

# check_same NAME TREE-IMAGE: NAME.axfs from archive NAME is that image.
check_same() {
	mk "$1" -o "$1.axfs" && cmp "$2" "$1.axfs"
}

test_expect_success 'GNU tar: gnu, oldgnu, pax, ustar formats' '
	tar --format=gnu -C tree -cf gnu.tar . &&
	check_same gnu.tar tree.axfs &&
	tar --format=oldgnu -C tree -cf oldgnu.tar . &&
	check_same oldgnu.tar tree.axfs &&
	tar --format=pax -C tree -cf pax.tar . &&
	check_same pax.tar tree.axfs &&
	tar --format=ustar -C small -cf ustar.tar . &&
	check_same ustar.tar small.axfs
'

test_expect_success 'GNU tar sparse entries (gnu and pax 0.0, 0.1, 1.0)' '
	tar --sparse --format=gnu -C tree -cf sgnu.tar . &&
	check_same sgnu.tar tree.axfs &&
	for v in 0.0 0.1 1.0; do
		tar --sparse --sparse-version=$v --format=pax -C tree \
			-cf spax$v.tar . &&
		check_same spax$v.tar tree.axfs || return 1
	done
'

test_expect_success CPIO 'GNU cpio: newc, crc, odc' '
	cpio_of tree newc >newc.cpio && check_same newc.cpio tree.axfs &&
	cpio_of tree crc >crc.cpio && check_same crc.cpio tree.axfs &&
	cpio_of small odc >odc.cpio && check_same odc.cpio small.axfs
'

test_expect_success BSDTAR 'bsdtar: pax, gnutar, ustar, newc, odc' '
	bsdtar --format pax -C tree -cf bpax.tar . &&
	check_same bpax.tar tree.axfs &&
	bsdtar --format gnutar -C tree -cf bgnu.tar . &&
	check_same bgnu.tar tree.axfs &&
	bsdtar --format ustar -C small -cf bustar.tar . &&
	check_same bustar.tar small.axfs &&
	bsdtar --format newc -C tree -cf bnewc.cpio . &&
	check_same bnewc.cpio tree.axfs &&
	bsdtar --format odc -C small -cf bodc.cpio . &&
	check_same bodc.cpio small.axfs
'

# Each filter: the compressed archive gives the uncompressed one's image.
for f in gzip xz zstd bzip2 lz4; do
	test_expect_success "$(echo "$f" | tr a-z A-Z)" "$f-compressed tar and cpio" "
		$f -c <pax.tar >pax.tar.$f &&
		check_same pax.tar.$f tree.axfs &&
		if test -f newc.cpio; then
			$f -c <newc.cpio >newc.cpio.$f &&
			check_same newc.cpio.$f tree.axfs
		fi
	"
done

test_expect_success 'standard input, plain and compressed' '
	cat pax.tar | "$AXFS" mkfs -q - -o stdin.axfs &&
	cmp tree.axfs stdin.axfs &&
	gzip -c gnu.tar | "$AXFS" mkfs -q - -o stdin2.axfs &&
	cmp tree.axfs stdin2.axfs
'

# ---- THE key test: tarball == the tree extracted from it as root --------

test_expect_success ROOT 'image of a tarball == image of its extraction as root' '
	mkdir x &&
	tar -C x --numeric-owner -xpf pax.tar &&
	mk x -o x.axfs && cmp x.axfs pax.tar.axfs &&
	mk --mtime 1234567 x -o x2.axfs &&
	mk --mtime 1234567 pax.tar -o x3.axfs && cmp x2.axfs x3.axfs &&
	! cmp -s x.axfs x2.axfs
'
# Without root the owners cannot be restored: compare all-root.
test_expect_success !ROOT 'image of a tarball == image of its extraction (--all-root)' '
	mkdir x && tar -C x -xpf pax.tar &&
	mk --all-root x -o x.axfs && mk --all-root pax.tar -o xt.axfs &&
	cmp x.axfs xt.axfs
'

# Real package trees made by dpkg-deb (GNU tar under fakeroot), with
# setuid files and hard links, when the apt cache has them.
debs=$(ls /var/cache/apt/archives/passwd_*.deb /var/cache/apt/archives/login_*.deb \
	/var/cache/apt/archives/tzdata_*.deb 2>/dev/null | head -n 3)
test_lazy_prereq DEBS_CACHED 'test -n "$debs" && command -v dpkg-deb'
test_expect_success ROOT,DEBS_CACHED 'Debian package trees: tarball == extracted tree' '
	for d in $debs; do
		rm -rf px && mkdir px &&
		dpkg-deb --fsys-tarfile "$d" >pkg.tar &&
		tar -C px --numeric-owner -xpf pkg.tar &&
		mk pkg.tar -o pkg.axfs && mk px -o px.axfs &&
		cmp pkg.axfs px.axfs &&
		seedread compare pkg.axfs px || return 1
	done
'

# ---- reading the images back ------------------------------------------------


# Every entry with its type, mode, device number, symlink target and
# content (diff -r cannot compare fifos); owners when extracted as root.
owners=""
$root && owners=--owners
test_expect_success 'axfs extract gives back the archived tree' '
	"$AXFS" extract -q gnu.tar.axfs out &&
	compare_trees tree out --content $owners &&
	"$AXFS" extract -q ustar.tar.axfs out2 &&
	compare_trees small out2 --content $owners
'

test_expect_success 'the seed-driver reader sees the archived tree' '
	if $root; then o=; else o=--no-owner; fi &&
	seedread compare $o pax.tar.axfs tree &&
	seedread compare $o ustar.tar.axfs small &&
	if test -f newc.cpio.axfs; then
		seedread compare $o newc.cpio.axfs tree &&
		seedread compare $o odc.cpio.axfs small
	fi
'

# ---- ownership and devices without root -------------------------------------

test_expect_success 'tar --owner=0 --group=0: the image of mkfs --all-root' '
	tar --owner=0 --group=0 --numeric-owner -C tree -cf own0.tar . &&
	mk own0.tar -o own0.axfs &&
	mk --all-root tree -o allroot.axfs &&
	cmp own0.axfs allroot.axfs &&
	tar --owner=1000 --group=100 --numeric-owner -C tree -cf own1.tar . &&
	mk own1.tar -o own1.axfs &&
	mk --uid 1000 --gid 100 tree -o uid.axfs &&
	cmp own1.axfs uid.axfs
'

# A python tarfile script writes device nodes, owners and setuid bits
# that a non-root user could never create on disk.
cat >mkdev.py <<\EOF
import io, sys, tarfile
fmt = {"pax": tarfile.PAX_FORMAT, "gnu": tarfile.GNU_FORMAT,
       "ustar": tarfile.USTAR_FORMAT}[sys.argv[2]]
def add(t, name, kind, mode, uid=0, gid=0, data=b"", major=0, minor=0, link=""):
    ti = tarfile.TarInfo(name)
    ti.type, ti.mode, ti.uid, ti.gid, ti.mtime = kind, mode, uid, gid, 0
    ti.devmajor, ti.devminor, ti.linkname, ti.size = major, minor, link, len(data)
    t.addfile(ti, io.BytesIO(data) if data else None)
with tarfile.open(sys.argv[1], "w", format=fmt) as t:
    add(t, "./", tarfile.DIRTYPE, 0o755)
    add(t, "./dev/", tarfile.DIRTYPE, 0o755)
    add(t, "./dev/console", tarfile.CHRTYPE, 0o600, 0, 5, major=5, minor=1)
    add(t, "./dev/null", tarfile.CHRTYPE, 0o666, major=1, minor=3)
    add(t, "./dev/sda1", tarfile.BLKTYPE, 0o660, 0, 6, major=8, minor=1)
    add(t, "./dev/max", tarfile.BLKTYPE, 0o600, major=255, minor=255)
    add(t, "./dev/initctl", tarfile.FIFOTYPE, 0o600)
    add(t, "./usr/bin/sudo", tarfile.REGTYPE, 0o4755, 0, 0, b"\x7fELF sudo")
    add(t, "./usr/bin/wall", tarfile.REGTYPE, 0o2755, 0, 5, b"wall")
    add(t, "./home/user/", tarfile.DIRTYPE, 0o700, 1000, 1000)
    add(t, "./home/user/f", tarfile.REGTYPE, 0o640, 1000, 1000, b"mine")
    add(t, "./home/user/h", tarfile.LNKTYPE, 0o640, 1000, 1000, link="./home/user/f")
EOF

test_expect_success 'device nodes and owners from a tarball, no root needed' '
	python3 mkdev.py dev.tar pax &&
	mk dev.tar -o dev.axfs &&
	seedread list dev.axfs >dev.json &&
	python3 - dev.json <<-\EOF
	import json, sys
	e = json.load(open(sys.argv[1]))
	def want(p, **kw):
	    for k, v in kw.items():
	        assert e[p][k] == v, (p, k, e[p][k], v)
	want("/dev/console", type="chr", mode=0o20600, uid=0, gid=5, rdev_major=5, rdev_minor=1)
	want("/dev/null", type="chr", mode=0o20666, rdev_major=1, rdev_minor=3)
	want("/dev/sda1", type="blk", mode=0o60660, gid=6, rdev_major=8, rdev_minor=1)
	want("/dev/max", type="blk", rdev_major=255, rdev_minor=255)
	want("/dev/initctl", type="fifo", mode=0o10600)
	want("/usr/bin/sudo", type="reg", mode=0o104755, uid=0, size=9)
	want("/usr/bin/wall", type="reg", mode=0o102755, gid=5)
	want("/home/user", type="dir", mode=0o40700, uid=1000, gid=1000)
	want("/home/user/f", type="reg", uid=1000, size=4)
	want("/home/user/h", type="reg", uid=1000, size=4, sha256=e["/home/user/f"]["sha256"])
	want("/usr", type="dir", mode=0o40755, uid=0, gid=0)
	EOF
'

test_expect_success FAKEROOT 'a tarball made under fakeroot keeps its owners and nodes' '
	mkdir fr && printf x >fr/f && mkdir fr/dev &&
	fakeroot sh -c "chown 33:44 fr/f && mknod fr/dev/zero c 1 5 &&
		tar --numeric-owner -C fr -cf fr.tar ." &&
	mk fr.tar -o fr.axfs && seedread list fr.axfs >fr.json &&
	python3 -c "
import json, sys
e = json.load(open(\"fr.json\"))
assert (e[\"/f\"][\"uid\"], e[\"/f\"][\"gid\"]) == (33, 44), e[\"/f\"]
z = e[\"/dev/zero\"]
assert (z[\"type\"], z[\"rdev_major\"], z[\"rdev_minor\"]) == (\"chr\", 1, 5), z
"
'

# ---- names and odd archives ---------------------------------------------

cat >craft.py <<\EOF
import io, sys, tarfile
out, names = sys.argv[1], sys.argv[2:]
with tarfile.open(out, "w", format=tarfile.PAX_FORMAT) as t:
    for n in names:
        data = n.lstrip("/").encode() + b"\n"	# the same with or without /
        ti = tarfile.TarInfo(n)
        ti.size, ti.mtime, ti.mode = len(data), 0, 0o644
        t.addfile(ti, io.BytesIO(data))
EOF

test_expect_success 'missing parents are created 0755 root:root (-v says so)' '
	python3 craft.py orphan.tar a/b/c/file &&
	"$AXFS" mkfs -v orphan.tar -o orphan.axfs 2>orphan.err &&
	grep "a/b" orphan.err &&
	seedread list orphan.axfs >orphan.json &&
	python3 -c "
import json
e = json.load(open(\"orphan.json\"))
for d in (\"/\", \"/a\", \"/a/b\", \"/a/b/c\"):
    assert (e[d][\"type\"], e[d][\"mode\"], e[d][\"uid\"], e[d][\"gid\"]) == (\"dir\", 0o40755, 0, 0), (d, e[d])
assert e[\"/a/b/c/file\"][\"size\"] == 11
"
'

test_expect_success 'leading / is removed with a warning' '
	python3 craft.py abs.tar /etc/motd /usr/x &&
	python3 craft.py rel.tar etc/motd usr/x &&
	"$AXFS" mkfs abs.tar -o abs.axfs 2>abs.err &&
	grep "leading ./." abs.err &&
	mk rel.tar -o rel.axfs && cmp abs.axfs rel.axfs
'

test_expect_success 'duplicate entries: the last wins, with a warning' '
	mkdir d1 d2 && printf first >d1/f && printf second >d2/f &&
	tar -C d1 -cf dup.tar f && tar -C d2 -rf dup.tar f &&
	"$AXFS" mkfs dup.tar -o dup.axfs 2>dup.err &&
	grep "more than once" dup.err &&
	"$AXFS" extract -q dup.axfs dupx && test "$(cat dupx/f)" = second
'

test_expect_success 'a tar --transform prefix' '
	tar --transform "s,^\./,./sub/," -C small -cf pre.tar ./etc &&
	mk pre.tar -o pre.axfs &&
	seedread list pre.axfs >pre.json &&
	grep "\"/sub/etc/hostname\"" pre.json
'

# ---- errors ---------------------------------------------------------------------

# fails_cleanly PATTERN MKFS-ARGS... (output bad.axfs): exit 8, a message
# matching PATTERN, no image and no temporary file left.
fails_cleanly() {
	pattern=$1 && shift &&
	{ "$AXFS" mkfs "$@" 2>err.txt; rc=$?; } ; cat err.txt &&
	test "$rc" = 8 &&
	grep "$pattern" err.txt &&
	! ls -a | grep "^\.\{0,1\}bad\.axfs"
}

test_expect_success 'a truncated tarball names the archive and the entry' '
	head -c 100000 gnu.tar >trunc.tar &&
	fails_cleanly "trunc.tar" trunc.tar -o bad.axfs &&
	grep "entry .*\./" err.txt
'

test_expect_success 'truncated inside the data of a named entry' '
	python3 craft.py one.tar first &&
	head -c 50000 /dev/urandom >bigfile &&
	tar -C . -cf two.tar bigfile &&
	head -c 30000 two.tar >trunc2.tar &&
	fails_cleanly "entry .bigfile." trunc2.tar -o bad.axfs
'

test_expect_success 'garbage, empty input and truncated compression fail' '
	head -c 20000 /dev/urandom >garbage.bin &&
	fails_cleanly "garbage.bin" garbage.bin -o bad.axfs &&
	: | fails_cleanly "standard input.*empty" - -o bad.axfs &&
	gzip -c gnu.tar | head -c 30000 >trunc.tar.gz &&
	fails_cleanly "trunc.tar.gz" trunc.tar.gz -o bad.axfs
'

test_expect_success 'a failed build leaves an existing image untouched' '
	cp tree.axfs keep.axfs &&
	! "$AXFS" mkfs -q garbage.bin -o keep.axfs 2>/dev/null &&
	cmp keep.axfs tree.axfs &&
	! ls -a | grep "^\.keep\.axfs"
'

test_expect_success '.. components are rejected, naming the entry' '
	python3 craft.py dotdot.tar ok "a/../../etc/shadow" &&
	fails_cleanly "a/\.\./\.\./etc/shadow" dotdot.tar -o bad.axfs &&
	grep "dotdot.tar" err.txt
'

test_expect_success 'a name longer than 255 bytes is rejected, naming it' '
	n=$(printf "%0256d" 0 | tr 0 N) &&
	python3 craft.py toolong.tar "dir/$n" &&
	fails_cleanly "dir/NNNN.*255" toolong.tar -o bad.axfs
'

test_expect_success 'a hard link to nothing earlier is rejected' '
	python3 - <<-\EOF &&
	import tarfile
	with tarfile.open("badlink.tar", "w") as t:
	    ti = tarfile.TarInfo("link"); ti.type = tarfile.LNKTYPE; ti.linkname = "missing"
	    t.addfile(ti)
	EOF
	fails_cleanly "link.*missing" badlink.tar -o bad.axfs
'

test_expect_success 'a device number AXFS cannot store is an error' '
	python3 - <<-\EOF &&
	import tarfile
	with tarfile.open("bigdev.tar", "w", format=tarfile.PAX_FORMAT) as t:
	    ti = tarfile.TarInfo("dev/big"); ti.type = tarfile.BLKTYPE
	    ti.devmajor, ti.devminor = 259, 65536
	    t.addfile(ti)
	EOF
	fails_cleanly "dev/big.*259:65536" bigdev.tar -o bad.axfs
'

test_done
