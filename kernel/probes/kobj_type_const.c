// SPDX-License-Identifier: GPL-2.0-only
/* 6.2: kobject_init_and_add() takes a const struct kobj_type */
#include <linux/build_bug.h>
#include <linux/kobject.h>

static_assert(__builtin_types_compatible_p(typeof(kobject_init_and_add),
					   int (struct kobject *,
						const struct kobj_type *,
						struct kobject *,
						const char *, ...)));
