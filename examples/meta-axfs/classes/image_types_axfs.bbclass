# SPDX-License-Identifier: GPL-2.0-or-later
#
# image_types_axfs.bbclass - the "axfs" image type: an AXFS (Advanced XIP
# File System) root filesystem built by axfs-tools, defined the way
# openembedded-core's image_types.bbclass defines squashfs and erofs.
#
# In local.conf or a distro/machine configuration:
#
#   IMAGE_CLASSES += "image_types_axfs"
#   IMAGE_FSTYPES += "axfs"          (and/or "axfs-split")
#
#   AXFS_POLICY         a YAML build policy (axfs-policy(5)); empty: none
#   AXFS_PROFILE        profile CSVs (axfs-profile(5)), space-separated;
#                       the pages they count are stored XIP
#   AXFS_BLOCK_SIZE     --block-size (e.g. 64KiB); empty: axfs's default
#   AXFS_XIP_BUDGET     --xip-budget, most bytes of XIP pages; empty: none
#   AXFS_PAD            pad the image (axfs-split: the .axfs-nor segment)
#                       to a partition's size; empty: no padding
#   AXFS_PAD_BYTE       0xff (erased NOR flash, the default) or 0x00
#   AXFS_MMAP_LIMIT     axfs-split: --mmap-limit, what the NOR segment may
#                       hold (default 8MiB)
#   EXTRA_IMAGECMD:axfs more "axfs mkfs" options, for example
#                       "--xip-suffix" (EXTRA_IMAGECMD:axfs-split too)
#
# The image is ${IMGDEPLOYDIR}/${IMAGE_NAME}.axfs (kirkstone:
# ${IMAGE_NAME}${IMAGE_NAME_SUFFIX}.axfs), checked with axfs fsck.
# "axfs-split", the dual-device split (axfs-split(1)), writes the whole
# image as .axfs-split and its two segments as .axfs-nor (superblock,
# tables, XIP pages: NOR flash or RAM; padded to AXFS_PAD) and .axfs-nand
# (the rest: NAND or a block device), checked as a pair.
# Owners, modes and device nodes are those of the rootfs under pseudo.

AXFS_POLICY ?= ""
AXFS_PROFILE ?= ""
AXFS_BLOCK_SIZE ?= ""
AXFS_XIP_BUDGET ?= ""
AXFS_PAD ?= ""
AXFS_PAD_BYTE ?= "0xff"
AXFS_MMAP_LIMIT ?= "8MiB"
EXTRA_IMAGECMD:axfs ?= ""
EXTRA_IMAGECMD:axfs-split ?= ""

IMAGE_TYPES += "axfs axfs-split"

# The file name image.bbclass links and converts: from nanbield (4.3) on
# IMAGE_NAME holds IMAGE_NAME_SUFFIX (".rootfs") and image_types.bbclass
# writes ${IMAGE_NAME}.TYPE; kirkstone writes ${IMAGE_NAME}${IMAGE_NAME_SUFFIX}.TYPE.
AXFS_IMAGE_NAME_SUFFIX = "${@bb.utils.contains('LAYERSERIES_CORENAMES', 'kirkstone', d.getVar('IMAGE_NAME_SUFFIX') or '', '', d)}"

# The options both types give axfs mkfs, from the variables above.
axfs_mkfs_opts () {
	if [ -n "${AXFS_POLICY}" ]; then
		printf ' --policy %s' "${AXFS_POLICY}"
	fi
	for axfs_profile in ${AXFS_PROFILE}; do
		printf ' --profile %s' "$axfs_profile"
	done
	if [ -n "${AXFS_BLOCK_SIZE}" ]; then
		printf ' --block-size %s' "${AXFS_BLOCK_SIZE}"
	fi
	if [ -n "${AXFS_XIP_BUDGET}" ]; then
		printf ' --xip-budget %s' "${AXFS_XIP_BUDGET}"
	fi
}

IMAGE_CMD:axfs () {
	axfs_opts=$(axfs_mkfs_opts)
	if [ -n "${AXFS_PAD}" ]; then
		axfs_opts="$axfs_opts --pad ${AXFS_PAD} --pad-byte ${AXFS_PAD_BYTE}"
	fi
	# The image time is the time of the rootfs directory, as oe_mksquashfs
	# does (reproducible builds set it to REPRODUCIBLE_TIMESTAMP_ROOTFS).
	export SOURCE_DATE_EPOCH=$(stat -c '%Y' ${IMAGE_ROOTFS})
	axfs mkfs --no-progress $axfs_opts ${EXTRA_IMAGECMD} \
		${IMAGE_ROOTFS} -o ${IMGDEPLOYDIR}/${IMAGE_NAME}${AXFS_IMAGE_NAME_SUFFIX}.axfs
	axfs fsck -q ${IMGDEPLOYDIR}/${IMAGE_NAME}${AXFS_IMAGE_NAME_SUFFIX}.axfs
}

IMAGE_CMD:axfs-split () {
	axfs_img=${IMGDEPLOYDIR}/${IMAGE_NAME}${AXFS_IMAGE_NAME_SUFFIX}
	export SOURCE_DATE_EPOCH=$(stat -c '%Y' ${IMAGE_ROOTFS})
	axfs mkfs --no-progress $(axfs_mkfs_opts) --mmap-limit ${AXFS_MMAP_LIMIT} \
		${EXTRA_IMAGECMD} ${IMAGE_ROOTFS} -o $axfs_img.axfs-split
	axfs split -q $axfs_img.axfs-split --mmap $axfs_img.axfs-nor --store $axfs_img.axfs-nand
	axfs fsck -q $axfs_img.axfs-nor $axfs_img.axfs-nand
	# image.bbclass links IMAGE_LINK_NAME.axfs-split; the segments too.
	if [ -n "${IMAGE_LINK_NAME}" ]; then
		for axfs_seg in axfs-nor axfs-nand; do
			ln -sf $(basename $axfs_img).$axfs_seg ${IMGDEPLOYDIR}/${IMAGE_LINK_NAME}.$axfs_seg
		done
	fi
	if [ -n "${AXFS_PAD}" ]; then
		# GNU head takes the size's KiB, MiB, GiB.
		axfs_pad=$(head -c ${AXFS_PAD} </dev/zero | wc -c)
		axfs_nor=$(wc -c <$axfs_img.axfs-nor)
		if [ $axfs_nor -gt $axfs_pad ]; then
			bbfatal "$axfs_img.axfs-nor: $axfs_nor bytes, more than AXFS_PAD (${AXFS_PAD})"
		fi
		if [ "${AXFS_PAD_BYTE}" = 0xff ]; then
			head -c $(expr $axfs_pad - $axfs_nor) </dev/zero | tr '\0' '\377' >>$axfs_img.axfs-nor
		else
			head -c $(expr $axfs_pad - $axfs_nor) </dev/zero >>$axfs_img.axfs-nor
		fi
	fi
}

do_image_axfs[depends] += "axfs-tools-native:do_populate_sysroot"
do_image_axfs_split[depends] += "axfs-tools-native:do_populate_sysroot"

# AXFS stores no xattrs: the SELinux labels of a distro with the selinux
# feature would be lost.  Refuse; axfs-mkfs(1), "What AXFS cannot store",
# says what to do instead (the context= mount option, genfscon).
python axfs_refuse_selinux () {
    if bb.utils.contains('DISTRO_FEATURES', 'selinux', True, False, d):
        bb.fatal("IMAGE_FSTYPES has axfs but DISTRO_FEATURES has selinux: "
                 "AXFS cannot store SELinux labels. Mount the image with "
                 "context= or label it with genfscon (see axfs-mkfs(1)), "
                 "or build another image type.")
}
do_image_axfs[prefuncs] += "axfs_refuse_selinux"
do_image_axfs_split[prefuncs] += "axfs_refuse_selinux"

# Build the image again when the policy or a profile changes.
AXFS_INPUT_CHECKSUMS = "${@' '.join('%s:%s' % (f, os.path.exists(f)) for f in ((d.getVar('AXFS_POLICY') or '') + ' ' + (d.getVar('AXFS_PROFILE') or '')).split())}"
do_image_axfs[file-checksums] += "${AXFS_INPUT_CHECKSUMS}"
do_image_axfs_split[file-checksums] += "${AXFS_INPUT_CHECKSUMS}"
