// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Fuzz target: the fsck engine.  The input is checked as a whole image
 * (deep: every cblock inflated, every page read; digest verified), and,
 * when its superblock's mmap_size falls inside the input, once more as a
 * split image cut there, the way `axfs split` cuts it.  Every byte of
 * every finding is touched so that a dangling path or message shows up
 * under ASan.  Findings and errors are expected; crashes, hangs, leaks
 * and sanitizer reports are bugs.
 */
#include <stdint.h>
#include <stddef.h>
#include <string.h>

#include "axfs_format.h"
#include "axfs_fsck.h"
#include "fuzz.h"

struct sink {
	uint64_t bytes;		/* keeps the reads from being optimised out */
	uint64_t count;
};

static int report(void *ctx, const struct axfs_fsck_finding *f)
{
	struct sink *s = ctx;

	s->count++;
	s->bytes += strlen(f->check) + strlen(f->message) + f->offset +
		    (unsigned)f->severity;
	if (f->path)
		s->bytes += strlen(f->path) + f->ino;
	/* Inputs with very many findings stop early: exercises the
	 * interrupted path as well as the complete one. */
	return s->count > 5000;
}

static void run(const uint8_t *img, size_t len, const uint8_t *store,
		size_t store_len, uint64_t limit)
{
	struct axfs_fsck_opts o;
	struct axfs_fsck_result res;
	struct axfs_error err;
	struct sink s = { 0, 0 };

	axfs_fsck_opts_init(&o);
	o.report = report;
	o.report_ctx = &s;
	o.per_check_limit = limit;
	/* A small memory cap: a hostile count must fail cleanly rather
	 * than make the fuzzer run out of memory. */
	o.max_memory = 64u << 20;
	memset(&res, 0, sizeof(res));
	axfs_fsck_buffer(img, len, store, store_len, "fuzz", &o, &res, &err);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint64_t mmap_size;

	run(data, size, NULL, 0, (size & 1) ? 3 : 0);
	if (size >= AXFS_SB_MMAP_SIZE + 8) {
		mmap_size = get_unaligned_be64(data + AXFS_SB_MMAP_SIZE);
		if (mmap_size > 0 && mmap_size < size)
			run(data, (size_t)mmap_size, data + mmap_size,
			    size - (size_t)mmap_size, 0);
	}
	return 0;
}
