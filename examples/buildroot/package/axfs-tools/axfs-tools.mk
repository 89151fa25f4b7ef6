################################################################################
#
# axfs-tools
#
################################################################################

# Built from the axfs-tools tree this br2-external tree belongs to
# (examples/buildroot/../..).  To build another checkout, set
# AXFS_TOOLS_OVERRIDE_SRCDIR in local.mk.
AXFS_TOOLS_VERSION = 0.1.0
AXFS_TOOLS_SITE = $(BR2_EXTERNAL_AXFS_PATH)/../..
AXFS_TOOLS_SITE_METHOD = local
AXFS_TOOLS_LICENSE = GPL-2.0+ (programs), LGPL-2.1+ (libaxfsimg)
AXFS_TOOLS_LICENSE_FILES = \
	LICENSES/GPL-2.0-or-later.txt \
	LICENSES/LGPL-2.1-or-later.txt
# A developer's checkout holds build directories and git history that the
# build does not need.
AXFS_TOOLS_OVERRIDE_SRCDIR_RSYNC_EXCLUSIONS = \
	--exclude /.git --exclude /build --exclude '/build-*' \
	--exclude /bench/work
HOST_AXFS_TOOLS_OVERRIDE_SRCDIR_RSYNC_EXCLUSIONS = \
	$(AXFS_TOOLS_OVERRIDE_SRCDIR_RSYNC_EXCLUSIONS)

# libdeflate (the default compressor) and libmd have no host variant in
# Buildroot; host-axfs-libdeflate and host-axfs-libmd build them.
HOST_AXFS_TOOLS_DEPENDENCIES = \
	host-pkgconf host-zlib host-axfs-libdeflate host-libarchive \
	host-libyaml host-axfs-libmd

# The project's Makefile takes the usual variables.  Warnings are not
# errors here: the host compiler may be newer than the project's CI.
HOST_AXFS_TOOLS_MAKE_OPTS = \
	CC="$(HOSTCC)" \
	CFLAGS="$(HOST_CFLAGS)" \
	LDFLAGS="$(HOST_LDFLAGS)" \
	PKG_CONFIG="$(PKG_CONFIG_HOST_BINARY)" \
	WARN="-Wall -Wextra" \
	PREFIX="$(HOST_DIR)"

# The Makefile's first step installs missing Debian packages with
# apt-get; here every library comes from a host package instead, so that
# step is marked done.
define HOST_AXFS_TOOLS_BUILD_CMDS
	mkdir -p $(@D)/build
	touch $(@D)/build/.deps-ok
	$(HOST_MAKE_ENV) $(MAKE) -C $(@D) $(HOST_AXFS_TOOLS_MAKE_OPTS) all
endef

define HOST_AXFS_TOOLS_INSTALL_CMDS
	$(HOST_MAKE_ENV) $(MAKE) -C $(@D) $(HOST_AXFS_TOOLS_MAKE_OPTS) install
endef

$(eval $(host-generic-package))
