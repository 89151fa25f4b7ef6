// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The image reader against images built by hand in memory: a valid one
 * read back completely (every node type, cblock sharing, devices,
 * symlinks, lookup, walk order, split segments, compressed tables), and
 * hostile ones, each of which must fail with the right message naming the
 * right byte offset, without a crash or a read outside the buffer (run
 * under ASan with SANITIZE=1).
 *
 * The small builder here is independent of libaxfsimg's writer on
 * purpose: it lays out the format straight from axfs_format.h.
 */
#include <check.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "axfs_format.h"
#include "axfs_reader.h"

#define READER_MAX_DEPTH_TEST 4096

/* ---- a tiny image builder ---------------------------------------------- */

enum store { ST_NONE, ST_XIP, ST_BA, ST_Z };

struct tino {
	const char *name;
	uint32_t mode, uid, gid;
	uint64_t file_size;		/* set by the builder for files */
	uint64_t first, count;		/* directories: child range */
	const uint8_t *data;		/* regular files / symlink targets */
	size_t len;
	enum store st;
	uint64_t rdev;			/* devices */
};

struct tb {
	struct tino *ino;
	size_t n, cap;
	uint32_t cblock_size;
	int compress_tables;
	uint64_t mmap_size;		/* 0: = size */
	/* results */
	uint64_t desc[AXFS_REGION_COUNT];	/* descriptor offsets */
	uint64_t fsoff[AXFS_REGION_COUNT];
	uint8_t depth[AXFS_REGION_COUNT];
	uint64_t first_node[64];		/* first node of inodes < 64 */
};

struct bytes {
	uint8_t *p;
	size_t n, cap;
};

static void b_put(struct bytes *b, const void *p, size_t n)
{
	if (b->n + n > b->cap) {
		size_t c = b->cap ? b->cap : 256;

		while (c < b->n + n)
			c *= 2;
		b->p = realloc(b->p, c);
		ck_assert_ptr_nonnull(b->p);
		b->cap = c;
	}
	if (n)
		memcpy(b->p + b->n, p, n);
	b->n += n;
}

static void b_zero(struct bytes *b, size_t n)
{
	uint8_t z[4096] = { 0 };

	while (n) {
		size_t k = n < sizeof(z) ? n : sizeof(z);

		b_put(b, z, k);
		n -= k;
	}
}

static void tb_init(struct tb *t)
{
	memset(t, 0, sizeof(*t));
	t->cblock_size = 8192;
}

static uint64_t tb_add(struct tb *t, const char *name, uint32_t mode)
{
	if (t->n == t->cap) {
		t->cap = t->cap ? t->cap * 2 : 16;
		t->ino = realloc(t->ino, t->cap * sizeof(*t->ino));
		ck_assert_ptr_nonnull(t->ino);
	}
	memset(&t->ino[t->n], 0, sizeof(t->ino[0]));
	t->ino[t->n].name = name;
	t->ino[t->n].mode = mode;
	return t->n++;
}

static uint64_t tb_dir(struct tb *t, const char *name, uint64_t first,
		       uint64_t count)
{
	uint64_t i = tb_add(t, name, S_IFDIR | 0755);

	t->ino[i].first = first;
	t->ino[i].count = count;
	return i;
}

static uint64_t tb_file(struct tb *t, const char *name, const void *data,
			size_t len, enum store st)
{
	uint64_t i = tb_add(t, name, S_IFREG | 0644);

	t->ino[i].data = data;
	t->ino[i].len = len;
	t->ino[i].st = len ? st : ST_NONE;
	return i;
}

/* One table: entries -> minimal depth, maybe compressed. */
struct table {
	uint64_t *v;
	size_t n, cap;
};

static void t_push(struct table *t, uint64_t v)
{
	if (t->n == t->cap) {
		t->cap = t->cap ? t->cap * 2 : 64;
		t->v = realloc(t->v, t->cap * sizeof(*t->v));
		ck_assert_ptr_nonnull(t->v);
	}
	t->v[t->n++] = v;
}

static void put_region(struct tb *t, struct bytes *img, int r,
		       const uint8_t *data, uint64_t size, int depth,
		       uint64_t max_index, int compress)
{
	uint8_t *d = img->p + t->desc[r];

	t->fsoff[r] = img->n;
	t->depth[r] = (uint8_t)depth;
	put_unaligned_be64(img->n, d + AXFS_RD_FSOFFSET);
	put_unaligned_be64(size, d + AXFS_RD_SIZE);
	put_unaligned_be64(max_index, d + AXFS_RD_MAX_INDEX);
	d[AXFS_RD_TABLE_DEPTH] = (uint8_t)depth;
	if (compress && size) {
		uLongf zl = compressBound(size);
		uint8_t *z = malloc(zl);

		ck_assert_int_eq(compress2(z, &zl, data, size, 9), Z_OK);
		put_unaligned_be64(zl, img->p + t->desc[r] + AXFS_RD_COMPRESSED_SIZE);
		b_put(img, z, zl);
		free(z);
	} else {
		b_put(img, data, size);
	}
}

static void put_table(struct tb *t, struct bytes *img, int r,
		      struct table *tab)
{
	uint64_t max = 0;
	unsigned int depth;
	uint8_t *buf;

	for (size_t i = 0; i < tab->n; i++)
		if (tab->v[i] > max)
			max = tab->v[i];
	depth = axfs_bytetable_depth_for(max);
	buf = calloc(tab->n * depth + 1, 1);
	for (size_t i = 0; i < tab->n; i++)
		axfs_bytetable_put(buf, depth, i, tab->v[i]);
	put_region(t, img, r, buf, tab->n * depth, (int)depth, tab->n,
		   t->compress_tables);
	free(buf);
	free(tab->v);
	memset(tab, 0, sizeof(*tab));
}

/* Builds the image; returns a malloc'd buffer of *len bytes. */
static uint8_t *tb_build(struct tb *t, size_t *len)
{
	struct bytes img = { 0 }, xip = { 0 }, ba = { 0 }, cz = { 0 };
	struct bytes strings = { 0 };
	struct table tab[AXFS_REGION_COUNT];
	uint64_t nodes = 0, cblocks = 0;
	uint8_t *cbuf = malloc(t->cblock_size);
	size_t cfill = 0;
	uint64_t cnode_count = 0;

	memset(tab, 0, sizeof(tab));
	/* Pending cblock: flushed when full or at the end. */
#define FLUSH_CBLOCK() do { \
		if (cfill) { \
			uLongf zl = compressBound(cfill); \
			uint8_t *z = malloc(zl); \
			ck_assert_int_eq(compress2(z, &zl, cbuf, cfill, 9), Z_OK); \
			b_put(&cz, z, zl); \
			free(z); \
			t_push(&tab[AXFS_R_CBLOCK_OFFSET], cz.n); \
			cblocks++; \
			cfill = 0; \
		} \
	} while (0)
	t_push(&tab[AXFS_R_CBLOCK_OFFSET], 0);

	for (size_t i = 0; i < t->n; i++) {
		struct tino *in = &t->ino[i];
		uint64_t fs = in->len;
		size_t nl = strlen(in->name) + 1;

		t_push(&tab[AXFS_R_INODE_NAME_OFFSET], strings.n);
		b_put(&strings, in->name, nl);
		t_push(&tab[AXFS_R_INODE_MODE_INDEX], i);
		t_push(&tab[AXFS_R_MODES], in->mode);
		t_push(&tab[AXFS_R_UIDS], in->uid);
		t_push(&tab[AXFS_R_GIDS], in->gid);
		if (S_ISDIR(in->mode)) {
			t_push(&tab[AXFS_R_INODE_FILE_SIZE], 0);
			t_push(&tab[AXFS_R_INODE_NUM_ENTRIES], in->count);
			t_push(&tab[AXFS_R_INODE_ARRAY_INDEX], in->first);
			continue;
		}
		if (!S_ISREG(in->mode) && !S_ISLNK(in->mode)) {
			t_push(&tab[AXFS_R_INODE_FILE_SIZE], in->rdev);
			t_push(&tab[AXFS_R_INODE_NUM_ENTRIES], 0);
			t_push(&tab[AXFS_R_INODE_ARRAY_INDEX], 0);
			continue;
		}
		if (S_ISLNK(in->mode))
			fs = strlen((const char *)in->data);
		in->file_size = fs;
		t_push(&tab[AXFS_R_INODE_FILE_SIZE], fs);
		t_push(&tab[AXFS_R_INODE_NUM_ENTRIES], 0);
		t_push(&tab[AXFS_R_INODE_ARRAY_INDEX], nodes);
		if (i < 64)
			t->first_node[i] = nodes;
		for (uint64_t off = 0; off < fs; off += AXFS_PAGE_SIZE) {
			size_t n = fs - off < AXFS_PAGE_SIZE ?
				   (size_t)(fs - off) : AXFS_PAGE_SIZE;
			/* symlinks keep their NUL inside the node data */
			size_t sn = S_ISLNK(in->mode) ? n + 1 : n;

			nodes++;
			if (in->st == ST_XIP) {
				t_push(&tab[AXFS_R_NODE_TYPE], AXFS_NODE_XIP);
				t_push(&tab[AXFS_R_NODE_INDEX],
				       xip.n / AXFS_PAGE_SIZE);
				b_put(&xip, in->data + off, n);
				b_zero(&xip, AXFS_PAGE_SIZE - n);
			} else if (in->st == ST_BA) {
				t_push(&tab[AXFS_R_NODE_TYPE],
				       AXFS_NODE_BYTE_ALIGNED);
				t_push(&tab[AXFS_R_NODE_INDEX],
				       tab[AXFS_R_BANODE_OFFSET].n);
				t_push(&tab[AXFS_R_BANODE_OFFSET], ba.n);
				b_put(&ba, in->data + off, sn);
			} else {
				if (cfill + AXFS_PAGE_SIZE > t->cblock_size)
					FLUSH_CBLOCK();
				t_push(&tab[AXFS_R_NODE_TYPE],
				       AXFS_NODE_COMPRESSED);
				t_push(&tab[AXFS_R_NODE_INDEX], cnode_count++);
				t_push(&tab[AXFS_R_CNODE_OFFSET], cfill);
				t_push(&tab[AXFS_R_CNODE_INDEX], cblocks);
				memcpy(cbuf + cfill, in->data + off, sn);
				cfill += sn;
			}
		}
	}
	FLUSH_CBLOCK();
	free(cbuf);
	if (cblocks == 0)
		tab[AXFS_R_CBLOCK_OFFSET].n = 0;

	/* superblock + page_shift + 18 descriptors */
	b_zero(&img, AXFS_SUPER_SIZE_EXT + AXFS_REGION_COUNT *
	       AXFS_REGION_DESC_SIZE);
	for (int r = 0; r < AXFS_REGION_COUNT; r++)
		t->desc[r] = AXFS_SUPER_SIZE_EXT + r * AXFS_REGION_DESC_SIZE;
	b_zero(&img, AXFS_PAGE_SIZE - img.n % AXFS_PAGE_SIZE);
	put_region(t, &img, AXFS_R_XIP, xip.p, xip.n, 0, xip.n / 4096, 0);
	put_region(t, &img, AXFS_R_STRINGS, strings.p, strings.n, 0, t->n,
		   t->compress_tables);
	for (int r = AXFS_R_NODE_TYPE; r < AXFS_REGION_COUNT; r++)
		put_table(t, &img, r, &tab[r]);
	put_region(t, &img, AXFS_R_BYTE_ALIGNED, ba.p, ba.n, 0, 0, 0);
	put_region(t, &img, AXFS_R_COMPRESSED, cz.p, cz.n, 0, cblocks, 0);
	b_zero(&img, AXFS_PAGE_SIZE - img.n % AXFS_PAGE_SIZE);
	{
		uint8_t m[4];

		put_unaligned_be32(AXFS_MAGIC, m);
		memcpy(img.p + img.n - 4, m, 4);
	}
	/* superblock */
	put_unaligned_be32(AXFS_MAGIC, img.p + AXFS_SB_MAGIC);
	memcpy(img.p + AXFS_SB_SIGNATURE, AXFS_SIGNATURE, 16);
	put_unaligned_be32(t->cblock_size, img.p + AXFS_SB_CBLOCK_SIZE);
	put_unaligned_be64(t->n, img.p + AXFS_SB_FILES);
	put_unaligned_be64(img.n, img.p + AXFS_SB_SIZE);
	put_unaligned_be64(nodes, img.p + AXFS_SB_BLOCKS);
	put_unaligned_be64(t->mmap_size ? t->mmap_size : img.n, img.p + AXFS_SB_MMAP_SIZE);
	for (int r = 0; r < AXFS_REGION_COUNT; r++)
		put_unaligned_be64(t->desc[r], img.p + AXFS_SB_REGION(r));
	img.p[AXFS_SB_VERSION_MAJOR] = 1;
	put_unaligned_be64(1700000000, img.p + AXFS_SB_TIMESTAMP);
	img.p[AXFS_SB_PAGE_SHIFT] = 12;

	free(xip.p);
	free(ba.p);
	free(cz.p);
	free(strings.p);
	*len = img.n;
	return img.p;
#undef FLUSH_CBLOCK
}

/* ---- the valid sample tree ------------------------------------------------- */

static uint8_t big[3 * 4096 + 100];	/* 3 pages + a tail */
static uint8_t small[1] = { 'x' };
static uint8_t page1[4096];

static void fill(void)
{
	for (size_t i = 0; i < sizeof(big); i++)
		big[i] = (uint8_t)(i * 7 + (i >> 12));
	for (size_t i = 0; i < sizeof(page1); i++)
		page1[i] = (uint8_t)(i ^ 0x5a);
}

/*
 *  /            0 dir [1, 7)
 *  /a.xip       1 XIP (3 pages + tail)
 *  /b.ba        2 byte-aligned, 1 byte
 *  /c.z         3 compressed (3 pages + tail, 2 pages per cblock)
 *  /dev         4 dir [7, 9)
 *  /empty       5 empty file
 *  /link        6 symlink -> "c.z" (byte-aligned, with its NUL)
 *  /dev/null    7 char 1,3
 *  /dev/pipe    8 fifo
 */
static void sample(struct tb *t)
{
	uint64_t i;

	fill();
	tb_init(t);
	tb_dir(t, "", 1, 6);
	tb_file(t, "a.xip", big, sizeof(big), ST_XIP);
	tb_file(t, "b.ba", small, 1, ST_BA);
	tb_file(t, "c.z", big, sizeof(big), ST_Z);
	tb_dir(t, "dev", 7, 2);
	tb_file(t, "empty", NULL, 0, ST_NONE);
	i = tb_add(t, "link", S_IFLNK | 0777);
	t->ino[i].data = (const uint8_t *)"c.z";
	t->ino[i].st = ST_BA;
	i = tb_add(t, "null", S_IFCHR | 0666);
	t->ino[i].rdev = axfs_encode_dev(1, 3);
	t->ino[i].uid = 5;
	t->ino[i].gid = 6;
	tb_add(t, "pipe", S_IFIFO | 0600);
}

static struct axfs_image *open_ok(const uint8_t *buf, size_t len, int lenient)
{
	struct axfs_open_opts o = { .struct_size = sizeof(o), .lenient = lenient };
	struct axfs_image *img = NULL;
	struct axfs_error e;

	axfs_error_clear(&e);
	if (axfs_image_open_buffer(&img, buf, len, "t.axfs", &o, &e) < 0)
		ck_abort_msg("open failed: %s", e.msg);
	return img;
}

/* Opening must fail with a message containing every given piece. */
static void open_fails(const uint8_t *buf, size_t len, int lenient,
		       const char *want1, const char *want2)
{
	struct axfs_open_opts o = { .struct_size = sizeof(o), .lenient = lenient };
	struct axfs_image *img = NULL;
	struct axfs_error e;
	int rc;

	axfs_error_clear(&e);
	rc = axfs_image_open_buffer(&img, buf, len, "t.axfs", &o, &e);
	if (rc == 0)
		axfs_image_close(img);
	ck_assert_msg(rc < 0, "open succeeded; wanted '%s'", want1);
	ck_assert_ptr_null(img);
	ck_assert_msg(strstr(e.msg, "'t.axfs': ") == e.msg,
		      "message does not name the file: %s", e.msg);
	ck_assert_msg(strstr(e.msg, want1), "'%s' not in: %s", want1, e.msg);
	if (want2)
		ck_assert_msg(strstr(e.msg, want2), "'%s' not in: %s", want2,
			      e.msg);
}

struct collect {
	char paths[64][64];
	uint64_t inos[64];
	int n;
};

static int collect_fn(void *ctx, const char *path,
		      const struct axfs_inode_info *in)
{
	struct collect *c = ctx;

	ck_assert_int_lt(c->n, 64);
	snprintf(c->paths[c->n], sizeof(c->paths[0]), "%s", path);
	c->inos[c->n++] = in->ino;
	return 0;
}

/* Reads every file of every walkable image; returns the walk's result. */
static int read_all_fn(void *ctx, const char *path,
		       const struct axfs_inode_info *in)
{
	struct axfs_image *img = ctx;
	uint8_t page[AXFS_PAGE_SIZE];
	struct axfs_error e;
	char tgt[AXFS_PAGE_SIZE];
	size_t len;
	uint64_t found;

	(void)axfs_image_lookup(img, path, &found, &e);
	if (S_ISLNK(in->mode))
		(void)axfs_image_readlink(img, in->ino, tgt, sizeof(tgt), &e);
	if (!S_ISREG(in->mode) && !S_ISLNK(in->mode))
		return 0;
	for (uint64_t p = 0; p < (in->size + 4095) / 4096 && p < 64; p++)
		if (axfs_image_read_page(img, in->ino, p, page, &len, &e) < 0)
			break;
	return 0;
}

static int walk_msg(struct axfs_image *img, struct axfs_error *e)
{
	axfs_error_clear(e);
	return axfs_image_walk(img, read_all_fn, img, e);
}

/* The image opens and every file in it reads back. */
static void walk_ok(const uint8_t *buf, size_t len, int lenient)
{
	struct axfs_image *img = open_ok(buf, len, lenient);
	struct axfs_error e;

	ck_assert_msg(walk_msg(img, &e) == 0, "walk: %s", e.msg);
	axfs_image_close(img);
}

static void walk_fails(const uint8_t *buf, size_t len, int lenient,
		       const char *want1, const char *want2)
{
	struct axfs_image *img = open_ok(buf, len, lenient);
	struct axfs_error e;
	int rc = walk_msg(img, &e);

	axfs_image_close(img);
	ck_assert_msg(rc < 0, "walk succeeded; wanted '%s'", want1);
	ck_assert_msg(strstr(e.msg, want1), "'%s' not in: %s", want1, e.msg);
	if (want2)
		ck_assert_msg(strstr(e.msg, want2), "'%s' not in: %s", want2,
			      e.msg);
}

static char *at(uint64_t off)
{
	static char s[8][40];
	static int k;

	k = (k + 1) % 8;
	snprintf(s[k], sizeof(s[k]), "byte %" PRIu64 ":", off);
	return s[k];
}

/* Image offset of the name of inode i (strings stored raw). */
static uint64_t name_at(const struct tb *t, uint64_t i)
{
	uint64_t off = t->fsoff[AXFS_R_STRINGS];

	for (uint64_t k = 0; k < i; k++)
		off += strlen(t->ino[k].name) + 1;
	return off;
}

/* Image offset of table entry i (tables are stored raw by default). */
static uint64_t ent(const struct tb *t, int r, uint64_t i)
{
	return t->fsoff[r] + i * t->depth[r];
}

/* ---- the valid image, read back completely ------------------------------- */

static void check_sample(const uint8_t *buf, size_t len, const struct tb *t)
{
	struct axfs_image *img = open_ok(buf, len, 0);
	struct axfs_inode_info in;
	struct axfs_page_loc loc;
	struct axfs_error e;
	struct collect c = { .n = 0 };
	uint8_t page[AXFS_PAGE_SIZE], got[sizeof(big)];
	char tgt[64];
	size_t n;
	uint64_t ino;

	ck_assert_uint_eq(axfs_image_super(img)->files, 9);
	ck_assert_uint_eq(axfs_image_super(img)->timestamp, 1700000000);
	ck_assert_uint_eq(axfs_image_super(img)->page_shift, 12);
	ck_assert_str_eq(axfs_region_name(AXFS_R_GIDS), "gids");

	ck_assert_int_eq(axfs_image_walk(img, collect_fn, &c, &e), 0);
	ck_assert_int_eq(c.n, 9);
	ck_assert_str_eq(c.paths[0], "/");
	ck_assert_str_eq(c.paths[1], "/a.xip");
	ck_assert_str_eq(c.paths[4], "/dev");
	ck_assert_str_eq(c.paths[5], "/dev/null");	/* depth-first */
	ck_assert_str_eq(c.paths[6], "/dev/pipe");
	ck_assert_str_eq(c.paths[7], "/empty");
	ck_assert_str_eq(c.paths[8], "/link");
	for (int i = 0; i < c.n; i++) {
		ck_assert_int_eq(axfs_image_lookup(img, c.paths[i], &ino, &e),
				 0);
		ck_assert_uint_eq(ino, c.inos[i]);
	}
	ck_assert_int_eq(axfs_image_lookup(img, "//dev/./../dev/null", &ino,
					   &e), 0);
	ck_assert_uint_eq(ino, 7);
	ck_assert_int_eq(axfs_image_lookup(img, "/nope", &ino, &e),
			 AXFS_ERR_NOT_FOUND);
	ck_assert_int_eq(axfs_image_lookup(img, "/a.xip/x", &ino, &e),
			 AXFS_ERR_NOT_FOUND);

	/* every node type, read through read() and read_page() */
	for (uint64_t f = 1; f <= 3; f += 2) {
		memset(got, 0xee, sizeof(got));
		ck_assert_int_eq(axfs_image_read(img, f, 0, got, sizeof(got),
						 &n, &e), 0);
		ck_assert_uint_eq(n, sizeof(big));
		ck_assert_int_eq(memcmp(got, big, sizeof(big)), 0);
		ck_assert_int_eq(axfs_image_read_page(img, f, 3, page, &n, &e),
				 0);
		ck_assert_uint_eq(n, 100);
		ck_assert_int_eq(memcmp(page, big + 3 * 4096, 100), 0);
		for (int i = 100; i < 4096; i++)
			ck_assert_int_eq(page[i], 0);
		/* unaligned read across pages */
		ck_assert_int_eq(axfs_image_read(img, f, 4000, got, 200, &n,
						 &e), 0);
		ck_assert_uint_eq(n, 200);
		ck_assert_int_eq(memcmp(got, big + 4000, 200), 0);
		ck_assert_int_eq(axfs_image_read(img, f, sizeof(big) - 5, got,
						 100, &n, &e), 0);
		ck_assert_uint_eq(n, 5);
	}
	/* compressed pages go back and forth between cblocks (cache) */
	ck_assert_int_eq(axfs_image_read_page(img, 3, 2, page, &n, &e), 0);
	ck_assert_int_eq(memcmp(page, big + 2 * 4096, 4096), 0);
	ck_assert_int_eq(axfs_image_read_page(img, 3, 0, page, &n, &e), 0);
	ck_assert_int_eq(memcmp(page, big, 4096), 0);
	ck_assert_int_eq(axfs_image_page_location(img, 3, 1, &loc, &e), 0);
	ck_assert_uint_eq(loc.type, AXFS_NODE_COMPRESSED);
	ck_assert_uint_eq(loc.cblock, 0);
	ck_assert_uint_eq(loc.cnode_offset, 4096);
	ck_assert_int_eq(axfs_image_page_location(img, 3, 2, &loc, &e), 0);
	ck_assert_uint_eq(loc.cblock, 1);
	ck_assert_int_eq(axfs_image_page_location(img, 1, 2, &loc, &e), 0);
	ck_assert_uint_eq(loc.type, AXFS_NODE_XIP);
	ck_assert_uint_eq(loc.image_offset, t->fsoff[AXFS_R_XIP] + 2 * 4096);
	ck_assert_int_eq(axfs_image_page_location(img, 2, 0, &loc, &e), 0);
	ck_assert_uint_eq(loc.type, AXFS_NODE_BYTE_ALIGNED);
	ck_assert_uint_eq(loc.data_len, 1);
	ck_assert_int_eq(axfs_image_read(img, 2, 0, got, 10, &n, &e), 0);
	ck_assert_uint_eq(n, 1);
	ck_assert_int_eq(got[0], 'x');
	ck_assert_int_eq(axfs_image_read(img, 5, 0, got, 10, &n, &e), 0);
	ck_assert_uint_eq(n, 0);
	ck_assert_int_eq(axfs_image_page_location(img, 5, 0, &loc, &e),
			 AXFS_ERR_INVALID);
	ck_assert_int_eq(axfs_image_page_location(img, 4, 0, &loc, &e),
			 AXFS_ERR_INVALID);

	ck_assert_int_eq(axfs_image_readlink(img, 6, tgt, sizeof(tgt), &e), 0);
	ck_assert_str_eq(tgt, "c.z");
	ck_assert_int_eq(axfs_image_readlink(img, 6, tgt, 3, &e),
			 AXFS_ERR_LIMIT);
	ck_assert_int_eq(axfs_image_readlink(img, 1, tgt, 3, &e),
			 AXFS_ERR_INVALID);

	ck_assert_int_eq(axfs_image_inode(img, 7, &in, &e), 0);
	ck_assert_uint_eq(in.mode, S_IFCHR | 0666);
	ck_assert_uint_eq(AXFS_DEV_MAJOR(in.file_size), 1);
	ck_assert_uint_eq(AXFS_DEV_MINOR(in.file_size), 3);
	ck_assert_uint_eq(in.size, 0);
	ck_assert_uint_eq(in.uid, 5);
	ck_assert_uint_eq(in.gid, 6);
	ck_assert_str_eq(in.name, "null");
	ck_assert_int_eq(axfs_image_inode(img, 9, &in, &e), AXFS_ERR_FORMAT);
	ck_assert_ptr_nonnull(strstr(e.msg, "inode 9 does not exist"));
	axfs_image_close(img);
}

START_TEST(test_valid_image)
{
	struct tb t;
	size_t len;
	uint8_t *buf;
	uint64_t v;
	struct axfs_image *img;
	struct axfs_error e;

	sample(&t);
	buf = tb_build(&t, &len);
	check_sample(buf, len, &t);
	img = open_ok(buf, len, 0);
	ck_assert_int_eq(axfs_image_table(img, AXFS_R_MODES, 4, &v, &e), 0);
	ck_assert_uint_eq(v, S_IFDIR | 0755);
	ck_assert_int_eq(axfs_image_table(img, AXFS_R_MODES, 9, &v, &e),
			 AXFS_ERR_FORMAT);
	ck_assert_int_eq(axfs_image_table(img, AXFS_R_XIP, 0, &v, &e),
			 AXFS_ERR_INVALID);
	axfs_image_close(img);
	free(buf);
	free(t.ino);
}
END_TEST

START_TEST(test_compressed_tables)
{
	struct tb t;
	size_t len;
	uint64_t files;
	uint8_t *buf;

	sample(&t);
	t.compress_tables = 1;
	buf = tb_build(&t, &len);
	check_sample(buf, len, &t);
	/* A table whose stream inflates to less than its size. */
	put_unaligned_be64(100, buf + t.desc[AXFS_R_MODES] + AXFS_RD_SIZE);
	open_fails(buf, len, 0, at(t.desc[AXFS_R_MODES] + AXFS_RD_SIZE),
		   "inflates to");
	/* ... to more than its size */
	put_unaligned_be64(2, buf + t.desc[AXFS_R_MODES] + AXFS_RD_SIZE);
	put_unaligned_be64(1, buf + t.desc[AXFS_R_MODES] + AXFS_RD_MAX_INDEX);
	open_fails(buf, len, 0, "region 'modes' inflates to more than", NULL);
	/* a size past what the superblock's inode count allows (8 bytes
	 * an inode and a page: budget.h) */
	put_unaligned_be64(1ull << 29, buf + t.desc[AXFS_R_MODES] + AXFS_RD_SIZE);
	open_fails(buf, len, 0, at(t.desc[AXFS_R_MODES] + AXFS_RD_SIZE),
		   "region 'modes' claims 536870912 bytes; the superblock's");
	/* a size the counts allow but no zlib stream can reach */
	files = get_unaligned_be64(buf + AXFS_SB_FILES);
	put_unaligned_be64(1ull << 20, buf + AXFS_SB_FILES);
	put_unaligned_be64(1ull << 22, buf + t.desc[AXFS_R_MODES] + AXFS_RD_SIZE);
	open_fails(buf, len, 0, "more than zlib can expand", NULL);
	put_unaligned_be64(files, buf + AXFS_SB_FILES);
	/* a corrupt stream */
	put_unaligned_be64(18, buf + t.desc[AXFS_R_MODES] + AXFS_RD_SIZE);
	buf[t.fsoff[AXFS_R_MODES] + 1] ^= 0xff;
	open_fails(buf, len, 0, at(t.fsoff[AXFS_R_MODES]), "zlib");
	free(buf);
	free(t.ino);
}
END_TEST

/* The memory budget (budget.h): max_memory, else 64 MiB + 8 x size. */
START_TEST(test_memory_budget)
{
	struct axfs_open_opts o = { .struct_size = sizeof(o), .max_memory = 16 };
	struct axfs_image *img = NULL;
	struct axfs_error e;
	struct tb t;
	size_t len;
	uint8_t *buf;

	sample(&t);
	buf = tb_build(&t, &len);
	axfs_error_clear(&e);
	ck_assert_int_lt(axfs_image_open_buffer(&img, buf, len, "t.axfs", &o,
						&e), 0);
	ck_assert_ptr_null(img);
	ck_assert_msg(strstr(e.msg, "-byte memory budget are in use"), "%s",
		      e.msg);
	ck_assert_msg(strstr(e.msg, "'t.axfs': byte "), "%s", e.msg);
	o.max_memory = 0;
	ck_assert_int_eq(axfs_image_open_buffer(&img, buf, len, "t.axfs", &o,
						&e), 0);
	axfs_image_close(img);
	free(buf);
	free(t.ino);
}
END_TEST

/* From files, and split into an mmap and a store segment. */
START_TEST(test_files_and_split)
{
	char dir[] = "/tmp/axfs-test-reader.XXXXXX";
	char p1[64], p2[64];
	struct axfs_open_opts o = { .struct_size = sizeof(o) };
	struct axfs_image *img;
	struct axfs_error e;
	uint8_t got[sizeof(big)];
	struct tb t;
	size_t len, n, cut;
	uint8_t *buf;
	FILE *f;

	sample(&t);
	buf = tb_build(&t, &len);
	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(p1, sizeof(p1), "%s/img", dir);
	snprintf(p2, sizeof(p2), "%s/store", dir);
	f = fopen(p1, "wb");
	ck_assert_uint_eq(fwrite(buf, 1, len, f), len);
	fclose(f);
	ck_assert_int_eq(axfs_image_open(&img, p1, &o, &e), 0);
	ck_assert_uint_eq(axfs_image_file_size(img), len);
	ck_assert_int_eq(axfs_image_read(img, 3, 0, got, sizeof(got), &n, &e),
			 0);
	ck_assert_int_eq(memcmp(got, big, sizeof(big)), 0);
	axfs_image_close(img);

	/* Split in the middle of the strings region: reads straddle it. */
	cut = t.fsoff[AXFS_R_STRINGS] + 3;
	put_unaligned_be64(cut, buf + AXFS_SB_MMAP_SIZE);
	f = fopen(p1, "wb");
	ck_assert_uint_eq(fwrite(buf, 1, cut, f), cut);
	fclose(f);
	f = fopen(p2, "wb");
	ck_assert_uint_eq(fwrite(buf + cut, 1, len - cut, f), len - cut);
	fclose(f);
	ck_assert_int_eq(axfs_image_open(&img, p1, &o, &e), AXFS_ERR_FORMAT);
	ck_assert_msg(strstr(e.msg, "give its store segment"), "%s", e.msg);
	o.store_path = p2;
	ck_assert_int_eq(axfs_image_open(&img, p1, &o, &e), 0);
	check_sample(buf, len, &t);	/* the joined bytes still read */
	ck_assert_int_eq(axfs_image_read(img, 3, 0, got, sizeof(got), &n, &e),
			 0);
	ck_assert_int_eq(memcmp(got, big, sizeof(big)), 0);
	ck_assert_int_eq(axfs_image_read(img, 1, 0, got, sizeof(got), &n, &e),
			 0);
	ck_assert_int_eq(memcmp(got, big, sizeof(big)), 0);
	axfs_image_close(img);
	/* A store that is too short. */
	ck_assert_int_eq(truncate(p2, 100), 0);
	ck_assert_int_eq(axfs_image_open(&img, p1, &o, &e), AXFS_ERR_FORMAT);
	ck_assert_msg(strstr(e.msg, "byte 72:"), "%s", e.msg);

	ck_assert_int_eq(axfs_image_open(&img, dir, NULL, &e),
			 AXFS_ERR_INVALID);
	ck_assert_int_eq(axfs_image_open(&img, "/nonexistent/x", NULL, &e),
			 AXFS_ERR_IO);
	ck_assert_msg(strstr(e.msg, "cannot open '/nonexistent/x'"), "%s",
		      e.msg);
	unlink(p1);
	unlink(p2);
	rmdir(dir);
	free(buf);
	free(t.ino);
}
END_TEST

/* ---- hostile superblocks and descriptors ------------------------------------ */

START_TEST(test_bad_superblock)
{
	struct tb t;
	size_t len;
	uint8_t *buf, *copy;

	sample(&t);
	buf = tb_build(&t, &len);
	copy = malloc(len);
#define RESET() memcpy(copy, buf, len)
	RESET();
	open_fails(copy, 100, 0, "byte 0:", "too short");
	open_fails(copy, 0, 1, "byte 0:", "too short");
	open_fails(copy, len - 4096, 0, "byte 72:", "larger than the file");
	copy[0] ^= 1;
	open_fails(copy, len, 0, "byte 0:", "not an AXFS image");
	open_fails(copy, len, 1, "byte 0:", "bad magic");
	RESET();
	copy[AXFS_SB_SIGNATURE + 15] = 'x';
	open_fails(copy, len, 0, "byte 4:", "signature");
	RESET();
	copy[AXFS_SB_COMPRESSION_TYPE] = 1;
	open_fails(copy, len, 0, "byte 243:", "compression type 1");
	RESET();
	put_unaligned_be32(5000, copy + AXFS_SB_CBLOCK_SIZE);
	open_fails(copy, len, 0, "byte 60:", "cblock_size 5000");
	put_unaligned_be32(2048, copy + AXFS_SB_CBLOCK_SIZE);
	open_fails(copy, len, 0, "byte 60:", NULL);
	put_unaligned_be32(2u << 20, copy + AXFS_SB_CBLOCK_SIZE);
	open_fails(copy, len, 0, "byte 60:", NULL);
	RESET();
	copy[len - 1] ^= 1;
	open_fails(copy, len, 0, at(len - 4), "magic is missing");
	RESET();
	put_unaligned_be64(100, copy + AXFS_SB_SIZE);
	open_fails(copy, len, 0, "byte 72:", "smaller");
	put_unaligned_be64(UINT64_MAX, copy + AXFS_SB_SIZE);
	open_fails(copy, len, 0, "byte 72:", NULL);
	RESET();
	put_unaligned_be64(len + 1, copy + AXFS_SB_MMAP_SIZE);
	open_fails(copy, len, 0, "byte 88:", "mmap_size");
	RESET();
	put_unaligned_be64(0, copy + AXFS_SB_FILES);
	open_fails(copy, len, 0, "byte 64:", "inode count 0");
	put_unaligned_be64(1ull << 40, copy + AXFS_SB_FILES);
	open_fails(copy, len, 0, "byte 64:", NULL);
	put_unaligned_be64(10, copy + AXFS_SB_FILES);
	open_fails(copy, len, 0, at(t.desc[AXFS_R_INODE_FILE_SIZE] +
				    AXFS_RD_SIZE), "fewer than the 10 inodes");
	RESET();
	put_unaligned_be64(UINT64_MAX, copy + AXFS_SB_BLOCKS);
	open_fails(copy, len, 0, at(t.desc[AXFS_R_NODE_TYPE] + AXFS_RD_SIZE),
		   "nodes");
	free(copy);
	free(buf);
	free(t.ino);
#undef RESET
}
END_TEST

START_TEST(test_bad_regions)
{
	struct tb t;
	size_t len;
	uint8_t *buf, *copy;
	struct axfs_image *img;
	struct axfs_error e;
	struct axfs_inode_info in;

	sample(&t);
	buf = tb_build(&t, &len);
	copy = malloc(len);
#define RESET() memcpy(copy, buf, len)
	for (int r = 0; r < AXFS_REGION_COUNT; r++) {
		uint64_t d = t.desc[r];

		RESET();
		/* descriptor offset past the end */
		put_unaligned_be64(len - 39, copy + AXFS_SB_REGION(r));
		open_fails(copy, len, 0, at(AXFS_SB_REGION(r)),
			   "lies past the end");
		put_unaligned_be64(UINT64_MAX - 10, copy + AXFS_SB_REGION(r));
		open_fails(copy, len, 0, at(AXFS_SB_REGION(r)), NULL);
		RESET();
		/* region past the end, and wrapping around 2^64 */
		put_unaligned_be64(len - 2, copy + d + AXFS_RD_FSOFFSET);
		put_unaligned_be64(3, copy + d + AXFS_RD_SIZE);
		open_fails(copy, len, 0, at(d), "extends past the end of the "
			   "image");
		put_unaligned_be64(UINT64_MAX - 1, copy + d + AXFS_RD_FSOFFSET);
		open_fails(copy, len, 0, at(d), "extends past the end");
		put_unaligned_be64(4096, copy + d + AXFS_RD_FSOFFSET);
		put_unaligned_be64(UINT64_MAX, copy + d + AXFS_RD_COMPRESSED_SIZE);
		open_fails(copy, len, 0, at(d), "compressed size");
		/* lenient: opens, and the region is unusable */
		img = open_ok(copy, len, 1);
		axfs_image_close(img);
		if (!AXFS_REGION_IS_TABLE(r))
			continue;
		RESET();
		copy[d + AXFS_RD_TABLE_DEPTH] = 9;
		open_fails(copy, len, 0, at(d + AXFS_RD_TABLE_DEPTH),
			   "byte depth 9");
		RESET();
		put_unaligned_be64(UINT64_MAX / 2, copy + d + AXFS_RD_MAX_INDEX);
		if (t.depth[r])
			open_fails(copy, len, 0, at(d + AXFS_RD_MAX_INDEX),
				   "too small");
	}
	/* lenient mode reports the broken region where it is used */
	RESET();
	put_unaligned_be64(UINT64_MAX, copy + t.desc[AXFS_R_MODES] + AXFS_RD_FSOFFSET);
	img = open_ok(copy, len, 1);
	ck_assert_int_eq(axfs_image_inode(img, 1, &in, &e), AXFS_ERR_FORMAT);
	ck_assert_msg(strstr(e.msg, at(t.desc[AXFS_R_MODES])), "%s", e.msg);
	ck_assert_msg(strstr(e.msg, "region 'modes'"), "%s", e.msg);
	ck_assert_uint_eq(axfs_image_region(img, AXFS_R_MODES)->fsoffset,
			  UINT64_MAX);
	axfs_image_close(img);
	/* a region larger than this reader loads */
	RESET();
	put_unaligned_be64(2ull << 30, copy + t.desc[AXFS_R_STRINGS] + AXFS_RD_SIZE);
	put_unaligned_be64(100, copy + t.desc[AXFS_R_STRINGS] + AXFS_RD_COMPRESSED_SIZE);
	open_fails(copy, len, 0, at(t.desc[AXFS_R_STRINGS] + AXFS_RD_SIZE),
		   "loads at most");
	free(copy);
	free(buf);
	free(t.ino);
#undef RESET
}
END_TEST

/* The root must be a non-empty directory whose children exist. */
START_TEST(test_bad_root)
{
	struct tb t;
	size_t len;
	uint8_t *buf;

	sample(&t);
	t.ino[0].count = 0;
	buf = tb_build(&t, &len);
	open_fails(buf, len, 0, at(ent(&t, AXFS_R_INODE_NUM_ENTRIES, 0)),
		   "empty filesystem");
	free(buf);
	t.ino[0].count = 9;
	buf = tb_build(&t, &len);
	open_fails(buf, len, 0, at(ent(&t, AXFS_R_INODE_ARRAY_INDEX, 0)),
		   "outside [1, 9)");
	free(buf);
	t.ino[0].count = 6;
	t.ino[0].mode = S_IFREG | 0644;
	buf = tb_build(&t, &len);
	open_fails(buf, len, 0, at(ent(&t, AXFS_R_MODES, 0)),
		   "not a directory");
	free(buf);
	free(t.ino);
}
END_TEST

/* ---- hostile trees --------------------------------------------------------- */

START_TEST(test_cycle)
{
	struct tb t;
	size_t len;
	uint8_t *buf;

	/* / -> a -> a (itself) */
	tb_init(&t);
	tb_dir(&t, "", 1, 1);
	tb_dir(&t, "a", 1, 1);
	buf = tb_build(&t, &len);
	walk_fails(buf, len, 0, "'/a/a' is inode 1", "cycle");
	walk_fails(buf, len, 1, "'/a/a' is inode 1", "cycle");
	free(buf);
	free(t.ino);
	/* two directories listing the same file */
	tb_init(&t);
	tb_dir(&t, "", 1, 2);
	tb_dir(&t, "a", 3, 1);
	tb_dir(&t, "b", 3, 1);
	tb_file(&t, "f", small, 1, ST_BA);
	buf = tb_build(&t, &len);
	walk_fails(buf, len, 0, "'/b/f' is inode 3", "two directories");
	walk_ok(buf, len, 1);
	free(buf);
	free(t.ino);
}
END_TEST

START_TEST(test_bad_names)
{
	static const struct {
		const char *a, *b, *want;
		int bad;		/* the inode named in the error */
	} cases[] = {
		{ "x/y", "z", "a '/' in its name", 1 },
		{ ".", "z", "never looks up", 1 },
		{ "..", "z", "never looks up", 1 },
		{ "", "z", "an empty name", 1 },
		{ "b", "a", "after 'b'", 2 },
		{ "a", "a", "after 'a'", 2 },
		{ "ab", "a", "strcmp order", 2 },
		{ "a", "\x80", NULL, 0 },	/* fine: strcmp order */
		/* Names as they are: whoever shows the message escapes it
		 * (text.h). */
		{ "\x80", "a", "after '\x80'", 2 },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct tb t;
		size_t len;
		uint8_t *buf;

		tb_init(&t);
		tb_dir(&t, "", 1, 2);
		tb_file(&t, cases[i].a, small, 1, ST_BA);
		tb_file(&t, cases[i].b, small, 1, ST_BA);
		buf = tb_build(&t, &len);
		if (cases[i].want) {
			walk_fails(buf, len, 0, at(name_at(&t, cases[i].bad)),
				   cases[i].want);
		} else {
			walk_ok(buf, len, 0);
		}
		free(buf);
		free(t.ino);
	}
}
END_TEST

/* The driver's lookup misses names that are out of order. */
START_TEST(test_lookup_semantics)
{
	struct tb t;
	size_t len;
	uint8_t *buf;
	struct axfs_image *img;
	struct axfs_error e;
	uint64_t ino;

	tb_init(&t);
	tb_dir(&t, "", 1, 3);
	tb_file(&t, "b", small, 1, ST_BA);
	tb_file(&t, "a", small, 1, ST_BA);	/* after 'b': unreachable */
	tb_file(&t, "\xc3\xa9", small, 1, ST_BA);
	buf = tb_build(&t, &len);
	img = open_ok(buf, len, 0);
	ck_assert_int_eq(axfs_image_lookup(img, "/b", &ino, &e), 0);
	ck_assert_uint_eq(ino, 1);
	ck_assert_int_eq(axfs_image_lookup(img, "/a", &ino, &e),
			 AXFS_ERR_NOT_FOUND);
	/* x86's signed char: no early exit before a high first byte */
	ck_assert_int_eq(axfs_image_lookup(img, "/\xc3\xa9", &ino, &e), 0);
	ck_assert_uint_eq(ino, 3);
	axfs_image_close(img);
	free(buf);
	free(t.ino);
}
END_TEST

START_TEST(test_name_off_the_end)
{
	struct tb t;
	size_t len;
	uint8_t *buf;
	struct axfs_image *img;
	struct axfs_inode_info in;
	struct axfs_error e;
	uint64_t ss;

	sample(&t);
	buf = tb_build(&t, &len);
	/* Cut the strings region before the last name's NUL. */
	ss = get_unaligned_be64(buf + t.desc[AXFS_R_STRINGS] + AXFS_RD_SIZE);
	put_unaligned_be64(ss - 1, buf + t.desc[AXFS_R_STRINGS] + AXFS_RD_SIZE);
	img = open_ok(buf, len, 0);
	ck_assert_int_eq(axfs_image_inode(img, 8, &in, &e), AXFS_ERR_FORMAT);
	ck_assert_msg(strstr(e.msg, "without a NUL"), "%s", e.msg);
	ck_assert_msg(strstr(e.msg, at(t.fsoff[AXFS_R_STRINGS] + ss - 5)),
		      "%s", e.msg);
	axfs_image_close(img);
	walk_fails(buf, len, 0, "without a NUL", NULL);
	/* A name offset past the end. */
	put_unaligned_be64(1, buf + t.desc[AXFS_R_STRINGS] + AXFS_RD_SIZE);
	walk_fails(buf, len, 0, "past the end of the strings region", NULL);
	free(buf);
	free(t.ino);
}
END_TEST

START_TEST(test_too_deep)
{
	struct tb t;
	size_t len;
	uint8_t *buf;
	const int n = READER_MAX_DEPTH_TEST + 2;

	tb_init(&t);
	tb_dir(&t, "", 1, 1);
	for (int i = 1; i < n; i++)
		tb_dir(&t, "d", (uint64_t)i + 1, i + 1 < n ? 1 : 0);
	buf = tb_build(&t, &len);
	walk_fails(buf, len, 0, "more than 4096 directories deep", NULL);
	free(buf);
	/* exactly 4096 is fine */
	t.n = READER_MAX_DEPTH_TEST + 1;
	t.ino[t.n - 1].count = 0;
	buf = tb_build(&t, &len);
	walk_ok(buf, len, 0);
	free(buf);
	free(t.ino);
}
END_TEST

/* ---- hostile nodes --------------------------------------------------------- */

static void page_fails(const uint8_t *buf, size_t len, int lenient,
		       uint64_t ino, uint64_t pg, const char *w1,
		       const char *w2)
{
	struct axfs_image *img = open_ok(buf, len, lenient);
	uint8_t page[AXFS_PAGE_SIZE];
	struct axfs_error e;
	size_t n;
	int rc;

	axfs_error_clear(&e);
	rc = axfs_image_read_page(img, ino, pg, page, &n, &e);
	axfs_image_close(img);
	ck_assert_msg(rc < 0, "read_page succeeded; wanted '%s'", w1);
	ck_assert_msg(strstr(e.msg, w1), "'%s' not in: %s", w1, e.msg);
	if (w2)
		ck_assert_msg(strstr(e.msg, w2), "'%s' not in: %s", w2, e.msg);
}

/*
 * COPY is BUF with entry I of table R set to V; reading page PG of inode
 * INO (put_page_fails) or walking the image (put_walk_fails) fails with a
 * message naming that entry's offset and holding WHY.
 */
static void put_entry(const struct tb *t, const uint8_t *buf, uint8_t *copy,
		      size_t len, int r, uint64_t i, uint64_t v)
{
	memcpy(copy, buf, len);
	axfs_bytetable_put(copy + t->fsoff[r], t->depth[r], i, v);
}

static void put_page_fails(const struct tb *t, const uint8_t *buf,
			   uint8_t *copy, size_t len, int r, uint64_t i,
			   uint64_t v, uint64_t ino, uint64_t pg, const char *why)
{
	put_entry(t, buf, copy, len, r, i, v);
	page_fails(copy, len, 0, ino, pg, at(ent(t, r, i)), why);
}

static void put_walk_fails(const struct tb *t, const uint8_t *buf,
			   uint8_t *copy, size_t len, int r, uint64_t i,
			   uint64_t v, const char *why)
{
	put_entry(t, buf, copy, len, r, i, v);
	walk_fails(copy, len, 0, at(ent(t, r, i)), why);
}

/* Reading the target of symlink INO fails with a message holding WHY. */
static void readlink_fails(const uint8_t *buf, size_t len, uint64_t ino,
			   const char *why)
{
	struct axfs_image *img = open_ok(buf, len, 0);
	struct axfs_error e;
	char target[64];

	ck_assert_int_eq(axfs_image_readlink(img, ino, target, sizeof(target),
					     &e), AXFS_ERR_FORMAT);
	ck_assert_msg(strstr(e.msg, why), "'%s' not in: %s", why, e.msg);
	axfs_image_close(img);
}

START_TEST(test_bad_nodes)
{
	struct tb t;
	size_t len;
	uint8_t *buf, *copy;
	uint64_t n1, cb;
	struct axfs_image *img;
	struct axfs_error e;
	uint8_t page[AXFS_PAGE_SIZE];
	size_t n;

	sample(&t);
	buf = tb_build(&t, &len);
	copy = malloc(len);
	n1 = t.first_node[1];	/* XIP file */
#define RESET() memcpy(copy, buf, len)
#define PUT(r, i, v) axfs_bytetable_put(copy + t.fsoff[r], t.depth[r], i, v)
	/* an XIP page outside the xip region */
	put_page_fails(&t, buf, copy, len, AXFS_R_NODE_INDEX, n1 + 2, 4, 1, 2,
		"not inside the xip region");
	/* unknown node type: refused, or read as XIP when lenient */
	put_page_fails(&t, buf, copy, len, AXFS_R_NODE_TYPE, n1, 3, 1, 0,
		"unknown node type 3");
	img = open_ok(copy, len, 1);
	ck_assert_int_eq(axfs_image_read_page(img, 1, 0, page, &n, &e), 0);
	ck_assert_int_eq(memcmp(page, big, 4096), 0);
	axfs_image_close(img);
	/* a byte-aligned offset past the region */
	put_page_fails(&t, buf, copy, len, AXFS_R_BANODE_OFFSET, 1, 200, 6, 0,
		"past the end of the byte_aligned region");
	/* ...exactly at its end: the driver reads 0 bytes and zero-fills;
	 * the page's 3 bytes do not fit, which fsck reports (banode.range),
	 * so the reader refuses it too (issue 38 §5) */
	RESET();
	PUT(AXFS_R_BANODE_OFFSET, 1, 5);
	page_fails(copy, len, 0, 6, 0, "its 3 bytes at offset 5 do not fit in "
		   "the byte_aligned region (5 bytes)", NULL);
	/* a cnode offset beyond cblock_size */
	put_page_fails(&t, buf, copy, len, AXFS_R_CNODE_OFFSET, 1, 8193, 3, 1,
		"beyond cblock_size");
	/* data beyond the inflated cblock (the driver's stale buffer) */
	RESET();
	PUT(AXFS_R_CNODE_OFFSET, 3, 4150);
	page_fails(copy, len, 0, 3, 3, "runs past the end of cblock 1", NULL);
	/* a cblock index with no sentinel after it */
	RESET();
	PUT(AXFS_R_CNODE_INDEX, 0, 2);
	page_fails(copy, len, 0, 3, 0, "cblock 2 does not exist", NULL);
	/* a cblock longer than cblock_size, then past the region */
	RESET();
	cb = axfs_bytetable_get(copy + t.fsoff[AXFS_R_CBLOCK_OFFSET],
				t.depth[AXFS_R_CBLOCK_OFFSET], 2);
	PUT(AXFS_R_CBLOCK_OFFSET, 2, cb + 1);
	page_fails(copy, len, 0, 3, 3, at(ent(&t, AXFS_R_CBLOCK_OFFSET, 2)),
		   "compressed region");
	/* a cblock that inflates to more than cblock_size */
	RESET();
	put_unaligned_be32(4096, copy + AXFS_SB_CBLOCK_SIZE);
	page_fails(copy, len, 0, 3, 0, "cblock 0 inflates to more than 4096",
		   NULL);
	/* a corrupt cblock */
	RESET();
	copy[t.fsoff[AXFS_R_COMPRESSED] + 5] ^= 0x55;
	page_fails(copy, len, 0, 3, 0, at(t.fsoff[AXFS_R_COMPRESSED]),
		   "cblock 0");
	/* a file whose pages run past the last node */
	RESET();
	PUT(AXFS_R_INODE_FILE_SIZE, 3, 0xffff);
	page_fails(copy, len, 0, 3, 5, at(ent(&t, AXFS_R_INODE_ARRAY_INDEX,
					      3)), "past the last node");
	/* a mode index past the mode tables */
	put_walk_fails(&t, buf, copy, len, AXFS_R_INODE_MODE_INDEX, 2, 9,
		"past the end of table 'modes'");
	/* a directory listing inodes that do not exist */
	put_walk_fails(&t, buf, copy, len, AXFS_R_INODE_NUM_ENTRIES, 4, 5,
		"beyond the 9 inodes");
	/* symlink targets: empty, with a NUL, too long */
	put_entry(&t, buf, copy, len, AXFS_R_INODE_FILE_SIZE, 6, 0);
	readlink_fails(copy, len, 6, "0-byte target");
	put_entry(&t, buf, copy, len, AXFS_R_INODE_FILE_SIZE, 6, 4);
	readlink_fails(copy, len, 6, "has a NUL at byte 3");
	free(copy);
	free(buf);
	free(t.ino);
#undef RESET
#undef PUT
}
END_TEST

/* zlib expands random data: a cblock longer than cblock_size. */
START_TEST(test_incompressible_cblock)
{
	static uint8_t rnd[8192];
	struct tb t;
	size_t len;
	uint8_t *buf;
	uint32_t x = 12345;

	for (size_t i = 0; i < sizeof(rnd); i++) {
		x = x * 1103515245u + 12345u;
		rnd[i] = (uint8_t)(x >> 16);
	}
	tb_init(&t);
	tb_dir(&t, "", 1, 1);
	tb_file(&t, "r", rnd, sizeof(rnd), ST_Z);
	buf = tb_build(&t, &len);
	page_fails(buf, len, 0, 1, 0, at(ent(&t, AXFS_R_CBLOCK_OFFSET, 1)),
		   "more than cblock_size 8192");
	free(buf);
	free(t.ino);
}
END_TEST

/*
 * Where a cblock's stream ends (reader_data.c inflates with libdeflate and
 * leaves what it refuses to zlib): bytes after the stream are ignored, as
 * zlib and the driver ignore them; a stream cut short fails with zlib's
 * reason; a clone inflates with its own state and reads the same bytes.
 */
START_TEST(test_cblock_stream_ends)
{
	struct tb t;
	size_t len, n;
	uint8_t *buf, *copy;
	uint8_t page[AXFS_PAGE_SIZE];
	uint64_t cb1;
	struct axfs_image *img, *clone;
	struct axfs_error e;

	sample(&t);
	buf = tb_build(&t, &len);
	copy = malloc(len);
	cb1 = axfs_bytetable_get(buf + t.fsoff[AXFS_R_CBLOCK_OFFSET],
				 t.depth[AXFS_R_CBLOCK_OFFSET], 1);
	/* cblock 0 followed by the first byte of cblock 1 */
	memcpy(copy, buf, len);
	axfs_bytetable_put(copy + t.fsoff[AXFS_R_CBLOCK_OFFSET],
			   t.depth[AXFS_R_CBLOCK_OFFSET], 1, cb1 + 1);
	img = open_ok(copy, len, 0);
	for (uint64_t pg = 0; pg < 2; pg++) {
		ck_assert_msg(axfs_image_read_page(img, 3, pg, page, &n, &e) == 0,
			      "%s", e.msg);
		ck_assert_uint_eq(n, AXFS_PAGE_SIZE);
		ck_assert_int_eq(memcmp(page, big + pg * AXFS_PAGE_SIZE,
					AXFS_PAGE_SIZE), 0);
	}
	/* ...which leaves cblock 1 without its header byte: zlib's words */
	ck_assert_int_lt(axfs_image_read_page(img, 3, 2, page, &n, &e), 0);
	ck_assert_msg(strstr(e.msg, "cblock 1: corrupt zlib stream "
				    "(incorrect header check)"), "%s", e.msg);
	axfs_image_close(img);
	/* cblock 0 cut in half */
	memcpy(copy, buf, len);
	axfs_bytetable_put(copy + t.fsoff[AXFS_R_CBLOCK_OFFSET],
			   t.depth[AXFS_R_CBLOCK_OFFSET], 1, cb1 / 2);
	page_fails(copy, len, 0, 3, 0, "cblock 0: zlib stream is truncated",
		   NULL);
	/* a clone and its parent, in turn, on different cblocks */
	img = open_ok(buf, len, 0);
	ck_assert_int_eq(axfs_image_clone(&clone, img, &e), 0);
	for (uint64_t pg = 0; pg < 4; pg++) {
		struct axfs_image *h = pg % 2 ? clone : img;
		size_t want = pg < 3 ? AXFS_PAGE_SIZE : sizeof(big) % AXFS_PAGE_SIZE;

		ck_assert_msg(axfs_image_read_page(h, 3, pg, page, &n, &e) == 0,
			      "%s", e.msg);
		ck_assert_uint_eq(n, want);
		ck_assert_int_eq(memcmp(page, big + pg * AXFS_PAGE_SIZE, want), 0);
	}
	axfs_image_close(clone);
	axfs_image_close(img);
	free(copy);
	free(buf);
	free(t.ino);
}
END_TEST

/* Random corruption: never a crash, a hang or a sanitizer report. */
START_TEST(test_random_corruption)
{
	struct tb t;
	size_t len;
	uint8_t *buf, *copy;
	uint64_t seed = 0x9e3779b97f4a7c15ull;

	sample(&t);
	buf = tb_build(&t, &len);
	copy = malloc(len);
	for (int iter = 0; iter < 3000; iter++) {
		int flips = 1 + iter % 4;
		struct axfs_image *img = NULL;
		struct axfs_error e;
		struct axfs_open_opts o = { .struct_size = sizeof(o), .lenient = iter & 1 };

		memcpy(copy, buf, len);
		for (int k = 0; k < flips; k++) {
			size_t pos;

			seed = seed * 6364136223846793005ull + 1442695040888963407ull;
			/* mostly the metadata, sometimes anywhere */
			pos = (size_t)(seed >> 33) % (k & 1 ? len : 4096 + 1024);
			if (pos >= len)
				pos %= len;
			copy[pos] ^= (uint8_t)(1u << ((seed >> 20) & 7));
			if ((seed >> 40) % 7 == 0)
				copy[pos] = 0xff;
		}
		if (axfs_image_open_buffer(&img, copy, len, "f", &o, &e) < 0)
			continue;
		(void)walk_msg(img, &e);
		axfs_image_close(img);
	}
	free(copy);
	free(buf);
	free(t.ino);
}
END_TEST

Suite *suite_reader(void)
{
	Suite *s = suite_create("reader");
	TCase *tc = tcase_create("reader");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_valid_image);
	tcase_add_test(tc, test_compressed_tables);
	tcase_add_test(tc, test_memory_budget);
	tcase_add_test(tc, test_files_and_split);
	tcase_add_test(tc, test_bad_superblock);
	tcase_add_test(tc, test_bad_regions);
	tcase_add_test(tc, test_bad_root);
	tcase_add_test(tc, test_cycle);
	tcase_add_test(tc, test_bad_names);
	tcase_add_test(tc, test_lookup_semantics);
	tcase_add_test(tc, test_name_off_the_end);
	tcase_add_test(tc, test_too_deep);
	tcase_add_test(tc, test_bad_nodes);
	tcase_add_test(tc, test_incompressible_cblock);
	tcase_add_test(tc, test_cblock_stream_ends);
	tcase_add_test(tc, test_random_corruption);
	suite_add_tcase(s, tc);
	return s;
}
