# SPDX-License-Identifier: GPL-2.0-or-later
#
# manifest.sh - every entry of the current directory, for comparing a
# mounted image with its source tree (bench/kernel/cramfs.sh): type and
# mode, size (not of directories: a file system's own figure), device
# number, owner, link target and each file's SHA-256.  BB names the
# busybox whose applets list it (the host's and the guest's are the same
# binary, so the two listings are byte for byte comparable).
bb=${BB:-busybox}
$bb find . ! -type d -exec $bb stat -c '%N %f %s %t:%T %u:%g' {} + | $bb sort
$bb find . -type d -exec $bb stat -c '%N %f %u:%g' {} + | $bb sort
$bb find . -type f -exec $bb sha256sum {} + | $bb sort -k 2
