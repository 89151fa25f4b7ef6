#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""lsexpect.py < JOBS

What `axfs ls` must print for directories of a source tree, computed from
the tree with os.lstat, independently of the image.  Each line of JOBS is
"OUT MODE PREFIX DIR": the listing of DIR is written to the file OUT; MODE
is "names" (every entry's name, in bytewise order), "long" (-l lines),
"nlong" (-n lines: owners as numbers) or "rnames" / "rlong" (-R: every
path below DIR, depth first, after PREFIX; "-" for none).  Names are escaped as axfs escapes them (bytes below 0x20,
DEL and the backslash as \\NNN octal).  A -l line is "MODE UID/GID SIZE
NAME[ -> TARGET]", the owner's names from this host's passwd and group
(each a number where there is none) or the numbers, SIZE "-" for directories (whose size AXFS does not keep
as the host file system does): the test cuts the date, time and a
directory's size from axfs's lines to compare.  One process for all the
listings of a test script: starting Python is what costs.
"""
import grp
import os
import pwd
import stat
import sys


def esc(b):
    return "".join("\\%03o" % c if c < 0x20 or c == 0x7f or c == 0x5c
                   else chr(c) for c in b)


def owner(st, numeric):
    if numeric:
        return "%d/%d" % (st.st_uid, st.st_gid)
    try:
        u = esc(os.fsencode(pwd.getpwuid(st.st_uid).pw_name))
    except KeyError:
        u = str(st.st_uid)
    try:
        g = esc(os.fsencode(grp.getgrgid(st.st_gid).gr_name))
    except KeyError:
        g = str(st.st_gid)
    return u + "/" + g


def line(path, shown, long_):
    if not long_:
        return esc(shown)
    st = os.lstat(path)
    size = "-" if stat.S_ISDIR(st.st_mode) else str(st.st_size)
    s = "%s %s %s %s" % (stat.filemode(st.st_mode),
                         owner(st, long_ == "numeric"), size, esc(shown))
    if stat.S_ISLNK(st.st_mode):
        s += " -> " + esc(os.readlink(path))
    return s


def listing(top, rel, prefix, long_, recursive, out):
    d = os.path.join(top, rel) if rel else top
    for n in sorted(os.listdir(d)):
        r = os.path.join(rel, n) if rel else n
        p = os.path.join(top, r)
        out.append(line(p, prefix + r if recursive else n, long_))
        if recursive and stat.S_ISDIR(os.lstat(p).st_mode):
            listing(top, r, prefix, long_, recursive, out)


def main():
    for job in sys.stdin:
        out, mode, prefix, d = job.split()
        lines = []
        listing(os.fsencode(d), b"", os.fsencode(prefix if prefix != "-"
                                                 else ""),
                mode.endswith("long") and ("numeric" if mode == "nlong"
                                           else True),
                mode.startswith("r"), lines)
        with open(out, "w") as f:
            f.write("".join(s + "\n" for s in lines))


main()
