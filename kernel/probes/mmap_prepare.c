// SPDX-License-Identifier: GPL-2.0-only
/* 6.17: file_operations.mmap_prepare and struct vm_area_desc */
#include <linux/fs.h>
#include <linux/mm.h>

int axfs_probe(struct vm_area_desc *d);
const struct file_operations axfs_probe_fops = { .mmap_prepare = axfs_probe };
