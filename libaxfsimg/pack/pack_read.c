// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * pack_read.c - a file's data read through the source, for pack_data.c
 * (storing it) and pack_dedup.c (comparing it with an earlier file): a
 * file that grows or shrinks while it is read is an error naming it; the
 * holes the source knows are skipped, not read (both files do, so they
 * live here: pack_data.c calls pack_dedup.c, never the other way).
 */
#include "internal.h"

/* Reads until `want` bytes or the end of the data. */
int pack_read_full(struct packer *pk, void *h, unsigned char *buf,
		   size_t want, size_t *got)
{
	*got = 0;
	while (*got < want) {
		size_t n = 0;
		int rc = pk->src->ops->data_read(pk->src, h, buf + *got,
						 want - *got, &n, pk->err);

		if (rc < 0)
			return rc;
		if (!n)
			break;
		*got += n;
	}
	return 0;
}

int pack_data_open(struct packer *pk, struct tree_entry *m, void **h)
{
	*h = NULL;
	return pk->src->ops->data_open(pk->src, &m->data, h, pk->err);
}

void pack_data_close(struct packer *pk, void *h)
{
	if (h)
		pk->src->ops->data_close(pk->src, h);
}

/* After `size` bytes: the data must end here. */
int pack_expect_eof(struct packer *pk, struct tree_entry *m, void *h)
{
	unsigned char b;
	size_t got;
	int rc = pack_read_full(pk, h, &b, 1, &got);

	if (rc < 0)
		return rc;
	if (got)
		return pack_err_path(pk, AXFS_ERR_IO, 0, m,
				"the file grew while it was being read");
	return 0;
}

int pack_shrank(struct packer *pk, struct tree_entry *m)
{
	return pack_err_path(pk, AXFS_ERR_IO, 0, m,
			"the file shrank while it was being read");
}

/* The hole at h's position, at most max bytes: 0 when data is there or
 * the source knows no holes (its bytes are then read); *data (may be
 * NULL): the data bytes after it, 0 when unknown. */
int pack_hole_at(struct packer *pk, void *h, uint64_t max, uint64_t *len,
		 uint64_t *data)
{
	uint64_t d = 0;
	int rc;

	*len = 0;
	if (data)
		*data = 0;
	if (!pk->src->ops->data_hole || !pk->src->ops->data_skip || !max)
		return 0;
	if ((rc = pk->src->ops->data_hole(pk->src, h, len, &d, pk->err)) < 0)
		return rc;
	if (*len > max)
		*len = max;
	if (data)
		*data = d;
	return 0;
}

int pack_skip(struct packer *pk, void *h, uint64_t len)
{
	return pk->src->ops->data_skip(pk->src, h, len, pk->err);
}
