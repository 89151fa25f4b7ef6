// SPDX-License-Identifier: GPL-2.0-only
/* 5.18: readahead_folio() */
#include <linux/pagemap.h>

struct folio *axfs_probe(struct readahead_control *r);
struct folio *axfs_probe(struct readahead_control *r)
{
	return readahead_folio(r);
}
