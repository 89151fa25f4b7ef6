// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cmd/extract.c - axfs extract: recreate the tree stored in an image.
 *
 *   axfs extract [options] IMAGE [STORE] DIR
 *
 * Safety first: the image is untrusted.  The whole tree is walked (and
 * so validated: names, cycles, depth) before anything is written, and
 * every file is created relative to an open descriptor of its parent
 * directory (openat/mkdirat/symlinkat/mknodat), each directory opened
 * with O_NOFOLLOW, so no symbolic link, whether from the image or already
 * in DIR, is ever followed: nothing is written outside DIR.
 *
 * Directories are created 0700 and get their real mode, owner and time
 * once their contents are written.  AXFS does not record hard links (each
 * link is its own inode), so every path becomes its own file.  Owners and
 * device nodes need root; otherwise one warning says what was left out.
 * Every file gets the image timestamp as its mtime and atime.
 *
 * File data is inflated ahead on -j threads (axfs_stream.h) while this
 * thread creates the files in walk order, and written with one pwrite()
 * per run of non-zero pages (zero pages become holes).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>

#include "common.h"
#include "image_operands.h"
#include "options.h"
#include "progress.h"
#include "axfs_reader.h"
#include "axfs_stream.h"
#include "extract_tar.h"

enum {
	OPT_TAR = 256,
};

static const struct option longopts[] = {
	{ "force", no_argument, NULL, 'f' },
	{ "jobs", required_argument, NULL, 'j' },
	{ "tar", required_argument, NULL, OPT_TAR },
	CMD_LONGOPTS_IMAGE,
	CMD_LONGOPTS_PROGRESS_END,
};

static int usage(void)
{
	printf(
"usage: axfs extract [options] IMAGE DIR\n"
"       axfs extract --tar FILE|- [options] IMAGE\n"
"\n"
"Recreate the tree stored in the AXFS image IMAGE (- for standard input;\n"
"--store FILE: the store segment of a split image) under DIR, which is\n"
"created if needed and must be empty.\n"
"Nothing is written outside DIR.  Owners and device nodes are restored when\n"
"run as root.\n"
"\n"
"  -f, --force         extract into a non-empty DIR, replacing what is in\n"
"                      the way (never a directory by a file)\n"
"  -j, --jobs N        inflate file data on N threads (default 0: one per\n"
"                      CPU; 1: no extra thread)\n"
"      --tar FILE      write a pax archive instead (- for standard output),\n"
"                      with owners, devices and hard links, without root\n");
	cmd_print_image_help(22);
	return cmd_print_shared_help(22, 1, NULL,
				     "print each path as it is written",
				     "\nSee axfs-extract(1).\n");
}

/* ---- the extraction state ---------------------------------------------- */

/* Directory file descriptors kept open at once; deeper ones are closed
 * and reopened (by name, O_NOFOLLOW) when needed again. */
#define MAX_OPEN_DIRS 64

struct level {
	char *name;			/* component inside the parent */
	int fd;				/* -1: closed, reopen by name */
	struct axfs_inode_info in;	/* the directory's own inode */
};

struct extract {
	struct axfs_image *img;
	const char *dir;		/* DIR as given, for messages */
	int force;
	int as_root;
	struct timespec times[2];
	struct level *lv;
	size_t depth, cap;		/* lv[0] is DIR itself */
	size_t open_dirs;
	/* totals (pre-walk) and progress */
	uint64_t files_total, bytes_total;
	uint64_t files_done, bytes_done;
	/* what could not be restored */
	uint64_t not_owned, skipped_devices;
	/* The regular files in walk order (first walk), and their data
	 * read ahead in that order. */
	struct axfs_stream_file *files;
	size_t nfiles, files_cap, next_file;
	struct axfs_stream *stream;
	struct axfs_error err;
};

static void progress_draw(const struct extract *x)
{
	cmd_progress_update(x->files_done, x->files_total, x->bytes_done,
			    x->bytes_total);
}

/* Messages name DIR/path. */
static int fail_errno(struct extract *x, int e, const char *what,
		      const char *path)
{
	cmd_error("cannot %s '%s%s': %s", what, x->dir,
		  strcmp(path, "/") ? path : "", strerror(e));
	return -1;
}

/* ---- directory descriptors ------------------------------------------------- */

static int level_fd(struct extract *x, size_t k);

static void close_far_levels(struct extract *x)
{
	/* Keep DIR (level 0) and the deepest ones open. */
	for (size_t k = 1; x->open_dirs > MAX_OPEN_DIRS && k < x->depth; k++) {
		if (x->lv[k].fd >= 0) {
			close(x->lv[k].fd);
			x->lv[k].fd = -1;
			x->open_dirs--;
		}
	}
}

static int open_dir_at(int pfd, const char *name)
{
	return openat(pfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW |
		      O_CLOEXEC);
}

/* The descriptor of level k, reopened through its parents if closed. */
static int level_fd(struct extract *x, size_t k)
{
	int pfd;

	if (x->lv[k].fd >= 0)
		return x->lv[k].fd;
	pfd = level_fd(x, k - 1);
	if (pfd < 0)
		return -1;
	x->lv[k].fd = open_dir_at(pfd, x->lv[k].name);
	if (x->lv[k].fd < 0)
		return -1;
	x->open_dirs++;
	close_far_levels(x);
	return x->lv[k].fd;
}

/* Owner, mode and times of a finished directory (or of DIR itself). */
static int finish_dir(struct extract *x, size_t k, const char *path)
{
	struct level *l = &x->lv[k];
	int fd = level_fd(x, k);

	if (fd < 0)
		return fail_errno(x, errno, "open directory", path);
	if (x->as_root && fchown(fd, l->in.uid, l->in.gid) < 0)
		return fail_errno(x, errno, "change the owner of", path);
	if (!x->as_root && (l->in.uid != geteuid() || l->in.gid != getegid()))
		x->not_owned++;
	if (fchmod(fd, l->in.mode & 07777) < 0)
		return fail_errno(x, errno, "change the mode of", path);
	if (futimens(fd, x->times) < 0)
		return fail_errno(x, errno, "set the time of", path);
	return 0;
}

/* Path of level k (for messages). */
static const char *level_path(struct extract *x, size_t k, char *buf,
			      size_t len)
{
	size_t o = 0;

	if (k == 0)
		return "/";
	for (size_t i = 1; i <= k && o + 1 < len; i++)
		o += (size_t)snprintf(buf + o, len - o, "/%s", x->lv[i].name);
	return buf;
}

/* Leaves every level deeper than `keep`, finishing each directory. */
static int pop_to(struct extract *x, size_t keep)
{
	char buf[512];

	while (x->depth > keep + 1) {
		size_t k = x->depth - 1;
		struct level *l = &x->lv[k];

		if (finish_dir(x, k, level_path(x, k, buf, sizeof(buf))) < 0)
			return -1;
		if (l->fd >= 0) {
			close(l->fd);
			x->open_dirs--;
		}
		free(l->name);
		x->depth--;
	}
	return 0;
}

/* ---- creating entries ---------------------------------------------------- */

/*
 * Something already has this name (only with --force into a non-empty
 * DIR, or if the image repeats a name, which the walk refuses): remove
 * it unless it is a directory, which we never remove.
 */
static int make_room(struct extract *x, int pfd, const char *name,
		     const char *path, int want_dir, int *reuse_dir)
{
	struct stat st;

	*reuse_dir = 0;
	if (!x->force)
		return fail_errno(x, EEXIST, "create", path);
	if (fstatat(pfd, name, &st, AT_SYMLINK_NOFOLLOW) < 0)
		return fail_errno(x, errno, "inspect", path);
	if (S_ISDIR(st.st_mode)) {
		if (want_dir) {
			*reuse_dir = 1;
			return 0;
		}
		return fail_errno(x, EISDIR, "replace directory", path);
	}
	if (unlinkat(pfd, name, 0) < 0)
		return fail_errno(x, errno, "replace", path);
	return 0;
}

static int set_owner_at(struct extract *x, int pfd, const char *name,
			const struct axfs_inode_info *in, const char *path)
{
	if (!x->as_root) {
		if (in->uid != geteuid() || in->gid != getegid())
			x->not_owned++;
		return 0;
	}
	if (fchownat(pfd, name, in->uid, in->gid, AT_SYMLINK_NOFOLLOW) < 0)
		return fail_errno(x, errno, "change the owner of", path);
	return 0;
}

static int pwrite_all(int fd, const uint8_t *p, size_t n, uint64_t off)
{
	while (n) {
		ssize_t w = pwrite(fd, p, n, (off_t)off);

		if (w < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		p += w;
		n -= (size_t)w;
		off += (uint64_t)w;
	}
	return 0;
}

/*
 * Writes a piece of a file at its offset: each run of pages that are not
 * all zeros with one pwrite(); whole zero pages are left as holes, so
 * sparse files stay sparse.  *end: the file's written length so far.
 */
static int write_piece(int fd, const struct axfs_stream_piece *pc,
		       uint64_t *end)
{
	static const uint8_t zero[AXFS_PAGE_SIZE];
	size_t run = 0, i = 0;

	while (i < pc->len) {
		size_t n = pc->len - i < AXFS_PAGE_SIZE ? pc->len - i :
			   AXFS_PAGE_SIZE;

		if (n == AXFS_PAGE_SIZE && !memcmp(pc->data + i, zero, n)) {
			if (i > run && pwrite_all(fd, pc->data + run, i - run,
						  pc->offset + run) < 0)
				return -1;
			run = i + n;
		}
		i += n;
	}
	if (i > run) {
		if (pwrite_all(fd, pc->data + run, i - run,
			       pc->offset + run) < 0)
			return -1;
		*end = pc->offset + i;
	}
	return 0;
}

static int make_file(struct extract *x, int pfd, const char *name,
		     const char *path, const struct axfs_inode_info *in)
{
	size_t fi = x->next_file++;
	uint64_t done = 0, end = 0;
	int fd, reuse, e;

	/* The second walk meets the files of the first, in order. */
	if (fi >= x->nfiles || x->files[fi].ino != in->ino ||
	    x->files[fi].size != in->size) {
		cmd_error("'%s' changed while it was read ('%s')",
			  axfs_image_name(x->img), path);
		return -1;
	}
	for (;;) {
		fd = openat(pfd, name, O_WRONLY | O_CREAT | O_EXCL |
			    O_NOFOLLOW | O_CLOEXEC, 0600);
		if (fd >= 0)
			break;
		if (errno != EEXIST)
			return fail_errno(x, errno, "create", path);
		if (make_room(x, pfd, name, path, 0, &reuse) < 0)
			return -1;
	}
	while (done < in->size) {
		struct axfs_stream_piece pc;
		int r = axfs_stream_next(x->stream, &pc, &x->err);

		if (r < 0) {
			cmd_error("%s (reading '%s')", x->err.msg, path);
			goto fail_quiet;
		}
		if (r == 0 || pc.file != fi || pc.offset != done) {
			cmd_error("'%s': file data out of order at '%s'",
				  axfs_image_name(x->img), path);
			goto fail_quiet;
		}
		if (write_piece(fd, &pc, &end) < 0)
			goto fail;
		done += pc.len;
		x->bytes_done += pc.len;
		progress_draw(x);
	}
	/* A file that ends in a hole. */
	if (end < in->size && ftruncate(fd, (off_t)in->size) < 0)
		goto fail;
	if (x->as_root && fchown(fd, in->uid, in->gid) < 0)
		goto fail;
	if (!x->as_root && (in->uid != geteuid() || in->gid != getegid()))
		x->not_owned++;
	/* After fchown, which clears the set-user-ID bit. */
	if (fchmod(fd, in->mode & 07777) < 0 || futimens(fd, x->times) < 0)
		goto fail;
	if (close(fd) < 0) {
		fd = -1;
		goto fail;
	}
	return 0;
fail:
	e = errno;
	fail_errno(x, e, "write", path);
fail_quiet:
	if (fd >= 0)
		close(fd);
	unlinkat(pfd, name, 0);	/* no half-written file left behind */
	return -1;
}

static int make_symlink(struct extract *x, int pfd, const char *name,
			const char *path, const struct axfs_inode_info *in)
{
	char target[AXFS_PAGE_SIZE];
	int reuse;

	if (axfs_image_readlink(x->img, in->ino, target, sizeof(target),
				&x->err) < 0) {
		cmd_error("%s (reading '%s')", x->err.msg, path);
		return -1;
	}
	while (symlinkat(target, pfd, name) < 0) {
		if (errno != EEXIST)
			return fail_errno(x, errno, "create symbolic link",
					  path);
		if (make_room(x, pfd, name, path, 0, &reuse) < 0)
			return -1;
	}
	if (set_owner_at(x, pfd, name, in, path) < 0)
		return -1;
	if (utimensat(pfd, name, x->times, AT_SYMLINK_NOFOLLOW) < 0)
		return fail_errno(x, errno, "set the time of", path);
	return 0;
}

static int make_special(struct extract *x, int pfd, const char *name,
			const char *path, const struct axfs_inode_info *in)
{
	dev_t dev = 0;
	int reuse;

	if (S_ISCHR(in->mode) || S_ISBLK(in->mode)) {
		if (!x->as_root) {
			x->skipped_devices++;
			cmd_info("skipping device node '%s%s'", x->dir, path);
			return 0;
		}
		dev = makedev(AXFS_DEV_MAJOR(in->file_size),
			      AXFS_DEV_MINOR(in->file_size));
	}
	/* FIFOs and sockets (a socket inode, as tar and cpio make them)
	 * need no privilege. */
	while (mknodat(pfd, name, (in->mode & S_IFMT) | 0600, dev) < 0) {
		if (errno != EEXIST)
			return fail_errno(x, errno, "create", path);
		if (make_room(x, pfd, name, path, 0, &reuse) < 0)
			return -1;
	}
	if (set_owner_at(x, pfd, name, in, path) < 0)
		return -1;
	if (fchmodat(pfd, name, in->mode & 07777, 0) < 0)
		return fail_errno(x, errno, "change the mode of", path);
	if (utimensat(pfd, name, x->times, AT_SYMLINK_NOFOLLOW) < 0)
		return fail_errno(x, errno, "set the time of", path);
	return 0;
}

static int make_dir(struct extract *x, int pfd, const char *name,
		    const char *path, const struct axfs_inode_info *in)
{
	struct level *l;
	int fd, reuse = 0;

	while (mkdirat(pfd, name, 0700) < 0) {
		if (errno != EEXIST)
			return fail_errno(x, errno, "create directory", path);
		if (make_room(x, pfd, name, path, 1, &reuse) < 0)
			return -1;
		if (reuse)
			break;
	}
	fd = open_dir_at(pfd, name);
	if (fd < 0)
		return fail_errno(x, errno, "open directory", path);
	if (x->depth == x->cap) {
		size_t ncap = x->cap * 2;
		struct level *n = realloc(x->lv, ncap * sizeof(*n));

		if (!n) {
			close(fd);
			return fail_errno(x, ENOMEM, "create directory", path);
		}
		x->lv = n;
		x->cap = ncap;
	}
	l = &x->lv[x->depth];
	l->name = strdup(name);
	if (!l->name) {
		close(fd);
		return fail_errno(x, ENOMEM, "create directory", path);
	}
	l->fd = fd;
	l->in = *in;
	x->depth++;
	x->open_dirs++;
	close_far_levels(x);
	return 0;
}

/* ---- the walks ---------------------------------------------------------------- */

static int count_fn(void *ctx, const char *path,
		    const struct axfs_inode_info *in)
{
	struct extract *x = ctx;

	(void)path;
	x->files_total++;
	if (!S_ISREG(in->mode))
		return 0;
	x->bytes_total += in->size;
	if (x->nfiles == x->files_cap) {
		size_t ncap = x->files_cap ? x->files_cap * 2 : 1024;
		struct axfs_stream_file *n =
			realloc(x->files, ncap * sizeof(*n));

		if (!n) {
			cmd_error("out of memory");
			return 1;
		}
		x->files = n;
		x->files_cap = ncap;
	}
	x->files[x->nfiles].ino = in->ino;
	x->files[x->nfiles].size = in->size;
	x->nfiles++;
	return 0;
}

static int extract_fn(void *ctx, const char *path,
		      const struct axfs_inode_info *in)
{
	struct extract *x = ctx;
	size_t depth = 0;
	const char *name;
	int pfd, rc;

	if (!strcmp(path, "/")) {
		x->lv[0].in = *in;
		x->files_done++;
		return 0;
	}
	/* "/a/b/c": depth 3, parent at level 2. */
	for (const char *p = path; *p; p++)
		depth += *p == '/';
	name = strrchr(path, '/') + 1;
	if (pop_to(x, depth - 1) < 0)
		return 1;
	pfd = level_fd(x, depth - 1);
	if (pfd < 0) {
		fail_errno(x, errno, "open the directory of", path);
		return 1;
	}
	if (cmd_verbosity >= 2) {
		cmd_progress_clear();
		printf("%s%s\n", x->dir, path);
	}
	switch (in->mode & S_IFMT) {
	case S_IFDIR:
		rc = make_dir(x, pfd, name, path, in);
		break;
	case S_IFREG:
		rc = make_file(x, pfd, name, path, in);
		break;
	case S_IFLNK:
		rc = make_symlink(x, pfd, name, path, in);
		break;
	default:
		rc = make_special(x, pfd, name, path, in);
		break;
	}
	x->files_done++;
	progress_draw(x);
	return rc < 0 ? 1 : 0;	/* 1: failed, already reported */
}

static int extract(const char *image, const char *store, const char *dir,
		   int force, unsigned int jobs)
{
	struct axfs_stream_opts so = { .threads = jobs > 1 ? jobs : 0 };
	struct extract x;
	time_t ts;
	int rc = EXIT_OPERATIONAL, fd, created = 0;

	/* Everything gets its final mode explicitly; until then nobody else
	 * may look into what is being written. */
	umask(077);
	memset(&x, 0, sizeof(x));
	x.dir = dir;
	x.force = force;
	x.as_root = geteuid() == 0;
	if (cmd_open_image(&x.img, image, store, 0) != 0)
		return EXIT_OPERATIONAL;
	ts = (time_t)axfs_image_super(x.img)->timestamp;
	x.times[0].tv_sec = x.times[1].tv_sec = ts;

	/* Validate the whole tree before writing anything. */
	rc = axfs_image_walk(x.img, count_fn, &x, &x.err);
	if (rc != 0) {
		if (rc < 0)
			cmd_error("%s", x.err.msg);
		rc = EXIT_OPERATIONAL;
		goto out;
	}
	rc = EXIT_OPERATIONAL;

	if (mkdir(dir, 0700) == 0)
		created = 1;
	else if (errno != EEXIST) {
		cmd_error("cannot create directory '%s': %s", dir,
			  strerror(errno));
		goto out;
	}
	fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0) {
		cmd_error("cannot open directory '%s': %s", dir,
			  strerror(errno));
		goto out;
	}
	if (!created && !force) {
		int dfd = dup(fd);
		DIR *d = dfd >= 0 ? fdopendir(dfd) : NULL;
		struct dirent *e;
		int empty = 1;

		while (d && (e = readdir(d)))
			if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
				empty = 0;
		if (d)
			closedir(d);
		else if (dfd >= 0)
			close(dfd);
		if (!empty) {
			close(fd);
			cmd_error("'%s' is not empty (use --force to extract "
				  "into it)", dir);
			goto out;
		}
	}
	x.cap = 64;
	x.lv = calloc(x.cap, sizeof(*x.lv));
	if (!x.lv) {
		close(fd);
		cmd_error("out of memory");
		goto out;
	}
	x.lv[0].fd = fd;
	x.depth = 1;
	x.open_dirs = 1;
	cmd_progress_begin(cmd_name, 1);
	if (axfs_stream_open(&x.stream, x.img, x.files, x.nfiles, &so,
			     &x.err) < 0) {
		cmd_error("%s", x.err.msg);
		x.depth = 1;
		goto close_levels;
	}

	/* The walk returns 1 when a callback failed (already reported),
	 * a negative code when the image is bad. */
	rc = axfs_image_walk(x.img, extract_fn, &x, &x.err);
	if (rc < 0) {
		cmd_error("%s", x.err.msg);
	}
	if (rc == 0 && pop_to(&x, 0) == 0 && finish_dir(&x, 0, "/") == 0)
		rc = EXIT_OK;
	else
		rc = EXIT_OPERATIONAL;
	progress_draw(&x);
	cmd_progress_end();
	if (x.skipped_devices)
		cmd_warn("not running as root: skipped %" PRIu64 " device "
			 "node%s", x.skipped_devices,
			 x.skipped_devices == 1 ? "" : "s");
	if (x.not_owned)
		cmd_warn("not running as root: %" PRIu64 " entr%s keep%s your "
			 "owner instead of the image's", x.not_owned,
			 x.not_owned == 1 ? "y" : "ies",
			 x.not_owned == 1 ? "s" : "");
close_levels:
	axfs_stream_close(x.stream);
	for (size_t k = 0; k < x.depth; k++) {
		if (x.lv[k].fd >= 0)
			close(x.lv[k].fd);
		if (k)
			free(x.lv[k].name);
	}
	free(x.lv);
out:
	free(x.files);
	axfs_image_close(x.img);
	return rc;
}

int cmd_extract(int argc, char **argv)
{
	const char *tar = NULL;
	struct cmd_getopt g = CMD_GETOPT_INIT("fj:", longopts, usage);
	const char *image, *store;
	int force = 0, c;
	unsigned long long jobs = 0;

	while ((c = cmd_getopt(argc, argv, &g)) != -1) {
		switch (c) {
		case 'f':
			force = 1;
			break;
		case 'j':
			if (cmd_parse_uint(optarg, 1024, &jobs) < 0)
				return cmd_usage_error("invalid number of jobs "
					"'%s': use 1 to 1024 (0: one per CPU)",
					optarg);
			break;
		case OPT_TAR:
			tar = optarg;
			break;
		case CMD_OPT_EXIT:
			return g.exit_code;
		}
	}
	/* --tar FILE stands for DIR. */
	c = cmd_image_operands(argc, argv, !tar, "target directory", 0,
			       &image, &store);
	if (c != CMD_OPT_NEXT)
		return c;
	if (tar)
		return cmd_finish_stdout(extract_tar(image, store, tar));
	if (jobs == 0) {
		long cpus = sysconf(_SC_NPROCESSORS_ONLN);

		jobs = cpus > 1 ? (unsigned long long)(cpus > 1024 ? 1024 : cpus)
				: 1;
	}
	return cmd_finish_stdout(extract(image, store, argv[argc - 1], force,
					 (unsigned int)jobs));
}
