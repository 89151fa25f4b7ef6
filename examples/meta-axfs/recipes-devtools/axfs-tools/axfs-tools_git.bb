# SPDX-License-Identifier: GPL-2.0-or-later
# axfs-tools from git, at a pinned revision.  Not the default: select it
# with PREFERRED_VERSION_axfs-tools = "0.1.0+git%" (and the same for
# axfs-tools-native).
require axfs-tools.inc

DEFAULT_PREFERENCE = "-1"

# By default the git repository this layer belongs to
# (examples/meta-axfs/../..).  For a product, point AXFS_TOOLS_GIT and
# AXFS_TOOLS_PROTOCOL at your mirror.  AXFS_TOOLS_SRCREV pins the commit;
# AXFS_TOOLS_SRCREV = "${AUTOREV}" follows the branch (opt-in: builds are
# then not reproducible and need the network to parse).
AXFS_TOOLS_GIT ?= "${AXFS_LAYERDIR}/../.."
AXFS_TOOLS_PROTOCOL ?= "file"
AXFS_TOOLS_BRANCH ?= "main"
AXFS_TOOLS_SRCREV ?= "48898bd68d81a470c1fa605771cbc91606519cca"
SRC_URI = "git://${AXFS_TOOLS_GIT};protocol=${AXFS_TOOLS_PROTOCOL};branch=${AXFS_TOOLS_BRANCH};destsuffix=${BP}"
SRCREV = "${AXFS_TOOLS_SRCREV}"
PV = "0.1.0+git"
