/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * axfs_ftype.h - the kinds of entry a filesystem holds, as the policy
 * (axfs_policy.h: rules for one type, devices to add) names them.
 */
#ifndef AXFS_FTYPE_H
#define AXFS_FTYPE_H

#include <stdint.h>

enum axfs_ftype {
	AXFS_FT_NONE = 0,
	AXFS_FT_REG,
	AXFS_FT_DIR,
	AXFS_FT_LNK,
	AXFS_FT_CHR,
	AXFS_FT_BLK,
	AXFS_FT_FIFO,
	AXFS_FT_SOCK,
};

/* Map between enum axfs_ftype and the S_IFMT bits of a mode. */
uint32_t axfs_ftype_to_mode(enum axfs_ftype t);
enum axfs_ftype axfs_ftype_from_mode(uint32_t mode);
const char *axfs_ftype_name(enum axfs_ftype t);	/* "file", "directory".. */

#endif
