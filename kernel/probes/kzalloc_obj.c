// SPDX-License-Identifier: GPL-2.0-only
/* 7.0: kzalloc_obj(), kzalloc_objs(), kvzalloc_objs(), GFP_KERNEL by default */
#include <linux/slab.h>

struct axfs_probe_s {
	int a;
};

struct axfs_probe_s *axfs_probe(void);
struct axfs_probe_s *axfs_probe(void)
{
	struct axfs_probe_s *p = kzalloc_obj(*p);
	struct axfs_probe_s *q = kzalloc_objs(*q, 2, GFP_NOIO);
	struct axfs_probe_s *r = kvzalloc_objs(*r, 2);

	kfree(q);
	kvfree(r);
	return p;
}
