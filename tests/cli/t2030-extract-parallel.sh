#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# axfs extract -j: file data inflated ahead on threads comes back the same
# for every number of threads, in files cut into several read-ahead jobs
# and jobs holding hundreds of small files; holes stay holes; a corrupt
# cblock in the middle stops the extraction at the file it belongs to.
. "$(dirname "$0")/lib.sh"

test_expect_success 'setup: many small files, large ones, sparse ones' '
	mkdir -p tree/small tree/big tree/sparse tree/empty &&
	i=0 &&
	while test $i -lt 1300; do
		head -c $((i * 7 % 5000 + 1)) /dev/urandom >tree/small/f$i &&
		i=$((i + 1)) || return 1
	done &&
	: >tree/empty/zero &&
	head -c 5300000 /dev/urandom >tree/big/random &&
	seq 1 900000 >tree/big/text &&
	head -c 2097152 /dev/urandom >tree/big/exactly-2MiB &&
	head -c 4096 /dev/zero >tree/sparse/one-zero-page &&
	printf head >tree/sparse/holes &&
	truncate -s 3000000 tree/sparse/holes &&
	printf tail >>tree/sparse/holes &&
	printf head >tree/sparse/ends-in-hole &&
	truncate -s 9000000 tree/sparse/ends-in-hole &&
	"$AXFS" mkfs -q tree -o img.axfs &&
	"$AXFS" mkfs -q -b 4KiB tree -o img4k.axfs
'

for j in 1 2 3 8; do
	test_expect_success "-j $j extracts every byte" '
		"$AXFS" extract -q -j '$j' img.axfs out'$j' &&
		diff -r tree out'$j' &&
		"$AXFS" extract -q --jobs='$j' img4k.axfs out4k'$j' &&
		diff -r tree out4k'$j'
	'
done

test_expect_success 'zero pages become holes, also at the end of a file' '
	test $(stat -c %s out2/sparse/ends-in-hole) = 9000000 &&
	test $(stat -c %b out2/sparse/ends-in-hole) -lt 100 &&
	test $(stat -c %b out2/sparse/holes) -lt 100 &&
	test $(stat -c %s out2/sparse/one-zero-page) = 4096
'

# corrupt IMAGE: overwrites 64 bytes in the middle of the compressed
# region (a cblock's zlib stream).
corrupt() {
	python3 - "$1" <<-\EOF
	import json, os, subprocess, sys
	img = sys.argv[1]
	d = json.loads(subprocess.check_output([os.environ["AXFS"], "dump", "--json", "--regions", img]))
	r = [r for r in d["regions"] if r["name"] == "compressed"][0]
	assert r["compressed_size"] == 0 and r["size"] > 4096, r
	with open(img, "r+b") as f:
	    f.seek(r["fsoffset"] + r["size"] // 2)
	    f.write(b"\xa5" * 64)
	EOF
}

test_expect_success 'a corrupt cblock stops at its file, leaving no part of it' '
	cp img4k.axfs bad.axfs &&
	corrupt bad.axfs &&
	for j in 1 4; do
		rm -rf bad$j &&
		test_expect_code 8 "$AXFS" extract -q -j $j bad.axfs bad$j 2>err$j &&
		cat err$j &&
		grep "^axfs extract: .bad.axfs.: byte [0-9]*: cblock [0-9]*.*(reading ./[a-z]*/[a-z0-9-]*.)$" err$j &&
		f=$(sed -n "s/.*(reading .\(.*\).)$/\1/p" err$j) &&
		test -n "$f" && test ! -e "bad$j$f" || return 1
	done &&
	cmp err1 err4
'

test_expect_success 'a bad number of jobs is a usage error' '
	test_expect_code 16 "$AXFS" extract -j x img.axfs o1 2>err &&
	grep "invalid number of jobs .x." err &&
	test_expect_code 16 "$AXFS" extract -j 5000 img.axfs o2 &&
	test ! -e o1 && test ! -e o2
'

test_done
