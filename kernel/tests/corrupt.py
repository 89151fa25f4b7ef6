#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""corrupt.py - corrupted AXFS images for the kernel module's hostile-input
tests.

  corrupt.py RAW.img ZMETA.img OUTDIR [HUGE.img]

RAW.img is a valid image with raw (uncompressed) metadata, ZMETA.img one
with zlib-compressed metadata, both built by `axfs mkfs` from the "mini"
tree of mktree.sh.  Writes OUTDIR/NAME.img for each corruption and
OUTDIR/manifest with one line per image:

  NAME refuse        the mount must fail (with a message in dmesg)
  NAME refuse-quiet  the mount must fail (a wrong magic: no message
                     when mount(8) probes with MS_SILENT)
  NAME eio PATH      the mount succeeds and reading PATH fails with EIO
  NAME any           either; it must only not crash, hang or warn

Every corruption is a targeted edit (a field set out of range, a table
entry pointed elsewhere) or a seeded random flip, so the set is the same
on every run.

HUGE.img, if named, is a sparse 3 GiB image (a few KiB on disk) whose
superblock claims 8 Mi inodes and whose strings region claims 2 GiB of
zeros: every check of the superblock and the descriptors passes, so the
mount must load that region and fail cleanly (no allocation warning, no
OOM kill, no 2 GiB read at once) where the RAM is not there.  Beside it,
HUGE-ram.img: the same in 1 GiB with a 380 MiB strings region, less than
a 512 MiB guest's RAM but more than it has free (the driver before the
bound OOM-killed the mounting process there).  Each is a virtio disk of
its own, not part of OUTDIR (which goes into a cpio).
"""

import os
import random
import struct
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "..", "tests", "tools"))
from axfs_format import MAGIC, REGIONS  # noqa: E402

SB_FIELD = {"cblock_size": (60, ">I"), "files": (64, ">Q"),
            "size": (72, ">Q"), "blocks": (80, ">Q"),
            "mmap_size": (88, ">Q"), "compression_type": (243, ">B")}


class Image:
    def __init__(self, data):
        self.b = bytearray(data)
        self.desc = {}
        for i, name in enumerate(REGIONS):
            at = struct.unpack_from(">Q", self.b, 96 + 8 * i)[0]
            fs, size, csize, maxi, depth, incore = struct.unpack_from(
                ">QQQQBB", self.b, at)
            self.desc[name] = dict(at=at, fsoffset=fs, size=size,
                                   csize=csize, depth=depth)

    def copy(self):
        return Image(bytes(self.b))

    def set_sb(self, field, value):
        off, fmt = SB_FIELD[field]
        struct.pack_into(fmt, self.b, off, value)

    def set_desc(self, region, field, value):
        d = self.desc[region]
        off = {"fsoffset": 0, "size": 8, "csize": 16, "depth": 32}[field]
        struct.pack_into(">B" if field == "depth" else ">Q", self.b,
                         d["at"] + off, value)

    # byte tables (raw metadata only)
    def count(self, region):
        d = self.desc[region]
        return d["size"] // d["depth"] if d["depth"] else 0

    def get(self, region, i):
        d = self.desc[region]
        at = d["fsoffset"] + i * d["depth"]
        return int.from_bytes(self.b[at:at + d["depth"]], "big")

    def put(self, region, i, value):
        """Store value, or the largest the entry holds if it is bigger."""
        d = self.desc[region]
        value = min(value, (1 << (8 * d["depth"])) - 1)
        at = d["fsoffset"] + i * d["depth"]
        self.b[at:at + d["depth"]] = value.to_bytes(d["depth"], "big")

    def name(self, ino):
        s = self.desc["strings"]
        off = s["fsoffset"] + self.get("inode_name_offset", ino)
        end = self.b.index(0, off)
        return self.b[off:end].decode("utf-8", "replace")

    def mode(self, ino):
        return self.get("modes", self.get("inode_mode_index", ino))

    def find(self, path):
        """Inode number of an absolute path."""
        ino = 0
        for part in path.strip("/").split("/"):
            first = self.get("inode_array_index", ino)
            n = self.get("inode_num_entries", ino)
            for c in range(first, first + n):
                if self.name(c) == part:
                    ino = c
                    break
            else:
                raise KeyError(path)
        return ino

    def node_of(self, path, page=0):
        return self.get("inode_array_index", self.find(path)) + page


def write_huge(raw, path, total, strings_at, strings_size):
    img = raw.copy()
    img.set_sb("size", total)
    img.set_sb("files", 1 << 23)
    img.set_desc("strings", "fsoffset", strings_at)
    img.set_desc("strings", "size", strings_size)
    with open(path, "wb") as f:
        f.write(img.b)
        f.truncate(total - 4)
        f.seek(total - 4)
        f.write(struct.pack(">I", MAGIC))


def main(argv):
    if len(argv) not in (4, 5):
        raise SystemExit("usage: corrupt.py RAW.img ZMETA.img OUTDIR [HUGE.img]")
    raw = Image(open(argv[1], "rb").read())
    zmeta = Image(open(argv[2], "rb").read())
    out = argv[3]
    os.makedirs(out, exist_ok=True)
    manifest = []

    def emit(name, img, expect):
        with open(os.path.join(out, name + ".img"), "wb") as f:
            f.write(img.b if isinstance(img, Image) else img)
        manifest.append("%s %s" % (name, expect))

    def sb(name, field, value, expect="refuse"):
        img = raw.copy()
        img.set_sb(field, value)
        emit(name, img, expect)

    size = len(raw.b)
    # ---- superblock ----------------------------------------------------
    img = raw.copy(); struct.pack_into(">I", img.b, 0, 0x12345678)
    emit("sb-magic", img, "refuse-quiet")
    img = raw.copy(); img.b[4:20] = b"Advanced XIP Fx\0"
    emit("sb-signature", img, "refuse")
    sb("sb-compression-type", "compression_type", 1)
    sb("sb-cblock-zero", "cblock_size", 0)
    sb("sb-cblock-huge", "cblock_size", 0xFFFFFFFF)
    sb("sb-size-huge", "size", 1 << 63)
    # The 2008 driver read the end magic at (u32)(size - 4).
    sb("sb-size-u32-wrap", "size", (1 << 32) + size)
    sb("sb-size-short", "size", size - 4096)
    sb("sb-size-tiny", "size", 100)
    sb("sb-files-zero", "files", 0)
    sb("sb-files-huge", "files", 1 << 40)
    sb("sb-blocks-huge", "blocks", 1 << 50)
    sb("sb-mmap-beyond", "mmap_size", size + 4096)
    img = raw.copy(); struct.pack_into(">I", img.b, size - 4, 0)
    emit("end-magic", img, "refuse")
    emit("truncated-half", raw.b[:size // 2 // 4096 * 4096], "refuse")
    emit("truncated-sector", raw.b[:size - 512], "refuse")

    # ---- descriptors -----------------------------------------------------
    for r in ("strings", "xip", "compressed", "node_type", "gids"):
        img = raw.copy()
        struct.pack_into(">Q", img.b, 96 + 8 * REGIONS.index(r), size - 20)
        emit("desc-outside-" + r, img, "refuse")
        img = raw.copy(); img.set_desc(r, "fsoffset", (1 << 64) - 8)
        emit("region-offset-wrap-" + r, img, "refuse")
        img = raw.copy(); img.set_desc(r, "size", 1 << 62)
        emit("region-size-huge-" + r, img, "refuse")
    img = raw.copy(); img.set_desc("node_index", "depth", 9)
    emit("table-depth-9", img, "refuse")
    img = raw.copy(); img.set_desc("inode_file_size", "size", 1)
    emit("inode-table-short", img, "refuse")
    img = raw.copy(); img.set_desc("strings", "csize", 1 << 40)
    emit("region-csize-huge", img, "refuse")
    img = raw.copy(); img.set_desc("modes", "csize", 3)
    emit("region-csize-bogus", img, "refuse")

    # ---- compressed metadata -----------------------------------------------
    for r in ("strings", "inode_array_index", "modes"):
        d = zmeta.desc[r]
        if not d["csize"]:
            continue
        img = zmeta.copy()
        mid = d["fsoffset"] + d["csize"] // 2
        img.b[mid] ^= 0x55
        img.b[mid + 1] ^= 0xAA
        emit("zmeta-garbage-" + r, img, "refuse")
        img = zmeta.copy(); img.set_desc(r, "size", d["size"] + 1)
        emit("zmeta-size-" + r, img, "refuse")
    # Regions claiming more than the superblock's counts can use: refused
    # before anything is allocated.  A compressed one may claim ~1000
    # times its stored bytes and still pass the zlib ratio check.
    d = zmeta.desc["strings"]
    if d["csize"]:
        img = zmeta.copy()
        img.set_desc("strings", "size",
                     min(0xFFFFFFFF, (d["csize"] + 1) * 1032 - 1))
        emit("zmeta-strings-beyond-counts", img, "refuse")
    img = raw.copy(); img.set_desc("node_index", "fsoffset", 0)
    img.set_desc("node_index", "size", size - 4)
    emit("table-beyond-counts", img, "refuse")

    # ---- tree -------------------------------------------------------------
    img = raw.copy()
    mi = img.get("inode_mode_index", 0)
    img.put("modes", mi, 0o100644)
    emit("root-not-dir", img, "refuse")
    img = raw.copy(); img.put("inode_num_entries", 0, 0)
    emit("root-empty", img, "refuse")
    files = struct.unpack_from(">Q", raw.b, 64)[0]
    sub = raw.find("/sub")
    img = raw.copy(); img.put("inode_array_index", sub, files - 1)
    emit("dir-children-outside", img, "refuse")
    img = raw.copy(); img.put("inode_array_index", sub, 0)
    emit("dir-contains-root", img, "refuse")
    # /sub's children include /sub itself: a directory in two places.
    img = raw.copy(); img.put("inode_array_index", sub, sub)
    img.put("inode_num_entries", sub, 1)
    emit("dir-cycle", img, "refuse")
    img = raw.copy()
    img.put("inode_name_offset", raw.find("/comp"),
            raw.desc["strings"]["size"] + 10)
    emit("name-outside-strings", img, "refuse")
    img = raw.copy()
    at = raw.desc["strings"]["fsoffset"] + raw.get(
        "inode_name_offset", raw.find("/comp"))
    img.b[at + 1] = ord("/")
    emit("name-with-slash", img, "refuse")
    img = raw.copy()
    img.put("inode_mode_index", raw.find("/ba"), raw.count("modes") + 5)
    emit("mode-index-outside", img, "refuse")
    img = raw.copy(); img.put("modes", raw.get("inode_mode_index",
                                               raw.find("/ba")), 0o170644)
    emit("mode-bad-type", img, "refuse")

    # ---- file data: the mount works, the broken file gives EIO -------------
    def node_edit(name, path, region, value, page=0, via="node_index"):
        img = raw.copy()
        node = raw.node_of(path, page)
        if via == "node":
            img.put(region, node, value)
        else:
            img.put(region, raw.get("node_index", node), value)
        emit(name, img, "eio " + path)

    types = {}
    for path in ("/bin/xipfile", "/comp", "/ba", "/sub/deeper/big",
                 "/sub/small"):
        types[path] = raw.get("node_type", raw.node_of(path))
    comp = [p for p, t in types.items() if t == 1]
    ba = [p for p, t in types.items() if t == 2]
    xip = [p for p, t in types.items() if t == 0]

    if xip:
        node_edit("xip-index-outside", xip[0], "node_index",
                  (1 << 40), via="node")
    if comp:
        c = comp[0]
        node_edit("cnode-offset-outside", c, "cnode_offset", 1 << 30)
        cblock = raw.get("cnode_index", raw.get("node_index",
                                                 raw.node_of(c)))
        node_edit("cnode-index-outside", c, "cnode_index", 1 << 40)
        img = raw.copy()
        img.put("cblock_offset", cblock + 1, raw.get("cblock_offset", cblock))
        emit("cblock-empty", img, "eio " + c)
        img = raw.copy()
        img.put("cblock_offset", cblock + 1,
                raw.desc["compressed"]["size"] + 4096)
        emit("cblock-end-outside", img, "eio " + c)
        img = raw.copy()
        start = raw.desc["compressed"]["fsoffset"] + raw.get("cblock_offset",
                                                              cblock)
        for k in range(2, 40):
            img.b[start + k] ^= 0xFF
        emit("cblock-garbage", img, "eio " + c)
        node_edit("node-type-7", c, "node_type", 7, via="node")
    if ba:
        node_edit("banode-outside", ba[0], "banode_offset", 1 << 33)
        node_edit("banode-end", ba[0], "banode_offset",
                  raw.desc["byte_aligned"]["size"] - 10)
    img = raw.copy()
    img.put("inode_array_index", raw.find("/comp"), 1 << 40)
    emit("file-nodes-outside", img, "eio /comp")
    img = raw.copy(); img.put("inode_file_size", raw.find("/sub/link"), 0)
    emit("symlink-size-zero", img, "eio /sub/link")
    img = raw.copy(); img.put("inode_file_size", raw.find("/sub/link"), 5000)
    emit("symlink-size-big", img, "eio /sub/link")
    img = raw.copy(); img.put("inode_file_size", raw.find("/null"), 1 << 40)
    emit("device-number-huge", img, "any")
    img = raw.copy()
    img.put("inode_file_size", raw.find("/sub/small"), (1 << 60))
    emit("file-size-huge", img, "any")

    # ---- depth-0 tables read as 0 -------------------------------------------
    img = raw.copy(); img.set_desc("node_index", "depth", 0)
    emit("depth0-node-index", img, "any")
    img = raw.copy(); img.set_desc("uids", "depth", 0)
    emit("depth0-uids", img, "any")

    # ---- seeded random damage ---------------------------------------------
    rng = random.Random(20080820)
    meta_end = max(d["fsoffset"] + (d["csize"] or d["size"])
                   for n, d in raw.desc.items()
                   if n not in ("xip", "byte_aligned", "compressed"))
    for k in range(24):
        img = raw.copy()
        for _ in range(1 + k % 4):
            at = rng.randrange(256, min(meta_end, size - 4))
            img.b[at] = rng.randrange(256)
        emit("random-%02d" % k, img, "any")
    for k in range(8):
        img = zmeta.copy()
        for _ in range(3):
            at = rng.randrange(0, len(img.b) - 4)
            img.b[at] ^= 1 << rng.randrange(8)
        emit("random-z-%02d" % k, img, "any")

    with open(os.path.join(out, "manifest"), "w") as f:
        f.write("\n".join(manifest) + "\n")
    if len(argv) == 5:
        write_huge(raw, argv[4], 3 << 30, 1 << 30, (2 << 30) - 4096)
        write_huge(raw, os.path.splitext(argv[4])[0] + "-ram.img",
                   1 << 30, 256 << 20, 380 << 20)


if __name__ == "__main__":
    main(sys.argv)
