# SPDX-License-Identifier: GPL-2.0-only
#
# field-images.sh - sourced by run.sh once the guest data is staged: images
# as they are found in the field, for guest/field.sh (run at the end of
# boot 1).  From the full tree's images: the legacy C mkfs.axfs's quirks
# (tests/tools/legacy_quirks.py, every switch but --timestamp-zero, whose
# mtime the listing would not match), with and without XIP pages, and the
# tree image in a bigger partition padded with 0xFF as erased flash.
# Each must pass `axfs fsck` on the host; the guest mounts each on a loop
# device, a block2mtd MTD and its mtdblock, and compares the whole tree.
FIELD_QUIRKS="--size-unaligned --depth4 --max-index-zero --blocks-short \
--unused-cnode --unused-banode --root-name --empty-dir-index \
--empty-file-index --version --no-digest --symlink-cblock-end"
mkdir -p "$stage/data/field"
# shellcheck disable=SC2086
host_check "field images: legacy quirks of the tree and XIP images" sh -c "
	python3 '$AXFS_TOP/tests/tools/legacy_quirks.py' $FIELD_QUIRKS \
		'$W/tree.img' '$stage/data/field/legacy.img' &&
	python3 '$AXFS_TOP/tests/tools/legacy_quirks.py' $FIELD_QUIRKS \
		'$W/xip.img' '$stage/data/field/legacy-xip.img'"
# The partition: whole 128 KiB erase blocks and 256 KiB more, all 0xFF.
field_pad_ff() {	# field_pad_ff IMAGE OUT
	local n
	n=$(( ($(stat -c %s "$1") + 131071) / 131072 * 131072 + 262144 ))
	python3 -c 'import sys; d = open(sys.argv[1], "rb").read()
open(sys.argv[2], "wb").write(d + b"\xff" * (int(sys.argv[3]) - len(d)))' \
		"$1" "$2" "$n"
}
host_check "field images: the tree image in a partition padded with 0xFF" \
	field_pad_ff "$W/tree.img" "$stage/data/field/padff.img"
for f in "$stage"/data/field/*.img; do
	host_check "field images: axfs fsck passes ${f##*/}" "$AXFS" fsck -q "$f"
done
cp "$here/guest/field.sh" "$stage/tests/"
