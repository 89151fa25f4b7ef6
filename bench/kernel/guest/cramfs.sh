# SPDX-License-Identifier: GPL-2.0-or-later
#
# cramfs.sh - guest side of bench/kernel/cramfs.sh, sourced by bench.sh.
#
#   cramfs_source physmap:ADDR,SIZE   a map_ram MTD over the image
#                                     (xipflash.ko) -> mtd:physmap-flash.0
#   cramfs_check NAME                 the mount (/mnt/b) against the source
#                                     tree's listing (/data/manifest)
#   cramfs_xipmaps NAME ADDR,SIZE     a program started from the mount:
#                                     how many of its executable mappings
#                                     are pages of the image itself
# Findings are CRAMFS-CHECK lines, printed by the host under the table.

cramfs_source() {
	local a=${1#physmap:}
	rmmod xipflash 2>/dev/null
	modprobe physmap && modprobe map_ram &&
		modprobe xipflash addr="${a%,*}" size="${a#*,}" || return 1
	echo mtd:physmap-flash.0
}

cramfs_check() {
	(cd /mnt/b && BB=busybox sh /tests/manifest.sh) >/tmp/manifest 2>&1
	if cmp -s /tmp/manifest /data/manifest; then
		echo "CRAMFS-CHECK $1: every entry equals the source tree ($(wc -l </data/manifest) lines: types, modes, sizes, owners, link targets, SHA-256 of every file)"
	else
		echo "CRAMFS-CHECK $1: DIFFERS from the source tree: $(diff /data/manifest /tmp/manifest | grep '^[-+][^-+]' | head -n 4 | tr '\n' ' ')"
	fi
}

# cramfs_physmem_mmap maps an XIP range with remap_pfn_range, which
# for a private mapping sets the vma's offset to the page frame number:
# /proc/PID/maps then shows the physical address as the offset.
cramfs_xipmaps() {
	local a=${2#*:} lo hi pid
	[ -x /mnt/b/bin/sleep ] || { echo "CRAMFS-CHECK $1: no /bin/sleep in the tree to look at"; return; }
	lo=$((${a%,*}))
	hi=$((lo + ${a#*,}))
	chroot /mnt/b /bin/sleep 3 &
	pid=$!
	sleep 1
	awk -v lo=$lo -v hi=$hi -v name="$1" '
		$2 ~ /x/ && $6 ~ "^/mnt/b/" {
			n++
			off = 0
			for (i = 1; i <= length($3); i++)
				off = off * 16 + index("0123456789abcdef", substr($3, i, 1)) - 1
			if (off >= lo && off < hi) { x++; xs = xs " " substr($6, 7) }
		}
		END { printf "CRAMFS-CHECK %s: %d of %d executable mappings of /bin/sleep are the image'"'"'s own pages (XIP)%s\n", name, x, n, x ? ":" xs : "" }
	' /proc/$pid/maps
	wait $pid
}
