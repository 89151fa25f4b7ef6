// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * fsck.c - the image checker's orchestrator: the input (fsck_input.c),
 * the SHA-1 digest (computed on a second thread while the structure is
 * checked) and the phases in the order fsck_run_image() calls them:
 * fsck_super.c (superblock, digest field, descriptors, regions, page
 * shift, counts), fsck_tree.c (inodes, names, directories), fsck_data.c
 * (nodes, XIP pages, byte-aligned data, cnodes; --deep inflates every
 * cblock in fsck_deep.c; both make their findings through fsck_sink.c),
 * fsck_super.c again (cblocks, bytes that belong
 * to nothing).  The phases call only the helpers: fsck_report.c (the
 * check table, findings), fsck_alloc.c (memory), fsck_tables.c (zlib,
 * offsets, table entries), fsck_path.c (names and paths of inodes); none
 * calls back into this file or into a phase.  The image is
 * only ever read.  Every field is range-checked before use, and every
 * allocation is sized from counts bounded by bytes that exist and charged
 * against a memory limit.
 */
#include <pthread.h>
#include <sha1.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "axfs_error.h"
#include "axfs_format.h"
#include "axfs_fsck.h"
#include "internal.h"

void axfs_fsck_opts_init(struct axfs_fsck_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->struct_size = sizeof(*o);
	o->deep = 1;
	o->digest = 1;
}

/* ---- the digest, computed beside the other checks ------------------------ */

#define DIGEST_THREAD_MIN (4u << 20)

struct digest_job {
	const struct fsck_src *src;
	const uint8_t *sb;	/* the superblock, read */
	struct fsck_window win;	/* this thread's reads */
	uint64_t len;
	volatile int *cancel;
	volatile int abort;
	uint8_t out[20];
	int done;
	int rc;			/* a read failed, at byte bad */
	uint64_t bad;
};

static void *digest_thread(void *arg)
{
	struct digest_job *j = arg;
	static const uint8_t zeros[AXFS_SB_DIGEST_LEN];
	SHA1_CTX c;
	uint64_t pos;

	SHA1Init(&c);
	SHA1Update(&c, j->sb, AXFS_SB_DIGEST);
	SHA1Update(&c, zeros, sizeof(zeros));
	pos = AXFS_SB_DIGEST + AXFS_SB_DIGEST_LEN;
	while (pos < j->len) {
		uint64_t n = j->len - pos > j->win.cap ? j->win.cap :
			     j->len - pos;
		const uint8_t *p;

		if (j->abort || (j->cancel && *j->cancel))
			return NULL;
		p = fsck_src_view(j->src, &j->win, pos, n, &j->rc, &j->bad);
		if (!p)
			return NULL;
		SHA1Update(&c, p, (size_t)n);
		pos += n;
	}
	SHA1Final(j->out, &c);
	j->done = 1;
	return NULL;
}

static void finish_digest(struct fsck *f, struct digest_job *j)
{
	const uint8_t *stored = f->sb + AXFS_SB_DIGEST;

	if (j->rc < 0)
		fsck_read_failed(f, j->rc, j->bad);
	if (!j->done)
		return;
	memcpy(f->res->digest_sha1, j->out, 20);
	if (fsck_all_zero(stored, AXFS_SB_DIGEST_LEN)) {
		f->res->digest = AXFS_FSCK_DIGEST_NONE;
		fsck_report(f, FC_DIGEST_NONE, AXFS_SB_DIGEST, FSCK_NO_INO,
			    "the image has no digest (all 40 bytes are zero); "
			    "corruption of file data cannot be detected");
		return;
	}
	if (memcmp(stored, j->out, 20) == 0) {
		f->res->digest = AXFS_FSCK_DIGEST_OK;
		return;
	}
	f->res->digest = AXFS_FSCK_DIGEST_MISMATCH;
	{
		char a[41], b[41];

		for (int i = 0; i < 20; i++) {
			snprintf(a + 2 * i, 3, "%02x", stored[i]);
			snprintf(b + 2 * i, 3, "%02x", j->out[i]);
		}
		fsck_report(f, FC_DIGEST_MISMATCH, AXFS_SB_DIGEST, FSCK_NO_INO,
			    "SHA-1 digest %s does not match the image (%s)",
			    a, b);
	}
}

/* ---- the whole check ---------------------------------------------------- */

static void fsck_free_all(struct fsck *f)
{
	fsck_tree_free(f);
	fsck_path_free(f);
	for (int r = 0; r < AXFS_REGION_COUNT; r++) {
		if (f->r[r].owned) {
			free(f->r[r].owned);
			fsck_mem_release(f, f->r[r].size);
		}
		f->r[r].owned = NULL;
		f->r[r].data = NULL;
	}
	if (f->zs_ok)
		inflateEnd(&f->zs);
	f->zs_ok = 0;
	free(f->win.buf);
	f->win.buf = NULL;
}

/* Checks the image src holds; split: two segments, the first seg1_len
 * bytes long. */
static int fsck_run_image(const struct fsck_src *src, int split,
			  int is_device, const char *name,
			  const struct axfs_fsck_opts *o,
			  struct axfs_fsck_result *res,
			  struct axfs_error *err)
{
	struct fsck *f;
	struct digest_job job;
	pthread_t tid;
	uint64_t len = src->len[0] + src->len[1], bad = 0;
	int have_thread = 0, rc = 0;

	memset(res, 0, sizeof(*res));
	res->image_size = len;
	f = calloc(1, sizeof(*f));
	if (!f)
		return axfs_error_set(err, AXFS_ERR_NOMEM, "out of memory");
	f->name = name;
	f->src = *src;
	f->len = len;
	f->limit = len;
	f->split = split;
	f->seg1_len = split ? src->len[0] : 0;
	f->is_device = is_device;
	f->err = err;
	f->o = o;
	f->res = res;
	/* Metadata, inflated, and a few bytes per node and location: a few
	 * times the image at most for anything mkfs writes. */
	f->mem.limit = o->max_memory ? o->max_memory :
		       budget_default(len);
	f->zs_ok = inflateInit(&f->zs) == Z_OK;
	f->win.cap = FSCK_WINDOW_SIZE;
	if (!f->zs_ok) {
		free(f);
		return axfs_error_set(err, AXFS_ERR_NOMEM,
				      "cannot initialise zlib");
	}

	if (len < AXFS_SUPER_SIZE) {
		fsck_report(f, FC_IMAGE_SHORT, 0, FSCK_NO_INO,
			    "the image is %llu bytes, shorter than the %u-byte "
			    "superblock", (unsigned long long)len,
			    AXFS_SUPER_SIZE);
		goto out;
	}
	rc = fsck_src_read(&f->src, 0, f->sb, len > AXFS_SUPER_SIZE ?
			   AXFS_SUPER_SIZE + 1 : AXFS_SUPER_SIZE, &bad);
	if (rc < 0) {
		fsck_read_failed(f, rc, bad);
		goto out;
	}
	if (fsck_check_superblock(f) < 0)
		goto out;
	fsck_check_digest_field(f);

	memset(&job, 0, sizeof(job));
	if (o->digest && !fsck_stopped(f)) {
		job.src = &f->src;
		job.sb = f->sb;
		job.len = f->limit;
		job.cancel = o->cancel;
		job.win.cap = FSCK_WINDOW_SIZE;
		/* A thread pays off only beside real work. */
		if (f->limit >= DIGEST_THREAD_MIN &&
		    pthread_create(&tid, NULL, digest_thread, &job) == 0)
			have_thread = 1;
		else
			digest_thread(&job);
	}

	fsck_read_descriptors(f);
	fsck_check_regions(f);
	fsck_check_page_shift(f);
	fsck_load_regions(f);
	fsck_check_counts(f);
	if (!fsck_stopped(f))
		fsck_check_tree(f);
	if (!fsck_stopped(f))
		fsck_check_share(f);
	if (!fsck_stopped(f))
		fsck_check_data(f);
	if (!fsck_stopped(f))
		fsck_check_blocks(f);
	if (!fsck_stopped(f))
		fsck_check_slack(f);

	if (have_thread) {
		if (fsck_stopped(f))
			job.abort = 1;
		pthread_join(tid, NULL);
	}
	if (o->digest && !fsck_stopped(f))
		finish_digest(f, &job);
	free(job.win.buf);
out:
	fsck_report_suppressed(f);
	if (f->read_rc)
		rc = f->read_rc;
	else if (fsck_stopped(f))
		rc = axfs_error_set(err, AXFS_ERR_INTERRUPTED,
				    "checking '%s' was interrupted", name);
	fsck_free_all(f);
	free(f);
	return rc;
}

int axfs_fsck_buffer(const void *image, size_t len, const void *store,
		     size_t store_len, const char *name,
		     const struct axfs_fsck_opts *o,
		     struct axfs_fsck_result *res, struct axfs_error *err)
{
	struct axfs_fsck_opts def;
	struct fsck_src src = { .fd = { -1, -1 } };
	int rc;

	if (!o) {
		axfs_fsck_opts_init(&def);
		o = &def;
	}
	if ((rc = opts_size_check(o->struct_size, sizeof(*o),
				  "axfs_fsck_buffer", err)) < 0)
		return rc;
	if (!name)
		name = "image";
	src.mem[0] = len ? image : (const uint8_t *)"";
	src.len[0] = len;
	if (store) {
		src.mem[1] = store_len ? store : (const uint8_t *)"";
		src.len[1] = store_len;
	}
	return fsck_run_image(&src, store != NULL, 0, name, o, res, err);
}

/* One segment: read with pread(), or in memory. */
static void input_segment(struct fsck_src *src, int i,
			  const struct fsck_input *in, uint64_t len)
{
	src->fd[i] = in->fd;
	src->mem[i] = in->use_fd ? NULL : in->p ? in->p :
		      (const uint8_t *)"";
	src->len[i] = len;
}

/* The image in a file, a device or a stream (fsck_input.c), then checked
 * through its reads. */
int axfs_fsck_file(const char *path, const char *store_path,
		   const struct axfs_fsck_opts *o, struct axfs_fsck_result *res,
		   struct axfs_error *err)
{
	struct axfs_fsck_opts def;
	struct fsck_input a, b;
	struct fsck_src src = { .fd = { -1, -1 } };
	uint64_t a_len;
	int rc;

	if (!o) {
		axfs_fsck_opts_init(&def);
		o = &def;
	}
	memset(res, 0, sizeof(*res));
	if ((rc = opts_size_check(o->struct_size, sizeof(*o),
				  "axfs_fsck_file", err)) < 0)
		return rc;
	rc = fsck_input_open(&a, path, err);
	if (rc < 0)
		return rc;
	rc = fsck_input_load(&a, o->max_memory, err);
	if (rc < 0) {
		fsck_input_close(&a);
		return rc;
	}
	if (!store_path) {
		input_segment(&src, 0, &a, a.len);
		rc = fsck_run_image(&src, 0, a.is_device, a.name, o, res, err);
		fsck_input_close(&a);
		return rc;
	}
	/* A split image: two segments, read where they are. */
	a_len = a.len;
	rc = fsck_input_open(&b, store_path, err);
	if (rc == 0)
		rc = fsck_input_load(&b, o->max_memory, err);
	/* An mmap segment on a device (a NOR partition) ends at mmap_size;
	 * the rest of the partition is not part of the image. */
	if (rc == 0 && a.is_device && a.len >= AXFS_SUPER_SIZE) {
		uint8_t sb[AXFS_SUPER_SIZE];
		uint64_t bad;

		input_segment(&src, 0, &a, a.len);
		rc = fsck_src_read(&src, 0, sb, sizeof(sb), &bad);
		if (rc < 0)
			rc = axfs_error_sys(err, -rc, "cannot read '%s'",
					    a.name);
		else if (get_unaligned_be32(sb + AXFS_SB_MAGIC) == AXFS_MAGIC) {
			uint64_t m = get_unaligned_be64(sb + AXFS_SB_MMAP_SIZE);

			if (m >= AXFS_SUPER_SIZE && m < a.len)
				a_len = m;
		}
	}
	if (rc == 0) {
		input_segment(&src, 0, &a, a_len);
		input_segment(&src, 1, &b, b.len);
		rc = fsck_run_image(&src, 1, 0, a.name, o, res, err);
	}
	fsck_input_close(&a);
	fsck_input_close(&b);
	return rc;
}
