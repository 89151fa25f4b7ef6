// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cmd/extract.c - axfs extract: recreate the tree stored in an image.
 *
 *   axfs extract [options] IMAGE DIR [PATH...]
 *
 * With PATHs, only the subtrees they name are written, with the
 * directories on the way to them and the links followed to reach them
 * (extract_paths.c); each PATH is resolved before anything is written.
 * Safety first: the image is untrusted.  The whole tree is walked (and
 * so validated: names, cycles, depth) before anything is written, and
 * every file is created relative to an open descriptor of its parent
 * directory (openat/mkdirat/symlinkat/mknodat), each directory opened
 * with O_NOFOLLOW, so no symbolic link, whether from the image or already
 * in DIR, is ever followed: nothing is written outside DIR.
 *
 * No metadata call on a name we created may follow a symbolic link (the
 * hostile input rules of libaxfsimg/README.md): DIR may be writable by
 * someone else, who can swap what we just created for a symlink to any
 * file.  So owners, modes and times are set through a descriptor opened
 * with O_NOFOLLOW (regular files, directories), or by calls that never
 * follow (fchownat/utimensat with AT_SYMLINK_NOFOLLOW: symlinks, device
 * nodes, FIFOs, sockets), and device nodes, FIFOs and sockets are created
 * with their final permission bits (the umask is 0 while we work), so
 * that they need no chmod at all; see make_special().
 *
 * Directories are created 0700 and get their real mode, owner and time
 * once their contents are written.  A link group (regular files sharing
 * one node range and mode/owner: how mkfs stores hard links) is written
 * once and linked, as --tar does, so the bytes written are bounded by
 * the pre-walk's total, which must fit in DIR's free space (and under
 * --max-size).  Owners and device nodes need root; otherwise one warning
 * says what was left out.  Without root, modes lose 06000 and the umask's
 * bits unless -p is given, as GNU tar does.  Every file gets the image
 * timestamp as its mtime and atime.
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
#include <sys/statvfs.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>

#include "common.h"
#include "escape.h"
#include "image_operands.h"
#include "options.h"
#include "outputs.h"
#include "progress.h"
#include "axfs_reader.h"
#include "axfs_stream.h"
#include "extract_paths.h"
#include "extract_tar.h"

static const struct cmd_usage usage = {
"usage: axfs extract [options] IMAGE DIR [PATH...]\n"
"       axfs extract --tar FILE|- [options] IMAGE [PATH...]\n"
"\n"
"Recreate the tree stored in the AXFS image IMAGE (- for standard input)\n"
"under DIR, which is created if needed and must be empty; with PATHs\n"
"(image paths such as /usr/bin), only those subtrees, with the directories\n"
"on the way to them and the symbolic links followed to reach them.  The\n"
"store segment of a split image is given with --store FILE.  Nothing is\n"
"written outside DIR.  Owners and device nodes are restored as root;\n"
"without root, modes lose set-user-ID/set-group-ID and the umask's bits.\n"
"Hard links (link groups) are restored as hard links.\n"
"\n",
"\nSee axfs-extract(1).\n",
};

/* ---- the extraction state ---------------------------------------------- */

/* Directory file descriptors kept open at once; deeper ones are closed
 * and reopened (by name, O_NOFOLLOW) when needed again. */
#define MAX_OPEN_DIRS 64

struct level {
	char *name;			/* component inside the parent */
	int fd;				/* -1: closed, reopen by name */
	struct axfs_inode_info in;	/* the directory's own inode */
};

/* A regular file met by the pre-walk, in walk order. */
struct reg {
	uint64_t ino, size, array_index, mode_index;
	size_t link_to;			/* NO_LINK, or the group's first file */
	size_t stream_index;		/* its data in `files` (first files) */
	int has_links;			/* first file of a link group */
	/* Where a first file with links was created, to link the others
	 * to it (set by the second walk). */
	char *path;
	dev_t dev;
	ino_t st_ino;
};

#define NO_LINK ((size_t)-1)

struct extract {
	struct axfs_image *img;
	const struct extract_paths *paths;	/* what to write */
	const char *dir;		/* DIR as given, for messages */
	int force;
	int as_root;
	int same_perms;			/* -p */
	mode_t user_mask;		/* the umask we were started with */
	struct timespec times[2];
	struct level *lv;
	size_t depth, cap;		/* lv[0] is DIR itself */
	size_t open_dirs;
	/* totals (pre-walk) and progress */
	uint64_t files_total, bytes_total;
	uint64_t files_done, bytes_done;
	/* what could not be restored */
	uint64_t not_owned, skipped_devices;
	/* The regular files in walk order (first walk); the data of each
	 * that is not a link to an earlier one, read ahead in that order. */
	struct reg *regs;
	size_t nregs, regs_cap, next_reg;
	struct axfs_stream_file *files;
	size_t nfiles;
	struct axfs_stream *stream;
	struct axfs_error err;
};

static void progress_draw(const struct extract *x)
{
	cmd_progress_update(x->files_done, x->files_total, x->bytes_done,
			    x->bytes_total);
}

/*
 * The permission bits a file gets: as in the image as root or with -p;
 * otherwise without set-user-ID/set-group-ID and the umask's bits, as
 * GNU tar and unsquashfs do for an ordinary user (a -rwsrwsrwx file owned
 * by whoever extracts is nobody's wish).
 */
static mode_t final_mode(const struct extract *x, uint32_t mode)
{
	mode_t m = mode & 07777;

	if (!x->as_root && !x->same_perms)
		m &= ~(mode_t)(06000 | x->user_mask);
	return m;
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
	if (fchmod(fd, final_mode(x, l->in.mode)) < 0)
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
		     const char *path, const struct axfs_inode_info *in,
		     struct reg *me)
{
	size_t fi = me->stream_index;
	uint64_t done = 0, end = 0;
	struct stat st;
	int fd, reuse, e;

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
	if (fchmod(fd, final_mode(x, in->mode)) < 0 ||
	    futimens(fd, x->times) < 0)
		goto fail;
	if (me->has_links) {
		/* What the rest of the group is linked to. */
		if (fstat(fd, &st) < 0)
			goto fail;
		me->dev = st.st_dev;
		me->st_ino = st.st_ino;
		me->path = strdup(path);
		if (!me->path) {
			errno = ENOMEM;
			goto fail;
		}
	}
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

/*
 * Opens the first file of a link group, created earlier at DIR/path,
 * without following any symlink on the way (each directory O_NOFOLLOW,
 * the file O_PATH|O_NOFOLLOW), and checks that it is still the file we
 * wrote: a link must never be made to something else put there.
 */
static int open_link_target(struct extract *x, const struct reg *m)
{
	const char *p = m->path + 1;	/* after the leading '/' */
	int dfd = dup(level_fd(x, 0)), fd;
	struct stat st;

	if (dfd < 0)
		return -1;
	for (;;) {
		const char *slash = strchr(p, '/');
		char comp[256];
		size_t len = slash ? (size_t)(slash - p) : strlen(p);

		if (len >= sizeof(comp)) {
			close(dfd);
			errno = ENAMETOOLONG;
			return -1;
		}
		memcpy(comp, p, len);
		comp[len] = '\0';
		if (!slash) {
			fd = openat(dfd, comp, O_PATH | O_NOFOLLOW | O_CLOEXEC);
			break;
		}
		fd = open_dir_at(dfd, comp);
		close(dfd);
		if (fd < 0)
			return -1;
		dfd = fd;
		p = slash + 1;
	}
	close(dfd);
	if (fd < 0)
		return -1;
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) ||
	    st.st_dev != m->dev || st.st_ino != m->st_ino) {
		close(fd);
		errno = ESTALE;
		return -1;
	}
	return fd;
}

/*
 * Another member of a link group: a hard link to the group's first file
 * (same data, mode, owner and time: nothing else to set).  linkat()
 * through /proc/self/fd links the very file we opened, whatever has
 * happened to its name since; without /proc, AT_EMPTY_PATH does the
 * same for root.
 */
static int make_link(struct extract *x, int pfd, const char *name,
		     const char *path, const struct reg *m)
{
	char proc[64];
	int fd, rc, reuse;

	fd = open_link_target(x, m);
	if (fd < 0)
		return fail_errno(x, errno, "find the file to link to",
				  m->path);
	snprintf(proc, sizeof(proc), "/proc/self/fd/%d", fd);
	for (;;) {
		rc = linkat(AT_FDCWD, proc, pfd, name, AT_SYMLINK_FOLLOW);
		if (rc < 0 && errno == ENOENT)
			rc = linkat(fd, "", pfd, name, AT_EMPTY_PATH);
		if (rc == 0 || errno != EEXIST)
			break;
		if (make_room(x, pfd, name, path, 0, &reuse) < 0) {
			close(fd);
			return -1;
		}
	}
	close(fd);
	if (rc < 0)
		return fail_errno(x, errno, "create hard link", path);
	return 0;
}

/*
 * Owner, set-user-ID bits and time of the symlink, device node, FIFO or
 * socket we just created at pfd/name, none of which can be opened for
 * fchown()/fchmod(), without a call that follows a symlink (the hostile
 * input rules, libaxfsimg/README.md).  Whoever can write to DIR may have
 * swapped the entry for a symlink to any file, or a hard link to one.
 *
 * As root, the entry is opened O_PATH|O_NOFOLLOW (a symlink is opened as
 * itself) and checked to be what we made: its type, a single link.  The
 * owner is set on that descriptor (fchownat AT_EMPTY_PATH, which changes
 * a symlink itself), and so are the 06000 bits chown clears, through
 * /proc/self/fd/N, which reaches the opened inode and no other (without
 * /proc that fails: a mode is never set by name).  The other permission
 * bits were given at mknodat() (umask 0), so no other mode call is
 * needed.  Without root nothing but the time is set, with
 * AT_SYMLINK_NOFOLLOW, which never follows.
 */
static int set_node_meta(struct extract *x, int pfd, const char *name,
			 const struct axfs_inode_info *in, mode_t perm,
			 const char *path)
{
	char proc[64];
	struct stat st;
	int fd;

	if (!x->as_root) {
		if (in->uid != geteuid() || in->gid != getegid())
			x->not_owned++;
	} else {
		fd = openat(pfd, name, O_PATH | O_NOFOLLOW | O_CLOEXEC);
		if (fd < 0)
			return fail_errno(x, errno, "open", path);
		if (fstat(fd, &st) < 0) {
			close(fd);
			return fail_errno(x, errno, "inspect", path);
		}
		if ((st.st_mode & S_IFMT) != (in->mode & S_IFMT) ||
		    st.st_nlink != 1) {
			close(fd);
			cmd_error("'%s%s' was replaced while it was extracted "
				  "(another user writing to '%s'?): left as "
				  "it is", x->dir, path, x->dir);
			return -1;
		}
		if (fchownat(fd, "", in->uid, in->gid, AT_EMPTY_PATH) < 0) {
			close(fd);
			return fail_errno(x, errno, "change the owner of",
					  path);
		}
		snprintf(proc, sizeof(proc), "/proc/self/fd/%d", fd);
		if ((perm & 06000) && chmod(proc, perm) < 0) {
			close(fd);
			return fail_errno(x, errno, "change the mode of",
					  path);
		}
		close(fd);
	}
	if (utimensat(pfd, name, x->times, AT_SYMLINK_NOFOLLOW) < 0)
		return fail_errno(x, errno, "set the time of", path);
	return 0;
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
	return set_node_meta(x, pfd, name, in, 0, path);
}

static int make_special(struct extract *x, int pfd, const char *name,
			const char *path, const struct axfs_inode_info *in)
{
	mode_t perm = final_mode(x, in->mode);
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
	/*
	 * A device node, FIFO or socket cannot be opened for fchmod() (a
	 * device's open has effects, a socket has none), and chmod by name
	 * follows symlinks: whoever can write to DIR could swap the node for
	 * a symlink to any file between mknodat() and a chmod (issue 28).
	 * So the node is created with its final permission bits (the umask
	 * is 0 during extraction) and never chmod-ed by name; owner and
	 * time: set_node_meta().  FIFOs and sockets (a socket inode, as tar
	 * and cpio make them) need no privilege.
	 */
	while (mknodat(pfd, name, (in->mode & S_IFMT) | perm, dev) < 0) {
		if (errno != EEXIST)
			return fail_errno(x, errno, "create", path);
		if (make_room(x, pfd, name, path, 0, &reuse) < 0)
			return -1;
	}
	return set_node_meta(x, pfd, name, in, perm, path);
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

	if (!extract_paths_wants(x->paths, path))
		return 0;
	x->files_total++;
	if (!S_ISREG(in->mode))
		return 0;
	if (x->nregs == x->regs_cap) {
		size_t ncap = x->regs_cap ? x->regs_cap * 2 : 1024;
		struct reg *n = realloc(x->regs, ncap * sizeof(*n));

		if (!n) {
			cmd_error("out of memory");
			return 1;
		}
		x->regs = n;
		x->regs_cap = ncap;
	}
	memset(&x->regs[x->nregs], 0, sizeof(x->regs[0]));
	x->regs[x->nregs].ino = in->ino;
	x->regs[x->nregs].size = in->size;
	x->regs[x->nregs].array_index = in->array_index;
	x->regs[x->nregs].mode_index = in->mode_index;
	x->regs[x->nregs].link_to = NO_LINK;
	x->nregs++;
	return 0;
}

/* Regular files by what a link group shares, then in walk order. */
static int by_share(const void *a, const void *b, void *ctx)
{
	const struct reg *regs = ctx;
	size_t i = *(const size_t *)a, j = *(const size_t *)b;
	const struct reg *p = &regs[i], *q = &regs[j];

	if (p->array_index != q->array_index)
		return p->array_index < q->array_index ? -1 : 1;
	if (p->size != q->size)
		return p->size < q->size ? -1 : 1;
	if (p->mode_index != q->mode_index)
		return p->mode_index < q->mode_index ? -1 : 1;
	return i < j ? -1 : i > j;
}

/*
 * Link groups: non-empty regular files that share their nodes (same
 * inode_array_index and size) and their mode/owner tuple, the rule of
 * the image source (libaxfsimg/source/source_image.c) that --tar writes as hard
 * links.  The first in walk order is written, the others linked to it;
 * the data of the first files only is read, and counted in bytes_total.
 */
static int find_links(struct extract *x)
{
	size_t *idx, m = 0;

	idx = malloc((x->nregs + 1) * sizeof(*idx));
	x->files = malloc((x->nregs + 1) * sizeof(*x->files));
	if (!idx || !x->files) {
		free(idx);
		cmd_error("out of memory");
		return -1;
	}
	for (size_t i = 0; i < x->nregs; i++)
		if (x->regs[i].size > 0)
			idx[m++] = i;
	qsort_r(idx, m, sizeof(*idx), by_share, x->regs);
	for (size_t i = 1; i < m; i++) {
		struct reg *p = &x->regs[idx[i - 1]];
		struct reg *r = &x->regs[idx[i]];

		if (p->array_index == r->array_index && p->size == r->size &&
		    p->mode_index == r->mode_index) {
			r->link_to = p->link_to == NO_LINK ? idx[i - 1] :
				     p->link_to;
			x->regs[r->link_to].has_links = 1;
		}
	}
	free(idx);
	for (size_t i = 0; i < x->nregs; i++) {
		struct reg *r = &x->regs[i];

		if (r->link_to != NO_LINK)
			continue;
		r->stream_index = x->nfiles;
		x->files[x->nfiles].ino = r->ino;
		x->files[x->nfiles].size = r->size;
		x->nfiles++;
		x->bytes_total += r->size;
	}
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
	if (!extract_paths_wants(x->paths, path))
		return 0;
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
		printf("%s%s\n", cmd_esc(x->dir), cmd_esc(path));
	}
	switch (in->mode & S_IFMT) {
	case S_IFDIR:
		rc = make_dir(x, pfd, name, path, in);
		break;
	case S_IFREG: {
		struct reg *r = x->next_reg < x->nregs ?
				&x->regs[x->next_reg] : NULL;

		/* The second walk meets the files of the first, in order. */
		if (!r || r->ino != in->ino || r->size != in->size) {
			cmd_error("'%s' changed while it was read ('%s')",
				  axfs_image_name(x->img), path);
			return 1;
		}
		x->next_reg++;
		if (r->link_to != NO_LINK)
			rc = make_link(x, pfd, name, path,
				       &x->regs[r->link_to]);
		else
			rc = make_file(x, pfd, name, path, in, r);
		break;
	}
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

/*
 * An input that lies inside the target directory where the image holds an
 * entry of the same name would be replaced by that entry (with --force, or
 * into a directory that holds nothing else): refused before anything is
 * written.  Returns 1 after saying so, else 0.
 */
static int input_in_target(struct axfs_image *img, const char *dir,
			   const char *input, const char *role)
{
	char *rd, *ri;
	size_t l;
	int clash = 0;

	if (!input || !strcmp(input, "-"))
		return 0;
	rd = realpath(dir, NULL);
	ri = realpath(input, NULL);
	if (rd && ri) {
		l = strlen(rd);
		if (l > 1 && !strncmp(ri, rd, l) && ri[l] == '/')
			memmove(ri, ri + l, strlen(ri + l) + 1);
		else if (l == 1)
			;	/* the root: ri is its own relative path */
		else
			goto out;
		{
			struct axfs_error err;
			uint64_t ino = UINT64_MAX;

			clash = axfs_image_lookup(img, ri, &ino, &err) == 0 &&
				ino != UINT64_MAX;
		}
		if (clash)
			cmd_error("the image holds '%s', which would replace "
				  "the input '%s' (%s) in '%s': extract "
				  "elsewhere", ri, input, role, dir);
	}
out:
	free(rd);
	free(ri);
	return clash;
}

/*
 * Before anything is written: the files' bytes (link groups once) must
 * fit in the free space of DIR's file system, and under --max-size, so
 * that an image of a few KiB claiming GiB is refused with a message, not
 * left to fill the disk.  Sparse files count at their full size.
 */
static int check_space(struct extract *x, int dfd, uint64_t max_size)
{
	struct statvfs vfs;
	uint64_t avail;

	if (fstatvfs(dfd, &vfs) < 0) {
		cmd_error("cannot read the free space of '%s': %s", x->dir,
			  strerror(errno));
		return -1;
	}
	avail = (uint64_t)vfs.f_bavail * vfs.f_frsize;
	if (max_size && x->bytes_total > max_size) {
		cmd_error("'%s' holds %" PRIu64 " bytes of file data, more "
			  "than --max-size %" PRIu64 ": nothing extracted",
			  axfs_image_name(x->img), x->bytes_total, max_size);
		return -1;
	}
	if (x->bytes_total > avail) {
		cmd_error("'%s' holds %" PRIu64 " bytes of file data, more "
			  "than the %" PRIu64 " bytes free in '%s': nothing "
			  "extracted", axfs_image_name(x->img), x->bytes_total,
			  avail, x->dir);
		return -1;
	}
	return 0;
}

static int extract(const char *image, const char *store, const char *dir,
		   char **paths, int npaths, int force, int same_perms,
		   uint64_t max_size, unsigned int jobs)
{
	struct axfs_stream_opts so = { .struct_size = sizeof(so),
				       .threads = jobs > 1 ? jobs : 0 };
	struct extract_paths sel;
	struct extract x;
	time_t ts;
	int rc = EXIT_OPERATIONAL, fd, created = 0;

	memset(&x, 0, sizeof(x));
	/* Every mode is given explicitly: files are created 0600 and
	 * directories 0700 until they are complete (nobody else may look
	 * into what is being written), device nodes, FIFOs and sockets with
	 * their final bits (make_special()).  The user's umask is applied by
	 * final_mode() when it should be. */
	x.user_mask = umask(0);
	x.dir = dir;
	x.force = force;
	x.same_perms = same_perms;
	x.as_root = geteuid() == 0;
	x.paths = &sel;
	if (cmd_open_image(&x.img, image, store, 0) != 0)
		return EXIT_OPERATIONAL;
	if (extract_paths_resolve(&sel, x.img, paths, npaths) < 0) {
		extract_paths_free(&sel);
		axfs_image_close(x.img);
		return EXIT_OPERATIONAL;
	}
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
	if (find_links(&x) < 0)
		goto out;

	if (mkdir(dir, 0700) == 0)
		created = 1;
	else if (errno != EEXIST) {
		cmd_error("cannot create directory '%s': %s", dir,
			  strerror(errno));
		goto out;
	}
	/* A DIR we created is opened without following a symlink and
	 * must still be ours: in a directory others can write to (/tmp),
	 * someone could have put a symlink to elsewhere in its place.  A DIR
	 * that existed is the user's choice, symlink or not. */
	fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC |
		  (created ? O_NOFOLLOW : 0));
	if (fd < 0) {
		cmd_error("cannot open directory '%s': %s", dir,
			  strerror(errno));
		goto out;
	}
	if (created) {
		struct stat st;

		if (fstat(fd, &st) < 0 || st.st_uid != geteuid()) {
			close(fd);
			cmd_error("'%s' was replaced while it was created "
				  "(another user writing to its parent?)",
				  dir);
			goto out;
		}
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
	if (input_in_target(x.img, dir, image, "IMAGE") ||
	    input_in_target(x.img, dir, store, "STORE") ||
	    check_space(&x, fd, max_size) < 0) {
		close(fd);
		if (created)
			rmdir(dir);
		goto out;
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
	for (size_t i = 0; i < x.nregs; i++)
		free(x.regs[i].path);
	free(x.regs);
	free(x.files);
	extract_paths_free(&sel);
	axfs_image_close(x.img);
	return rc;
}

int cmd_extract(int argc, char **argv)
{
	const char *tar = NULL;
	const char *image, *store = NULL, *dir;
	int force = 0, same_perms = 0, c, first;
	unsigned long long jobs = 0;
	uint64_t max_size = 0;
	const struct cmd_opt options[] = {
		{ CMD_FLAG('f', "force", &force, 1, "extract into a non-empty "
			   "DIR, replacing what is in\nthe way (never a "
			   "directory by a file)") },
		{ CMD_COUNT('j', "jobs", "N", &jobs, 0, 1024, "inflate file "
			    "data on N threads (default 0: one per\nCPU; 1: "
			    "no extra thread)"),
		  .bad = "invalid number of jobs '%s': use 1 to 1024 (0: one "
			 "per CPU)" },
		{ CMD_SIZE(0, "max-size", "SIZE", &max_size, "refuse an image "
			   "whose files hold more than SIZE\nbytes (always: "
			   "more than DIR's free space)"),
		  .min = 1, .bad = "invalid size '%s' for --max-size: use a "
				   "number of bytes with an optional unit "
				   "(64KiB, 2G)" },
		{ CMD_FLAG('p', "same-permissions", &same_perms, 1, "without "
			   "root too, modes exactly as in the image") },
		{ CMD_STRING(0, "tar", "FILE", &tar, "write a pax archive "
			     "instead (- for standard output),\nwith owners, "
			     "devices and hard links, without root") },
		CMD_OPTS_IMAGE,
		CMD_OPTS_PROGRESS,
		CMD_OPTS_END(CMD_HELP_QUIET,
			     "print each path as it is written"),
	};
	struct cmd_step step = cmd_parse_options(argc, argv, options, &usage);

	if (step.stop)
		return step.exit_code;
	/* --tar FILE stands for DIR. */
	step = cmd_image_path_operands(argc, argv, !tar, "target directory",
				       &image, &store, &dir, &first);
	if (step.stop)
		return step.exit_code;
	if (tar && (same_perms || max_size))
		return cmd_usage_error("-p and --max-size are for a target "
				       "directory, not --tar");
	if (tar) {
		struct cmd_file in[] = { { image, "IMAGE", 0 }, { store, "STORE", 0 } };
		struct cmd_file out = { tar, "--tar", 1 };

		if ((c = cmd_check_outputs(in, 2, &out, 1)) != 0)
			return c;
		return cmd_finish_stdout(extract_tar(image, store, tar,
						     argv + first,
						     argc - first));
	}
	if (jobs == 0) {
		long cpus = sysconf(_SC_NPROCESSORS_ONLN);

		jobs = cpus > 1 ? (unsigned long long)(cpus > 1024 ? 1024 : cpus)
				: 1;
	}
	return cmd_finish_stdout(extract(image, store, dir, argv + first,
					 argc - first, force, same_perms, max_size,
					 (unsigned int)jobs));
}
