// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * reader_data.c - where each page of a file lives and what it holds.
 *
 * Follows axfs_readpage() of the 2008 driver:
 *   XIP           4096 bytes of the xip region at node_index * 4096;
 *   byte-aligned  min(4096, byte_aligned.size - ofs) bytes at
 *                 ofs = banode_offset[node_index];
 *   compressed    cblock c = cnode_index[node_index], the bytes
 *                 [cblock_offset[c], cblock_offset[c+1]) of the compressed
 *                 region inflated into a cblock_size buffer, of which
 *                 min(4096, cblock_size - cnode_offset[node_index]) bytes
 *                 are copied from cnode_offset;
 * and zero-fills the rest of the page.  Where the driver would read
 * outside its buffers or serve stale memory (axfs(5) rules 15-20) we
 * fail with the byte offset instead.  A byte-aligned page whose bytes run
 * past the end of its region, which the driver fills with zeros, fails
 * too, as fsck reports it (banode.range): a reader that served the zeros
 * would extract or cat a file fsck calls damaged, and exit 0.
 * Unlike the driver we also zero the bytes past the end of the file.
 *
 * Node types other than 0, 1, 2 are read as XIP, as readpage does, in
 * lenient mode only; strict mode refuses them (fault and read() treat
 * them differently, so their content is ambiguous).
 */
#include "internal.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static int need_table(struct axfs_image *img, enum axfs_region from,
		      uint64_t from_i, enum axfs_region r, uint64_t i,
		      struct axfs_error *err)
{
	int rc = reader_region_usable(img, r, err);

	if (rc < 0)
		return rc;
	if (i < img->entries[r])
		return 0;
	return reader_entry_err(img, err, from, from_i, "index %" PRIu64
				" is past the end of table '%s' (%" PRIu64
				" entries)", i, axfs_region_name(r),
				img->entries[r]);
}

/* Inode ino, which must hold data: a regular file or a symlink (else an
 * error "inode N is a TYPE" followed by why). */
static int data_inode(struct axfs_image *img, uint64_t ino,
		      struct axfs_inode_info *in, const char *why,
		      struct axfs_error *err)
{
	int rc = axfs_image_inode(img, ino, in, err);

	if (rc < 0)
		return rc;
	if (!S_ISREG(in->mode) && !S_ISLNK(in->mode))
		return reader_img_err(img, err, AXFS_ERR_INVALID, UINT64_MAX,
				      "inode %" PRIu64 " is a %s%s", ino,
				      reader_type_name(in->mode), why);
	return 0;
}

int axfs_image_page_location(struct axfs_image *img, uint64_t ino,
			     uint64_t page, struct axfs_page_loc *loc,
			     struct axfs_error *err)
{
	struct axfs_inode_info in;
	uint64_t pages, node, type, idx, rest;
	int rc;

	memset(loc, 0, sizeof(*loc));
	rc = data_inode(img, ino, &in, ": it has no pages", err);
	if (rc < 0)
		return rc;
	pages = in.size / AXFS_PAGE_SIZE + (in.size % AXFS_PAGE_SIZE != 0);
	if (page >= pages)
		return reader_img_err(img, err, AXFS_ERR_INVALID, UINT64_MAX,
				      "inode %" PRIu64 " has no page %" PRIu64
				      " (it is %" PRIu64 " bytes)", ino, page,
				      in.size);
	if (in.array_index > img->n_nodes ||
	    page >= img->n_nodes - in.array_index)
		return reader_entry_err(img, err, AXFS_R_INODE_ARRAY_INDEX, ino,
					"inode %" PRIu64 ": page %" PRIu64
					" would be node %" PRIu64 " + %" PRIu64
					", past the last node (%" PRIu64
					" nodes)", ino, page, in.array_index,
					page, img->n_nodes);
	node = in.array_index + page;
	if ((rc = reader_table_get(img, AXFS_R_NODE_TYPE, node, &type,
				   err)) < 0 ||
	    (rc = reader_table_get(img, AXFS_R_NODE_INDEX, node, &idx,
				   err)) < 0)
		return rc;
	rest = in.size - page * AXFS_PAGE_SIZE;
	loc->node = node;
	loc->type = (uint8_t)(type > 255 ? 255 : type);
	loc->node_index = idx;
	loc->data_len = rest < AXFS_PAGE_SIZE ? rest : AXFS_PAGE_SIZE;

	if (type == AXFS_NODE_COMPRESSED) {
		uint64_t co, c, start, end;

		if ((rc = need_table(img, AXFS_R_NODE_INDEX, node,
				     AXFS_R_CNODE_OFFSET, idx, err)) < 0 ||
		    (rc = need_table(img, AXFS_R_NODE_INDEX, node,
				     AXFS_R_CNODE_INDEX, idx, err)) < 0)
			return rc;
		reader_table_get(img, AXFS_R_CNODE_OFFSET, idx, &co, err);
		reader_table_get(img, AXFS_R_CNODE_INDEX, idx, &c, err);
		if ((rc = reader_cblock_bounds(img, c, &start, &end, err)) < 0)
			return rc;
		/* Larger would underflow the driver's max_len (axfs(5) rule 18). */
		if (co > img->sb.cblock_size)
			return reader_entry_err(img, err, AXFS_R_CNODE_OFFSET,
						idx, "offset %" PRIu64 " inside "
						"cblock %" PRIu64 " is beyond "
						"cblock_size %" PRIu32, co, c,
						img->sb.cblock_size);
		loc->cblock = c;
		loc->cnode_offset = co;
		loc->image_offset = img->reg[AXFS_R_COMPRESSED].fsoffset +
				    start;
		loc->stored_len = end - start;
		return 0;
	}
	if (type == AXFS_NODE_BYTE_ALIGNED) {
		const struct axfs_region_info *ba =
			&img->reg[AXFS_R_BYTE_ALIGNED];
		uint64_t ofs;

		if ((rc = need_table(img, AXFS_R_NODE_INDEX, node,
				     AXFS_R_BANODE_OFFSET, idx, err)) < 0 ||
		    (rc = reader_region_usable(img, AXFS_R_BYTE_ALIGNED,
					       err)) < 0)
			return rc;
		reader_table_get(img, AXFS_R_BANODE_OFFSET, idx, &ofs, err);
		/* Larger would underflow the driver's max_len (axfs(5) rule 20). */
		if (ofs > ba->size)
			return reader_entry_err(img, err, AXFS_R_BANODE_OFFSET,
						idx, "offset %" PRIu64 " is past "
						"the end of the byte_aligned "
						"region (%" PRIu64 " bytes)", ofs,
						ba->size);
		loc->image_offset = ba->fsoffset + ofs;
		loc->stored_len = ba->size - ofs < AXFS_PAGE_SIZE ?
				  ba->size - ofs : AXFS_PAGE_SIZE;
		return 0;
	}
	if (type != AXFS_NODE_XIP && !img->lenient)
		return reader_entry_err(img, err, AXFS_R_NODE_TYPE, node,
					"unknown node type %" PRIu64 " (0 XIP, "
					"1 compressed, 2 byte-aligned)", type);
	/* XIP (and, leniently, what readpage treats as XIP). */
	if ((rc = reader_region_usable(img, AXFS_R_XIP, err)) < 0)
		return rc;
	if (idx >= img->reg[AXFS_R_XIP].size / AXFS_PAGE_SIZE)
		return reader_entry_err(img, err, AXFS_R_NODE_INDEX, node,
					"XIP page %" PRIu64 " is not inside the "
					"xip region (%" PRIu64 " bytes; the "
					"driver reads whole pages)", idx,
					img->reg[AXFS_R_XIP].size);
	loc->image_offset = img->reg[AXFS_R_XIP].fsoffset +
			    idx * AXFS_PAGE_SIZE;
	loc->stored_len = AXFS_PAGE_SIZE;
	return 0;
}

/* The cache entry holding cblock c, inflating it into the least
 * recently used entry on a miss (see struct axfs_image). */
static int cached_cblock(struct axfs_image *img, uint64_t c,
			 struct reader_cblock_cache **out,
			 struct axfs_error *err)
{
	struct reader_cblock_cache *e = &img->cblk[0];
	size_t n = img->sb.cblock_size ?
		   READER_CACHE_BYTES / img->sb.cblock_size : 2;
	int rc;

	if (n < 2)
		n = 2;
	if (n > READER_CBLOCK_CACHE)
		n = READER_CBLOCK_CACHE;
	for (size_t i = 0; i < n; i++) {
		struct reader_cblock_cache *k = &img->cblk[i];

		if (k->valid && k->index == c) {
			k->used = ++img->cblk_clock;
			*out = k;
			return 0;
		}
		if (!k->valid || (e->valid && k->used < e->used))
			e = k;
	}
	if (!e->data) {
		e->data = malloc(img->sb.cblock_size);
		if (!e->data)
			return axfs_error_sys(err, ENOMEM, "'%s': cblock buffer",
					      img->name);
	}
	e->valid = 0;
	rc = axfs_image_cblock(img, c, e->data, &e->len, err);
	if (rc < 0)
		return rc;
	e->index = c;
	e->valid = 1;
	e->used = ++img->cblk_clock;
	*out = e;
	return 0;
}

/* Cblock c inflated, from the shared pool when the handle has one and a
 * slot is free there, else from the handle's own cache. */
static int get_cblock(struct axfs_image *img, uint64_t c,
		      struct reader_cblock_ref *ref, struct axfs_error *err)
{
	struct reader_cblock_cache *e = NULL;
	int rc;

	ref->slot = NULL;
	if (img->pool) {
		rc = reader_pool_get(img->pool, img, c, ref, err);
		if (rc != 0)
			return rc < 0 ? rc : 0;
	}
	rc = cached_cblock(img, c, &e, err);
	if (rc < 0)
		return rc;
	ref->data = e->data;
	ref->len = e->len;
	return 0;
}

int axfs_image_read_page(struct axfs_image *img, uint64_t ino, uint64_t page,
			 uint8_t out[AXFS_PAGE_SIZE], size_t *len,
			 struct axfs_error *err)
{
	struct axfs_page_loc loc;
	size_t n = 0;
	int rc;

	*len = 0;
	rc = axfs_image_page_location(img, ino, page, &loc, err);
	if (rc < 0)
		return rc;
	if (loc.type == AXFS_NODE_COMPRESSED) {
		size_t room = img->sb.cblock_size - loc.cnode_offset;
		struct reader_cblock_ref cb;
		size_t want;

		rc = get_cblock(img, loc.cblock, &cb, err);
		if (rc < 0)
			return rc;
		n = room < AXFS_PAGE_SIZE ? room : AXFS_PAGE_SIZE;
		/* Past the inflated bytes the driver's buffer holds stale
		 * data from an earlier cblock: the file must not end there. */
		want = loc.data_len < n ? (size_t)loc.data_len : n;
		if (loc.cnode_offset + want > cb.len)
			rc = reader_img_err(img, err, AXFS_ERR_FORMAT,
					    loc.image_offset, "inode %" PRIu64
					    " page %" PRIu64 ": its data "
					    "(offset %" PRIu64 ", %zu bytes) "
					    "runs past the end of cblock %"
					    PRIu64 " (%zu bytes inflated)", ino,
					    page, loc.cnode_offset, want,
					    loc.cblock, cb.len);
		else
			memcpy(out, cb.data + loc.cnode_offset, want);
		if (cb.slot)
			reader_pool_put(img->pool, &cb);
		if (rc < 0)
			return rc;
		n = want;
	} else if (loc.type == AXFS_NODE_BYTE_ALIGNED) {
		/* fsck's banode.range: the page's bytes must lie in the
		 * region (the driver would serve zeros past its end). */
		if (loc.stored_len < loc.data_len)
			return reader_entry_err(img, err, AXFS_R_BANODE_OFFSET,
						loc.node_index, "inode %" PRIu64
						" page %" PRIu64 ": its %" PRIu64
						" bytes at offset %" PRIu64
						" do not fit in the byte_aligned "
						"region (%" PRIu64 " bytes)", ino,
						page, loc.data_len,
						loc.image_offset - img->reg[
						AXFS_R_BYTE_ALIGNED].fsoffset,
						img->reg[AXFS_R_BYTE_ALIGNED].size);
		n = (size_t)loc.data_len;
		rc = reader_region_read(img, AXFS_R_BYTE_ALIGNED,
					loc.image_offset -
					img->reg[AXFS_R_BYTE_ALIGNED].fsoffset,
					out, n, err);
	} else {
		n = (size_t)loc.data_len;
		rc = reader_region_read(img, AXFS_R_XIP,
					loc.node_index * AXFS_PAGE_SIZE, out,
					n, err);
	}
	if (rc < 0)
		return rc;
	/* Zeros past what the node holds (as the driver) and past the end
	 * of the file (unlike the driver, which leaves the node's tail). */
	memset(out + n, 0, AXFS_PAGE_SIZE - n);
	*len = (size_t)loc.data_len;
	return 0;
}

int axfs_image_read(struct axfs_image *img, uint64_t ino, uint64_t off,
		    void *buf, size_t len, size_t *got, struct axfs_error *err)
{
	struct axfs_inode_info in;
	uint8_t page[AXFS_PAGE_SIZE];
	uint8_t *p = buf;
	int rc;

	*got = 0;
	rc = data_inode(img, ino, &in, ", not a regular file", err);
	if (rc < 0)
		return rc;
	while (len > 0 && off < in.size) {
		uint64_t pg = off / AXFS_PAGE_SIZE;
		size_t in_page = (size_t)(off % AXFS_PAGE_SIZE);
		size_t n, plen;

		rc = axfs_image_read_page(img, ino, pg, page, &plen, err);
		if (rc < 0)
			return rc;
		if (plen <= in_page)
			break;
		n = plen - in_page;
		if (n > len)
			n = len;
		memcpy(p, page + in_page, n);
		p += n;
		len -= n;
		off += n;
		*got += n;
	}
	return 0;
}

int axfs_image_readlink(struct axfs_image *img, uint64_t ino, char *buf,
			size_t len, struct axfs_error *err)
{
	struct axfs_inode_info in;
	uint8_t page[AXFS_PAGE_SIZE];
	size_t n;
	char *nul;
	int rc;

	rc = reader_inode_of_type(img, ino, S_IFLNK, &in, err);
	if (rc < 0)
		return rc;
	/* The driver reads the target from page 0 only: 1..4095 bytes. */
	if (!img->lenient && (in.size == 0 || in.size >= AXFS_PAGE_SIZE))
		return reader_entry_err(img, err, AXFS_R_INODE_FILE_SIZE, ino,
					"symbolic link inode %" PRIu64 " has a "
					"%" PRIu64 "-byte target (1 to 4095 "
					"bytes fit in its page)", ino, in.size);
	n = 0;
	if (in.size > 0) {
		rc = axfs_image_read_page(img, ino, 0, page, &n, err);
		if (rc < 0)
			return rc;
	}
	if (n >= AXFS_PAGE_SIZE)
		n = AXFS_PAGE_SIZE - 1;
	nul = memchr(page, 0, n);
	if (nul && !img->lenient)
		return reader_entry_err(img, err, AXFS_R_INODE_FILE_SIZE, ino,
					"symbolic link inode %" PRIu64 ": its "
					"target has a NUL at byte %zu of its %"
					PRIu64 " bytes", ino,
					(size_t)((uint8_t *)nul - page), in.size);
	if (nul)
		n = (size_t)((uint8_t *)nul - page);
	if (n >= len)
		return axfs_error_set(err, AXFS_ERR_LIMIT, "'%s': inode %" PRIu64
				      ": symbolic link target of %zu bytes "
				      "does not fit a %zu-byte buffer",
				      img->name, ino, n, len);
	memcpy(buf, page, n);
	buf[n] = '\0';
	return 0;
}
