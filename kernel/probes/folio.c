// SPDX-License-Identifier: GPL-2.0-only
/* 5.16: struct folio */
#include <linux/mm.h>

struct page *axfs_probe(struct folio *f);
struct page *axfs_probe(struct folio *f)
{
	return folio_page(f, 0);
}
