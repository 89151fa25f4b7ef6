################################################################################
#
# axfs
#
################################################################################

# The AXFS kernel driver: the same source as axfs-tools (its kernel/ and
# include/axfs/axfs_fs.h), patched into the kernel tree by the
# linux-ext-axfs extension before the kernel is configured.
AXFS_VERSION = $(AXFS_TOOLS_VERSION)
AXFS_SITE = $(AXFS_TOOLS_SITE)
AXFS_SOURCE = $(AXFS_TOOLS_SOURCE)
AXFS_SITE_METHOD = $(AXFS_TOOLS_SITE_METHOD)
AXFS_DL_SUBDIR = axfs-tools
AXFS_LICENSE = GPL-2.0
AXFS_LICENSE_FILES = LICENSES/GPL-2.0-only.txt
AXFS_OVERRIDE_SRCDIR_RSYNC_EXCLUSIONS = $(AXFS_TOOLS_OVERRIDE_SRCDIR_RSYNC_EXCLUSIONS)

# Built in, since the kernel mounts the root filesystem before any module.
define AXFS_LINUX_CONFIG_FIXUPS
	$(call KCONFIG_ENABLE_OPT,CONFIG_MISC_FILESYSTEMS)
	$(call KCONFIG_ENABLE_OPT,CONFIG_AXFS)
	$(if $(BR2_LINUX_KERNEL_EXT_AXFS_PROFILING),$(call KCONFIG_ENABLE_OPT,CONFIG_AXFS_PROFILING),$(call KCONFIG_DISABLE_OPT,CONFIG_AXFS_PROFILING))
endef

$(eval $(generic-package))
