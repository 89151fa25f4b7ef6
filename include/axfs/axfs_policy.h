/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * axfs_policy.h - the YAML build policy (see man/axfs-policy.5).
 * Every error names file:line:column and the key.
 */
#ifndef AXFS_POLICY_H
#define AXFS_POLICY_H

#include <stdint.h>
#include <stddef.h>
#include "axfs_compressor.h"
#include "axfs_error.h"
#include "axfs_ftype.h"

/* What mkfs does with extended attributes and ACLs it cannot store. */
enum axfs_xattr_action {
	AXFS_XATTRS_UNSET = 0,
	AXFS_XATTRS_WARN,		/* one warning (the default) */
	AXFS_XATTRS_ERROR,		/* refuse to build */
	AXFS_XATTRS_IGNORE,		/* say nothing */
};
/* "warn", "error", "ignore" -> the action; UNSET for anything else. */
enum axfs_xattr_action axfs_xattr_action_parse(const char *s);

struct axfs_policy_rule {
	char *match;		/* glob: axfs-policy(5), MATCHING */
	int has_mode; uint32_t mode;	/* permission bits (07777) */
	int has_uid; uint32_t uid;
	int has_gid; uint32_t gid;
	int compress;		/* -1 unset, 0 none, 1 zlib */
	int xip;		/* -1 unset, 0 never, 1 whole file */
	enum axfs_ftype type;	/* only entries of this type; NONE: any */
	size_t line, column;	/* where the rule starts */
	size_t matched;		/* filled by policy_apply() */
};

/* What an entry of `devices`, `entries` or a device table does. */
enum axfs_policy_op {
	AXFS_POLICY_ADD = 0,	/* add it, replacing a source entry */
	AXFS_POLICY_SET,	/* table 'f', 'd': mode and owners of the entry
				 * there ('d' adds a missing directory; 'f'
				 * wants a regular file) */
	AXFS_POLICY_SET_IF,	/* table 'F': as 'f'; nothing when missing */
	AXFS_POLICY_SET_TREE,	/* table 'r': the entry and all below it */
};

struct axfs_policy_device {
	char *path;		/* absolute image path */
	enum axfs_ftype type;	/* CHR, BLK, FIFO, SOCK, DIR; in `entries`
				 * also REG (from `source`) and LNK */
	uint32_t major, minor;
	uint32_t mode;		/* permission bits */
	uint32_t uid, gid;
	size_t line, column;
	/* LNK: the symlink's target; with `hardlink`: the image path
	 * ("/a/b") of the entry this one is a hard link to. */
	char *target;
	char *source;		/* REG: the host file, resolved against the
				 * policy's directory */
	int hardlink;		/* a hard link to `target` */
	enum axfs_policy_op op;
	/* where it comes from, for messages: the section ("devices",
	 * "entries") and its index, or a device table (section NULL,
	 * file its name) */
	const char *section;
	const char *file;	/* NULL: the policy's file */
	size_t index;
};

/* One id of owners.uid-map / owners.gid-map. */
struct axfs_policy_idmap {
	uint32_t from, to;
	size_t line, column;
};

struct axfs_policy {
	char *file;
	enum axfs_compressor compressor;	/* DEFAULT: unset */
	int level;			/* -1 unset */
	uint32_t block_size;		/* 0 unset */
	int has_xip_budget; uint64_t xip_budget;
	uint64_t xip_min_count;		/* 0 unset */
	int xip_suffix;			/* -1 unset */
	char **xip_files; size_t n_xip_files;
	char **xip_exclude; size_t n_xip_exclude;
	/* where each xip.files / xip.exclude glob is (for warnings) */
	struct axfs_policy_pos { size_t line, column; }
		*xip_files_pos, *xip_exclude_pos;
	struct axfs_policy_pos level_pos;	/* of compression.level */
	int all_root;			/* -1 unset */
	int has_uid; uint32_t uid;	/* owners.uid: force all */
	int has_gid; uint32_t gid;
	struct axfs_policy_rule *rules; size_t n_rules;
	struct axfs_policy_device *devices; size_t n_devices;
	int has_timestamp; int64_t timestamp;
	uint64_t mmap_limit;		/* 0 unset */
	enum axfs_xattr_action xattrs;	/* UNSET: not given */
	uint64_t pad_size;		/* pad.size; 0 unset */
	int pad_byte;			/* pad.byte; -1 unset */
	int strict_profile;		/* xip.strict-profile; -1 unset */
	char **exclude; size_t n_exclude;	/* entries left out */
	struct axfs_policy_pos *exclude_pos;
	/* owners.uid-map / gid-map (sorted by from) and uid-offset /
	 * gid-offset: every source id the map names becomes its value,
	 * any other one is moved by the offset */
	struct axfs_policy_idmap *uid_map; size_t n_uid_map;
	struct axfs_policy_idmap *gid_map; size_t n_gid_map;
	uint32_t uid_offset, gid_offset;	/* 0 unset */
	struct axfs_policy_pos uid_offset_pos, gid_offset_pos;
	char **tables; size_t n_tables;	/* device table names (owned) */
};

void axfs_policy_init(struct axfs_policy *p);
int axfs_policy_load(struct axfs_policy *p, const char *file,
		     struct axfs_error *err);
/* name: the file named in messages, and whose directory the relative
 * `source:` paths of entries are taken from ("p.yaml": the current one). */
int axfs_policy_parse(struct axfs_policy *p, const char *name,
		      const char *buf, size_t len, struct axfs_error *err);
void axfs_policy_free(struct axfs_policy *p);
/*
 * Adds the entries of a device table (Buildroot's makedevs format:
 * "<name> <type> <mode> <uid> <gid> <major> <minor> <start> <inc>
 * <count>", see axfs-mkfs(1)) after the policy's own, to be applied in
 * file order.  Errors name file:line:column; on error the policy is as
 * it was.
 */
int axfs_policy_load_device_table(struct axfs_policy *p, const char *file,
				  struct axfs_error *err);
int axfs_policy_parse_device_table(struct axfs_policy *p, const char *name,
				   const char *buf, size_t len,
				   struct axfs_error *err);

/* Parses "64KiB", "8MiB", "4096", "1G" ...; 0 or <0 with why filled. */
int axfs_parse_size(const char *s, uint64_t *out, char *why, size_t why_len);

#endif
