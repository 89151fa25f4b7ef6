// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * fsck.c - the image checker's core: the check table, reporting, memory
 * accounting, zlib, table access, the SHA-1 digest (computed on a second
 * thread while the structure is checked) and the order of the phases.
 *
 * Phases: fsck_super.c (superblock, descriptors, regions, counts, bytes
 * that belong to nothing), fsck_tree.c (inodes, names, directories),
 * fsck_data.c (nodes, XIP pages, cblocks, byte-aligned data); the input
 * comes from fsck_input.c.  The image is only ever read.  Every field is
 * range-checked before use, and every allocation is sized from counts
 * bounded by bytes that exist and charged against a memory limit.
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
#include "fsck_internal.h"

/* ---- the check table ---------------------------------------------------- */

static const struct axfs_fsck_check check_table[FC_COUNT] = {
#define FSCK_ROW(e, id, sev, sum) [FC_##e] = { id, AXFS_FSCK_##sev, sum },
	FSCK_CHECKS(FSCK_ROW)
#undef FSCK_ROW
};

const struct axfs_fsck_check *axfs_fsck_checks(size_t *count)
{
	if (count)
		*count = FC_COUNT;
	return check_table;
}

const char *axfs_fsck_severity_name(enum axfs_fsck_severity s)
{
	switch (s) {
	case AXFS_FSCK_NOTICE:
		return "notice";
	case AXFS_FSCK_WARNING:
		return "warning";
	case AXFS_FSCK_ERROR:
		return "error";
	}
	return "error";
}

void axfs_fsck_opts_init(struct axfs_fsck_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->deep = 1;
	o->digest = 1;
}

const char *fsck_region_name(enum axfs_region r)
{
	return axfs_format_region_name(r);
}

/* ---- reporting ---------------------------------------------------------- */

int fsck_stopped(struct fsck *f)
{
	if (!f->stop && f->o->cancel && *f->o->cancel)
		f->stop = 1;
	return f->stop;
}

void fsck_report(struct fsck *f, enum fsck_check c, uint64_t off,
		 uint64_t ino, const char *fmt, ...)
{
	struct axfs_fsck_finding fd;
	char msg[2048];
	va_list ap;

	if (f->stop)
		return;
	fd.severity = check_table[c].severity;
	switch (fd.severity) {
	case AXFS_FSCK_ERROR:
		f->res->errors++;
		break;
	case AXFS_FSCK_WARNING:
		f->res->warnings++;
		break;
	case AXFS_FSCK_NOTICE:
		f->res->notices++;
		break;
	}
	f->per_check[c]++;
	if (f->o->per_check_limit && f->per_check[c] > f->o->per_check_limit)
		return;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	fd.check = check_table[c].id;
	fd.offset = off;
	fd.ino = ino;
	fd.path = ino != FSCK_NO_INO ? fsck_path(f, ino) : NULL;
	fd.message = msg;
	if (f->o->report && f->o->report(f->o->report_ctx, &fd))
		f->stop = 1;
}

/* Tells how many findings of each kind the per-check limit held back. */
static void report_suppressed(struct fsck *f)
{
	for (int c = 0; c < FC_COUNT && !f->stop; c++) {
		struct axfs_fsck_finding fd;
		char msg[128];
		uint64_t lim = f->o->per_check_limit;

		if (!lim || f->per_check[c] <= lim)
			continue;
		snprintf(msg, sizeof(msg),
			 "%llu more findings of this kind are not shown",
			 (unsigned long long)(f->per_check[c] - lim));
		fd.severity = check_table[c].severity;
		fd.check = check_table[c].id;
		fd.offset = 0;
		fd.path = NULL;
		fd.ino = FSCK_NO_INO;
		fd.message = msg;
		if (f->o->report && f->o->report(f->o->report_ctx, &fd))
			f->stop = 1;
	}
}

void fsck_run_add(struct fsck *f, struct fsck_run *run, uint64_t item,
		  uint64_t off)
{
	if (run->open && item == run->last + 1) {
		run->last = item;
		return;
	}
	fsck_run_flush(f, run);
	run->open = 1;
	run->first = run->last = item;
	run->off = off;
}

void fsck_run_flush(struct fsck *f, struct fsck_run *run)
{
	if (!run->open)
		return;
	run->open = 0;
	if (run->first == run->last)
		fsck_report(f, run->check, run->off, FSCK_NO_INO,
			    "%s %llu: %s", run->what,
			    (unsigned long long)run->first, run->verb);
	else
		fsck_report(f, run->check, run->off, FSCK_NO_INO,
			    "%ss %llu..%llu (%llu): %s", run->what,
			    (unsigned long long)run->first,
			    (unsigned long long)run->last,
			    (unsigned long long)(run->last - run->first + 1),
			    run->verb);
}

void fsck_progress(struct fsck *f, uint64_t done, uint64_t total)
{
	if (f->o->progress)
		f->o->progress(f->o->progress_ctx, done, total);
}

/* ---- memory ------------------------------------------------------------- */

int fsck_mem_reserve(struct fsck *f, uint64_t bytes, uint64_t off,
		     const char *what)
{
	if (axfs__budget_take(&f->mem, bytes) < 0) {
		fsck_report(f, FC_LIMIT_MEMORY, off, FSCK_NO_INO,
			    "%s would need %llu bytes; %llu of the %llu-byte "
			    "limit are in use (if the image is trusted, raise "
			    "the limit with --max-memory)", what,
			    (unsigned long long)bytes,
			    (unsigned long long)f->mem.used,
			    (unsigned long long)f->mem.limit);
		return -1;
	}
	return 0;
}

void fsck_mem_release(struct fsck *f, uint64_t bytes)
{
	axfs__budget_give(&f->mem, bytes);
}

void *fsck_alloc(struct fsck *f, uint64_t nmemb, uint64_t size, uint64_t off,
		 const char *what)
{
	uint64_t bytes;
	void *p;

	if (__builtin_mul_overflow(nmemb, size, &bytes) || bytes > SIZE_MAX) {
		fsck_report(f, FC_LIMIT_MEMORY, off, FSCK_NO_INO,
			    "%s would need more than 2^64 bytes", what);
		return NULL;
	}
	if (fsck_mem_reserve(f, bytes, off, what) < 0)
		return NULL;
	p = calloc(1, bytes ? (size_t)bytes : 1);
	if (!p) {
		fsck_mem_release(f, bytes);
		fsck_report(f, FC_LIMIT_MEMORY, off, FSCK_NO_INO,
			    "%s: cannot allocate %llu bytes", what,
			    (unsigned long long)bytes);
	}
	return p;
}

void *fsck_try_alloc(struct fsck *f, uint64_t bytes)
{
	void *p;

	if (bytes > SIZE_MAX || axfs__budget_take(&f->mem, bytes) < 0)
		return NULL;
	p = malloc(bytes ? (size_t)bytes : 1);
	if (!p)
		axfs__budget_give(&f->mem, bytes);
	return p;
}

void fsck_free(struct fsck *f, void *p, uint64_t nmemb, uint64_t size)
{
	if (!p)
		return;
	free(p);
	fsck_mem_release(f, nmemb * size);
}

/* ---- zlib ------------------------------------------------------------- */

/*
 * Inflates the zlib stream src[0, slen) into dst[0, dcap).  FSCK_Z_OK: the
 * stream ended within dcap bytes (*out_len); FSCK_Z_OVER: it has more than
 * dcap bytes; FSCK_Z_TRUNC: the input ended first; FSCK_Z_BAD: not a valid
 * zlib stream (*msg).  *in_used is how much input the stream took.
 */
enum fsck_z fsck_inflate(z_stream *zs, const uint8_t *src, uint64_t slen,
			 uint8_t *dst, uint64_t dcap, uint64_t *out_len,
			 uint64_t *in_used, const char **msg)
{
	uint64_t in_left = slen, out_left = dcap;
	int ret;

	*msg = NULL;
	if (inflateReset(zs) != Z_OK) {
		*msg = "cannot reset zlib";
		return FSCK_Z_BAD;
	}
	zs->next_in = (Bytef *)(uintptr_t)src;
	zs->next_out = dst;
	for (;;) {
		uInt ai = in_left > (1u << 30) ? (1u << 30) : (uInt)in_left;
		uInt ao = out_left > (1u << 30) ? (1u << 30) : (uInt)out_left;
		uInt ai0 = ai, ao0 = ao;

		zs->avail_in = ai;
		zs->avail_out = ao;
		ret = inflate(zs, Z_NO_FLUSH);
		in_left -= ai0 - zs->avail_in;
		out_left -= ao0 - zs->avail_out;
		if (ret == Z_STREAM_END)
			break;
		if (ret == Z_NEED_DICT) {
			*msg = "the stream needs a preset dictionary";
			ret = Z_DATA_ERROR;
		}
		if (ret == Z_DATA_ERROR || ret == Z_STREAM_ERROR ||
		    ret == Z_MEM_ERROR) {
			if (!*msg)
				*msg = zs->msg ? zs->msg : "invalid stream";
			*out_len = dcap - out_left;
			*in_used = slen - in_left;
			return FSCK_Z_BAD;
		}
		/* Z_OK or Z_BUF_ERROR: no progress possible without room
		 * or input. */
		if (out_left == 0 && zs->avail_out == 0) {
			*out_len = dcap;
			*in_used = slen - in_left;
			return FSCK_Z_OVER;
		}
		if (in_left == 0 && zs->avail_in == 0 &&
		    (ret == Z_BUF_ERROR || zs->avail_out != 0)) {
			*out_len = dcap - out_left;
			*in_used = slen;
			return FSCK_Z_TRUNC;
		}
	}
	*out_len = dcap - out_left;
	*in_used = slen - in_left;
	return FSCK_Z_OK;
}

/* Word at a time: the deep check reads every padding byte. */
int fsck_first_nonzero(const uint8_t *p, uint64_t n, uint64_t *first)
{
	uint64_t i = 0;

	for (; n - i >= 64; i += 64) {
		uint64_t w[8];

		memcpy(w, p + i, sizeof(w));	/* no aliasing games */
		if (w[0] | w[1] | w[2] | w[3] | w[4] | w[5] | w[6] | w[7])
			break;
	}
	for (; i < n; i++)
		if (p[i]) {
			*first = i;
			return 1;
		}
	return 0;
}

/* ---- offsets -------------------------------------------------------------- */

uint64_t fsck_region_off(const struct fsck *f, enum axfs_region r,
			 uint64_t off)
{
	const struct fsck_region *R = &f->r[r];

	/* Bytes of a region stored compressed have no image offset of their
	 * own: name the start of its zlib stream. */
	if (R->compressed_size || off > UINT64_MAX - R->fsoffset)
		return R->fsoffset;
	return R->fsoffset + off;
}

uint64_t fsck_table_off(const struct fsck *f, enum axfs_region r, uint64_t i)
{
	uint64_t b;

	if (__builtin_mul_overflow(i, (uint64_t)f->r[r].depth, &b))
		return f->r[r].fsoffset;
	return fsck_region_off(f, r, b);
}

int fsck_table(struct fsck *f, enum axfs_region r, uint64_t i, uint64_t *v)
{
	struct fsck_region *R = &f->r[r];

	if (!R->table_ok || i >= R->entries) {
		*v = 0;
		return -1;
	}
	*v = axfs_bytetable_get(R->data, R->depth, i);
	return 0;
}

/* ---- the digest, computed beside the other checks ------------------------ */

#define DIGEST_THREAD_MIN (4u << 20)

struct digest_job {
	const uint8_t *img;
	uint64_t len;
	int mapped;
	volatile int *cancel;
	volatile int abort;
	uint8_t out[20];
	int done;
};

static void *digest_thread(void *arg)
{
	struct digest_job *j = arg;
	static const uint8_t zeros[AXFS_SB_DIGEST_LEN];
	SHA1_CTX c;
	uint64_t pos;

	SHA1Init(&c);
	SHA1Update(&c, j->img, AXFS_SB_DIGEST);
	SHA1Update(&c, zeros, sizeof(zeros));
	pos = AXFS_SB_DIGEST + AXFS_SB_DIGEST_LEN;
	while (pos < j->len) {
		uint64_t n = j->len - pos > (1u << 20) ? (1u << 20) :
			     j->len - pos;

		if (j->abort || (j->cancel && *j->cancel))
			return NULL;
		SHA1Update(&c, j->img + pos, (size_t)n);
		fsck_release_pages(j->img, j->mapped, pos, pos + n);
		pos += n;
	}
	SHA1Final(j->out, &c);
	j->done = 1;
	return NULL;
}

static void finish_digest(struct fsck *f, struct digest_job *j)
{
	const uint8_t *stored = f->img + AXFS_SB_DIGEST;

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
}

int fsck_run_image(const uint8_t *img, uint64_t len, int split,
		    uint64_t seg1_len, int is_device, int mapped,
		    const char *name,
		    const struct axfs_fsck_opts *o,
		    struct axfs_fsck_result *res, struct axfs_error *err)
{
	struct fsck *f;
	struct digest_job job;
	pthread_t tid;
	int have_thread = 0, rc = 0;

	memset(res, 0, sizeof(*res));
	res->image_size = len;
	f = calloc(1, sizeof(*f));
	if (!f)
		return axfs_error_set(err, AXFS_ERR_NOMEM, "out of memory");
	f->name = name;
	f->img = img;
	f->len = len;
	f->limit = len;
	f->split = split;
	f->seg1_len = seg1_len;
	f->is_device = is_device;
	f->mapped = mapped;
	f->o = o;
	f->res = res;
	/* Metadata, inflated, and a few bytes per node and location: a few
	 * times the image at most for anything mkfs writes. */
	f->mem.limit = o->max_memory ? o->max_memory :
		       axfs__budget_default(len);
	f->zs_ok = inflateInit(&f->zs) == Z_OK;
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
	if (fsck_check_superblock(f) < 0)
		goto out;
	fsck_check_digest_field(f);

	memset(&job, 0, sizeof(job));
	if (o->digest) {
		job.img = img;
		job.len = f->limit;
		job.mapped = f->mapped;
		job.cancel = o->cancel;
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
out:
	report_suppressed(f);
	if (fsck_stopped(f))
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
	uint8_t *joined;
	int rc;

	if (!o) {
		axfs_fsck_opts_init(&def);
		o = &def;
	}
	if (!name)
		name = "image";
	if (!store)
		return fsck_run_image(image, len, 0, 0, 0, 0, name, o, res,
				      err);
	if (len > SIZE_MAX - store_len)
		return axfs_error_set(err, AXFS_ERR_LIMIT, "'%s': the two "
				      "segments are too large", name);
	joined = malloc(len + store_len ? len + store_len : 1);
	if (!joined)
		return axfs_error_set(err, AXFS_ERR_NOMEM, "'%s': cannot "
				      "allocate %zu bytes to join the segments",
				      name, len + store_len);
	if (len)
		memcpy(joined, image, len);
	if (store_len)
		memcpy(joined + len, store, store_len);
	rc = fsck_run_image(joined, len + store_len, 1, len, 0, 0, name, o,
			    res, err);
	free(joined);
	return rc;
}

