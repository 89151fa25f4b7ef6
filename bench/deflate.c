// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * bench/deflate.c - zlib against libdeflate for AXFS cblocks.
 *
 * Reads every regular file of a tree (in strcmp order of their paths,
 * concatenated, as the packer fills cblocks with consecutive files), cuts
 * the bytes into chunks of each size, and compresses every chunk into a
 * zlib (RFC 1950) stream, the format the kernel inflates, with zlib's
 * compress2() and with libdeflate_zlib_compress() at several levels.
 * A chunk that does not shrink counts at its own size (the packer stores
 * it uncompressed).  Every libdeflate stream is inflated again with zlib
 * and compared, so the table only lists streams the kernel reads.
 * Prints a Markdown table: total compressed size, its ratio to zlib -9,
 * compression CPU seconds on one thread, and the CPU seconds to inflate
 * all chunks with zlib's inflate and with libdeflate's decompressor.
 *
 *   make B=build bench-deflate  (needs libdeflate-dev)
 *   build/bench-deflate TREE [CHUNK_KIB...]      (default 64 128)
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE		/* fts */
#endif
#include <errno.h>
#include <fts.h>
#include <libdeflate.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <zlib.h>

static double cpu_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static uint8_t *all;
static size_t all_len, all_cap;

static int cmp_name(const FTSENT **a, const FTSENT **b)
{
	return strcmp((*a)->fts_name, (*b)->fts_name);
}

static int load_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	size_t n;

	if (!f) {
		fprintf(stderr, "bench-deflate: cannot open '%s': %s\n", path,
			strerror(errno));
		return -1;
	}
	for (;;) {
		if (all_cap - all_len < 65536) {
			size_t ncap = all_cap ? all_cap * 2 : 1 << 24;
			uint8_t *p = realloc(all, ncap);

			if (!p) {
				fclose(f);
				fprintf(stderr, "bench-deflate: out of memory\n");
				return -1;
			}
			all = p;
			all_cap = ncap;
		}
		n = fread(all + all_len, 1, all_cap - all_len, f);
		all_len += n;
		if (n == 0)
			break;
	}
	if (ferror(f)) {
		fprintf(stderr, "bench-deflate: cannot read '%s'\n", path);
		fclose(f);
		return -1;
	}
	fclose(f);
	return 0;
}

static int load_tree(char *top)
{
	char *roots[] = { top, NULL };
	FTS *fts = fts_open(roots, FTS_PHYSICAL | FTS_NOCHDIR, cmp_name);
	FTSENT *e;
	int rc = 0;

	if (!fts) {
		fprintf(stderr, "bench-deflate: cannot open '%s': %s\n", top,
			strerror(errno));
		return -1;
	}
	while (rc == 0 && (e = fts_read(fts)))
		if (e->fts_info == FTS_F)
			rc = load_file(e->fts_path);
	fts_close(fts);
	return rc;
}

enum lib { ZLIB, LIBDEFLATE };

struct result {
	uint64_t size;
	double t_comp, t_inflate_zlib, t_inflate_libdeflate;
};

static int run(size_t chunk, enum lib lib, int level, struct result *r)
{
	size_t bound = compressBound((uLong)chunk) + 64;
	uint8_t *out = malloc(bound), *back = malloc(chunk);
	struct libdeflate_compressor *c = NULL;
	struct libdeflate_decompressor *d = libdeflate_alloc_decompressor();
	double t0;
	int rc = -1;

	memset(r, 0, sizeof(*r));
	if (lib == LIBDEFLATE)
		c = libdeflate_alloc_compressor(level);
	if (!out || !back || !d || (lib == LIBDEFLATE && !c))
		goto out;
	for (size_t off = 0; off < all_len; off += chunk) {
		size_t n = all_len - off < chunk ? all_len - off : chunk;
		size_t clen, got;
		uLongf dl;

		t0 = cpu_now();
		if (lib == ZLIB) {
			uLongf zl = (uLongf)bound;

			if (compress2(out, &zl, all + off, (uLong)n, level) !=
			    Z_OK)
				goto out;
			clen = zl;
		} else {
			clen = libdeflate_zlib_compress(c, all + off, n, out,
							bound);
			if (!clen)
				goto out;
		}
		r->t_comp += cpu_now() - t0;
		r->size += clen < n ? clen : n;

		/* zlib reads it (so would the kernel), bytes identical. */
		dl = (uLongf)chunk;
		t0 = cpu_now();
		if (uncompress(back, &dl, out, (uLong)clen) != Z_OK ||
		    dl != n) {
			fprintf(stderr, "bench-deflate: zlib cannot inflate a "
				"chunk at %zu\n", off);
			goto out;
		}
		r->t_inflate_zlib += cpu_now() - t0;
		if (memcmp(back, all + off, n)) {
			fprintf(stderr, "bench-deflate: chunk at %zu differs\n",
				off);
			goto out;
		}
		t0 = cpu_now();
		if (libdeflate_zlib_decompress(d, out, clen, back, chunk,
					       &got) != LIBDEFLATE_SUCCESS ||
		    got != n)
			goto out;
		r->t_inflate_libdeflate += cpu_now() - t0;
	}
	rc = 0;
out:
	if (c)
		libdeflate_free_compressor(c);
	if (d)
		libdeflate_free_decompressor(d);
	free(out);
	free(back);
	return rc;
}

int main(int argc, char **argv)
{
	static const struct { enum lib lib; int level; } cfg[] = {
		{ ZLIB, 1 }, { ZLIB, 6 }, { ZLIB, 9 },
		{ LIBDEFLATE, 1 }, { LIBDEFLATE, 6 }, { LIBDEFLATE, 9 },
		{ LIBDEFLATE, 12 },
	};
	size_t chunks[16], nchunks = 0;

	if (argc < 2) {
		fprintf(stderr, "usage: %s TREE [CHUNK_KIB...]\n", argv[0]);
		return 16;
	}
	for (int i = 2; i < argc && nchunks < 16; i++) {
		long k = strtol(argv[i], NULL, 10);

		if (k < 4 || k > 1024) {
			fprintf(stderr, "%s: chunk '%s' KiB: use 4 to 1024\n",
				argv[0], argv[i]);
			return 16;
		}
		chunks[nchunks++] = (size_t)k * 1024;
	}
	if (!nchunks) {
		chunks[nchunks++] = 65536;
		chunks[nchunks++] = 131072;
	}
	if (load_tree(argv[1]) < 0)
		return 8;
	printf("%zu bytes (%.2f MiB) of file data; zlib %s, libdeflate %s; "
	       "CPU seconds of one thread\n\n", all_len,
	       (double)all_len / 1048576.0, zlibVersion(), LIBDEFLATE_VERSION_STRING);
	printf("| chunk | library | level | size MiB | vs zlib -9 | compress s "
	       "| MiB/s | inflate s (zlib) | inflate s (libdeflate) |\n");
	printf("|---:|---|---:|---:|---:|---:|---:|---:|---:|\n");
	for (size_t k = 0; k < nchunks; k++) {
		struct result res[sizeof(cfg) / sizeof(cfg[0])];
		uint64_t ref;

		for (size_t i = 0; i < sizeof(cfg) / sizeof(cfg[0]); i++) {
			if (run(chunks[k], cfg[i].lib, cfg[i].level,
				&res[i]) < 0) {
				fprintf(stderr, "%s: compression failed\n",
					argv[0]);
				return 8;
			}
		}
		ref = res[2].size;	/* zlib -9 */
		for (size_t i = 0; i < sizeof(cfg) / sizeof(cfg[0]); i++)
			printf("| %zu KiB | %s | %d | %.2f | %+.2f%% | %.2f | "
			       "%.1f | %.2f | %.2f |\n", chunks[k] / 1024,
			       cfg[i].lib == ZLIB ? "zlib" : "libdeflate",
			       cfg[i].level, (double)res[i].size / 1048576.0,
			       ((double)res[i].size - (double)ref) * 100.0 /
			       (double)ref, res[i].t_comp,
			       (double)all_len / 1048576.0 / res[i].t_comp,
			       res[i].t_inflate_zlib,
			       res[i].t_inflate_libdeflate);
		fflush(stdout);
	}
	free(all);
	return 0;
}
