#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""boot-order-table.py --arch ARCH WORKDIR BOOTS: bench/kernel/boot-order.sh's
tables from its work directory (WORKDIR/rows: "NAME MEDIUM IMAGE FSTYPE";
WORKDIR/media: "MEDIUM DESCRIPTION", the architecture's media;
WORKDIR/boot-NAME-I.log: the guest's console; WORKDIR/IMAGE.img).

Every figure is the median of the boots, with its spread (max - min) /
median in brackets; a ratio (ordered over unordered AXFS of the same
medium, and over squashfs with its sort file) is the median of the
per-boot ratios, a result when there are at least 3 boots and each lies
within +-10 % of it, otherwise marked "?".  Then the acceptance checks of
issue 40 and one BOOT-ORDER line (block medium) for machines."""
import os
import re
import sys

WHAT = {"axfs-unordered": "AXFS, profile without order",
        "axfs-ordered": "AXFS, the same profile with order",
        "sqfs": "squashfs gzip 128K, no sort file",
        "sqfs-sorted": "squashfs gzip 128K, -sort from the profile",
        "erofs-lz4hc": "erofs lz4hc"}


def parse(log):
    """The figures of one boot's console log, or None if it did not end."""
    f = {}
    try:
        text = open(log, errors="replace").read()
    except OSError:
        return None
    if "BO-GUEST-END" not in text:
        return None
    for line in text.splitlines():
        m = re.search(r"BO-T mount ([0-9.]+)$", line)
        if m:
            f["t0"] = float(m.group(1))
        m = re.match(r"^ROOTFS-T (first|end) ([0-9.]+)$", line)
        if m:
            f["t_" + m.group(1)] = float(m.group(2))
        m = re.match(r"^BO-M ([A-Za-z_]+) (-?[0-9.]+)$", line)
        if m:
            f[m.group(1)] = float(m.group(2))
    if "t0" in f:
        for k in ("first", "end"):
            if "t_" + k in f:
                f[k] = f["t_" + k] - f["t0"]
    if "MemTotal" in f and "MemAvailable" in f:
        # Less the free pages on the per-CPU lists (guest/boot-order-init.sh).
        f["used"] = f["MemTotal"] - f["MemAvailable"] - f.get("PcpFree", 0)
    # Bytes read from the device: the block device's own count where the
    # root is one (pmem, mtdblock), else AXFS's (MTD, physaddr=, and brd,
    # which counts no I/O: armhf's block root).
    if f.get("blk_read_ios", 0) > 0:
        f["dev_bytes"] = f["blk_read_bytes"]
    elif "device_bytes_read" in f:
        f["dev_bytes"] = f["device_bytes_read"]
    return f


def median(a):
    a = sorted(a)
    n = len(a)
    return a[n // 2] if n % 2 else (a[n // 2 - 1] + a[n // 2]) / 2


def stat(boots, k):
    v = [b[k] for b in boots if b is not None and k in b]
    if not v:
        return None, None
    m = median(v)
    spread = (max(v) - min(v)) / m if m > 0 else (0.0 if max(v) == min(v) else None)
    return m, spread


def ratio(a, b, k, nboots):
    """Median of the per-boot ratios of figure k, and whether it is a result."""
    r = []
    for x, y in zip(a, b):
        if x is not None and y is not None and k in x and k in y and y[k] > 0:
            r.append(x[k] / y[k])
    if not r:
        return None, False
    m = median(r)
    ok = len(r) >= 3 and len(r) == nboots and all(m * 0.9 <= v <= m * 1.1 for v in r)
    if m == 0:
        ok = ok and all(v == 0 for v in r)
    return m, ok


def fmt(m, spread, scale=1.0, digits=0, unit=""):
    if m is None:
        return "not measured"
    s = ("%%.%df" % digits) % (m / scale) + unit
    if spread is not None and spread * 50 >= 0.05:
        s += " (±%.1f %%)" % (spread * 50)	# half the spread: ± around the median
    return s


def fr(r):
    if r is None:
        return "?"
    return "%.2f" % r[0] + ("" if r[1] else "?")


def main():
    args = sys.argv[1:]
    arch = "amd64"
    if args[:1] == ["--arch"]:
        arch = args[1]
        args = args[2:]
    w, nboots = args[0], int(args[1])
    rows = [line.split() for line in open(os.path.join(w, "rows")) if line.strip()]
    media = dict(line.rstrip("\n").split(" ", 1) for line in open(os.path.join(w, "media")))
    data, size = {}, {}
    for name, medium, img, fs in rows:
        data[name] = [parse(os.path.join(w, "boot-%s-%d.log" % (name, i)))
                      for i in range(1, nboots + 1)]
        size[name] = os.path.getsize(os.path.join(w, img + ".img"))
    print("Times: guest uptime from just before the root's mount (the initramfs, its modules loaded) "
          "to the workload's first output and to its end, icount (deterministic). "
          "Each figure: the median of %d boots, ± half the spread (max − min)/median when not 0. "
          "cblocks inflated: the decompressor's calls (kprobe), with AXFS's own counter "
          "(cblocks_inflated) in brackets where the driver has it; read ahead: AXFS's "
          "readahead_cblocks. Device bytes: the block device's sectors read "
          "(/sys/block/X/stat), for AXFS on MTD and physaddr= its device_bytes_read. "
          "Inflate time: the decompressor's time, kprobe to kretprobe. Major faults: /proc/vmstat "
          "pgmajfault at the end (the whole boot's). RAM after the workload: "
          "MemTotal − MemAvailable − the free pages on the per-CPU lists (/proc/zoneinfo "
          "pagesets' count, not in MemAvailable), and Cached." % nboots)
    print()
    for medium in ("block", "mtd", "phys"):
        names = [r[0] for r in rows if r[1] == medium]
        if not names:
            continue
        print("**%s (%s)**" % (medium, media[medium]))
        print()
        print("| root | image | cblocks inflated | read ahead | device bytes read | inflate time | major faults | first output | end of the workload | RAM in use | Cached | boots |")
        print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
        for n in names:
            b = data[n]
            kind = n[len(medium) + 1:]
            done = sum(1 for x in b if x is not None)
            calls = fmt(*stat(b, "inflate_calls"))
            own, _ = stat(b, "cblocks_inflated")
            if own is not None:
                calls += " [%d]" % own
            ra = stat(b, "readahead_cblocks")
            print("| %s | %d KiB | %s | %s | %s | %s | %s | %s | %s | %s | %s | %d of %d |" % (
                WHAT.get(kind, kind), size[n] // 1024, calls,
                fmt(*ra) if ra[0] is not None else "—",
                fmt(*stat(b, "dev_bytes"), scale=1024, unit=" KiB"),
                fmt(*stat(b, "inflate_ms"), unit=" ms"),
                fmt(*stat(b, "pgmajfault")),
                fmt(*stat(b, "first"), digits=2, unit=" s"),
                fmt(*stat(b, "end"), digits=2, unit=" s"),
                fmt(*stat(b, "used"), unit=" KiB"), fmt(*stat(b, "Cached"), unit=" KiB"),
                done, nboots))
        print()
        o, u, s = medium + "-axfs-ordered", medium + "-axfs-unordered", medium + "-sqfs-sorted"
        if o in data and u in data:
            # The driver's own count of file-data cblocks where it has one
            # (the kprobe also counts metadata and symbolic links).
            ck = "cblocks_inflated" if all(x is not None and "cblocks_inflated" in x
                                           for x in data[o] + data[u]) else "inflate_calls"
            rc = ratio(data[o], data[u], ck, nboots)
            rt = ratio(data[o], data[u], "end", nboots)
            rf = ratio(data[o], data[u], "first", nboots)
            rb = ratio(data[o], data[u], "dev_bytes", nboots)
            ru = ratio(data[o], data[u], "used", nboots)
            rk = ratio(data[o], data[u], "Cached", nboots)
            sz = size[o] / size[u]
            line = "Ordered over unordered AXFS (%s): cblocks inflated (%s) %s, device bytes %s, first output %s, end %s, image size %.4f, RAM in use %s, Cached %s" % (
                medium, ck, fr(rc), fr(rb), fr(rf), fr(rt), sz, fr(ru), fr(rk))
            rs = None
            if s in data:
                rs = ratio(data[o], data[s], "end", nboots)
                line += "; end over squashfs-sorted's %s" % fr(rs)
            print(line + ".")
            print()
            if medium == "block":
                checks = [
                    ("cblocks inflated ≤ 0.5 × unordered", rc, 0.5),
                    ("time to the end ≤ 0.8 × unordered", rt, 0.8),
                    ("time to the end ≤ 1.0 × squashfs-sorted", rs, 1.0),
                    ("image size ≤ 1.01 × unordered", (sz, True), 1.01),
                    ("RAM in use after the workload not higher (within 1 %: slab moves it)", ru, 1.01),
                ]
                print("Issue 40's acceptance (block):")
                print()
                for what, r, lim in checks:
                    if r is None or r[0] is None:
                        v = "not measured"
                    else:
                        v = ("met" if r[0] <= lim else "NOT met") + " (%.3f%s)" % (r[0], "" if r[1] else ", boots not within ±10 %")
                    print("- %s: %s" % (what, v))
                print()
                if rc and rt and rs and rc[0] is not None and rt[0] is not None and rs[0] is not None:
                    print("BOOT-ORDER arch=%s backend=block cblocks=%.2f time_end=%.2f size=%.3f vs_squashfs_sorted=%.2f" % (
                        arch, rc[0], rt[0], sz, rs[0]))
                    print()


if __name__ == "__main__":
    main()
