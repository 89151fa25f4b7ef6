################################################################################
#
# axfs-libdeflate
#
################################################################################

# libdeflate (the default compressor of axfs mkfs, and the reader's
# decompressor: smaller and faster than zlib, see bench/RESULTS.md) for the
# host.  Buildroot's package/libdeflate only builds it for the target; this
# is the same upstream release built as a host package, used only by
# host-axfs-tools.  Another release writes other (equally valid) bytes:
# see "Reproducible images" in axfs-mkfs(1).
AXFS_LIBDEFLATE_VERSION = 1.26
AXFS_LIBDEFLATE_SOURCE = libdeflate-$(AXFS_LIBDEFLATE_VERSION).tar.gz
AXFS_LIBDEFLATE_SITE = https://github.com/ebiggers/libdeflate/releases/download/v$(AXFS_LIBDEFLATE_VERSION)
AXFS_LIBDEFLATE_LICENSE = MIT
AXFS_LIBDEFLATE_LICENSE_FILES = COPYING

# Only the library: not the libdeflate-gzip program.
HOST_AXFS_LIBDEFLATE_CONF_OPTS = \
	-DLIBDEFLATE_BUILD_GZIP=OFF \
	-DLIBDEFLATE_BUILD_SHARED_LIB=ON \
	-DLIBDEFLATE_BUILD_STATIC_LIB=OFF

$(eval $(host-cmake-package))
