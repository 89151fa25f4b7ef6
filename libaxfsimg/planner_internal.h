/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * planner_internal.h - what the planner (planner.c) lends the rest of
 * libaxfsimg.
 */
#ifndef AXFS_PLANNER_INTERNAL_H
#define AXFS_PLANNER_INTERNAL_H

#include "axfs_tree.h"

/*
 * Gives every hard-link member its own copy of its master's page plan
 * (each entry owns and frees its `pages`); -1 when out of memory.
 */
int plan_sync_link_members(struct axfs_tree *t);

#endif
