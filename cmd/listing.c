// SPDX-License-Identifier: GPL-2.0-or-later
/* cmd/listing.c - inodes shown to people (dump --inodes, ls) */
#include "escape.h"
#include "listing.h"

#include <grp.h>
#include <inttypes.h>
#include <pwd.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

/* Names looked up, kept: an image has few owners, and each lookup may read
 * /etc/passwd.  Past the slots (a hostile image's thousands of ids) each is
 * looked up again, a cost per entry listed, bounded. */
#define OWNER_SLOTS	32
#define OWNER_NAME_MAX	64

struct owner_cache {
	uint32_t id[OWNER_SLOTS];
	char name[OWNER_SLOTS][OWNER_NAME_MAX];	/* "" for none: the number */
	int used;
};

/* The host's name of id (a user, or a group if is_group), or NULL. */
static const char *host_name(uint32_t id, int is_group)
{
	const struct group *g;
	const struct passwd *p;

	if (is_group) {
		g = getgrgid((gid_t)id);
		return g ? g->gr_name : NULL;
	}
	p = getpwuid((uid_t)id);
	return p ? p->pw_name : NULL;
}

static void put_id(struct owner_cache *c, uint32_t id, int is_group)
{
	const char *name = NULL;

	for (int i = 0; i < c->used; i++)
		if (c->id[i] == id) {
			name = c->name[i];
			break;
		}
	if (!name) {
		name = host_name(id, is_group);
		if (name && strlen(name) >= OWNER_NAME_MAX)
			name = NULL;	/* not kept; shown as the number */
		if (c->used < OWNER_SLOTS) {
			c->id[c->used] = id;
			snprintf(c->name[c->used], OWNER_NAME_MAX, "%s",
				 name ? name : "");
			name = c->name[c->used++];
		}
	}
	if (name && *name)
		cmd_put_escaped(stdout, name);
	else
		printf("%" PRIu32, id);
}

void cmd_put_owner(uint32_t uid, uint32_t gid, int numeric)
{
	static struct owner_cache users, groups;

	if (numeric) {
		printf("%" PRIu32 "/%" PRIu32, uid, gid);
		return;
	}
	put_id(&users, uid, 0);
	putchar('/');
	put_id(&groups, gid, 1);
}

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
