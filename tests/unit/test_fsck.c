// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The image checker on images written by the real writer from a small tree
 * with a hand-made packing (every node type, a hard link, symlinks stored
 * byte-aligned and compressed, two files sharing a cblock, special files):
 * a clean image passes; specific corruptions give the expected check at
 * the expected offset; every single-byte mutation and every truncation is
 * reported (digest on), never crashes (the suite runs under ASan too), and
 * whatever fsck calls clean without the digest, the reader reads in full.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "axfs_format.h"
#include "axfs_fsck.h"
#include "axfs_reader.h"
#include "writer.h"
#include "unit.h"

/* ---- the fixture ---------------------------------------------------------- */

#define CBLOCK 8192

static void entry(struct tree *t, const char *path, enum axfs_ftype type,
		  uint32_t mode, uint64_t size, const char *target,
		  const char *hardlink_to)
{
	struct source_entry e = unit_entry(path, type, mode, size, target,
					   hardlink_to);

	unit_tree_add(t, &e);
}

static void owns(struct tree *t, const char *path, uint64_t first,
		 uint64_t count)
{
	struct tree_entry *e = tree_lookup(t, path);

	ck_assert_ptr_nonnull(e);
	e->first_node = first;
	e->node_count = count;
	e->packed = 1;
}

static uint64_t *u64s(const uint64_t *v, size_t n)
{
	uint64_t *p = malloc(n * sizeof(*p) + 1);

	memcpy(p, v, n * sizeof(*p));
	return p;
}

/*
 * /bin/prog 6000 bytes, two XIP pages     nodes 0, 1
 * /bin/sh -> "prog", byte-aligned          node 2 (banode 0, "prog\0")
 * /etc/conf 5000 bytes, cblock 0 at 0     nodes 3, 4 (cnodes 0, 1)
 * /etc/small 10 bytes, byte-aligned       node 5 (banode 1), /etc/link
 *                                         is a hard link to it
 * /etc/motd 100 bytes, cblock 0 at 5000   node 6 (cnode 2)
 * /lnk2 -> "etc/conf", cblock 1           node 7 (cnode 3)
 * /dev/null c 1:3, /dev/fifo, /empty/, /zero (0 bytes)
 */
static uint8_t *build_image(int digest, int compress_meta, size_t *len)
{
	struct tree t;
	struct pack_result p;
	struct write_opts o;
	struct write_layout lay;
	struct axfs_error err;
	uint8_t xip[2 * 4096], ba[5 + 10], c0[5100], z0[6000], z1[64];
	uLongf z0len = sizeof(z0), z1len = sizeof(z1);
	uint64_t cbo[3];
	struct stat st;
	uint8_t *img;
	FILE *tf;
	int fd;

	memset(&p, 0, sizeof(p));
	ck_assert_int_eq(tree_init(&t, NULL, NULL), 0);
	entry(&t, "bin", AXFS_FT_DIR, 0755, 0, NULL, NULL);
	entry(&t, "bin/prog", AXFS_FT_REG, 0755, 6000, NULL, NULL);
	entry(&t, "bin/sh", AXFS_FT_LNK, 0777, 0, "prog", NULL);
	entry(&t, "dev", AXFS_FT_DIR, 0755, 0, NULL, NULL);
	entry(&t, "dev/null", AXFS_FT_CHR, 0666, 0, NULL, NULL);
	entry(&t, "dev/fifo", AXFS_FT_FIFO, 0600, 0, NULL, NULL);
	entry(&t, "empty", AXFS_FT_DIR, 0700, 0, NULL, NULL);
	entry(&t, "etc", AXFS_FT_DIR, 0755, 0, NULL, NULL);
	entry(&t, "etc/conf", AXFS_FT_REG, 0644, 5000, NULL, NULL);
	entry(&t, "etc/small", AXFS_FT_REG, 0644, 10, NULL, NULL);
	entry(&t, "etc/link", AXFS_FT_REG, 0, 0, NULL, "etc/small");
	entry(&t, "etc/motd", AXFS_FT_REG, 0644, 100, NULL, NULL);
	entry(&t, "lnk2", AXFS_FT_LNK, 0777, 0, "etc/conf", NULL);
	entry(&t, "zero", AXFS_FT_REG, 0644, 0, NULL, NULL);
	ck_assert_msg(tree_finalize(&t, &err) == 0, "%s", err.msg);

	memset(xip, 0, sizeof(xip));
	for (int i = 0; i < 6000; i++)
		xip[i] = (uint8_t)(i * 13 + 1);
	memcpy(ba, "prog\0" "0123456789", 15);
	for (int i = 0; i < 5100; i++)
		c0[i] = (uint8_t)(i / 50 + 'a');
	ck_assert_int_eq(compress2(z0, &z0len, c0, sizeof(c0), 9), Z_OK);
	ck_assert_int_eq(compress2(z1, &z1len, (const Bytef *)"etc/conf", 9,
				   9), Z_OK);
	cbo[0] = 0;
	cbo[1] = z0len;
	cbo[2] = z0len + z1len;

	p.cblock_size = CBLOCK;
	p.nnodes = 8;
	p.nslots = 8;		/* each node stored on its own: one run */
	p.slot_type = malloc(8);
	memcpy(p.slot_type, (uint8_t[]){ 0, 0, 2, 1, 1, 2, 1, 1 }, 8);
	p.slot_index = u64s((uint64_t[]){ 0, 1, 0, 0, 1, 1, 2, 3 }, 8);
	p.nruns = 1;
	p.runs = calloc(1, sizeof(*p.runs));
	p.runs[0].n = 8;
	p.ncnodes = 4;
	p.cnode_offset = u64s((uint64_t[]){ 0, 4096, 5000, 0 }, 4);
	p.cnode_index = u64s((uint64_t[]){ 0, 0, 0, 1 }, 4);
	p.nbanodes = 2;
	p.banode_offset = u64s((uint64_t[]){ 0, 5 }, 2);
	p.ncblocks = 2;
	p.cblock_offset = u64s(cbo, 3);
	p.xip_pages = 2;
	unit_spool(&p.xip, xip, sizeof(xip));
	unit_spool(&p.byte_aligned, ba, sizeof(ba));
	{
		uint8_t z[sizeof(z0) + sizeof(z1)];

		memcpy(z, z0, z0len);
		memcpy(z + z0len, z1, z1len);
		unit_spool(&p.compressed, z, z0len + z1len);
	}
	owns(&t, "bin/prog", 0, 2);
	owns(&t, "bin/sh", 2, 1);
	owns(&t, "etc/conf", 3, 2);
	owns(&t, "etc/small", 5, 1);
	owns(&t, "etc/motd", 6, 1);
	owns(&t, "lnk2", 7, 1);
	tree_lookup(&t, "zero")->packed = 1;

	memset(&o, 0, sizeof(o));
	o.timestamp = 1700000000;
	o.compress_metadata = compress_meta;
	o.level = 9;
	o.digest = digest;
	tf = tmpfile();
	fd = dup(fileno(tf));
	fclose(tf);
	ck_assert_msg(write_image(fd, &t, &p, &o, &lay, &err) == 0, "%s",
		      err.msg);
	ck_assert_int_eq(fstat(fd, &st), 0);
	img = malloc((size_t)st.st_size);
	ck_assert_int_eq(pread(fd, img, (size_t)st.st_size, 0), st.st_size);
	*len = (size_t)st.st_size;
	close(fd);

	free(p.runs);
	free(p.slot_type);
	free(p.slot_index);
	free(p.cnode_offset);
	free(p.cnode_index);
	free(p.banode_offset);
	free(p.cblock_offset);
	close(p.xip.fd);
	close(p.byte_aligned.fd);
	close(p.compressed.fd);
	tree_free(&t);
	return img;
}

/* ---- running the checker ---------------------------------------------- */

struct found {
	char check[64];
	uint64_t offset;
	char path[256];
	int severity;
};

struct findings {
	struct found v[256];
	int n;
};

static int collect(void *ctx, const struct axfs_fsck_finding *f)
{
	struct findings *fs = ctx;

	if (fs->n < (int)(sizeof(fs->v) / sizeof(fs->v[0]))) {
		struct found *x = &fs->v[fs->n];

		snprintf(x->check, sizeof(x->check), "%s", f->check);
		snprintf(x->path, sizeof(x->path), "%s", f->path ? f->path : "");
		x->offset = f->offset;
		x->severity = (int)f->severity;
	}
	fs->n++;
	return 0;
}

static void run(const uint8_t *img, size_t len, int deep, int digest,
		struct findings *fs, struct axfs_fsck_result *res)
{
	struct axfs_fsck_opts o;
	struct axfs_error err;

	axfs_fsck_opts_init(&o);
	o.deep = deep;
	o.digest = digest;
	o.report = collect;
	o.report_ctx = fs;
	memset(fs, 0, sizeof(*fs));
	ck_assert_msg(axfs_fsck_buffer(img, len, NULL, 0, "test", &o, res,
				       &err) == 0, "%s", err.msg);
}

static int has(const struct findings *fs, const char *check, uint64_t off)
{
	for (int i = 0; i < fs->n && i < 256; i++)
		if (!strcmp(fs->v[i].check, check) &&
		    (off == UINT64_MAX || fs->v[i].offset == off))
			return 1;
	return 0;
}

static void dump(const struct findings *fs)
{
	for (int i = 0; i < fs->n && i < 256; i++)
		fprintf(stderr, "  %s at %llu %s\n", fs->v[i].check,
			(unsigned long long)fs->v[i].offset, fs->v[i].path);
}

static uint64_t desc(const uint8_t *img, int r)
{
	return get_unaligned_be64(img + AXFS_SB_REGION(r));
}

static uint64_t region_off(const uint8_t *img, int r)
{
	return get_unaligned_be64(img + desc(img, r) + AXFS_RD_FSOFFSET);
}

/* Recomputes the digest after a structural corruption, so the structural
 * check is the one under test. */
static void redigest(uint8_t *img, size_t len)
{
	FILE *tf = tmpfile();
	int fd = dup(fileno(tf));
	uint8_t d[20];
	struct axfs_error err;

	fclose(tf);
	ck_assert_int_eq(pwrite(fd, img, len, 0), (ssize_t)len);
	ck_assert_int_eq(write_digest(fd, len, d, &err), 0);
	close(fd);
	memcpy(img + AXFS_SB_DIGEST, d, 20);
}

/* ---- tests ---------------------------------------------------------------- */

START_TEST(test_clean_image)
{
	struct findings fs;
	struct axfs_fsck_result res;
	size_t len;
	uint8_t *img = build_image(1, 0, &len);

	for (int deep = 0; deep <= 1; deep++) {
		run(img, len, deep, 1, &fs, &res);
		if (fs.n)
			dump(&fs);
		ck_assert_int_eq(fs.n, 0);
		ck_assert_int_eq(res.digest, AXFS_FSCK_DIGEST_OK);
		ck_assert_uint_eq(res.inodes, 15);
		ck_assert_uint_eq(res.nodes, 8);
	}
	ck_assert_uint_eq(res.cblocks, 2);
	ck_assert_uint_eq(res.data_bytes, 6000 + 4 + 5000 + 10 + 100 + 8);
	free(img);

	/* Compressed metadata is inflated and checked the same way. */
	img = build_image(1, 1, &len);
	ck_assert_uint_ne(get_unaligned_be64(img + desc(img, AXFS_R_STRINGS) +
					AXFS_RD_COMPRESSED_SIZE), 0);
	run(img, len, 1, 1, &fs, &res);
	if (fs.n)
		dump(&fs);
	ck_assert_int_eq(fs.n, 0);
	free(img);
}
END_TEST

START_TEST(test_no_digest_is_a_notice)
{
	struct findings fs;
	struct axfs_fsck_result res;
	size_t len;
	uint8_t *img = build_image(0, 0, &len);

	run(img, len, 1, 1, &fs, &res);
	ck_assert_int_eq(fs.n, 1);
	ck_assert_str_eq(fs.v[0].check, "digest.none");
	ck_assert_uint_eq(fs.v[0].offset, AXFS_SB_DIGEST);
	ck_assert_uint_eq(res.errors + res.warnings, 0);
	ck_assert_int_eq(res.digest, AXFS_FSCK_DIGEST_NONE);
	free(img);
}
END_TEST

/* Each case: patch, re-digest, expect `check` at `offset`. */
START_TEST(test_specific_corruptions)
{
	struct findings fs;
	struct axfs_fsck_result res;
	size_t len;
	uint8_t *good = build_image(1, 0, &len);
	uint8_t *img = malloc(len);
	uint64_t nt = region_off(good, AXFS_R_NODE_TYPE);
	uint64_t cbo = desc(good, AXFS_R_CBLOCK_OFFSET);
	struct {
		const char *check;
		uint64_t off;
		uint8_t val;
	} cases[] = {
		{ "sb.magic", 0, 0x00 },
		{ "sb.compression", AXFS_SB_COMPRESSION_TYPE, 1 },
		{ "sb.cblock-size", AXFS_SB_CBLOCK_SIZE + 3, 1 },
		{ "sb.files", AXFS_SB_FILES + 7, 99 },
		{ "sb.blocks-count", AXFS_SB_BLOCKS + 7, 99 },
		{ "sb.size", AXFS_SB_SIZE + 6, 0xff },
		{ "sb.mmap-size", AXFS_SB_MMAP_SIZE + 5, 0xff },
		{ "sb.page-shift", AXFS_SB_PAGE_SHIFT, 13 },
		{ "sb.end-magic", 0, 0 },	/* offset filled below */
		{ "desc.padding", 0, 1 },
		{ "node.type", nt + 2, 3 },
		{ "region.depth", cbo + AXFS_RD_TABLE_DEPTH, 9 },
		{ "image.slack", 2000, 1 },
		{ "digest.padding", AXFS_SB_DIGEST + 30, 1 },
	};

	cases[8].off = len - 1;
	cases[9].off = desc(good, AXFS_R_GIDS) + AXFS_RD_PADDING;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		uint64_t want = cases[i].off;

		memcpy(img, good, len);
		img[cases[i].off] = cases[i].val;
		if (strcmp(cases[i].check, "digest.padding"))
			redigest(img, len);
		run(img, len, 1, 1, &fs, &res);
		/* Multi-byte fields are reported at their first byte. */
		if (!strncmp(cases[i].check, "sb.", 3) &&
		    strcmp(cases[i].check, "sb.end-magic") &&
		    strcmp(cases[i].check, "sb.page-shift") &&
		    strcmp(cases[i].check, "sb.compression"))
			want = cases[i].off & ~(uint64_t)3;
		if (!strcmp(cases[i].check, "sb.end-magic"))
			want = len - 4;
		if (!strcmp(cases[i].check, "sb.files") ||
		    !strcmp(cases[i].check, "sb.blocks-count") ||
		    !strcmp(cases[i].check, "sb.size") ||
		    !strcmp(cases[i].check, "sb.mmap-size"))
			want = cases[i].off & ~(uint64_t)7;
		if (!strcmp(cases[i].check, "image.slack") ||
		    !strcmp(cases[i].check, "digest.padding"))
			want = UINT64_MAX;
		if (!has(&fs, cases[i].check, want)) {
			fprintf(stderr, "case %s:\n", cases[i].check);
			dump(&fs);
		}
		ck_assert_msg(has(&fs, cases[i].check, want), "%s at %llu",
			      cases[i].check, (unsigned long long)want);
		ck_assert_uint_gt(res.errors + res.warnings, 0);
	}
	free(img);
	free(good);
}
END_TEST

/* A child out of strcmp order and a cycle, via the inode tables. */
START_TEST(test_tree_corruptions)
{
	struct findings fs;
	struct axfs_fsck_result res;
	size_t len;
	uint8_t *img = build_image(1, 0, &len);
	uint8_t *good = malloc(len);
	uint64_t ai = region_off(img, AXFS_R_INODE_ARRAY_INDEX);
	uint8_t depth = img[desc(img, AXFS_R_INODE_ARRAY_INDEX) +
			    AXFS_RD_TABLE_DEPTH];
	uint64_t no = region_off(img, AXFS_R_INODE_NAME_OFFSET);
	uint8_t ndepth = img[desc(img, AXFS_R_INODE_NAME_OFFSET) +
			     AXFS_RD_TABLE_DEPTH];

	memcpy(good, img, len);
	ck_assert_uint_eq(depth, 1);
	ck_assert_uint_eq(ndepth, 1);
	/* /bin (inode 1) claims the root's children: cycle + unreachable. */
	img[ai + 1] = 1;
	redigest(img, len);
	run(img, len, 1, 1, &fs, &res);
	ck_assert(has(&fs, "inode.multiple", ai + 1));
	ck_assert(has(&fs, "inode.unreachable", UINT64_MAX));

	/* Swap the names of /dev and /empty: out of order. */
	memcpy(img, good, len);
	{
		uint8_t a = img[no + 2], b = img[no + 3];

		img[no + 2] = b;
		img[no + 3] = a;
	}
	redigest(img, len);
	run(img, len, 1, 1, &fs, &res);
	ck_assert(has(&fs, "dir.order", no + 3));
	free(img);
	free(good);
}
END_TEST

/* Every byte, three ways: with the digest, every mutant is reported. */
START_TEST(test_every_byte_is_covered)
{
	static const uint8_t masks[] = { 0x01, 0x80, 0xff };
	struct findings fs;
	struct axfs_fsck_result res;
	size_t len;
	uint8_t *good = build_image(1, 0, &len);
	uint8_t *img = malloc(len);

	for (size_t off = 0; off < len; off++) {
		for (size_t m = 0; m < sizeof(masks); m++) {
			memcpy(img, good, len);
			img[off] ^= masks[m];
			run(img, len, 1, 1, &fs, &res);
			ck_assert_msg(res.errors + res.warnings > 0,
				      "byte %zu ^ 0x%02x not reported", off,
				      masks[m]);
		}
	}
	/* Every truncation too. */
	for (size_t l = 0; l < len; l += 97) {
		run(good, l, 1, 1, &fs, &res);
		ck_assert_msg(res.errors > 0, "truncation to %zu", l);
	}
	free(img);
	free(good);
}
END_TEST

struct readall {
	struct axfs_image *img;
	int bad;
	char why[2048];
};

static int read_everything(void *ctx, const char *path,
			   const struct axfs_inode_info *ino)
{
	struct readall *r = ctx;
	struct axfs_error err;
	uint8_t page[AXFS_PAGE_SIZE];
	char target[AXFS_PAGE_SIZE + 1];
	size_t got;

	if (S_ISLNK(ino->mode) &&
	    axfs_image_readlink(r->img, ino->ino, target, sizeof(target),
				&err) < 0) {
		r->bad = 1;
		snprintf(r->why, sizeof(r->why), "%s: %s", path, err.msg);
		return 1;
	}
	if (!S_ISREG(ino->mode))
		return 0;
	for (uint64_t p = 0; p * AXFS_PAGE_SIZE < ino->size; p++)
		if (axfs_image_read_page(r->img, ino->ino, p, page, &got,
					 &err) < 0) {
			r->bad = 1;
			snprintf(r->why, sizeof(r->why), "%s: %s", path,
				 err.msg);
			return 1;
		}
	return 0;
}

/*
 * Without the digest: whatever fsck calls clean must be readable in full
 * by the reader (strict mode, as extract uses it).  Structural findings
 * must also catch most mutations of non-data bytes.
 */
START_TEST(test_clean_means_readable)
{
	struct findings fs;
	struct axfs_fsck_result res;
	size_t len, clean = 0;
	uint8_t *good = build_image(0, 0, &len);
	uint8_t *img = malloc(len);

	for (size_t off = 0; off < len; off++) {
		struct axfs_open_opts oo = { .struct_size = sizeof(oo) };
		struct axfs_image *im;
		struct axfs_error err;
		struct readall r = { 0 };

		memcpy(img, good, len);
		img[off] ^= 0x41;
		run(img, len, 1, 0, &fs, &res);
		if (res.errors + res.warnings)
			continue;
		clean++;
		ck_assert_msg(axfs_image_open_buffer(&im, img, len, "m", &oo,
						     &err) == 0,
			      "byte %zu: fsck clean, reader: %s", off, err.msg);
		r.img = im;
		ck_assert_msg(axfs_image_walk(im, read_everything, &r,
					      &err) == 0 && !r.bad,
			      "byte %zu: fsck clean, reader: %s %s", off,
			      err.msg, r.why);
		axfs_image_close(im);
	}
	fprintf(stderr, "test_fsck: %zu of %zu single-byte mutants are "
		"structurally clean without a digest\n", clean, len);
	free(img);
	free(good);
}
END_TEST

static void set_desc(uint8_t *img, int r, uint64_t size, uint64_t max_index,
		     uint8_t depth)
{
	uint64_t d = desc(img, r);

	put_unaligned_be64(size, img + d + AXFS_RD_SIZE);
	put_unaligned_be64(max_index, img + d + AXFS_RD_MAX_INDEX);
	img[d + AXFS_RD_TABLE_DEPTH] = depth;
}

/*
 * Depth-0 tables claim any number of entries without a byte behind them:
 * the checker must neither allocate nor loop by such counts.  Each case
 * must end (the test timeout catches a hang) with findings, within the
 * default memory limit.
 */
START_TEST(test_hostile_counts)
{
	const uint64_t huge = 1ull << 40;
	struct findings fs;
	struct axfs_fsck_result res;
	size_t len;
	uint8_t *good = build_image(1, 0, &len);
	uint8_t *img = malloc(len);

	for (int c = 0; c < 5; c++) {
		memcpy(img, good, len);
		switch (c) {
		case 0:	/* every mode table empty with 2^40 entries */
			set_desc(img, AXFS_R_MODES, 0, huge, 0);
			set_desc(img, AXFS_R_UIDS, 0, huge, 0);
			set_desc(img, AXFS_R_GIDS, 0, huge, 0);
			break;
		case 1:	/* 2^40 nodes */
			put_unaligned_be64(huge, img + AXFS_SB_BLOCKS);
			set_desc(img, AXFS_R_NODE_TYPE, 0, huge, 0);
			set_desc(img, AXFS_R_NODE_INDEX, 0, huge, 0);
			break;
		case 2:	/* 2^40 inodes */
			put_unaligned_be64(huge, img + AXFS_SB_FILES);
			for (int r = AXFS_R_INODE_FILE_SIZE;
			     r <= AXFS_R_INODE_ARRAY_INDEX; r++)
				set_desc(img, r, 0, huge, 0);
			break;
		case 3:	/* 2^40 cnodes, banodes and cblocks */
			set_desc(img, AXFS_R_CNODE_OFFSET, 0, huge, 0);
			set_desc(img, AXFS_R_CNODE_INDEX, 0, huge, 0);
			set_desc(img, AXFS_R_BANODE_OFFSET, 0, huge, 0);
			set_desc(img, AXFS_R_CBLOCK_OFFSET, 0, huge, 0);
			break;
		case 4:	/* a file that claims 2^40 pages */
			put_unaligned_be64(huge, img + AXFS_SB_BLOCKS);
			set_desc(img, AXFS_R_NODE_TYPE, 0, huge, 0);
			set_desc(img, AXFS_R_NODE_INDEX, 0, huge, 0);
			img[desc(img, AXFS_R_INODE_FILE_SIZE) +
			    AXFS_RD_TABLE_DEPTH] = 2;
			break;
		}
		run(img, len, 1, 0, &fs, &res);
		ck_assert_msg(res.errors > 0, "case %d: no error", c);
	}
	free(img);
	free(good);
}
END_TEST

/*
 * A raw image built by hand, without the writer: regions[r] are the bytes
 * of region r (a byte table when depth > 0), laid out after the 18
 * descriptors, padded to 4096 with the end magic.  For shapes the tree
 * code refuses to build.
 */
struct raw_region {
	const uint8_t *data;
	uint64_t size, max_index;
	uint8_t depth;
};

static uint8_t *raw_image(const struct raw_region *rg, uint64_t files,
			  size_t *len)
{
	uint64_t pos = 264 + 18 * 40, total;
	uint8_t *img;

	for (int r = 0; r < AXFS_REGION_COUNT; r++)
		pos += rg[r].size;
	total = (pos + 4 + 4095) / 4096 * 4096;
	img = calloc(1, total);
	put_unaligned_be32(AXFS_MAGIC, img);
	memcpy(img + AXFS_SB_SIGNATURE, AXFS_SIGNATURE, 16);
	put_unaligned_be32(4096, img + AXFS_SB_CBLOCK_SIZE);
	put_unaligned_be64(files, img + AXFS_SB_FILES);
	put_unaligned_be64(total, img + AXFS_SB_SIZE);
	put_unaligned_be64(total, img + AXFS_SB_MMAP_SIZE);
	img[AXFS_SB_VERSION_MAJOR] = 1;
	img[AXFS_SB_PAGE_SHIFT] = 12;
	pos = 264 + 18 * 40;
	for (int r = 0; r < AXFS_REGION_COUNT; r++) {
		uint8_t *d = img + 264 + 40 * r;

		put_unaligned_be64(264 + 40 * (uint64_t)r, img + AXFS_SB_REGION(r));
		put_unaligned_be64(rg[r].size ? pos : 0, d + AXFS_RD_FSOFFSET);
		put_unaligned_be64(rg[r].size, d + AXFS_RD_SIZE);
		put_unaligned_be64(rg[r].max_index, d + AXFS_RD_MAX_INDEX);
		d[AXFS_RD_TABLE_DEPTH] = rg[r].depth;
		if (rg[r].size)
			memcpy(img + pos, rg[r].data, rg[r].size);
		pos += rg[r].size;
	}
	put_unaligned_be32(AXFS_MAGIC, img + total - 4);
	*len = (size_t)total;
	return img;
}

/* More than 4096 nested directories: valid for the driver, but beyond
 * what the reader's walk (and extract) accepts.  Inode i is directory
 * "d" holding inode i + 1. */
START_TEST(test_tree_too_deep)
{
	enum { N = 4100 };
	static const uint8_t strings[] = "\0d";
	static const uint8_t mode[2] = { 0x41, 0xed };	/* 040755 */
	uint8_t *name = malloc(N), *nent = malloc(N), *fsize = malloc(N);
	uint8_t *ai = malloc(2 * N), *midx = calloc(1, N);
	struct raw_region rg[AXFS_REGION_COUNT];
	struct findings fs;
	struct axfs_fsck_result res;
	size_t len;
	uint8_t *img;

	for (int i = 0; i < N; i++) {
		name[i] = i ? 1 : 0;
		nent[i] = i < N - 1;
		fsize[i] = i < N - 1 ? 2 : 0;	/* "d" + NUL */
		axfs_bytetable_put(ai, 2, i, i < N - 1 ? i + 1 : 0);
	}
	memset(rg, 0, sizeof(rg));
	rg[AXFS_R_STRINGS] = (struct raw_region){ strings, 3, N, 0 };
	rg[AXFS_R_INODE_FILE_SIZE] = (struct raw_region){ fsize, N, N, 1 };
	rg[AXFS_R_INODE_NAME_OFFSET] = (struct raw_region){ name, N, N, 1 };
	rg[AXFS_R_INODE_NUM_ENTRIES] = (struct raw_region){ nent, N, N, 1 };
	rg[AXFS_R_INODE_MODE_INDEX] = (struct raw_region){ midx, 0, N, 0 };
	rg[AXFS_R_INODE_ARRAY_INDEX] = (struct raw_region){ ai, 2 * N, N, 2 };
	rg[AXFS_R_MODES] = (struct raw_region){ mode, 2, 1, 2 };
	rg[AXFS_R_UIDS].max_index = rg[AXFS_R_GIDS].max_index = 1;
	img = raw_image(rg, N, &len);

	run(img, len, 1, 1, &fs, &res);
	if (fs.n != 2)
		dump(&fs);
	ck_assert_int_eq(fs.n, 2);
	ck_assert_str_eq(fs.v[0].check, "tree.depth");
	ck_assert_str_eq(fs.v[1].check, "digest.none");
	ck_assert_uint_eq(res.errors, 0);
	ck_assert_uint_eq(res.inodes, N);

	/* The same chain with a cycle: the last directory holds the first
	 * but one. */
	nent[N - 1] = 1;
	axfs_bytetable_put(ai, 2, N - 1, 1);
	free(img);
	img = raw_image(rg, N, &len);
	run(img, len, 1, 1, &fs, &res);
	ck_assert(has(&fs, "inode.multiple", UINT64_MAX));
	free(img);
	free(name);
	free(nent);
	free(fsize);
	free(ai);
	free(midx);
}
END_TEST

START_TEST(test_check_table)
{
	size_t n;
	const struct axfs_fsck_check *c = axfs_fsck_checks(&n);

	ck_assert_uint_gt(n, 50);
	for (size_t i = 0; i < n; i++) {
		ck_assert_ptr_nonnull(c[i].id);
		ck_assert_ptr_nonnull(strchr(c[i].id, '.'));
		for (size_t j = 0; j < i; j++)
			ck_assert_str_ne(c[i].id, c[j].id);
	}
}
END_TEST

Suite *suite_fsck(void)
{
	Suite *s = suite_create("fsck");
	TCase *tc = tcase_create("fsck"), *every;

	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_check_table);
	tcase_add_test(tc, test_clean_image);
	tcase_add_test(tc, test_no_digest_is_a_notice);
	tcase_add_test(tc, test_specific_corruptions);
	tcase_add_test(tc, test_tree_corruptions);
	tcase_add_test(tc, test_tree_too_deep);
	tcase_add_test(tc, test_hostile_counts);
	tcase_add_test(tc, test_clean_means_readable);
	suite_add_tcase(s, tc);
	/*
	 * Three fsck runs per byte of the image: a bounded loop, minutes
	 * under the sanitizers on a loaded machine, where 120 s is too short.
	 */
	every = tcase_create("fsck-every-byte");
	tcase_set_timeout(every, 900);
	tcase_add_test(every, test_every_byte_is_covered);
	suite_add_tcase(s, every);
	return s;
}
