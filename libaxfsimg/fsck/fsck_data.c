// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * fsck_data.c - file data: node ranges (shared only whole), node types and
 * indexes, XIP pages, byte-aligned pages, cnodes and cblocks.
 *
 * Work is organised by storage location, not by file: each node is checked
 * once however many hard links share it, and each cblock is inflated once
 * (the deep check) however many pages it holds.  So the time is bounded by
 * the size of the image, not by what its tables claim.
 */
#include <stdlib.h>
#include <string.h>

#include "fsck_deep.h"

static int cmp_range(const void *a, const void *b)
{
	const struct fsck_range *x = a, *y = b;

	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	if (x->count != y->count)
		return x->count < y->count ? -1 : 1;
	if (x->ino != y->ino)
		return x->ino < y->ino ? -1 : 1;
	return 0;
}

static int cmp_loc(const void *a, const void *b)
{
	const struct fsck_loc *x = a, *y = b;

	if (x->off != y->off)
		return x->off < y->off ? -1 : 1;
	if (x->idx != y->idx)
		return x->idx < y->idx ? -1 : 1;
	return 0;
}

/* ---- node ranges ------------------------------------------------------- */

/*
 * Files may share nodes only whole (hard links, identical files): same
 * first node, same count, same size.  Returns with need[] filled for every
 * node of every file.
 */
static void check_ranges(struct fsck_data *d)
{
	struct fsck *f = d->f;
	uint64_t reach = 0;	/* nodes below this are in an earlier range */
	size_t i;

	if (d->nranges > 1)
		qsort(d->ranges, d->nranges, sizeof(*d->ranges), cmp_range);
	for (i = 0; i < d->nranges && !fsck_stopped(f); i++) {
		const struct fsck_range *r = &d->ranges[i];

		if (i > 0) {
			const struct fsck_range *p = &d->ranges[i - 1];

			if (r->start == p->start && r->count == p->count) {
				if (r->size != p->size ||
				    r->symlink != p->symlink)
					fsck_report(f, FC_NODE_OVERLAP,
						    fsck_table_off(f,
						    AXFS_R_INODE_ARRAY_INDEX,
						    r->ino), r->ino, "shares "
						    "nodes %llu..%llu with inode "
						    "%llu, but has size %llu, not "
						    "%llu",
						    (unsigned long long)r->start,
						    (unsigned long long)(r->start +
									 r->count - 1),
						    (unsigned long long)p->ino,
						    (unsigned long long)r->size,
						    (unsigned long long)p->size);
				continue;	/* same nodes: checked once */
			}
			if (r->start < reach)
				fsck_report(f, FC_NODE_OVERLAP,
					    fsck_table_off(f,
					    AXFS_R_INODE_ARRAY_INDEX, r->ino),
					    r->ino, "nodes %llu..%llu partly "
					    "overlap those of another file "
					    "(up to node %llu)",
					    (unsigned long long)r->start,
					    (unsigned long long)(r->start +
								 r->count - 1),
					    (unsigned long long)(reach - 1));
		}
		/*
		 * Only the nodes beyond every earlier range are filled in:
		 * overlapping ranges (reported above) would otherwise make
		 * this quadratic.  Such a range is marked and skipped later.
		 */
		d->ranges[i].overlaps = r->start < reach;
		for (uint64_t p = r->start < reach ? reach - r->start : 0;
		     p < r->count; p++) {
			uint64_t left = r->size - p * AXFS_PAGE_SIZE;
			uint16_t need = (uint16_t)(left < AXFS_PAGE_SIZE ?
						   left : AXFS_PAGE_SIZE);

			if (r->symlink)
				need |= NEED_SYMLINK;
			d->need[r->start + p] = need;
		}
		if (r->start + r->count > reach)
			reach = r->start + r->count;
		f->res->nodes += r->count;
	}
}

/* ---- nodes -------------------------------------------------------------- */

/* A node that needs a whole page of data, not a tail or a symlink. */
static int full_page(uint16_t need)
{
	return NEED_BYTES(need) == AXFS_PAGE_SIZE && !(need & NEED_SYMLINK);
}

static void claim(struct fsck *f, uint64_t *owner, uint16_t *need_arr,
		  uint64_t idx, uint64_t node, uint16_t need,
		  enum fsck_check shared, const char *what, uint64_t ino)
{
	if (owner[idx] && need_arr && full_page(need) &&
	    full_page(need_arr[idx])) {
		/* Two full pages with the same bytes: mkfs stores such a
		 * page once and points both nodes at it. */
	} else if (owner[idx]) {
		fsck_report(f, shared, fsck_table_off(f, AXFS_R_NODE_INDEX,
						      node), ino,
			    "node %llu uses %s %llu, also used by node %llu",
			    (unsigned long long)node, what,
			    (unsigned long long)idx,
			    (unsigned long long)(owner[idx] - 1));
	} else {
		owner[idx] = node + 1;
	}
	if (need_arr && NEED_ALL(need) > NEED_ALL(need_arr[idx]))
		need_arr[idx] = need;
}

/* Node N (of inode INO) points at entry IDX of something COUNT long:
 * reports it when outside, in words like "XIP page 9, outside the XIP
 * region (4 pages)". */
static int index_inside(struct fsck *f, uint64_t n, uint64_t ino,
			uint64_t idx, uint64_t count, const char *what,
			const char *where, const char *units)
{
	if (idx < count)
		return 1;
	fsck_report(f, FC_NODE_INDEX, fsck_table_off(f, AXFS_R_NODE_INDEX, n),
		    ino, "node %llu is %s %llu, outside the %s (%llu %s)",
		    (unsigned long long)n, what, (unsigned long long)idx,
		    where, (unsigned long long)count, units);
	return 0;
}

static void check_nodes(struct fsck_data *d)
{
	struct fsck *f = d->f;
	struct fsck_run unused = { .check = FC_NODE_UNUSED, .what = "node",
				   .verb = "used by no file" };

	for (uint64_t n = 0; n < f->n_nodes && !fsck_stopped(f); n++) {
		uint64_t type, idx, ino;
		uint16_t need = d->need[n];

		if (!need) {
			fsck_run_add(f, &unused, n,
				     fsck_table_off(f, AXFS_R_NODE_TYPE, n));
			continue;
		}
		f->nodes_end = n + 1;
		ino = fsck_owner_of(d, n);
		if (fsck_table(f, AXFS_R_NODE_TYPE, n, &type) < 0 ||
		    fsck_table(f, AXFS_R_NODE_INDEX, n, &idx) < 0)
			continue;
		switch (type) {
		case AXFS_NODE_XIP:
			/* A region or table that is unusable has been
			 * reported; its nodes are not checked against it. */
			if (!f->r[AXFS_R_XIP].usable)
				break;
			if (!index_inside(f, n, ino, idx, f->xip_pages,
					  "XIP page", "XIP region", "pages"))
				break;
			if (d->xip_node)
				claim(f, d->xip_node, NULL, idx, n, need,
				      FC_XIP_SHARED, "XIP page", ino);
			break;
		case AXFS_NODE_COMPRESSED:
			if (!f->r[AXFS_R_CNODE_INDEX].table_ok ||
			    !f->r[AXFS_R_CNODE_OFFSET].table_ok)
				break;
			if (!index_inside(f, n, ino, idx, f->n_cnodes,
					  "cnode", "cnode tables", "cnodes"))
				break;
			if (d->cnode_node)
				claim(f, d->cnode_node, d->cnode_need, idx, n,
				      need, FC_CNODE_SHARED, "cnode", ino);
			break;
		case AXFS_NODE_BYTE_ALIGNED:
			if (!f->r[AXFS_R_BANODE_OFFSET].table_ok)
				break;
			if (!index_inside(f, n, ino, idx, f->n_banodes,
					  "banode", "banode table", "banodes"))
				break;
			if (d->banode_node)
				claim(f, d->banode_node, d->banode_need, idx, n,
				      need, FC_BANODE_SHARED, "banode", ino);
			break;
		default:
			fsck_report(f, FC_NODE_TYPE,
				    fsck_table_off(f, AXFS_R_NODE_TYPE, n), ino,
				    "node %llu has type %llu (0 XIP, 1 "
				    "compressed, 2 byte-aligned)",
				    (unsigned long long)n,
				    (unsigned long long)type);
			break;
		}
	}
	fsck_run_flush(f, &unused);
}

/*
 * An unaligned read() that starts in an XIP page and runs into the next
 * page returns XIP bytes for that page whatever its type (the driver
 * picks the read path from the first page of each chunk).
 */
static void check_xip_order(struct fsck_data *d)
{
	struct fsck *f = d->f;

	for (size_t i = 0; i < d->nranges && !fsck_stopped(f); i++) {
		const struct fsck_range *r = &d->ranges[i];
		uint64_t prev = 3, t;

		if (r->overlaps || (i > 0 && r->start == d->ranges[i - 1].start &&
				    r->count == d->ranges[i - 1].count))
			continue;
		for (uint64_t p = 0; p < r->count; p++) {
			if (fsck_table(f, AXFS_R_NODE_TYPE, r->start + p, &t) < 0)
				break;
			if (prev == AXFS_NODE_XIP && t != AXFS_NODE_XIP &&
			    t < AXFS_NODE_TYPE_COUNT) {
				fsck_report(f, FC_NODE_XIP_ORDER,
					    fsck_table_off(f, AXFS_R_NODE_TYPE,
							   r->start + p), r->ino,
					    "page %llu is XIP and page %llu is "
					    "not: on the 2008 driver an unaligned "
					    "read() across them returns XIP bytes "
					    "for page %llu",
					    (unsigned long long)(p - 1),
					    (unsigned long long)p,
					    (unsigned long long)p);
				break;
			}
			prev = t;
		}
	}
}

static void check_target_direct(struct fsck *f, const uint8_t *p,
				uint64_t avail, uint16_t need, uint64_t off,
				uint64_t ino)
{
	struct fsck_sink s = { .f = f, .direct = 1 };

	fsck_check_target(&s, p, avail, need, off, 1, ino);
}

/* ---- XIP pages ------------------------------------------------------------ */

static void check_xip(struct fsck_data *d)
{
	struct fsck *f = d->f;
	struct fsck_run unused = { .check = FC_XIP_UNUSED, .what = "XIP page",
				   .verb = "used by no node" };

	if (!d->xip_node)
		return;
	for (uint64_t pg = 0; pg < f->xip_pages && !fsck_stopped(f); pg++) {
		uint64_t node = d->xip_node[pg], first, ino;
		uint16_t need;
		const uint8_t *p;
		uint64_t off = fsck_region_off(f, AXFS_R_XIP,
					       pg * AXFS_PAGE_SIZE);

		if (!node) {
			fsck_run_add(f, &unused, pg, off);
			continue;
		}
		node--;
		need = d->need[node];
		ino = fsck_owner_of(d, node);
		/* Both are page contents: read only with --deep. */
		if (!f->o->deep)
			continue;
		p = fsck_region_view(f, AXFS_R_XIP, pg * AXFS_PAGE_SIZE,
				     AXFS_PAGE_SIZE);
		if (!p)
			break;
		check_target_direct(f, p, AXFS_PAGE_SIZE, need, off, ino);
		if (NEED_ALL(need) < AXFS_PAGE_SIZE &&
		    fsck_first_nonzero(p + NEED_ALL(need),
			    AXFS_PAGE_SIZE - NEED_ALL(need), &first))
			fsck_report(f, FC_XIP_TAIL, off + NEED_ALL(need) + first,
				    ino, "XIP page %llu: bytes after the end of "
				    "the file are not zero (mmap shows them)",
				    (unsigned long long)pg);
		f->res->data_bytes += NEED_BYTES(need);
	}
	fsck_run_flush(f, &unused);
}

/* ---- byte-aligned pages ------------------------------------------------ */

static void check_banodes(struct fsck_data *d)
{
	struct fsck *f = d->f;
	struct fsck_region *B = &f->r[AXFS_R_BYTE_ALIGNED];
	struct fsck_run unused = { .check = FC_BANODE_UNUSED,
				   .what = "banode", .verb = "used by no node" };
	struct fsck_loc *locs;
	uint64_t nloc = 0, end = 0, first;

	if (!d->banode_node || !B->usable)
		return;
	locs = fsck_alloc(f, f->n_banodes, sizeof(*locs),
			  f->r[AXFS_R_BANODE_OFFSET].desc_off,
			  "the byte-aligned page list");
	for (uint64_t j = 0; j < f->n_banodes && !fsck_stopped(f); j++) {
		uint64_t ofs, node = d->banode_node[j], ino;
		uint16_t need = d->banode_need[j];

		if (!node) {
			fsck_run_add(f, &unused, j, fsck_table_off(f,
				     AXFS_R_BANODE_OFFSET, j));
			continue;
		}
		ino = fsck_owner_of(d, node - 1);
		if (fsck_table(f, AXFS_R_BANODE_OFFSET, j, &ofs) < 0)
			continue;
		if (ofs > B->size || NEED_BYTES(need) > B->size - ofs) {
			fsck_report(f, FC_BANODE_RANGE,
				    fsck_table_off(f, AXFS_R_BANODE_OFFSET, j),
				    ino, "banode %llu: %u bytes at offset %llu do "
				    "not fit in the byte-aligned region (%llu "
				    "bytes)", (unsigned long long)j,
				    NEED_BYTES(need), (unsigned long long)ofs,
				    (unsigned long long)B->size);
			continue;
		}
		if (f->o->deep && (need & NEED_SYMLINK)) {
			/* The target and the byte after it, if there. */
			uint64_t avail = B->size - ofs < NEED_BYTES(need) + 1u ?
					 B->size - ofs : NEED_BYTES(need) + 1u;
			const uint8_t *p = fsck_region_view(f,
					AXFS_R_BYTE_ALIGNED, ofs, avail);

			if (!p)
				break;
			check_target_direct(f, p, avail, need,
				     fsck_region_off(f, AXFS_R_BYTE_ALIGNED, ofs),
				     ino);
		}
		f->res->data_bytes += NEED_BYTES(need);
		if (locs) {
			locs[nloc].off = ofs;
			locs[nloc].idx = j;
			nloc++;
		}
	}
	fsck_run_flush(f, &unused);
	if (!locs)
		goto out;

	/* Pages must not overlap; bytes between them must be zero. */
	if (nloc > 1)
		qsort(locs, (size_t)nloc, sizeof(*locs), cmp_loc);
	for (uint64_t i = 0; i < nloc && !fsck_stopped(f); i++) {
		uint64_t j = locs[i].idx, ofs = locs[i].off;
		uint64_t len = NEED_ALL(d->banode_need[j]);

		if (ofs < B->size && len > B->size - ofs)
			len = B->size - ofs;	/* a symlink without NUL */

		if (ofs < end) {
			fsck_report(f, FC_BANODE_OVERLAP,
				    fsck_table_off(f, AXFS_R_BANODE_OFFSET, j),
				    fsck_owner_of(d, d->banode_node[j] - 1),
				    "banode %llu (bytes %llu..%llu) overlaps "
				    "the page before it (up to byte %llu)",
				    (unsigned long long)j, (unsigned long long)ofs,
				    (unsigned long long)(ofs + len - 1),
				    (unsigned long long)(end - 1));
		} else if (f->o->deep && ofs > end &&
			   fsck_scan_nonzero(f, AXFS_R_BYTE_ALIGNED, end,
					     ofs - end, &first)) {
			fsck_report(f, FC_BA_SLACK, fsck_region_off(f,
				    AXFS_R_BYTE_ALIGNED, end + first),
				    FSCK_NO_INO, "byte-aligned bytes %llu..%llu "
				    "belong to no page and are not zero",
				    (unsigned long long)end,
				    (unsigned long long)(ofs - 1));
		}
		if (ofs + len > end)
			end = ofs + len;
	}
	if (f->o->deep && end < B->size && !fsck_stopped(f) &&
	    fsck_scan_nonzero(f, AXFS_R_BYTE_ALIGNED, end, B->size - end,
			      &first))
		fsck_report(f, FC_BA_SLACK, fsck_region_off(f,
			    AXFS_R_BYTE_ALIGNED, end + first), FSCK_NO_INO,
			    "byte-aligned bytes %llu..%llu belong to no page "
			    "and are not zero", (unsigned long long)end,
			    (unsigned long long)(B->size - 1));
	/* mkfs ends the region with its last page: a longer size, even
	 * over zeros, is a changed descriptor.  Only when every banode is
	 * placed, else the unused ones hold the rest. */
	if (nloc == f->n_banodes && end < B->size)
		fsck_report(f, FC_BA_UNUSED, fsck_region_off(f,
			    AXFS_R_BYTE_ALIGNED, end), FSCK_NO_INO,
			    "byte-aligned bytes %llu..%llu follow the last "
			    "page", (unsigned long long)end,
			    (unsigned long long)(B->size - 1));
out:
	fsck_free(f, locs, f->n_banodes, sizeof(*locs));
}

/* ---- cnodes and cblocks ------------------------------------------------ */

/* Static cblock checks: offsets, lengths, the end of the region. */
static int check_cblock_table(struct fsck_data *d, uint64_t c, uint64_t *start,
			      uint64_t *len)
{
	struct fsck *f = d->f;
	struct fsck_region *Z = &f->r[AXFS_R_COMPRESSED];
	uint64_t a, b;

	if (fsck_table(f, AXFS_R_CBLOCK_OFFSET, c, &a) < 0 ||
	    fsck_table(f, AXFS_R_CBLOCK_OFFSET, c + 1, &b) < 0)
		return -1;
	if (c == 0 && a != 0)
		fsck_report(f, FC_CBLOCK_ORDER,
			    fsck_table_off(f, AXFS_R_CBLOCK_OFFSET, 0),
			    FSCK_NO_INO, "the first cblock starts at offset "
			    "%llu, not 0", (unsigned long long)a);
	if (b <= a) {
		fsck_report(f, FC_CBLOCK_ORDER,
			    fsck_table_off(f, AXFS_R_CBLOCK_OFFSET, c + 1),
			    FSCK_NO_INO, "cblock %llu ends at offset %llu, not "
			    "after its start %llu", (unsigned long long)c,
			    (unsigned long long)b, (unsigned long long)a);
		return -1;
	}
	if (b > Z->size) {
		fsck_report(f, FC_CBLOCK_RANGE,
			    fsck_table_off(f, AXFS_R_CBLOCK_OFFSET, c + 1),
			    FSCK_NO_INO, "cblock %llu ends at offset %llu, "
			    "beyond the compressed region (%llu bytes)",
			    (unsigned long long)c, (unsigned long long)b,
			    (unsigned long long)Z->size);
		return -1;
	}
	if (f->cblock_ok && b - a > f->cblock_size) {
		fsck_report(f, FC_CBLOCK_TOO_LONG,
			    fsck_table_off(f, AXFS_R_CBLOCK_OFFSET, c + 1),
			    FSCK_NO_INO, "cblock %llu is %llu bytes compressed, "
			    "more than cblock_size %u (the driver overflows "
			    "its buffer)", (unsigned long long)c,
			    (unsigned long long)(b - a), f->cblock_size);
		return -1;
	}
	*start = a;
	*len = b - a;
	return 0;
}

static void check_cnodes(struct fsck_data *d)
{
	struct fsck *f = d->f;
	struct fsck_region *Z = &f->r[AXFS_R_COMPRESSED];
	struct fsck_run unused = { .check = FC_CNODE_UNUSED, .what = "cnode",
				   .verb = "used by no node" };
	struct fsck_run cb_unused = { .check = FC_CBLOCK_UNUSED,
				      .what = "cblock",
				      .verb = "used by no cnode" };
	uint64_t *first = NULL;	/* per cblock: start in locs */
	struct fsck_loc *locs = NULL;
	uint8_t *valid = NULL;
	uint64_t nc = f->n_cblocks, last_end = 0;
	int table_ok = 1;

	if (!d->cnode_node)
		return;
	first = fsck_alloc(f, nc + 1, sizeof(*first),
			   f->r[AXFS_R_CBLOCK_OFFSET].desc_off,
			   "the cblock list");
	locs = fsck_alloc(f, f->n_cnodes ? f->n_cnodes : 1, sizeof(*locs),
			  f->r[AXFS_R_CNODE_INDEX].desc_off,
			  "the cnode list");
	if (!first || !locs)
		goto out;

	/* Pass 1: validate each used cnode and count per cblock. */
	for (uint64_t j = 0; j < f->n_cnodes && !fsck_stopped(f); j++) {
		uint64_t c, off, ino;
		uint16_t need = d->cnode_need[j];

		if (!d->cnode_node[j]) {
			fsck_run_add(f, &unused, j, fsck_table_off(f,
				     AXFS_R_CNODE_INDEX, j));
			continue;
		}
		ino = fsck_owner_of(d, d->cnode_node[j] - 1);
		if (fsck_table(f, AXFS_R_CNODE_INDEX, j, &c) < 0 ||
		    fsck_table(f, AXFS_R_CNODE_OFFSET, j, &off) < 0) {
			d->cnode_node[j] = 0;
			continue;
		}
		if (c >= nc) {
			fsck_report(f, FC_CNODE_CBLOCK,
				    fsck_table_off(f, AXFS_R_CNODE_INDEX, j),
				    ino, "cnode %llu is in cblock %llu, but there "
				    "are %llu cblocks", (unsigned long long)j,
				    (unsigned long long)c,
				    (unsigned long long)nc);
			d->cnode_node[j] = 0;
			continue;
		}
		if (f->cblock_ok && (off > f->cblock_size ||
				     NEED_BYTES(need) > f->cblock_size - off)) {
			fsck_report(f, FC_CNODE_OFFSET,
				    fsck_table_off(f, AXFS_R_CNODE_OFFSET, j),
				    ino, "cnode %llu: %u bytes at offset %llu do "
				    "not fit in a %u-byte cblock",
				    (unsigned long long)j, NEED_BYTES(need),
				    (unsigned long long)off, f->cblock_size);
			d->cnode_node[j] = 0;
			continue;
		}
		first[c]++;
	}
	fsck_run_flush(f, &unused);
	/* Counting sort of the used cnodes by cblock. */
	{
		uint64_t sum = 0;

		for (uint64_t c = 0; c <= nc; c++) {
			uint64_t k = first[c];

			first[c] = sum;
			sum += k;
		}
		for (uint64_t j = 0; j < f->n_cnodes; j++) {
			uint64_t c, off;

			if (!d->cnode_node[j])
				continue;
			fsck_table(f, AXFS_R_CNODE_INDEX, j, &c);
			fsck_table(f, AXFS_R_CNODE_OFFSET, j, &off);
			locs[first[c]].off = off;
			locs[first[c]].idx = j;
			first[c]++;
		}
		/* first[c] is now the end of cblock c's run. */
		for (uint64_t c = nc; c > 0; c--)
			first[c] = first[c - 1];
		first[0] = 0;
	}

	/* Pass 2: the cblock table, and the pages of each cblock sorted by
	 * offset for the deep pass. */
	valid = fsck_alloc(f, nc ? nc : 1, 1, f->r[AXFS_R_CBLOCK_OFFSET].desc_off,
			   "the cblock list");
	for (uint64_t c = 0; c < nc && valid && !fsck_stopped(f); c++) {
		uint64_t start, clen, n = first[c + 1] - first[c];

		if (n == 0)
			fsck_run_add(f, &cb_unused, c, fsck_table_off(f,
				     AXFS_R_CBLOCK_OFFSET, c));
		if (check_cblock_table(d, c, &start, &clen) < 0) {
			table_ok = 0;
			continue;
		}
		valid[c] = 1;
		last_end = start + clen;
		if (n > 1)
			qsort(locs + first[c], (size_t)n, sizeof(*locs),
			      cmp_loc);
	}
	fsck_run_flush(f, &cb_unused);
	if (valid && f->o->deep && f->cblock_ok && Z->usable && !fsck_stopped(f))
		fsck_deep_cblocks(d, nc, first, locs, valid);
	if (Z->usable)
		fsck_progress(f, Z->size, Z->size);
	if (table_ok && !fsck_stopped(f) && f->r[AXFS_R_CBLOCK_OFFSET].table_ok
	    && last_end < Z->size)
		fsck_report(f, FC_COMPRESSED_UNUSED,
			    fsck_region_off(f, AXFS_R_COMPRESSED, last_end),
			    FSCK_NO_INO, "compressed bytes %llu..%llu follow the "
			    "last cblock", (unsigned long long)last_end,
			    (unsigned long long)(Z->size - 1));
out:
	fsck_free(f, valid, nc ? nc : 1, 1);
	fsck_free(f, first, nc + 1, sizeof(*first));
	fsck_free(f, locs, f->n_cnodes ? f->n_cnodes : 1, sizeof(*locs));
}

/* The claim lists of one node kind (cnodes, banodes): the node that
 * claims each entry and what it needs, both or neither (the checks read
 * them together; without them that kind is not checked). */
static void alloc_claims(struct fsck *f, uint64_t n, uint64_t desc_off,
			 const char *what, uint64_t **node, uint16_t **need)
{
	*node = fsck_alloc(f, n, sizeof(**node), desc_off, what);
	*need = fsck_alloc(f, n, sizeof(**need), desc_off, what);
	if (!*need) {
		fsck_free(f, *node, n, sizeof(**node));
		*node = NULL;
	}
}

void fsck_check_data(struct fsck *f)
{
	struct fsck_data d;

	memset(&d, 0, sizeof(d));
	d.f = f;
	d.ranges = f->ranges;
	d.nranges = f->nranges;
	if (!f->r[AXFS_R_NODE_TYPE].table_ok ||
	    !f->r[AXFS_R_NODE_INDEX].table_ok) {
		axfs_log(f->o->log, AXFS_LOG_INFO, "%s: node tables unusable: "
			 "file data not checked", f->name);
		return;
	}
	d.need = fsck_alloc(f, f->n_nodes ? f->n_nodes : 1, sizeof(*d.need),
			    f->r[AXFS_R_NODE_TYPE].desc_off, "the node list");
	if (!d.need)
		return;
	if (f->xip_pages)
		d.xip_node = fsck_alloc(f, f->xip_pages, sizeof(uint64_t),
					f->r[AXFS_R_XIP].desc_off,
					"the XIP page list");
	if (f->r[AXFS_R_CNODE_INDEX].table_ok &&
	    f->r[AXFS_R_CNODE_OFFSET].table_ok && f->n_cnodes)
		alloc_claims(f, f->n_cnodes, f->r[AXFS_R_CNODE_INDEX].desc_off,
			     "the cnode list", &d.cnode_node, &d.cnode_need);
	if (f->r[AXFS_R_BANODE_OFFSET].table_ok && f->n_banodes)
		alloc_claims(f, f->n_banodes,
			     f->r[AXFS_R_BANODE_OFFSET].desc_off,
			     "the banode list", &d.banode_node, &d.banode_need);

	check_ranges(&d);
	if (!fsck_stopped(f)) {
		check_nodes(&d);
		f->nodes_end_known = !fsck_stopped(f);
	}
	if (!fsck_stopped(f))
		check_xip_order(&d);
	if (!fsck_stopped(f))
		check_xip(&d);
	if (!fsck_stopped(f))
		check_banodes(&d);
	if (!fsck_stopped(f) && f->r[AXFS_R_CBLOCK_OFFSET].table_ok)
		check_cnodes(&d);

	fsck_free(f, d.need, f->n_nodes ? f->n_nodes : 1, sizeof(*d.need));
	fsck_free(f, d.xip_node, f->xip_pages, sizeof(uint64_t));
	fsck_free(f, d.cnode_node, f->n_cnodes, sizeof(uint64_t));
	fsck_free(f, d.cnode_need, f->n_cnodes, sizeof(uint16_t));
	fsck_free(f, d.banode_node, f->n_banodes, sizeof(uint64_t));
	fsck_free(f, d.banode_need, f->n_banodes, sizeof(uint16_t));
}
