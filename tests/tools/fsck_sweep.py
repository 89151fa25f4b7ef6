#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Seeded mutation sweep for `axfs fsck`.

  fsck_sweep.py --axfs BIN --image IMG --tree DIR [--seed N]
                [--bytes N] [--truncations N] [--no-digest] [--jobs N]
  fsck_sweep.py --axfs BIN --image IMG --spread 40 [--split-at M]

Each mutant is the image with one byte changed (XOR with a non-zero mask,
half of them at a uniformly random offset, half inside the superblock,
descriptors and metadata) or cut short.  For every mutant fsck must exit
with 0 or 4, never with a signal, 8 or a timeout.  With the digest, every
mutant is a corruption that must be reported (4); whenever fsck says clean
(0), `axfs extract` must return exactly the original tree.  Without the
digest (--no-digest), a mutant fsck calls clean must still extract.

--spread N changes the byte at i*len/N and at (2i+1)*len/(2N) for i in
0..N-1, each in five ways (one mutant each: XOR 0x5a, one bit flipped,
set to 0x00, set to 0xff, plus one; a way that leaves the byte as it is
is skipped), and requires exit 4 for every mutant.  With --split-at M each
mutant is written as two segments, bytes 0..M-1 and the rest, and checked
as IMAGE STORE-SEGMENT.

Prints one summary line; exits 1 on the first violation, with its details.
"""
import argparse
import concurrent.futures
import os
import random
import shutil
import stat
import struct
import subprocess
import sys
import tempfile

TIMEOUT = 20


def fail(msg):
    sys.stdout.write("FAIL: %s\n" % msg)
    sys.stdout.flush()
    sys.exit(1)


def metadata_ranges(img):
    """Byte ranges worth mutating more often than file data: the header
    (superblock + descriptors) and every metadata region."""
    out = [(0, min(len(img), 264 + 18 * 40))]
    for r in range(18):
        if r in (1, 2, 3):  # xip, byte_aligned, compressed: file data
            continue
        d = struct.unpack(">Q", img[96 + 8 * r:104 + 8 * r])[0]
        if d + 40 > len(img):
            continue
        fo, sz, cs = struct.unpack(">QQQ", img[d:d + 24])
        n = cs or sz
        if n and fo + n <= len(img):
            out.append((fo, fo + n))
    return out


def run_fsck(axfs, path, store_args, extra):
    try:
        p = subprocess.run([axfs, "fsck", "-q"] + extra + [path] + store_args,
                           stdout=subprocess.DEVNULL,
                           stderr=subprocess.PIPE, timeout=TIMEOUT)
    except subprocess.TimeoutExpired:
        return "timeout", b""
    return p.returncode, p.stderr


def snapshot(root):
    """{relative path: (type, mode, content or target)} of a tree."""
    out = {}
    for dirpath, dirnames, filenames in os.walk(root):
        for name in dirnames + filenames:
            full = os.path.join(dirpath, name)
            rel = os.path.relpath(full, root)
            st = os.lstat(full)
            if stat.S_ISLNK(st.st_mode):
                out[rel] = ("l", os.readlink(full))
            elif stat.S_ISDIR(st.st_mode):
                out[rel] = ("d", stat.S_IMODE(st.st_mode))
            elif stat.S_ISREG(st.st_mode):
                with open(full, "rb") as f:
                    out[rel] = ("f", stat.S_IMODE(st.st_mode), f.read())
            else:
                out[rel] = ("s", st.st_mode, st.st_rdev)
    return out


def extract(axfs, path, dest):
    try:
        p = subprocess.run([axfs, "extract", path, dest],
                           stdout=subprocess.DEVNULL,
                           stderr=subprocess.PIPE, timeout=TIMEOUT * 3)
    except subprocess.TimeoutExpired:
        return "timeout", b""
    return p.returncode, p.stderr


def check_one(args, work, good, kind, where, mask, original):
    """Runs one mutant; returns (rc, note) or raises SystemExit."""
    path = os.path.join(work, "m%d-%d-%d.axfs" % (os.getpid(), where, mask))
    data = bytearray(good)
    if kind == "byte":
        data[where] ^= mask
    else:
        del data[where:]
    store = []
    if args.split_at:
        store = [path + ".store"]
        with open(store[0], "wb") as f:
            f.write(data[args.split_at:])
        del data[args.split_at:]
    with open(path, "wb") as f:
        f.write(data)
    extra = ["--no-digest"] if args.no_digest else []
    rc, err = run_fsck(args.axfs, path, store, extra)
    if store:
        os.unlink(store[0])
    what = "%s at %d (mask 0x%02x)" % (kind, where, mask)
    if rc not in (0, 4):
        os.replace(path, os.path.join(work, "failed.axfs"))
        fail("%s: fsck exited %s: %s" % (what, rc,
                                         err.decode(errors="replace")))
    note = None
    if rc == 0 and args.tree:
        dest = path + ".x"
        xrc, xerr = extract(args.axfs, path, dest)
        if xrc != 0:
            os.replace(path, os.path.join(work, "failed.axfs"))
            fail("%s: fsck says clean but extract exited %s: %s" %
                 (what, xrc, xerr.decode(errors="replace")))
        if not args.no_digest and snapshot(dest) != original:
            os.replace(path, os.path.join(work, "failed.axfs"))
            fail("%s: fsck says clean but the extracted tree differs" % what)
        shutil.rmtree(dest, ignore_errors=True)
        note = "extracted"
    os.unlink(path)
    return rc, note


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--axfs", required=True)
    ap.add_argument("--image", required=True)
    ap.add_argument("--tree")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--bytes", type=int, default=1000)
    ap.add_argument("--truncations", type=int, default=100)
    ap.add_argument("--no-digest", action="store_true")
    ap.add_argument("--spread", type=int, default=0)
    ap.add_argument("--split-at", type=int, default=0)
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    args = ap.parse_args()

    with open(args.image, "rb") as f:
        good = f.read()
    work = tempfile.mkdtemp(prefix="axfs-sweep.")
    original = None
    if args.tree:
        # The unmutated image must be clean and extract to the tree.
        rc, err = run_fsck(args.axfs, args.image, [], [])
        if rc != 0:
            fail("the original image is not clean (exit %s)" % rc)
        dest = os.path.join(work, "orig")
        xrc, xerr = extract(args.axfs, args.image, dest)
        if xrc != 0:
            fail("extract of the original failed: %s" % xerr.decode())
        original = snapshot(dest)
        if original != snapshot(args.tree):
            fail("extract of the original differs from %s" % args.tree)
        shutil.rmtree(dest)

    rng = random.Random(args.seed)
    jobs = []
    if args.spread:
        n = args.spread
        spots = sorted(set([i * len(good) // n for i in range(n)] +
                           [(2 * i + 1) * len(good) // (2 * n)
                            for i in range(n)]))
        for k, where in enumerate(spots):
            b = good[where]
            masks = [0x5a, 1 << (k % 8), b, b ^ 0xff, b ^ ((b + 1) & 0xff)]
            for j, mask in enumerate(masks):
                if mask and mask not in masks[:j]:
                    jobs.append(("byte", where, mask))
    else:
        meta = metadata_ranges(good)
        for i in range(args.bytes):
            if i % 2 == 0:
                where = rng.randrange(len(good))
            else:
                a, b = rng.choice(meta)
                where = rng.randrange(a, b)
            jobs.append(("byte", where, rng.randrange(1, 256)))
        for i in range(args.truncations):
            jobs.append(("trunc", rng.randrange(len(good)), 0))

    counts = {0: 0, 4: 0}
    extracted = 0
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as ex:
        futs = [ex.submit(check_one, args, work, good, k, w, m, original)
                for k, w, m in jobs]
        for fu in futs:
            rc, note = fu.result()
            counts[rc] += 1
            extracted += note == "extracted"
    shutil.rmtree(work, ignore_errors=True)
    if args.spread and counts[0]:
        fail("%d of %d spread corruptions were not reported" %
             (counts[0], len(jobs)))
    if not args.no_digest and counts[0]:
        fail("%d mutants were reported clean despite the digest" % counts[0])
    print("ok: %d mutants, %d reported (exit 4), %d clean%s" %
          (len(jobs), counts[4], counts[0],
           ", %d of them extracted" % extracted if extracted else ""))


if __name__ == "__main__":
    main()
