/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * axfs_fsck.h - checks an AXFS image for every defect it can have.
 *
 * The checker never modifies the image and never stops at the first
 * problem: every finding goes to a caller-supplied callback with its
 * severity, the byte offset it is about, the inode path where one applies,
 * a message and a stable check id ("sb.magic", "dir.order", ...; the full
 * list is axfs_fsck_checks() and man/axfs-fsck.8).
 *
 * The image is untrusted.  No allocation is sized from an unchecked field:
 * every count is bounded by bytes that exist, and the total is capped by
 * max_memory (default: 64 MiB plus 8 times the image size).
 */
#ifndef AXFS_FSCK_H
#define AXFS_FSCK_H

#include <stddef.h>
#include <stdint.h>
#include "axfs_error.h"

enum axfs_fsck_severity {
	AXFS_FSCK_NOTICE = 0,	/* information only; the image is clean */
	AXFS_FSCK_WARNING = 1,	/* the driver copes, but the image is
				 * inconsistent or returns surprising data */
	AXFS_FSCK_ERROR = 2,	/* corrupt: the driver fails, reads out of
				 * bounds or returns wrong data */
};

struct axfs_fsck_finding {
	enum axfs_fsck_severity severity;
	const char *check;	/* stable id, e.g. "sb.magic" */
	uint64_t offset;	/* byte offset in the (joined) image */
	const char *path;	/* inode path ("/", "/a/b"), or NULL */
	uint64_t ino;		/* inode number; meaningful when path != NULL */
	const char *message;	/* lowercase, no trailing period */
};

/* Return non-zero to stop checking (axfs_fsck_* then returns
 * AXFS_ERR_INTERRUPTED). */
typedef int (*axfs_fsck_report_fn)(void *ctx,
				   const struct axfs_fsck_finding *f);

struct axfs_fsck_opts {
	/* sizeof(this struct) as the caller compiled it: set by
	 * axfs_fsck_opts_init(); the options grow at their end. */
	size_t struct_size;
	int deep;		/* 1: inflate every cblock, read every page */
	int digest;		/* 1: verify the SHA-1 digest */
	uint64_t max_memory;	/* 0: 64 MiB + 8 x image size */
	/* Findings of one check beyond this many are counted but not
	 * passed to report(); one summary finding says how many.  0: all. */
	uint64_t per_check_limit;
	axfs_fsck_report_fn report;
	void *report_ctx;
	/* Called from the calling thread now and then. */
	void (*progress)(void *ctx, uint64_t done, uint64_t total);
	void *progress_ctx;
	const struct axfs_logger *log;	/* phase timings at AXFS_LOG_INFO */
	volatile int *cancel;	/* non-zero: stop with INTERRUPTED */
};

/* struct_size, deep = 1, digest = 1, everything else zero. */
void axfs_fsck_opts_init(struct axfs_fsck_opts *o);

enum axfs_fsck_digest {
	AXFS_FSCK_DIGEST_NOT_CHECKED = 0,	/* --no-digest, or no superblock */
	AXFS_FSCK_DIGEST_NONE,			/* the field is all zeros */
	AXFS_FSCK_DIGEST_OK,
	AXFS_FSCK_DIGEST_MISMATCH,
};

struct axfs_fsck_result {
	uint64_t errors, warnings, notices;
	uint64_t image_size;		/* bytes examined (both segments) */
	uint64_t inodes;		/* inodes reached from the root */
	uint64_t nodes;			/* nodes used by files */
	uint64_t cblocks;		/* cblocks inflated (deep) */
	uint64_t data_bytes;		/* file bytes checked */
	enum axfs_fsck_digest digest;
	uint8_t digest_sha1[20];	/* computed (when checked) */
};

/*
 * Checks the image at `path` (a regular file, copied with pread() so that
 * a file cut short is an error, never SIGBUS; a block or MTD device; "-"
 * for standard input, or a pipe, FIFO or other character device, read
 * superblock first and only as far as it claims, within max_memory; for a
 * split image, `store_path` is the store segment, else NULL).  Returns 0
 * when the image was examined (look at res->errors/warnings), or a
 * negative error when it could not be read (err filled).
 */
int axfs_fsck_file(const char *path, const char *store_path,
		   const struct axfs_fsck_opts *o, struct axfs_fsck_result *res,
		   struct axfs_error *err);

/* The same on memory: `store` may be NULL.  Buffers are only read. */
int axfs_fsck_buffer(const void *image, size_t len, const void *store,
		     size_t store_len, const char *name,
		     const struct axfs_fsck_opts *o,
		     struct axfs_fsck_result *res, struct axfs_error *err);

/* Every check the engine can report, for --list-checks and the manual. */
struct axfs_fsck_check {
	const char *id;
	enum axfs_fsck_severity severity;
	const char *summary;
};
const struct axfs_fsck_check *axfs_fsck_checks(size_t *count);

const char *axfs_fsck_severity_name(enum axfs_fsck_severity s);

#endif
