#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Find and patch fields of an AXFS image by name, for the fsck tests.

The layout is the one in include/axfs/axfs_fs.h: a big-endian superblock
at 0 (256 bytes, page_shift at 256), 18 region descriptors of 40 bytes at the
offsets the superblock gives, byte tables of `depth` bytes per entry.

  axfs_patch.py IMAGE off TARGET          byte offset of TARGET
  axfs_patch.py IMAGE get TARGET          its value
  axfs_patch.py IMAGE set TARGET VALUE    write VALUE at TARGET (its width)
  axfs_patch.py IMAGE xor OFFSET MASK     flip bits of one byte
  axfs_patch.py IMAGE poke OFFSET BYTE..  write bytes
  axfs_patch.py IMAGE truncate LENGTH
  axfs_patch.py IMAGE digest              recompute the SHA-1 digest
  axfs_patch.py IMAGE ino PATH            inode number of PATH ("/a/b")
  axfs_patch.py IMAGE region NAME         "fsoffset size compressed_size
                                          max_index depth" of a region
  axfs_patch.py IMAGE entry TABLE I       value of a byte-table entry
  axfs_patch.py IMAGE share FROM STEP PATH...
                                          give each file PATH the node
                                          range of file FROM (its
                                          array_index, num_entries and
                                          size); the k-th PATH (from 0)
                                          is k*STEP bytes shorter
  axfs_patch.py IMAGE page INO P          where page P of inode INO is:
                                          "NODE xip OFFSET", "NODE ba OFFSET
                                          BANODE" or "NODE compressed CBLOCK
                                          CNODE_OFFSET CBLOCK_OFFSET CNODE"
  axfs_patch.py IMAGE cblocks             "C OFFSET LENGTH INFLATED" per cblock
                                          (OFFSET in the image)
  axfs_patch.py IMAGE bomb REGION SIZE
                                          store REGION as a zlib stream of
                                          SIZE zero bytes (a multiple of
                                          1 MiB), appended before the end
                                          magic (a 1 GiB claim costs 1 MB)
  axfs_patch.py IMAGE move TABLE OFFSET [DEPTH]
                                          re-encode a raw byte table at
                                          OFFSET (free space), optionally
                                          with another depth; zero the old

TARGET is sb.FIELD (magic, cblock_size, files, size, blocks, mmap_size,
version_major, ..., compression_type, timestamp, page_shift, padding,
digest), desc.REGION.FIELD (fsoffset, size, compressed_size, max_index,
depth, incore, padding) or entry.TABLE.INDEX (a byte-table entry; the table
must be stored raw).  Add --digest to set/xor/poke to recompute the digest
afterwards, so that the structural check is the one that fires.
"""
import hashlib
import struct
import sys
import zlib

MAGIC = 0x48A0E4CD
REGIONS = ["strings", "xip", "byte_aligned", "compressed", "node_type",
           "node_index", "cnode_offset", "cnode_index", "banode_offset",
           "cblock_offset", "inode_file_size", "inode_name_offset",
           "inode_num_entries", "inode_mode_index", "inode_array_index",
           "modes", "uids", "gids"]
SB = {  # name: (offset, width)
    "magic": (0, 4), "signature": (4, 16), "digest": (20, 40),
    "cblock_size": (60, 4), "files": (64, 8), "size": (72, 8),
    "blocks": (80, 8), "mmap_size": (88, 8), "version_major": (240, 1),
    "version_minor": (241, 1), "version_sub": (242, 1),
    "compression_type": (243, 1), "padding": (244, 4),
    "timestamp": (248, 8), "page_shift": (256, 1),
}
for _i, _r in enumerate(REGIONS):
    SB["region." + _r] = (96 + 8 * _i, 8)
DESC = {"fsoffset": (0, 8), "size": (8, 8), "compressed_size": (16, 8),
        "max_index": (24, 8), "depth": (32, 1), "incore": (33, 1),
        "padding": (34, 6)}


def die(msg):
    sys.stderr.write("axfs_patch.py: %s\n" % msg)
    sys.exit(2)


def be(data, off, width):
    return int.from_bytes(data[off:off + width], "big")


class Image:
    def __init__(self, path):
        self.path = path
        with open(path, "rb") as f:
            self.data = bytearray(f.read())

    def save(self):
        with open(self.path, "wb") as f:
            f.write(self.data)

    def desc_off(self, r):
        return be(self.data, 96 + 8 * REGIONS.index(r), 8)

    def region(self, r):
        d = self.desc_off(r)
        return {k: be(self.data, d + o, w) for k, (o, w) in DESC.items()}

    def region_bytes(self, r):
        g = self.region(r)
        if g["size"] == 0:
            return b""
        if g["compressed_size"]:
            raw = self.data[g["fsoffset"]:g["fsoffset"] + g["compressed_size"]]
            return zlib.decompress(bytes(raw))
        return bytes(self.data[g["fsoffset"]:g["fsoffset"] + g["size"]])

    def entry(self, r, i):
        g = self.region(r)
        t = self.region_bytes(r)
        d = g["depth"]
        return int.from_bytes(t[i * d:(i + 1) * d], "big") if d else 0

    def target(self, spec):
        """(offset, width) of a target."""
        parts = spec.split(".")
        if parts[0] == "sb" and len(parts) == 2 and parts[1] in SB:
            return SB[parts[1]]
        if parts[0] == "sb" and len(parts) == 3 and parts[1] == "region":
            return SB["region." + parts[2]]
        if parts[0] == "desc" and len(parts) == 3 and parts[1] in REGIONS \
                and parts[2] in DESC:
            o, w = DESC[parts[2]]
            return self.desc_off(parts[1]) + o, w
        if parts[0] == "entry" and len(parts) == 3 and parts[1] in REGIONS:
            g = self.region(parts[1])
            if g["compressed_size"]:
                die("table '%s' is stored compressed" % parts[1])
            i = int(parts[2], 0)
            if (i + 1) * g["depth"] > g["size"]:
                die("table '%s' has no entry %d" % (parts[1], i))
            return g["fsoffset"] + i * g["depth"], g["depth"]
        die("unknown target '%s'" % spec)

    def lookup(self, path):
        """Inode number of path, by the driver's rules (children are
        consecutive inodes)."""
        strings = self.region_bytes("strings")
        ino = 0
        for comp in [c for c in path.split("/") if c]:
            first = self.entry("inode_array_index", ino)
            n = self.entry("inode_num_entries", ino)
            for c in range(first, first + n):
                off = self.entry("inode_name_offset", c)
                name = strings[off:strings.index(b"\0", off)]
                if name == comp.encode():
                    ino = c
                    break
            else:
                die("no '%s' in '%s'" % (comp, path))
        return ino

    def page(self, ino, p):
        node = self.entry("inode_array_index", ino) + p
        t = self.entry("node_type", node)
        idx = self.entry("node_index", node)
        if t == 0:
            return "%d xip %d" % (node, self.region("xip")["fsoffset"] +
                                  idx * 4096)
        if t == 2:
            return "%d ba %d %d" % (node, self.region("byte_aligned")
                                    ["fsoffset"] +
                                    self.entry("banode_offset", idx), idx)
        c = self.entry("cnode_index", idx)
        return "%d compressed %d %d %d %d" % (
            node, c, self.entry("cnode_offset", idx),
            self.region("compressed")["fsoffset"] +
            self.entry("cblock_offset", c), idx)

    def move(self, r, to, depth):
        g = self.region(r)
        if g["compressed_size"]:
            die("table '%s' is stored compressed" % r)
        n = g["max_index"]
        vals = [self.entry(r, i) for i in range(n)]
        depth = g["depth"] if depth is None else depth
        new = b"".join(v.to_bytes(depth, "big") for v in vals)
        old = g["fsoffset"]
        self.data[old:old + g["size"]] = bytes(g["size"])
        self.data[to:to + len(new)] = new
        d = self.desc_off(r)
        self.data[d:d + 8] = to.to_bytes(8, "big")
        self.data[d + 8:d + 16] = len(new).to_bytes(8, "big")
        self.data[d + 32] = depth

    def digest(self):
        img = bytearray(self.data)
        img[20:60] = bytes(40)
        self.data[20:40] = hashlib.sha1(bytes(img)).digest()
        self.data[40:60] = bytes(20)


def zeros_stream(size):
    """A zlib stream that inflates to `size` zero bytes (a multiple of
    1 MiB), built in milliseconds: after a full flush, each 1 MiB of
    zeros compresses to the same bytes, and the Adler-32 of n zeros is
    (n mod 65521) << 16 | 1."""
    mib = 1 << 20
    if size <= 0 or size % mib:
        die("bomb: the size must be a positive multiple of 1 MiB")
    c = zlib.compressobj(9)
    first = c.compress(bytes(mib)) + c.flush(zlib.Z_FULL_FLUSH)
    rest = c.compress(bytes(mib)) + c.flush(zlib.Z_FULL_FLUSH)
    tail = c.flush(zlib.Z_FINISH)[:-4]
    n = size // mib
    adler = ((size % 65521) << 16) | 1
    z = first + rest * (n - 1) + tail + adler.to_bytes(4, "big")
    if n <= 4:
        assert zlib.decompress(z) == bytes(size)
    return z


def main(argv):
    if len(argv) < 3:
        die("usage: axfs_patch.py IMAGE COMMAND ...")
    redigest = "--digest" in argv
    argv = [a for a in argv if a != "--digest"]
    img = Image(argv[1])
    cmd, args = argv[2], argv[3:]
    if cmd == "off":
        print(img.target(args[0])[0])
    elif cmd == "get":
        o, w = img.target(args[0])
        print(be(img.data, o, w))
    elif cmd == "set":
        o, w = img.target(args[0])
        v = int(args[1], 0)
        if v >= 1 << (8 * w) or v < 0:
            die("%d does not fit %d bytes" % (v, w))
        img.data[o:o + w] = v.to_bytes(w, "big")
    elif cmd == "xor":
        o = int(args[0], 0)
        img.data[o] ^= int(args[1], 0)
    elif cmd == "poke":
        o = int(args[0], 0)
        for k, b in enumerate(args[1:]):
            img.data[o + k] = int(b, 0)
    elif cmd == "truncate":
        del img.data[int(args[0], 0):]
    elif cmd == "digest":
        redigest = True
    elif cmd == "ino":
        print(img.lookup(args[0]))
        return
    elif cmd == "region":
        g = img.region(args[0])
        print(g["fsoffset"], g["size"], g["compressed_size"],
              g["max_index"], g["depth"])
        return
    elif cmd == "entry":
        print(img.entry(args[0], int(args[1], 0)))
        return
    elif cmd == "share":
        src, step = img.lookup(args[0]), int(args[1], 0)
        size = img.entry("inode_file_size", src)
        for k, path in enumerate(args[2:]):
            ino = img.lookup(path)
            for table, v in (("inode_array_index", None),
                             ("inode_num_entries", None),
                             ("inode_file_size", size - k * step)):
                if v is None:
                    v = img.entry(table, src)
                o, w = img.target("entry.%s.%d" % (table, ino))
                img.data[o:o + w] = v.to_bytes(w, "big")
    elif cmd == "page":
        print(img.page(int(args[0], 0), int(args[1], 0)))
        return
    elif cmd == "cblocks":
        z = img.region("compressed")["fsoffset"]
        n = img.region("cblock_offset")["max_index"]
        for c in range(n - 1):
            a = img.entry("cblock_offset", c)
            b = img.entry("cblock_offset", c + 1)
            try:
                inflated = len(zlib.decompress(bytes(img.data[z + a:z + b])))
            except zlib.error:
                inflated = -1
            print(c, z + a, b - a, inflated)
        return
    elif cmd == "bomb":
        r, size = args[0], int(args[1], 0)
        z = zeros_stream(size)
        end = len(img.data) - 4
        img.data[end:] = z + MAGIC.to_bytes(4, "big")
        d = img.desc_off(r)
        img.data[d:d + 8] = end.to_bytes(8, "big")
        img.data[d + 8:d + 16] = size.to_bytes(8, "big")
        img.data[d + 16:d + 24] = len(z).to_bytes(8, "big")
        img.data[72:80] = len(img.data).to_bytes(8, "big")
        redigest = True
    elif cmd == "move":
        img.move(args[0], int(args[1], 0),
                 int(args[2], 0) if len(args) > 2 else None)
    else:
        die("unknown command '%s'" % cmd)
    if cmd in ("off", "get"):
        return
    if redigest:
        img.digest()
    img.save()


if __name__ == "__main__":
    main(sys.argv)
