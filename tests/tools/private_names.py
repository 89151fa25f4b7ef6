#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""private_names.py - axfs_ means exported (libaxfsimg/README.md, Names).

Lists every struct, union or enum tag, enumerator, typedef and macro that a
private file (the C sources and headers of libaxfsimg/, cmd/, tests/ and
bench/ outside include/axfs/) defines with a name beginning with axfs_ or
AXFS_ that include/axfs/ does not declare.  A public opaque type defined in
a private file (struct axfs_image in read/internal.h) is allowed: its name is
in an installed header.  kernel/ is out of scope, and so are the fuzz
target's stand-ins for kernel headers (tests/fuzz/kshim/) and the kernel
code it builds (tests/fuzz/fuzz_kernel.c), which keep the driver's names.

Usage: private_names.py TOP   exit 1 and one line a name if there is any;
otherwise "N private files, M public names defined privately" on stdout.
"""
import os
import re
import sys

DIRS = ("libaxfsimg", "cmd", "tests", "bench")
SKIP = ("tests/fuzz/kshim/", "tests/fuzz/fuzz_kernel.c", "bench/kernel/")
PREFIX = re.compile(r"^(axfs_|AXFS_)")
IDENT = re.compile(r"\b(?:axfs|AXFS)_\w+")


def strip(text):
    """Comments become blanks, literals empty quotes; line numbers stay."""
    def blank(m):
        s = m.group(0)
        if s[0] == "/":
            return re.sub(r"[^\n]", " ", s)
        return s[0] + " " * (len(s) - 2) + s[-1]
    return re.sub(r'/\*.*?\*/|//[^\n]*|"(?:[^"\\\n]|\\.)*"|\'(?:[^\'\\\n]|\\.)*\'',
                  blank, text, flags=re.S)


def typedef_name(text, pos):
    """The name a typedef starting at pos declares (braces skipped)."""
    depth, i = 0, pos
    while i < len(text) and (text[i] != ";" or depth):
        depth += {"{": 1, "}": -1}.get(text[i], 0)
        i += 1
    stmt = re.sub(r"\{[^{}]*\}", " ", text[pos:i])
    while re.search(r"\{[^{}]*\}", stmt):
        stmt = re.sub(r"\{[^{}]*\}", " ", stmt)
    m = re.search(r"\(\s*\*\s*(\w+)\s*\)", stmt)
    if m:
        return pos + m.start(1), m.group(1)
    m = re.search(r"(\w+)[\s\[\]\w]*$", stmt)
    return (pos + m.start(1), m.group(1)) if m else (pos, "")


def definitions(text):
    """(line, name) of each tag, enumerator, typedef and macro defined."""
    out = []

    def add(pos, name):
        out.append((text.count("\n", 0, pos) + 1, name))
    for m in re.finditer(r"\b(?:struct|union|enum)\s+(\w+)\s*\{", text):
        add(m.start(1), m.group(1))
    for m in re.finditer(r"\benum\s*(?:\w+\s*)?\{([^}]*)\}", text):
        for e in re.finditer(r"(?:^|,)\s*(\w+)", m.group(1)):
            add(m.start(1) + e.start(1), e.group(1))
    for m in re.finditer(r"\btypedef\b", text):
        add(*typedef_name(text, m.start()))
    for m in re.finditer(r"^[ \t]*#[ \t]*define[ \t]+(\w+)", text, flags=re.M):
        add(m.start(1), m.group(1))
    return out


def main(top):
    public = set()
    inc = os.path.join(top, "include", "axfs")
    for f in sorted(os.listdir(inc)):
        if f.endswith(".h"):
            with open(os.path.join(inc, f), encoding="utf-8") as fh:
                public.update(IDENT.findall(strip(fh.read())))
    files = 0
    allowed = set()
    bad = []
    for d in DIRS:
        for root, subdirs, names in os.walk(os.path.join(top, d)):
            subdirs.sort()
            for n in sorted(names):
                if not n.endswith((".c", ".h")):
                    continue
                path = os.path.join(root, n)
                rel = os.path.relpath(path, top)
                if rel.startswith(SKIP):
                    continue
                files += 1
                with open(path, encoding="utf-8", errors="replace") as fh:
                    text = strip(fh.read())
                for line, name in definitions(text):
                    if not PREFIX.match(name):
                        continue
                    if name in public:
                        allowed.add(name)
                    else:
                        bad.append(f"{rel}:{line}: {name}")
    for b in bad:
        print(f"private name with the exported prefix: {b}")
    if bad:
        return 1
    print(f"{files} private files, {len(allowed)} public names defined privately")
    return 0


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__.strip().splitlines()[-2])
    sys.exit(main(sys.argv[1]))
