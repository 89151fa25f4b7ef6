// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cmd/mount.c - axfs mount: serve an image through FUSE (libfuse3's
 * low-level API), read-only, without root or the kernel module.
 *
 *   axfs mount [-f] [-o OPTIONS] IMAGE [STORE] DIR
 *   mount.fuse.axfs IMAGE DIR [-fnsv] [-o OPTIONS]    (for mount -t fuse.axfs)
 *   axfs IMAGE DIR -o OPTIONS    (mount.fuse's route, where no helper is in /sbin)
 *
 * Everything the image says goes through axfs_vfs.h (the library), which
 * shows the image as the kernel driver does and is what the fuzzers run;
 * this file only parses the command line, mounts, and turns replies into
 * FUSE messages.  FUSE node ids are the driver's inode numbers (image
 * inode + 1, the root 1 = FUSE_ROOT_ID), so forget needs no bookkeeping
 * and st_ino is what the kernel module would report.  The image is
 * immutable: the kernel may cache attributes, names, pages and listings
 * for as long as it likes.
 */
#define FUSE_USE_VERSION FUSE_MAKE_VERSION(3, 12)
#include <fuse_lowlevel.h>

#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <syslog.h>
#include <unistd.h>

#include "common.h"
#include "image_operands.h"
#include "axfs_format.h"
#include "axfs_reader.h"
#include "axfs_vfs.h"

/* Attributes and names never change while mounted. */
#define CACHE_SECONDS	86400.0
/* Errors logged at most; a damaged file read over and over would flood. */
#define MAX_LOGGED	100
#define DEFAULT_THREADS	10

static const struct cmd_usage usage = {
"usage: axfs mount [options] IMAGE [STORE] DIR\n"
"\n"
"Mount the AXFS image IMAGE (STORE, or --store: the store segment of a\n"
"split image; - for standard input, read into memory first) on\n"
"DIR through FUSE, read-only, as the kernel driver shows it.  Works as an\n"
"ordinary user where FUSE does; unmount with 'fusermount3 -u DIR' or\n"
"'umount DIR'.\n"
"\n",
"\nSee axfs-mount(1).\n",
};

/* ---- the mount's settings ------------------------------------------------ */

struct mnt {
	const char *image, *store, *dir;
	int foreground, debug, fake;
	int helper;			/* mount(8)'s convention */
	int permissions;		/* default_permissions (the default) */
	uint64_t cache;			/* -o cache= */
	unsigned long long threads;
	char *fuse_opts;		/* passed through to libfuse */
	struct axfs_vfs *vfs;
	int logged;			/* errors logged so far (atomic) */
};

/* Messages after the daemon has left the terminal go to syslog. */
static void log_error(struct mnt *m, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void log_error(struct mnt *m, const char *fmt, ...)
{
	char msg[AXFS_ERROR_MSG_MAX + 64];
	va_list ap;
	int n = __atomic_add_fetch(&m->logged, 1, __ATOMIC_RELAXED);

	if (n > MAX_LOGGED + 1)
		return;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (n == MAX_LOGGED + 1)
		snprintf(msg, sizeof(msg), "%d errors logged; further errors "
			 "are not", MAX_LOGGED);
	if (m->foreground)
		cmd_error("%s", msg);
	else
		syslog(LOG_ERR, "%s", msg);
}

static int reply_error(fuse_req_t req, int rc, const struct axfs_error *err)
{
	if (rc == -EIO)
		log_error(fuse_req_userdata(req), "%s", err->msg);
	return fuse_reply_err(req, -rc);
}

/* ---- FUSE operations ----------------------------------------------------- */

static void op_init(void *data, struct fuse_conn_info *conn)
{
	(void)data;
	/* A symlink target never changes either. */
	if (conn->capable & FUSE_CAP_CACHE_SYMLINKS)
		conn->want |= FUSE_CAP_CACHE_SYMLINKS;
}

static void op_lookup(fuse_req_t req, fuse_ino_t parent, const char *name)
{
	struct mnt *m = fuse_req_userdata(req);
	struct fuse_entry_param e;
	struct axfs_error err;
	uint64_t ino;
	int rc;

	memset(&e, 0, sizeof(e));
	rc = axfs_vfs_lookup(m->vfs, parent, name, strlen(name), &ino,
			     &e.attr, &err);
	if (rc == -ENOENT) {
		/* A negative entry, cached as long as a positive one. */
		e.entry_timeout = CACHE_SECONDS;
		fuse_reply_entry(req, &e);
		return;
	}
	if (rc < 0) {
		reply_error(req, rc, &err);
		return;
	}
	e.ino = ino;
	e.attr_timeout = e.entry_timeout = CACHE_SECONDS;
	fuse_reply_entry(req, &e);
}

/* The attributes of node `ino`, for getattr and opendir. */
static int node_attr(fuse_req_t req, fuse_ino_t ino, struct stat *st,
		     struct axfs_error *err)
{
	struct mnt *m = fuse_req_userdata(req);

	return axfs_vfs_getattr(m->vfs, ino, st, err);
}

static void op_getattr(fuse_req_t req, fuse_ino_t ino,
		       struct fuse_file_info *fi)
{
	struct axfs_error err;
	struct stat st;
	int rc = node_attr(req, ino, &st, &err);

	(void)fi;
	if (rc < 0)
		reply_error(req, rc, &err);
	else
		fuse_reply_attr(req, &st, CACHE_SECONDS);
}

static void op_readlink(fuse_req_t req, fuse_ino_t ino)
{
	struct mnt *m = fuse_req_userdata(req);
	struct axfs_error err;
	char target[AXFS_PAGE_SIZE];
	int rc;

	rc = axfs_vfs_readlink(m->vfs, ino, target, sizeof(target), &err);
	if (rc < 0)
		reply_error(req, rc, &err);
	else
		fuse_reply_readlink(req, target);
}

static void op_open(fuse_req_t req, fuse_ino_t ino, struct fuse_file_info *fi)
{
	struct mnt *m = fuse_req_userdata(req);
	struct axfs_error err;
	int rc;

	if ((fi->flags & O_ACCMODE) != O_RDONLY) {
		fuse_reply_err(req, EROFS);
		return;
	}
	rc = axfs_vfs_open(m->vfs, ino, &err);
	if (rc < 0) {
		reply_error(req, rc, &err);
		return;
	}
	fi->keep_cache = 1;
	fuse_reply_open(req, fi);
}

static void op_read(fuse_req_t req, fuse_ino_t ino, size_t size, off_t off,
		    struct fuse_file_info *fi)
{
	struct mnt *m = fuse_req_userdata(req);
	struct axfs_error err;
	size_t got;
	char *buf;
	int rc;

	(void)fi;
	if (off < 0) {
		fuse_reply_err(req, EINVAL);
		return;
	}
	buf = malloc(size ? size : 1);
	if (!buf) {
		fuse_reply_err(req, ENOMEM);
		return;
	}
	rc = axfs_vfs_read(m->vfs, ino, (uint64_t)off, buf, size, &got, &err);
	if (rc < 0)
		reply_error(req, rc, &err);
	else
		fuse_reply_buf(req, buf, got);
	free(buf);
}

static void op_opendir(fuse_req_t req, fuse_ino_t ino,
		       struct fuse_file_info *fi)
{
	struct axfs_error err;
	struct stat st;
	int rc = node_attr(req, ino, &st, &err);

	if (rc == 0 && !S_ISDIR(st.st_mode))
		rc = -ENOTDIR;
	if (rc < 0) {
		reply_error(req, rc, &err);
		return;
	}
	fi->keep_cache = 1;
	fi->cache_readdir = 1;
	fuse_reply_open(req, fi);
}

struct dirbuf {
	fuse_req_t req;
	char *buf;
	size_t size, used;
};

static int add_dirent(void *ctx, const char *name, uint64_t ino,
		      uint32_t type, uint64_t next_pos)
{
	struct dirbuf *d = ctx;
	struct stat st;
	size_t n;

	memset(&st, 0, sizeof(st));
	st.st_ino = (ino_t)ino;
	st.st_mode = type;
	n = fuse_add_direntry(d->req, d->buf + d->used, d->size - d->used,
			      name, &st, (off_t)next_pos);
	if (n > d->size - d->used)
		return 1;		/* full: the kernel asks again */
	d->used += n;
	return 0;
}

static void op_readdir(fuse_req_t req, fuse_ino_t ino, size_t size, off_t off,
		       struct fuse_file_info *fi)
{
	struct mnt *m = fuse_req_userdata(req);
	struct dirbuf d = { .req = req, .size = size };
	struct axfs_error err;
	int rc;

	(void)fi;
	d.buf = malloc(size ? size : 1);
	if (!d.buf) {
		fuse_reply_err(req, ENOMEM);
		return;
	}
	rc = axfs_vfs_readdir(m->vfs, ino, off < 0 ? 0 : (uint64_t)off,
			      add_dirent, &d, &err);
	if (rc < 0)
		reply_error(req, rc, &err);
	else
		fuse_reply_buf(req, d.buf, d.used);
	free(d.buf);
}

static void op_statfs(fuse_req_t req, fuse_ino_t ino)
{
	struct mnt *m = fuse_req_userdata(req);
	struct statvfs st;

	(void)ino;
	axfs_vfs_statfs(m->vfs, &st);
	fuse_reply_statfs(req, &st);
}

static const struct fuse_lowlevel_ops ops = {
	.init = op_init,
	.lookup = op_lookup,
	.getattr = op_getattr,
	.readlink = op_readlink,
	.open = op_open,
	.read = op_read,
	.opendir = op_opendir,
	.readdir = op_readdir,
	.statfs = op_statfs,
};

/* ---- options ------------------------------------------------------------- */

/* Appends "opt" to the options passed to libfuse. */
static int pass_option(struct mnt *m, const char *opt)
{
	return fuse_opt_add_opt(&m->fuse_opts, opt) == 0 ? 0 : -1;
}

/* mount(8) hands its helper options that only mean something to it. */
static int mount_only_option(const char *o)
{
	static const char *const names[] = {
		"defaults", "auto", "noauto", "user", "nouser", "users",
		"owner", "group", "_netdev", "nofail", "rw", "loop",
	};

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (strcmp(o, names[i]) == 0)
			return 1;
	return strncmp(o, "x-", 2) == 0 || strncmp(o, "comment=", 8) == 0;
}

/* -o cache=: at most 4GiB (take_size() has checked at least 1 byte). */
static struct cmd_step check_cache(const struct cmd_opt *opt, const char *arg)
{
	if (*(uint64_t *)opt->target > (4ull << 30))
		return cmd_opt_bad_value(opt, arg, NULL);
	return CMD_GO_ON;
}

/* -o rw: mount(8) passes it to its helper by default (the image is still
 * mounted read-only); asked of axfs mount, it cannot be done. */
static struct cmd_step opt_rw(const struct cmd_opt *opt, const char *arg)
{
	const struct mnt *m = opt->target;

	if (m->helper)
		return CMD_GO_ON;
	return cmd_stop(cmd_usage_error("an AXFS image is read-only: option "
					"'rw' is not possible"));
}

/* -d, -o debug: -f too. */
static struct cmd_step opt_debug(const struct cmd_opt *opt, const char *arg)
{
	struct mnt *m = opt->target;

	m->debug = m->foreground = 1;
	return CMD_GO_ON;
}

/* A word of -o that is none of ours: mount(8)'s own are dropped (for the
 * helper), the rest passed to libfuse (allow_other, fsname=...). */
static struct cmd_step other_option(void *ctx, const char *word)
{
	struct mnt *m = ctx;

	if (m->helper && mount_only_option(word))
		return CMD_GO_ON;
	if (pass_option(m, word) < 0)
		return cmd_stop(cmd_usage_error("out of memory"));
	return CMD_GO_ON;
}

/*
 * One -o OPTIONS argument.  getopt cannot split mount(8)'s "a,b=c" list,
 * so its words have a table of their own (the same rows and typed parsers
 * as a command line, cmd_parse_suboptions()); the -o rows' help says what
 * they are.
 */
static struct cmd_step parse_options(struct mnt *m, char *list)
{
	const struct cmd_opt subopts[] = {
		{ CMD_STRING(0, "store", "FILE", &m->store, NULL) },
		{ CMD_SIZE(0, "cache", "SIZE", &m->cache, NULL), .min = 1,
		  .parse = check_cache, .bad = "invalid cache size '%s': give "
		  "1 byte to 4GiB, e.g. 64MiB" },
		{ CMD_COUNT(0, "threads", "N", &m->threads, 1, 1024, NULL),
		  .bad = "invalid number of threads '%s': use 1 to 1024" },
		/* Always read-only. */
		{ CMD_ROW(CMD_KIND_FLAG, 0, "ro", NULL, NULL, NULL) },
		{ CMD_CALLBACK(0, "rw", NULL, m, opt_rw, NULL) },
		{ CMD_CALLBACK(0, "debug", NULL, m, opt_debug, NULL) },
		{ CMD_FLAG(0, "no_default_permissions", &m->permissions, 0,
			   NULL) },
		{ .kind = CMD_KIND_END },
	};

	return cmd_parse_suboptions(list, subopts, other_option, m);
}

/* -o OPTIONS; optarg is a word of argv, ours to cut at the commas. */
static struct cmd_step opt_o(const struct cmd_opt *opt, const char *arg)
{
	return parse_options(opt->target, (char *)arg);
}

/* The help of -o, for axfs mount and the helper. */
#define HELP_O \
	"comma-separated mount options: store=FILE (the store\nsegment), " \
	"cache=SIZE (inflated cblocks kept, default\n32MiB), threads=N " \
	"(requests served at once, default\n10), ro, no_default_permissions " \
	"(every file\nreadable by whoever may enter the mount, whatever\nits " \
	"mode and owner); others (allow_other,\nallow_root, fsname=...) " \
	"go to FUSE"

static const struct cmd_usage helper_usage = {
"usage: mount.fuse.axfs IMAGE DIR [-fnsv] [-o OPTIONS]\n"
"\n"
"The helper mount(8) runs for 'mount -t fuse.axfs IMAGE DIR' and fstab\n"
"entries of type fuse.axfs: axfs mount with mount(8)'s calling convention.\n"
"mount(8)'s own options (defaults, rw, user, nofail, x-*, ...) are dropped.\n"
"\n",
"\nSee axfs-mount(1).\n",
};

/* mount.fuse.axfs SOURCE DIR [-fnsv] [-o OPTIONS] [-t TYPE] [-N NS]:
 * mount(8)'s calling convention, options after the operands, where -f
 * means "fake" (do everything but mount). */
static struct cmd_step parse_helper(struct mnt *m, int argc, char **argv)
{
	const char *type = NULL, *ns = NULL;
	const struct cmd_opt options[] = {
		{ CMD_CALLBACK('o', NULL, "OPTIONS", m, opt_o, HELP_O) },
		{ CMD_FLAG('f', NULL, &m->fake, 1,
			   "fake: check the image, do not mount") },
		{ CMD_IGNORED('n', "ignored (mount(8): no mtab entry)") },
		{ CMD_IGNORED('s', "ignored (mount(8): sloppy)") },
		{ CMD_FLAG('v', NULL, &cmd_verbosity, 2, CMD_HELP_VERBOSE) },
		{ CMD_STRING('t', NULL, "TYPE", &type,
			     "ignored (mount(8): the type, fuse.axfs)") },
		{ CMD_STRING('N', NULL, "NS", &ns,
			     "ignored (mount(8): a mount namespace)") },
		CMD_OPTS_HELP_VERSION,
	};
	struct cmd_step step = cmd_parse_options_in(argc, argv, options,
						    &helper_usage,
						    CMD_OPERANDS_ANYWHERE);
	int n = argc - optind;

	if (step.stop)
		return step;
	if (n < 2)
		return cmd_stop(cmd_usage_error(n ? "no mount point given" :
						"no image given"));
	if (n > 2)
		return cmd_stop(cmd_usage_error("too many arguments"));
	m->image = argv[optind];
	m->dir = argv[optind + 1];
	return CMD_GO_ON;
}

static struct cmd_step parse_args(struct mnt *m, int argc, char **argv)
{
	const struct cmd_opt options[] = {
		{ CMD_CALLBACK('o', NULL, "OPTIONS", m, opt_o, HELP_O) },
		{ CMD_FLAG('f', "foreground", &m->foreground, 1,
			   "stay in the foreground, messages on stderr") },
		{ CMD_CALLBACK('d', "debug", NULL, m, opt_debug,
			       "print every FUSE request (implies -f)") },
		CMD_OPTS_IMAGE,
		CMD_OPTS_END(CMD_HELP_QUIET, "with -f: on unmount, print the "
			     "cblock cache statistics"),
	};
	const char *store;
	struct cmd_step step = cmd_parse_options(argc, argv, options, &usage);

	if (step.stop)
		return step;
	step = cmd_image_operands(argc, argv, 1, "mount point", 1, &m->image,
				  &store);
	if (step.stop)
		return step;
	if (store && m->store)
		return cmd_stop(cmd_usage_error("the store segment is given "
						"twice (STORE or --store, and "
						"-o store=)"));
	if (store)
		m->store = store;
	m->dir = argv[argc - 1];
	return CMD_GO_ON;
}

/* ---- mounting ------------------------------------------------------------ */

/* The options every mount gets: read-only, the kernel checks
 * permissions from the image's modes (unless -o no_default_permissions:
 * then whoever may enter the mount reads every file, as squashfuse and
 * archivemount do by default, for inspecting a root filesystem as a
 * user), and /proc/mounts shows "IMAGE DIR fuse.axfs". */
static int base_options(struct mnt *m, char **opts)
{
	char *abs = realpath(m->image, NULL);
	char fsname[PATH_MAX + 16];

	snprintf(fsname, sizeof(fsname), "fsname=%s", abs ? abs : m->image);
	free(abs);
	if (fuse_opt_add_opt(opts, "ro,subtype=axfs") ||
	    (m->permissions &&
	     fuse_opt_add_opt(opts, "default_permissions")) ||
	    fuse_opt_add_opt_escaped(opts, fsname) ||
	    (m->fuse_opts && fuse_opt_add_opt(opts, m->fuse_opts)))
		return -1;
	return 0;
}

static void print_stats(struct mnt *m)
{
	struct axfs_cblock_pool_stats st;

	axfs_cblock_pool_stats(axfs_vfs_pool(m->vfs), &st);
	fprintf(stderr, "%s: cblock cache: %llu inflated, %llu hits, %llu "
		"waited, %llu evicted, %llu bypassed, %zu of %zu slots held\n",
		cmd_name, (unsigned long long)st.inflated,
		(unsigned long long)st.hits, (unsigned long long)st.waited,
		(unsigned long long)st.evicted,
		(unsigned long long)st.bypassed, st.held, st.slots);
}

static int serve(struct mnt *m)
{
	struct fuse_args args = FUSE_ARGS_INIT(0, NULL);
	struct fuse_session *se = NULL;
	struct fuse_loop_config *cfg = NULL;
	char *opts = NULL, *dir = NULL;
	int rc = EXIT_OPERATIONAL, mounted = 0, handlers = 0;

	if (fuse_opt_add_arg(&args, cmd_name) || base_options(m, &opts) ||
	    fuse_opt_add_arg(&args, "-o") || fuse_opt_add_arg(&args, opts) ||
	    (m->debug && fuse_opt_add_arg(&args, "-d"))) {
		cmd_error("out of memory");
		goto out;
	}
	se = fuse_session_new(&args, &ops, sizeof(ops), m);
	if (!se)
		goto out;	/* libfuse said why */
	if (fuse_set_signal_handlers(se) != 0)
		goto out;
	handlers = 1;
	/* libfuse unmounts (at a signal) by this name: relative, it fails
	 * there with EINVAL. */
	dir = realpath(m->dir, NULL);
	if (fuse_session_mount(se, dir ? dir : m->dir) != 0)
		goto out;
	mounted = 1;
	if (!m->foreground)
		openlog("axfs mount", LOG_PID, LOG_DAEMON);
	if (fuse_daemonize(m->foreground) != 0)
		goto out;
	if (m->threads == 1) {
		rc = fuse_session_loop(se);
	} else {
		cfg = fuse_loop_cfg_create();
		if (!cfg)
			goto out;
		fuse_loop_cfg_set_max_threads(cfg, (unsigned int)m->threads);
		rc = fuse_session_loop_mt(se, cfg);
	}
	/* A signal ends the loop with its number; that is a normal end. */
	rc = rc < 0 ? EXIT_OPERATIONAL : EXIT_OK;
	if (m->foreground && cmd_verbosity > 1)
		print_stats(m);
out:
	if (mounted)
		fuse_session_unmount(se);
	if (handlers)
		fuse_remove_signal_handlers(se);
	if (se)
		fuse_session_destroy(se);
	fuse_loop_cfg_destroy(cfg);
	fuse_opt_free_args(&args);
	free(opts);
	free(dir);
	return rc;
}

static int mount_main(int argc, char **argv, int helper)
{
	struct mnt m = { .threads = DEFAULT_THREADS, .permissions = 1 };
	struct axfs_vfs_opts vo = { .struct_size = sizeof(vo) };
	struct axfs_image *img = NULL;
	struct axfs_error err;
	struct cmd_step step;
	int rc;

	m.helper = helper;
	step = m.helper ? parse_helper(&m, argc, argv) :
			  parse_args(&m, argc, argv);
	if (step.stop) {
		free(m.fuse_opts);
		return step.exit_code;
	}
	/* Open and check the image before mounting anything. */
	if (cmd_open_image(&img, m.image, m.store, 0) != 0) {
		free(m.fuse_opts);
		return EXIT_OPERATIONAL;
	}
	vo.cache_bytes = (size_t)m.cache;
	if (axfs_vfs_new(&m.vfs, img, &vo, &err) < 0) {
		cmd_error("%s", err.msg);
		rc = EXIT_OPERATIONAL;
	} else if (m.fake) {
		rc = EXIT_OK;
	} else {
		rc = serve(&m);
	}
	axfs_vfs_free(m.vfs);
	axfs_image_close(img);
	free(m.fuse_opts);
	return rc;
}

int cmd_mount(int argc, char **argv)
{
	const char *base = strrchr(argv[0], '/');

	base = base ? base + 1 : argv[0];
	return mount_main(argc, argv, strcmp(base, "mount.fuse.axfs") == 0);
}

int cmd_mount_helper(int argc, char **argv)
{
	return mount_main(argc, argv, 1);
}
