# SPDX-License-Identifier: GPL-2.0-or-later
# axfs-tools from git: the default recipe.  It builds the commit the git
# checkout this layer ships in (examples/meta-axfs/../..) is at, pinned by
# that commit's hash when the recipe is parsed: the code of the checkout,
# offline.  axfs --version then says which (0.1.0-N-gHASH, git describe).
require axfs-tools.inc

# For a product, point AXFS_TOOLS_GIT and AXFS_TOOLS_PROTOCOL at your
# mirror and pin AXFS_TOOLS_SRCREV; AXFS_TOOLS_SRCREV = "${AUTOREV}"
# follows AXFS_TOOLS_BRANCH (builds are then not reproducible).
AXFS_TOOLS_GIT ?= "${AXFS_LAYERDIR}/../.."
AXFS_TOOLS_PROTOCOL ?= "file"
AXFS_TOOLS_BRANCH ?= "main"
AXFS_TOOLS_SRCREV ?= "${@axfs_checkout_rev(d)}"
SRC_URI = "git://${AXFS_TOOLS_GIT};protocol=${AXFS_TOOLS_PROTOCOL};branch=${AXFS_TOOLS_BRANCH};nobranch=1;destsuffix=${BP}"
SRCREV = "${AXFS_TOOLS_SRCREV}"
# The VERSION of the checkout, then +git: what comes after the last
# release of that series (the release recipe is axfs-tools_VERSION.bb).
PV = "${@axfs_checkout_version(d)}+git"

# The commit the layer's own checkout is at; a layer that is not in a git
# checkout (unpacked from a release tarball) has none: use the release
# recipe, or set AXFS_TOOLS_SRCREV.
def axfs_checkout_rev(d):
    import subprocess
    top = d.getVar('AXFS_LAYERDIR') + '/../..'
    try:
        return subprocess.check_output(['git', '-C', top, 'rev-parse', 'HEAD'],
                                       stderr=subprocess.DEVNULL,
                                       universal_newlines=True).strip()
    except (OSError, subprocess.CalledProcessError):
        return 'INVALID'

def axfs_checkout_version(d):
    try:
        with open(d.getVar('AXFS_LAYERDIR') + '/../../VERSION') as f:
            return f.read().strip()
    except OSError:
        return '0.0.0'
