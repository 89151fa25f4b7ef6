################################################################################
#
# Build the axfs root filesystem image
#
################################################################################

ROOTFS_AXFS_DEPENDENCIES = host-axfs-tools

ROOTFS_AXFS_ARGS = \
	--no-progress \
	-j $(PARALLEL_JOBS) \
	-b $(call qstrip,$(BR2_TARGET_ROOTFS_AXFS_BS))

ifneq ($(call qstrip,$(BR2_TARGET_ROOTFS_AXFS_POLICY)),)
ROOTFS_AXFS_ARGS += --policy $(call qstrip,$(BR2_TARGET_ROOTFS_AXFS_POLICY))
endif

ROOTFS_AXFS_ARGS += \
	$(foreach p,$(call qstrip,$(BR2_TARGET_ROOTFS_AXFS_PROFILE)),--profile $(p))

ifneq ($(call qstrip,$(BR2_TARGET_ROOTFS_AXFS_XIP_BUDGET)),)
ROOTFS_AXFS_ARGS += --xip-budget $(call qstrip,$(BR2_TARGET_ROOTFS_AXFS_XIP_BUDGET))
endif

# Globs are quoted: the command runs in a shell script under fakeroot.
ROOTFS_AXFS_ARGS += \
	$(foreach g,$(call qstrip,$(BR2_TARGET_ROOTFS_AXFS_XIP_FILES)),--xip '$(g)')

# The image time comes from SOURCE_DATE_EPOCH, which Buildroot exports
# with BR2_REPRODUCIBLE; owners and device nodes are those fakeroot shows.
define ROOTFS_AXFS_CMD
	$(HOST_DIR)/bin/axfs mkfs $(ROOTFS_AXFS_ARGS) $(TARGET_DIR) $@
endef

# Check what was written, as the kernel driver will read it.
define ROOTFS_AXFS_FSCK
	$(HOST_DIR)/bin/axfs fsck -q $(BINARIES_DIR)/$(ROOTFS_AXFS_FINAL_IMAGE_NAME)
endef
ROOTFS_AXFS_POST_GEN_HOOKS += ROOTFS_AXFS_FSCK

$(eval $(rootfs))
