/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * axfs_build.h - the whole mkfs pipeline in one call:
 * source -> tree (+ policy) -> plan -> pack -> write -> rename.
 *
 * The image is written to a temporary file beside the output and renamed
 * over it only when complete; on any failure (or cancellation) the
 * temporary file is removed and an existing output file is untouched.
 */
#ifndef AXFS_BUILD_H
#define AXFS_BUILD_H

#include <stddef.h>
#include <stdint.h>
#include "axfs_compressor.h"
#include "axfs_error.h"
#include "axfs_policy.h"
#include "axfs_profile.h"

/*
 * Default cblock size, chosen by measurement (bench/blocksize.sh,
 * bench/BLOCKSIZE.md): image size and build time against the cost to the
 * driver, which inflates a whole cblock for a fault in any of its pages.
 */
#define AXFS_DEFAULT_BLOCK_SIZE 65536u

/*
 * The options grow at their end.  struct_size is sizeof(struct
 * axfs_build_opts) as the caller compiled it: axfs_build_opts_init() sets
 * it with the defaults, and axfs_build() refuses a size it does not know
 * (so a field added later reads as its default for an older program).
 */
struct axfs_build_opts {
	size_t struct_size;
	const char *source;		/* directory, archive, image or "-" */
	const char *source_store;	/* store segment of a split image
					 * source, or NULL */
	const char *output;		/* image path */
	uint32_t block_size;		/* 0: policy, else default */
	int level;			/* 0: policy, else default */
	enum axfs_compressor compressor;	/* DEFAULT: policy, else default */
	int jobs;			/* <= 0: online CPUs */
	int has_timestamp;		/* else policy, SOURCE_DATE_EPOCH, the
					 * source image's timestamp, now */
	int64_t timestamp;
	int all_root;			/* -1: policy */
	int64_t force_uid, force_gid;	/* -1: keep */
	const char *const *xip_globs;
	size_t n_xip_globs;
	const struct axfs_policy *policy;	/* may be NULL */
	const struct axfs_profile *profile;	/* canonical; may be NULL */
	int has_budget;
	uint64_t budget;
	uint64_t mmap_limit;		/* 0: policy or none */
	int xip_suffix;			/* -1: policy, else off */
	/* Pad the file to this many bytes (a partition's size) with
	 * pad_byte; the superblock's size stays the image's own length. */
	uint64_t pad_size;		/* 0: policy or none */
	int pad_byte;			/* -1: policy, else 0x00 */
	int compress_metadata;		/* -1 auto */
	enum axfs_xattr_action xattrs;	/* UNSET: policy, else warn */
	const char *tmpdir;
	const struct axfs_logger *log;
	void (*progress)(void *ctx, uint64_t files_done, uint64_t files_total,
			 uint64_t bytes_done, uint64_t bytes_total);
	void *progress_ctx;
	volatile int *cancel;
	/* Entries left out of the image, with everything under them (the
	 * policy's exclude too); exclude_where[i] names where each glob
	 * comes from in messages ("--exclude", "list.txt:3"; NULL: all
	 * "--exclude"). */
	const char *const *exclude_globs;
	const char *const *exclude_where;
	size_t n_exclude_globs;
	int strict_profile;		/* -1: policy, else off: a profile
					 * entry naming no page of the tree
					 * is an error (one that matches
					 * nothing always is) */
	/* The most bytes of holes (sparse files' apparent size that no
	 * input byte holds) a build may have, counted per file before
	 * anything is allocated for them; the file that goes over is
	 * named.  0: AXFS_DEFAULT_MAX_HOLES. */
	uint64_t max_holes;
};

/*
 * 64 GiB of holes: 16 Mi nodes (the format has a node a 4 KiB page, a
 * hole's too), whose node tables (1 to 4 bytes a node) every reader holds
 * in memory within the 64 MiB its budget gives any image, whatever its
 * size: a hole costs the image nothing that would raise that budget.
 */
#define AXFS_DEFAULT_MAX_HOLES	(64ull << 30)

/* What a build made: the library's, read-only; later releases may add
 * fields at the end. */
struct axfs_build_summary {
	uint64_t image_size;		/* bytes of the image (before padding) */
	uint64_t mmap_size;		/* bytes of its memory-mapped part */
	uint64_t inodes;
	uint64_t pages;			/* nodes: pages of files and symlinks */
	uint64_t xip_pages;
	uint64_t compressed_pages;
	uint64_t byte_aligned_pages;
	uint64_t cblocks;
	uint32_t block_size;		/* cblock size */
	enum axfs_compressor compressor;	/* never DEFAULT */
	int level;
	int64_t timestamp;		/* the image's */
};

/* The result of a build: opaque; axfs_build_summary() tells what it made. */
struct axfs_build_result;

void axfs_build_opts_init(struct axfs_build_opts *o);
/*
 * Builds the image; 0 or a negative enum axfs_errcode with err filled.
 * On success *res (when res is not NULL) is the result, which the caller
 * frees with axfs_build_result_free(); NULL on failure.
 */
int axfs_build(const struct axfs_build_opts *o, struct axfs_build_result **res,
	       struct axfs_error *err);
const struct axfs_build_summary *
axfs_build_summary(const struct axfs_build_result *res);
void axfs_build_result_free(struct axfs_build_result *res);

#endif
