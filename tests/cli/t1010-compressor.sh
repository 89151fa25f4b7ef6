#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# axfs mkfs --compressor libdeflate|zlib and compression.compressor: both
# write images that extract to the source tree, that fsck --deep finds
# clean and that the independent 2008-driver reader (seedread.py, which
# inflates with Python's zlib) reads; the two give different bytes of the
# same files; each takes its own levels; the command line wins over the
# policy; the bytes do not depend on -j.
. "$(dirname "$0")/lib.sh"

# Text, a binary, incompressible noise (stored byte-aligned), small files
# and tails that share cblocks, links, an empty file.
test_expect_success 'setup: a tree of every kind of data' '
	mkdir -p tree/bin tree/etc tree/usr/share/doc tree/var &&
	cp "$AXFS" tree/bin/axfs &&
	ln -s axfs tree/bin/mkfs.axfs &&
	for i in 1 2 3 4 5 6 7 8; do
		seq $i 3 9000 >tree/etc/conf$i || return 1
	done &&
	cat "$AXFS_TOP"/man/*.[158] >tree/usr/share/doc/manual &&
	head -c 200000 /dev/urandom >tree/var/noise &&
	ln tree/etc/conf1 tree/etc/conf1.hard &&
	printf "x" >tree/etc/one &&
	: >tree/var/empty &&
	"$AXFS" mkfs -q tree -o default.axfs
'

for c in libdeflate zlib; do
	test_expect_success "--compressor $c: extracts to the source, fsck --deep is clean" '
		"$AXFS" mkfs -q --compressor '$c' tree -o '$c'.axfs &&
		"$AXFS" fsck --deep '$c'.axfs &&
		rm -rf out-'$c' && "$AXFS" extract -q '$c'.axfs out-'$c' &&
		diff -r tree out-'$c'
	'
	test_expect_success "--compressor $c: the 2008 driver reads every file (seedread)" '
		seedread compare '$c'.axfs tree &&
		seedread list '$c'.axfs >'$c'.json
	'
done

test_expect_success 'libdeflate is the default' '
	cmp default.axfs libdeflate.axfs
'

test_expect_success 'the two compressors write different bytes of the same files' '
	! cmp -s libdeflate.axfs zlib.axfs &&
	cmp libdeflate.json zlib.json &&
	diff -r out-libdeflate out-zlib &&
	"$AXFS" dump --pages zlib.axfs | grep -q "compressed" &&
	"$AXFS" dump --pages libdeflate.axfs | grep -q "compressed"
'

test_expect_success 'the bytes are the same for every -j, with either compressor' '
	for c in libdeflate zlib; do
		for j in 1 2 3; do
			"$AXFS" mkfs -q --compressor $c -j $j tree -o j$j.axfs &&
			cmp $c.axfs j$j.axfs || return 1
		done
	done
'

test_expect_success 'libdeflate takes levels 1 to 12' '
	"$AXFS" mkfs -q --compressor libdeflate -l 12 tree -o l12.axfs &&
	"$AXFS" fsck --deep l12.axfs &&
	seedread compare l12.axfs tree &&
	! cmp -s l12.axfs libdeflate.axfs &&
	"$AXFS" mkfs -q -l 1 tree -o l1.axfs && "$AXFS" fsck -q l1.axfs &&
	seedread compare l1.axfs tree
'

test_expect_success 'a level out of the range is a usage error naming the compressor, and writes nothing' '
	"$AXFS" mkfs --compressor libdeflate -l 13 tree -o bad.axfs 2>err; rc=$? &&
	test $rc -eq 16 &&
	grep -x "axfs mkfs: invalid level .13.: libdeflate takes 1 to 12" err &&
	"$AXFS" mkfs -l 13 tree -o bad.axfs 2>err; rc=$? &&
	test $rc -eq 16 && grep -q "libdeflate takes 1 to 12" err &&
	"$AXFS" mkfs --compressor zlib -l 10 tree -o bad.axfs 2>err; rc=$? &&
	test $rc -eq 16 &&
	grep -x "axfs mkfs: invalid level .10.: zlib takes 1 to 9" err &&
	"$AXFS" mkfs -l 10 --compressor zlib tree -o bad.axfs 2>err; rc=$? &&
	test $rc -eq 16 && grep -q "zlib takes 1 to 9" err &&
	test ! -e bad.axfs && ! ls -A | grep -q "^\.bad\.axfs\."
'

test_expect_success 'an unknown compressor is a usage error' '
	"$AXFS" mkfs --compressor foo tree -o bad.axfs 2>err; rc=$? &&
	test $rc -eq 16 &&
	grep -x "axfs mkfs: invalid compressor .foo.: use libdeflate or zlib" err &&
	"$AXFS" mkfs --compressor tree -o bad.axfs 2>err; rc=$? &&
	test $rc -eq 16 && grep -q "invalid compressor" err &&
	test ! -e bad.axfs
'

test_expect_success 'compression.compressor in a policy; the command line wins' '
	printf "compression: {compressor: zlib}\n" >z.yaml &&
	"$AXFS" mkfs -q -c z.yaml tree -o pz.axfs &&
	cmp pz.axfs zlib.axfs &&
	"$AXFS" mkfs -q -c z.yaml --compressor libdeflate tree -o pl.axfs &&
	cmp pl.axfs libdeflate.axfs &&
	printf "compression: {compressor: libdeflate, level: 12}\n" >l.yaml &&
	"$AXFS" mkfs -q -c l.yaml tree -o pl12.axfs &&
	cmp pl12.axfs l12.axfs
'

test_expect_success 'a policy level that a command-line compressor does not take names the policy line' '
	printf "compression:\n  level: 12\n" >p12.yaml &&
	"$AXFS" mkfs -q -c p12.yaml tree -o p12.axfs &&
	cmp p12.axfs l12.axfs &&
	"$AXFS" mkfs -c p12.yaml --compressor zlib tree -o bad.axfs 2>err; rc=$? &&
	test $rc -eq 8 &&
	grep -x "axfs mkfs: p12.yaml:2:10: compression.level: 12 is out of range for zlib (1 to 9)" err &&
	"$AXFS" mkfs -q -c p12.yaml --compressor zlib -l 9 tree -o pz9.axfs &&
	cmp pz9.axfs zlib.axfs &&
	printf "compression: {compressor: zlib}\n" >z.yaml &&
	"$AXFS" mkfs -c z.yaml -l 11 tree -o bad.axfs 2>err; rc=$? &&
	test $rc -eq 16 && grep -q "zlib takes 1 to 9" err &&
	test ! -e bad.axfs
'

test_expect_success 'the reports name the compressor, its version and the level' '
	v=$("$AXFS" --version | sed -n "s/^compressors: libdeflate \([^ ]*\) (default), zlib \([^ ]*\)$/\1 \2/p") &&
	test -n "$v" && ld=${v% *} && zv=${v#* } &&
	"$AXFS" mkfs --version | grep -x "compressors: libdeflate $ld (default), zlib $zv" &&
	"$AXFS" mkfs -q -l 7 tree -o r.axfs --report r.txt --report-json r.json &&
	grep -x "compressor: *libdeflate $ld, level 7" r.txt &&
	python3 -c "
import json, sys
c = json.load(open(\"r.json\"))[\"compressor\"]
assert c == {\"name\": \"libdeflate\", \"version\": \"$ld\", \"level\": 7}, c
" &&
	"$AXFS" mkfs -q --compressor zlib tree -o r.axfs --report-json - >rz.json &&
	python3 -c "
import json
c = json.load(open(\"rz.json\"))[\"compressor\"]
assert c == {\"name\": \"zlib\", \"version\": \"$zv\", \"level\": 9}, c
"
'

test_done
