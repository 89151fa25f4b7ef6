# SPDX-License-Identifier: GPL-2.0-only
# shellcheck shell=sh
# The fixed workload of kernel/tests/rootfs.sh, run by dash from the root's
# /sbin/init: real programs of the root tree started one after another
# (coreutils, perl, dash, busybox applets).  It prints ROOTFS-T first and
# ROOTFS-T end with the uptime after the first program's output and at
# the end (read by the shell itself: no program started for it).
export PATH=/usr/sbin:/usr/bin:/sbin:/bin LC_ALL=C
echo "workload: start" | cat
read t rest </proc/uptime
echo "ROOTFS-T first $t"
ls -lR /usr/lib >/dev/null
seq 1 20000 | sort -rn | head -n 1 >/dev/null
sha256sum /etc/axfs-workload.sh >/dev/null
md5sum /etc/axfs-workload.sh >/dev/null
du -s /usr >/dev/null
wc -l /etc/axfs-workload.sh >/dev/null
date -u -d @0 +%F >/dev/null
stat / >/dev/null
perl -e 'my %h; $h{$_ % 97} += $_ for 1 .. 20000; print scalar(keys %h), "\n"' >/dev/null
perl -MPOSIX -e 'print POSIX::floor(7.5), "\n"' >/dev/null
dash -c 'i=0; while [ $i -lt 2000 ]; do i=$((i + 1)); done'
busybox awk 'BEGIN { for (i = 0; i < 500; i++) s += i; print s }' >/dev/null
busybox sed -n 's/perl/PERL/p' /etc/axfs-workload.sh >/dev/null
busybox tar -cf - /etc 2>/dev/null | busybox gzip -c | wc -c >/dev/null
echo "workload: done" | cat
read t rest </proc/uptime
echo "ROOTFS-T end $t"
