#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# pkgtree.sh DEST PKG...: copies the files that the installed Debian
# packages PKG ship (dpkg -L) from / into DEST (created; it must not
# exist), with their modes, numeric owners, symlinks and empty
# directories: a real tree that nobody here wrote, with no download.
# Paths under a symlinked parent (/bin/ls with a merged /usr) are left
# out: tar would store them twice; the links themselves (/bin ->
# usr/bin) are kept.  Fails if the packages list nothing to copy.
set -eu
dest=$1
shift
mkdir "$dest"
list=$dest.list
dpkg -L "$@" | python3 -c "
import os, sys
seen = set()
for line in sys.stdin:
    p = line.rstrip(\"\n\")
    # Skip dpkg notes (\"diverted by\"), the root, and paths under a
    # symlinked parent.
    if not p.startswith(\"/\") or p == \"/.\" or p in seen:
        continue
    d = os.path.dirname(p)
    if os.path.realpath(d) != d or not os.path.lexists(p):
        continue
    seen.add(p)
for p in sorted(seen):
    print(p[1:])
" >"$list"
test -s "$list"
tar -C / --no-recursion -cf - -T "$list" |
	tar -C "$dest" --numeric-owner -xpf -
rm -f "$list"
