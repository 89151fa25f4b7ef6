#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The main command-line paths under valgrind's memcheck: no invalid read or
# write, no use of uninitialised memory, no leak, no fd left open.  Any
# report fails (--error-exitcode).  Skipped for an ASan binary (the
# sanitizer pass), which valgrind cannot run.
. "$(dirname "$0")/lib.sh"

# valgrind cannot run an ASan binary: the sanitizer pass (AXFS_SANITIZED=1,
# or a binary that references the ASan runtime) leaves these to the normal
# pass.
test_lazy_prereq VALGRIND 'command -v valgrind'
test_require_prereq VALGRIND,!SANITIZED

# vg CMD...: the axfs command CMD under memcheck; the log goes to vg.log
# and is shown when it has errors.
vg() {
	valgrind -q --error-exitcode=99 --leak-check=full \
		--show-leak-kinds=definite,indirect,possible \
		--errors-for-leak-kinds=definite,indirect,possible \
		--track-fds=yes --log-file=vg.log "$AXFS" "$@"
	rc=$?
	# --track-fds lists the descriptors inherited from the shell too:
	# only one that our code opened (shown with a stack) is a leak.
	if awk '/Open file descriptor/ { getline; if ($0 !~ /inherited from parent/) bad = 1 }
		END { exit !bad }' vg.log; then
		rc=99
	fi
	test $rc -ne 99 || cat vg.log >&2
	return $rc
}

test_expect_success 'setup: a small tree with every kind of file' '
	mkdir -p tree/bin tree/etc/deep tree/dev &&
	head -c 70000 /dev/urandom >tree/bin/random &&
	yes axfs | head -c 300000 >tree/bin/text &&
	printf hello >tree/etc/motd &&
	ln -s ../etc/motd tree/bin/link &&
	ln tree/etc/motd tree/etc/hard &&
	: >tree/etc/deep/empty &&
	mkfifo tree/dev/fifo &&
	printf "./bin/text,4096,9\n./bin/text,8192,3\n" >prof.csv &&
	printf "compression: { level: 6 }\nxip: { files: [/bin/random] }\n" >pol.yaml
'

test_expect_success 'mkfs (two threads, policy, profile) is clean' '
	vg mkfs -q -j2 -b 4096 -c pol.yaml -p prof.csv tree -o img.axfs &&
	test -s img.axfs
'

test_expect_success 'mkfs of a tarball is clean' '
	tar -C tree -czf tree.tgz . &&
	vg mkfs -q tree.tgz -o tar.axfs
'

test_expect_success 'dump (all sections, pages, JSON) is clean' '
	vg dump img.axfs >dump.txt && grep -q /bin/text dump.txt &&
	vg dump --pages img.axfs >/dev/null &&
	vg dump --json img.axfs >/dev/null
'

test_expect_success 'extract is clean and gives back the tree' '
	vg extract -q img.axfs out &&
	diff -r --no-dereference -x fifo tree out && test -p out/dev/fifo
'

test_expect_success 'fsck (deep, digest) is clean' '
	vg fsck img.axfs >fsck.txt || test $? -eq 4
'

test_expect_success 'failures are clean too: a corrupt image, a bad policy' '
	cp img.axfs bad.axfs &&
	printf "\377\377\377\377" | dd of=bad.axfs bs=1 seek=300 conv=notrunc 2>/dev/null &&
	{ vg fsck bad.axfs >/dev/null; test $? -ne 99; } &&
	{ vg dump bad.axfs >/dev/null 2>&1; test $? -ne 99; } &&
	{ vg extract -q bad.axfs bad.out 2>/dev/null; test $? -ne 99; } &&
	printf "xip: [\n" >bad.yaml &&
	{ vg mkfs -q -c bad.yaml tree -o never.axfs 2>/dev/null; rc=$?; } &&
	{ test $rc -eq 8 || test $rc -eq 16; } &&
	test ! -e never.axfs
'

test_expect_success 'split and merge-profile are clean' '
	"$AXFS" mkfs -q -b 4096 --xip "/bin/r*" --mmap-limit 1MiB tree -o sp.axfs &&
	vg split -q sp.axfs --mmap m.bin --store s.bin &&
	vg fsck -q m.bin s.bin >/dev/null &&
	vg merge-profile -q prof.csv prof.csv -o merged.csv &&
	grep -q text merged.csv
'

test_done
