################################################################################
#
# axfs-libmd
#
################################################################################

# libmd (SHA-1 for the image digest) for the host.  Buildroot's
# package/libmd only builds it for the target; this is the same upstream
# release built as a host package, used only by host-axfs-tools.
AXFS_LIBMD_VERSION = 1.1.0
AXFS_LIBMD_SOURCE = libmd-$(AXFS_LIBMD_VERSION).tar.xz
AXFS_LIBMD_SITE = https://archive.hadrons.org/software/libmd
AXFS_LIBMD_LICENSE = BSD-2-Clause, BSD-3-Clause, Beerware, ISC, Public Domain
AXFS_LIBMD_LICENSE_FILES = COPYING

$(eval $(host-autotools-package))
