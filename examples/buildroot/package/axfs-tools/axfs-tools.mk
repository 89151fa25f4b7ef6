################################################################################
#
# axfs-tools
#
################################################################################

# The release this tree is (its VERSION file, checked by t7300).  By
# default built from the axfs-tools tree this br2-external tree belongs to
# (examples/buildroot/../..); to build another checkout, set
# AXFS_TOOLS_OVERRIDE_SRCDIR in local.mk.  With
# BR2_AXFS_TOOLS_RELEASE_TARBALL, from the release tarball `make dist`
# writes, checked against axfs-tools.hash.
AXFS_TOOLS_VERSION = 0.1.0
ifeq ($(BR2_AXFS_TOOLS_RELEASE_TARBALL),y)
AXFS_TOOLS_SOURCE = axfs-tools-$(AXFS_TOOLS_VERSION).tar.xz
AXFS_TOOLS_SITE = $(call qstrip,$(BR2_AXFS_TOOLS_RELEASE_SITE))/v$(AXFS_TOOLS_VERSION)
else
AXFS_TOOLS_SITE = $(BR2_EXTERNAL_AXFS_PATH)/../..
AXFS_TOOLS_SITE_METHOD = local
endif
AXFS_TOOLS_LICENSE = GPL-2.0+ (programs), LGPL-2.1+ (libaxfsimg)
AXFS_TOOLS_LICENSE_FILES = \
	LICENSES/GPL-2.0-or-later.txt \
	LICENSES/LGPL-2.1-or-later.txt
AXFS_TOOLS_INSTALL_STAGING = YES
# A developer's checkout holds build directories and git history that the
# build does not need.
AXFS_TOOLS_OVERRIDE_SRCDIR_RSYNC_EXCLUSIONS = \
	--exclude /.git --exclude /build --exclude '/build-*' \
	--exclude /bench/work
HOST_AXFS_TOOLS_OVERRIDE_SRCDIR_RSYNC_EXCLUSIONS = \
	$(AXFS_TOOLS_OVERRIDE_SRCDIR_RSYNC_EXCLUSIONS)

# The project's Makefile takes the GNU variables; it installs nothing with
# apt-get and makes warnings errors only with WERROR=1.
AXFS_TOOLS_DEPENDENCIES = \
	host-pkgconf zlib libdeflate libarchive libyaml libmd
AXFS_TOOLS_MAKE_OPTS = \
	CC="$(TARGET_CC)" \
	CFLAGS="$(TARGET_CFLAGS)" \
	LDFLAGS="$(TARGET_LDFLAGS)" \
	PKG_CONFIG="$(PKG_CONFIG_HOST_BINARY)" \
	PREFIX=/usr

define AXFS_TOOLS_BUILD_CMDS
	$(TARGET_MAKE_ENV) $(MAKE) -C $(@D) $(AXFS_TOOLS_MAKE_OPTS) all
endef

define AXFS_TOOLS_INSTALL_STAGING_CMDS
	$(TARGET_MAKE_ENV) $(MAKE) -C $(@D) $(AXFS_TOOLS_MAKE_OPTS) \
		DESTDIR=$(STAGING_DIR) install
endef

define AXFS_TOOLS_INSTALL_TARGET_CMDS
	$(TARGET_MAKE_ENV) $(MAKE) -C $(@D) $(AXFS_TOOLS_MAKE_OPTS) \
		DESTDIR=$(TARGET_DIR) install
endef

# libdeflate (the default compressor) and libmd have no host variant in
# Buildroot; host-axfs-libdeflate and host-axfs-libmd build them.
HOST_AXFS_TOOLS_DEPENDENCIES = \
	host-pkgconf host-zlib host-axfs-libdeflate host-libarchive \
	host-libyaml host-axfs-libmd

HOST_AXFS_TOOLS_MAKE_OPTS = \
	CC="$(HOSTCC)" \
	CFLAGS="$(HOST_CFLAGS)" \
	LDFLAGS="$(HOST_LDFLAGS)" \
	PKG_CONFIG="$(PKG_CONFIG_HOST_BINARY)" \
	PREFIX="$(HOST_DIR)"

define HOST_AXFS_TOOLS_BUILD_CMDS
	$(HOST_MAKE_ENV) $(MAKE) -C $(@D) $(HOST_AXFS_TOOLS_MAKE_OPTS) all
endef

define HOST_AXFS_TOOLS_INSTALL_CMDS
	$(HOST_MAKE_ENV) $(MAKE) -C $(@D) $(HOST_AXFS_TOOLS_MAKE_OPTS) install
endef

$(eval $(generic-package))
$(eval $(host-generic-package))
