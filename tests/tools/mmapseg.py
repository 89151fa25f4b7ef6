#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""mmapseg.py - read the memory-mapped segment of a split AXFS image alone.

A physaddr= mount of a dual-device image (mmap segment in memory, store
segment on second_dev=) uses in place every region the 2008 driver does
not copy into RAM (axfs_fill_region_data() in the seed's axfs_super.c):
a region stored raw, without `incore`, that starts below mmap_size.  The
XIP pages are mapped straight from it.  This reader gets only the first
segment, shares no code with the C tools or seedread.py, and checks:

  - the file is exactly mmap_size bytes, mmap_size < size and a multiple
    of 4096, and the superblock and the 18 descriptors lie inside it;
  - every in-place region (the XIP region and every raw metadata region)
    lies wholly inside it, and every region the driver copies or reads
    on demand (compressed, byte_aligned, compressed metadata) does not
    straddle mmap_size;
  - the whole inode tree can be walked from the segment alone (names,
    modes, child ranges, node tables) and every XIP page of every
    regular file lies inside the XIP region, inside the segment.

  mmapseg.py SEGMENT            every XIP page as /path,offset, sorted
                                bytewise (the lines of `seedread.py xip
                                IMAGE`, in `LC_ALL=C sort` order)
  mmapseg.py --regions SEGMENT  each region: name, offset, stored size,
                                and "in-place", "copied" or "store"

Exit status 0 when every check holds, 1 otherwise (reasons on stderr).
"""

import os
import stat
import struct
import sys
import zlib

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from axfs_format import MAGIC, REGIONS as NAMES  # noqa: E402

PAGE = 4096
DATA = ("compressed", "byte_aligned")


class Bad(Exception):
    pass


def u64(buf, off):
    if off + 8 > len(buf):
        raise Bad("byte %d: past the end of the segment (%d bytes)"
                  % (off, len(buf)))
    return struct.unpack_from(">Q", buf, off)[0]


class Segment:
    def __init__(self, path):
        with open(path, "rb") as f:
            self.seg = f.read()
        seg = self.seg
        if len(seg) < 256 or struct.unpack_from(">I", seg, 0)[0] != MAGIC:
            raise Bad("no AXFS superblock at byte 0")
        self.size = u64(seg, 72)
        self.blocks = u64(seg, 80)
        self.mmap_size = u64(seg, 88)
        if self.mmap_size != len(seg):
            raise Bad("the segment is %d bytes, mmap_size is %d"
                      % (len(seg), self.mmap_size))
        if not self.mmap_size < self.size:
            raise Bad("mmap_size %d is not below the image size %d: no split"
                      % (self.mmap_size, self.size))
        if self.mmap_size % PAGE:
            raise Bad("mmap_size %d is not a multiple of 4096" % self.mmap_size)
        self.r = {}
        for i, name in enumerate(NAMES):
            d = u64(seg, 96 + 8 * i)
            if d + 40 > len(seg):
                raise Bad("the %s descriptor (byte %d) is outside the segment"
                          % (name, d))
            fo, size, csize, _ = struct.unpack_from(">QQQQ", seg, d)
            self.r[name] = {"fo": fo, "size": size, "csize": csize,
                            "depth": seg[d + 32], "incore": seg[d + 33]}
        self.data = {}

    def kind(self, name):
        """What a physaddr= mount does with the region (2008 driver)."""
        r = self.r[name]
        if r["size"] == 0:
            return "empty"
        if r["csize"] or r["incore"]:
            return "copied"
        if r["fo"] < self.mmap_size:
            return "in-place"
        return "store"

    def check_regions(self):
        problems = []
        for name in NAMES:
            r = self.r[name]
            k = self.kind(name)
            stored = r["csize"] or r["size"]
            end = r["fo"] + stored
            if k == "in-place" and end > self.mmap_size:
                problems.append("%s [%d, %d) is used in place but ends past "
                                "mmap_size %d" % (name, r["fo"], end,
                                                  self.mmap_size))
            elif k in ("copied", "store") and r["fo"] < self.mmap_size < end:
                problems.append("%s [%d, %d) straddles mmap_size %d"
                                % (name, r["fo"], end, self.mmap_size))
            elif k == "store" and name not in DATA:
                problems.append("metadata region %s lies in the store "
                                "segment" % name)
        if self.r["xip"]["size"] and self.kind("xip") != "in-place":
            problems.append("the XIP region is not in the mmap segment")
        if self.r["xip"]["fo"] % PAGE:
            problems.append("the XIP region starts at byte %d, not on a page"
                            % self.r["xip"]["fo"])
        return problems

    def region(self, name):
        """The bytes of a metadata region, from the segment alone."""
        if name not in self.data:
            r = self.r[name]
            stored = r["csize"] or r["size"]
            if r["fo"] + stored > len(self.seg):
                raise Bad("%s is not in the segment" % name)
            raw = self.seg[r["fo"]:r["fo"] + stored]
            if r["csize"]:
                raw = zlib.decompress(raw)
            if len(raw) != r["size"]:
                raise Bad("%s holds %d bytes, not %d" % (name, len(raw),
                                                         r["size"]))
            self.data[name] = raw
        return self.data[name]

    def entry(self, name, i):
        depth = self.r[name]["depth"]
        if depth == 0:
            return 0
        raw = self.region(name)
        if (i + 1) * depth > len(raw):
            raise Bad("%s entry %d is past the table" % (name, i))
        return int.from_bytes(raw[i * depth:(i + 1) * depth], "big")

    def name(self, ino):
        s = self.region("strings")
        off = self.entry("inode_name_offset", ino)
        end = s.find(b"\0", off)
        if off >= len(s) or end < 0:
            raise Bad("inode %d: name offset %d outside the strings" % (ino, off))
        return s[off:end]

    def xip_pages(self):
        """Every XIP page of every regular file: (path, offset)."""
        out = []
        xip = self.r["xip"]
        stack = [(b"", 0)]
        seen = set()
        while stack:
            path, ino = stack.pop()
            if ino in seen:
                raise Bad("inode %d is reached twice" % ino)
            seen.add(ino)
            mode = self.entry("modes", self.entry("inode_mode_index", ino))
            first = self.entry("inode_array_index", ino)
            if stat.S_ISDIR(mode):
                n = self.entry("inode_num_entries", ino)
                for child in range(first, first + n):
                    stack.append((path + b"/" + self.name(child), child))
                continue
            if not stat.S_ISREG(mode):
                continue
            size = self.entry("inode_file_size", ino)
            for p in range((size + PAGE - 1) // PAGE):
                node = first + p
                if node >= self.blocks:
                    raise Bad("%s: node %d past the %d nodes"
                              % (path.decode(errors="replace"), node,
                                 self.blocks))
                if self.entry("node_type", node) != 0:
                    continue
                at = xip["fo"] + self.entry("node_index", node) * PAGE
                if at + PAGE > xip["fo"] + xip["size"] or \
                   at + PAGE > self.mmap_size:
                    raise Bad("%s: XIP page %d at byte %d is outside the XIP "
                              "region or the segment"
                              % (path.decode(errors="replace"), p, at))
                out.append((path, p * PAGE))
        return out


def main(argv):
    args = argv[1:]
    regions = bool(args) and args[0] == "--regions"
    if regions:
        args = args[1:]
    if len(args) != 1:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    try:
        s = Segment(args[0])
    except Bad as e:
        print("mmapseg: %s: %s" % (args[0], e), file=sys.stderr)
        return 1
    problems = s.check_regions()
    for p in problems:
        print("mmapseg: %s: %s" % (args[0], p), file=sys.stderr)
    if regions:
        for name in NAMES:
            r = s.r[name]
            print("%s %d %d %s" % (name, r["fo"], r["csize"] or r["size"],
                                   s.kind(name)))
        return 1 if problems else 0
    try:
        lines = [path + b",%d\n" % off for path, off in s.xip_pages()]
    except (Bad, zlib.error) as e:
        print("mmapseg: %s: %s" % (args[0], e), file=sys.stderr)
        return 1
    sys.stdout.buffer.write(b"".join(sorted(lines)))
    return 1 if problems else 0

if __name__ == "__main__":
    sys.exit(main(sys.argv))
