// SPDX-License-Identifier: GPL-2.0-only
/* 5.19: address_space_operations.read_folio */
#include <linux/fs.h>

int axfs_probe(struct file *f, struct folio *fo);
const struct address_space_operations axfs_probe_aops = { .read_folio = axfs_probe };
