// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * build.c - the whole mkfs pipeline, and atomic output files.
 *
 *   source -> tree (+ owners, policy) -> finalize -> plan -> pack
 *          -> write to a temporary file beside the output -> digest
 *          -> fsync + rename
 *
 * With an mmap limit and an XIP budget, profiled XIP pages are dropped
 * (coldest first, by the planner) and the data packed again until the
 * memory-mapped part fits; pages asked for by --xip or the policy are
 * never dropped.  Without a budget an image that does not fit is an
 * error: the user asked for every profiled page.
 * Any failure removes the temporary file and leaves an existing output
 * untouched.
 */
#include "axfs_build.h"
/* The stages axfs_build() calls (private: libaxfsimg/). */
#include "axfs_planner.h"
#include "axfs_packer.h"
#include "axfs_writer.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* ---- atomic output files ------------------------------------------------ */

/*
 * Temporary files still to be removed if a signal ends the process.  The
 * paths live in static storage that is never freed, so the handler can
 * read them at any moment; a slot's path is complete before its in_use
 * flag is set, and the flag is cleared before the slot is reused.
 */
#define OUTFILE_SLOTS 16
static char outfile_paths[OUTFILE_SLOTS][PATH_MAX];
static volatile sig_atomic_t outfile_in_use[OUTFILE_SLOTS];
static pthread_mutex_t outfile_lock = PTHREAD_MUTEX_INITIALIZER;

static int outfile_register(const char *path)
{
	int slot = -1;

	if (strlen(path) >= PATH_MAX)
		return -1;
	pthread_mutex_lock(&outfile_lock);
	for (int i = 0; i < OUTFILE_SLOTS; i++) {
		if (!outfile_in_use[i]) {
			strcpy(outfile_paths[i], path);
			outfile_in_use[i] = 1;
			slot = i;
			break;
		}
	}
	pthread_mutex_unlock(&outfile_lock);
	return slot;
}

static void outfile_unregister(const char *path)
{
	pthread_mutex_lock(&outfile_lock);
	for (int i = 0; i < OUTFILE_SLOTS; i++) {
		if (outfile_in_use[i] && strcmp(outfile_paths[i], path) == 0) {
			outfile_in_use[i] = 0;
			break;
		}
	}
	pthread_mutex_unlock(&outfile_lock);
}

void axfs_outfile_abort_all_signal_safe(void)
{
	for (int i = 0; i < OUTFILE_SLOTS; i++)
		if (outfile_in_use[i])
			unlink(outfile_paths[i]);
}

int axfs_outfile_open(struct axfs_outfile *of, const char *path,
		      struct axfs_error *err)
{
	struct stat st;
	const char *slash, *base;
	size_t dirlen;
	sigset_t block, old;
	mode_t mask;
	int fd, saved, rc;

	of->final_path = NULL;
	of->tmp_path = NULL;
	of->fd = -1;
	if (!path || !*path)
		return axfs_error_set(err, AXFS_ERR_INVALID,
				      "no output file given");
	if (stat(path, &st) == 0) {
		if (S_ISDIR(st.st_mode))
			return axfs_error_set(err, AXFS_ERR_INVALID,
					      "cannot write '%s': it is a directory",
					      path);
		if (!S_ISREG(st.st_mode))
			return axfs_error_set(err, AXFS_ERR_INVALID,
				"cannot write '%s': it is not a regular file "
				"(write the image to a file, then copy it)",
				path);
	}
	slash = strrchr(path, '/');
	base = slash ? slash + 1 : path;
	dirlen = slash ? (size_t)(slash - path) + 1 : 0;
	if (!*base)
		return axfs_error_set(err, AXFS_ERR_INVALID,
				      "cannot write '%s': it is a directory",
				      path);
	of->final_path = strdup(path);
	of->tmp_path = malloc(dirlen + strlen(base) + 9);
	if (!of->final_path || !of->tmp_path) {
		axfs_outfile_abort(of);
		return axfs_error_set(err, AXFS_ERR_NOMEM, "out of memory");
	}
	/* ".NAME.XXXXXX" in the output's directory: same filesystem, so
	 * rename() is atomic, and hidden from a casual ls. */
	memcpy(of->tmp_path, path, dirlen);
	sprintf(of->tmp_path + dirlen, ".%s.XXXXXX", base);

	/* No signal between creating the file and recording it. */
	sigemptyset(&block);
	sigaddset(&block, SIGINT);
	sigaddset(&block, SIGTERM);
	sigaddset(&block, SIGHUP);
	pthread_sigmask(SIG_BLOCK, &block, &old);
	fd = mkostemp(of->tmp_path, O_CLOEXEC);
	saved = errno;
	if (fd >= 0 && outfile_register(of->tmp_path) < 0) {
		unlink(of->tmp_path);
		close(fd);
		fd = -1;
		saved = ENAMETOOLONG;
	}
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (fd < 0) {
		rc = axfs_error_sys(err, saved, "cannot create a file beside '%s'",
				    path);
		free(of->tmp_path);
		of->tmp_path = NULL;
		axfs_outfile_abort(of);
		return rc;
	}
	of->fd = fd;
	/* mkstemp makes 0600; an image is an ordinary file. */
	mask = umask(0);
	umask(mask);
	if (fchmod(fd, 0666 & ~mask) < 0) {
		rc = axfs_error_sys(err, errno, "cannot write '%s'",
				    of->tmp_path);
		axfs_outfile_abort(of);
		return rc;
	}
	return 0;
}

int axfs_outfile_commit(struct axfs_outfile *of, struct axfs_error *err)
{
	char *dir, *slash;
	int rc, dfd;

	if (of->fd < 0 || !of->tmp_path)
		return axfs_error_set(err, AXFS_ERR_INVALID,
				      "the output file is not open");
	if (fsync(of->fd) < 0) {
		rc = axfs_error_sys(err, errno, "cannot write '%s'",
				    of->tmp_path);
		axfs_outfile_abort(of);
		return rc;
	}
	rc = close(of->fd);
	of->fd = -1;
	if (rc < 0) {
		rc = axfs_error_sys(err, errno, "cannot write '%s'",
				    of->tmp_path);
		axfs_outfile_abort(of);
		return rc;
	}
	if (rename(of->tmp_path, of->final_path) < 0) {
		rc = axfs_error_sys(err, errno, "cannot rename '%s' to '%s'",
				    of->tmp_path, of->final_path);
		axfs_outfile_abort(of);
		return rc;
	}
	outfile_unregister(of->tmp_path);
	/* Make the rename itself durable. */
	dir = strdup(of->final_path);
	if (dir) {
		slash = strrchr(dir, '/');
		if (slash)
			slash[1] = '\0';
		dfd = open(slash ? dir : ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (dfd >= 0) {
			fsync(dfd);
			close(dfd);
		}
		free(dir);
	}
	free(of->tmp_path);
	free(of->final_path);
	of->tmp_path = NULL;
	of->final_path = NULL;
	return 0;
}

void axfs_outfile_abort(struct axfs_outfile *of)
{
	if (!of)
		return;
	if (of->fd >= 0) {
		close(of->fd);
		of->fd = -1;
	}
	if (of->tmp_path) {
		unlink(of->tmp_path);
		outfile_unregister(of->tmp_path);
		free(of->tmp_path);
		of->tmp_path = NULL;
	}
	free(of->final_path);
	of->final_path = NULL;
}

/* ---- options ------------------------------------------------------------ */

void axfs_build_opts_init(struct axfs_build_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->all_root = -1;
	o->xip_suffix = -1;
	o->pad_byte = -1;
	o->force_uid = -1;
	o->force_gid = -1;
	o->compress_metadata = -1;
}

static int source_is_directory(const char *path)
{
	struct stat st;

	return path && strcmp(path, "-") && stat(path, &st) == 0 &&
	       S_ISDIR(st.st_mode);
}

/* --mtime, else the policy, else SOURCE_DATE_EPOCH, else the source's own
 * time (an image's timestamp), else now; *is_now says it came to that. */
static int resolve_timestamp(const struct axfs_build_opts *o,
			     const struct axfs_policy *pol,
			     const struct axfs_source *src, int64_t *ts,
			     int *is_now, struct axfs_error *err)
{
	const char *sde = getenv("SOURCE_DATE_EPOCH");

	if (o->has_timestamp) {
		*ts = o->timestamp;
	} else if (pol && pol->has_timestamp) {
		*ts = pol->timestamp;
	} else if (sde && *sde) {
		char *end;
		long long v;

		errno = 0;
		v = strtoll(sde, &end, 10);
		if (errno || *end || v < 0 || *sde == '+' || *sde == '-')
			return axfs_error_set(err, AXFS_ERR_INVALID,
				"SOURCE_DATE_EPOCH='%s' is not a number of "
				"seconds since 1970", sde);
		*ts = v;
	} else if (src && src->has_timestamp) {
		*ts = src->timestamp;
	} else {
		*ts = (int64_t)time(NULL);
		*is_now = 1;
	}
	return 0;
}

static int check_cancel(const struct axfs_build_opts *o,
			struct axfs_error *err)
{
	if (o->cancel && *o->cancel)
		return axfs_error_set(err, AXFS_ERR_INTERRUPTED, "interrupted");
	return 0;
}

/* ---- tree walks before numbering ---------------------------------------- */

typedef void (*entry_fn)(struct axfs_tree_entry *e, void *ctx);

/* Visits every entry (parents before children), without recursion. */
static int for_each_entry(struct axfs_tree *t, entry_fn fn, void *ctx)
{
	struct axfs_tree_entry **stack;
	size_t n = 0;

	stack = malloc((t->count + 1) * sizeof(*stack));
	if (!stack)
		return -1;
	stack[n++] = t->root;
	while (n) {
		struct axfs_tree_entry *e = stack[--n];

		fn(e, ctx);
		for (size_t i = 0; i < e->nchildren; i++)
			stack[n++] = e->children[i];
	}
	free(stack);
	return 0;
}

struct owners {
	int all_root;
	int64_t uid, gid;
};

static void apply_owners(struct axfs_tree_entry *e, void *ctx)
{
	const struct owners *ow = ctx;

	if (ow->all_root > 0)
		e->uid = e->gid = 0;
	if (ow->uid >= 0)
		e->uid = (uint32_t)ow->uid;
	if (ow->gid >= 0)
		e->gid = (uint32_t)ow->gid;
}

static void clear_mtime_lossy(struct axfs_tree_entry *e, void *ctx)
{
	(void)ctx;
	e->lossy &= ~(unsigned int)AXFS_LOSSY_MTIME;
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
 * One warning for everything AXFS v1 cannot store; each path with -v.
 * Extended attributes and ACLs (SELinux labels, file capabilities) follow
 * the --xattrs action: warn, fail naming the first path, or say nothing.
 */
static int report_lossy(const struct axfs_tree *t,
			const struct axfs_build_opts *o, unsigned int *all,
			struct axfs_error *err)
{
	const struct axfs_logger *log = o->log;
	enum axfs_xattr_action xact = xattr_action(o);
	unsigned int xbits = AXFS_LOSSY_XATTR | AXFS_LOSSY_ACL;
	unsigned int first_bits = 0;
	uint64_t mt = 0, xa = 0, acl = 0, nx = 0;
	char path[4200], first[4200];

	*all = 0;
	first[0] = '\0';
	for (size_t i = 0; i < t->count; i++) {
		const struct axfs_tree_entry *e = t->by_ino[i];
		unsigned int lossy = e->lossy;

		if (xact == AXFS_XATTRS_IGNORE)
			lossy &= ~(xbits | AXFS_LOSSY_SELINUX |
				   AXFS_LOSSY_CAPABILITY);
		if (!lossy)
			continue;
		*all |= lossy;
		mt += !!(lossy & AXFS_LOSSY_MTIME);
		xa += !!(lossy & AXFS_LOSSY_XATTR);
		acl += !!(lossy & AXFS_LOSSY_ACL);
		nx += !!(lossy & xbits);
		axfs_tree_path(e, path, sizeof(path));
		if ((lossy & xbits) && !first[0]) {
			snprintf(first, sizeof(first), "%s", path);
			first_bits = lossy;
		}
		axfs_log(log, AXFS_LOG_INFO, "'%s': not stored:%s%s%s%s", path,
			 lossy & AXFS_LOSSY_MTIME ? " its own mtime" : "",
			 lossy & AXFS_LOSSY_XATTR ?
			 (lossy & AXFS_LOSSY_SELINUX ?
			  " xattrs (its SELinux label)" :
			  lossy & AXFS_LOSSY_CAPABILITY ?
			  " xattrs (its file capabilities)" : " xattrs") : "",
			 (lossy & AXFS_LOSSY_SELINUX) &&
			 (lossy & AXFS_LOSSY_CAPABILITY) ?
			 " (and file capabilities)" : "",
			 lossy & AXFS_LOSSY_ACL ? " ACL" : "");
	}
	if (xact == AXFS_XATTRS_ERROR && nx)
		return axfs_error_set(err, AXFS_ERR_UNSUPPORTED,
			"'%s' has %s, which AXFS cannot store (%llu %s "
			"extended attributes or ACLs); label with the context= "
			"mount option or genfscon, give programs setuid or "
			"ambient capabilities instead, or build without them "
			"with --xattrs=warn", first,
			first_bits & AXFS_LOSSY_SELINUX ?
			"an SELinux label (security.selinux)" :
			first_bits & AXFS_LOSSY_CAPABILITY ?
			"file capabilities (security.capability)" :
			first_bits & AXFS_LOSSY_XATTR ? "extended attributes" :
			"an ACL", (unsigned long long)nx,
			nx == 1 ? "entry has" : "entries have");
	if (mt || xa || acl) {
		char what[256];
		size_t n = 0;

		what[0] = '\0';
		if (mt)
			n += (size_t)snprintf(what + n, sizeof(what) - n,
				"per-file modification times (%llu %s; every "
				"inode gets the image timestamp)",
				(unsigned long long)mt, mt == 1 ? "entry" :
				"entries");
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

/* ---- the pipeline ------------------------------------------------------- */

/* Reads every entry into t; *shared_mtime gets the time every entry has,
 * or -1 when they differ (or there are none). */
static int read_source(const struct axfs_build_opts *o,
		       struct axfs_source *src, struct axfs_tree *t,
		       int64_t ts, int64_t *shared_mtime,
		       struct axfs_error *err)
{
	struct axfs_src_entry ent;
	int64_t first_mtime = 0;
	int have_first = 0, all_same = 1;
	int rc;

	for (;;) {
		rc = src->ops->next(src, &ent, err);
		if (rc <= 0)
			break;
		/* Per-file times are lost unless every entry shares one
		 * time; the build decides, as only it knows the image
		 * timestamp. */
		ent.lossy &= ~(unsigned int)AXFS_LOSSY_MTIME;
		if (ent.mtime != ts)
			ent.lossy |= AXFS_LOSSY_MTIME;
		if (!have_first) {
			first_mtime = ent.mtime;
			have_first = 1;
		} else if (ent.mtime != first_mtime) {
			all_same = 0;
		}
		rc = axfs_tree_add(t, &ent, NULL, err);
		if (rc < 0) {
			free(ent.data.host_path);
			return rc;
		}
		if (o->cancel && *o->cancel)
			return check_cancel(o, err);
	}
	if (rc < 0)
		return rc;
	if (all_same && for_each_entry(t, clear_mtime_lossy, NULL) < 0)
		return axfs_error_set(err, AXFS_ERR_NOMEM, "out of memory");
	*shared_mtime = have_first && all_same ? first_mtime : -1;
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
				   struct axfs_tree *t,
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
			if (axfs_tree_lookup(t, p))
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
	rc = axfs_policy_apply(pol, t, log, err);
	for (size_t i = 0; rc == 0 && i < n; i++) {
		struct axfs_tree_entry *e = axfs_tree_lookup(t, implied[i]);

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

static int apply_policy_and_owners(const struct axfs_build_opts *o,
				   struct axfs_tree *t,
				   struct axfs_error *err)
{
	struct owners ow = { o->all_root, o->force_uid, o->force_gid };
	struct axfs_policy pol;

	int cli_owners = o->all_root >= 0 || o->force_uid >= 0 ||
			 o->force_gid >= 0;

	/* Owners given on the command line replace the policy's owners
	 * section; its per-file rules and devices still apply on top. */
	if (cli_owners && for_each_entry(t, apply_owners, &ow) < 0)
		return axfs_error_set(err, AXFS_ERR_NOMEM, "out of memory");
	if (!o->policy)
		return 0;
	/* A shallow copy whose owners we may blank; the rules (with their
	 * `matched` counters) are shared with the caller's policy. */
	pol = *o->policy;
	if (!cli_owners)
		return axfs_policy_apply(&pol, t, o->log, err);
	pol.all_root = -1;
	pol.has_uid = 0;
	pol.has_gid = 0;
	return apply_policy_cli_owners(&pol, &ow, t, o->log, err);
}

/*
 * Deepest directory nesting mkfs writes: what the axfs-tools reader walks
 * (its guard against cycles in hostile images), and far beyond what a
 * path of PATH_MAX bytes reaches on Linux.  The format itself has no
 * limit, so the tree library does not impose one.
 */
#define BUILD_MAX_DEPTH 4096

static int check_depth(const struct axfs_tree *t, struct axfs_error *err)
{
	uint32_t *depth = malloc(t->count * sizeof(*depth));
	char path[4200];

	if (!depth)
		return axfs_error_set(err, AXFS_ERR_NOMEM, "out of memory");
	/* Inodes are numbered breadth-first: parents come first. */
	depth[0] = 0;
	for (size_t i = 1; i < t->count; i++) {
		const struct axfs_tree_entry *e = t->by_ino[i];

		depth[i] = depth[e->parent->ino] + 1;
		if (depth[i] > BUILD_MAX_DEPTH) {
			free(depth);
			axfs_tree_path(e->parent, path, sizeof(path));
			return axfs_error_set(err, AXFS_ERR_LIMIT,
				"'%.200s...' is nested more than %d directories "
				"deep, more than axfs-tools reads", path,
				BUILD_MAX_DEPTH);
		}
	}
	free(depth);
	return 0;
}

/*
 * The compressor and the level: each from the command line, else the
 * policy, else the default.  A level from the policy that the compressor
 * does not take (the command line may have chosen zlib) is named by its
 * place in the policy file.
 */
static int resolve_compression(const struct axfs_build_opts *o,
			       const struct axfs_policy *pol,
			       struct axfs_build_result *res,
			       struct axfs_error *err)
{
	char where[256];

	res->compressor = axfs_compressor_resolve(
		o->compressor ? o->compressor :
		pol ? pol->compressor : AXFS_COMPRESSOR_DEFAULT);
	if (o->level) {
		res->level = o->level;
		return axfs_compressor_check_level(res->compressor, res->level,
						   NULL, err);
	}
	if (!pol || pol->level <= 0) {
		res->level = AXFS_DEFAULT_LEVEL;
		return 0;
	}
	res->level = pol->level;
	snprintf(where, sizeof(where), "%s:%zu:%zu: compression.level: ",
		 pol->file ? pol->file : "policy", pol->level_pos.line,
		 pol->level_pos.column);
	return axfs_compressor_check_level(res->compressor, res->level, where,
					   err);
}

/* Planned XIP pages, and how many of them were asked for by --xip or the
 * policy (whole files, rules) rather than by a profile (suffix pages
 * follow profile pages and go with them). */
static void count_xip_pages(const struct axfs_tree *t, uint64_t *all,
			    uint64_t *asked)
{
	*all = *asked = 0;
	for (size_t i = 0; i < t->count; i++) {
		const struct axfs_tree_entry *e = t->by_ino[i];
		uint64_t n = (e->size + AXFS_PAGE_SIZE - 1) / AXFS_PAGE_SIZE;

		if (e->type != AXFS_FT_REG || !e->pages ||
		    (e->link_master && e->link_master != e))
			continue;
		for (uint64_t p = 0; p < n; p++) {
			if (!e->pages[p].xip)
				continue;
			(*all)++;
			if (e->pages[p].reason != AXFS_WHY_PROFILE &&
			    e->pages[p].reason != AXFS_WHY_SUFFIX)
				(*asked)++;
		}
	}
}

/*
 * The mapped part does not fit and no budget allows dropping pages: when
 * some XIP pages come from a profile, say how to let mkfs drop the
 * coldest of them instead of failing.
 */
static void hint_budget(const struct axfs_tree *t, struct axfs_error *err)
{
	uint64_t planned, asked;
	char msg[AXFS_ERROR_MSG_MAX];

	count_xip_pages(t, &planned, &asked);
	if (!err || planned == asked)
		return;
	snprintf(msg, sizeof(msg), "%s", err->msg);
	axfs_error_set(err, AXFS_ERR_LIMIT,
		       "%s; %llu of the XIP pages come from the profile: with an "
		       "XIP budget (--xip-budget or xip.budget) the coldest of "
		       "them are stored compressed until the rest fits", msg,
		       (unsigned long long)(planned - asked));
}

static int pack(const struct axfs_build_opts *o, struct axfs_tree *t,
		struct axfs_source *src, struct axfs_build_result *res,
		struct axfs_error *err)
{
	struct axfs_pack_opts po;

	memset(&po, 0, sizeof(po));
	po.cblock_size = res->block_size;
	po.compressor = res->compressor;
	po.level = res->level;
	po.jobs = o->jobs;
	po.tmpdir = o->tmpdir;
	po.log = o->log;
	po.progress = o->progress;
	po.progress_ctx = o->progress_ctx;
	po.cancel = o->cancel;
	memset(&res->packed, 0, sizeof(res->packed));
	res->packed.xip.fd = res->packed.byte_aligned.fd =
		res->packed.compressed.fd = -1;
	return axfs_pack_tree(t, src, &po, &res->packed, err);
}

/*
 * --pad / pad.size: fill the file up to a partition's size, as mkfs.jffs2
 * --pad does, with 0xff for erased NOR/NAND.  The image stays `size` bytes
 * long (the driver and fsck stop there); only the file grows.
 */
static int pad_output(const struct axfs_build_opts *o,
		      const struct axfs_policy *pol, struct axfs_outfile *of,
		      uint64_t image_size, struct axfs_error *err)
{
	uint64_t pad = o->pad_size ? o->pad_size : pol ? pol->pad_size : 0;
	int byte = o->pad_byte >= 0 ? o->pad_byte :
		   pol && pol->pad_byte >= 0 ? pol->pad_byte : 0;
	uint8_t buf[65536];
	uint64_t pos = image_size;

	if (!pad)
		return 0;
	if (pad < image_size)
		return axfs_error_set(err, AXFS_ERR_LIMIT, "the image is %llu "
				      "bytes, larger than the %llu bytes to "
				      "pad it to", (unsigned long long)image_size,
				      (unsigned long long)pad);
	memset(buf, byte, sizeof(buf));
	while (pos < pad) {
		size_t n = pad - pos < sizeof(buf) ? (size_t)(pad - pos) :
			   sizeof(buf);
		ssize_t w = pwrite(of->fd, buf, n, (off_t)pos);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return axfs_error_sys(err, w < 0 ? errno : ENOSPC,
					      "cannot write '%s'", o->output);
		pos += (uint64_t)w;
	}
	return 0;
}

int axfs_build(const struct axfs_build_opts *o, struct axfs_build_result *res,
	       struct axfs_error *err)
{
	const struct axfs_policy *pol = o->policy;
	struct axfs_outfile of = { NULL, NULL, -1 };
	struct axfs_source *src = NULL;
	struct axfs_source_opts so;
	struct axfs_plan_opts plo;
	struct axfs_write_opts wo;
	const char *excl[2];
	uint64_t mmap_limit;
	int64_t shared_mtime = -1;
	int packed = 0, ts_is_now = 0;
	int rc;

	memset(res, 0, sizeof(*res));
	res->packed.xip.fd = res->packed.byte_aligned.fd =
		res->packed.compressed.fd = -1;

	/* Settings: command line, else policy, else defaults. */
	res->block_size = o->block_size ? o->block_size :
			  pol && pol->block_size ? pol->block_size :
			  AXFS_DEFAULT_BLOCK_SIZE;
	if (!AXFS_CBLOCK_SIZE_OK(res->block_size))
		return axfs_error_set(err, AXFS_ERR_INVALID,
			"block size %u is not a power of two from 4 KiB to "
			"1 MiB", res->block_size);
	rc = resolve_compression(o, pol, res, err);
	if (rc < 0)
		return rc;
	mmap_limit = o->mmap_limit ? o->mmap_limit :
		     pol ? pol->mmap_limit : 0;

	/* Create the output first: an unwritable place fails at once. */
	rc = axfs_outfile_open(&of, o->output, err);
	if (rc < 0)
		return rc;

	memset(&so, 0, sizeof(so));
	excl[0] = o->output;
	excl[1] = of.tmp_path;
	so.log = o->log;
	so.exclude_host_paths = excl;
	so.n_exclude_host_paths = 2;
	so.tmpdir = o->tmpdir;
	so.store_path = o->source_store;
	rc = axfs_source_open(&src, o->source, &so, err);
	if (rc < 0)
		goto fail;
	rc = resolve_timestamp(o, pol, src, &res->timestamp, &ts_is_now, err);
	if (rc < 0)
		goto fail;

	rc = axfs_tree_init(&res->tree, o->log, err);
	if (rc < 0)
		goto fail;
	if ((rc = read_source(o, src, &res->tree, res->timestamp,
			      &shared_mtime, err)) < 0 ||
	    (rc = apply_policy_and_owners(o, &res->tree, err)) < 0)
		goto fail;
	/* An archive whose entries all have one time, as `axfs extract --tar`
	 * writes (every entry has the image's timestamp), gives that time
	 * rather than now, so that extract --tar | mkfs - gives the image
	 * back byte for byte.  A directory keeps now: its root's time moves
	 * with every change inside. */
	if (ts_is_now && shared_mtime >= 0 && !source_is_directory(o->source))
		res->timestamp = shared_mtime;
	rc = axfs_tree_finalize(&res->tree, err);
	if (rc == 0)
		rc = check_depth(&res->tree, err);
	if (rc < 0) {
		/* What the tree refuses comes from the source: name it. */
		if (err) {
			char msg[AXFS_ERROR_MSG_MAX];

			snprintf(msg, sizeof(msg), "%s", err->msg);
			axfs_error_set(err, rc, "'%s': %s", o->source, msg);
		}
		goto fail;
	}
	if ((rc = check_cancel(o, err)) < 0)
		goto fail;
	rc = report_lossy(&res->tree, o, &res->lossy, err);
	if (rc < 0)
		goto fail;

	/* Which pages are XIP.  The policy's xip.files were applied to the
	 * entries (want_xip) by axfs_policy_apply; --xip globs go here. */
	memset(&plo, 0, sizeof(plo));
	plo.xip_globs = o->xip_globs;
	plo.n_xip_globs = o->n_xip_globs;
	plo.profile = o->profile;
	if (pol) {
		plo.xip_exclude = (const char *const *)pol->xip_exclude;
		plo.n_xip_exclude = pol->n_xip_exclude;
		plo.min_count = pol->xip_min_count;
	}
	if (o->has_budget) {
		plo.has_budget = 1;
		plo.budget = o->budget;
	} else if (pol && pol->has_xip_budget) {
		plo.has_budget = 1;
		plo.budget = pol->xip_budget;
	}
	plo.xip_suffix = o->xip_suffix >= 0 ? o->xip_suffix :
			 pol && pol->xip_suffix >= 0 ? pol->xip_suffix : 0;
	plo.log = o->log;
	rc = axfs_plan(&res->tree, &plo, &res->plan, err);
	if (rc < 0)
		goto fail;

	rc = pack(o, &res->tree, src, res, err);
	if (rc < 0)
		goto fail;
	packed = 1;

	memset(&wo, 0, sizeof(wo));
	wo.timestamp = res->timestamp;
	wo.mmap_limit = mmap_limit;
	wo.compress_metadata = o->compress_metadata;
	wo.compressor = res->compressor;
	wo.level = res->level;
	wo.digest = 1;
	wo.log = o->log;
	for (;;) {
		uint64_t planned, asked, over, keep, dropped;

		if ((rc = check_cancel(o, err)) < 0)
			goto fail;
		rc = axfs_write_image(of.fd, &res->tree, &res->packed, &wo,
				      &res->layout, err);
		if (rc != AXFS_ERR_LIMIT || !mmap_limit ||
		    res->layout.mmap_size <= mmap_limit)
			break;
		/*
		 * The mapped part is too big.  With a budget, profiled pages
		 * are a wish within it: drop the coldest until it fits.
		 * Without one every profiled page was asked for, and pages
		 * that --xip or the policy asked for are a requirement: if
		 * they do not fit, fail and say by how much.
		 */
		if (!plo.has_budget) {
			hint_budget(&res->tree, err);
			break;
		}
		count_xip_pages(&res->tree, &planned, &asked);
		over = res->layout.mmap_size - mmap_limit;
		over = (over + AXFS_PAGE_SIZE - 1) / AXFS_PAGE_SIZE;
		keep = planned > over ? planned - over : 0;
		if (keep < asked)
			keep = asked;
		if (keep >= planned)
			break;
		dropped = axfs_plan_trim(&res->tree, keep);
		if (!dropped)
			break;
		/* A trim may leave a non-XIP page between XIP pages of a
		 * file: shrink those suffixes (only ever fewer pages, so
		 * the loop ends). */
		if (plo.xip_suffix)
			dropped += axfs_plan_trim_suffix(&res->tree);
		axfs_log(o->log, AXFS_LOG_WARN,
			 "the mmap limit of %llu bytes leaves no room for %llu "
			 "profiled XIP pages; they are stored compressed",
			 (unsigned long long)mmap_limit,
			 (unsigned long long)dropped);
		axfs_packed_free(&res->packed);
		packed = 0;
		if (ftruncate(of.fd, 0) < 0) {
			rc = axfs_error_sys(err, errno, "cannot write '%s'",
					    of.tmp_path);
			goto fail;
		}
		rc = pack(o, &res->tree, src, res, err);
		if (rc < 0)
			goto fail;
		packed = 1;
	}
	if (rc < 0) {
		/* The writer only has the descriptor: name the image. */
		if (rc == AXFS_ERR_IO && err && err->sys_errno &&
		    strncmp(err->msg, "cannot write the image", 22) == 0)
			axfs_error_sys(err, err->sys_errno, "cannot write '%s'",
				       o->output);
		goto fail;
	}
	/* The 2008 driver looks for the trailing magic at (u32)(size - 4). */
	if (res->layout.image_size - 4 > UINT32_MAX)
		axfs_log(o->log, AXFS_LOG_WARN,
			 "the image is %llu bytes: the 2008 AXFS driver checks "
			 "its end at a 32-bit offset and will refuse to mount "
			 "images of 4 GiB or more (the axfs-tools module reads "
			 "them)", (unsigned long long)res->layout.image_size);
	if ((rc = check_cancel(o, err)) < 0)
		goto fail;
	rc = pad_output(o, pol, &of, res->layout.image_size, err);
	if (rc < 0)
		goto fail;
	rc = axfs_outfile_commit(&of, err);
	if (rc < 0)
		goto fail;
	axfs_source_destroy(src);
	return 0;

fail:
	axfs_outfile_abort(&of);
	axfs_source_destroy(src);
	if (packed)
		axfs_packed_free(&res->packed);
	axfs_tree_free(&res->tree);
	memset(res, 0, sizeof(*res));
	res->packed.xip.fd = res->packed.byte_aligned.fd =
		res->packed.compressed.fd = -1;
	return rc;
}

void axfs_build_result_free(struct axfs_build_result *res)
{
	if (!res)
		return;
	/* A packed result always has a cblock size; a failed or empty
	 * one was already released by axfs_build. */
	if (res->packed.cblock_size)
		axfs_packed_free(&res->packed);
	axfs_tree_free(&res->tree);
	memset(res, 0, sizeof(*res));
	res->packed.xip.fd = res->packed.byte_aligned.fd =
		res->packed.compressed.fd = -1;
}
