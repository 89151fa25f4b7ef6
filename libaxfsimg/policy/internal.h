/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* policy/internal.h - what the policy's parsers share, not exported */
#ifndef LIBAXFSIMG_POLICY_INTERNAL_H
#define LIBAXFSIMG_POLICY_INTERNAL_H

/* The longest symlink target an entry may name: Linux's PATH_MAX less
 * its NUL, the longest readlink(2) returns. */
#define POLICY_SYMLINK_MAX 4095

/*
 * An absolute image path normalised to "/a/b" (repeated '/' and '.'
 * components dropped), newly allocated; NULL with *why set when it is
 * not one (relative, with a '..', a name past 255 bytes, the root), or
 * with *why NULL when out of memory.
 */
char *policy_image_path(const char *s, const char **why);

#endif
