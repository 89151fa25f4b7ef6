// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * source_entry.c - what every source producer (and the tree, the policy)
 * shares about an entry: file type <-> mode mapping and names, and what
 * an extended attribute costs when AXFS cannot store it.
 */
#include "source.h"
#include "internal.h"

#include <string.h>
#include <sys/stat.h>
#include <unistd.h>


uint32_t axfs_ftype_to_mode(enum axfs_ftype t)
{
	switch (t) {
	case AXFS_FT_REG: return S_IFREG;
	case AXFS_FT_DIR: return S_IFDIR;
	case AXFS_FT_LNK: return S_IFLNK;
	case AXFS_FT_CHR: return S_IFCHR;
	case AXFS_FT_BLK: return S_IFBLK;
	case AXFS_FT_FIFO: return S_IFIFO;
	case AXFS_FT_SOCK: return S_IFSOCK;
	case AXFS_FT_NONE: break;
	}
	return 0;
}

enum axfs_ftype axfs_ftype_from_mode(uint32_t mode)
{
	switch (mode & S_IFMT) {
	case S_IFREG: return AXFS_FT_REG;
	case S_IFDIR: return AXFS_FT_DIR;
	case S_IFLNK: return AXFS_FT_LNK;
	case S_IFCHR: return AXFS_FT_CHR;
	case S_IFBLK: return AXFS_FT_BLK;
	case S_IFIFO: return AXFS_FT_FIFO;
	case S_IFSOCK: return AXFS_FT_SOCK;
	}
	return AXFS_FT_NONE;
}

const char *axfs_ftype_name(enum axfs_ftype t)
{
	switch (t) {
	case AXFS_FT_REG: return "file";
	case AXFS_FT_DIR: return "directory";
	case AXFS_FT_LNK: return "symlink";
	case AXFS_FT_CHR: return "character device";
	case AXFS_FT_BLK: return "block device";
	case AXFS_FT_FIFO: return "fifo";
	case AXFS_FT_SOCK: return "socket";
	case AXFS_FT_NONE: break;
	}
	return "unknown file type";
}

unsigned int source_xattr_lossy(const char *name)
{
	if (strncmp(name, "system.posix_acl_", 17) == 0)
		return SOURCE_LOSSY_ACL;
	if (strcmp(name, "security.selinux") == 0)
		return SOURCE_LOSSY_XATTR | SOURCE_LOSSY_SELINUX;
	if (strcmp(name, "security.capability") == 0)
		return SOURCE_LOSSY_XATTR | SOURCE_LOSSY_CAPABILITY;
	return SOURCE_LOSSY_XATTR;
}
