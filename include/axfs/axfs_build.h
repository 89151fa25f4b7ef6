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

#include <stdint.h>
#include "axfs_tree.h"
#include "axfs_stages.h"
#include "axfs_policy.h"
#include "axfs_profile.h"

struct axfs_build_opts {
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
};

/* Everything a report needs once the image exists. */
struct axfs_build_result {
	struct axfs_tree tree;
	struct axfs_packed packed;
	struct axfs_layout layout;
	struct axfs_plan_stats plan;
	uint32_t block_size;
	enum axfs_compressor compressor;	/* never DEFAULT */
	int level;
	int64_t timestamp;
	unsigned int lossy;		/* union of enum axfs_lossy seen */
};

void axfs_build_opts_init(struct axfs_build_opts *o);
int axfs_build(const struct axfs_build_opts *o, struct axfs_build_result *res,
	       struct axfs_error *err);
void axfs_build_result_free(struct axfs_build_result *res);

/* Atomic output helpers (also used by split and merge-profile). */
struct axfs_outfile {
	char *final_path;
	char *tmp_path;
	int fd;
};
/* "-" is standard output (an unlinked temporary file copied out by
 * commit; refused when standard output is a terminal). */
int axfs_outfile_open(struct axfs_outfile *of, const char *path,
		      struct axfs_error *err);
/* fsync, rename over final_path. */
int axfs_outfile_commit(struct axfs_outfile *of, struct axfs_error *err);
/* Close and unlink the temporary file (safe to call twice). */
void axfs_outfile_abort(struct axfs_outfile *of);
/* Async-signal-safe: unlink every temporary file still open. */
void axfs_outfile_abort_all_signal_safe(void);

#endif
