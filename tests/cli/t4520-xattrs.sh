#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# What AXFS cannot store: extended attributes (an SELinux label, file
# capabilities, a user attribute) on a tree and in a pax archive.
# --xattrs=warn (default) builds with one warning, error refuses naming the
# path and what it has, ignore says nothing; the policy key does the same
# and the command line wins; the image bytes never depend on it.
. "$(dirname "$0")/lib.sh"

test_expect_success 'setup: a tree with an SELinux label, a capability and a user xattr' '
	cp -a "$AXFS_TOP"/examples/rootfs tree && cp -a tree plain &&
	mkdir -p tree/usr/bin && cp -a tree/usr/bin plain/usr/ &&
	printf "ping" >tree/usr/bin/ping && cp -p tree/usr/bin/ping plain/usr/bin/ping &&
	python3 -c "
import os
os.setxattr(\"tree/usr/bin/ping\", \"security.capability\",
            bytes.fromhex(\"0100000200200000000000000000000000000000\"))
os.setxattr(\"tree/etc/passwd\", \"security.selinux\", b\"system_u:object_r:passwd_file_t:s0\\0\")
os.setxattr(\"tree/etc/group\", \"user.note\", b\"x\")
" 2>err || { cat err; false; }
'
# The filesystem of $TRASH took the security.* attributes of the setup.
test_lazy_prereq SECURITY_XATTR '
	python3 -c "import os, sys; sys.exit(0 if os.listxattr(\"$TRASH/tree/etc/passwd\") else 1)"
'
test_require_prereq SECURITY_XATTR

test_expect_success 'default: one warning, the image of the tree without the attributes' '
	"$AXFS" mkfs tree -o warn.axfs 2>err &&
	grep -q "warning: AXFS cannot store.* extended attributes (3 entries)" err &&
	grep -q -- "--xattrs=error" err &&
	"$AXFS" mkfs -q plain -o plain.axfs && cmp warn.axfs plain.axfs &&
	"$AXFS" mkfs -v tree -o v.axfs 2>err &&
	grep -q "/usr/bin/ping.: not stored:.* xattrs (its file capabilities)" err &&
	grep -q "/etc/passwd.: not stored:.* xattrs (its SELinux label)" err
'

test_expect_success '--xattrs=error refuses, naming the first path and its label; no image is written' '
	{ "$AXFS" mkfs --xattrs=error tree -o e.axfs 2>err; test $? = 8; } &&
	cat err &&
	grep -q "/etc/group. has extended attributes" err &&
	grep -q "3 entries have" err && grep -q "context=" err &&
	! test -e e.axfs && test -z "$(ls -A | grep "^\\.e\\.axfs")" &&
	rm -f tree/etc/group.x && python3 -c "import os; os.removexattr(\"tree/etc/group\", \"user.note\")" &&
	{ "$AXFS" mkfs --xattrs=error tree -o e.axfs 2>err; test $? = 8; } &&
	grep -q "/etc/passwd. has an SELinux label (security.selinux)" err
'

test_expect_success '--xattrs=ignore: no warning, the same bytes' '
	"$AXFS" mkfs --xattrs=ignore tree -o i.axfs 2>err &&
	! grep -q attributes err && cmp i.axfs plain.axfs
'

test_expect_success 'a pax archive with xattrs: the same three actions' '
	tar --xattrs --xattrs-include="*" -C tree -cf x.tar . &&
	{ "$AXFS" mkfs --xattrs=error x.tar -o e.axfs 2>err; test $? = 8; } &&
	grep -q "SELinux label" err &&
	"$AXFS" mkfs x.tar -o w.axfs 2>err && grep -q "extended attributes" err &&
	cmp w.axfs plain.axfs &&
	"$AXFS" mkfs --xattrs=ignore - -o i2.axfs <x.tar 2>err && ! grep -q attributes err &&
	cmp i2.axfs plain.axfs
'

test_expect_success 'the policy key xattrs, overridden by the command line' '
	printf "xattrs: error\n" >err.yaml &&
	{ "$AXFS" mkfs -c err.yaml tree -o p.axfs 2>err; test $? = 8; } &&
	grep -q "SELinux label" err &&
	"$AXFS" mkfs -c err.yaml --xattrs=warn tree -o p.axfs 2>err &&
	grep -q "warning" err && cmp p.axfs plain.axfs &&
	printf "xattrs: ignore\n" >ign.yaml &&
	"$AXFS" mkfs -c ign.yaml tree -o p2.axfs 2>err && ! grep -q attributes err
'

test_expect_success 'bad values: a usage error, a policy error with line:column' '
	{ "$AXFS" mkfs --xattrs=maybe tree -o z.axfs 2>err; test $? = 16; } &&
	grep -q "invalid --xattrs" err &&
	printf "compression:\n  level: 9\nxattrs: [error]\n" >bad.yaml &&
	{ "$AXFS" mkfs -c bad.yaml tree -o z.axfs 2>err; test $? = 8; } &&
	grep -q "bad.yaml:3:9: xattrs" err
'

test_done
