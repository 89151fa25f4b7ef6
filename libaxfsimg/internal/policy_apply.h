/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * policy_apply.h - the policy (axfs_policy.h) applied to a build's tree
 * (policy/policy_apply.c), for axfs_build() and the tests.
 */
#ifndef LIBAXFSIMG_INTERNAL_POLICY_APPLY_H
#define LIBAXFSIMG_INTERNAL_POLICY_APPLY_H

#include "axfs_error.h"
#include "axfs_policy.h"
#include "tree.h"

/*
 * Applies the policy to a tree before it is finalised: adds `devices`
 * entries (replacing what the source had there, with a warning), applies
 * owners and the `files` rules in order (later rules win) and sets each
 * entry's want_xip / want_compress; rules that match nothing are warned
 * about with their file:line.
 */
int policy_apply(struct axfs_policy *p, struct tree *t,
		 const struct axfs_logger *log, struct axfs_error *err);

#endif
