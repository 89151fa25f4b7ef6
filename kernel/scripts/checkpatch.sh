#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# checkpatch.sh - the kernel's scripts/checkpatch.pl --strict on the driver
# (kernel/*.c, kernel/*.h, kernel/probes/*.c) and on the format header it includes
# (include/axfs/axfs_fs.h).
#
#   sh kernel/scripts/checkpatch.sh [--all]
#
# checkpatch.pl, spelling.txt and const_structs.checkpatch come from
# Debian's linux-source-6.1 (apt-get download; nothing is installed), kept
# in $AXFS_CACHE/checkpatch-6.1 (default /var/cache/axfs-tools); a tree
# that tests/packaging/kernel-patch.sh unpacked is used if present.  The
# tool is run locally and never part of this repository.
#
# The exceptions below (FILE TYPE, each explained in kernel/README.md,
# "checkpatch") are left out; anything else is printed and the exit status
# is 1.  --all prints the exceptions too.  Exit status 2: no checkpatch.pl.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
cache=${AXFS_CACHE:-/var/cache/axfs-tools}
dir=$cache/checkpatch-6.1
tree=$cache/linux-src/linux-source-6.1
files="checkpatch.pl spelling.txt const_structs.checkpatch"

EXCEPTIONS='
kernel/super.c CAMELCASE
kernel/uncompress.c CAMELCASE
kernel/compat.h DEPRECATED_API
kernel/compat.h MACRO_ARG_UNUSED
include/axfs/axfs_fs.h MACRO_ARG_REUSE
'

have() {
	for f in $files; do
		[ -f "$dir/$f" ] || return 1
	done
}

# Copy the three files from an unpacked tree, or from the package.
fetch() {
	mkdir -p "$dir"
	flock "$dir.lock" sh -c '
		set -e
		dir=$1 tree=$2
		shift 2
		ok=1
		for f in "$@"; do [ -f "$dir/$f" ] || ok=0; done
		[ $ok = 1 ] && exit 0
		if [ -f "$tree/scripts/checkpatch.pl" ]; then
			for f in "$@"; do cp "$tree/scripts/$f" "$dir/$f.tmp"; done
		else
			cd "$dir"
			ls linux-source-6.1_*_all.deb >/dev/null 2>&1 ||
				apt-get download linux-source-6.1
			deb=$(ls linux-source-6.1_*_all.deb | head -n 1)
			members=""
			for f in "$@"; do members="$members linux-source-6.1/scripts/$f"; done
			# Only the three files out of the source tarball.
			dpkg-deb --fsys-tarfile "$deb" |
				tar -xO ./usr/src/linux-source-6.1.tar.xz |
				tar -xJ $members
			for f in "$@"; do mv "linux-source-6.1/scripts/$f" "$f.tmp"; done
			rm -rf linux-source-6.1 "$deb"
		fi
		for f in "$@"; do mv "$dir/$f.tmp" "$dir/$f"; done' \
		sh "$dir" "$tree" $files
}

all=0
[ "${1:-}" = --all ] && all=1
if ! have; then
	fetch >&2 || { echo "checkpatch.sh: cannot get checkpatch.pl from linux-source-6.1" >&2; exit 2; }
fi

cd "$top"
# The sources and the compile probes, not what kbuild leaves beside them
# (axfs.mod.c, axfs-probes.h).
src=$(ls kernel/*.c kernel/*.h kernel/probes/*.c | grep -v '\.mod\.c$\|/axfs-probes\.h$')
# shellcheck disable=SC2086
out=$(perl "$dir/checkpatch.pl" --strict --no-tree --terse --show-types \
	--no-summary -f $src include/axfs/axfs_fs.h) || true
# Its CamelCase cache, written in a git checkout.
rm -f .checkpatch-camelcase.git.*
# "FILE:LINE: LEVEL:TYPE: message" lines; the exceptions are dropped.
left=$(echo "$out" | awk -v all=$all -v exc="$EXCEPTIONS" '
	BEGIN { n = split(exc, l, "\n"); for (i = 1; i <= n; i++) if (l[i] != "") ok[l[i]] = 1 }
	/^[^ :]+:[0-9]+: [A-Z]+:[A-Z_]+:/ {
		split($0, f, ":")
		if ((f[1] " " f[4]) in ok) { if (all) print "(exception) " $0; next }
	}
	NF { print }')
[ -z "$left" ] && exit 0
echo "$left"
echo "$left" | grep -qv '^(exception) ' && exit 1
exit 0
