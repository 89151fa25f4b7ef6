#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# mkfs then extract: every file type and edge size comes back with its
# content and metadata, and the independent seed-driver reader sees the
# same tree in the image as on disk.
. "$(dirname "$0")/lib.sh"

root=false
test "$(id -u)" = 0 && root=true


# same_content A B: diff -r, where device nodes, fifos and sockets of the
# same kind on both sides (which diff cannot compare) are no difference.
same_content() {
	diff -r --no-dereference "$1" "$2" >diff.out
	grep -v -E "^File .* is a (character special file|block special file|socket|fifo) while file .* is a \1$" diff.out >diff.left
	cat diff.left
	! test -s diff.left
}

# make_tree DIR: every file type and the edge sizes.
make_tree() {
	t=$1
	mkdir -p "$t/bin" "$t/etc" "$t/many" "$t/links" "$t/modes" "$t/names" &&
	: >"$t/etc/empty" &&
	printf x >"$t/etc/one" &&
	for n in 4095 4096 4097 65535 65536 65537 131071 131073; do
		head -c $n /dev/urandom >"$t/bin/r$n" || return 1
	done &&
	head -c 1048576 /dev/urandom >"$t/bin/random1m" &&
	yes "a line of text that compresses well" | head -c 300001 >"$t/etc/text" &&
	head -c 262144 /dev/zero >"$t/etc/zeros" &&
	{ head -c 5000 /dev/urandom; head -c 70000 /dev/zero; } >"$t/etc/mixed" &&
	long=$(printf "%0255d" 0 | tr 0 L) &&
	printf long >"$t/names/$long" &&
	mkdir "$t/names/$(printf "%0255d" 0 | tr 0 D)" &&
	printf sp >"$t/names/with space" &&
	printf nl >"$t/names/new
line" &&
	printf dash >"$t/names/-dash" &&
	printf hi >"$t/names/$(printf "\377\376latin1")" &&
	printf utf >"$t/names/$(printf "\303\251t\303\251")" &&
	(cd "$t/many" && seq -f "entry%05g" 10000 | xargs touch) &&
	printf content >"$t/many/entry05000" &&
	d="$t/deep" && i=0 &&
	while [ $i -lt 200 ]; do d="$d/level$i"; i=$((i + 1)); done &&
	mkdir -p "$d" && printf bottom >"$d/file" &&
	printf linked >"$t/links/h1" && ln "$t/links/h1" "$t/links/h2" &&
	ln "$t/links/h1" "$t/etc/h3" &&
	ln -s h1 "$t/links/rel" &&
	ln -s /etc/passwd "$t/links/abs" &&
	ln -s ../../nowhere "$t/links/dangling" &&
	ln -s "$(printf "%04095d" 0 | tr 0 x)" "$t/links/long" &&
	ln -s "../bin/r4096" "$t/links/file" &&
	printf s >"$t/modes/suid" && chmod 4755 "$t/modes/suid" &&
	printf g >"$t/modes/sgid" && chmod 2711 "$t/modes/sgid" &&
	mkdir "$t/modes/sticky" && chmod 1777 "$t/modes/sticky" &&
	mkdir "$t/modes/ro" && printf r >"$t/modes/ro/f" && chmod 0555 "$t/modes/ro" &&
	printf p >"$t/modes/private" && chmod 0600 "$t/modes/private" &&
	mkfifo "$t/modes/fifo" &&
	if $root; then
		mkdir "$t/dev" &&
		mknod "$t/dev/null" c 1 3 && mknod "$t/dev/loop0" b 7 0 &&
		mknod "$t/dev/max" c 255 255 && chmod 0620 "$t/dev/max" &&
		printf z >"$t/modes/none" && chmod 0000 "$t/modes/none" &&
		printf o >"$t/modes/owned" && chown 1234:5678 "$t/modes/owned" &&
		chown -h 42:43 "$t/links/rel" &&
		chown 7:8 "$t/many" &&
		python3 -c "import socket,sys; socket.socket(socket.AF_UNIX).bind(sys.argv[1])" \
			"$t/dev/sock"
	fi
}

test_expect_success 'a tree with every file type and the edge sizes' '
	make_tree tree
'

test_expect_success 'mkfs (64 KiB cblocks) and extract' '
	"$AXFS" mkfs -q -b 65536 tree -o img.axfs &&
	"$AXFS" extract -q img.axfs out
'

test_expect_success 'extracted content is identical (diff -r)' '
	same_content tree out
'

# Types, permission bits, owners, sizes, symlink targets and device
# numbers; every entry has the image time.  (Content is compared by diff -r;
# AXFS stores no hard links, so nlink is not compared.)
test_expect_success 'extracted metadata matches the source' '
	compare_trees tree out --owners --mtime "$SOURCE_DATE_EPOCH"
'

test_expect_success 'the seed driver reads the source tree from the image' '
	seedread compare img.axfs tree
'

test_expect_success 'the seed driver agrees with the extracted tree, times included' '
	seedread compare --mtime img.axfs out
'

test_expect_success 'dump lists every path of the tree' '
	"$AXFS" dump --inodes img.axfs >list &&
	n=$(find tree | wc -l) &&
	test $(grep -c "^[-dlcbps]" list) -ge $((n - 1)) &&
	grep " /many/entry10000$" list &&
	grep " /links/rel -> h1$" list
'

test_expect_success 'XIP pages, 4 KiB and 1 MiB cblocks read back the same' '
	mkdir -p small/bin &&
	for n in 0 1 4095 4096 4097 1048575 1048576 1048577; do
		head -c $n /dev/urandom >small/bin/r$n || return 1
	done &&
	yes compressible | head -c 2100000 >small/text &&
	ln -s bin/r1 small/link &&
	set -f &&
	for opts in "-b 4096" "-b 1048576" "-b 65536 --xip /bin/*" "--xip /**"; do
		rm -rf o && "$AXFS" mkfs -q $opts small -o s.axfs &&
		"$AXFS" extract -q s.axfs o &&
		same_content small o &&
		seedread compare --mtime s.axfs o || { echo "failed with $opts"; return 1; }
	done
'

test_expect_success 'XIP pages listed by the seed reader are the --xip files' '
	"$AXFS" mkfs -q --xip "/bin/r4097" small -o x.axfs &&
	seedread xip x.axfs >xip &&
	printf "/bin/r4097,0\n/bin/r4097,4096\n" >want &&
	cmp want xip
'

test_expect_success 'an existing empty DIR is fine, a non-empty one needs --force' '
	mkdir empty && "$AXFS" extract -q s.axfs empty &&
	same_content small empty &&
	! "$AXFS" extract -q s.axfs empty 2>err &&
	grep "is not empty (use --force" err &&
	"$AXFS" extract -q --force s.axfs empty &&
	same_content small empty
'

test_expect_success '-v lists each path; --progress draws on stderr' '
	"$AXFS" extract -v --progress s.axfs o2 >paths 2>progress &&
	grep "^o2/bin/r4097$" paths &&
	grep "100%" progress
'

# fwalk_list DIR: JSON like `seedread list` (type, mode, owner, size,
# sha256, symlink target) of a tree of any depth: os.fwalk opens each
# directory relative to its parent, so no path goes beyond PATH_MAX.
fwalk_list() {
	python3 - "$1" <<-\EOF
	import hashlib, json, os, stat, sys
	types = {stat.S_IFREG: "reg", stat.S_IFDIR: "dir", stat.S_IFLNK: "lnk"}
	out = {}
	def add(path, st, dfd, name):
	    e = {"type": types[stat.S_IFMT(st.st_mode)], "mode": st.st_mode,
	         "uid": st.st_uid, "gid": st.st_gid}
	    if e["type"] == "reg":
	        fd = os.open(name, os.O_RDONLY, dir_fd=dfd)
	        with os.fdopen(fd, "rb") as f:
	            e["sha256"] = hashlib.sha256(f.read()).hexdigest()
	        e["size"] = st.st_size
	    elif e["type"] == "lnk":
	        e["target"] = os.readlink(name, dir_fd=dfd)
	    out[path or "/"] = e
	top = sys.argv[1]
	add("", os.lstat(top), None, top)
	for d, dirs, files, dfd in os.fwalk(top):
	    rel = d[len(top):]
	    for n in dirs + files:
	        add(rel + "/" + n, os.stat(n, dir_fd=dfd, follow_symlinks=False), dfd, n)
	json.dump(out, sys.stdout, sort_keys=True, indent=0)
	EOF
}

# The image's view (seedread list) reduced to the fields fwalk_list has.
image_list() {
	seedread list "$1" | python3 -c '
import json, sys
keep = ("type", "mode", "uid", "gid", "sha256", "size", "target")
d = json.load(sys.stdin)
out = {p: {k: v for k, v in e.items() if k in keep and (k != "size" or e["type"] == "reg")}
       for p, e in d.items()}
json.dump(out, sys.stdout, sort_keys=True, indent=0)'
}

test_expect_success 'a tree nested deeper than PATH_MAX: built, read back, extracted' '
	mkdir -p pm/top && python3 -c "
import os
fd = os.open(\"pm/top\", os.O_RDONLY)
def put(name, data, mode=0o644):
    f = os.open(name, os.O_WRONLY | os.O_CREAT, mode, dir_fd=fd)
    os.write(f, data)
    os.close(f)
for i in range(30):
    name = \"n\" * 200 + str(i)
    os.mkdir(name, dir_fd=fd)
    nfd = os.open(name, os.O_RDONLY, dir_fd=fd)
    os.close(fd)
    fd = nfd
    put(\"file\", b\"level %d\\n\" % i)
put(\"bottom\", os.urandom(70000))
os.symlink(\"../file\", \"up\", dir_fd=fd)
os.mkdir(\"last\", 0o700, dir_fd=fd)
fd = os.open(\"last\", os.O_RDONLY, dir_fd=fd)
put(\"f\", b\"end\", 0o600)
" &&
	"$AXFS" mkfs -q pm -o pm.axfs &&
	fwalk_list pm >want.json && image_list pm.axfs >got.json &&
	test "$(grep -c sha256 want.json)" -eq 32 &&
	cmp want.json got.json &&
	"$AXFS" extract -q pm.axfs pm.out &&
	fwalk_list pm.out >back.json && cmp want.json back.json
'

test_done
