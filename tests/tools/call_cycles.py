#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""call_cycles.py - calls between the files of a library run one way.

Reads `nm -A` of an archive (or of objects) on standard input: a file
that calls a function another file defines depends on it.  With
`--sources DIR`, a file that includes the header of another file of DIR
(x.h beside x.c: that file's own types and functions) depends on it too,
so a helper built on its caller's structures is a loop even when it
calls nothing there.  Prints each group of files that call each other,
directly or round a loop (a strongly connected component of that
graph), and exits 1 if there is any: an
orchestrator's phases must not call back into it, nor two helpers into
each other (libaxfsimg/README.md).  Otherwise prints "N files, M calls".
"""
import os
import re
import sys

INCLUDE = re.compile(r'\s*#\s*include\s+"([^"/]+)\.h"')


def include_edges(top):
    """(object, object) for each .c under top that includes the x.h
    beside an x.c: that file's own interface (the headers of
    libaxfsimg/internal/ are those of a whole unit, not of one file)."""
    for d, _, files in sorted(os.walk(top)):
        names = set(files)
        for f in sorted(files):
            if not f.endswith(".c"):
                continue
            with open(os.path.join(d, f), errors="replace") as src:
                for line in src:
                    m = INCLUDE.match(line)
                    if not m or m.group(1) == f[:-2]:
                        continue
                    if m.group(1) + ".c" in names and \
                            m.group(1) + ".h" in names:
                        yield f[:-2] + ".o", m.group(1) + ".o"


def main():
    args = sys.argv[1:]
    top = args[1] if len(args) == 2 and args[0] == "--sources" else None
    if args and top is None:
        print("usage: call_cycles.py [--sources DIR] <nm-output",
              file=sys.stderr)
        return 2
    defined, used = {}, {}
    for line in sys.stdin:
        # "lib.a:file.o:0000000000000040 T name", "lib.a:file.o:  U name"
        parts = line.split()
        if len(parts) != 3 or ":" not in parts[0]:
            continue
        obj = parts[0].split(":")[-2]
        used.setdefault(obj, set())
        if parts[1] in ("T", "D", "B", "R"):
            defined[parts[2]] = obj
        elif parts[1] == "U":
            used[obj].add(parts[2])
    edges = {o: {defined[s] for s in u if s in defined} - {o}
             for o, u in used.items()}
    if top is not None:
        for a, b in include_edges(top):
            if a in edges and b in edges:
                edges[a].add(b)
    graph = {o: sorted(d) for o, d in edges.items()}
    # Tarjan's strongly connected components, without recursion.
    index, low, stack, on, groups, n = {}, {}, [], set(), [], 0
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, 0)]
        while work:
            v, i = work.pop()
            if i == 0:
                index[v] = low[v] = n
                n += 1
                stack.append(v)
                on.add(v)
            if i < len(graph[v]):
                work.append((v, i + 1))
                w = graph[v][i]
                if w not in index:
                    work.append((w, 0))
                elif w in on:
                    low[v] = min(low[v], index[w])
                continue
            if low[v] == index[v]:
                group = []
                while True:
                    w = stack.pop()
                    on.discard(w)
                    group.append(w)
                    if w == v:
                        break
                if len(group) > 1:
                    groups.append(sorted(group))
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[v])
    for g in sorted(groups):
        print("files that call each other: " + " ".join(g))
    if groups:
        return 1
    print(f"{len(graph)} files, {sum(len(d) for d in graph.values())} calls")
    return 0


if __name__ == "__main__":
    sys.exit(main())
