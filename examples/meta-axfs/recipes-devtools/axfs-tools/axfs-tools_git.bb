# SPDX-License-Identifier: GPL-2.0-or-later
SUMMARY = "Build, inspect, check and tune AXFS filesystem images"
DESCRIPTION = "axfs-tools builds images of AXFS, the Advanced XIP File \
System (a read-only, compressed Linux filesystem whose chosen pages are \
stored uncompressed for execute-in-place), and dumps, extracts, checks, \
tunes with profiles and splits them.  libaxfsimg is the library behind it."
SECTION = "devel"
LICENSE = "GPL-2.0-or-later & LGPL-2.1-or-later"
LICENSE:${PN} = "GPL-2.0-or-later"
LICENSE:libaxfsimg = "LGPL-2.1-or-later"
LIC_FILES_CHKSUM = "\
    file://LICENSES/GPL-2.0-or-later.txt;md5=1ae708b7e4e3013187b8c0f9ae9db8f0 \
    file://LICENSES/LGPL-2.1-or-later.txt;md5=e7cd70c27b90744eb86ccc1c36b1e217 \
"

# The git repository this layer belongs to (examples/meta-axfs/../..), at
# the head of its branch.  For a product, point AXFS_TOOLS_GIT and
# AXFS_TOOLS_PROTOCOL at your mirror and pin SRCREV to a commit.
AXFS_TOOLS_GIT ?= "${AXFS_LAYERDIR}/../.."
AXFS_TOOLS_PROTOCOL ?= "file"
AXFS_TOOLS_BRANCH ?= "main"
SRC_URI = "git://${AXFS_TOOLS_GIT};protocol=${AXFS_TOOLS_PROTOCOL};branch=${AXFS_TOOLS_BRANCH}"
SRCREV ?= "${AUTOREV}"
PV = "0.1.0+git"
S = "${WORKDIR}/git"

# libdeflate (meta-oe) writes the images' zlib streams by default and
# inflates them in the reader: smaller and faster than zlib, measured in
# bench/RESULTS.md.  Its release decides the exact image bytes (see
# "Reproducible images" in axfs-mkfs(1)).
DEPENDS = "zlib libdeflate libarchive libyaml libmd"

inherit pkgconfig bash-completion

# The project's Makefile takes the usual variables.  B=build is its build
# directory inside the source tree; warnings are not errors here, since
# the target compiler may be newer than the project's CI.
EXTRA_OEMAKE = "\
    B=build V=1 \
    CC='${CC}' CFLAGS='${CFLAGS}' LDFLAGS='${LDFLAGS}' \
    PKG_CONFIG='pkg-config' WARN='-Wall -Wextra' \
    PREFIX='${prefix}' BINDIR='${bindir}' SBINDIR='${sbindir}' \
    LIBDIR='${libdir}' INCLUDEDIR='${includedir}' \
    MANDIR='${mandir}' DATADIR='${datadir}' \
"

do_configure[noexec] = "1"

do_compile () {
	# The Makefile's first step installs missing Debian packages with
	# apt-get; here the libraries come from DEPENDS, so it is marked done.
	mkdir -p ${S}/build
	touch ${S}/build/.deps-ok
	oe_runmake -C ${S} all build/libaxfsimg.a
}

do_install () {
	oe_runmake -C ${S} install DESTDIR='${D}'
}

# The LGPL library in its own package; the GPL programs in ${PN}.
PACKAGES =+ "libaxfsimg"
FILES:libaxfsimg = "${libdir}/libaxfsimg.so.*"

BBCLASSEXTEND = "native nativesdk"
