#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Faults and bad input around axfs mkfs (issue 9): unreadable inputs, files
# that change while they are read, names and paths beyond the format, a full
# disk, `ulimit -f`, signals, and files beyond 4 GiB.  Every failure must
# name the file and the reason, exit non-zero, leave no output, no temporary
# file (.NAME.XXXXXX beside the output, axfs-spool-* in $TMPDIR), and leave
# an existing output exactly as it was.
. "$(dirname "$0")/lib.sh"

# Temporary spool files go here, so that leftovers can be seen.
export TMPDIR="$TRASH/tmp"
mkdir -p "$TMPDIR"

# no_leftovers [DIR...]: no temporary image in DIR (default .), and no
# spool file in $TMPDIR.
no_leftovers() {
	test $# -gt 0 || set -- .
	for d in "$@"; do
		if ls -A "$d" | grep -E '^\..+\.[A-Za-z0-9]{6}$'; then
			echo "temporary file left in $d" >&2
			return 1
		fi
	done
	if test -n "$(ls -A "$TMPDIR")"; then
		echo "left in \$TMPDIR:" >&2
		ls -A "$TMPDIR" >&2
		return 1
	fi
}

# expect_fail STATUS CMD...: CMD must exit with STATUS (not die of a signal
# unless STATUS says so).
expect_fail() {
	want=$1
	shift
	"$@"
	got=$?
	test "$got" = "$want" || { echo "exit status $got, wanted $want" >&2; return 1; }
}

# race.py WATCHED ACTION CMD...: runs CMD; the moment CMD opens WATCHED
# (inotify), CMD is frozen with SIGSTOP, the shell command ACTION runs, and
# CMD goes on (SIGCONT); ACTION "kill:SIG" sends SIG instead.  Exits with
# CMD's status (128+N for a signal); 3 if CMD never opened WATCHED.  As
# long as CMD still reads WATCHED when it is frozen (make it big), the
# outcome does not depend on timing.
cat >race.py <<\EOF
import ctypes, os, select, signal, subprocess, sys, time
IN_OPEN = 0x20
watched, action, cmd = sys.argv[1], sys.argv[2], sys.argv[3:]
libc = ctypes.CDLL(None, use_errno=True)
fd = libc.inotify_init1(os.O_CLOEXEC)
if fd < 0 or libc.inotify_add_watch(fd, watched.encode(), IN_OPEN) < 0:
    sys.exit("race.py: inotify: " + os.strerror(ctypes.get_errno()))
p = subprocess.Popen(cmd)
seen = False
while p.poll() is None:
    r, _, _ = select.select([fd], [], [], 0.05)
    if r:
        os.read(fd, 4096)
        seen = True
        break
if seen and p.poll() is None:
    if action.startswith("kill:"):
        p.send_signal(getattr(signal, "SIG" + action[5:]))
    else:
        p.send_signal(signal.SIGSTOP)
        while True:	# wait until it is really stopped
            with open("/proc/%d/stat" % p.pid) as f:
                if f.read().rsplit(")", 1)[1].split()[0] in "Tt":
                    break
            time.sleep(0.001)
        subprocess.call(action, shell=True)
        p.send_signal(signal.SIGCONT)
rc = p.wait()
sys.exit(3 if not seen else 128 - rc if rc < 0 else rc)
EOF
race() { python3 "$TRASH/race.py" "$@"; }

# mktar OUT NAME... : a pax tar holding one small file per NAME (bytes,
# written with Python escapes), without any of them on disk.
mktar() {
	python3 - "$@" <<-\EOF
	import ast, io, sys, tarfile
	with tarfile.open(sys.argv[1], "w", format=tarfile.PAX_FORMAT,
	                  encoding="utf-8", errors="surrogateescape") as t:
	    for n in sys.argv[2:]:
	        name = ast.literal_eval(n).decode("utf-8", "surrogateescape")
	        ti = tarfile.TarInfo(name)
	        ti.size, ti.mtime = 2, 1700000000
	        t.addfile(ti, io.BytesIO(b"x\n"))
	EOF
}

test_expect_success 'setup' '
	mkdir -p tree/d tree/e &&
	echo hello >tree/d/f &&
	head -c 400000 /dev/urandom >tree/e/rand &&
	echo precious >keep.axfs && cp keep.axfs keep.orig &&
	"$AXFS" mkfs -q tree -o good.axfs &&
	no_leftovers
'

# ---- unreadable input (permissions mean nothing to root: run as nobody) ---
# nobody runs the copy of the tools it can reach (prerequisite SETPRIV).
test_expect_success SETPRIV 'setup: a place nobody can write' '
	chmod 1777 "$TMPDIR" &&
	mkdir -m 777 nob && cp -r tree nob/src && chmod -R a+rX nob/src &&
	cp keep.orig nob/keep.axfs && chmod 666 nob/keep.axfs
'
test_expect_success SETPRIV 'an unreadable file: named with the reason, nothing written' '
	chmod 000 nob/src/e/rand &&
	expect_fail 8 as_nobody "$AXFS_NOBODY" mkfs -q nob/src -o nob/keep.axfs 2>err &&
	cat err && grep "nob/src/e/rand.*Permission denied" err &&
	cmp nob/keep.axfs keep.orig && no_leftovers nob &&
	expect_fail 8 as_nobody "$AXFS_NOBODY" mkfs -q nob/src -o nob/new.axfs 2>err &&
	test ! -e nob/new.axfs && no_leftovers nob &&
	chmod 644 nob/src/e/rand
'
# A directory with mode $dir_mode: named with the reason, the old
# image kept.
for dir_case in '000 an unreadable directory: named with the reason' \
	'644 a directory that can be listed but not entered'; do
	dir_mode=${dir_case%% *}
	test_expect_success SETPRIV "${dir_case#* }" '
		chmod $dir_mode nob/src/d &&
		expect_fail 8 as_nobody "$AXFS_NOBODY" mkfs -q nob/src -o nob/keep.axfs 2>err &&
		cat err && grep "nob/src/d.*Permission denied" err &&
		cmp nob/keep.axfs keep.orig && no_leftovers nob &&
		chmod 755 nob/src/d
	'
done
test_expect_success SETPRIV 'an output directory nobody may write to' '
	mkdir -m 755 ro && cp keep.orig ro/keep.axfs &&
	expect_fail 8 as_nobody "$AXFS_NOBODY" mkfs -q nob/src -o ro/keep.axfs 2>err &&
	cat err && grep "ro/keep.axfs.*Permission denied" err &&
	cmp ro/keep.axfs keep.orig && no_leftovers ro
'
test_expect_success SETPRIV 'unreadable images, profiles and policies are named' '
	cp good.axfs nob/img.axfs && chmod 600 nob/img.axfs &&
	echo "./d/f,0,1" >nob/p.csv && chmod 600 nob/p.csv &&
	echo "xip: { budget: 1MiB }" >nob/p.yaml && chmod 600 nob/p.yaml &&
	expect_fail 8 as_nobody "$AXFS_NOBODY" dump nob/img.axfs 2>err &&
	grep "nob/img.axfs.*Permission denied" err &&
	expect_fail 8 as_nobody "$AXFS_NOBODY" fsck nob/img.axfs 2>err &&
	grep "nob/img.axfs.*Permission denied" err &&
	expect_fail 8 as_nobody "$AXFS_NOBODY" extract nob/img.axfs nob/x 2>err &&
	grep "nob/img.axfs.*Permission denied" err && test ! -e nob/x &&
	! as_nobody "$AXFS_NOBODY" mkfs -q -p nob/p.csv nob/src -o nob/keep.axfs 2>err &&
	grep "nob/p.csv.*Permission denied" err &&
	! as_nobody "$AXFS_NOBODY" mkfs -q -c nob/p.yaml nob/src -o nob/keep.axfs 2>err &&
	grep "nob/p.yaml.*Permission denied" err &&
	cmp nob/keep.axfs keep.orig && no_leftovers nob
'

# ---- files that change while mkfs reads them ------------------------------
# mkfs -j1 reads big/ in order: first file, then big, then z/zz.  It is
# frozen the moment it opens big, the tree is changed, and it goes on.
test_expect_success 'setup: a tree with a big file' '
	mkdir -p ch/z && echo a >ch/a && head -c 12000000 /dev/urandom >ch/big &&
	echo zz >ch/z/zz && cp ch/big big.orig
'
test_expect_success 'a file that grows while it is read' '
	expect_fail 8 race ch/big "echo more >>ch/big" \
		"$AXFS" mkfs -q -j1 ch -o keep.axfs 2>err &&
	cat err && grep -E "^axfs mkfs: .ch/big. (grew|changed) while" err &&
	cmp keep.axfs keep.orig && no_leftovers
'
test_expect_success 'a file that shrinks while it is read' '
	cp big.orig ch/big &&
	expect_fail 8 race ch/big "truncate -s 5000 ch/big" \
		"$AXFS" mkfs -q -j1 ch -o keep.axfs 2>err &&
	cat err && grep -E "^axfs mkfs: .ch/big. (shrank|changed) while" err &&
	grep "12000000 bytes when scanned" err &&
	cmp keep.axfs keep.orig && no_leftovers
'
test_expect_success 'a file that disappears before it is read' '
	cp big.orig ch/big &&
	expect_fail 8 race ch/big "rm ch/z/zz" \
		"$AXFS" mkfs -q -j1 ch -o new.axfs 2>err &&
	cat err && grep "^axfs mkfs: cannot open .ch/z/zz.: No such file or directory" err &&
	test ! -e new.axfs && no_leftovers
'
test_expect_success 'a file replaced by a directory or a symlink before it is read' '
	rm -rf ch/z/zz && echo zz >ch/z/zz &&
	expect_fail 8 race ch/big "rm ch/z/zz && mkdir ch/z/zz" \
		"$AXFS" mkfs -q -j1 ch -o new.axfs 2>err &&
	cat err && grep "^axfs mkfs: .ch/z/zz. is no longer a regular file" err &&
	test ! -e new.axfs && no_leftovers &&
	rmdir ch/z/zz && echo zz >ch/z/zz &&
	expect_fail 8 race ch/big "rm ch/z/zz && ln -s /etc/passwd ch/z/zz" \
		"$AXFS" mkfs -q -j1 ch -o new.axfs 2>err &&
	cat err && grep "^axfs mkfs: cannot open .ch/z/zz.: Too many levels of symbolic links" err &&
	test ! -e new.axfs && no_leftovers &&
	rm ch/z/zz && echo zz >ch/z/zz
'

# ---- signals -----------------------------------------------------------------
for sig in INT:2 TERM:15 HUP:1; do
	test_expect_success "SIG${sig%:*} while packing: the temporary files are removed" '
		cp big.orig ch/big &&
		race ch/big kill:'${sig%:*}' "$AXFS" mkfs -q -j1 ch -o keep.axfs 2>err
		rc=$? && cat err &&
		test $rc -eq $((128 + '${sig#*:}')) &&
		cmp keep.axfs keep.orig && no_leftovers
	'
done

# ---- names and paths beyond the format ----------------------------------------
test_expect_success 'a 255-byte name is stored; a 256-byte one is refused, named' '
	n255=$(printf "%0255d" 0 | tr 0 n) &&
	mktar ok.tar "b\"d/$n255\"" &&
	"$AXFS" mkfs -q ok.tar -o ok.axfs &&
	"$AXFS" extract -q ok.axfs ok && test -f "ok/d/$n255" &&
	mktar long.tar "b\"d/${n255}x\"" &&
	expect_fail 8 "$AXFS" mkfs -q long.tar -o keep.axfs 2>err &&
	cat err && grep "long.tar.*${n255}x" err && grep -i "long" err &&
	cmp keep.axfs keep.orig && no_leftovers
'
test_expect_success 'names that are not UTF-8 are kept as bytes' '
	mkdir -p raw && printf x >"raw/$(printf "caf\351")" &&
	mkdir "raw/$(printf "\377\376")" && printf y >"raw/$(printf "\377\376/\200")" &&
	"$AXFS" mkfs -q raw -o raw.axfs &&
	"$AXFS" fsck -q raw.axfs &&
	"$AXFS" extract -q raw.axfs raw.out &&
	test "$(ls raw | od -c)" = "$(ls raw.out | od -c)" &&
	test -f "raw.out/$(printf "\377\376/\200")" &&
	mktar raw.tar "b\"caf\\xe9\"" "b\"\\xff\\xfe/\\x80\"" &&
	"$AXFS" mkfs -q raw.tar -o rawtar.axfs &&
	"$AXFS" extract -q rawtar.axfs rawtar.out &&
	test -f "rawtar.out/$(printf "caf\351")" &&
	test -f "rawtar.out/$(printf "\377\376/\200")"
'
# The reader refuses trees nested more than 4096 directories deep (the
# walk must end); mkfs must not write an image its own tools refuse.
test_expect_success 'a path nested deeper than the reader allows' '
	deep=$(python3 -c "print(\"/\".join([\"d\"] * 4200))") &&
	mktar deep.tar "b\"$deep/f\"" &&
	if "$AXFS" mkfs -q deep.tar -o deep.axfs 2>err; then
		"$AXFS" dump deep.axfs >/dev/null &&
		"$AXFS" extract -q deep.axfs deep.out &&
		"$AXFS" fsck -q deep.axfs
	else
		cat err | cut -c 1-300 && grep "deep.tar" err &&
		test ! -e deep.axfs && no_leftovers
	fi
'

# ---- the output inside the source tree ----------------------------------------
test_expect_success 'an output inside the source tree is left out of the image' '
	mkdir -p in/sub && echo 1 >in/a && echo 2 >in/sub/b && ln -s sub in/alias &&
	"$AXFS" mkfs -q in -o in/img.axfs &&
	"$AXFS" fsck -q in/img.axfs &&
	"$AXFS" extract -q in/img.axfs in.1 &&
	test ! -e in.1/img.axfs && diff -r --no-dereference in.1 in --exclude=img.axfs &&
	"$AXFS" mkfs -q in -o in/img.axfs && "$AXFS" extract -q in/img.axfs in.2 &&
	diff -r --no-dereference in.1 in.2 &&
	"$AXFS" mkfs -q in -o in/alias/img2.axfs &&
	"$AXFS" extract -q in/sub/img2.axfs in.3 &&
	test ! -e in.3/sub/img2.axfs && test -e in.3/img.axfs &&
	no_leftovers in in/sub
'

# ---- a full disk, a file size limit -------------------------------------------
test_atexit 'mountpoint -q "$TRASH/small" && umount "$TRASH/small"'
test_expect_success TMPFS_MOUNT 'setup: a tmpfs of 256 KiB' '
	mkdir small && mount -t tmpfs -o size=256k axfs-test small
'
test_expect_success TMPFS_MOUNT 'the output disk fills up (ENOSPC)' '
	cp keep.orig small/keep.axfs &&
	expect_fail 8 "$AXFS" mkfs -q tree -o small/keep.axfs 2>err &&
	cat err && grep "small/keep.axfs.*No space left on device" err &&
	cmp small/keep.axfs keep.orig && no_leftovers small &&
	expect_fail 8 "$AXFS" mkfs -q tree -o small/new.axfs 2>err &&
	test ! -e small/new.axfs && no_leftovers small
'
test_expect_success TMPFS_MOUNT 'the temporary directory fills up (ENOSPC)' '
	mkdir -p small/tmp &&
	(TMPDIR=$TRASH/small/tmp && export TMPDIR &&
	 expect_fail 8 "$AXFS" mkfs -q tree -o keep.axfs) 2>err &&
	cat err && grep "No space left on device" err &&
	cmp keep.axfs keep.orig && no_leftovers && test -z "$(ls -A small/tmp)"
'
# What would not fit is refused before anything is written (the pre-walk's
# total against the free space), naming the image and the directory.
test_expect_success TMPFS_MOUNT 'extract onto a full disk: refused before writing, both named' '
	expect_fail 8 "$AXFS" extract -q good.axfs small/x 2>err &&
	cat err && grep "good.axfs.* bytes of file data, more than the [0-9]* bytes free in .small/x.: nothing extracted" err &&
	test ! -e small/x/e/rand
'

test_expect_success 'ulimit -f: the write fails (not SIGXFSZ), nothing is left' '
	(ulimit -f 64 && expect_fail 8 "$AXFS" mkfs -q tree -o keep.axfs) 2>err &&
	cat err && grep "File too large" err &&
	cmp keep.axfs keep.orig && no_leftovers &&
	(ulimit -f 64 && expect_fail 8 "$AXFS" extract -q good.axfs lim) 2>err &&
	cat err && grep "lim/e/rand.*File too large" err && test ! -e lim/e/rand
'

# ---- beyond 4 GiB ---------------------------------------------------------------
# A sparse file just over 4 GiB: its size, page numbers and offsets no
# longer fit 32 bits.  mkfs reads and compresses 4 GiB of zeros (about
# 15-30 s here with -l 1 and 1 MiB blocks).
# Too slow under sanitizers.
test_expect_success !SANITIZED 'a file larger than 4 GiB: built, checked, read back' '
	mkdir -p huge && size=$((4 * 1024 * 1024 * 1024 + 8192)) &&
	truncate -s $size huge/sparse &&
	printf END | dd of=huge/sparse bs=1 seek=$((size - 3)) conv=notrunc 2>/dev/null &&
	"$AXFS" mkfs -q -l 1 -b 1MiB huge -o huge.axfs &&
	"$AXFS" fsck -q huge.axfs &&
	"$AXFS" dump --inodes huge.axfs | grep " $size .*/sparse" &&
	"$AXFS" extract -q huge.axfs huge.out &&
	test "$(stat -c %s huge.out/sparse)" = $size &&
	test "$(tail -c 3 huge.out/sparse)" = END &&
	test "$(du -k huge.out/sparse | cut -f1)" -lt 1024 &&
	rm -rf huge.out huge.axfs
'
# An image over 4 GiB needs 4 GiB written (XIP pages are stored as they
# are): about 2 minutes and 4 GiB of disk here, too much for make check
# (AXFS_TEST_EXPENSIVE=1 runs it).
test_expect_success !SANITIZED,EXPENSIVE 'an image larger than 4 GiB (XIP)' '
	"$AXFS" mkfs -q --xip "/*" huge -o hugexip.axfs 2>err &&
	cat err && grep "4 GiB" err &&
	test "$(stat -c %s hugexip.axfs)" -gt 4294967296 &&
	{ "$AXFS" fsck -q --no-digest hugexip.axfs; rc=$?; } &&
	{ test $rc -eq 0 || test $rc -eq 4; } &&
	"$AXFS" extract -q hugexip.axfs hugexip.out &&
	test "$(tail -c 3 hugexip.out/sparse)" = END &&
	rm -rf hugexip.axfs hugexip.out
'

test_done
