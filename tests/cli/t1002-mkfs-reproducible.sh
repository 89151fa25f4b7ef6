#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# axfs mkfs: the same input and options give the same bytes, whatever the
# readdir order, -j, the locale; the timestamp comes from --mtime, else
# SOURCE_DATE_EPOCH, else now.
. "$(dirname "$0")/lib.sh"

# A tree with several files per directory, created in the order the
# arguments give (forward or reverse), so readdir order differs.
mk_tree() {	# DIR fwd|rev
	names="zeta alpha Beta m-1 m.1 m1 dat $(printf '\303\251t\303\251') a b c d e f g"
	if test "$2" = rev; then
		names=$(for n in $names; do echo "$n"; done | sort -r)
	fi
	mkdir -p "$1" &&
	for d in $names; do
		mkdir -p "$1/$d" || return 1
		for n in $names; do
			printf '%s/%s\n' "$d" "$n" >"$1/$d/$n" || return 1
		done
	done &&
	head -c 300000 /dev/zero | tr '\0' 'x' >"$1/a/big" &&
	ln -s a/big "$1/link" &&
	ln "$1/a/big" "$1/zeta/hard" &&
	chmod 4755 "$1/b/c" &&
	touch -d @1000000000 "$1/c/d"
}

test_expect_success 'setup: one tree created in two orders' '
	mk_tree fwd fwd && mk_tree rev rev &&
	(diff -r fwd rev) &&
	"$AXFS" mkfs fwd -o fwd.axfs
'

test_expect_success 'two builds of the same tree are identical' '
	"$AXFS" mkfs fwd -o fwd2.axfs && cmp fwd.axfs fwd2.axfs
'

test_expect_success 'the creation (readdir) order does not matter' '
	"$AXFS" mkfs rev -o rev.axfs && cmp fwd.axfs rev.axfs
'

test_expect_success 'the number of jobs does not matter' '
	for j in 1 2 3 8; do
		"$AXFS" mkfs -j $j fwd -o j$j.axfs && cmp fwd.axfs j$j.axfs ||
			exit 1
	done
'

test_expect_success 'the locale does not matter' '
	for l in C C.UTF-8 POSIX; do
		LC_ALL=$l "$AXFS" mkfs fwd -o l.axfs && cmp fwd.axfs l.axfs ||
			exit 1
	done
'

test_expect_success 'the working directory and the path spelling do not matter' '
	mkdir sub && (cd sub && "$AXFS" mkfs ../fwd/ -o ../w.axfs) &&
	cmp fwd.axfs w.axfs &&
	"$AXFS" mkfs "$PWD/fwd" -o "$PWD/a.axfs" && cmp fwd.axfs a.axfs
'

test_expect_success 'SOURCE_DATE_EPOCH is the timestamp' '
	test "$(be fwd.axfs 248 8)" -eq 1700000000 &&
	SOURCE_DATE_EPOCH=1234567890 "$AXFS" mkfs fwd -o s.axfs &&
	test "$(be s.axfs 248 8)" -eq 1234567890 &&
	! cmp -s fwd.axfs s.axfs
'

test_expect_success '--mtime wins over SOURCE_DATE_EPOCH' '
	"$AXFS" mkfs --mtime 42 fwd -o m.axfs &&
	test "$(be m.axfs 248 8)" -eq 42 &&
	"$AXFS" mkfs --mtime @43 fwd -o m.axfs &&
	test "$(be m.axfs 248 8)" -eq 43 &&
	"$AXFS" mkfs --mtime 2024-01-02 fwd -o m.axfs &&
	test "$(be m.axfs 248 8)" -eq 1704153600 &&
	"$AXFS" mkfs --mtime 2024-01-02T03:04:05 fwd -o m.axfs &&
	test "$(be m.axfs 248 8)" -eq 1704164645
'

test_expect_success 'without either, the timestamp is now' '
	before=$(date +%s) &&
	env -u SOURCE_DATE_EPOCH "$AXFS" mkfs -q fwd -o now.axfs &&
	after=$(date +%s) && ts=$(be now.axfs 248 8) &&
	test "$ts" -ge "$before" && test "$ts" -le "$after"
'

test_expect_success 'the digest is stored and depends on every byte' '
	d1=$(od -An -tx1 -j20 -N20 fwd.axfs | tr -d " \n") &&
	d2=$(od -An -tx1 -j40 -N20 fwd.axfs | tr -d " \n") &&
	test "$d2" = "0000000000000000000000000000000000000000" &&
	test "$d1" != "0000000000000000000000000000000000000000" &&
	d3=$(od -An -tx1 -j20 -N20 s.axfs | tr -d " \n") &&
	test "$d1" != "$d3" &&
	cp fwd.axfs z.axfs &&
	printf "\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0" |
		dd of=z.axfs bs=1 seek=20 conv=notrunc 2>/dev/null &&
	test "$(sha1sum <z.axfs | cut -c1-40)" = "$d1"
'

test_done
