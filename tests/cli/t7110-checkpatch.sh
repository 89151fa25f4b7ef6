#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The driver (kernel/*.c, *.h) and the format header it includes are
# checkpatch.pl --strict clean but for the exceptions that
# kernel/scripts/checkpatch.sh lists, each explained in kernel/README.md;
# and the script does report a new problem.  checkpatch.pl comes from
# Debian's linux-source-6.1 (fetched once into the cache).
. "$(dirname "$0")/lib.sh"

top=$AXFS_TOP
script=$top/kernel/scripts/checkpatch.sh

sh "$script" >out 2>err
rc=$?
# Exit 2: no checkpatch.pl here (its last line of err says why).
test_lazy_prereq CHECKPATCH 'test "$rc" != 2'
test_require_prereq CHECKPATCH "$(tail -n 1 err)"
test_expect_success 'checkpatch --strict: nothing beyond the listed exceptions' '
	cat out && test '"$rc"' = 0
'

test_expect_success 'each exception type is explained in kernel/README.md' '
	sed -n "/^EXCEPTIONS=/,/^'"'"'\$/p" "$script" | awk "NF == 2 { print \$2 }" | sort -u >types &&
	test -s types &&
	while read -r t; do
		grep -q "$t" "$top/kernel/README.md" || { echo "$t not in README"; exit 1; }
	done <types
'

# A copy of the sources with one new problem: the script must fail on it.
test_expect_success 'a new problem (a space before a tab) is reported' '
	mkdir -p copy/kernel/scripts copy/include/axfs &&
	cp "$top"/kernel/*.c "$top"/kernel/*.h copy/kernel/ &&
	cp "$script" copy/kernel/scripts/ &&
	cp "$top/include/axfs/axfs_fs.h" copy/include/axfs/ &&
	printf "int axfs_bad(void)\n{\n \treturn 0;\n}\n" >>copy/kernel/xip.c &&
	! sh copy/kernel/scripts/checkpatch.sh >bad.out 2>&1 &&
	cat bad.out && grep -q "kernel/xip.c:.*SPACE_BEFORE_TAB" bad.out
'
test_done
