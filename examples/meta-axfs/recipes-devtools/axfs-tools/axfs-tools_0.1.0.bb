# SPDX-License-Identifier: GPL-2.0-or-later
# axfs-tools 0.1.0 from its release tarball (`make dist`), checked by its
# hash.  Not the default until the release is published (NEWS.md, "Making
# a release": its sha256 goes into axfs-tools-release.inc): select it with
# PREFERRED_VERSION_axfs-tools = "0.1.0" (and the same for
# axfs-tools-native), or with your own tarball in AXFS_TOOLS_RELEASES.
require axfs-tools.inc
require axfs-tools-release.inc

DEFAULT_PREFERENCE = "-1"
