# SPDX-License-Identifier: GPL-2.0-or-later
#
# image_types_axfs.bbclass - the "axfs" image type: an AXFS (Advanced XIP
# File System) root filesystem built by axfs-tools, defined the way
# openembedded-core's image_types.bbclass defines squashfs and erofs.
#
# In local.conf or a distro/machine configuration:
#
#   IMAGE_CLASSES += "image_types_axfs"
#   IMAGE_FSTYPES += "axfs"
#
#   AXFS_POLICY         a YAML build policy (axfs-policy(5)); empty: none
#   AXFS_PROFILE        profile CSVs (axfs-profile(5)), space-separated;
#                       the pages they count are stored XIP
#   EXTRA_IMAGECMD:axfs more "axfs mkfs" options, for example
#                       "--block-size 64KiB --xip-budget 8MiB"
#
# The image is ${IMGDEPLOYDIR}/${IMAGE_NAME}.axfs (kirkstone:
# ${IMAGE_NAME}${IMAGE_NAME_SUFFIX}.axfs), checked with axfs fsck.
# Owners, modes and device nodes are those of the rootfs under pseudo.

AXFS_POLICY ?= ""
AXFS_PROFILE ?= ""
EXTRA_IMAGECMD:axfs ?= ""

IMAGE_TYPES += "axfs"

# The file name image.bbclass links and converts: from nanbield (4.3) on
# IMAGE_NAME holds IMAGE_NAME_SUFFIX (".rootfs") and image_types.bbclass
# writes ${IMAGE_NAME}.TYPE; kirkstone writes ${IMAGE_NAME}${IMAGE_NAME_SUFFIX}.TYPE.
AXFS_IMAGE_NAME_SUFFIX = "${@bb.utils.contains('LAYERSERIES_CORENAMES', 'kirkstone', d.getVar('IMAGE_NAME_SUFFIX') or '', '', d)}"

IMAGE_CMD:axfs () {
	axfs_opts=""
	if [ -n "${AXFS_POLICY}" ]; then
		axfs_opts="$axfs_opts --policy ${AXFS_POLICY}"
	fi
	for axfs_profile in ${AXFS_PROFILE}; do
		axfs_opts="$axfs_opts --profile $axfs_profile"
	done
	# The image time is the time of the rootfs directory, as oe_mksquashfs
	# does (reproducible builds set it to REPRODUCIBLE_TIMESTAMP_ROOTFS).
	export SOURCE_DATE_EPOCH=$(stat -c '%Y' ${IMAGE_ROOTFS})
	axfs mkfs --no-progress $axfs_opts ${EXTRA_IMAGECMD} \
		${IMAGE_ROOTFS} -o ${IMGDEPLOYDIR}/${IMAGE_NAME}${AXFS_IMAGE_NAME_SUFFIX}.axfs
	axfs fsck -q ${IMGDEPLOYDIR}/${IMAGE_NAME}${AXFS_IMAGE_NAME_SUFFIX}.axfs
}

do_image_axfs[depends] += "axfs-tools-native:do_populate_sysroot"

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

# Build the image again when the policy or a profile changes.
do_image_axfs[file-checksums] += "${@' '.join('%s:%s' % (f, os.path.exists(f)) for f in ((d.getVar('AXFS_POLICY') or '') + ' ' + (d.getVar('AXFS_PROFILE') or '')).split())}"
