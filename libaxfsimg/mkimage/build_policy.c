// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * build_policy.c - the policy stage of axfs_build(): the owners, devices
 * and per-file rules of the policy (policy_apply.c) with the command
 * line's owners over them, then the report of what AXFS cannot store
 * (per-file times, extended attributes, ACLs) under the --xattrs action.
 */
#include "internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct owners {
	int all_root;
	int64_t uid, gid;
};

static void apply_owners(struct tree_entry *e, void *ctx)
{
	const struct owners *ow = ctx;

	if (ow->all_root > 0)
		e->uid = e->gid = 0;
	if (ow->uid >= 0)
		e->uid = (uint32_t)ow->uid;
	if (ow->gid >= 0)
		e->gid = (uint32_t)ow->gid;
}

/* The --xattrs action: command line, else policy, else warn. */
static enum axfs_xattr_action xattr_action(const struct axfs_build_opts *o)
{
	if (o->xattrs != AXFS_XATTRS_UNSET)
		return o->xattrs;
	if (o->policy && o->policy->xattrs != AXFS_XATTRS_UNSET)
		return o->policy->xattrs;
	return AXFS_XATTRS_WARN;
}

/*
 * One warning for the extended attributes and ACLs AXFS v1 cannot store,
 * each path with -v.  They follow the --xattrs action: warn, fail naming
 * the first path, or say nothing.  Per-file modification times are lost
 * in nearly every build from a directory (AXFS has one timestamp), so they
 * are no warning: one line at INFO (-v), each path at DEBUG (-vv), and a
 * sentence in axfs-mkfs(1).
 */
int build_report_lossy(const struct tree *t,
		       const struct axfs_build_opts *o, unsigned int *all,
		       struct axfs_error *err)
{
	const struct axfs_logger *log = o->log;
	enum axfs_xattr_action xact = xattr_action(o);
	unsigned int xbits = SOURCE_LOSSY_XATTR | SOURCE_LOSSY_ACL;
	unsigned int first_bits = 0;
	uint64_t mt = 0, xa = 0, acl = 0, nx = 0;
	char path[4200], first[4200];

	*all = 0;
	first[0] = '\0';
	for (size_t i = 0; i < t->count; i++) {
		const struct tree_entry *e = t->by_ino[i];
		unsigned int lossy = e->lossy;

		if (xact == AXFS_XATTRS_IGNORE)
			lossy &= ~(xbits | SOURCE_LOSSY_SELINUX |
				   SOURCE_LOSSY_CAPABILITY);
		if (!lossy)
			continue;
		*all |= lossy;
		mt += !!(lossy & SOURCE_LOSSY_MTIME);
		xa += !!(lossy & SOURCE_LOSSY_XATTR);
		acl += !!(lossy & SOURCE_LOSSY_ACL);
		nx += !!(lossy & xbits);
		tree_entry_path(e, path, sizeof(path));
		if ((lossy & xbits) && !first[0]) {
			snprintf(first, sizeof(first), "%s", path);
			first_bits = lossy;
		}
		axfs_log(log, lossy & ~SOURCE_LOSSY_MTIME ? AXFS_LOG_INFO :
			 AXFS_LOG_DEBUG, "'%s': not stored:%s%s%s%s", path,
			 lossy & SOURCE_LOSSY_MTIME ? " its own mtime" : "",
			 lossy & SOURCE_LOSSY_XATTR ?
			 (lossy & SOURCE_LOSSY_SELINUX ?
			  " xattrs (its SELinux label)" :
			  lossy & SOURCE_LOSSY_CAPABILITY ?
			  " xattrs (its file capabilities)" : " xattrs") : "",
			 (lossy & SOURCE_LOSSY_SELINUX) &&
			 (lossy & SOURCE_LOSSY_CAPABILITY) ?
			 " (and file capabilities)" : "",
			 lossy & SOURCE_LOSSY_ACL ? " ACL" : "");
	}
	if (xact == AXFS_XATTRS_ERROR && nx)
		return axfs_error_set(err, AXFS_ERR_UNSUPPORTED,
			"'%s' has %s, which AXFS cannot store (%llu %s "
			"extended attributes or ACLs); label with the context= "
			"mount option or genfscon, give programs setuid or "
			"ambient capabilities instead, or build without them "
			"with --xattrs=warn", first,
			first_bits & SOURCE_LOSSY_SELINUX ?
			"an SELinux label (security.selinux)" :
			first_bits & SOURCE_LOSSY_CAPABILITY ?
			"file capabilities (security.capability)" :
			first_bits & SOURCE_LOSSY_XATTR ? "extended attributes" :
			"an ACL", (unsigned long long)nx,
			nx == 1 ? "entry has" : "entries have");
	if (mt)
		axfs_log(log, AXFS_LOG_INFO, "per-file modification times are "
			 "not stored: %llu %s get%s the image timestamp (-vv "
			 "lists them)", (unsigned long long)mt,
			 mt == 1 ? "entry" : "entries", mt == 1 ? "s" : "");
	if (xa || acl) {
		char what[256];
		size_t n = 0;

		what[0] = '\0';
		if (xa && n < sizeof(what))
			n += (size_t)snprintf(what + n, sizeof(what) - n,
				"%sextended attributes (%llu %s)",
				n ? ", " : "", (unsigned long long)xa,
				xa == 1 ? "entry" : "entries");
		if (acl && n < sizeof(what))
			snprintf(what + n, sizeof(what) - n,
				 "%sACLs (%llu %s)", n ? ", " : "",
				 (unsigned long long)acl,
				 acl == 1 ? "entry" : "entries");
		axfs_log(log, AXFS_LOG_WARN,
			 "AXFS cannot store %s; they are left out (-v lists "
			 "them%s)", what, xa || acl ? "; --xattrs=error makes "
			 "this an error" : "");
	}
	return 0;
}

/* Whether two image paths name the same entry ("/a/b" vs "/a//b/"). */
static int same_path(const char *a, const char *b)
{
	for (;;) {
		while (*a == '/')
			a++;
		while (*b == '/')
			b++;
		if (!*a || !*b)
			return !*a && !*b;
		while (*a && *a != '/' && *a == *b) {
			a++;
			b++;
		}
		if ((*a && *a != '/') || (*b && *b != '/'))
			return 0;
	}
}

static int is_device_path(const struct axfs_policy *pol, const char *path)
{
	for (size_t i = 0; i < pol->n_devices; i++)
		if (same_path(pol->devices[i].path, path))
			return 1;
	return 0;
}

/*
 * Applies a policy whose owners section the command line replaced.  The
 * directories that the policy's devices imply (a /run for /run/sock) are
 * created after the command-line owners were applied to the source, so
 * they get them too; the devices themselves keep the policy's owners.
 */
static int apply_policy_cli_owners(struct axfs_policy *pol,
				   const struct owners *ow,
				   struct tree *t,
				   const struct axfs_logger *log,
				   struct axfs_error *err)
{
	char **implied = NULL;
	size_t n = 0, cap = 0;
	int rc = AXFS_ERR_NOMEM;

	for (size_t i = 0; i < pol->n_devices; i++) {
		char *p = strdup(pol->devices[i].path), *slash;

		if (!p)
			goto nomem;
		/* Every missing ancestor, deepest first. */
		while ((slash = strrchr(p, '/')) && slash != p) {
			*slash = '\0';
			if (tree_lookup(t, p))
				break;
			if (n == cap) {
				size_t c = cap ? cap * 2 : 8;
				char **v = realloc(implied, c * sizeof(*v));

				if (!v) {
					free(p);
					goto nomem;
				}
				implied = v;
				cap = c;
			}
			implied[n] = strdup(p);
			if (!implied[n]) {
				free(p);
				goto nomem;
			}
			n++;
		}
		free(p);
	}
	rc = policy_apply(pol, t, log, err);
	for (size_t i = 0; rc == 0 && i < n; i++) {
		struct tree_entry *e = tree_lookup(t, implied[i]);

		if (e && !is_device_path(pol, implied[i]))
			apply_owners(e, (void *)ow);
	}
	goto out;
nomem:
	rc = axfs_error_set(err, AXFS_ERR_NOMEM, "out of memory");
out:
	for (size_t i = 0; i < n; i++)
		free(implied[i]);
	free(implied);
	return rc;
}

/* Whether the policy adds files whose bytes come from host files. */
int build_policy_has_host_files(const struct axfs_policy *pol)
{
	for (size_t i = 0; pol && i < pol->n_devices; i++)
		if (pol->devices[i].source)
			return 1;
	return 0;
}

int build_apply_policy(const struct axfs_build_opts *o, struct tree *t,
		       struct axfs_error *err)
{
	struct owners ow = { o->all_root, o->force_uid, o->force_gid };
	struct axfs_policy pol;

	int cli_owners = o->all_root >= 0 || o->force_uid >= 0 ||
			 o->force_gid >= 0;

	/* Owners given on the command line replace the policy's owners
	 * section; its per-file rules and devices still apply on top. */
	if (cli_owners && tree_for_each_entry(t, apply_owners, &ow) < 0)
		return axfs_error_set(err, AXFS_ERR_NOMEM, "out of memory");
	if (!o->policy)
		return 0;
	/* A shallow copy whose owners we may blank; the rules (with their
	 * `matched` counters) are shared with the caller's policy. */
	pol = *o->policy;
	if (!cli_owners)
		return policy_apply(&pol, t, o->log, err);
	pol.all_root = -1;
	pol.has_uid = 0;
	pol.has_gid = 0;
	pol.n_uid_map = pol.n_gid_map = 0;
	pol.uid_offset = pol.gid_offset = 0;
	return apply_policy_cli_owners(&pol, &ow, t, o->log, err);
}
