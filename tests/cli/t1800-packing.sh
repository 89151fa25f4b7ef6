#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# axfs mkfs packing: small files share cblocks, incompressible data is
# stored byte-aligned, identical files are stored once, every block size
# reads back as the 2008 driver reads it, and -j never changes a byte.
. "$(dirname "$0")/lib.sh"

# COUNT of the region NAME in `axfs dump --regions` (max_index column).
region_count() {
	"$AXFS" dump --regions "$1" | awk -v r="$2" '$1 == r { print $6 }'
}

# The page lines of image path PATH in `axfs dump --pages` output FILE.
pages_of() {
	awk -v p="$2" '/^[^ ]/ { on = ($NF == p) } /^    page / && on' "$1"
}

test_expect_success 'setup: small files, random data, duplicates, links' '
	mkdir -p t/small t/dup t/rand &&
	i=0 && while [ $i -lt 200 ]; do
		printf "file %d of many small ones\n" $i >t/small/f$i || exit 1
		i=$((i + 1))
	done &&
	head -c 300000 /dev/urandom >t/rand/noise &&
	seq 1 40000 >t/dup/one &&
	cp t/dup/one t/dup/two &&
	cp t/dup/one t/three &&
	seq 2 40001 >t/dup/same-size-other &&
	head -c 1200000 /dev/urandom >t/dup/big1 &&
	cp t/dup/big1 t/dup/big2 &&
	ln t/dup/one t/hard &&
	ln -s small/f1 t/sym1 && ln -s small/f1 t/sym2 &&
	: >t/empty
'

test_expect_success 'every block size reads back as the driver reads it' '
	for b in 4KiB 8KiB 64KiB 128KiB 1MiB; do
		"$AXFS" mkfs -q -b $b t -o b.axfs &&
		seedread compare --no-owner b.axfs t || exit 1
	done
'

test_expect_success 'two hundred small files share a few cblocks' '
	mkdir -p s && cp -r t/small s/ &&
	"$AXFS" mkfs -q -b 64KiB s -o s.axfs &&
	n=$(region_count s.axfs compressed) &&
	echo "cblocks: $n" && test "$n" -eq 1
'

test_expect_success 'random data is byte-aligned, never a cblock that grew' '
	mkdir -p r && cp t/rand/noise r/ && cp t/dup/big1 r/ &&
	"$AXFS" mkfs -q -b 64KiB r -o r.axfs &&
	"$AXFS" dump --pages r.axfs >pages &&
	test "$(grep -c " byte-aligned index " pages)" -eq $((74 + 293)) &&
	test "$(region_count r.axfs compressed)" -eq 0 &&
	seedread compare --no-owner r.axfs r
'

test_expect_success 'identical files are stored once, others are not' '
	"$AXFS" mkfs -q -b 64KiB t -o t.axfs &&
	"$AXFS" dump --pages t.axfs >pages &&
	first() { pages_of pages "/$1" | sed -n "s/^ *page 0: node \([0-9]*\) .*/\1/p"; } &&
	test "$(first dup/one)" = "$(first dup/two)" &&
	test "$(first dup/one)" = "$(first three)" &&
	test "$(first dup/one)" = "$(first hard)" &&
	test "$(first dup/big1)" = "$(first dup/big2)" &&
	test "$(first dup/one)" != "$(first dup/same-size-other)" &&
	test "$(first sym1)" = "$(first sym2)" &&
	# the image holds one copy of the 1.2 MB random file, not two
	test "$(stat -c %s t.axfs)" -lt 2000000
'

test_expect_success 'the bytes do not depend on -j' '
	"$AXFS" mkfs -q -j 1 -b 16KiB t -o j1.axfs &&
	for j in 2 3 8; do
		"$AXFS" mkfs -q -j $j -b 16KiB t -o j$j.axfs &&
		cmp j1.axfs j$j.axfs || exit 1
	done
'

test_done
