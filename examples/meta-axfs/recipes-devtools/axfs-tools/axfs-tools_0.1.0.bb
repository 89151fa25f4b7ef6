# SPDX-License-Identifier: GPL-2.0-or-later
# axfs-tools from its release tarball (`make dist`), checked by its hash.
require axfs-tools.inc
require axfs-tools-release.inc
