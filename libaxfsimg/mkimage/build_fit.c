// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * build_fit.c - the pack and write stages of axfs_build(), made to fit an
 * mmap limit.
 *
 * With an mmap limit and an XIP budget, profiled XIP pages are dropped
 * (coldest first, by the planner) and the data packed again until the
 * memory-mapped part fits; pages asked for by --xip or the policy are
 * never dropped.  Without a budget an image that does not fit is an
 * error: the user asked for every profiled page.
 */
#include "internal.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* Planned XIP pages, and how many of them were asked for by --xip or the
 * policy (whole files, rules) rather than by a profile (suffix pages
 * follow profile pages and go with them). */
static void count_xip_pages(const struct tree *t, uint64_t *all,
			    uint64_t *asked)
{
	*all = *asked = 0;
	for (size_t i = 0; i < t->count; i++) {
		const struct tree_entry *e = t->by_ino[i];
		uint64_t n = (e->size + AXFS_PAGE_SIZE - 1) / AXFS_PAGE_SIZE;

		if (e->type != AXFS_FT_REG || !e->pages ||
		    (e->link_master && e->link_master != e))
			continue;
		for (uint64_t p = 0; p < n; p++) {
			if (!e->pages[p].xip)
				continue;
			(*all)++;
			if (e->pages[p].reason != TREE_WHY_PROFILE &&
			    e->pages[p].reason != TREE_WHY_SUFFIX)
				(*asked)++;
		}
	}
}

/*
 * The mapped part does not fit and no budget allows dropping pages: when
 * some XIP pages come from a profile, say how to let mkfs drop the
 * coldest of them instead of failing.
 */
static void hint_budget(const struct tree *t, struct axfs_error *err)
{
	uint64_t planned, asked;
	char msg[AXFS_ERROR_MSG_MAX];

	count_xip_pages(t, &planned, &asked);
	if (!err || planned == asked)
		return;
	snprintf(msg, sizeof(msg), "%s", err->msg);
	axfs_error_set(err, AXFS_ERR_LIMIT,
		       "%s; %llu of the XIP pages come from the profile: with an "
		       "XIP budget (--xip-budget or xip.budget) the coldest of "
		       "them are stored compressed until the rest fits", msg,
		       (unsigned long long)(planned - asked));
}

static int pack(const struct axfs_build_opts *o, struct tree *t,
		struct source *src, struct axfs_build_result *res,
		struct axfs_error *err)
{
	struct pack_opts po;

	memset(&po, 0, sizeof(po));
	po.cblock_size = res->block_size;
	po.compressor = res->compressor;
	po.level = res->level;
	po.jobs = o->jobs;
	po.tmpdir = o->tmpdir;
	po.log = o->log;
	po.progress = o->progress;
	po.progress_ctx = o->progress_ctx;
	po.cancel = o->cancel;
	memset(&res->packed, 0, sizeof(res->packed));
	res->packed.xip.fd = res->packed.byte_aligned.fd =
		res->packed.compressed.fd = -1;
	return pack_tree(t, src, &po, &res->packed, err);
}

int build_pack_and_write(const struct axfs_build_opts *o,
			 const struct plan_opts *plo, uint64_t mmap_limit,
			 struct source *src, struct outfile *of,
			 struct axfs_build_result *res, int *packed,
			 struct axfs_error *err)
{
	struct write_opts wo;
	int rc;

	rc = pack(o, &res->tree, src, res, err);
	if (rc < 0)
		return rc;
	*packed = 1;

	memset(&wo, 0, sizeof(wo));
	wo.timestamp = res->timestamp;
	wo.mmap_limit = mmap_limit;
	wo.compress_metadata = o->compress_metadata;
	wo.compressor = res->compressor;
	wo.level = res->level;
	wo.digest = 1;
	wo.log = o->log;
	/* The writer only has the descriptor: name the image. */
	wo.name = o->output;
	for (;;) {
		uint64_t planned, asked, over, keep, dropped;

		if ((rc = build_check_cancel(o, err)) < 0)
			return rc;
		rc = write_image(of->fd, &res->tree, &res->packed, &wo,
				 &res->layout, err);
		if (rc != AXFS_ERR_LIMIT || !mmap_limit ||
		    res->layout.mmap_size <= mmap_limit)
			return rc;
		/*
		 * The mapped part is too big.  With a budget, profiled pages
		 * are a wish within it: drop the coldest until it fits.
		 * Without one every profiled page was asked for, and pages
		 * that --xip or the policy asked for are a requirement: if
		 * they do not fit, fail and say by how much.
		 */
		if (!plo->has_budget) {
			hint_budget(&res->tree, err);
			return rc;
		}
		count_xip_pages(&res->tree, &planned, &asked);
		over = res->layout.mmap_size - mmap_limit;
		over = (over + AXFS_PAGE_SIZE - 1) / AXFS_PAGE_SIZE;
		keep = planned > over ? planned - over : 0;
		if (keep < asked)
			keep = asked;
		if (keep >= planned)
			return rc;
		dropped = plan_trim(&res->tree, keep);
		if (!dropped)
			return rc;
		/* A trim may leave a non-XIP page between XIP pages of a
		 * file: shrink those suffixes (only ever fewer pages, so
		 * the loop ends). */
		if (plo->xip_suffix)
			dropped += plan_trim_suffix(&res->tree);
		axfs_log(o->log, AXFS_LOG_WARN,
			 "the mmap limit of %llu bytes leaves no room for %llu "
			 "profiled XIP pages; they are stored compressed",
			 (unsigned long long)mmap_limit,
			 (unsigned long long)dropped);
		pack_free_packed(&res->packed);
		*packed = 0;
		if (ftruncate(of->fd, 0) < 0)
			return axfs_error_sys(err, errno, "cannot write '%s'",
					      of->final_path);
		rc = pack(o, &res->tree, src, res, err);
		if (rc < 0)
			return rc;
		*packed = 1;
	}
}
