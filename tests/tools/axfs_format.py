# SPDX-License-Identifier: GPL-2.0-or-later
"""The format facts the Python test tools need, read from their one place,
include/axfs/axfs_fs.h: the magic and the region names in descriptor
order (enum axfs_region, and the names axfs_format_region_name() gives
them).

    sys.path.insert(0, TOP + "/tests/tools"); import axfs_format
    axfs_format.MAGIC, axfs_format.REGIONS
"""

import os
import re

_HEADER = os.path.join(os.path.dirname(os.path.abspath(__file__)),
                       "..", "..", "include", "axfs", "axfs_fs.h")


def _read(path):
    with open(path, encoding="utf-8") as f:
        text = f.read()
    magic = re.search(r"#define\s+AXFS_MAGIC\s+(0x[0-9A-Fa-f]+)", text)
    enum = re.search(r"enum\s+axfs_region\s*\{([^}]*)\}", text)
    if not magic or not enum:
        raise ImportError(f"{path}: no AXFS_MAGIC or enum axfs_region")
    ids = re.findall(r"AXFS_R_(\w+)\s*,", enum.group(1))
    names = dict(re.findall(r"\[AXFS_R_(\w+)\]\s*=\s*\"(\w+)\"", text))
    if not ids or set(ids) != set(names):
        raise ImportError(f"{path}: the region names do not match enum axfs_region")
    return int(magic.group(1), 16), tuple(names[i] for i in ids)


MAGIC, REGIONS = _read(_HEADER)
