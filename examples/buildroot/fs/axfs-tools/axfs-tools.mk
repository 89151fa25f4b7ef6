################################################################################
#
# Build the axfs root filesystem image
#
################################################################################

# Not "axfs": Buildroot 2015.11 to 2025.08 has its own fs/axfs (the
# mkfs.axfs of host-axfsutils), and from 2025.11 BR2_TARGET_ROOTFS_AXFS is
# a legacy option that stops the build.  The image keeps the usual name.
ROOTFS_AXFS_TOOLS_IMAGE_NAME = rootfs.axfs

ROOTFS_AXFS_TOOLS_DEPENDENCIES = host-axfs-tools

# BR2_TARGET_ROOTFS_AXFS, the symbol tried first, is Buildroot's own
# 2008 mkfs.axfs (host-axfsutils, 2015.11 to 2025.08), which writes
# rootfs.axfs too: refused whenever this tree is in BR2_EXTERNAL.
ifeq ($(BR2_TARGET_ROOTFS_AXFS),y)
$(error BR2_TARGET_ROOTFS_AXFS=y builds rootfs.axfs with Buildroot's own 2008 mkfs.axfs (host-axfsutils), not with axfs-tools, and would overwrite ours: unset it and set BR2_TARGET_ROOTFS_AXFS_TOOLS=y ("axfs root filesystem (axfs-tools)" in Filesystem images); see $(BR2_EXTERNAL_AXFS_PATH)/README.md)
endif

# AXFS stores no xattrs: the SELinux labels refpolicy gives the files would
# be lost.  Label the mount instead (context=, genfscon): axfs-mkfs(1),
# "What AXFS cannot store".
ifeq ($(BR2_TARGET_ROOTFS_AXFS_TOOLS)$(BR2_PACKAGE_REFPOLICY),yy)
$(error axfs root filesystem: AXFS cannot store the SELinux labels of BR2_PACKAGE_REFPOLICY; mount it with context= or label it with genfscon (see axfs-mkfs(1)), or choose another root filesystem type)
endif

ROOTFS_AXFS_TOOLS_ARGS = \
	--no-progress \
	-j $(PARALLEL_JOBS) \
	-b $(call qstrip,$(BR2_TARGET_ROOTFS_AXFS_TOOLS_BS)) \
	--compressor $(call qstrip,$(BR2_TARGET_ROOTFS_AXFS_TOOLS_COMPRESSOR)) \
	-l $(BR2_TARGET_ROOTFS_AXFS_TOOLS_LEVEL)

ifneq ($(call qstrip,$(BR2_TARGET_ROOTFS_AXFS_TOOLS_POLICY)),)
ROOTFS_AXFS_TOOLS_ARGS += --policy $(call qstrip,$(BR2_TARGET_ROOTFS_AXFS_TOOLS_POLICY))
endif

ROOTFS_AXFS_TOOLS_ARGS += \
	$(foreach p,$(call qstrip,$(BR2_TARGET_ROOTFS_AXFS_TOOLS_PROFILE)),--profile $(p))

ifneq ($(call qstrip,$(BR2_TARGET_ROOTFS_AXFS_TOOLS_XIP_BUDGET)),)
ROOTFS_AXFS_TOOLS_ARGS += --xip-budget $(call qstrip,$(BR2_TARGET_ROOTFS_AXFS_TOOLS_XIP_BUDGET))
endif

# Globs are quoted: the command runs in a shell script under fakeroot.
ROOTFS_AXFS_TOOLS_ARGS += \
	$(foreach g,$(call qstrip,$(BR2_TARGET_ROOTFS_AXFS_TOOLS_XIP_FILES)),--xip '$(g)')

ROOTFS_AXFS_TOOLS_PAD = $(call qstrip,$(BR2_TARGET_ROOTFS_AXFS_TOOLS_PAD))
ROOTFS_AXFS_TOOLS_PAD_BYTE = $(if $(BR2_TARGET_ROOTFS_AXFS_TOOLS_PAD_FF),0xff,0x00)

ifeq ($(BR2_TARGET_ROOTFS_AXFS_TOOLS_SPLIT),y)
ROOTFS_AXFS_TOOLS_ARGS += \
	--mmap-limit $(call qstrip,$(BR2_TARGET_ROOTFS_AXFS_TOOLS_MMAP_LIMIT))
else ifneq ($(ROOTFS_AXFS_TOOLS_PAD),)
ROOTFS_AXFS_TOOLS_ARGS += \
	--pad $(ROOTFS_AXFS_TOOLS_PAD) --pad-byte $(ROOTFS_AXFS_TOOLS_PAD_BYTE)
endif

ROOTFS_AXFS_TOOLS_ARGS += $(call qstrip,$(BR2_TARGET_ROOTFS_AXFS_TOOLS_MKFS_OPTIONS))

# The image time comes from SOURCE_DATE_EPOCH, which Buildroot exports
# with BR2_REPRODUCIBLE; owners and device nodes are those fakeroot shows.
define ROOTFS_AXFS_TOOLS_CMD
	$(HOST_DIR)/bin/axfs mkfs $(ROOTFS_AXFS_TOOLS_ARGS) $(TARGET_DIR) $@
endef

# Check what was written, as the kernel driver will read it.
define ROOTFS_AXFS_TOOLS_FSCK
	$(HOST_DIR)/bin/axfs fsck -q $(BINARIES_DIR)/$(ROOTFS_AXFS_TOOLS_FINAL_IMAGE_NAME)
endef
ROOTFS_AXFS_TOOLS_POST_GEN_HOOKS += ROOTFS_AXFS_TOOLS_FSCK

# The dual-device split: rootfs.nor (superblock, tables, XIP pages) and
# rootfs.nand, checked as a pair, then rootfs.nor padded to its partition
# (GNU head takes the size's KiB, MiB, GiB).
ifeq ($(BR2_TARGET_ROOTFS_AXFS_TOOLS_SPLIT),y)
define ROOTFS_AXFS_TOOLS_SPLIT_SEGMENTS
	$(HOST_DIR)/bin/axfs split -q $(BINARIES_DIR)/rootfs.axfs \
		--mmap $(BINARIES_DIR)/rootfs.nor --store $(BINARIES_DIR)/rootfs.nand
	$(HOST_DIR)/bin/axfs fsck -q $(BINARIES_DIR)/rootfs.nor $(BINARIES_DIR)/rootfs.nand
endef
ROOTFS_AXFS_TOOLS_POST_GEN_HOOKS += ROOTFS_AXFS_TOOLS_SPLIT_SEGMENTS
ifneq ($(ROOTFS_AXFS_TOOLS_PAD),)
define ROOTFS_AXFS_TOOLS_PAD_NOR
	pad=$$(head -c $(ROOTFS_AXFS_TOOLS_PAD) </dev/zero | wc -c) && \
	nor=$$(wc -c <$(BINARIES_DIR)/rootfs.nor) && \
	if [ $$nor -gt $$pad ]; then \
		echo "rootfs.nor: $$nor bytes, more than the partition ($(ROOTFS_AXFS_TOOLS_PAD))" >&2; \
		exit 1; \
	fi && \
	head -c $$((pad - nor)) </dev/zero | \
		$(if $(BR2_TARGET_ROOTFS_AXFS_TOOLS_PAD_FF),tr '\0' '\377',cat) \
		>>$(BINARIES_DIR)/rootfs.nor
endef
ROOTFS_AXFS_TOOLS_POST_GEN_HOOKS += ROOTFS_AXFS_TOOLS_PAD_NOR
endif
endif

$(eval $(rootfs))
