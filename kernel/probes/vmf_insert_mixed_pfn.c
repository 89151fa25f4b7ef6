// SPDX-License-Identifier: GPL-2.0-only
/* 6.17: vmf_insert_mixed() takes an unsigned long pfn (pfn_t is gone) */
#include <linux/mm.h>

vm_fault_t axfs_probe(struct vm_fault *f, unsigned long pfn);
vm_fault_t axfs_probe(struct vm_fault *f, unsigned long pfn)
{
	return vmf_insert_mixed(f->vma, f->address, pfn);
}
