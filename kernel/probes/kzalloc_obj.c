// SPDX-License-Identifier: GPL-2.0-only
/* 7.0: kzalloc_obj() */
#include <linux/slab.h>

struct axfs_probe_s {
	int a;
};

struct axfs_probe_s *axfs_probe(void);
struct axfs_probe_s *axfs_probe(void)
{
	struct axfs_probe_s *p = kzalloc_obj(*p, GFP_KERNEL);

	return p;
}
