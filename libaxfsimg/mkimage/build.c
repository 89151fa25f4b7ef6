// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * build.c - the whole mkfs pipeline, each stage in its own file
 * (mkimage/internal.h):
 *
 *   source -> tree -> policy and owners (build_policy.c) -> finalize
 *          -> plan -> pack and write, fitted to the mmap limit
 *             (build_fit.c), to a temporary file beside the output
 *             (outfile.c) -> pad -> fsync + rename
 *
 * Any failure removes the temporary file and leaves an existing output
 * untouched.
 */
#include "internal.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* ---- options ------------------------------------------------------------ */

void axfs_build_opts_init(struct axfs_build_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->struct_size = sizeof(*o);
	o->all_root = -1;
	o->xip_suffix = -1;
	o->strict_profile = -1;
	o->pad_byte = -1;
	o->force_uid = -1;
	o->force_gid = -1;
	o->compress_metadata = -1;
}

static int source_is_directory(const char *path)
{
	struct stat st;

	return path && strcmp(path, "-") && stat(path, &st) == 0 &&
	       S_ISDIR(st.st_mode);
}

/* --mtime, else the policy, else SOURCE_DATE_EPOCH, else the source's own
 * time (an image's timestamp), else now; *is_now says it came to that. */
static int resolve_timestamp(const struct axfs_build_opts *o,
			     const struct axfs_policy *pol,
			     const struct source *src, int64_t *ts,
			     int *is_now, struct axfs_error *err)
{
	const char *sde = getenv("SOURCE_DATE_EPOCH");

	if (o->has_timestamp) {
		*ts = o->timestamp;
	} else if (pol && pol->has_timestamp) {
		*ts = pol->timestamp;
	} else if (sde && *sde) {
		char *end;
		long long v;

		errno = 0;
		v = strtoll(sde, &end, 10);
		if (errno || *end || v < 0 || *sde == '+' || *sde == '-')
			return axfs_error_set(err, AXFS_ERR_INVALID,
				"SOURCE_DATE_EPOCH='%s' is not a number of "
				"seconds since 1970", sde);
		*ts = v;
	} else if (src && src->has_timestamp) {
		*ts = src->timestamp;
	} else {
		*ts = (int64_t)time(NULL);
		*is_now = 1;
	}
	return 0;
}

/* ---- the pipeline ------------------------------------------------------- */

static void clear_mtime_lossy(struct tree_entry *e, void *ctx)
{
	(void)ctx;
	e->lossy &= ~(unsigned int)SOURCE_LOSSY_MTIME;
}

/* Reads every entry into t; *shared_mtime gets the time every entry has,
 * or -1 when they differ (or there are none). */
static int read_source(const struct axfs_build_opts *o,
		       struct source *src, struct tree *t,
		       int64_t ts, int64_t *shared_mtime,
		       struct axfs_error *err)
{
	struct source_entry ent;
	struct build_exclude x;
	int64_t first_mtime = 0;
	int have_first = 0, all_same = 1;
	int rc;

	if ((rc = build_exclude_init(&x, o, err)) < 0)
		return rc;
	for (;;) {
		rc = src->ops->next(src, &ent, err);
		if (rc <= 0)
			break;
		if (build_exclude_test(&x, ent.path, o->log)) {
			free(ent.data.host_path);
			continue;
		}
		/* The data of a hard link is its target's: with the target
		 * left out there is nothing to link to. */
		if (ent.hardlink_to &&
		    build_exclude_test(&x, ent.hardlink_to, NULL)) {
			free(ent.data.host_path);
			rc = axfs_error_set(err, AXFS_ERR_INVALID, "'/%s' is a "
				"hard link to '/%s', which is excluded: "
				"exclude both or neither", ent.path,
				ent.hardlink_to);
			break;
		}
		/* Per-file times are lost unless every entry shares one
		 * time; the build decides, as only it knows the image
		 * timestamp. */
		ent.lossy &= ~(unsigned int)SOURCE_LOSSY_MTIME;
		if (ent.mtime != ts)
			ent.lossy |= SOURCE_LOSSY_MTIME;
		if (!have_first) {
			first_mtime = ent.mtime;
			have_first = 1;
		} else if (ent.mtime != first_mtime) {
			all_same = 0;
		}
		rc = tree_add(t, &ent, NULL, err);
		if (rc < 0) {
			free(ent.data.host_path);
			break;
		}
		if (o->cancel && *o->cancel) {
			rc = build_check_cancel(o, err);
			break;
		}
	}
	if (rc == 0)
		build_exclude_report(&x, o->log);
	build_exclude_free(&x);
	if (rc < 0)
		return rc;
	if (all_same && tree_for_each_entry(t, clear_mtime_lossy, NULL) < 0)
		return axfs_error_set(err, AXFS_ERR_NOMEM, "out of memory");
	*shared_mtime = have_first && all_same ? first_mtime : -1;
	return 0;
}

/*
 * Deepest directory nesting mkfs writes: what the axfs-tools reader walks
 * (its guard against cycles in hostile images), and far beyond what a
 * path of PATH_MAX bytes reaches on Linux.  The format itself has no
 * limit, so the tree library does not impose one.
 */
#define BUILD_MAX_DEPTH 4096

static int check_depth(const struct tree *t, struct axfs_error *err)
{
	uint32_t *depth = malloc(t->count * sizeof(*depth));
	char path[4200];

	if (!depth)
		return axfs_error_set(err, AXFS_ERR_NOMEM, "out of memory");
	/* Inodes are numbered breadth-first: parents come first. */
	depth[0] = 0;
	for (size_t i = 1; i < t->count; i++) {
		const struct tree_entry *e = t->by_ino[i];

		depth[i] = depth[e->parent->ino] + 1;
		if (depth[i] > BUILD_MAX_DEPTH) {
			free(depth);
			tree_entry_path(e->parent, path, sizeof(path));
			return axfs_error_set(err, AXFS_ERR_LIMIT,
				"'%.200s...' is nested more than %d directories "
				"deep, more than axfs-tools reads", path,
				BUILD_MAX_DEPTH);
		}
	}
	free(depth);
	return 0;
}

/*
 * The compressor and the level: each from the command line, else the
 * policy, else the default.  A level from the policy that the compressor
 * does not take (the command line may have chosen zlib) is named by its
 * place in the policy file.
 */
static int resolve_compression(const struct axfs_build_opts *o,
			       const struct axfs_policy *pol,
			       struct axfs_build_result *res,
			       struct axfs_error *err)
{
	char where[256];

	res->compressor = axfs_compressor_resolve(
		o->compressor ? o->compressor :
		pol ? pol->compressor : AXFS_COMPRESSOR_DEFAULT);
	if (o->level) {
		res->level = o->level;
		return axfs_compressor_check_level(res->compressor, res->level,
						   NULL, err);
	}
	if (!pol || pol->level <= 0) {
		res->level = AXFS_DEFAULT_LEVEL;
		return 0;
	}
	res->level = pol->level;
	snprintf(where, sizeof(where), "%s:%zu:%zu: compression.level: ",
		 pol->file ? pol->file : "policy", pol->level_pos.line,
		 pol->level_pos.column);
	return axfs_compressor_check_level(res->compressor, res->level, where,
					   err);
}

/*
 * --pad / pad.size: fill the file up to a partition's size, as mkfs.jffs2
 * --pad does, with 0xff for erased NOR/NAND.  The image stays `size` bytes
 * long (the driver and fsck stop there); only the file grows.
 */
static int pad_output(const struct axfs_build_opts *o,
		      const struct axfs_policy *pol, struct outfile *of,
		      uint64_t image_size, struct axfs_error *err)
{
	uint64_t pad = o->pad_size ? o->pad_size : pol ? pol->pad_size : 0;
	int byte = o->pad_byte >= 0 ? o->pad_byte :
		   pol && pol->pad_byte >= 0 ? pol->pad_byte : 0;
	uint8_t buf[65536];
	uint64_t pos = image_size;

	if (!pad)
		return 0;
	if (pad < image_size)
		return axfs_error_set(err, AXFS_ERR_LIMIT, "the image is %llu "
				      "bytes, larger than the %llu bytes to "
				      "pad it to", (unsigned long long)image_size,
				      (unsigned long long)pad);
	memset(buf, byte, sizeof(buf));
	while (pos < pad) {
		size_t n = pad - pos < sizeof(buf) ? (size_t)(pad - pos) :
			   sizeof(buf);
		ssize_t w = pwrite(of->fd, buf, n, (off_t)pos);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return axfs_error_sys(err, w < 0 ? errno : ENOSPC,
					      "cannot write '%s'", o->output);
		pos += (uint64_t)w;
	}
	return 0;
}

static int build_run(const struct axfs_build_opts *o,
		     struct axfs_build_result *res, struct axfs_error *err)
{
	const struct axfs_policy *pol = o->policy;
	struct outfile of = { NULL, NULL, -1, 0 };
	struct source *src = NULL;
	struct source_opts so;
	struct plan_opts plo;
	const char *excl[2];
	uint64_t mmap_limit;
	int64_t shared_mtime = -1;
	int packed = 0, ts_is_now = 0;
	int rc;

	memset(res, 0, sizeof(*res));
	res->packed.xip.fd = res->packed.byte_aligned.fd =
		res->packed.compressed.fd = -1;

	/* Settings: command line, else policy, else defaults. */
	res->block_size = o->block_size ? o->block_size :
			  pol && pol->block_size ? pol->block_size :
			  AXFS_DEFAULT_BLOCK_SIZE;
	if (!AXFS_CBLOCK_SIZE_OK(res->block_size))
		return axfs_error_set(err, AXFS_ERR_INVALID,
			"block size %u is not a power of two from 4 KiB to "
			"1 MiB", res->block_size);
	rc = resolve_compression(o, pol, res, err);
	if (rc < 0)
		return rc;
	mmap_limit = o->mmap_limit ? o->mmap_limit :
		     pol ? pol->mmap_limit : 0;

	/* Create the output first: an unwritable place fails at once. */
	rc = outfile_open(&of, o->output, err);
	if (rc < 0)
		return rc;

	memset(&so, 0, sizeof(so));
	so.n_exclude_host_paths = 0;
	if (of.tmp_path) {	/* not standard output */
		excl[so.n_exclude_host_paths++] = o->output;
		/* An unnamed temporary file is in no directory listing. */
		if (!of.unnamed)
			excl[so.n_exclude_host_paths++] = of.tmp_path;
	}
	so.log = o->log;
	so.exclude_host_paths = excl;
	so.tmpdir = o->tmpdir;
	so.store_path = o->source_store;
	rc = source_open(&src, o->source, &so, err);
	/* the files a policy takes from the host are read by a layer over
	 * the source, whatever the source is */
	if (rc == 0 && build_policy_has_host_files(pol))
		rc = source_host_wrap(&src, err);
	if (rc < 0)
		goto fail;
	rc = resolve_timestamp(o, pol, src, &res->timestamp, &ts_is_now, err);
	if (rc < 0)
		goto fail;

	rc = tree_init(&res->tree, o->log, err);
	if (rc < 0)
		goto fail;
	if ((rc = read_source(o, src, &res->tree, res->timestamp,
			      &shared_mtime, err)) < 0 ||
	    (rc = build_apply_policy(o, &res->tree, err)) < 0)
		goto fail;
	/* An archive whose entries all have one time, as `axfs extract --tar`
	 * writes (every entry has the image's timestamp), gives that time
	 * rather than now, so that extract --tar | mkfs - gives the image
	 * back byte for byte.  A directory keeps now: its root's time moves
	 * with every change inside. */
	if (ts_is_now && shared_mtime >= 0 && !source_is_directory(o->source))
		res->timestamp = shared_mtime;
	rc = tree_finalize(&res->tree, err);
	if (rc == 0)
		rc = check_depth(&res->tree, err);
	if (rc == 0 && (rc = build_check_holes(o, &res->tree, err)) < 0)
		goto fail;
	if (rc < 0) {
		/* What the tree refuses comes from the source: name it. */
		if (err) {
			char msg[AXFS_ERROR_MSG_MAX];

			snprintf(msg, sizeof(msg), "%s", err->msg);
			axfs_error_set(err, rc, "'%s': %s", o->source, msg);
		}
		goto fail;
	}
	if ((rc = build_check_cancel(o, err)) < 0)
		goto fail;
	rc = build_report_lossy(&res->tree, o, &res->lossy, err);
	if (rc < 0)
		goto fail;

	/* Which pages are XIP.  The policy's xip.files were applied to the
	 * entries (want_xip) by policy_apply; --xip globs go here. */
	memset(&plo, 0, sizeof(plo));
	plo.xip_globs = o->xip_globs;
	plo.n_xip_globs = o->n_xip_globs;
	plo.profile = o->profile;
	if (pol) {
		plo.xip_exclude = (const char *const *)pol->xip_exclude;
		plo.n_xip_exclude = pol->n_xip_exclude;
		plo.min_count = pol->xip_min_count;
	}
	if (o->has_budget) {
		plo.has_budget = 1;
		plo.budget = o->budget;
	} else if (pol && pol->has_xip_budget) {
		plo.has_budget = 1;
		plo.budget = pol->xip_budget;
	}
	plo.xip_suffix = o->xip_suffix >= 0 ? o->xip_suffix :
			 pol && pol->xip_suffix >= 0 ? pol->xip_suffix : 0;
	plo.strict_profile = o->strict_profile >= 0 ? o->strict_profile :
			     pol && pol->strict_profile >= 0 ?
			     pol->strict_profile : 0;
	plo.log = o->log;
	rc = plan_tree(&res->tree, &plo, &res->plan, err);
	if (rc < 0)
		goto fail;

	rc = build_pack_and_write(o, &plo, mmap_limit, src, &of, res, &packed,
				  err);
	if (rc == 0)
		rc = build_check_readers(o, res, err);
	if (rc < 0)
		goto fail;
	/* The 2008 driver looks for the trailing magic at (u32)(size - 4). */
	if (res->layout.image_size - 4 > UINT32_MAX)
		axfs_log(o->log, AXFS_LOG_WARN,
			 "the image is %llu bytes: the 2008 AXFS driver checks "
			 "its end at a 32-bit offset and will refuse to mount "
			 "images of 4 GiB or more (the axfs-tools module reads "
			 "them)", (unsigned long long)res->layout.image_size);
	if ((rc = build_check_cancel(o, err)) < 0)
		goto fail;
	rc = pad_output(o, pol, &of, res->layout.image_size, err);
	if (rc < 0)
		goto fail;
	rc = outfile_commit(&of, err);
	if (rc < 0)
		goto fail;
	source_destroy(src);
	return 0;

fail:
	outfile_abort(&of);
	source_destroy(src);
	if (packed)
		pack_free_packed(&res->packed);
	tree_free(&res->tree);
	memset(res, 0, sizeof(*res));
	res->packed.xip.fd = res->packed.byte_aligned.fd =
		res->packed.compressed.fd = -1;
	return rc;
}

/* The counts a program gets without the internal headers. */
static void summarize(struct axfs_build_result *res)
{
	struct axfs_build_summary *s = &res->summary;
	const struct pack_result *p = &res->packed;
	uint64_t n[AXFS_NODE_TYPE_COUNT] = { 0 };

	s->image_size = res->layout.image_size;
	s->mmap_size = res->layout.mmap_size;
	s->inodes = res->tree.count;
	s->pages = p->nnodes;
	pack_node_count(p, n);
	s->xip_pages = n[AXFS_NODE_XIP];
	s->compressed_pages = n[AXFS_NODE_COMPRESSED];
	s->byte_aligned_pages = n[AXFS_NODE_BYTE_ALIGNED];
	s->cblocks = p->ncblocks;
	s->block_size = res->block_size;
	s->compressor = res->compressor;
	s->level = res->level;
	s->timestamp = res->timestamp;
}

int axfs_build(const struct axfs_build_opts *o, struct axfs_build_result **out,
	       struct axfs_error *err)
{
	struct axfs_build_result *res;
	int rc;

	if (out)
		*out = NULL;
	if (!o)
		return axfs_error_set(err, AXFS_ERR_INVALID,
				      "axfs_build: no options");
	if ((rc = opts_size_check(o->struct_size, sizeof(*o), "axfs_build",
				  err)) < 0)
		return rc;
	res = malloc(sizeof(*res));
	if (!res)
		return axfs_error_set(err, AXFS_ERR_NOMEM, "out of memory");
	rc = build_run(o, res, err);
	if (rc < 0) {
		free(res);
		return rc;
	}
	summarize(res);
	if (out)
		*out = res;
	else
		axfs_build_result_free(res);
	return 0;
}

const struct axfs_build_summary *
axfs_build_summary(const struct axfs_build_result *res)
{
	return &res->summary;
}

void axfs_build_result_free(struct axfs_build_result *res)
{
	if (!res)
		return;
	/* A packed result always has a cblock size; a failed or empty
	 * one was already released by build_run. */
	if (res->packed.cblock_size)
		pack_free_packed(&res->packed);
	tree_free(&res->tree);
	free(res);
}
