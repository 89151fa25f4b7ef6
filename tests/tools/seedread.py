#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""seedread.py - an independent AXFS reader that follows the 2008 driver.

This is our proof that the images axfs-tools writes work with the 2008
AXFS driver (the seed patch set: include/linux/axfs.h, fs/axfs/axfs_inode.c,
axfs_super.c, axfs_bdev.c, axfs_uncompress.c) mounted from a block device
(a loop device) on x86_64.  It shares no code with the C tools and uses only
the Python standard library.

Each function below is a transcription of one driver function, with the
driver's arithmetic (u32 truncations, signed char on x86) kept.  Where the
driver would crash, read outside its buffers, or return memory it never
initialised, we raise DriverError instead of guessing.

  seedread.py list IMAGE [STORE]         JSON: every path and what the
                                         driver returns for it
  seedread.py compare [--no-owner] [--mtime] IMAGE DIR
                                         compare with a host directory;
                                         prints differences, exit 1 if any
  seedread.py xip IMAGE                  every XIP page: path,offset

Every command also checks that each directory's children are unique and
strcmp-sorted and that the driver's lookup loop finds every name; a
failure is reported and makes the exit status 1.  Exit status 2: the
driver would refuse to mount the image, or would misbehave reading it.
"""

import bisect
import hashlib
import json
import mmap
import os
import stat
import struct
import sys
import zlib

import jsonname

AXFS_MAGIC = 0x48A0E4CD
AXFS_SIGNATURE = b"Advanced XIP FS"
PAGE_SIZE = 4096
PAGE_SHIFT = 12
SECTOR = 512

# enum axfs_node_types
XIP, COMPRESSED, BYTE_ALIGNED = 0, 1, 2

# struct axfs_super_onmedia, x86_64 natural alignment: the u64s after
# cblock_size start at 64, and timestamp is at 248 after 4 padding bytes.
SUPER_FORMAT = ">I16s40sI" + "Q" * 22 + "BBBB4xQ"
SUPER_SIZE = struct.calcsize(SUPER_FORMAT)
assert SUPER_SIZE == 256
# The 18 region descriptor offsets, in the order of the superblock.
REGIONS = ("strings", "xip", "byte_aligned", "compressed", "node_type",
           "node_index", "cnode_offset", "cnode_index", "banode_offset",
           "cblock_offset", "inode_file_size", "inode_name_offset",
           "inode_num_entries", "inode_mode_index", "inode_array_index",
           "modes", "uids", "gids")
# struct axfs_region_desc_onmedia: 4 u64, 2 u8, 6 bytes of padding.
DESC_FORMAT = ">QQQQBB6x"
DESC_SIZE = struct.calcsize(DESC_FORMAT)
assert DESC_SIZE == 40
# axfs_fill_region_data_ptrs(): every region but these is forced in core.
NOT_FORCED = ("compressed", "byte_aligned")

TYPE_NAMES = {stat.S_IFREG: "reg", stat.S_IFDIR: "dir", stat.S_IFLNK: "lnk",
              stat.S_IFCHR: "chr", stat.S_IFBLK: "blk", stat.S_IFIFO: "fifo",
              stat.S_IFSOCK: "sock"}


class DriverError(Exception):
    """The 2008 driver would fail, crash or return undefined bytes here."""


class Device:
    """A loop device over the image file (or the two segments of a split
    image joined): reads past its end are what sb_bread() cannot do."""

    def __init__(self, path, store=None):
        self.files = []
        self.maps = []
        for p in (path, store):
            if p is None:
                continue
            f = open(p, "rb")
            self.files.append(f)
            size = os.fstat(f.fileno()).st_size
            self.maps.append(mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ)
                             if size else b"")
        self.first = len(self.maps[0])
        self.length = sum(len(m) for m in self.maps)
        if store is None:
            # A loop device drops a trailing partial 512-byte sector.
            self.length -= self.length % SECTOR

    def read(self, off, n):
        if off < 0 or n < 0 or off + n > self.length:
            raise DriverError("read of %d bytes at %d is past the end of "
                              "the device (%d bytes): sb_bread() returns "
                              "NULL and the driver dereferences it"
                              % (n, off, self.length))
        if len(self.maps) == 1 or off + n <= self.first:
            return bytes(self.maps[0][off:off + n])
        if off >= self.first:
            return bytes(self.maps[1][off - self.first:off - self.first + n])
        return (bytes(self.maps[0][off:self.first]) +
                bytes(self.maps[1][:off + n - self.first]))


class Region:
    """struct axfs_region_desc, plus virt_addr (the in-core copy)."""

    def __init__(self, name, raw):
        (self.fsoffset, self.size, self.compressed_size, self.max_index,
         self.table_byte_depth, self.incore) = struct.unpack(DESC_FORMAT, raw)
        self.name = name
        self.virt_addr = None       # bytes when the region is in core


def c_strncmp(a, b, n):
    """strncmp(): stops at the first NUL."""
    for i in range(n):
        ca = a[i] if i < len(a) else 0
        cb = b[i] if i < len(b) else 0
        if ca != cb:
            return ca - cb
        if ca == 0:
            return 0
    return 0


def signed_char(c):
    """A byte read through plain `char`, which is signed on x86."""
    return c - 256 if c >= 128 else c


class Axfs:
    """The mounted filesystem: struct axfs_super and the driver's
    functions as methods."""

    opened = "?"        # the image named in error messages

    def __init__(self, path, store=None):
        Axfs.opened = path
        self.dev = Device(path, store)
        self.get_onmedia_super()
        self.verify_eofs_magic()
        self.fill_region_data_ptrs()
        # axfs_do_fill_super(): the root inode must be a non-empty dir.
        if not stat.S_ISDIR(self.get_mode(0)):
            raise DriverError("mount fails: root is not a directory")
        if self.get_inode_num_entries(0) == 0:
            raise DriverError("mount fails: empty filesystem")
        # axfs_init_cblock_buffers(): vmalloc(cblock_size) twice.
        if self.cblock_size == 0:
            raise DriverError("mount fails: vmalloc(cblock_size = 0)")
        self.current_cnode_index = -1
        self.cblock_buffer = bytearray(self.cblock_size)
        # How much of cblock_buffer the last inflate really wrote; the
        # rest is stale memory from an earlier cblock (or vmalloc's).
        self.cblock_valid = 0

    # ---- axfs_super.c --------------------------------------------------

    def get_onmedia_super(self):
        raw = self.dev.read(0, SUPER_SIZE)
        f = struct.unpack(SUPER_FORMAT, raw)
        magic, signature, _digest, self.cblock_size = f[0:4]
        (self.files, self.size, self.blocks, self.mmap_size) = f[4:8]
        desc_offsets = f[8:26]
        (self.version_major, self.version_minor, self.version_sub,
         self.compression_type, self.timestamp) = f[26:31]
        if magic != AXFS_MAGIC:
            raise DriverError("mount fails: wrong magic 0x%08x" % magic)
        if c_strncmp(signature, AXFS_SIGNATURE + b"\0", 16):
            raise DriverError("mount fails: wrong axfs signature")
        if self.compression_type != 0:
            raise DriverError("mount fails: compression_type %d != ZLIB"
                              % self.compression_type)
        # axfs_fill_region_descriptors(): all 18 are read.
        self.regions = {}
        for name, off in zip(REGIONS, desc_offsets):
            self.regions[name] = Region(name, self.dev.read(off, DESC_SIZE))

    def verify_eofs_magic(self):
        off = (self.size - 4) & 0xFFFFFFFF      # u32 fsoffset
        buf = self.dev.read(off, 4)
        if struct.unpack(">I", buf)[0] != AXFS_MAGIC:
            raise DriverError("mount fails: no magic at the end (byte %d): "
                              "\"Filesystem is incomplete\"" % off)

    def fill_region_data(self, region, force):
        # A block-device mount has no virtual address: no region is
        # "XIP" in the sense of AXFS_IS_REGION_XIP.
        if region.size == 0:
            return
        if not (region.incore or region.compressed_size or force):
            return      # read from the device on demand
        if region.compressed_size:
            src = self.copy_metadata(region.fsoffset, region.compressed_size)
            d = zlib.decompressobj()
            try:
                out = d.decompress(src, region.size)
            except zlib.error as e:
                raise DriverError("region %s: zlib fails (%s): the driver "
                                  "frees the buffer and keeps using it"
                                  % (region.name, e))
            if not d.eof:
                raise DriverError("region %s: zlib stream does not end "
                                  "within %d bytes: the driver frees the "
                                  "buffer and keeps using it"
                                  % (region.name, region.size))
            if len(out) != region.size:
                raise DriverError("region %s inflates to %d bytes, not %d: "
                                  "the rest is uninitialised vmalloc memory"
                                  % (region.name, len(out), region.size))
            region.virt_addr = out
        else:
            region.virt_addr = self.copy_metadata(region.fsoffset,
                                                  region.size)

    def fill_region_data_ptrs(self):
        for name in REGIONS:
            self.fill_region_data(self.regions[name], name not in NOT_FORCED)

    def copy_metadata(self, fsoffset, length):
        # On a block device every byte comes from the device itself.
        return self.dev.read(fsoffset, length)

    # ---- include/linux/axfs.h ---------------------------------------------

    def bytetable(self, name, index):
        """axfs_bytetable_stitch() on region `name`."""
        region = self.regions[name]
        depth = region.table_byte_depth
        output = 0
        for i in range(depth):
            j = index * depth + i
            table = region.virt_addr
            if table is None:
                raise DriverError("table %s is not loaded (size 0) but has "
                                  "depth %d: NULL dereference" % (name, depth))
            if j >= len(table):
                raise DriverError("%s[%d] reads byte %d of a %d-byte table"
                                  % (name, index, j, len(table)))
            output += table[j] << (8 * (depth - i - 1))
        return output & 0xFFFFFFFFFFFFFFFF

    def get_mode(self, ino):
        return self.bytetable("modes",
                              self.bytetable("inode_mode_index", ino))

    def get_uid(self, ino):
        return self.bytetable("uids", self.bytetable("inode_mode_index", ino))

    def get_gid(self, ino):
        return self.bytetable("gids", self.bytetable("inode_mode_index", ino))

    def get_inode_num_entries(self, ino):
        return self.bytetable("inode_num_entries", ino)

    def get_inode_array_index(self, ino):
        return self.bytetable("inode_array_index", ino)

    def get_inode_file_size(self, ino):
        return self.bytetable("inode_file_size", ino)

    def get_inode_name(self, ino):
        """AXFS_GET_INODE_NAME + strlen(): the bytes up to the NUL."""
        off = self.bytetable("inode_name_offset", ino)
        strings = self.regions["strings"].virt_addr
        if strings is None:
            raise DriverError("the strings region is empty: NULL name")
        end = strings.find(b"\0", off) if off < len(strings) else -1
        if end < 0:
            raise DriverError("inode %d: its name at strings offset %d has no "
                              "NUL inside the strings region" % (ino, off))
        return strings[off:end]

    # ---- axfs_inode.c ------------------------------------------------------

    def create_vfs_inode(self, ino):
        """axfs_create_vfs_inode(): what stat() returns."""
        mode = self.get_mode(ino) & 0xFFFF          # umode_t
        size = self.get_inode_file_size(ino)
        inode = {
            "ino": ino,
            "mode": mode,
            "uid": self.get_uid(ino) & 0xFFFFFFFF,
            "gid": self.get_gid(ino) & 0xFFFFFFFF,
            "size": size,
            "mtime": self.timestamp,
            "nlink": 1,                             # never set
        }
        fmt = stat.S_IFMT(mode)
        inode["type"] = TYPE_NAMES.get(fmt, "unknown")
        if fmt not in (stat.S_IFREG, stat.S_IFDIR, stat.S_IFLNK):
            # init_special_inode(..., old_decode_dev(size)); i_size = 0.
            inode["size"] = 0
            dev = size & 0xFFFF                     # old_decode_dev(u16)
            inode["rdev_major"] = (dev >> 8) & 0xFF
            inode["rdev_minor"] = dev & 0xFF
        return inode

    def readdir(self, ino):
        """axfs_readdir(): (name, inode number) in on-disk order."""
        array_index = self.get_inode_array_index(ino)
        for dir_index in range(self.get_inode_num_entries(ino)):
            entry = array_index + dir_index
            yield self.get_inode_name(entry), entry

    def lookup(self, dir_ino, name):
        """axfs_lookup(): the inode number found, or None."""
        dir_index = 0
        while dir_index < self.get_inode_num_entries(dir_ino):
            entry = self.get_inode_array_index(dir_ino) + dir_index
            ename = self.get_inode_name(entry)
            # dentry->d_name.name[0] (unsigned char) < name[0] (char,
            # signed on x86).  An empty entry name compares its NUL.
            first = signed_char(ename[0]) if ename else 0
            if name[0] < first:
                break
            dir_index += 1
            if len(name) != len(ename):
                continue
            if name > ename:        # memcmp() > 0
                continue
            if name < ename:
                break
            return entry
        return None

    def copy_data(self, region, offset, length):
        """axfs_copy_data(): from the in-core copy below mmap_size, the
        rest from the device at the region's uncompressed position."""
        if length == 0:
            return b""
        begin = region.fsoffset + offset
        end = begin + length
        mmapped = 0
        if region.virt_addr is not None:
            if self.mmap_size >= end:
                mmapped = length
            elif self.mmap_size > begin:
                mmapped = self.mmap_size - begin
        out = b""
        if mmapped:
            if offset + mmapped > len(region.virt_addr):
                raise DriverError("region %s: reading [%d, %d) of its %d "
                                  "in-core bytes" % (region.name, offset,
                                                     offset + mmapped,
                                                     len(region.virt_addr)))
            out = region.virt_addr[offset:offset + mmapped]
        if length > mmapped:
            out += self.dev.read(begin + mmapped, length - mmapped)
        return out

    def uncompress_block(self, src):
        """axfs_uncompress_block() into cblock_buffer[0]."""
        d = zlib.decompressobj()
        try:
            out = d.decompress(src, self.cblock_size)
        except zlib.error as e:
            raise DriverError("a cblock fails to inflate (%s): the driver "
                              "logs it and serves a stale buffer" % e)
        if not d.eof:
            raise DriverError("a cblock does not inflate within cblock_size "
                              "(%d): the driver serves a partial buffer"
                              % self.cblock_size)
        self.cblock_buffer[0:len(out)] = out
        self.cblock_valid = len(out)

    def readpage(self, ino, index):
        """axfs_readpage(): (4096 bytes, first undefined byte, end of the
        undefined bytes).  Undefined bytes are stale cblock memory."""
        i_size = self.create_vfs_inode(ino)["size"]
        maxblock = (i_size + PAGE_SIZE - 1) >> PAGE_SHIFT
        undefined = (0, 0)
        if index >= maxblock:
            return bytes(PAGE_SIZE), undefined
        array_index = self.get_inode_array_index(ino) + index
        node_index = self.bytetable("node_index", array_index)
        node_type = self.bytetable("node_type", array_index) & 0xFF   # u8
        if node_type == COMPRESSED:
            cnode_offset = self.bytetable("cnode_offset", node_index) \
                & 0xFFFFFFFF                                   # u32
            cnode_index = self.bytetable("cnode_index", node_index)
            if cnode_index != self.current_cnode_index:
                ofs = self.bytetable("cblock_offset", cnode_index)
                length = self.bytetable("cblock_offset", cnode_index + 1)
                length = (length - ofs) & 0xFFFFFFFF           # u32 len
                if length > self.cblock_size:
                    raise DriverError("cblock %d is %d bytes compressed, more "
                                      "than cblock_size %d: heap overflow"
                                      % (cnode_index, length,
                                         self.cblock_size))
                src = self.copy_data(self.regions["compressed"], ofs, length)
                self.current_cnode_index = cnode_index
                self.uncompress_block(src)
            if cnode_offset > self.cblock_size:
                raise DriverError("cnode_offset %d > cblock_size: max_len "
                                  "underflows" % cnode_offset)
            max_len = self.cblock_size - cnode_offset
            length = min(PAGE_SIZE, max_len)
            data = bytes(self.cblock_buffer[cnode_offset:
                                            cnode_offset + length])
            if cnode_offset + length > self.cblock_valid:
                undefined = (max(0, self.cblock_valid - cnode_offset), length)
        elif node_type == BYTE_ALIGNED:
            ba = self.regions["byte_aligned"]
            ofs = self.bytetable("banode_offset", node_index)
            if ofs > ba.size:
                raise DriverError("banode offset %d > byte_aligned size %d: "
                                  "max_len underflows" % (ofs, ba.size))
            max_len = (ba.size - ofs) & 0xFFFFFFFF            # u32
            length = min(PAGE_SIZE, max_len)
            data = self.copy_data(ba, ofs, length)
        else:
            # XIP, and any other node type (readpage's `else`).
            ofs = (node_index << PAGE_SHIFT) & 0xFFFFFFFFFFFFFFFF
            data = self.copy_data(self.regions["xip"], ofs, PAGE_SIZE)
        return data + bytes(PAGE_SIZE - len(data)), undefined

    def read_file(self, ino, size):
        """The file's bytes as read() returns them through the page cache."""
        h = hashlib.sha256()
        for index in range((size + PAGE_SIZE - 1) // PAGE_SIZE):
            page, (u0, u1) = self.readpage(ino, index)
            n = min(PAGE_SIZE, size - index * PAGE_SIZE)
            if u0 < u1 and u0 < n:
                raise DriverError("inode %d page %d: bytes %d.. come from a "
                                  "stale cblock buffer" % (ino, index, u0))
            h.update(page[:n])
        return h.hexdigest()

    def readlink(self, ino):
        """page_getlink() of 2.6.2x: strlen() of page 0."""
        page, (u0, u1) = self.readpage(ino, 0)
        end = page.find(b"\0")
        if end < 0:
            raise DriverError("symlink inode %d: no NUL in page 0" % ino)
        if u0 < u1 and u0 <= end:
            raise DriverError("symlink inode %d: its target runs into a "
                              "stale cblock buffer" % ino)
        return page[:end]


# ---- walking the tree ------------------------------------------------------


def fsdecode(b):
    """Bytes -> str for JSON, as dump --json writes names (jsonname.py)."""
    return jsonname.to_str(b)


class DirIndex:
    """axfs_lookup() over one directory, fast enough for 10,000 entries.

    The driver's loop stops at the first entry whose first byte (signed
    char) is greater than the searched name's first byte, skips entries of
    another length, and among those of the same length stops at the first
    that is not smaller (found if equal).  So the result is: among the
    same-length entries before the first-byte stop, the first one >= name.
    When those entries are in ascending order that is a binary search; when
    they are not, we run the driver's loop itself (Axfs.lookup)."""

    def __init__(self, fs, ino, children):
        self.fs, self.ino = fs, ino
        self.stop = []          # running max of the signed first bytes
        top = -256
        self.by_len = {}        # length -> ([names], [indexes], [entries])
        for i, (name, entry) in enumerate(children):
            top = max(top, signed_char(name[0]) if name else 0)
            self.stop.append(top)
            names, idxs, entries = self.by_len.setdefault(len(name),
                                                          ([], [], []))
            names.append(name)
            idxs.append(i)
            entries.append(entry)
        self.ordered = {n: all(a < b for a, b in zip(v[0], v[0][1:]))
                        for n, v in self.by_len.items()}

    def lookup(self, name):
        if len(name) not in self.by_len:
            return None
        if not self.ordered[len(name)]:
            return self.fs.lookup(self.ino, name)
        end = bisect.bisect_right(self.stop, name[0])  # first-byte stop
        names, idxs, entries = self.by_len[len(name)]
        j = bisect.bisect_left(names, name)
        if j < len(names) and idxs[j] < end and names[j] == name:
            return entries[j]
        return None


def check_dir(fs, path, ino, children, problems):
    """The rules readdir does not enforce but lookup depends on."""
    index = DirIndex(fs, ino, children)
    for i, (name, entry) in enumerate(children):
        where = fsdecode((path or b"") + b"/" + name)
        if name in (b"", b".", b"..") or b"/" in name:
            problems.append("%r: a name the VFS cannot use" % where)
            continue
        if len(name) > 255:
            problems.append("%r: name longer than 255 bytes" % where)
        if i and not children[i - 1][0] < name:
            problems.append("%r: not after %r in strcmp order (or a "
                            "duplicate)" % (where,
                                            fsdecode(children[i - 1][0])))
        found = index.lookup(name)
        if len(children) <= 64:
            # Small directories: the driver's own loop must agree.
            literal = fs.lookup(ino, name)
            assert literal == found, (where, literal, found)
        if found != entry:
            problems.append("%r: the driver's lookup finds %s, not inode %d"
                            % (where, found, entry))


def walk(fs, problems):
    """Depth-first, each directory's children in readdir order: yields
    (path bytes, inode dict), "/" first."""
    root = fs.create_vfs_inode(0)
    seen_dirs = {0}
    yield b"/", root
    stack = [(b"", 0, None)]
    while stack:
        path, ino, it = stack[-1]
        if it is None:
            children = list(fs.readdir(ino))
            check_dir(fs, path, ino, children, problems)
            it = iter(children)
            stack[-1] = (path, ino, it)
        step = next(it, None)
        if step is None:
            stack.pop()
            continue
        name, entry = step
        if name in (b"", b".", b"..") or b"/" in name:
            continue
        inode = fs.create_vfs_inode(entry)
        child = path + b"/" + name
        yield child, inode
        if inode["type"] == "dir":
            if entry in seen_dirs:
                raise DriverError("directory inode %d reached twice (%r): "
                                  "a cycle" % (entry, fsdecode(child)))
            seen_dirs.add(entry)
            stack.append((child, entry, None))


def describe(fs, path, inode):
    """What the driver returns for one path: the JSON of `list`."""
    out = dict(inode)
    if inode["type"] == "reg":
        out["sha256"] = fs.read_file(inode["ino"], inode["size"])
    elif inode["type"] == "lnk":
        target = fs.readlink(inode["ino"])
        out["target"] = fsdecode(target)
        if len(target) != inode["size"]:
            out["target_size_mismatch"] = True
    return out


def list_image(fs, problems):
    entries = {}
    for path, inode in walk(fs, problems):
        entries[fsdecode(path)] = describe(fs, path, inode)
    return entries


# ---- commands ------------------------------------------------------------------


def cmd_list(args):
    fs = Axfs(args[0], args[1] if len(args) > 1 else None)
    problems = []
    entries = list_image(fs, problems)
    json.dump(entries, sys.stdout, indent=1, sort_keys=True)
    sys.stdout.write("\n")
    for p in problems:
        print("seedread: %s" % p, file=sys.stderr)
    return 1 if problems else 0


def host_tree(top):
    """path (bytes, "/"-rooted) -> lstat of everything under top."""
    out = {b"/": os.lstat(top)}
    stack = [b""]
    top = os.fsencode(top)
    while stack:
        rel = stack.pop()
        with os.scandir(top + rel) as it:
            for e in it:
                p = rel + b"/" + e.name
                st = os.lstat(top + p)
                out[p] = st
                if stat.S_ISDIR(st.st_mode):
                    stack.append(p)
    return out


def sha256_file(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def cmd_compare(args):
    owner, mtime = True, False
    while args and args[0].startswith("--"):
        opt = args.pop(0)
        if opt == "--no-owner":
            owner = False
        elif opt == "--mtime":
            mtime = True
        else:
            raise SystemExit("seedread: unknown option %s" % opt)
    if len(args) != 2:
        raise SystemExit("usage: seedread.py compare [--no-owner] [--mtime] "
                         "IMAGE DIR")
    image, top = args
    fs = Axfs(image)
    problems = []
    diffs = []
    host = host_tree(top)
    btop = os.fsencode(top)
    seen = set()
    for path, inode in walk(fs, problems):
        seen.add(path)
        show = fsdecode(path)
        st = host.get(path)
        if st is None:
            diffs.append("%s: only in the image" % show)
            continue
        want = describe(fs, path, inode)
        host_type = TYPE_NAMES.get(stat.S_IFMT(st.st_mode), "unknown")
        if host_type != want["type"]:
            diffs.append("%s: type %s in the image, %s on the host"
                         % (show, want["type"], host_type))
            continue
        if want["mode"] != st.st_mode & 0xFFFF:
            diffs.append("%s: mode 0%o in the image, 0%o on the host"
                         % (show, want["mode"], st.st_mode & 0xFFFF))
        if owner and (want["uid"], want["gid"]) != (st.st_uid, st.st_gid):
            diffs.append("%s: owner %d:%d in the image, %d:%d on the host"
                         % (show, want["uid"], want["gid"], st.st_uid,
                            st.st_gid))
        if mtime and int(st.st_mtime) != want["mtime"]:
            diffs.append("%s: mtime %d in the image, %d on the host"
                         % (show, want["mtime"], int(st.st_mtime)))
        full = btop + (b"" if path == b"/" else path)
        if want["type"] == "reg":
            if want["size"] != st.st_size:
                diffs.append("%s: size %d in the image, %d on the host"
                             % (show, want["size"], st.st_size))
            elif want["sha256"] != sha256_file(full):
                diffs.append("%s: content differs" % show)
        elif want["type"] == "lnk":
            target = os.readlink(full)
            if jsonname.to_bytes(want["target"]) != target:
                diffs.append("%s: symlink target %r in the image, %r on the "
                             "host" % (show, want["target"], fsdecode(target)))
            if want.get("target_size_mismatch"):
                diffs.append("%s: i_size %d but the driver's readlink gives "
                             "%d bytes" % (show, want["size"],
                                           len(jsonname.to_bytes(want["target"]))))
        elif want["type"] in ("chr", "blk"):
            got = (os.major(st.st_rdev), os.minor(st.st_rdev))
            if got != (want["rdev_major"], want["rdev_minor"]):
                diffs.append("%s: device %d,%d in the image, %d,%d on the "
                             "host" % ((show, want["rdev_major"],
                                        want["rdev_minor"]) + got))
    for path in sorted(set(host) - seen):
        diffs.append("%s: only on the host" % fsdecode(path))
    for line in problems + diffs:
        print(line)
    return 1 if problems or diffs else 0


def cmd_xip(args):
    fs = Axfs(args[0], args[1] if len(args) > 1 else None)
    problems = []
    out = sys.stdout.buffer
    for path, inode in walk(fs, problems):
        if inode["type"] != "reg":
            continue
        array_index = fs.get_inode_array_index(inode["ino"])
        pages = (inode["size"] + PAGE_SIZE - 1) // PAGE_SIZE
        for index in range(pages):
            if fs.bytetable("node_type", array_index + index) & 0xFF == XIP:
                out.write(path + b",%d\n" % (index * PAGE_SIZE))
    for p in problems:
        print("seedread: %s" % p, file=sys.stderr)
    return 1 if problems else 0


def main(argv):
    commands = {"list": cmd_list, "compare": cmd_compare, "xip": cmd_xip}
    if len(argv) < 3 or argv[1] not in commands:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    try:
        return commands[argv[1]](argv[2:])
    except DriverError as e:
        print("seedread: %s: the 2008 driver fails here: %s"
              % (Axfs.opened, e), file=sys.stderr)
        return 2
    except (OSError, struct.error) as e:
        print("seedread: %s" % e, file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
