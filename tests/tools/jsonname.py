# SPDX-License-Identifier: GPL-2.0-or-later
"""Names in the JSON axfs writes (libaxfsimg/json.c, one rule for every
JSON of the project): valid UTF-8 as it is, and each byte that is not part
of valid UTF-8, and the backslash itself, as a backslash and three octal
digits (\\377, \\134), the rule of the text outputs.  The strings are valid
Unicode (no lone surrogates), and these two functions go between them and
the bytes of a name."""
import re

_ESC = re.compile(rb"\\([0-3][0-7]{2})")


def to_bytes(s):
    """A JSON string of axfs -> the bytes of the name."""
    return _ESC.sub(lambda m: bytes([int(m.group(1), 8)]), s.encode("utf-8"))


def to_str(b):
    """The bytes of a name -> the string axfs writes in JSON for it."""
    out = []
    for c in b.decode("utf-8", "surrogateescape"):
        if c == "\\":
            out.append("\\134")
        elif 0xdc80 <= ord(c) <= 0xdcff:
            out.append("\\%03o" % (ord(c) - 0xdc00))
        else:
            out.append(c)
    return "".join(out)
