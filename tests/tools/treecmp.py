#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""treecmp.py SRC OUT [--content] [--owners] [--mtime EPOCH]

Compares two directory trees entry by entry: the same paths, types,
permission bits, device numbers, regular-file sizes and symlink targets;
with --content the bytes of regular files, with --owners uid and gid, with
--mtime every entry of OUT has that modification time.  Prints up to 50
differences and exits 1 if there is any (compare_trees in tests/cli/lib.sh).
"""
import argparse
import os
import stat
import sys


def walk(top):
    res = {b"": os.lstat(top)}
    for d, dirs, files in os.walk(top):
        for n in dirs + files:
            p = os.path.join(d, n)
            res[p[len(top):]] = os.lstat(p)
    return res


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("src")
    ap.add_argument("out")
    ap.add_argument("--content", action="store_true")
    ap.add_argument("--owners", action="store_true")
    ap.add_argument("--mtime", type=int)
    a = ap.parse_args()
    src, out = os.fsencode(a.src), os.fsencode(a.out)
    x_all, y_all = walk(src), walk(out)
    bad = ["%r only in %s" % (p, a.src if p in x_all else a.out)
           for p in sorted(set(x_all) ^ set(y_all))]
    for p in sorted(set(x_all) & set(y_all)):
        x, y = x_all[p], y_all[p]
        if stat.S_IFMT(x.st_mode) != stat.S_IFMT(y.st_mode):
            bad.append("%r: type %o != %o" % (p, x.st_mode, y.st_mode))
            continue
        if stat.S_IMODE(x.st_mode) != stat.S_IMODE(y.st_mode):
            bad.append("%r: mode %o != %o" % (p, x.st_mode, y.st_mode))
        if a.owners and (x.st_uid, x.st_gid) != (y.st_uid, y.st_gid):
            bad.append("%r: owner %d:%d != %d:%d" % (p, x.st_uid, x.st_gid,
                                                     y.st_uid, y.st_gid))
        if (stat.S_ISCHR(x.st_mode) or stat.S_ISBLK(x.st_mode)) and \
           x.st_rdev != y.st_rdev:
            bad.append("%r: rdev %x != %x" % (p, x.st_rdev, y.st_rdev))
        if stat.S_ISREG(x.st_mode):
            if x.st_size != y.st_size:
                bad.append("%r: size %d != %d" % (p, x.st_size, y.st_size))
            elif a.content:
                with open(src + p, "rb") as f, open(out + p, "rb") as g:
                    if f.read() != g.read():
                        bad.append("%r: content" % p)
        if stat.S_ISLNK(x.st_mode) and \
           os.readlink(src + p) != os.readlink(out + p):
            bad.append("%r: target" % p)
        if a.mtime is not None and int(y.st_mtime) != a.mtime:
            bad.append("%r: mtime %d" % (p, y.st_mtime))
    for line in bad[:50]:
        print(line)
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
