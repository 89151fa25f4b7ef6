// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cmd/extract_files.c - axfs extract IMAGE DIR: the writers of regular
 * files, symbolic links, device nodes, FIFOs and sockets.
 *
 * Every entry is created relative to the descriptor of its parent
 * (openat/symlinkat/mknodat with O_EXCL or its equivalent), so nothing
 * already in DIR is followed.  File data comes from the read-ahead
 * stream (axfs_stream.h) in walk order and is written with one pwrite()
 * per run of non-zero pages: zero pages become holes.  Files are created
 * 0600 and get their owner, mode and time through their descriptor once
 * written; device nodes, FIFOs and sockets are created with their final
 * permission bits (extract_owner.c says why).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "common.h"
#include "extract_tree.h"
#include "axfs_format.h"

/*
 * Something already has this name (only with --force into a non-empty
 * DIR, or if the image repeats a name, which the walk refuses): remove
 * it unless it is a directory, which we never remove.
 */
int extract_make_room(struct extract *x, int pfd, const char *name,
		      const char *path, int want_dir, int *reuse_dir)
{
	struct stat st;

	*reuse_dir = 0;
	if (!x->force)
		return extract_fail(x, EEXIST, "create", path);
	if (fstatat(pfd, name, &st, AT_SYMLINK_NOFOLLOW) < 0)
		return extract_fail(x, errno, "inspect", path);
	if (S_ISDIR(st.st_mode)) {
		if (want_dir) {
			*reuse_dir = 1;
			return 0;
		}
		return extract_fail(x, EISDIR, "replace directory", path);
	}
	if (unlinkat(pfd, name, 0) < 0)
		return extract_fail(x, errno, "replace", path);
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

int extract_make_file(struct extract *x, int pfd, const char *name,
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
			return extract_fail(x, errno, "create", path);
		if (extract_make_room(x, pfd, name, path, 0, &reuse) < 0)
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
		extract_progress_draw(x);
	}
	/* A file that ends in a hole. */
	if (end < in->size && ftruncate(fd, (off_t)in->size) < 0)
		goto fail;
	if (x->as_root && fchown(fd, in->uid, in->gid) < 0)
		goto fail;
	if (!x->as_root && (in->uid != geteuid() || in->gid != getegid()))
		x->not_owned++;
	/* After fchown, which clears the set-user-ID bit. */
	if (fchmod(fd, extract_final_mode(x, in->mode)) < 0 ||
	    futimens(fd, x->times) < 0)
		goto fail;
	if (me->links) {
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
	extract_fail(x, e, "write", path);
fail_quiet:
	if (fd >= 0)
		close(fd);
	unlinkat(pfd, name, 0);	/* no half-written file left behind */
	return -1;
}

/* What extract_make_copy() reads at once. */
#define COPY_CHUNK (256u * 1024u)

int extract_make_copy(struct extract *x, int pfd, const char *name,
		      const char *path, int src, struct stat *made)
{
	struct axfs_stream_piece pc = { 0, 0, NULL, 0 };
	uint8_t *buf = malloc(COPY_CHUNK);
	uint64_t end = 0;
	struct stat st;
	int fd = -1, reuse, e;

	if (!buf || fstat(src, &st) < 0) {
		e = buf ? errno : ENOMEM;
		free(buf);
		return extract_fail(x, e, "copy", path);
	}
	for (;;) {
		fd = openat(pfd, name, O_WRONLY | O_CREAT | O_EXCL |
			    O_NOFOLLOW | O_CLOEXEC, 0600);
		if (fd >= 0)
			break;
		if (errno != EEXIST) {
			free(buf);
			return extract_fail(x, errno, "create", path);
		}
		if (extract_make_room(x, pfd, name, path, 0, &reuse) < 0) {
			free(buf);
			return -1;
		}
	}
	while (pc.offset < (uint64_t)st.st_size) {
		ssize_t n = pread(src, buf, COPY_CHUNK, (off_t)pc.offset);

		if (n < 0 && errno == EINTR)
			continue;
		if (n == 0)
			errno = EIO;	/* the file we wrote is shorter */
		if (n <= 0)
			goto fail;
		pc.data = buf;
		pc.len = (size_t)n;
		if (write_piece(fd, &pc, &end) < 0)
			goto fail;
		pc.offset += (uint64_t)n;
		x->bytes_done += (uint64_t)n;
		extract_progress_draw(x);
	}
	if ((end < (uint64_t)st.st_size &&
	     ftruncate(fd, st.st_size) < 0) ||
	    (x->as_root && fchown(fd, st.st_uid, st.st_gid) < 0) ||
	    fchmod(fd, st.st_mode & 07777) < 0 ||
	    futimens(fd, x->times) < 0 || fstat(fd, made) < 0)
		goto fail;
	if (close(fd) < 0) {
		fd = -1;
		goto fail;
	}
	free(buf);
	return 0;
fail:
	e = errno;
	if (fd >= 0)
		close(fd);
	free(buf);
	extract_fail(x, e, "write", path);
	unlinkat(pfd, name, 0);	/* no half-written copy left behind */
	return -1;
}

int extract_make_symlink(struct extract *x, int pfd, const char *name,
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
			return extract_fail(x, errno, "create symbolic link",
					    path);
		if (extract_make_room(x, pfd, name, path, 0, &reuse) < 0)
			return -1;
	}
	return extract_set_node_meta(x, pfd, name, in, 0, path);
}

int extract_make_special(struct extract *x, int pfd, const char *name,
			 const char *path, const struct axfs_inode_info *in)
{
	mode_t perm = extract_final_mode(x, in->mode);
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
	 * time: extract_set_node_meta().  FIFOs and sockets (a socket inode, as tar
	 * and cpio make them) need no privilege.
	 */
	while (mknodat(pfd, name, (in->mode & S_IFMT) | perm, dev) < 0) {
		if (errno != EEXIST)
			return extract_fail(x, errno, "create", path);
		if (extract_make_room(x, pfd, name, path, 0, &reuse) < 0)
			return -1;
	}
	return extract_set_node_meta(x, pfd, name, in, perm, path);
}
