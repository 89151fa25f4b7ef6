#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# workload.sh BUSYBOX - the same little session each time: every command
# is a new exec of BUSYBOX, so its text pages are faulted in from the
# filesystem that holds it.
BB=$1
$BB echo "workload: start"
$BB ls -l /tests >/dev/null
$BB seq 1 3000 | $BB sort -rn | $BB head -n 2 >/dev/null
$BB sha256sum /tests/listing.sh >/dev/null
$BB md5sum /tests/listing.sh >/dev/null
$BB find /tests -type f | $BB wc -l >/dev/null
$BB awk 'BEGIN { for (i = 0; i < 500; i++) s += i; print s }' >/dev/null
$BB sed -n 's/find/FIND/p' /tests/listing.sh >/dev/null
$BB grep -c stat /tests/listing.sh >/dev/null
$BB tar -cf - /tests 2>/dev/null | $BB gzip -c | $BB wc -c >/dev/null
$BB sh -c 'i=0; while [ $i -lt 100 ]; do i=$((i + 1)); done; echo "workload: done"'
