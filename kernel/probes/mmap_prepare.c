// SPDX-License-Identifier: GPL-2.0-only
/*
 * 7.x: file_operations.mmap_prepare with vma_flags_t bits set, cleared
 * and tested through vma_desc_set_flags(), vma_desc_clear_flags() and
 * vma_desc_test_any() (6.17 had ->mmap_prepare with a vm_flags word; the
 * test was first named vma_desc_test_flags()).
 */
#include <linux/fs.h>
#include <linux/mm.h>

int axfs_probe(struct vm_area_desc *d);
int axfs_probe(struct vm_area_desc *d)
{
	if (!vma_desc_test_any(d, VMA_WRITE_BIT))
		vma_desc_clear_flags(d, VMA_MAYWRITE_BIT);
	vma_desc_set_flags(d, VMA_MIXEDMAP_BIT);
	return generic_file_readonly_mmap_prepare(d);
}

const struct file_operations axfs_probe_fops = { .mmap_prepare = axfs_probe };
