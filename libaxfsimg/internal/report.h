/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * report.h - explains a built image: for every regular file how many
 * pages are XIP, compressed and byte-aligned and why, plus totals (XIP
 * bytes, compressed bytes, the flash cost of XIP and the RAM it saves),
 * as text, JSON, or an SVG picture.  Written to a stream the caller owns.
 */
#ifndef LIBAXFSIMG_INTERNAL_REPORT_H
#define LIBAXFSIMG_INTERNAL_REPORT_H

#include <stdio.h>
#include "stages.h"

struct report_file {
	const struct tree_entry *entry;
	char *path;
	uint64_t size, pages;
	uint64_t xip, compressed, byte_aligned;	/* pages of each type */
	uint64_t why[TREE_WHY_COUNT];		/* pages per reason */
	uint64_t profile_count;			/* sum over its XIP pages */
	uint64_t xip_deflated;			/* its XIP pages, compressed */
};

struct report {
	struct report_file *files;		/* regular files, path order */
	size_t nfiles;
	uint64_t xip_pages, compressed_pages, byte_aligned_pages;
	uint64_t xip_bytes;			/* XIP region size */
	uint64_t compressed_bytes;		/* compressed region size */
	uint64_t byte_aligned_bytes;
	uint64_t xip_deflated;			/* XIP pages if compressed */
	uint64_t xip_flash_cost;		/* xip_bytes - xip_deflated */
	uint64_t ram_saved;			/* profiled XIP pages * 4096 */
	uint64_t profiled_xip_pages;
	const struct axfs_build_result *res;
};

/*
 * Gathers the report.  The flash cost of XIP is measured, not guessed: the
 * XIP pages of each file are read back from `image` and deflated in
 * cblock-sized runs with the build's compressor and level, as the packer
 * would have.
 */
int report_build(struct report *r,
		 const struct axfs_build_result *res, const char *image,
		 struct axfs_error *err);
int report_write_text(const struct report *r, FILE *f);
int report_write_json(const struct report *r, FILE *f);
int report_write_svg(const struct report *r, FILE *f);
void report_free(struct report *r);

#endif
