#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# axfs ls: one directory of an image (or one file), compared with the
# source tree it was built from (tests/tools/lsexpect.py reads the tree
# with lstat): names, -l lines (owners named as on this host; -n numbers),
# -R paths, --json; PATHs resolved through
# the image's own symbolic links (usr-merge, os-release, absolute links,
# "..") as the kernel resolves them; a missing PATH, a loop and a bad
# image are errors naming them.  On a tree shaped like Debian's
# (tests/tools/linktree.sh) and on the files of the installed base-files
# package, a tree nobody here wrote (tests/tools/pkgtree.sh).
. "$(dirname "$0")/lib.sh"

# The expected listings, all from one Python process: each line of stdin
# is "OUT MODE PREFIX DIR" (tests/tools/lsexpect.py).
expect_all() { python3 "$AXFS_TOP/tests/tools/lsexpect.py"; }
# axfs ls -l lines without the date and time, and "-" for a directory's size.
cut_long() {
	awk '{ s = $3; if ($1 ~ /^d/) s = "-"; o = $1 " " $2 " " s
		for (i = 6; i <= NF; i++) o = o " " $i; print o }'
}

test_expect_success 'setup: an image of a tree shaped like Debian' '
	sh "$AXFS_TOP/tests/tools/linktree.sh" tree &&
	"$AXFS" mkfs -q tree -o img.axfs &&
	mkdir x && expect_all <<-\EOF
	x/root names - tree
	x/etc names - tree/etc
	x/base names - tree/usr/share/doc/base
	x/est names - tree/usr/share/doc/base/deep/er/est
	x/empty names - tree/var/empty
	x/var names - tree/var
	x/bin names - tree/usr/bin
	x/sbin names - tree/usr/sbin
	x/l.root long - tree
	x/l.etc long - tree/etc
	x/l.bin long - tree/usr/bin
	x/l.base long - tree/usr/share/doc/base
	x/l.alt long - tree/etc/alternatives
	x/n.etc nlong - tree/etc
	x/R.share rnames /usr/share/ tree/usr/share
	x/R.root rnames / tree
	x/lR.etc rlong /etc/ tree/etc
	x/R.bin rnames /bin/ tree/usr/bin
	EOF
'

test_expect_success 'no PATH lists the root; a PATH lists exactly that directory' '
	"$AXFS" ls img.axfs >got && test_cmp x/root got &&
	"$AXFS" ls img.axfs / >got && test_cmp x/root got &&
	"$AXFS" ls img.axfs etc >got && test_cmp x/etc got &&
	"$AXFS" ls img.axfs /usr/share/doc/base >got && test_cmp x/base got &&
	"$AXFS" ls img.axfs /usr/share/doc/base/deep/er/est >got && test_cmp x/est got &&
	"$AXFS" ls img.axfs /var/empty >got && test_cmp x/empty got &&
	test ! -s got && test -s x/est
'

test_expect_success 'names are escaped as dump escapes them' '
	"$AXFS" ls img.axfs /usr/share/doc/base >got &&
	grep -Fx "tab\\011here\\001back\\134slash" got &&
	"$AXFS" dump --inodes img.axfs | grep -F "base/tab\\011here\\001back\\134slash"
'

test_expect_success 'links are followed as the kernel follows them' '
	cp x/bin want &&
	"$AXFS" ls img.axfs /bin >got && test_cmp want got &&
	"$AXFS" ls -l img.axfs /bin/ | cut_long | cut -d" " -f4 >got &&
	test_cmp want got &&
	"$AXFS" ls img.axfs bin/../bin/. >got && test_cmp want got &&
	"$AXFS" ls img.axfs /etc/up/bin >got && test_cmp want got &&
	"$AXFS" ls img.axfs /../../../usr/bin >got && test_cmp want got &&
	"$AXFS" ls img.axfs /lib/../sbin/../bin >got && test_cmp want got &&
	"$AXFS" ls -l img.axfs /usr/bin/editor/ 2>err; test $? = 1 &&
	grep -q "not a directory" err &&
	"$AXFS" ls -l img.axfs /etc/os-release | cut_long >got &&
	echo "lrwxrwxrwx root/root 21 /etc/os-release -> ../usr/lib/os-release" >want &&
	test_cmp want got &&
	"$AXFS" ls img.axfs /etc/os-release >got &&
	echo /etc/os-release >want && test_cmp want got
'

test_expect_success '-l: mode, owner, size and target of each entry, as lstat gives them' '
	for d in /:root /etc:etc /usr/bin:bin /usr/share/doc/base:base \
		/etc/alternatives:alt; do
		"$AXFS" ls -l img.axfs ${d%:*} | cut_long >got &&
		test_cmp x/l.${d#*:} got || return 1
	done &&
	"$AXFS" ls -l img.axfs / | grep -q "^lrwxrwxrwx root/root *7 [0-9-]* [0-9:]* bin -> usr/bin$" &&
	t=$(date -u -d @1700000000 "+%Y-%m-%d %H:%M") &&
	"$AXFS" ls -l img.axfs /usr/lib/os-release | grep -q " $t /usr/lib/os-release$"
'

# Owners as ls -l and unsquashfs -ll show them: the host's names, numbers
# where it has none; -n (--numeric) numbers only, as ls -n (it implies -l).
test_expect_success '-l names owners from this host, -n shows numbers' '
	"$AXFS" ls -n img.axfs /etc | cut_long >got && test_cmp x/n.etc got &&
	"$AXFS" ls --numeric img.axfs /etc | cut_long >got && test_cmp x/n.etc got &&
	! getent passwd 4242 && ! getent group 4343 &&
	"$AXFS" mkfs -q --uid 4242 --gid 4343 tree -o odd.axfs &&
	"$AXFS" ls -l odd.axfs / | grep -q "^lrwxrwxrwx 4242/4343 *7 .* bin -> usr/bin$" &&
	u=$(id -un 1) && g=$(getent group 1 | cut -d: -f1) && test -n "$u$g" &&
	"$AXFS" mkfs -q --uid 1 --gid 1 tree -o one.axfs &&
	"$AXFS" ls -l one.axfs / | grep -q "^lrwxrwxrwx $u/$g *7 .* bin -> usr/bin$" &&
	"$AXFS" ls -n one.axfs / | grep -q "^lrwxrwxrwx 1/1 *7 .* bin -> usr/bin$"
'

test_expect_success '-R: every path below the directory, depth first' '
	"$AXFS" ls -R img.axfs /usr/share >got && test_cmp x/R.share got &&
	"$AXFS" ls -R img.axfs >got && test_cmp x/R.root got &&
	"$AXFS" ls -lR img.axfs /etc | cut_long >got && test_cmp x/lR.etc got &&
	"$AXFS" ls -R img.axfs /bin >got && test_cmp x/R.bin got
'

test_expect_success '-d lists the directories themselves; files first, then directories with headers' '
	"$AXFS" ls -d img.axfs /usr /bin >got && printf "/usr\n/bin\n" >want && test_cmp want got &&
	"$AXFS" ls img.axfs /var /etc/os-release /usr/sbin >got &&
	{ echo /etc/os-release && echo && echo /var: && cat x/var &&
	  echo && echo /usr/sbin: && cat x/sbin; } >want &&
	test_cmp want got
'

test_expect_success 'a missing PATH, a loop, a dangling link: named, exit 1, the others listed' '
	{ "$AXFS" ls img.axfs /nope /var 2>err >got; test $? = 1; } &&
	grep -q "img.axfs.: ./nope.: no such file or directory" err &&
	{ echo /var: && cat x/var; } >want && test_cmp want got &&
	{ "$AXFS" ls img.axfs /etc/loop/a 2>err; test $? = 1; } &&
	grep -q "/etc/loop/a.: too many levels of symbolic links" err &&
	{ "$AXFS" ls img.axfs /etc/dangling 2>err; test $? = 1; } &&
	grep -q "/etc/dangling.: no such file or directory" err &&
	"$AXFS" ls -l img.axfs /etc/dangling /etc/loop/a | cut_long >got &&
	printf "%s\n" "lrwxrwxrwx root/root 7 /etc/dangling -> nowhere" \
		"lrwxrwxrwx root/root 1 /etc/loop/a -> b" >want && test_cmp want got &&
	{ "$AXFS" ls img.axfs /usr/bin/ls/x 2>err; test $? = 1; } &&
	grep -q "not a directory" err
'

test_expect_success '--json: the entries with their names as bytes' '
	"$AXFS" ls --json img.axfs /usr/share/doc/base /etc/os-release /bin/ >j.json &&
	python3 - <<-\EOF
	import json, os, stat, sys
	sys.path.insert(0, os.environ["AXFS_TOP"] + "/tests/tools")
	from jsonname import to_bytes
	j = json.load(open("j.json"))
	assert j["image"] == "img.axfs", j["image"]
	ls = {x["path"]: x for x in j["listings"]}
	assert list(ls) == ["/etc/os-release", "/usr/share/doc/base", "/bin/"], list(ls)
	e = ls["/etc/os-release"]["entries"]
	assert len(e) == 1 and e[0]["type"] == "lnk" and e[0]["target"] == "../usr/lib/os-release", e
	assert ls["/bin/"]["resolved"] == "/usr/bin", ls["/bin/"]
	for path, d in (("/usr/share/doc/base", "tree/usr/share/doc/base"), ("/bin/", "tree/usr/bin")):
	    got = [to_bytes(x["name"]) for x in ls[path]["entries"]]
	    assert got == sorted(os.listdir(os.fsencode(d))), (got, path)
	    for x in ls[path]["entries"]:
	        st = os.lstat(os.path.join(os.fsencode(d), to_bytes(x["name"])))
	        assert x["mode"] == st.st_mode and x["uid"] == st.st_uid, x
	        assert x["mtime"] == 1700000000, x
	        if not stat.S_ISDIR(st.st_mode):
	            assert x["size"] == st.st_size, x
	EOF
'

test_expect_success 'a split image: the store segment with --store, never an operand' '
	"$AXFS" mkfs -q --mmap-limit 16KiB --xip /usr/bin/ls tree -o s.axfs &&
	"$AXFS" split s.axfs --mmap s.nor --store s.nand &&
	"$AXFS" ls --store s.nand s.nor /etc >got && test_cmp x/etc got &&
	"$AXFS" ls -s s.nand s.nor etc >got && test_cmp x/etc got &&
	"$AXFS" ls --store s.nand s.nor >got && test_cmp x/root got &&
	{ "$AXFS" ls s.nor 2>err; test $? = 8; } && grep -q -- "--store" err &&
	{ "$AXFS" ls s.nor s.nand 2>err; test $? = 8; } && grep -q -- "--store" err
'

# The EXAMPLES of axfs-ls(1), run as printed (but the one piped to jq),
# on an image and a split image of the names they use.
test_expect_success 'every example of axfs-ls(1) runs' '
	cp -R tree extree && mkdir -p extree/usr/lib/modules/6.1 &&
	echo "kernel/fs/axfs/axfs.ko:" >extree/usr/lib/modules/6.1/modules.dep &&
	mkdir ex && "$AXFS" mkfs -q extree -o ex/rootfs.axfs &&
	cp s.nor ex/nor.bin && cp s.nand ex/nand.bin &&
	sed -n "/^\.SH EXAMPLES/,/^\.SH /s/^\$ \(axfs ls .*\)\$/\1/p" "$AXFS_TOP/man/axfs-ls.1" |
		sed "s/\\\\-/-/g" | grep -v "| *jq" >examples &&
	test "$(wc -l <examples)" -ge 4 &&
	while read -r axfs_ cmd; do
		(cd ex && "$AXFS" $cmd >out) || { echo "fails: axfs $cmd"; return 1; }
		test -s ex/out || { echo "prints nothing: axfs $cmd"; return 1; }
	done <examples &&
	grep -qx "axfs ls --store nand.bin nor.bin /lib" examples
'

test_expect_success 'a damaged image: exit 8, the byte named' '
	"$AXFS" mkfs -q --compress-metadata=no tree -o raw.axfs &&
	off=$(grep -obUa alternatives raw.axfs | head -n 1 | cut -d: -f1) &&
	cp raw.axfs bad.axfs &&
	printf / | dd of=bad.axfs bs=1 seek=$((off + 6)) conv=notrunc 2>/dev/null &&
	{ "$AXFS" ls bad.axfs /usr 2>err >got; test $? = 8; } && test ! -s got &&
	grep -q "bad.axfs.: byte $off: .*a ./. in its name" err &&
	{ "$AXFS" ls -R bad.axfs /etc 2>err; test $? = 8; } &&
	grep -q "byte $off" err
'

test_expect_success 'operational errors are 8, usage errors 16' '
	{ "$AXFS" ls nothing.axfs 2>err; test $? = 8; } && grep -q nothing.axfs err &&
	{ "$AXFS" ls tree/etc/.hidden / 2>err; test $? = 8; } &&
	{ "$AXFS" ls img.axfs >/dev/full 2>err; test $? = 8; } && grep -q "standard output" err &&
	{ "$AXFS" ls 2>err; test $? = 16; } && grep -q "no image given" err &&
	{ "$AXFS" ls --nope img.axfs 2>err; test $? = 16; } &&
	"$AXFS" ls --help | grep -q "^usage: axfs ls" &&
	"$AXFS-ls" --version 2>/dev/null | grep -q "^axfs ls" ||
	{ ln -s "$AXFS" axfs-ls && ./axfs-ls img.axfs /etc >got &&
	  test_cmp x/etc got; }
'

test_expect_success BASE_FILES 'setup: the files of the installed base-files package' '
	sh "$AXFS_TOP/tests/tools/pkgtree.sh" deb base-files &&
	test -L deb/etc/os-release &&
	"$AXFS" mkfs -q deb -o deb.axfs
'
test_expect_success BASE_FILES 'base-files: ls PATH lists exactly what ls -A lists' '
	dirs="/ /etc /usr/share/base-files /usr/share/common-licenses /usr/lib" &&
	mkdir y && for d in $dirs; do
		echo "y/$(echo $d | tr / _) long - deb$d"
	done | expect_all &&
	for d in $dirs; do
		"$AXFS" ls deb.axfs $d >got &&
		(cd "deb$d" && ls -A) >want && test_cmp want got &&
		"$AXFS" ls -l deb.axfs $d | cut_long >got &&
		test_cmp y/$(echo $d | tr / _) got || return 1
	done &&
	"$AXFS" ls -R deb.axfs /usr/share >got &&
	(cd deb && find usr/share -mindepth 1 | sed "s|^|/|" | sort) >want &&
	sort got | test_cmp want - &&
	"$AXFS" ls -l deb.axfs /etc/os-release | cut_long >got &&
	echo "lrwxrwxrwx root/root 21 /etc/os-release -> $(readlink deb/etc/os-release)" >want &&
	test_cmp want got
'

# Issue 38 §5: ls --json -R wrote the path (as -R shows it in text) as
# "name", and a byte outside UTF-8 as a lone surrogate (\udcff), which a
# strict parser refuses.  "name" is the last component now, and such a
# byte, like the backslash, is \ooo inside a valid string (json.c, the one
# writer of every JSON).
test_expect_success '--json -R: name is the last component, bytes outside UTF-8 as \ooo, valid for a strict parser' '
	mkdir -p jt/sub &&
	printf 1 >"$(printf "jt/sub/bad\377n")" &&
	printf 2 >"jt/sub/b\\sl" &&
	printf 3 >"jt/sub/café" &&
	"$AXFS" mkfs -q jt -o jt.axfs &&
	"$AXFS" ls --json -R jt.axfs / >jr.json &&
	! grep -i "udc" jr.json &&
	grep "\"name\": \"bad\\\\\\\\377n\", \"path\": \"/sub/bad\\\\\\\\377n\"" jr.json &&
	python3 - <<-\EOF
	import json, os, sys
	sys.path.insert(0, os.environ["AXFS_TOP"] + "/tests/tools")
	from jsonname import to_bytes
	raw = open("jr.json", "rb").read()
	j = json.loads(raw.decode("utf-8", "strict"))
	e = j["listings"][0]["entries"]
	for x in e:
	    x["name"].encode("utf-8", "strict")   # no lone surrogate
	    x["path"].encode("utf-8", "strict")
	    assert "/" not in x["name"], x
	    assert to_bytes(x["path"]).endswith(b"/" + to_bytes(x["name"])), x
	got = sorted(to_bytes(x["path"]) for x in e)
	want = [b"/sub", b"/sub/b\\sl", b"/sub/bad\xffn", "/sub/café".encode()]
	assert got == want, got
	EOF
'

test_done
