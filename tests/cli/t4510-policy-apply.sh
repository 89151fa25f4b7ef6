#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# A policy that parses is applied exactly: every key is checked in a real
# image with the independent reader (tests/tools/seedread.py) and with
# axfs dump, and command-line options win over the policy.
. "$(dirname "$0")/lib.sh"

# check IMAGE PYTHON: runs PYTHON with `img` = seedread's JSON of IMAGE
# (read once per image).
check() {
	[ -s "$1.json" ] || seedread list "$1" >"$1.json" || return 1
	python3 -c "
import json, stat, sys
img = json.load(open('$1.json'))
def e(p):
    return img[p]
$2
"
}

mkdir -p tree/bin tree/etc/init.d tree/usr/share/doc tree/www tree/dev &&
cp /bin/true tree/bin/busybox &&
ln -s busybox tree/bin/sh &&
echo 'root:x:0:0::/root:/bin/sh' >tree/etc/passwd &&
chmod 600 tree/etc/passwd &&
printf '#!/bin/sh\necho hi\n' >tree/etc/init.d/rcS &&
chmod 644 tree/etc/init.d/rcS &&
seq 1 20000 >tree/etc/big.conf &&
seq 1 6000 >tree/usr/share/doc/big.txt &&
echo placeholder >tree/dev/console &&
chown -R 1000:1000 tree 2>/dev/null
chmod 755 tree/www || exit 1

cat >full.yaml <<-EOF || exit 1
compression: {level: 1, block-size: 4KiB}
xip:
  files: [/bin/busybox, /usr/share/doc/big.txt]
  exclude: ["/usr/share/**"]
owners: {all-root: true}
files:
  - {match: "/etc/**", type: file, mode: "0644"}
  - {match: "/etc/init.d/*", type: file, mode: "0755"}
  - {match: /usr/share/doc/big.txt, compress: none}
  - {match: /www, type: dir, mode: "0750", uid: 33, gid: 33}
devices:
  - {path: /dev/console, type: char, major: 5, minor: 1}
  - {path: /dev/sda1, type: block, major: 8, minor: 1, mode: "0660", gid: 6}
  - {path: /dev/initctl, type: fifo}
  - {path: /run/sock, type: socket, mode: "0777"}
  - {path: /proc, type: dir, mode: "0555"}
timestamp: 2024-01-01
EOF

test_expect_success 'mkfs builds with the full policy and reports the replaced entry' '
	"$AXFS" mkfs -c full.yaml tree -o full.axfs 2>err &&
	grep -xF "axfs mkfs: warning: full.yaml:12:5: devices[0]: '\''/dev/console'\'' replaces the file from the source" err &&
	! grep "matches" err
'

test_expect_success 'owners: all-root, except where a rule or a device says otherwise' '
	check full.axfs "
for p, x in img.items():
    want = (33, 33) if p == \"/www\" else (0, 6) if p == \"/dev/sda1\" else (0, 0)
    assert (x[\"uid\"], x[\"gid\"]) == want, (p, x[\"uid\"], x[\"gid\"])
"
'

test_expect_success 'files rules: modes in order, later rules win, type filters' '
	check full.axfs "
assert e(\"/etc/passwd\")[\"mode\"] == stat.S_IFREG | 0o644, oct(e(\"/etc/passwd\")[\"mode\"])
assert e(\"/etc/big.conf\")[\"mode\"] == stat.S_IFREG | 0o644
assert e(\"/etc/init.d/rcS\")[\"mode\"] == stat.S_IFREG | 0o755
assert e(\"/etc/init.d\")[\"mode\"] == stat.S_IFDIR | 0o755
assert e(\"/www\")[\"mode\"] == stat.S_IFDIR | 0o750
assert e(\"/bin/sh\")[\"type\"] == \"lnk\"
"
'

test_expect_success 'devices: types, numbers, default and given modes, parents' '
	check full.axfs "
c = e(\"/dev/console\")
assert (c[\"type\"], c[\"rdev_major\"], c[\"rdev_minor\"], c[\"mode\"]) == (\"chr\", 5, 1, stat.S_IFCHR | 0o600), c
b = e(\"/dev/sda1\")
assert (b[\"type\"], b[\"rdev_major\"], b[\"rdev_minor\"], b[\"mode\"]) == (\"blk\", 8, 1, stat.S_IFBLK | 0o660), b
assert e(\"/dev/initctl\")[\"mode\"] == stat.S_IFIFO | 0o600
assert e(\"/run/sock\")[\"mode\"] == stat.S_IFSOCK | 0o777
assert e(\"/run\")[\"mode\"] == stat.S_IFDIR | 0o755
assert e(\"/proc\")[\"mode\"] == stat.S_IFDIR | 0o555
"
'

test_expect_success 'timestamp: every inode gets it' '
	check full.axfs "
for p, x in img.items():
    assert x[\"mtime\"] == 1704067200, (p, x[\"mtime\"])
"
'

test_expect_success 'xip.files are XIP page by page, xip.exclude wins over them' '
	seedread xip full.axfs >xip.txt &&
	n=$(( ($(wc -c <tree/bin/busybox) + 4095) / 4096 )) &&
	test $(wc -l <xip.txt) -eq $n &&
	test $(grep -c "^/bin/busybox," xip.txt) -eq $n
'

test_expect_success 'compression: block size in the superblock, compress: none stores byte-aligned' '
	"$AXFS" dump --superblock full.axfs >sb &&
	grep -E "^ *cblock_size +4096$" sb &&
	"$AXFS" dump --pages full.axfs >pages &&
	sed -n "/ \/usr\/share\/doc\/big.txt$/,/^[^ ]/p" pages | grep "page [0-9]*:" >big &&
	test $(wc -l <big) -ge 6 &&
	! grep -v byte-aligned big &&
	sed -n "/ \/etc\/big.conf$/,/^[^ ]/p" pages | grep "page 0:" | grep compressed
'

# The report names the level the image was built with.  (Image sizes do
# not tell: on this tree, seq(1) output, libdeflate's level 9 is larger
# than its level 1, as its levels 3 to 9 are on such data, measured.)
test_expect_success 'compression.level: the command line wins' '
	"$AXFS" mkfs -q -c full.yaml tree -o l1.axfs --report-json l1.json &&
	"$AXFS" mkfs -q -c full.yaml --level 9 tree -o l9.axfs --report-json l9.json &&
	grep -F "\"compressor\": {\"name\": \"libdeflate\"" l1.json &&
	grep -F "\"level\": 1}" l1.json && grep -F "\"level\": 9}" l9.json &&
	! cmp -s l1.axfs l9.axfs &&
	"$AXFS" mkfs -q -c full.yaml -l 1 tree -o l1b.axfs &&
	cmp l1.axfs l1b.axfs &&
	"$AXFS" mkfs -q -c full.yaml --compressor zlib tree -o z1.axfs &&
	"$AXFS" mkfs -q -c full.yaml --compressor zlib -l 9 tree -o z9.axfs &&
	test $(wc -c <z9.axfs) -le $(wc -c <z1.axfs) && ! cmp -s z1.axfs z9.axfs
'

test_expect_success 'command-line block size and mtime win over the policy' '
	"$AXFS" mkfs -q -c full.yaml -b 8KiB --mtime 1000 tree -o cli.axfs &&
	"$AXFS" dump --superblock cli.axfs | grep -E "^ *cblock_size +8192$" &&
	check cli.axfs "
for p, x in img.items():
    assert x[\"mtime\"] == 1000, p
"
'

# axfs-mkfs(1): --all-root, --uid and --gid replace the policy's owners
# section; the files rules and the devices keep their owners.
test_expect_success 'command-line --uid replaces the policy owners section' '
	"$AXFS" mkfs -q -c full.yaml --uid 7 tree -o uid.axfs &&
	check uid.axfs "
want = {\"/www\": 33, \"/dev/sda1\": 0, \"/dev/console\": 0,
        \"/dev/initctl\": 0, \"/run/sock\": 0, \"/proc\": 0}
for p, x in img.items():
    assert x[\"uid\"] == want.get(p, 7), (p, x[\"uid\"])
"
'

test_expect_success 'command-line --all-root replaces policy owners uid/gid' '
	printf "owners: {uid: 5, gid: 6}\n" >own5.yaml &&
	"$AXFS" mkfs -q -c own5.yaml --all-root tree -o root.axfs &&
	check root.axfs "
for p, x in img.items():
    assert (x[\"uid\"], x[\"gid\"]) == (0, 0), p
"
'

test_expect_success 'owners.uid/gid force every source entry' '
	printf "owners: {uid: 5, gid: 6}\n" >own.yaml &&
	"$AXFS" mkfs -q -c own.yaml tree -o own.axfs &&
	check own.axfs "
for p, x in img.items():
    assert (x[\"uid\"], x[\"gid\"]) == (5, 6), p
"
'

test_expect_success 'a rule with xip: false beats xip.files' '
	cat >nox.yaml <<-EOF &&
	xip: {files: ["/bin/*"]}
	files:
	  - {match: /bin/busybox, xip: false}
	EOF
	"$AXFS" mkfs -q -c nox.yaml tree -o nox.axfs &&
	seedread xip nox.axfs >xip.txt &&
	test ! -s xip.txt
'

test_expect_success 'xip.budget and xip.min-count reach the planner' '
	cp -R tree tree2 &&
	seq 1 30000 >tree2/etc/big.conf &&
	printf "%s\n" ./etc/big.conf,0,1 ./etc/big.conf,4096,9 \
		./etc/big.conf,8192,5 ./etc/big.conf,12288,7 >prof.csv &&
	printf "xip: {budget: 8KiB, min-count: 2}\n" >budget.yaml &&
	"$AXFS" mkfs -q -c budget.yaml -p prof.csv tree2 -o budget.axfs &&
	seedread xip budget.axfs >xip.txt &&
	printf "%s\n" /etc/big.conf,12288 /etc/big.conf,4096 >expect &&
	sort xip.txt | cmp - expect &&
	printf "xip: {min-count: 6}\n" >minc.yaml &&
	"$AXFS" mkfs -q -c minc.yaml -p prof.csv tree2 -o minc.axfs &&
	seedread xip minc.axfs | sort >xip.txt &&
	cmp xip.txt expect
'

test_expect_success 'split.mmap-limit lays the image out for a split' '
	printf "split: {mmap-limit: 16MiB}\n" >split.yaml &&
	"$AXFS" mkfs -q -c split.yaml tree -o split.axfs &&
	"$AXFS" dump --superblock split.axfs >sb &&
	grep -E "^ *mmap_size .*split" sb
'

test_expect_success 'the same policy gives the same bytes' '
	"$AXFS" mkfs -q -c full.yaml tree -o again.axfs &&
	cmp full.axfs again.axfs
'

test_expect_success 'the example policy builds the example tree without warnings; its profile picks the XIP pages' '
	cp -R "$AXFS_TOP/examples/rootfs" ex &&
	cp /bin/true ex/bin/busybox &&
	mkdir -p ex/usr/share/axfs-demo && seq 1 40000 | gzip -9n >ex/usr/share/axfs-demo/numbers.txt.gz &&
	"$AXFS" mkfs -c "$AXFS_TOP/examples/policy.yaml" ex -o ex.axfs 2>err &&
	! grep "policy.yaml" err &&
	check ex.axfs "
assert e(\"/dev/null\")[\"rdev_major\"] == 1 and e(\"/dev/null\")[\"mode\"] == stat.S_IFCHR | 0o666
assert all(x[\"uid\"] == 0 for x in img.values())
" &&
	! seedread xip ex.axfs | grep "^/bin/busybox," &&
	awk -F, "/^[^#]/ && \$3 >= 2 && \$2 < $(wc -c <ex/bin/busybox) { n++ } END { print n + 0 }" \
		"$AXFS_TOP/examples/profile.csv" >want &&
	test "$(cat want)" -gt 0 &&
	"$AXFS" mkfs -q -c "$AXFS_TOP/examples/policy.yaml" -p "$AXFS_TOP/examples/profile.csv" \
		ex -o exp.axfs 2>err &&
	seedread xip exp.axfs | grep -c "^/bin/busybox," >n &&
	test_cmp want n
'

test_done
