# SPDX-License-Identifier: GPL-2.0-only
#
# field.sh - sourced at the end of boot1.sh when the host staged images
# from field-images.sh: legacy-writer images and an image in a bigger
# partition, each mounted on a loop device, a block2mtd MTD (whole erase
# blocks: a zero-padded copy, the image inside a bigger device again) and
# that MTD's mtdblock, and compared with the tree listing.
modprobe loop 2>/dev/null
modprobe mtdblock 2>/dev/null
for img in /data/field/*.img; do
	[ -f "$img" ] || continue
	n=${img##*/}
	ro=$(losetup -f)
	losetup -r $ro "$img"
	check "field $n: loop device: full comparison" \
		mount_compare /mnt/a $ro
	umount /mnt/a 2>/dev/null
	losetup -d $ro

	# block2mtd: a copy padded with zeros to whole 128 KiB erase blocks.
	cp "$img" /tmp/field.img
	sz=$(stat -c %s /tmp/field.img)
	dd if=/dev/zero of=/tmp/field.img bs=1 count=0 \
		seek=$(( (sz + 131071) / 131072 * 131072 + 131072 )) 2>/dev/null
	# The loop driver makes 8 devices: take a free one (block2mtd keeps
	# the earlier ones).
	dev=$(losetup -f)
	losetup $dev /tmp/field.img
	if [ -d /sys/module/block2mtd ]; then
		echo "$dev,128KiB" >/sys/module/block2mtd/parameters/block2mtd
	else
		modprobe block2mtd block2mtd=$dev,128KiB
	fi
	M=$(awk -F'[: "]+' -v n="block2mtd: $dev" 'index($0, "\"" n "\"") { sub("mtd", "", $1); print $1 }' /proc/mtd)
	check "field $n: block2mtd mtd$M: full comparison" \
		mount_compare /mnt/a mtd$M
	umount /mnt/a 2>/dev/null
	check "field $n: block2mtd /dev/mtdblock$M: full comparison" \
		mount_compare /mnt/a /dev/mtdblock$M
	umount /mnt/a 2>/dev/null
	rm -f /tmp/field.img
done
