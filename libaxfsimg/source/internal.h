/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* source/internal.h - what the source producers share, not exported */
#ifndef AXFS_SOURCE_INTERNAL_H
#define AXFS_SOURCE_INTERNAL_H

/* The enum axfs_lossy bits for one extended attribute name: ACL for
 * system.posix_acl_*, else XATTR (plus SELINUX or CAPABILITY). */
unsigned int source_xattr_lossy(const char *name);

#endif
