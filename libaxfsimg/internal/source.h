/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * source.h - producers of filesystem entries (directory, archive,
 * AXFS image).
 *
 * A source yields one entry at a time, metadata only.  The data of a
 * regular file is read later, in image order, through data_open/data_read
 * on the source_data_ref the entry carries: a host path for a directory
 * source, an offset into a spool file for an archive source (which reads
 * the archive exactly once).  So mkfs does not care where entries come
 * from, and images built from a tree and from a tarball of it are the same.
 */
#ifndef LIBAXFSIMG_INTERNAL_SOURCE_H
#define LIBAXFSIMG_INTERNAL_SOURCE_H

#include <stdint.h>
#include <stddef.h>
#include "axfs_error.h"
#include "axfs_ftype.h"

/* Where a regular file's bytes can be read again later. */
struct source_data_ref {
	char *host_path;	/* directory source: file to open (owned) */
	uint64_t spool_offset;	/* archive source: offset in its spool */
	uint64_t size;		/* number of bytes */
	/* Bytes the input holds for it: size less its holes, as far as the
	 * source knows them before reading (an archive member's sparse map,
	 * a host file's SEEK_DATA extents); size when it knows none.  What
	 * mkfs bounds the holes of a build by (axfs_build_opts.max_holes). */
	uint64_t data_bytes;
	/* 1: host_path is a file that a policy entry names (`source:`),
	 * read by the host-file layer (source_host.c) whatever the source
	 * is, not by the source itself. */
	int policy_host;
};

/* Things AXFS v1 cannot store; mkfs warns once and lists them with -v. */
enum source_lossy {
	SOURCE_LOSSY_MTIME = 1 << 0,		/* per-file timestamps */
	SOURCE_LOSSY_XATTR = 1 << 1,
	SOURCE_LOSSY_ACL = 1 << 2,
	SOURCE_LOSSY_NLINK_DIR = 1 << 3,
	/* Named among the xattrs (which are also flagged XATTR): the ones a
	 * lost label or capability makes a build wrong, not just poorer. */
	SOURCE_LOSSY_SELINUX = 1 << 4,		/* security.selinux */
	SOURCE_LOSSY_CAPABILITY = 1 << 5,	/* security.capability */
};

struct source_entry {
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
	struct source_data_ref data;	/* AXFS_FT_REG; ownership moves to the
					 * consumer (tree) on success */
	unsigned int lossy;	/* enum source_lossy bits */
};

struct source;

struct source_ops {
	/* 1: *ent filled (valid until the next call), 0: end, <0: error. */
	int (*next)(struct source *src, struct source_entry *ent,
		    struct axfs_error *err);
	/* Open a data ref for sequential reading (thread-safe: each handle
	 * is independent). */
	int (*data_open)(struct source *src,
			 const struct source_data_ref *ref, void **handle,
			 struct axfs_error *err);
	/* Read up to len bytes; *got = 0 only at end of data.  A file whose
	 * size differs from ref->size is an error naming it. */
	int (*data_read)(struct source *src, void *handle, void *buf,
			 size_t len, size_t *got, struct axfs_error *err);
	void (*data_close)(struct source *src, void *handle);
	/* Optional (NULL: not offered).  Read up to len bytes at byte off of
	 * the data, whatever the handle's position; *got = 0 at the end.  The
	 * packer compares a page with one it stored before this way. */
	int (*data_pread)(struct source *src, void *handle, void *buf,
			  size_t len, uint64_t off, size_t *got,
			  struct axfs_error *err);
	/* Optional (NULL: no hole is known, every byte is read).  *hole: the
	 * bytes from the handle's position that are a hole (read as zeros
	 * and held by no input byte: a sparse file's hole, the gaps of a
	 * sparse archive member), at most up to the end of the data; 0 when
	 * data is there.  *data: the bytes of data that follow (up to the
	 * next hole or the end; 0 when unknown).  The position does not
	 * move.  The packer skips hole pages this way and reads no further
	 * than the data, so a hole costs no read whatever its length. */
	int (*data_hole)(struct source *src, void *handle,
			 uint64_t *hole, uint64_t *data,
			 struct axfs_error *err);
	/* With data_hole: moves the handle's position len bytes on, len at
	 * most what data_hole just said. */
	int (*data_skip)(struct source *src, void *handle, uint64_t len,
			 struct axfs_error *err);
	void (*destroy)(struct source *src);
};

struct source {
	const struct source_ops *ops;
	const char *name;		/* for messages: the directory/archive */
	const struct axfs_logger *log;
	/* Set by a source that knows the time its entries were made (an
	 * image's timestamp): the build's default timestamp. */
	int has_timestamp;
	int64_t timestamp;
};

struct source_opts {
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
int source_dir_open(struct source **out, const char *dir,
		    const struct source_opts *opts,
		    struct axfs_error *err);

/* Any archive libarchive reads; path "-" is standard input. */
int source_archive_open(struct source **out, const char *path,
			const struct source_opts *opts,
			struct axfs_error *err);

/* An AXFS image (opts->store_path: its store segment) as entries: every
 * mtime is the image timestamp; inodes sharing their data nodes and their
 * mode/owner are a hard link group.  See source_image.c. */
int source_image_open(struct source **out, const char *path,
		      const struct source_opts *opts,
		      struct axfs_error *err);
/* What extracting the image source src writes (each hard link group
 * once) and what it holds (share.h); -1 when src is not an image. */
struct share_totals;
int source_image_share(const struct source *src, struct share_totals *t);
/* 1 if PATH is a file that starts with the AXFS magic. */
int source_is_image(const char *path);

/* Picks the directory, image or archive source from what PATH is. */
int source_open(struct source **out, const char *path,
		const struct source_opts *opts,
		struct axfs_error *err);

/* Puts the host-file layer over *src: the data of refs with
 * policy_host set is read from their host file (opened without
 * following a symlink, checked to be the regular file of the size it
 * had), every other call goes to *src, which the layer takes. */
int source_host_wrap(struct source **src, struct axfs_error *err);

void source_destroy(struct source *src);

#endif
