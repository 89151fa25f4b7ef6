/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Module parameters in user space: the variable keeps its default; the
 * declarations only swallow the macros' trailing semicolons.
 */
#include "../kshim.h"
#define module_param_named(name, var, type, perm) \
	extern int kshim_module_param_##name
#define MODULE_PARM_DESC(name, desc) \
	extern int kshim_module_parm_desc_##name
