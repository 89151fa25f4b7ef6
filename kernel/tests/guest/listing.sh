#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# listing.sh DIR - describe every entry under DIR, one line each, so that a
# source tree and the AXFS image built from it give the same text.  Runs
# under busybox on the host (for the expected listing) and in the guest.
#
#   ./path|type|mode(hex)|uid|gid|size|major:minor     (size "-" for dirs)
#   sha256  ./path                                      (regular files)
#   './path' -> 'target'                                (symbolic links)
# mtime is checked separately: the image has one timestamp for all.
cd "$1" || exit 1
export LC_ALL=C
find . -exec stat -c '%n|%F|%f|%u|%g|%s|%t:%T' {} + |
	awk -F'|' 'BEGIN { OFS = "|" } $2 == "directory" { $6 = "-" } { print }' |
	sort
find . -type f -exec sha256sum {} + | sort -k 2
# stat's %N, not a readlink per link: under software emulation every
# process costs milliseconds, and Debian trees have hundreds of links.
find . -type l -exec stat -c '%N' {} + | sort
