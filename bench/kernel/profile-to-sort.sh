#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# profile-to-sort.sh ORDERED-PROFILE: a mksquashfs -sort file from an
# ordered AXFS profile (/proc/axfs/volumeN.order: "# axfs-profile order",
# then ./path,OFFSET,COUNT,FIRST, fields split from the right).  Each file
# gets the rank of its first-touched page; the file touched first gets
# the highest priority (32767), the next one less, and so on, so that
# mksquashfs stores the files in the order the boot first touched them.
# The paths are relative to the source directory, as mksquashfs takes
# them (a path with a space or a newline cannot be in a sort file: left
# out, with a warning).
set -u
[ $# = 1 ] || { echo "usage: profile-to-sort.sh ORDERED-PROFILE" >&2; exit 2; }
[ "$(head -n 1 "$1")" = "# axfs-profile order" ] ||
	{ echo "profile-to-sort.sh: '$1': not an ordered profile (no '# axfs-profile order' line)" >&2; exit 1; }
LC_ALL=C awk -F, '
	NR == 1 || /^#/ { next }
	NF < 4 { printf "profile-to-sort.sh: %s:%d: fewer than 4 fields\n", FILENAME, NR > "/dev/stderr"; bad = 1; exit }
	{
		first = $NF + 0
		path = $0
		sub(/,[^,]*,[^,]*,[^,]*$/, "", path)
		sub(/^\.\//, "", path)
		if (first <= 0) next
		if (path ~ /[ \t]/) { printf "profile-to-sort.sh: %s: a path with blanks, left out\n", path > "/dev/stderr"; next }
		if (!(path in rank) || first < rank[path]) rank[path] = first
	}
	END {
		if (bad) exit 1
		for (p in rank) print rank[p], p
	}' "$1" | sort -n | awk '{ p = 32767 - (NR - 1); if (p < -32768) p = -32768; print $2, p }'
