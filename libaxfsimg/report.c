// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * report.c - what mkfs decided for every page and what it costs.
 *
 * Counts come from the tree and the packer's node tables (the same data
 * the image was written from); reasons come from the planner's per-page
 * plan.  Totals count shared nodes (hard links, identical files) once.
 */
#include "report.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "axfs_format.h"
#include "deflater.h"
#include "json.h"
#include "text.h"

static int cmp_path(const void *a, const void *b)
{
	const struct report_file *x = a, *y = b;

	return strcmp(x->path, y->path);
}

/* Compressed size of `len` bytes as one stream; at most len (stored
 * byte-aligned, as the packer would). */
static uint64_t deflated_size(struct deflater *d, const uint8_t *buf,
			      size_t len, uint8_t *out, size_t out_cap)
{
	size_t n = deflater_run(d, buf, len, out, out_cap);

	return n && n < len ? n : len;
}

/*
 * Deflates the file's XIP pages in runs of up to cblock_size bytes of
 * consecutive XIP pages: what storing them compressed would have cost.
 */
static int measure_xip(struct report_file *f, const struct pack_result *p,
		       int fd, uint64_t xip_off, struct deflater *d,
		       uint8_t *run, uint8_t *out, size_t out_cap,
		       struct axfs_error *err)
{
	const struct tree_entry *e = f->entry;
	size_t fill = 0;

	for (uint64_t i = 0; i <= e->node_count; i++) {
		uint64_t node = e->first_node + i;
		int xip = i < e->node_count && node < p->nnodes &&
			  pack_node_type(p, node) == AXFS_NODE_XIP;

		if (xip && fill + AXFS_PAGE_SIZE <= p->cblock_size) {
			uint64_t off = xip_off + pack_node_index(p, node) *
						    AXFS_PAGE_SIZE;
			ssize_t n = pread(fd, run + fill, AXFS_PAGE_SIZE, (off_t)off);

			if (n != (ssize_t)AXFS_PAGE_SIZE)
				return axfs_error_sys(err, n < 0 ? errno : EIO,
					"cannot read XIP page at byte %llu",
					(unsigned long long)off);
			fill += AXFS_PAGE_SIZE;
			continue;
		}
		if (fill) {
			f->xip_deflated += deflated_size(d, run, fill, out,
							 out_cap);
			fill = 0;
		}
		if (xip)
			i--;	/* start a new run with this page */
	}
	return 0;
}

static uint64_t master_ino(const struct tree_entry *e)
{
	return e->link_master ? e->link_master->ino : e->ino;
}

/* 1 if node takes the cnode or banode of an earlier node (nodes are
 * visited in inode order, so the first to name a place stored it). */
static int shares_place(const struct pack_result *p, uint64_t node,
			uint64_t *first_cnode, uint64_t *first_banode)
{
	uint64_t s = pack_node_slot(p, node), i = p->slot_index[s], *first;

	if (p->slot_type[s] == AXFS_NODE_COMPRESSED && i < p->ncnodes)
		first = &first_cnode[i];
	else if (p->slot_type[s] == AXFS_NODE_BYTE_ALIGNED &&
		 i < p->nbanodes)
		first = &first_banode[i];
	else
		return 0;
	if (!*first)
		*first = node + 1;
	return *first != node + 1;
}

int report_build(struct report *r,
		 const struct axfs_build_result *res, const char *image,
		 struct axfs_error *err)
{
	const struct tree *t = &res->tree;
	const struct pack_result *p = &res->packed;
	size_t run_cap = p->cblock_size ? p->cblock_size : AXFS_PAGE_SIZE;
	size_t out_cap = deflater_bound(res->compressor, run_cap);
	uint8_t *seen = NULL, *run = NULL, *out = NULL;
	/* Per inode: a file whose node range an earlier, unlinked file
	 * stored (identical files: the packer records no reason for a
	 * file without a plan, see pack_dedup_share_file). */
	uint8_t *twin = NULL;
	/* The first node (+ 1) seen with each cnode and banode: a later
	 * node with the same place shares an earlier page ("dedup"; the
	 * packer records no reason per shared page, see pack_dedup.c). */
	uint64_t *first_cnode = NULL, *first_banode = NULL;
	struct deflater *d = NULL;
	int fd = -1, rc = AXFS_ERR_NOMEM;

	memset(r, 0, sizeof(*r));
	r->res = res;
	r->xip_bytes = p->xip_pages * AXFS_PAGE_SIZE;
	r->compressed_bytes = p->compressed.size;
	r->byte_aligned_bytes = p->byte_aligned.size;
	r->files = calloc(t->count ? t->count : 1, sizeof(*r->files));
	seen = calloc(p->nnodes ? p->nnodes : 1, 1);
	twin = calloc(t->count ? t->count : 1, 1);
	first_cnode = calloc(p->ncnodes ? p->ncnodes : 1, sizeof(uint64_t));
	first_banode = calloc(p->nbanodes ? p->nbanodes : 1, sizeof(uint64_t));
	run = malloc(run_cap);
	out = malloc(out_cap);
	d = deflater_new(res->compressor, res->level);
	if (!r->files || !seen || !twin || !first_cnode || !first_banode || !run ||
	    !out || !d)
		goto out;
	fd = open(image, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		rc = axfs_error_sys(err, errno, "cannot open '%s'", image);
		goto out;
	}
	/* Twins, in the packer's order (a group when its first entry comes):
	 * 1 stored its nodes, 2 took an earlier file's. */
	for (size_t ino = 0; ino < t->count; ino++) {
		const struct tree_entry *e = t->by_ino[ino];
		uint64_t m = master_ino(e);

		if (e->type != AXFS_FT_REG || twin[m])
			continue;
		e = t->by_ino[m];
		twin[m] = 1;
		if (!e->node_count || e->first_node >= p->nnodes)
			continue;
		if (seen[e->first_node])
			twin[m] = 2;
		seen[e->first_node] = 1;
	}
	memset(seen, 0, p->nnodes ? p->nnodes : 1);
	for (size_t ino = 0; ino < t->count; ino++) {
		const struct tree_entry *e = t->by_ino[ino];
		struct report_file *f;
		char path[8192];

		if (e->type != AXFS_FT_REG)
			continue;
		f = &r->files[r->nfiles];
		tree_entry_path(e, path, sizeof(path));
		f->path = strdup(path);
		if (!f->path) {
			rc = AXFS_ERR_NOMEM;
			goto out;
		}
		r->nfiles++;
		f->entry = e;
		f->size = e->size;
		f->pages = (e->size + AXFS_PAGE_SIZE - 1) / AXFS_PAGE_SIZE;
		for (uint64_t i = 0; i < e->node_count; i++) {
			uint64_t node = e->first_node + i;
			const struct tree_page_plan *pl = e->pages ? &e->pages[i] : NULL;
			int why = pl ? pl->reason :
				  pack_reason_of(p, master_ino(e), i);
			int first = 0;

			if (node >= p->nnodes)
				break;
			if (why == TREE_WHY_DEFAULT &&
			    (twin[master_ino(e)] == 2 ||
			    shares_place(p, node, first_cnode, first_banode)))
				why = TREE_WHY_DEDUP;
			if (!seen[node]) {
				seen[node] = 1;
				first = 1;
			}
			if (why < 0 || why >= TREE_WHY_COUNT)
				why = TREE_WHY_DEFAULT;
			f->why[why]++;
			switch (pack_node_type(p, node)) {
			case AXFS_NODE_XIP:
				f->xip++;
				if (pl)
					f->profile_count += pl->count;
				if (first) {
					r->xip_pages++;
					if (pl && pl->reason == TREE_WHY_PROFILE) {
						r->profiled_xip_pages++;
					}
				}
				break;
			case AXFS_NODE_COMPRESSED:
				f->compressed++;
				r->compressed_pages += first;
				break;
			default:
				f->byte_aligned++;
				r->byte_aligned_pages += first;
				break;
			}
		}
		if (f->xip) {
			rc = measure_xip(f, p, fd,
					 res->layout.fsoffset[AXFS_R_XIP], d,
					 run, out, out_cap, err);
			if (rc < 0)
				goto out;
			/* Shared nodes: count the cost of the first owner. */
			if (e->link_master == e || !e->link_master)
				r->xip_deflated += f->xip_deflated;
		}
	}
	qsort(r->files, r->nfiles, sizeof(*r->files), cmp_path);
	r->xip_flash_cost = r->xip_bytes > r->xip_deflated
			    ? r->xip_bytes - r->xip_deflated : 0;
	/* Every profiled page that is XIP is no longer copied into the page
	 * cache when it faults: it is mapped straight from flash. */
	r->ram_saved = r->profiled_xip_pages * AXFS_PAGE_SIZE;
	rc = 0;
out:
	if (rc == AXFS_ERR_NOMEM)
		axfs_error_set(err, rc, "out of memory building the report");
	if (fd >= 0)
		close(fd);
	free(seen);
	free(twin);
	free(first_cnode);
	free(first_banode);
	free(run);
	free(out);
	deflater_free(d);
	if (rc < 0)
		report_free(r);
	return rc;
}

void report_free(struct report *r)
{
	if (!r->files)
		return;
	for (size_t i = 0; i < r->nfiles; i++)
		free(r->files[i].path);
	free(r->files);
	r->files = NULL;
	r->nfiles = 0;
}

/* "xip-glob:3 budget:2" for a file's non-default reasons. */
static void why_list(const struct report_file *f, FILE *out, int json)
{
	int first = 1;

	for (int w = 0; w < TREE_WHY_COUNT; w++) {
		if (!f->why[w])
			continue;
		if (json)
			fprintf(out, "%s\"%s\": %llu", first ? "" : ", ",
				tree_page_reason_name(w),
				(unsigned long long)f->why[w]);
		else
			fprintf(out, "%s%s:%llu", first ? "" : " ",
				tree_page_reason_name(w),
				(unsigned long long)f->why[w]);
		first = 0;
	}
}

int report_write_text(const struct report *r, FILE *f)
{
	const struct axfs_build_result *res = r->res;

	fprintf(f, "# axfs mkfs report\n");
	fprintf(f, "image size:          %llu bytes\n",
		(unsigned long long)res->layout.image_size);
	fprintf(f, "block size:          %u\n", res->block_size);
	fprintf(f, "compressor:          %s %s, level %d\n",
		axfs_compressor_name(res->compressor),
		axfs_compressor_version(res->compressor), res->level);
	fprintf(f, "XIP pages:           %llu (%llu bytes)\n",
		(unsigned long long)r->xip_pages,
		(unsigned long long)r->xip_bytes);
	fprintf(f, "compressed pages:    %llu in %llu bytes of cblocks\n",
		(unsigned long long)r->compressed_pages,
		(unsigned long long)r->compressed_bytes);
	fprintf(f, "byte-aligned pages:  %llu in %llu bytes\n",
		(unsigned long long)r->byte_aligned_pages,
		(unsigned long long)r->byte_aligned_bytes);
	fprintf(f, "XIP flash cost:      %llu bytes (XIP pages %llu bytes, "
		"%llu bytes if compressed)\n",
		(unsigned long long)r->xip_flash_cost,
		(unsigned long long)r->xip_bytes,
		(unsigned long long)r->xip_deflated);
	/* XIP happens only where the kernel can map the image: physaddr=
	 * (NOR, RAM) or an MTD device with point(); a block device copies
	 * every page into the page cache, XIP or not. */
	fprintf(f, "RAM saved by XIP:    %llu bytes (%llu profiled pages "
		"mapped from flash instead of the page cache; only when "
		"mounted with physaddr= or from an MTD device with point(), "
		"never from a block device)\n",
		(unsigned long long)r->ram_saved,
		(unsigned long long)r->profiled_xip_pages);
	fprintf(f, "profile pages:       %llu read, %llu naming absent "
		"files, %llu not regular files, %llu past the end, "
		"%llu over budget, %llu excluded, %llu below min-count\n",
		(unsigned long long)res->plan.profile_pages,
		(unsigned long long)res->plan.profile_missing,
		(unsigned long long)res->plan.profile_not_regular,
		(unsigned long long)res->plan.profile_past_eof,
		(unsigned long long)res->plan.budget_dropped,
		(unsigned long long)res->plan.excluded,
		(unsigned long long)res->plan.below_min_count);
	fprintf(f, "\n%8s %8s %8s %8s  %-40s %s\n", "pages", "xip", "compr",
		"bytealn", "path", "why (pages per reason)");
	for (size_t i = 0; i < r->nfiles; i++) {
		const struct report_file *x = &r->files[i];

		/* The name escaped (text.h). */
		size_t n = strlen(x->path);
		char *esc = malloc(4 * n + 1);

		if (!esc)
			return -1;
		text_escape(esc, x->path, n);
		fprintf(f, "%8llu %8llu %8llu %8llu  %-40s ",
			(unsigned long long)x->pages,
			(unsigned long long)x->xip,
			(unsigned long long)x->compressed,
			(unsigned long long)x->byte_aligned, esc);
		free(esc);
		why_list(x, f, 0);
		if (x->xip)
			fprintf(f, " faults:%llu",
				(unsigned long long)x->profile_count);
		fputc('\n', f);
	}
	return ferror(f) ? -1 : 0;
}

/* One JSON object's members that are counts: "key": value, ... */
struct json_count {
	const char *key;
	uint64_t value;
};

static void json_counts(FILE *f, const struct json_count *c, size_t n)
{
	for (size_t i = 0; i < n; i++)
		fprintf(f, "%s\"%s\": %llu", i ? ", " : "", c[i].key,
			(unsigned long long)c[i].value);
}

int report_write_json(const struct report *r, FILE *f)
{
	const struct axfs_build_result *res = r->res;

	fprintf(f, "{\n  \"image_size\": %llu,\n  \"block_size\": %u,\n",
		(unsigned long long)res->layout.image_size, res->block_size);
	fprintf(f, "  \"compressor\": {\"name\": ");
	json_cstr(f, axfs_compressor_name(res->compressor));
	fprintf(f, ", \"version\": ");
	json_cstr(f, axfs_compressor_version(res->compressor));
	fprintf(f, ", \"level\": %d},\n", res->level);
	const struct json_count totals[] = {
		{ "xip_pages", r->xip_pages },
		{ "compressed_pages", r->compressed_pages },
		{ "byte_aligned_pages", r->byte_aligned_pages },
		{ "xip_bytes", r->xip_bytes },
		{ "compressed_bytes", r->compressed_bytes },
		{ "byte_aligned_bytes", r->byte_aligned_bytes },
		{ "xip_deflated_bytes", r->xip_deflated },
		{ "xip_flash_cost", r->xip_flash_cost },
		{ "ram_saved", r->ram_saved },
		{ "profiled_xip_pages", r->profiled_xip_pages },
	};
	const struct json_count profile[] = {
		{ "pages", res->plan.profile_pages },
		{ "missing", res->plan.profile_missing },
		{ "not_regular", res->plan.profile_not_regular },
		{ "past_eof", res->plan.profile_past_eof },
		{ "budget_dropped", res->plan.budget_dropped },
		{ "excluded", res->plan.excluded },
		{ "below_min_count", res->plan.below_min_count },
		{ "ranked", res->plan.ranked_pages },
		{ "ordered_pages", res->packed.ordered_pages },
		{ "ordered_cblocks", res->packed.ordered_cblocks },
	};
	fprintf(f, "  \"totals\": {");
	json_counts(f, totals, sizeof(totals) / sizeof(totals[0]));
	fprintf(f, "},\n  \"profile\": {");
	json_counts(f, profile, sizeof(profile) / sizeof(profile[0]));
	fprintf(f, "},\n");
	fprintf(f, "  \"files\": [");
	for (size_t i = 0; i < r->nfiles; i++) {
		const struct report_file *x = &r->files[i];

		fprintf(f, "%s\n    {\"path\": ", i ? "," : "");
		json_cstr(f, x->path);
		const struct json_count counts[] = {
			{ "size", x->size },
			{ "pages", x->pages },
			{ "xip", x->xip },
			{ "compressed", x->compressed },
			{ "byte_aligned", x->byte_aligned },
			{ "profile_count", x->profile_count },
		};

		fprintf(f, ", ");
		json_counts(f, counts, sizeof(counts) / sizeof(counts[0]));
		fprintf(f, ", \"why\": {");
		why_list(x, f, 1);
		fprintf(f, "}}");
	}
	fprintf(f, "\n  ]\n}\n");
	return ferror(f) ? -1 : 0;
}

static void svg_text(FILE *f, const char *s)
{
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		switch (*p) {
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '&': fputs("&amp;", f); break;
		case '"': fputs("&quot;", f); break;
		default:
			fputc(*p < 0x20 || *p >= 0x7f ? '?' : *p, f);
		}
	}
}

static int cmp_xip_desc(const void *a, const void *b)
{
	const struct report_file *x = *(const struct report_file *const *)a;
	const struct report_file *y = *(const struct report_file *const *)b;

	if (x->xip != y->xip)
		return x->xip < y->xip ? 1 : -1;
	return strcmp(x->path, y->path);
}

int report_write_svg(const struct report *r, FILE *f)
{
	static const struct { int region; const char *name, *colour; } bar[] = {
		{ AXFS_R_XIP, "XIP", "#d9534f" },
		{ AXFS_R_STRINGS, "metadata", "#5bc0de" },
		{ AXFS_R_BYTE_ALIGNED, "byte-aligned", "#f0ad4e" },
		{ AXFS_R_COMPRESSED, "compressed", "#5cb85c" },
	};
	const struct write_layout *lay = &r->res->layout;
	const struct report_file **top;
	const int width = 900, left = 20, barw = 860, topn_max = 20;
	double scale = lay->image_size ? (double)barw / (double)lay->image_size : 0;
	size_t topn = 0;
	int y, height;
	uint64_t meta = 0, maxpages = 1;

	top = calloc(r->nfiles ? r->nfiles : 1, sizeof(*top));
	if (!top)
		return -1;
	for (size_t i = 0; i < r->nfiles; i++)
		if (r->files[i].xip)
			top[topn++] = &r->files[i];
	qsort(top, topn, sizeof(*top), cmp_xip_desc);
	if (topn > (size_t)topn_max)
		topn = topn_max;
	for (size_t i = 0; i < topn; i++)
		if (top[i]->pages > maxpages)
			maxpages = top[i]->pages;
	for (int rg = AXFS_R_STRINGS; rg < AXFS_REGION_COUNT; rg++)
		if (rg != AXFS_R_XIP && rg != AXFS_R_BYTE_ALIGNED &&
		    rg != AXFS_R_COMPRESSED)
			meta += lay->compressed_size[rg] ? lay->compressed_size[rg]
							 : lay->size[rg];
	height = 150 + (int)topn * 22 + 40;
	fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" "
		"height=\"%d\" font-family=\"sans-serif\" font-size=\"12\">\n",
		width, height);
	fprintf(f, "<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n");
	fprintf(f, "<text x=\"%d\" y=\"20\" font-size=\"15\">AXFS image: %llu "
		"bytes, %llu XIP pages, %llu compressed, %llu byte-aligned</text>\n",
		left, (unsigned long long)lay->image_size,
		(unsigned long long)r->xip_pages,
		(unsigned long long)r->compressed_pages,
		(unsigned long long)r->byte_aligned_pages);
	/* The regions as one bar to scale, in image order. */
	for (size_t i = 0; i < sizeof(bar) / sizeof(bar[0]); i++) {
		uint64_t off = lay->fsoffset[bar[i].region];
		uint64_t len = bar[i].region == AXFS_R_STRINGS ? meta :
			(lay->compressed_size[bar[i].region]
			 ? lay->compressed_size[bar[i].region]
			 : lay->size[bar[i].region]);

		fprintf(f, "<rect x=\"%.1f\" y=\"35\" width=\"%.1f\" height=\"30\" "
			"fill=\"%s\"><title>%s: %llu bytes at %llu</title></rect>\n",
			left + off * scale, len * scale > 0.5 ? len * scale : 0.5,
			bar[i].colour, bar[i].name, (unsigned long long)len,
			(unsigned long long)off);
		fprintf(f, "<rect x=\"%d\" y=\"75\" width=\"10\" height=\"10\" "
			"fill=\"%s\"/><text x=\"%d\" y=\"84\">%s %llu bytes</text>\n",
			left + (int)i * 210, bar[i].colour, left + 14 + (int)i * 210,
			bar[i].name, (unsigned long long)len);
	}
	if (lay->mmap_size && lay->mmap_size < lay->image_size)
		fprintf(f, "<line x1=\"%.1f\" y1=\"30\" x2=\"%.1f\" y2=\"70\" "
			"stroke=\"black\" stroke-dasharray=\"3\"/><text x=\"%.1f\" "
			"y=\"28\">mmap_size</text>\n",
			left + lay->mmap_size * scale, left + lay->mmap_size * scale,
			left + lay->mmap_size * scale);
	fprintf(f, "<text x=\"%d\" y=\"115\" font-size=\"14\">Files with the "
		"most XIP pages (red: XIP, green: compressed, orange: "
		"byte-aligned)</text>\n", left);
	y = 130;
	for (size_t i = 0; i < topn; i++) {
		const struct report_file *x = top[i];
		double pw = 480.0 / (double)maxpages, xx = left + 360;

		fprintf(f, "<text x=\"%d\" y=\"%d\">", left, y + 13);
		svg_text(f, x->path);
		fprintf(f, "</text>\n");
		fprintf(f, "<rect x=\"%.1f\" y=\"%d\" width=\"%.1f\" height=\"16\" "
			"fill=\"#d9534f\"><title>%llu XIP pages</title></rect>\n",
			xx, y, x->xip * pw, (unsigned long long)x->xip);
		xx += x->xip * pw;
		fprintf(f, "<rect x=\"%.1f\" y=\"%d\" width=\"%.1f\" height=\"16\" "
			"fill=\"#5cb85c\"><title>%llu compressed pages</title></rect>\n",
			xx, y, x->compressed * pw, (unsigned long long)x->compressed);
		xx += x->compressed * pw;
		fprintf(f, "<rect x=\"%.1f\" y=\"%d\" width=\"%.1f\" height=\"16\" "
			"fill=\"#f0ad4e\"><title>%llu byte-aligned pages</title></rect>\n",
			xx, y, x->byte_aligned * pw,
			(unsigned long long)x->byte_aligned);
		y += 22;
	}
	if (!topn)
		fprintf(f, "<text x=\"%d\" y=\"%d\">(no XIP pages)</text>\n",
			left, y + 13);
	fprintf(f, "</svg>\n");
	free(top);
	return ferror(f) ? -1 : 0;
}
