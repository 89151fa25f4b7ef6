// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cmd/mkfs_summary.c - what a build made, in a few lines, as mksquashfs
 * ends with its own: enough to see at once an image without XIP pages or
 * one much bigger than expected, without -v's detail.
 */
#include "mkfs_summary.h"

#include <sys/stat.h>

#include "axfs_format.h"
#include "stages.h"
#include "tree.h"

/* "1.5 MiB": one decimal, the largest unit that keeps the number >= 1. */
static const char *human(uint64_t n, char *buf, size_t len)
{
	static const char *const units[] = { "bytes", "KiB", "MiB", "GiB",
					     "TiB" };
	double v = (double)n;
	size_t u = 0;

	while (v >= 1024 && u + 1 < sizeof(units) / sizeof(*units)) {
		v /= 1024;
		u++;
	}
	if (u == 0)
		snprintf(buf, len, "%llu bytes", (unsigned long long)n);
	else
		snprintf(buf, len, "%.1f %s", v, units[u]);
	return buf;
}

void mkfs_print_summary(FILE *f, const char *image,
			const struct axfs_build_result *res, double seconds)
{
	const struct pack_result *p = &res->packed;
	const struct write_layout *l = &res->layout;
	uint64_t n[AXFS_NODE_TYPE_COUNT] = { 0 };
	uint64_t data = 0;
	char h1[32], h2[32], h3[32];
	struct stat st;

	pack_node_count(p, n);
	/* The file data once per hard-link group, as the image stores it. */
	for (size_t i = 0; i < res->tree.count; i++) {
		const struct tree_entry *e = res->tree.by_ino[i];

		if (e->type == AXFS_FT_REG &&
		    (!e->link_master || e->link_master == e))
			data += e->size;
	}
	fprintf(f, "wrote '%s': %llu bytes (%s) in %.2f s\n", image,
		(unsigned long long)l->image_size,
		human(l->image_size, h1, sizeof(h1)), seconds);
	fprintf(f, "  %zu inodes, %s of file data", res->tree.count,
		human(data, h1, sizeof(h1)));
	if (data)
		fprintf(f, ": the image is %.1f%% of it",
			100.0 * (double)l->image_size / (double)data);
	fputc('\n', f);
	fprintf(f, "  %llu pages: %llu XIP (%s), %llu compressed (%s in "
		"%llu blocks of %u KiB), %llu byte-aligned (%s)\n",
		(unsigned long long)p->nnodes,
		(unsigned long long)n[AXFS_NODE_XIP],
		human(n[AXFS_NODE_XIP] * AXFS_PAGE_SIZE, h1, sizeof(h1)),
		(unsigned long long)n[AXFS_NODE_COMPRESSED],
		human(l->size[AXFS_R_COMPRESSED], h2, sizeof(h2)),
		(unsigned long long)p->ncblocks, res->block_size / 1024,
		(unsigned long long)n[AXFS_NODE_BYTE_ALIGNED],
		human(l->size[AXFS_R_BYTE_ALIGNED], h3, sizeof(h3)));
	/* The boot order (an ordered profile): what the bench and the tests
	 * read, and how far the order held (pages an earlier identical page
	 * already stored, or XIP, are not in the ordered cblocks). */
	if (res->plan.ranked_pages)
		fprintf(f, "  boot order: %llu ranked pages, %llu of them "
			"compressed in rank order into the first %llu blocks\n",
			(unsigned long long)res->plan.ranked_pages,
			(unsigned long long)p->ordered_pages,
			(unsigned long long)p->ordered_cblocks);
	if (l->mmap_size && l->mmap_size < l->image_size)
		fprintf(f, "  memory-mapped part: %llu bytes (%s), store part: "
			"%llu bytes\n", (unsigned long long)l->mmap_size,
			human(l->mmap_size, h1, sizeof(h1)),
			(unsigned long long)(l->image_size - l->mmap_size));
	if (stat(image, &st) == 0 && (uint64_t)st.st_size > l->image_size)
		fprintf(f, "  the file is padded to %llu bytes (%s)\n",
			(unsigned long long)st.st_size,
			human((uint64_t)st.st_size, h1, sizeof(h1)));
}
