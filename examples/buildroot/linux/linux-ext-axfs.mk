################################################################################
#
# Add the AXFS driver to the Linux kernel tree
#
################################################################################

LINUX_EXTENSIONS += axfs

# fs/axfs from the driver's sources and the format header of the axfs
# package's tree; CONFIG_AXFS=y comes from AXFS_LINUX_CONFIG_FIXUPS.
define AXFS_PREPARE_KERNEL
	sh $(AXFS_DIR)/kernel/scripts/mkpatch.sh --tree $(LINUX_DIR)
endef
