# SPDX-License-Identifier: GPL-2.0-or-later
"""treegen.py: the small seeded trees the fsck tests build (t3000, t3100).

    t = Tree(root, seed)
    t.file("bin/prog", t.random(30000), 0o755)
    t.link("etc/conf", "etc/hl"); t.symlink("prog", "bin/sh"); t.dir("empty")

The same seed and the same calls in the same order give the same bytes.
"""
import base64
import os
import random


class Tree:
    def __init__(self, root, seed):
        self.root = root
        self.rng = random.Random(seed)

    def path(self, p):
        return os.path.join(self.root, p)

    def random(self, n):
        """n seeded random bytes."""
        return bytes(self.rng.getrandbits(8) for _ in range(n))

    def b64(self, n):
        """n seeded random bytes in base64: compressible, not repetitive."""
        return base64.b64encode(self.random(n))

    def file(self, p, data, mode=0o644):
        p = self.path(p)
        os.makedirs(os.path.dirname(p), exist_ok=True)
        with open(p, "wb") as f:
            f.write(data)
        os.chmod(p, mode)

    def link(self, target, p):
        os.link(self.path(target), self.path(p))

    def symlink(self, target, p):
        os.symlink(target, self.path(p))

    def dir(self, p):
        os.makedirs(self.path(p))
