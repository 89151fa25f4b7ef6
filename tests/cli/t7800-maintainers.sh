#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# MAINTAINERS is the one place that says who maintains axfs-tools: every
# maintainer address and every project URL in the packaging, the examples
# and the documentation is the one it gives (or a page below its
# Homepage), so that changing it there and following this test changes
# them all.
. "$(dirname "$0")/lib.sh"

top=$AXFS_TOP
field() { sed -n "s/^$1: //p" "$top/MAINTAINERS"; }
maint=$(field Maintainer)
home=$(field Homepage)
bugs=$(field Bugs)

test_expect_success 'MAINTAINERS names a maintainer with an address, a homepage and a tracker' '
	echo "$maint" | grep -q "^[^<]* <[^@ ]*@[^> ]*>$" &&
	echo "$home" | grep -q "^https://" &&
	test "$bugs" = "$home/issues"
'

# The files that carry them, outside the tests and the kernel driver.
carriers() {
	git -C "$top" ls-files -- packaging examples README.md NEWS.md SECURITY.md man \
		contrib | grep -v "^examples/rootfs/"
}

test_expect_success GIT 'every e-mail address of a maintainer is the one of MAINTAINERS' '
	addr=$(echo "$maint" | sed "s/.*<\(.*\)>/\1/") &&
	carriers | (cd "$top" && xargs grep -ho "[A-Za-z0-9._+-]\{1,\}@[A-Za-z0-9.-]*\.[a-z]*" 2>/dev/null) |
		grep -v "@example\.\(org\|com\)$" | sort -u >addrs &&
	cat addrs &&
	test "$(cat addrs)" = "$addr" &&
	(cd "$top" && grep -h "maintainers <" packaging/debian/control packaging/debian/copyright \
		packaging/debian/changelog examples/meta-axfs/README.md) |
		sed "s/.*: //; s/^ -- //; s/>.*/>/" | sort -u >names &&
	test "$(cat names)" = "$maint"
'

test_expect_success GIT 'every URL of the project is the Homepage of MAINTAINERS or below it' '
	owner=$(echo "$home" | sed "s|^https://\([^/]*/[^/]*\)/.*|\1|") &&
	carriers | (cd "$top" && xargs grep -ho "https\{0,1\}://$owner/[^ \"<>)]*" 2>/dev/null) |
		sed "s/[.,;]$//" | sort -u >urls &&
	cat urls && test -s urls &&
	! grep -v "^$home\(\$\|[/.]\)" urls
'

test_done
