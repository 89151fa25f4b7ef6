/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cmd/extract_tree.h - axfs extract IMAGE DIR: the state that the parts
 * writing the tree share, and what each part offers the others:
 *   extract.c        the command, the two walks, DIR itself
 *   extract_plan.c   the pre-walk: what is written, whether it may be
 *   extract_links.c  link groups: which files share one, and the links
 *   extract_files.c  the writers of files, symlinks and special nodes
 *   extract_dirs.c   directories and their descriptors
 *   extract_owner.c  owners, modes and times; messages naming DIR/path
 */
#ifndef CMD_EXTRACT_TREE_H
#define CMD_EXTRACT_TREE_H

#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <time.h>

#include "progress.h"
#include "axfs_reader.h"
#include "axfs_stream.h"
#include "extract_paths.h"
#include "share.h"

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
	size_t link_to;			/* SHARE_NO_LINK, or the group's
					 * first file */
	size_t stream_index;		/* its data in `files` (first files) */
	uint64_t links;			/* first file: the others of its group */
	/* Where a first file with links was created, to link the others
	 * to it (set by the second walk; a copy's once the file system
	 * holds no more links to it: EMLINK). */
	char *path;
	dev_t dev;
	ino_t st_ino;
};

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
	/* The bound (share.h): every regular file of the image, and what
	 * extracting them writes against what the image holds. */
	struct share_file *all;
	size_t nall, all_cap;
	struct share_totals share;
	uint64_t max_ratio;		/* --max-ratio */
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

static inline void extract_progress_draw(const struct extract *x)
{
	cmd_progress_update(x->files_done, x->files_total, x->bytes_done,
			    x->bytes_total);
}

/* ---- extract_plan.c: the pre-walk ---- */

/* axfs_image_walk() callback of the first walk: counts what PATHs select
 * and records each regular file in x->regs. */
int extract_count_fn(void *ctx, const char *path,
		     const struct axfs_inode_info *in);
/* 1 (after saying so) when the input would be replaced by an entry of
 * the image extracted into dir, else 0. */
int extract_input_in_target(struct axfs_image *img, const char *dir,
			    const char *input, const char *role);
/* 0 when what the image's files would write is within --max-ratio
 * times what it holds, and the bytes to write (with the copies DIR's
 * link limit will need) fit under max_size (0: no limit) and in the free
 * space of the file system of dfd, else -1 (reported). */
int extract_check_space(struct extract *x, int dfd, uint64_t max_size);
/* The same ratio check for --tar, on the image source's totals. */
int extract_check_ratio(const char *image, const struct share_totals *t,
			uint64_t max_ratio);

/* ---- extract_links.c: link groups ---- */

/* Groups x->regs into link groups and lists the data to read (x->files,
 * x->bytes_total); the totals of all the image's files (x->share).  0,
 * or -1 (reported). */
int extract_find_links(struct extract *x);
/* A hard link at pfd/name to the first file of its group, m; a copy of
 * it when the file system holds no more links to m (EMLINK), to which
 * the group's next members are linked. */
int extract_make_link(struct extract *x, int pfd, const char *name,
		      const char *path, struct reg *m);

/* ---- extract_files.c: the writers; each returns 0 or -1 (reported) ---- */

/* With --force, removes what is in the way of pfd/name (never a
 * directory; *reuse_dir = 1 when it is one and want_dir is set). */
int extract_make_room(struct extract *x, int pfd, const char *name,
		      const char *path, int want_dir, int *reuse_dir);
int extract_make_file(struct extract *x, int pfd, const char *name,
		      const char *path, const struct axfs_inode_info *in,
		      struct reg *me);
int extract_make_symlink(struct extract *x, int pfd, const char *name,
			 const char *path, const struct axfs_inode_info *in);
int extract_make_special(struct extract *x, int pfd, const char *name,
			 const char *path, const struct axfs_inode_info *in);
/* A copy at pfd/name of the regular file open for reading at src, with
 * its owner and mode and the image time; *made: what was created. */
int extract_make_copy(struct extract *x, int pfd, const char *name,
		      const char *path, int src, struct stat *made);

/* ---- extract_dirs.c: directories ---- */

/* A directory below pfd, opened without following a symlink. */
int extract_open_dir(int pfd, const char *name);
/* The descriptor of level k, reopened through its parents if closed. */
int extract_level_fd(struct extract *x, size_t k);
/* Creates the directory and enters it (its level is the deepest). */
int extract_make_dir(struct extract *x, int pfd, const char *name,
		     const char *path, const struct axfs_inode_info *in);
/* Leaves every level deeper than keep, finishing each directory. */
int extract_pop_to(struct extract *x, size_t keep);
/* Owner, mode and times of a finished directory (or of DIR itself). */
int extract_finish_dir(struct extract *x, size_t k, const char *path);

/* ---- extract_owner.c: owners, modes, times, messages ---- */

mode_t extract_final_mode(const struct extract *x, uint32_t mode);
/* Owner, set-user-ID bits and time of a symlink, device node, FIFO or
 * socket just created at pfd/name, without following a symlink. */
int extract_set_node_meta(struct extract *x, int pfd, const char *name,
			  const struct axfs_inode_info *in, mode_t perm,
			  const char *path);
/* "cannot WHAT 'DIR/path': strerror(e)"; returns -1. */
int extract_fail(struct extract *x, int e, const char *what,
		 const char *path);

#endif
