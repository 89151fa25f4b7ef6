// SPDX-License-Identifier: GPL-2.0-or-later
/* cmd/listing.c - inodes shown to people (dump --inodes, ls) */
#include "escape.h"
#include "listing.h"

#include <stdio.h>
#include <sys/stat.h>

void cmd_mode_string(uint32_t mode, char s[11])
{
	static const char types[] = "?pc?d?b?-?l?s???";
	static const char rwx[] = "rwxrwxrwx";

	s[0] = types[(mode >> 12) & 15];
	for (int i = 0; i < 9; i++)
		s[1 + i] = mode & (0400u >> i) ? rwx[i] : '-';
	if (mode & S_ISUID)
		s[3] = mode & S_IXUSR ? 's' : 'S';
	if (mode & S_ISGID)
		s[6] = mode & S_IXGRP ? 's' : 'S';
	if (mode & S_ISVTX)
		s[9] = mode & S_IXOTH ? 't' : 'T';
	s[10] = '\0';
}

const char *cmd_type_name(uint32_t mode)
{
	switch (mode & S_IFMT) {
	case S_IFREG: return "reg";
	case S_IFDIR: return "dir";
	case S_IFLNK: return "lnk";
	case S_IFCHR: return "chr";
	case S_IFBLK: return "blk";
	case S_IFIFO: return "fifo";
	case S_IFSOCK: return "sock";
	}
	return "unknown";
}

/* The one escaping rule for names in text for people (text.h). */
void cmd_put_name(const char *s)
{
	cmd_put_escaped(stdout, s);
}
