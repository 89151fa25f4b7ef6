# SPDX-License-Identifier: GPL-2.0-only
#
# pagesize.sh - guest plan of tests/cross.sh on Debian's arm64 kernel with
# 16 KiB pages: the module loads, and every mount is refused with a
# message that says why.
. /tests/lib.sh
mkdir -p /mnt/a
check "the kernel's pages are 16 KiB (smaps)" grep -q '^KernelPageSize: *16 kB$' /proc/self/smaps
check "load axfs.ko" modprobe axfs
dmesg_mark
check_fails "a mount is refused" mount -t axfs -o physaddr=0x70000000 none /mnt/a
check "with a clear message in dmesg" \
	sh -c 'dmesg_since() { dmesg | tail -n +"$(($(cat /tmp/dmesg.mark) + 1))"; }
	       dmesg_since | grep "axfs: needs 4 KiB pages; this kernel has 16 KiB pages"'
check "unload axfs.ko" rmmod axfs
check "dmesg: no oops, BUG or WARNING" \
	sh -c '! dmesg | grep -E "Oops|BUG|WARNING|Call Trace|Internal error|Kernel panic"'
