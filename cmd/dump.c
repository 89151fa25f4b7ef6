// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cmd/dump.c - axfs dump: show what an image holds.
 *
 *   axfs dump [options] IMAGE [STORE]
 *
 * The superblock (every field), the 18 regions (where each descriptor is
 * and what it says), and an `ls -l`-style listing of every inode with its
 * full path; --pages adds where each page of each file is stored and, per
 * file, how many pages are XIP, compressed and byte-aligned.  With -p
 * CSV (a profile, as for mkfs -p) each page also shows its profile count,
 * and each file why its pages are or are not XIP as far as the image and
 * the profile tell.  --json prints all of it as one JSON document (schema
 * in axfs-dump(1)).
 *
 * Everything goes through the reader, which validates the image first;
 * a bad image is an error naming the byte at fault (exit 8).
 */
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <time.h>

#include "common.h"
#include "escape.h"
#include "json.h"
#include "listing.h"
#include "image_operands.h"
#include "options.h"
#include "axfs_format.h"
#include "axfs_profile.h"
#include "axfs_reader.h"

enum {
	SHOW_SUPER = 1,
	SHOW_REGIONS = 2,
	SHOW_INODES = 4,
	SHOW_PAGES = 8,
};

static const struct cmd_usage usage = {
"usage: axfs dump [options] IMAGE [STORE]\n"
"\n"
"Show the superblock, the regions and every inode of the AXFS image IMAGE\n"
"(- for standard input; STORE, or --store: the store segment of a split\n"
"image).  With no section option all three are shown.\n"
"\n",
"\nSee axfs-dump(1).\n",
};

/* -p CSV: a profile to show, and the pages to show it with. */
struct profiles {
	struct cmd_strings csv;
	unsigned int *show;
};

static struct cmd_step add_profile(const struct cmd_opt *opt, const char *arg)
{
	struct profiles *p = opt->target;

	if (cmd_strings_add(&p->csv, arg) < 0) {
		cmd_error("out of memory");
		return cmd_stop(EXIT_OPERATIONAL);
	}
	*p->show |= SHOW_INODES | SHOW_PAGES;
	return CMD_GO_ON;
}

/* ---- small formatters ----------------------------------------------------- */

static const char *node_type_name(unsigned int t)
{
	switch (t) {
	case AXFS_NODE_XIP: return "xip";
	case AXFS_NODE_COMPRESSED: return "compressed";
	case AXFS_NODE_BYTE_ALIGNED: return "byte-aligned";
	}
	return "unknown";
}

/* ---- the superblock -------------------------------------------------------- */

static void show_super_text(struct axfs_image *img)
{
	const struct axfs_super_info *s = axfs_image_super(img);
	char when[64] = "";
	time_t t = (time_t)s->timestamp;
	struct tm tm;
	size_t sig;

	if ((uint64_t)t == s->timestamp && gmtime_r(&t, &tm))
		strftime(when, sizeof(when), " (%Y-%m-%d %H:%M:%S UTC)", &tm);
	sig = strnlen((const char *)s->signature, AXFS_SIGNATURE_LEN);
	printf("superblock of '%s' (%" PRIu64 " bytes):\n",
	       cmd_esc(axfs_image_name(img)), axfs_image_file_size(img));
	printf("  magic             0x%08" PRIx32 "\n", s->magic);
	{
		char esc[4 * AXFS_SIGNATURE_LEN + 1];

		text_escape(esc, (const char *)s->signature, sig);
		printf("  signature         \"%s\"\n", esc);
	}
	printf("  digest            ");
	for (int i = 0; i < AXFS_SB_DIGEST_LEN; i++)
		printf("%02x", s->digest[i]);
	printf("\n  cblock_size       %" PRIu32 "\n", s->cblock_size);
	printf("  files             %" PRIu64 "\n", s->files);
	printf("  size              %" PRIu64 "\n", s->size);
	printf("  blocks            %" PRIu64 "\n", s->blocks);
	printf("  mmap_size         %" PRIu64 "%s\n", s->mmap_size,
	       s->mmap_size < s->size ? " (split: the rest is the store "
	       "segment)" : "");
	printf("  version           %u.%u.%u\n", s->version_major,
	       s->version_minor, s->version_sub);
	printf("  compression_type  %u%s\n", s->compression_type,
	       s->compression_type == AXFS_COMPRESSION_ZLIB ? " (zlib)" : "");
	printf("  timestamp         %" PRIu64 "%s\n", s->timestamp, when);
	printf("  page_shift        %u\n", s->page_shift);
}

static void show_super_json(struct axfs_image *img)
{
	const struct axfs_super_info *s = axfs_image_super(img);

	printf("\"superblock\": {\"magic\": %" PRIu32 ", \"signature\": ",
	       s->magic);
	json_str(stdout, (const char *)s->signature,
		 strnlen((const char *)s->signature, AXFS_SIGNATURE_LEN));
	printf(", \"digest\": \"");
	for (int i = 0; i < AXFS_SB_DIGEST_LEN; i++)
		printf("%02x", s->digest[i]);
	printf("\", \"cblock_size\": %" PRIu32 ", \"files\": %" PRIu64
	       ", \"size\": %" PRIu64 ", \"blocks\": %" PRIu64
	       ", \"mmap_size\": %" PRIu64 ", \"region_descriptors\": {",
	       s->cblock_size, s->files, s->size, s->blocks, s->mmap_size);
	for (int r = 0; r < AXFS_REGION_COUNT; r++)
		printf("%s\"%s\": %" PRIu64, r ? ", " : "",
		       axfs_region_name((enum axfs_region)r), s->region_desc[r]);
	printf("}, \"version_major\": %u, \"version_minor\": %u"
	       ", \"version_sub\": %u, \"compression_type\": %u"
	       ", \"timestamp\": %" PRIu64 ", \"page_shift\": %u}",
	       s->version_major, s->version_minor, s->version_sub,
	       s->compression_type, s->timestamp, s->page_shift);
}

/* ---- regions ----------------------------------------------------------------- */

/* Which segment of a split image holds a region's stored bytes. */
static const char *segment(struct axfs_image *img,
			   const struct axfs_region_info *r)
{
	uint64_t m = axfs_image_super(img)->mmap_size;
	uint64_t stored = r->compressed_size ? r->compressed_size : r->size;

	if (stored == 0)
		return "none";
	if (r->fsoffset >= m)
		return "store";
	if (stored <= m - r->fsoffset)
		return "mmap";
	return "both";
}

static void show_regions_text(struct axfs_image *img)
{
	const struct axfs_super_info *s = axfs_image_super(img);
	int split = s->mmap_size < s->size;

	printf("regions:\n  %-18s %10s %12s %12s %12s %12s %5s %6s%s\n",
	       "name", "descriptor", "fsoffset", "size", "compressed",
	       "max_index", "depth", "incore", split ? "  segment" : "");
	for (int r = 0; r < AXFS_REGION_COUNT; r++) {
		const struct axfs_region_info *ri =
			axfs_image_region(img, (enum axfs_region)r);

		printf("  %-18s %10" PRIu64 " %12" PRIu64 " %12" PRIu64
		       " %12" PRIu64 " %12" PRIu64 " %5u %6u",
		       axfs_region_name((enum axfs_region)r), ri->desc_offset,
		       ri->fsoffset, ri->size, ri->compressed_size,
		       ri->max_index, ri->depth, ri->incore);
		if (split)
			printf("  %s", segment(img, ri));
		putchar('\n');
	}
}

static void show_regions_json(struct axfs_image *img)
{
	printf("\"regions\": [");
	for (int r = 0; r < AXFS_REGION_COUNT; r++) {
		const struct axfs_region_info *ri =
			axfs_image_region(img, (enum axfs_region)r);

		printf("%s\n  {\"name\": \"%s\", \"descriptor_offset\": %" PRIu64
		       ", \"fsoffset\": %" PRIu64 ", \"size\": %" PRIu64
		       ", \"compressed_size\": %" PRIu64 ", \"max_index\": %"
		       PRIu64 ", \"depth\": %u, \"incore\": %u, \"segment\": "
		       "\"%s\"}", r ? "," : "",
		       axfs_region_name((enum axfs_region)r), ri->desc_offset,
		       ri->fsoffset, ri->size, ri->compressed_size,
		       ri->max_index, ri->depth, ri->incore,
		       segment(img, ri));
	}
	printf("]");
}

/* ---- inodes and pages ------------------------------------------------------- */

struct dump {
	struct axfs_image *img;
	unsigned int show;
	int json;
	int first;
	struct axfs_error err;
	const struct axfs_profile *prof;	/* canonical, or NULL */
	unsigned char *used;			/* per profile entry */
	struct node_count *nodes;		/* profiled nodes, by node */
	size_t nnodes;
};

/* A profiled page as the driver counts it: by node (the file's
 * array_index plus the page), so that every name of a hard-linked or
 * shared file sees the counts given under any of its names. */
struct node_count {
	uint64_t node, count;
};

/* The profile entries of `path` (they are sorted by path, then offset):
 * *lo is the first, the return value one past the last. */
static size_t profile_range(const struct dump *d, const char *path,
			    size_t *lo)
{
	size_t a = 0, b = d->prof->n;

	while (a < b) {
		size_t m = a + (b - a) / 2;

		if (strcmp(d->prof->v[m].path, path) < 0)
			a = m + 1;
		else
			b = m;
	}
	*lo = a;
	while (b < d->prof->n && strcmp(d->prof->v[b].path, path) == 0)
		b++;
	return b < a ? a : b;
}

static int cmp_node(const void *a, const void *b)
{
	const struct node_count *x = a, *y = b;

	return x->node < y->node ? -1 : x->node > y->node;
}

/* First walk with -p: the profile entries that name pages of regular
 * files of the image become node counts. */
static int collect_fn(void *ctx, const char *path,
		      const struct axfs_inode_info *in)
{
	struct dump *d = ctx;
	size_t lo, hi;

	if (!S_ISREG(in->mode))
		return 0;
	hi = profile_range(d, path, &lo);
	for (size_t i = lo; i < hi; i++) {
		const struct axfs_profile_entry *e = &d->prof->v[i];

		if (e->offset >= in->size)
			continue;
		d->nodes[d->nnodes].node = in->array_index +
					   e->offset / AXFS_PAGE_SIZE;
		d->nodes[d->nnodes++].count = e->count;
		d->used[i] = 1;
	}
	return 0;
}

static int collect_profile(struct dump *d)
{
	size_t w = 0;
	int rc;

	d->nodes = malloc((d->prof->n ? d->prof->n : 1) * sizeof(*d->nodes));
	if (!d->nodes)
		return axfs_error_set(&d->err, AXFS_ERR_NOMEM, "out of memory");
	rc = axfs_image_walk(d->img, collect_fn, d, &d->err);
	if (rc < 0)
		return rc;
	qsort(d->nodes, d->nnodes, sizeof(*d->nodes), cmp_node);
	for (size_t i = 0; i < d->nnodes; i++) {	/* two names, one node */
		if (w && d->nodes[w - 1].node == d->nodes[i].node) {
			uint64_t *c = &d->nodes[w - 1].count;

			*c = *c > UINT64_MAX - d->nodes[i].count ? UINT64_MAX :
			     *c + d->nodes[i].count;
			continue;
		}
		d->nodes[w++] = d->nodes[i];
	}
	d->nnodes = w;
	return 0;
}

static const struct node_count *node_lookup(const struct dump *d,
					    uint64_t node)
{
	struct node_count key = { .node = node };

	if (!d->nnodes)
		return NULL;
	return bsearch(&key, d->nodes, d->nnodes, sizeof(key), cmp_node);
}

/* Pages of one file by node type, and by reason with a profile. */
struct page_counts {
	uint64_t pages, xip, compressed, byte_aligned;
	uint64_t profile, not_profiled, left_out;
};

static int has_pages(uint32_t mode)
{
	return S_ISREG(mode) || S_ISLNK(mode);
}

static int is_dev(uint32_t mode)
{
	return S_ISCHR(mode) || S_ISBLK(mode);
}

static void show_counts_text(const struct dump *d, const struct page_counts *c)
{
	printf("    %" PRIu64 " page%s: %" PRIu64 " xip, %" PRIu64
	       " compressed, %" PRIu64 " byte-aligned", c->pages,
	       c->pages == 1 ? "" : "s", c->xip, c->compressed,
	       c->byte_aligned);
	if (d->prof)
		printf("; why: profile %" PRIu64 ", not-profiled %" PRIu64
		       ", left-out %" PRIu64, c->profile, c->not_profiled,
		       c->left_out);
	putchar('\n');
}

static void show_counts_json(const struct dump *d, const struct page_counts *c)
{
	printf(", \"xip\": %" PRIu64 ", \"compressed\": %" PRIu64
	       ", \"byte_aligned\": %" PRIu64, c->xip, c->compressed,
	       c->byte_aligned);
	if (d->prof)
		printf(", \"why\": {\"profile\": %" PRIu64
		       ", \"not_profiled\": %" PRIu64 ", \"left_out\": %"
		       PRIu64 "}", c->profile, c->not_profiled, c->left_out);
}

static int show_pages(struct dump *d, const struct axfs_inode_info *in)
{
	uint64_t pages = in->size / AXFS_PAGE_SIZE +
			 (in->size % AXFS_PAGE_SIZE != 0);
	struct page_counts cnt = { .pages = pages };
	struct axfs_page_loc loc;

	if (d->json)
		printf(", \"pages\": [");
	for (uint64_t p = 0; p < pages; p++) {
		int rc = axfs_image_page_location(d->img, in->ino, p, &loc,
						  &d->err);
		const struct node_count *pe = NULL;

		if (rc < 0)
			return rc;
		if (d->prof && S_ISREG(in->mode))
			pe = node_lookup(d, loc.node);
		if (loc.type == AXFS_NODE_XIP)
			cnt.xip++;
		else if (loc.type == AXFS_NODE_COMPRESSED)
			cnt.compressed++;
		else
			cnt.byte_aligned++;
		if (pe && loc.type == AXFS_NODE_XIP)
			cnt.profile++;
		else if (pe)
			cnt.left_out++;
		else if (loc.type == AXFS_NODE_XIP)
			cnt.not_profiled++;
		if (d->json) {
			printf("%s{\"page\": %" PRIu64 ", \"node\": %" PRIu64
			       ", \"type\": \"%s\", \"node_type\": %u"
			       ", \"node_index\": %" PRIu64 ", \"offset\": %"
			       PRIu64 ", \"stored_length\": %" PRIu64
			       ", \"length\": %" PRIu64, p ? ", " : "", p,
			       loc.node, node_type_name(loc.type), loc.type,
			       loc.node_index, loc.image_offset, loc.stored_len,
			       loc.data_len);
			if (loc.type == AXFS_NODE_COMPRESSED)
				printf(", \"cblock\": %" PRIu64
				       ", \"cnode_offset\": %" PRIu64,
				       loc.cblock, loc.cnode_offset);
			if (pe)
				printf(", \"profile_count\": %" PRIu64,
				       pe->count);
			putchar('}');
			continue;
		}
		printf("    page %" PRIu64 ": node %" PRIu64 " %s index %"
		       PRIu64 " at byte %" PRIu64, p, loc.node,
		       node_type_name(loc.type), loc.node_index,
		       loc.image_offset);
		if (loc.type == AXFS_NODE_COMPRESSED)
			printf(" (cblock %" PRIu64 " of %" PRIu64 " bytes, "
			       "offset %" PRIu64 ")", loc.cblock,
			       loc.stored_len, loc.cnode_offset);
		printf(", length %" PRIu64, loc.data_len);
		if (pe)
			printf(", profile count %" PRIu64, pe->count);
		putchar('\n');
	}
	if (d->json)
		putchar(']');
	if (!S_ISREG(in->mode))
		return 0;
	if (d->json)
		show_counts_json(d, &cnt);
	else
		show_counts_text(d, &cnt);
	return 0;
}

static int inode_json(struct dump *d, const char *path,
		      const struct axfs_inode_info *in, const char *target)
{
	char ms[11];

	cmd_mode_string(in->mode, ms);
	printf("%s\n  {\"path\": ", d->first ? "" : ",");
	d->first = 0;
	json_cstr(stdout, path);
	printf(", \"ino\": %" PRIu64 ", \"type\": \"%s\", \"mode\": %" PRIu32
	       ", \"mode_string\": \"%s\", \"uid\": %" PRIu32 ", \"gid\": %"
	       PRIu32 ", \"size\": %" PRIu64 ", \"mtime\": %" PRIu64
	       ", \"file_size\": %" PRIu64 ", \"num_entries\": %" PRIu64
	       ", \"array_index\": %" PRIu64 ", \"mode_index\": %" PRIu64
	       ", \"name_offset\": %" PRIu64, in->ino, cmd_type_name(in->mode),
	       in->mode, ms, in->uid, in->gid, in->size,
	       axfs_image_super(d->img)->timestamp, in->file_size,
	       in->num_entries, in->array_index, in->mode_index,
	       in->name_offset);
	if (target) {
		printf(", \"target\": ");
		json_cstr(stdout, target);
	}
	if (!has_pages(in->mode) && !S_ISDIR(in->mode))
		printf(", \"rdev_major\": %u, \"rdev_minor\": %u",
		       AXFS_DEV_MAJOR(in->file_size),
		       AXFS_DEV_MINOR(in->file_size));
	if ((d->show & SHOW_PAGES) && has_pages(in->mode)) {
		int rc = show_pages(d, in);

		if (rc < 0)
			return rc;
	}
	putchar('}');
	return 0;
}

static void inode_text(struct dump *d, const char *path,
		       const struct axfs_inode_info *in, const char *target)
{
	char ms[11];

	cmd_mode_string(in->mode, ms);
	printf("%s %5" PRIu32 " %5" PRIu32 " ", ms, in->uid, in->gid);
	if (is_dev(in->mode))
		printf("%6u,%4u", AXFS_DEV_MAJOR(in->file_size),
		       AXFS_DEV_MINOR(in->file_size));
	else
		printf("%11" PRIu64, in->size);
	printf(" %7" PRIu64 " ", in->ino);
	cmd_put_escaped(stdout, path);
	if (target) {
		fputs(" -> ", stdout);
		cmd_put_escaped(stdout, target);
	}
	if (cmd_verbosity >= 2)
		printf("  [file_size %" PRIu64 " entries %" PRIu64
		       " array_index %" PRIu64 " mode_index %" PRIu64
		       " name_offset %" PRIu64 "]", in->file_size,
		       in->num_entries, in->array_index, in->mode_index,
		       in->name_offset);
	putchar('\n');
}

static int inode_fn(void *ctx, const char *path,
		    const struct axfs_inode_info *in)
{
	struct dump *d = ctx;
	char target[AXFS_PAGE_SIZE];
	int rc;

	if (S_ISLNK(in->mode)) {
		rc = axfs_image_readlink(d->img, in->ino, target,
					 sizeof(target), &d->err);
		if (rc < 0)
			return rc;
	}
	if (d->json)
		return inode_json(d, path, in, S_ISLNK(in->mode) ? target :
				  NULL);
	inode_text(d, path, in, S_ISLNK(in->mode) ? target : NULL);
	if ((d->show & SHOW_PAGES) && has_pages(in->mode))
		return show_pages(d, in);
	return 0;
}

static int show_inodes(struct dump *d)
{
	int rc;

	d->first = 1;
	if (d->json)
		printf("\"inodes\": [");
	else
		printf("inodes:\n");
	rc = axfs_image_walk(d->img, inode_fn, d, &d->err);
	if (d->json)
		printf("]");
	return rc;
}

/* ---- main ---------------------------------------------------------------- */

/* Loads and canonicalises the -p profiles (summed as mkfs sums them). */
static int load_profiles(struct axfs_profile *prof,
			 const char *const *files, size_t n,
			 struct axfs_error *err)
{
	axfs_profile_init(prof, &cmd_logger);
	for (size_t i = 0; i < n; i++)
		if (axfs_profile_read(prof, files[i], err) < 0)
			return -1;
	return axfs_profile_canonicalize(prof, err);
}

/* Profile lines that named no page of a regular file of the image. */
static void warn_unused(const struct dump *d)
{
	size_t n = 0, first = 0;

	for (size_t i = d->prof->n; i-- > 0;)
		if (!d->used[i]) {
			n++;
			first = i;
		}
	if (n)
		cmd_warn("%zu profile page%s name%s no page of a regular file "
			 "of the image (first: '%s' at %" PRIu64 ")", n,
			 n == 1 ? "" : "s", n == 1 ? "s" : "",
			 d->prof->v[first].path, d->prof->v[first].offset);
}

static int dump(const char *image, const char *store, unsigned int show,
		int json, int lenient, const char *const *profiles,
		size_t nprofiles)
{
	struct axfs_profile prof;
	struct dump d;
	const char *sep = "";
	int rc;

	memset(&d, 0, sizeof(d));
	d.show = show;
	d.json = json;
	if (nprofiles) {
		if (load_profiles(&prof, profiles, nprofiles, &d.err) < 0) {
			cmd_error("%s", d.err.msg);
			axfs_profile_free(&prof);
			return EXIT_OPERATIONAL;
		}
		d.prof = &prof;
		d.used = calloc(prof.n ? prof.n : 1, 1);
		if (!d.used) {
			cmd_error("out of memory");
			axfs_profile_free(&prof);
			return EXIT_OPERATIONAL;
		}
	}
	if (cmd_open_image(&d.img, image, store, lenient) != 0) {
		if (d.prof) {
			free(d.used);
			axfs_profile_free(&prof);
		}
		return EXIT_OPERATIONAL;
	}
	if (json) {
		printf("{\"image\": ");
		json_cstr(stdout, image);
		printf(", \"store\": ");
		if (store)
			json_cstr(stdout, store);
		else
			printf("null");
		printf(", \"file_size\": %" PRIu64, axfs_image_file_size(d.img));
		sep = ",\n";
		if (show & SHOW_SUPER) {
			fputs(sep, stdout);
			show_super_json(d.img);
		}
		if (show & SHOW_REGIONS) {
			fputs(sep, stdout);
			show_regions_json(d.img);
		}
	} else {
		if (show & SHOW_SUPER) {
			show_super_text(d.img);
			sep = "\n";
		}
		if (show & SHOW_REGIONS) {
			fputs(sep, stdout);
			show_regions_text(d.img);
			sep = "\n";
		}
	}
	rc = 0;
	if (d.prof)
		rc = collect_profile(&d);
	if (rc >= 0 && (show & (SHOW_INODES | SHOW_PAGES))) {
		fputs(sep, stdout);
		rc = show_inodes(&d);
	}
	if (json && rc >= 0)
		printf("}\n");
	if (rc < 0)
		cmd_error("%s", d.err.msg);
	else if (d.prof)
		warn_unused(&d);
	axfs_image_close(d.img);
	if (d.prof) {
		free(d.used);
		free(d.nodes);
		axfs_profile_free(&prof);
	}
	return rc < 0 ? EXIT_OPERATIONAL : EXIT_OK;
}

int cmd_dump(int argc, char **argv)
{
	unsigned int show = 0;
	struct profiles prof = { .show = &show };
	int json = 0, lenient = 0, rc;
	const struct cmd_opt options[] = {
		{ CMD_BIT(0, "superblock", &show, SHOW_SUPER,
			  "show the superblock") },
		{ CMD_BIT(0, "regions", &show, SHOW_REGIONS,
			  "show the region descriptors") },
		{ CMD_BIT(0, "inodes", &show, SHOW_INODES, "list every inode "
			  "with its full path (ls -l style)") },
		{ CMD_BIT(0, "pages", &show, SHOW_INODES | SHOW_PAGES, "list "
			  "inodes and where each page of each file lives") },
		{ CMD_CALLBACK('p', "profile", "CSV", &prof, add_profile,
			       "with --pages: each page's profile count and "
			       "why it\nis XIP or not (implies --pages; "
			       "repeatable)") },
		{ CMD_FLAG(0, "json", &json, 1, "print everything selected as "
			   "JSON (see axfs-dump(1))") },
		{ CMD_FLAG(0, "lenient", &lenient, 1, "open with fsck's fewer "
			   "checks (still bounds-checked)") },
		CMD_OPTS_IMAGE,
		CMD_OPTS_END(CMD_HELP_QUIET,
			     "show each inode's raw table fields"),
	};
	const char *image, *store;
	struct cmd_step step = cmd_parse_options(argc, argv, options, &usage);

	if (!step.stop)
		step = cmd_image_operands(argc, argv, 0, NULL, 1, &image,
					  &store);
	if (step.stop) {
		cmd_strings_free(&prof.csv);
		return step.exit_code;
	}
	if (!show)
		show = SHOW_SUPER | SHOW_REGIONS | SHOW_INODES;
	rc = dump(image, store, show, json, lenient, prof.csv.v, prof.csv.n);
	cmd_strings_free(&prof.csv);
	return cmd_finish_stdout(rc);
}
