// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The image writer: layout rules (offsets, alignment, padding, trailing
 * magic, minimal depths, metadata compression, the mmap limit, the
 * digest), checked on the raw bytes of images written from a small tree
 * and a hand-made packing, then read back through the reader.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>
#include "packer.h"
#include "writer.h"
#include "axfs_reader.h"
#include "axfs_format.h"
#include "unit.h"

struct fixture {
	struct tree tree;
	struct pack_result packed;
	uint8_t xip_page[4096];
	uint8_t cblock_raw[8192];
};

static void add(struct tree *t, const char *path, enum axfs_ftype type,
		uint32_t mode, uint64_t size, const char *target,
		const char *link_to)
{
	struct source_entry e = unit_entry(path, type, mode, size, target,
					   link_to);

	e.uid = 1000;
	e.gid = 100;
	unit_tree_add(t, &e);
}

static uint64_t *u64s(const uint64_t *v, size_t n)
{
	uint64_t *p = malloc(n * sizeof(*p));

	memcpy(p, v, n * sizeof(*p));
	return p;
}

/*
 * Tree:  /a (4096 bytes, XIP)  /b (10 bytes, byte-aligned)
 *        /c (8192 bytes: two pages in one cblock)  /d/ (empty dir)
 *        /h (hard link to /a)  /l -> "b" (byte-aligned)  /null (c 1:3)
 *        /x (0 bytes)
 */
static void make_fixture(struct fixture *f)
{
	struct tree *t = &f->tree;
	struct pack_result *p = &f->packed;
	struct tree_entry *e;
	struct axfs_error err;
	uint8_t ba[16], z[9000];
	uLongf zlen = sizeof(z);

	memset(f, 0, sizeof(*f));
	ck_assert_int_eq(tree_init(t, NULL, NULL), 0);
	add(t, "a", AXFS_FT_REG, 0755, 4096, NULL, NULL);
	add(t, "b", AXFS_FT_REG, 0644, 10, NULL, NULL);
	add(t, "c", AXFS_FT_REG, 04755, 8192, NULL, NULL);
	add(t, "d", AXFS_FT_DIR, 0700, 0, NULL, NULL);
	add(t, "h", AXFS_FT_REG, 0, 0, NULL, "a");
	add(t, "l", AXFS_FT_LNK, 0777, 0, "b", NULL);
	add(t, "null", AXFS_FT_CHR, 0666, 0, NULL, NULL);
	add(t, "x", AXFS_FT_REG, 0644, 0, NULL, NULL);
	ck_assert_msg(tree_finalize(t, &err) == 0, "%s", err.msg);

	for (int i = 0; i < 4096; i++)
		f->xip_page[i] = (uint8_t)(i * 7);
	for (int i = 0; i < 8192; i++)
		f->cblock_raw[i] = (uint8_t)(i / 100);
	memcpy(ba, "0123456789b", 12);	/* b's 10 bytes, then "b\0" */
	ck_assert_int_eq(compress2(z, &zlen, f->cblock_raw, 8192, 9), Z_OK);

	/* Nodes: 0 = a (XIP 0), 1 = b (BA 0), 2,3 = c (cblock 0 at 0 and
	 * 4096), 4 = l (BA 1). */
	p->cblock_size = 65536;
	p->nnodes = 5;
	p->nslots = 5;		/* each node stored on its own: one run */
	p->slot_type = malloc(5);
	memcpy(p->slot_type, (uint8_t[]){ 0, 2, 1, 1, 2 }, 5);
	p->slot_index = u64s((uint64_t[]){ 0, 0, 0, 1, 1 }, 5);
	p->nruns = 1;
	p->runs = calloc(1, sizeof(*p->runs));
	p->runs[0].n = 5;
	p->ncnodes = 2;
	p->cnode_offset = u64s((uint64_t[]){ 0, 4096 }, 2);
	p->cnode_index = u64s((uint64_t[]){ 0, 0 }, 2);
	p->nbanodes = 2;
	p->banode_offset = u64s((uint64_t[]){ 0, 10 }, 2);
	p->ncblocks = 1;
	p->cblock_offset = u64s((uint64_t[]){ 0, zlen }, 2);
	p->xip_pages = 1;
	unit_spool(&p->xip, f->xip_page, 4096);
	unit_spool(&p->byte_aligned, ba, 12);
	unit_spool(&p->compressed, z, zlen);

	e = tree_lookup(t, "a");
	e->first_node = 0, e->node_count = 1, e->packed = 1;
	e = tree_lookup(t, "b");
	e->first_node = 1, e->node_count = 1, e->packed = 1;
	e = tree_lookup(t, "c");
	e->first_node = 2, e->node_count = 2, e->packed = 1;
	e = tree_lookup(t, "l");
	e->first_node = 4, e->node_count = 1, e->packed = 1;
	e = tree_lookup(t, "x");
	e->packed = 1;
	/* /h is left to the writer to resolve through its link master. */
}

static void free_fixture(struct fixture *f)
{
	pack_free_packed(&f->packed);
	tree_free(&f->tree);
}

static void opts_default(struct write_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->timestamp = 1700000000;
	o->compress_metadata = -1;
	o->level = 9;
	o->digest = 1;
}

/* Writes the image and returns its bytes (and length). */
static uint8_t *write_test_image(struct fixture *f, const struct write_opts *o,
				 struct write_layout *lay, size_t *len)
{
	struct axfs_error err;
	FILE *tf = tmpfile();
	int fd = dup(fileno(tf));
	struct stat st;
	uint8_t *img;

	fclose(tf);
	ck_assert_msg(write_image(fd, &f->tree, &f->packed, o, lay,
				  &err) == 0, "%s", err.msg);
	ck_assert_int_eq(fstat(fd, &st), 0);
	img = malloc((size_t)st.st_size);
	ck_assert_int_eq(pread(fd, img, (size_t)st.st_size, 0), st.st_size);
	close(fd);
	*len = (size_t)st.st_size;
	return img;
}

static uint64_t desc64(const uint8_t *img, int r, int field)
{
	uint64_t d = get_unaligned_be64(img + AXFS_SB_REGION(r));

	return get_unaligned_be64(img + d + field);
}

static uint8_t desc8(const uint8_t *img, int r, int field)
{
	return img[get_unaligned_be64(img + AXFS_SB_REGION(r)) + field];
}

START_TEST(test_superblock_and_padding)
{
	struct fixture f;
	struct write_opts o;
	struct write_layout lay;
	size_t len;
	uint8_t *img;

	make_fixture(&f);
	opts_default(&o);
	img = write_test_image(&f, &o, &lay, &len);
	ck_assert_uint_eq(len % 4096, 0);
	ck_assert_uint_eq(len, lay.image_size);
	ck_assert_uint_eq(get_unaligned_be32(img), AXFS_MAGIC);
	ck_assert_uint_eq(get_unaligned_be32(img + len - 4), AXFS_MAGIC);
	ck_assert_int_eq(memcmp(img + 4, "Advanced XIP FS", 16), 0);
	ck_assert_uint_eq(get_unaligned_be32(img + AXFS_SB_CBLOCK_SIZE), 65536);
	ck_assert_uint_eq(get_unaligned_be64(img + AXFS_SB_FILES), 9);
	ck_assert_uint_eq(get_unaligned_be64(img + AXFS_SB_SIZE), len);
	ck_assert_uint_eq(get_unaligned_be64(img + AXFS_SB_BLOCKS), 5);
	ck_assert_uint_eq(get_unaligned_be64(img + AXFS_SB_MMAP_SIZE), len);
	ck_assert_uint_eq(img[AXFS_SB_VERSION_MAJOR], 1);
	ck_assert_uint_eq(img[AXFS_SB_VERSION_MINOR], 0);
	ck_assert_uint_eq(img[AXFS_SB_VERSION_SUB], 0);
	ck_assert_uint_eq(img[AXFS_SB_COMPRESSION_TYPE], 0);
	ck_assert_uint_eq(get_unaligned_be32(img + AXFS_SB_PADDING), 0);
	ck_assert_uint_eq(get_unaligned_be64(img + AXFS_SB_TIMESTAMP), 1700000000);
	ck_assert_uint_eq(img[AXFS_SB_PAGE_SHIFT], 12);
	for (int i = 257; i < 264; i++)
		ck_assert_uint_eq(img[i], 0);
	/* One descriptor per region, from byte 264, padding zero. */
	for (int r = 0; r < AXFS_REGION_COUNT; r++) {
		uint64_t d = get_unaligned_be64(img + AXFS_SB_REGION(r));

		ck_assert_uint_eq(d, 264 + 40 * (uint64_t)r);
		for (int i = AXFS_RD_PADDING; i < 40; i++)
			ck_assert_uint_eq(img[d + i], 0);
		ck_assert_uint_eq(img[d + AXFS_RD_INCORE], 0);
	}
	free(img);
	free_fixture(&f);
}
END_TEST

START_TEST(test_regions_in_order_and_aligned)
{
	static const int order[] = {
		AXFS_R_XIP, AXFS_R_STRINGS, AXFS_R_NODE_TYPE, AXFS_R_NODE_INDEX,
		AXFS_R_CNODE_OFFSET, AXFS_R_CNODE_INDEX, AXFS_R_BANODE_OFFSET,
		AXFS_R_CBLOCK_OFFSET, AXFS_R_INODE_FILE_SIZE,
		AXFS_R_INODE_NAME_OFFSET, AXFS_R_INODE_NUM_ENTRIES,
		AXFS_R_INODE_MODE_INDEX, AXFS_R_INODE_ARRAY_INDEX,
		AXFS_R_MODES, AXFS_R_UIDS, AXFS_R_GIDS,
		AXFS_R_BYTE_ALIGNED, AXFS_R_COMPRESSED,
	};
	struct fixture f;
	struct write_opts o;
	struct write_layout lay;
	uint64_t end = 264 + 18 * 40;
	size_t len;
	uint8_t *img;

	make_fixture(&f);
	opts_default(&o);
	o.compress_metadata = 0;
	img = write_test_image(&f, &o, &lay, &len);
	ck_assert_uint_eq(desc64(img, AXFS_R_XIP, AXFS_RD_FSOFFSET), 4096);
	ck_assert_int_eq(memcmp(img + 4096, f.xip_page, 4096), 0);
	for (size_t i = 0; i < sizeof(order) / sizeof(*order); i++) {
		int r = order[i];
		uint64_t off = desc64(img, r, AXFS_RD_FSOFFSET);
		uint64_t size = desc64(img, r, AXFS_RD_SIZE);

		ck_assert_uint_eq(desc64(img, r, AXFS_RD_COMPRESSED_SIZE), 0);
		ck_assert_uint_eq(off, lay.fsoffset[r]);
		ck_assert_uint_eq(size, lay.size[r]);
		if (!size) {
			ck_assert_uint_eq(off, 0);
			continue;
		}
		/* Packed back to back, after the previous region. */
		ck_assert_uint_ge(off, end);
		if (r != AXFS_R_XIP)
			ck_assert_uint_eq(off, end);
		end = off + size;
	}
	ck_assert_uint_eq(len, (end + 4 + 4095) / 4096 * 4096);
	for (size_t i = end; i < len - 4; i++)
		ck_assert_uint_eq(img[i], 0);
	/* The byte-aligned and compressed bytes are the spools'. */
	ck_assert_int_eq(memcmp(img + desc64(img, AXFS_R_BYTE_ALIGNED,
					     AXFS_RD_FSOFFSET),
				"0123456789b", 12), 0);
	free(img);
	free_fixture(&f);
}
END_TEST

START_TEST(test_inode_tables_and_depths)
{
	struct fixture f;
	struct write_opts o;
	struct write_layout lay;
	size_t len;
	uint8_t *img;
	const uint8_t *strings, *tab[AXFS_REGION_COUNT];
	unsigned int dep[AXFS_REGION_COUNT];

	make_fixture(&f);
	opts_default(&o);
	o.compress_metadata = 0;
	img = write_test_image(&f, &o, &lay, &len);
	for (int r = 0; r < AXFS_REGION_COUNT; r++) {
		tab[r] = img + desc64(img, r, AXFS_RD_FSOFFSET);
		dep[r] = desc8(img, r, AXFS_RD_TABLE_DEPTH);
		if (AXFS_REGION_IS_TABLE(r))
			ck_assert_uint_eq(desc64(img, r, AXFS_RD_SIZE),
				desc64(img, r, AXFS_RD_MAX_INDEX) * dep[r]);
	}
	strings = tab[AXFS_R_STRINGS];
	/* 9 inodes: /, a b c d h l null x. */
	ck_assert_uint_eq(desc64(img, AXFS_R_INODE_FILE_SIZE, AXFS_RD_MAX_INDEX), 9);
	ck_assert_uint_eq(desc64(img, AXFS_R_STRINGS, AXFS_RD_MAX_INDEX), 9);
	ck_assert_str_eq((const char *)strings, "");
#define T(r, i) axfs_bytetable_get(tab[r], dep[r], (i))
	ck_assert_str_eq((const char *)strings + T(AXFS_R_INODE_NAME_OFFSET, 3), "c");
	ck_assert_str_eq((const char *)strings + T(AXFS_R_INODE_NAME_OFFSET, 7), "null");
	/* Root: 8 children from inode 1; size = bytes of their names. */
	ck_assert_uint_eq(T(AXFS_R_INODE_NUM_ENTRIES, 0), 8);
	ck_assert_uint_eq(T(AXFS_R_INODE_ARRAY_INDEX, 0), 1);
	ck_assert_uint_eq(T(AXFS_R_INODE_FILE_SIZE, 0), 7 * 2 + 5);
	/* /c: 8192 bytes, 16 blocks of 512, nodes from 2. */
	ck_assert_uint_eq(T(AXFS_R_INODE_FILE_SIZE, 3), 8192);
	ck_assert_uint_eq(T(AXFS_R_INODE_NUM_ENTRIES, 3), 16);
	ck_assert_uint_eq(T(AXFS_R_INODE_ARRAY_INDEX, 3), 2);
	/* /h shares /a's node. */
	ck_assert_uint_eq(T(AXFS_R_INODE_ARRAY_INDEX, 5), 0);
	ck_assert_uint_eq(T(AXFS_R_INODE_FILE_SIZE, 5), 4096);
	/* /l: size = target length, node 4. */
	ck_assert_uint_eq(T(AXFS_R_INODE_FILE_SIZE, 6), 1);
	ck_assert_uint_eq(T(AXFS_R_INODE_ARRAY_INDEX, 6), 4);
	/* /null: old_encode_dev(1, 3). */
	ck_assert_uint_eq(T(AXFS_R_INODE_FILE_SIZE, 7), 0x103);
	/* Mode triples: deduplicated, numbered in inode order. */
	ck_assert_uint_eq(desc64(img, AXFS_R_MODES, AXFS_RD_MAX_INDEX), 7);
	ck_assert_uint_eq(T(AXFS_R_MODES, T(AXFS_R_INODE_MODE_INDEX, 0)), S_IFDIR | 0755);
	ck_assert_uint_eq(T(AXFS_R_UIDS, T(AXFS_R_INODE_MODE_INDEX, 0)), 0);
	ck_assert_uint_eq(T(AXFS_R_MODES, T(AXFS_R_INODE_MODE_INDEX, 3)), S_IFREG | 04755);
	ck_assert_uint_eq(T(AXFS_R_UIDS, T(AXFS_R_INODE_MODE_INDEX, 3)), 1000);
	ck_assert_uint_eq(T(AXFS_R_GIDS, T(AXFS_R_INODE_MODE_INDEX, 3)), 100);
	ck_assert_uint_eq(T(AXFS_R_INODE_MODE_INDEX, 1), T(AXFS_R_INODE_MODE_INDEX, 5));
	/* Minimal depths. */
	ck_assert_uint_eq(dep[AXFS_R_MODES], 2);		/* 0100755 */
	ck_assert_uint_eq(dep[AXFS_R_UIDS], 2);		/* 1000 */
	ck_assert_uint_eq(dep[AXFS_R_GIDS], 1);		/* 100 */
	ck_assert_uint_eq(dep[AXFS_R_INODE_FILE_SIZE], 2);	/* 8192 */
	ck_assert_uint_eq(dep[AXFS_R_NODE_TYPE], 1);
	ck_assert_uint_eq(dep[AXFS_R_CNODE_INDEX], 0);		/* all 0 */
	ck_assert_uint_eq(desc64(img, AXFS_R_CNODE_INDEX, AXFS_RD_SIZE), 0);
	ck_assert_uint_eq(desc64(img, AXFS_R_CNODE_INDEX, AXFS_RD_MAX_INDEX), 2);
	ck_assert_uint_eq(dep[AXFS_R_CNODE_OFFSET], 2);	/* 4096 */
	ck_assert_uint_eq(desc64(img, AXFS_R_CBLOCK_OFFSET, AXFS_RD_MAX_INDEX), 2);
#undef T
	free(img);
	free_fixture(&f);
}
END_TEST

START_TEST(test_metadata_compression)
{
	struct fixture f;
	struct write_opts o;
	struct write_layout lay;
	size_t len;
	uint8_t *img;
	int compressed = 0;

	make_fixture(&f);
	opts_default(&o);
	o.compress_metadata = 1;
	img = write_test_image(&f, &o, &lay, &len);
	for (int r = 0; r < AXFS_REGION_COUNT; r++) {
		uint64_t size = desc64(img, r, AXFS_RD_SIZE);
		uint64_t cs = desc64(img, r, AXFS_RD_COMPRESSED_SIZE);
		uLongf out = size + 16;
		uint8_t *buf;

		if (r == AXFS_R_XIP || r == AXFS_R_BYTE_ALIGNED ||
		    r == AXFS_R_COMPRESSED || size == 0) {
			ck_assert_uint_eq(cs, 0);	/* never compressed */
			continue;
		}
		ck_assert_uint_gt(cs, 0);
		compressed++;
		/* A zlib stream that inflates to exactly `size`. */
		buf = malloc(out);
		ck_assert_int_eq(uncompress(buf, &out,
			img + desc64(img, r, AXFS_RD_FSOFFSET), cs), Z_OK);
		ck_assert_uint_eq(out, size);
		free(buf);
	}
	ck_assert_int_gt(compressed, 5);
	free(img);

	/* auto: only where it is smaller; tiny tables stay raw. */
	o.compress_metadata = -1;
	img = write_test_image(&f, &o, &lay, &len);
	for (int r = 0; r < AXFS_REGION_COUNT; r++) {
		uint64_t cs = desc64(img, r, AXFS_RD_COMPRESSED_SIZE);

		if (cs)
			ck_assert_uint_lt(cs, desc64(img, r, AXFS_RD_SIZE));
	}
	ck_assert_uint_eq(desc64(img, AXFS_R_NODE_TYPE, AXFS_RD_COMPRESSED_SIZE), 0);
	free(img);
	free_fixture(&f);
}
END_TEST

START_TEST(test_mmap_limit)
{
	struct fixture f;
	struct write_opts o;
	struct write_layout lay;
	struct axfs_error err;
	size_t len;
	uint8_t *img;
	int fd;
	FILE *tf;

	make_fixture(&f);
	opts_default(&o);
	/* The mapped part is 2 pages: header page + XIP page, then the
	 * metadata spills into a third. */
	o.mmap_limit = 8192;
	tf = tmpfile();
	fd = dup(fileno(tf));
	fclose(tf);
	ck_assert_int_eq(write_image(fd, &f.tree, &f.packed, &o, &lay,
				     &err), AXFS_ERR_LIMIT);
	ck_assert_uint_eq(lay.mmap_size, 12288);
	ck_assert_ptr_nonnull(strstr(err.msg, "4096 more than"));
	/* Nothing was written. */
	ck_assert_int_eq(lseek(fd, 0, SEEK_END), 0);
	close(fd);

	o.mmap_limit = 1 << 20;
	img = write_test_image(&f, &o, &lay, &len);
	ck_assert_uint_eq(lay.mmap_size, 12288);
	ck_assert_uint_eq(get_unaligned_be64(img + AXFS_SB_MMAP_SIZE), 12288);
	/* In-place metadata is raw and below mmap_size; the data regions
	 * start at it. */
	for (int r = 0; r < AXFS_REGION_COUNT; r++) {
		uint64_t off = desc64(img, r, AXFS_RD_FSOFFSET);
		uint64_t size = desc64(img, r, AXFS_RD_SIZE);

		ck_assert_uint_eq(desc64(img, r, AXFS_RD_COMPRESSED_SIZE), 0);
		if (!size)
			continue;
		if (r == AXFS_R_BYTE_ALIGNED || r == AXFS_R_COMPRESSED)
			ck_assert_uint_ge(off, 12288);
		else
			ck_assert_uint_le(off + size, 12288);
	}
	ck_assert_uint_eq(desc64(img, AXFS_R_BYTE_ALIGNED, AXFS_RD_FSOFFSET),
			  12288);
	ck_assert_uint_eq(get_unaligned_be32(img + len - 4), AXFS_MAGIC);
	free(img);
	free_fixture(&f);
}
END_TEST

START_TEST(test_digest)
{
	struct fixture f;
	struct write_opts o;
	struct write_layout lay;
	struct axfs_error err;
	uint8_t d[20], zero[20] = { 0 };
	size_t len;
	uint8_t *img, *img2;
	FILE *tf;
	int fd;

	make_fixture(&f);
	opts_default(&o);
	img = write_test_image(&f, &o, &lay, &len);
	/* Recompute over the bytes with the field zeroed. */
	tf = tmpfile();
	fd = dup(fileno(tf));
	fclose(tf);
	ck_assert_int_eq(pwrite(fd, img, len, 0), (ssize_t)len);
	ck_assert_int_eq(write_digest(fd, len, d, &err), 0);
	ck_assert_int_eq(memcmp(img + AXFS_SB_DIGEST, d, 20), 0);
	ck_assert_int_eq(memcmp(img + AXFS_SB_DIGEST + 20, zero, 20), 0);
	ck_assert_int_ne(memcmp(d, zero, 20), 0);
	/* One changed byte anywhere changes it. */
	img[len - 100] ^= 1;
	ck_assert_int_eq(pwrite(fd, img, len, 0), (ssize_t)len);
	ck_assert_int_eq(write_digest(fd, len, d, &err), 0);
	ck_assert_int_ne(memcmp(img + AXFS_SB_DIGEST, d, 20), 0);
	close(fd);
	/* Without a digest the field stays zero; otherwise the same. */
	o.digest = 0;
	img2 = write_test_image(&f, &o, &lay, &len);
	ck_assert_int_eq(memcmp(img2 + AXFS_SB_DIGEST, zero, 20), 0);
	img[len - 100] ^= 1;
	ck_assert_int_eq(memcmp(img2 + 60, img + 60, len - 60), 0);
	free(img);
	free(img2);
	free_fixture(&f);
}
END_TEST

START_TEST(test_read_back)
{
	struct fixture f;
	struct write_opts o;
	struct write_layout lay;
	struct axfs_error err;
	struct axfs_image *im;
	uint64_t ino;
	uint8_t buf[8192];
	char link[16];
	size_t len, got;
	uint8_t *img;
	int modes[] = { -1, 0, 1 };

	make_fixture(&f);
	for (int m = 0; m < 3; m++) {
		opts_default(&o);
		o.compress_metadata = modes[m];
		img = write_test_image(&f, &o, &lay, &len);
		ck_assert_msg(axfs_image_open_buffer(&im, img, len, "test", NULL,
						     &err) == 0, "%s", err.msg);
		ck_assert_int_eq(axfs_image_lookup(im, "/a", &ino, &err), 0);
		ck_assert_int_eq(axfs_image_read(im, ino, 0, buf, 8192, &got, &err), 0);
		ck_assert_uint_eq(got, 4096);
		ck_assert_int_eq(memcmp(buf, f.xip_page, 4096), 0);
		ck_assert_int_eq(axfs_image_lookup(im, "/h", &ino, &err), 0);
		ck_assert_int_eq(axfs_image_read(im, ino, 0, buf, 8192, &got, &err), 0);
		ck_assert_int_eq(memcmp(buf, f.xip_page, 4096), 0);
		ck_assert_int_eq(axfs_image_lookup(im, "/c", &ino, &err), 0);
		ck_assert_int_eq(axfs_image_read(im, ino, 0, buf, 8192, &got, &err), 0);
		ck_assert_uint_eq(got, 8192);
		ck_assert_int_eq(memcmp(buf, f.cblock_raw, 8192), 0);
		ck_assert_int_eq(axfs_image_lookup(im, "/b", &ino, &err), 0);
		ck_assert_int_eq(axfs_image_read(im, ino, 0, buf, 8192, &got, &err), 0);
		ck_assert_uint_eq(got, 10);
		ck_assert_int_eq(memcmp(buf, "0123456789", 10), 0);
		ck_assert_int_eq(axfs_image_lookup(im, "/l", &ino, &err), 0);
		ck_assert_int_eq(axfs_image_readlink(im, ino, link, sizeof(link), &err), 0);
		ck_assert_str_eq(link, "b");
		ck_assert_int_eq(axfs_image_lookup(im, "/x", &ino, &err), 0);
		ck_assert_int_eq(axfs_image_read(im, ino, 0, buf, 8192, &got, &err), 0);
		ck_assert_uint_eq(got, 0);
		axfs_image_close(im);
		free(img);
	}
	free_fixture(&f);
}
END_TEST

START_TEST(test_refuses_inconsistent_packing)
{
	struct fixture f;
	struct write_opts o;
	struct write_layout lay;
	struct axfs_error err;
	FILE *tf = tmpfile();
	int fd = dup(fileno(tf));

	fclose(tf);
	make_fixture(&f);
	opts_default(&o);
	tree_lookup(&f.tree, "c")->node_count = 1;
	ck_assert_int_eq(write_image(fd, &f.tree, &f.packed, &o, &lay,
				     &err), AXFS_ERR_INVALID);
	ck_assert_ptr_nonnull(strstr(err.msg, "'/c'"));
	tree_lookup(&f.tree, "c")->node_count = 2;
	f.packed.cblock_offset[1]++;
	ck_assert_int_eq(write_image(fd, &f.tree, &f.packed, &o, &lay,
				     &err), AXFS_ERR_INVALID);
	f.packed.cblock_offset[1]--;
	close(fd);
	free_fixture(&f);
}
END_TEST

Suite *suite_writer(void)
{
	Suite *s = suite_create("writer");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_superblock_and_padding);
	tcase_add_test(tc, test_regions_in_order_and_aligned);
	tcase_add_test(tc, test_inode_tables_and_depths);
	tcase_add_test(tc, test_metadata_compression);
	tcase_add_test(tc, test_mmap_limit);
	tcase_add_test(tc, test_digest);
	tcase_add_test(tc, test_read_back);
	tcase_add_test(tc, test_refuses_inconsistent_packing);
	suite_add_tcase(s, tc);
	return s;
}
