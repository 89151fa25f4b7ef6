// SPDX-License-Identifier: GPL-2.0-only
/* 6.9: folio_end_read() */
#include <linux/pagemap.h>

void axfs_probe(struct folio *f);
void axfs_probe(struct folio *f)
{
	folio_end_read(f, true);
}
