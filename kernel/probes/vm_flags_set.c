// SPDX-License-Identifier: GPL-2.0-only
/* 6.3: vm_flags_set() */
#include <linux/mm.h>

void axfs_probe(struct vm_area_struct *v);
void axfs_probe(struct vm_area_struct *v)
{
	vm_flags_set(v, VM_MIXEDMAP);
}
