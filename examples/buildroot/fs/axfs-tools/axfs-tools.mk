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

$(eval $(rootfs))
