#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Rewrite an AXFS image with the quirks of the legacy C mkfs.axfs.

  legacy_quirks.py IN OUT [--QUIRK...] [--all]

IN is an image written by `axfs mkfs` (not split).  It is read in full
(metadata regions inflated) and written again, with the superblock, page
_shift and the 18 descriptors at 0..983, the XIP region at 4096 and the
other regions after it, and then changed by each switch given.  Every quirk
is something the jaredeh/axfs legacy mkfs writes and the 2008 driver reads
correctly; `axfs fsck` must pass the result with exit 0 and the warnings
the tests expect, and `dump` and `extract` must read it.

  --size-unaligned     size = the bytes used (not a multiple of 4096), end
                       magic at size - 4, the file zero-padded to 4096
  --depth4             every byte table 4 bytes deep, whatever the values
  --max-index-zero     max_index 0 in strings, xip, byte_aligned, compressed
  --unused-nodes       3 unused nodes after the last one (counted in blocks)
  --blocks-short       blocks does not count those trailing unused nodes
                       (implies --unused-nodes)
  --unused-cnode       one cnode that no node uses
  --unused-banode      one banode that no node uses
  --root-name          the root is named "./"
  --empty-dir-index    empty directories get a non-zero array_index
  --empty-file-index   empty files get a non-zero array_index
  --version            version 2.2.0
  --timestamp-zero     timestamp 0
  --no-digest          an all-zero digest (else it is recomputed)
  --symlink-cblock-end each symlink target in a cblock of its own that ends
                       with the target (no NUL after it)
  --all                all of the above
"""
import argparse
import hashlib
import os
import stat
import struct
import sys
import zlib

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from axfs_patch import be, die  # noqa: E402  (the same helpers)

MAGIC = 0x48A0E4CD
SB_SIZE, SB_EXT, DESC_SIZE, NREG, PAGE = 256, 264, 40, 18, 4096
NAMES = ["strings", "xip", "byte_aligned", "compressed", "node_type",
         "node_index", "cnode_offset", "cnode_index", "banode_offset",
         "cblock_offset", "inode_file_size", "inode_name_offset",
         "inode_num_entries", "inode_mode_index", "inode_array_index",
         "modes", "uids", "gids"]
R = {n: i for i, n in enumerate(NAMES)}
TABLES = NAMES[4:]
QUIRKS = ["size-unaligned", "depth4", "max-index-zero", "unused-nodes",
          "blocks-short", "unused-cnode", "unused-banode", "root-name",
          "empty-dir-index", "empty-file-index", "version",
          "timestamp-zero", "no-digest", "symlink-cblock-end"]


class Image:
    def __init__(self, data):
        if be(data, 0, 4) != MAGIC:
            die("not an AXFS image")
        self.sb = bytearray(data[:SB_SIZE])
        size = be(data, 72, 8)
        if be(data, 88, 8) != size:
            die("a split image (mmap_size < size) is not supported")
        self.raw = {}
        self.tab = {}
        for r, name in enumerate(NAMES):
            d = be(data, 96 + 8 * r, 8)
            fso, sz, cs = (be(data, d + 8 * k, 8) for k in range(3))
            depth = data[d + 32]
            blob = data[fso:fso + (cs or sz)]
            if cs:
                blob = zlib.decompress(blob)
            if name in TABLES:
                n = len(blob) // depth if depth else be(data, d + 24, 8)
                self.tab[name] = [be(blob, i * depth, depth) if depth else 0
                                  for i in range(n)]
            else:
                self.raw[name] = bytes(blob)

    # ---- helpers for the quirks -----------------------------------------
    def inode(self, i):
        t = self.tab
        return (t["inode_file_size"][i], t["inode_name_offset"][i],
                t["inode_num_entries"][i],
                t["modes"][t["inode_mode_index"][i]],
                t["inode_array_index"][i])

    def set_name(self, i, name):
        off = len(self.raw["strings"])
        self.raw["strings"] += name + b"\0"
        self.tab["inode_name_offset"][i] = off

    def add_cblock(self, data):
        co = self.tab["cblock_offset"]
        if not co:
            co.append(0)
        end = co[-1]
        blob = zlib.compress(data, 9)
        self.raw["compressed"] = self.raw["compressed"][:end] + blob
        co.append(end + len(blob))
        return len(co) - 2

    # ---- writing ---------------------------------------------------------
    def serialize(self, depth4, max_index_zero, size_unaligned, no_digest,
                  blocks):
        sb = self.sb
        out = bytearray(SB_EXT + NREG * DESC_SIZE)
        out[:SB_SIZE] = sb
        out[256] = 12
        descs = []
        regions = {}
        for name in NAMES:
            if name in TABLES:
                vals = self.tab[name]
                top = max(vals) if vals else 0
                depth = 4 if depth4 else (top.bit_length() + 7) // 8
                if depth4 and top >= 1 << 32:
                    depth = 8
                blob = b"".join(v.to_bytes(depth, "big") for v in vals)
                count = len(vals)
            else:
                blob, depth = self.raw[name], 0
                count = {"strings": self.tab_len("inode_name_offset"),
                         "xip": len(blob) // PAGE,
                         "byte_aligned": self.tab_len("banode_offset"),
                         "compressed": max(0, self.tab_len("cblock_offset")
                                           - 1)}[name]
                if max_index_zero:
                    count = 0
            regions[name] = (blob, depth, count)
        xip = regions["xip"][0]
        pos = len(out)
        if xip:
            pos = (pos + PAGE - 1) // PAGE * PAGE
        layout = {}
        for name in ["xip"] + [n for n in NAMES if n != "xip"]:
            blob = regions[name][0]
            if not blob:
                layout[name] = 0
                continue
            layout[name] = pos
            out += bytes(pos - len(out)) + blob
            pos = len(out)
        for r, name in enumerate(NAMES):
            blob, depth, count = regions[name]
            d = SB_EXT + DESC_SIZE * r
            struct.pack_into(">QQQQBB", out, d, layout[name], len(blob), 0,
                             count, depth, 0)
            struct.pack_into(">Q", out, 96 + 8 * r, d)
        size = len(out) + 4
        if not size_unaligned:
            size = (size + PAGE - 1) // PAGE * PAGE
        out += bytes(size - 4 - len(out))
        out += struct.pack(">I", MAGIC)
        struct.pack_into(">QQQQ", out, 64, self.tab_len("inode_file_size"),
                         size, blocks, size)
        out[20:60] = bytes(40)
        if not no_digest:
            out[20:40] = hashlib.sha1(bytes(out)).digest()
        # The legacy mkfs pads the file, not the image, to 4 KiB.
        out += bytes((-len(out)) % PAGE)
        return bytes(out)

    def tab_len(self, name):
        return len(self.tab[name])


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("input")
    ap.add_argument("output")
    for q in QUIRKS:
        ap.add_argument("--" + q, action="store_true")
    ap.add_argument("--all", action="store_true")
    a = ap.parse_args(argv)
    on = {q: a.all or getattr(a, q.replace("-", "_")) for q in QUIRKS}
    if on["blocks-short"]:
        on["unused-nodes"] = True
    with open(a.input, "rb") as f:
        img = Image(f.read())
    t = img.tab
    n_inodes = len(t["inode_file_size"])
    nodes_used = len(t["node_type"])

    if on["symlink-cblock-end"]:
        for i in range(n_inodes):
            size, name_off, nent, mode, ai = img.inode(i)
            if not stat.S_ISLNK(mode) or size == 0:
                continue
            node = ai
            typ, idx = t["node_type"][node], t["node_index"][node]
            if typ == 0:
                target = img.raw["xip"][idx * PAGE:idx * PAGE + size]
            elif typ == 2:
                o = t["banode_offset"][idx]
                target = img.raw["byte_aligned"][o:o + size]
            else:
                c = t["cnode_index"][idx]
                co = t["cblock_offset"]
                blk = zlib.decompress(img.raw["compressed"][co[c]:co[c + 1]])
                o = t["cnode_offset"][idx]
                target = blk[o:o + size]
            c = img.add_cblock(bytes(target))
            t["cnode_offset"].append(0)
            t["cnode_index"].append(c)
            t["node_type"][node] = 1
            t["node_index"][node] = len(t["cnode_offset"]) - 1
    if on["unused-cnode"]:
        t["cnode_offset"].append(0)
        t["cnode_index"].append(max(0, len(t["cblock_offset"]) - 2))
    if on["unused-banode"]:
        t["banode_offset"].append(0)
    if on["unused-nodes"]:
        t["node_type"] += [0, 0, 0]
        t["node_index"] += [0, 0, 0]
    blocks = nodes_used if on["blocks-short"] else len(t["node_type"])
    if on["root-name"]:
        img.set_name(0, b"./")
    if on["empty-dir-index"] or on["empty-file-index"]:
        k = 0
        for i in range(n_inodes):
            size, _, nent, mode, ai = img.inode(i)
            if on["empty-dir-index"] and stat.S_ISDIR(mode) and nent == 0:
                # Legacy: where the next directory's children would be,
                # often beyond the inode count.
                t["inode_array_index"][i] = n_inodes + 100 + k
                k += 1
            elif (on["empty-file-index"] and stat.S_ISREG(mode) and
                  size == 0):
                t["inode_array_index"][i] = nodes_used + k
                k += 1
    if on["version"]:
        img.sb[240:243] = bytes([2, 2, 0])
    if on["timestamp-zero"]:
        img.sb[248:256] = bytes(8)

    out = img.serialize(on["depth4"], on["max-index-zero"],
                        on["size-unaligned"], on["no-digest"], blocks)
    with open(a.output, "wb") as f:
        f.write(out)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
