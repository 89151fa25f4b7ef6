# SPDX-License-Identifier: GPL-2.0-or-later
"""The format facts the Python test tools need, read from their one place,
include/axfs/axfs_format.h: the magic and the region names in descriptor
order (the AXFS_REGIONS X-macro list).

    sys.path.insert(0, TOP + "/tests/tools"); import axfs_format
    axfs_format.MAGIC, axfs_format.REGIONS
"""

import os
import re

_HEADER = os.path.join(os.path.dirname(os.path.abspath(__file__)),
                       "..", "..", "include", "axfs", "axfs_format.h")


def _read(path):
    with open(path, encoding="utf-8") as f:
        text = f.read()
    magic = re.search(r"#define\s+AXFS_MAGIC\s+(0x[0-9A-Fa-f]+)", text)
    body = re.search(r"#define\s+AXFS_REGIONS\(X\)((?:.*\\\n)*.*)", text)
    if not magic or not body:
        raise ImportError(f"{path}: no AXFS_MAGIC or AXFS_REGIONS")
    regions = tuple(re.findall(r"X\(\w+,\s*(\w+)\)", body.group(1)))
    return int(magic.group(1), 16), regions


MAGIC, REGIONS = _read(_HEADER)
