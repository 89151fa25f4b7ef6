# SPDX-License-Identifier: GPL-2.0-or-later
#
# cblock-cache.sh - guest side of bench/kernel/cblock-cache.sh.  For each
# cblock cache size in SIZES (/data/config), with the module parameter
# set before the mount: two readers of the files A and B, read 4 KiB at a
# time, interleaved read by read in one process (pair) and as two
# processes at once (two), caches dropped before each; prints the time and
# the cblocks inflated (the mount's line in /proc/self/mountstats).
. /data/config
for m in axfs virtio_pci virtio_blk; do modprobe $m 2>/dev/null; done
mkdir -p /mnt/b

inflations() {
	sed -n 's|.* on /mnt/b with fstype axfs.* cblock_inflations=\([0-9]*\).*|\1|p' /proc/self/mountstats
}
for n in $SIZES; do
	# A read-only parameter: given when the module is loaded.
	rmmod axfs 2>/dev/null
	modprobe axfs cblock_cache="$n"
	for how in pair two; do
		mount -t axfs -o ro /dev/vda /mnt/b ||
			{ echo "BENCH $n $how error mount"; continue; }
		sync
		echo 3 >/proc/sys/vm/drop_caches
		sleep 1
		before=$(inflations)
		out=$(benchio $how "/mnt/b/$A" "/mnt/b/$B")
		echo "BENCH $n $how $out inflations=$(($(inflations) - before))"
		umount /mnt/b
	done
done
