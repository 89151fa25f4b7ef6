#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# axfs fsck against thousands of seeded single-byte and truncation mutants
# of real images (tests/tools/fsck_sweep.py): it never crashes, never hangs
# and never fails to read a readable file (exit 0 or 4 only); with the
# digest every mutant is reported, and whatever it calls clean extracts to
# exactly the original tree; without the digest, whatever it calls clean
# still extracts.  Also: 40 small corruptions spread evenly over a real
# image (and of images of real trees, split ones too) are all reported.
# Seeds are fixed, so a failure reproduces; set
# AXFS_SWEEP_SCALE=N to run N times as many mutants.
. "$(dirname "$0")/lib.sh"

scale=${AXFS_SWEEP_SCALE:-1}
# run-tests.sh runs every script again under ASan+UBSan, where each fsck
# is several times slower: a sixteenth of the random mutants and a
# quarter of the spread ones there (they look for memory errors; the full
# counts run in the normal pass, and the fuzz targets cover the same
# readers), keeps make check within its time budget.
div=1 spread=40
test "${AXFS_SANITIZED:-0}" = 1 && div=16 spread=10
sweep() { python3 "$AXFS_TOP/tests/tools/fsck_sweep.py" --axfs "$AXFS" "$@"; }
. "$AXFS_TOP/tests/cli/lib-hostile.sh"

mk_tree() {
	python3 - "$1" "$AXFS_TOP/tests/tools" <<-'EOF'
	import sys
	sys.path.insert(0, sys.argv[2])
	from treegen import Tree
	t = Tree(sys.argv[1], 3100)
	t.file("bin/prog", t.random(20000), 0o755)
	t.file("bin/tool", t.random(5000), 0o755)
	t.file("etc/conf", b"".join(b"key%d=%d\n" % (i, i * i) for i in range(3000)))
	t.file("etc/rand", t.random(6000))
	t.file("etc/b64", t.b64(20000))
	t.file("etc/empty", b"")
	for i in range(30):
	    t.file("share/doc/f%02d.txt" % i, b"doc %d\n" % i * (i * 40 + 1))
	t.link("etc/conf", "etc/hl")
	t.symlink("prog", "bin/sh")
	t.symlink("../etc/conf", "bin/conf")
	t.dir("var/empty")
	EOF
}

test_expect_success 'build real images' '
	mk_tree tree &&
	"$AXFS" mkfs -q --xip /bin/prog -b 8KiB tree -o a.axfs &&
	"$AXFS" mkfs -q --compress-metadata=yes -b 64KiB tree -o b.axfs &&
	"$AXFS" fsck -q a.axfs && "$AXFS" fsck -q b.axfs
'

test_expect_success 'digest on: every byte and truncation mutant is reported' '
	sweep --image a.axfs --tree tree --seed 1 \
		--bytes $((1500 * scale / div)) --truncations $((150 * scale / div)) &&
	sweep --image b.axfs --tree tree --seed 2 \
		--bytes $((700 * scale / div)) --truncations $((70 * scale / div))
'

test_expect_success 'digest off: never a crash or 8, and clean means extractable' '
	sweep --image a.axfs --tree tree --seed 3 --no-digest \
		--bytes $((800 * scale / div)) --truncations $((50 * scale / div)) &&
	sweep --image b.axfs --tree tree --seed 4 --no-digest \
		--bytes $((500 * scale / div)) --truncations $((50 * scale / div))
'

test_expect_success 'small corruptions (40; 10 under sanitizers) spread evenly are all reported' '
	sweep --image a.axfs --spread $spread >out && cat out &&
	grep "^ok: [0-9]* mutants, [0-9]* reported (exit 4), 0 clean" out &&
	sweep --image b.axfs --spread $spread >out && grep "^ok:" out
'

# Real trees (the example root file system, the project's sources), with
# XIP pages, 4 KiB and 1 MiB cblocks, and a split image: the bytes at
# i*len/40 and between them, each flipped, zeroed, set to 0xff and
# incremented, are all reported.
test_expect_success 'spread corruptions of images of real trees are all reported' '
	mkdir -p src && cp -R "$AXFS_TOP/libaxfsimg" "$AXFS_TOP/man" src/ &&
	"$AXFS" mkfs -q -b 4KiB --xip "/**" "$AXFS_TOP/examples/rootfs" \
		-o r.axfs &&
	"$AXFS" mkfs -q -b 1MiB --xip "/man/*" --compress-metadata=yes src \
		-o s.axfs &&
	"$AXFS" mkfs -q -b 4KiB --xip "/man/*" --mmap-limit 512KiB src \
		-o p.axfs &&
	"$AXFS" split p.axfs --mmap p.mmap --store p.store &&
	test -s p.store && "$AXFS" fsck -q p.mmap p.store &&
	test "$(P r.axfs region xip | cut -d" " -f2)" -gt 0 &&
	for i in r s; do
		"$AXFS" fsck -q $i.axfs &&
		sweep --image $i.axfs --spread $spread >out && cat out &&
		grep "^ok: [0-9]* mutants, [0-9]* reported (exit 4), 0 clean" out ||
		return 1
	done &&
	sweep --image p.axfs --split-at $(stat -c %s p.mmap) --spread $spread >out &&
	cat out && grep "^ok:.* 0 clean" out
'

test_done
