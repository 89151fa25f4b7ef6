/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * axfs_source.h - producers of filesystem entries (directory, archive,
 * AXFS image).
 *
 * A source yields one entry at a time, metadata only.  The data of a
 * regular file is read later, in image order, through data_open/data_read
 * on the axfs_data_ref the entry carries: a host path for a directory
 * source, an offset into a spool file for an archive source (which reads
 * the archive exactly once).  So mkfs does not care where entries come
 * from, and images built from a tree and from a tarball of it are the same.
 */
#ifndef AXFS_SOURCE_H
#define AXFS_SOURCE_H

#include <stdint.h>
#include <stddef.h>
#include "axfs_error.h"
#include "axfs_ftype.h"

/* Where a regular file's bytes can be read again later. */
struct axfs_data_ref {
	char *host_path;	/* directory source: file to open (owned) */
	uint64_t spool_offset;	/* archive source: offset in its spool */
	uint64_t size;		/* number of bytes */
};

/* Things AXFS v1 cannot store; mkfs warns once and lists them with -v. */
enum axfs_lossy {
	AXFS_LOSSY_MTIME = 1 << 0,	/* per-file timestamps */
	AXFS_LOSSY_XATTR = 1 << 1,
	AXFS_LOSSY_ACL = 1 << 2,
	AXFS_LOSSY_NLINK_DIR = 1 << 3,
	/* Named among the xattrs (which are also flagged XATTR): the ones a
	 * lost label or capability makes a build wrong, not just poorer. */
	AXFS_LOSSY_SELINUX = 1 << 4,	/* security.selinux */
	AXFS_LOSSY_CAPABILITY = 1 << 5,	/* security.capability */
};

struct axfs_src_entry {
	/* Path inside the image: no leading '/', components separated by one
	 * '/', no "." or ".." or empty components; "" is the root. */
	const char *path;
	enum axfs_ftype type;
	uint32_t mode;		/* permission bits incl. setuid/setgid/sticky */
	uint32_t uid, gid;
	int64_t mtime;
	uint32_t rdev_major, rdev_minor;	/* AXFS_FT_CHR / AXFS_FT_BLK */
	const char *link_target;	/* AXFS_FT_LNK */
	/* Non-NULL: a hard link to the earlier entry with this path (same
	 * form as `path`); type/mode are those of the target. */
	const char *hardlink_to;
	struct axfs_data_ref data;	/* AXFS_FT_REG; ownership moves to the
					 * consumer (tree) on success */
	unsigned int lossy;	/* enum axfs_lossy bits */
};

struct axfs_source;

struct axfs_source_ops {
	/* 1: *ent filled (valid until the next call), 0: end, <0: error. */
	int (*next)(struct axfs_source *src, struct axfs_src_entry *ent,
		    struct axfs_error *err);
	/* Open a data ref for sequential reading (thread-safe: each handle
	 * is independent). */
	int (*data_open)(struct axfs_source *src,
			 const struct axfs_data_ref *ref, void **handle,
			 struct axfs_error *err);
	/* Read up to len bytes; *got = 0 only at end of data.  A file whose
	 * size differs from ref->size is an error naming it. */
	int (*data_read)(struct axfs_source *src, void *handle, void *buf,
			 size_t len, size_t *got, struct axfs_error *err);
	void (*data_close)(struct axfs_source *src, void *handle);
	/* Optional (NULL: not offered).  Read up to len bytes at byte off of
	 * the data, whatever the handle's position; *got = 0 at the end.  The
	 * packer compares a page with one it stored before this way. */
	int (*data_pread)(struct axfs_source *src, void *handle, void *buf,
			  size_t len, uint64_t off, size_t *got,
			  struct axfs_error *err);
	void (*destroy)(struct axfs_source *src);
};

struct axfs_source {
	const struct axfs_source_ops *ops;
	const char *name;		/* for messages: the directory/archive */
	const struct axfs_logger *log;
	/* Set by a source that knows the time its entries were made (an
	 * image's timestamp): the build's default timestamp. */
	int has_timestamp;
	int64_t timestamp;
};

struct axfs_source_opts {
	const struct axfs_logger *log;
	/* Host paths to leave out (e.g. the output image inside the tree);
	 * compared after realpath(). */
	const char *const *exclude_host_paths;
	size_t n_exclude_host_paths;
	const char *tmpdir;		/* archive spool; NULL = $TMPDIR */
	const char *store_path;		/* image source: store segment of a
					 * split image (NULL: one file) */
	uint64_t max_memory;		/* image source: the reader's budget
					 * (axfs_open_opts; 0: default) */
};

/* Walks DIR in bytewise-sorted order, never following symlinks. */
int source_dir_open(struct axfs_source **out, const char *dir,
		    const struct axfs_source_opts *opts,
		    struct axfs_error *err);

/* Any archive libarchive reads; path "-" is standard input. */
int source_archive_open(struct axfs_source **out, const char *path,
			const struct axfs_source_opts *opts,
			struct axfs_error *err);

/* An AXFS image (opts->store_path: its store segment) as entries: every
 * mtime is the image timestamp; inodes sharing their data nodes and their
 * mode/owner are a hard link group.  See source_image.c. */
int source_image_open(struct axfs_source **out, const char *path,
		      const struct axfs_source_opts *opts,
		      struct axfs_error *err);
/* 1 if PATH is a file that starts with the AXFS magic. */
int source_is_image(const char *path);

/* Picks the directory, image or archive source from what PATH is. */
int source_open(struct axfs_source **out, const char *path,
		const struct axfs_source_opts *opts,
		struct axfs_error *err);

void source_destroy(struct axfs_source *src);

#endif
