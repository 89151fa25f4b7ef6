// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * bench/micro.c - the metadata path alone: building and finalising a tree
 * of N entries (spread over directories, names in random order), the
 * planner over it, and the byte tables of N values.  Prints, for doubling
 * N up to the given maximum, the time per step and time / (N log2 N), which
 * stays flat (or falls) when the path grows no worse than O(n log n).
 *   build/bench-micro [MAX_N]        (default 1000000)
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "axfs_bytetable.h"
#include "axfs_planner.h"
#include "axfs_tree.h"

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static uint64_t rng = 88172645463325252ull;
static uint64_t next_rand(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

static int run(uint64_t n, double *t_tree, double *t_plan, double *t_table)
{
	struct axfs_tree t;
	struct axfs_error err;
	struct axfs_plan_opts po;
	struct axfs_plan_stats ps;
	struct axfs_bytetable bt;
	uint64_t dirs = n / 1000 + 1, *vals;
	char path[64];
	double t0;

	if (axfs_tree_init(&t, NULL, &err) < 0)
		return -1;
	t0 = now();
	for (uint64_t i = 0; i < n; i++) {
		struct axfs_src_entry e;

		memset(&e, 0, sizeof(e));
		/* Random names so that sorting does real work. */
		snprintf(path, sizeof(path), "d%llu/f%016llx",
			 (unsigned long long)(i % dirs),
			 (unsigned long long)next_rand());
		e.path = path;
		e.type = AXFS_FT_REG;
		e.mode = 0644;
		if (axfs_tree_add(&t, &e, NULL, &err) < 0) {
			fprintf(stderr, "tree_add: %s\n", err.msg);
			return -1;
		}
	}
	if (axfs_tree_finalize(&t, &err) < 0) {
		fprintf(stderr, "finalize: %s\n", err.msg);
		return -1;
	}
	*t_tree = now() - t0;

	memset(&po, 0, sizeof(po));
	t0 = now();
	if (axfs_plan(&t, &po, &ps, &err) < 0) {
		fprintf(stderr, "plan: %s\n", err.msg);
		return -1;
	}
	*t_plan = now() - t0;
	axfs_tree_free(&t);

	vals = malloc(n * sizeof(*vals));
	if (!vals)
		return -1;
	for (uint64_t i = 0; i < n; i++)
		vals[i] = next_rand() >> 40;
	t0 = now();
	if (axfs_bytetable_build(&bt, vals, n, &err) < 0)
		return -1;
	*t_table = now() - t0;
	axfs_bytetable_free(&bt);
	free(vals);
	return 0;
}

int main(int argc, char **argv)
{
	uint64_t max = argc > 1 ? strtoull(argv[1], NULL, 10) : 1000000;

	printf("| entries | tree s | tree ns/(n log n) | planner s | byte table s |\n");
	printf("|---:|---:|---:|---:|---:|\n");
	for (uint64_t n = 15625; n <= max; n *= 2) {
		double tt, tp, tb;

		if (run(n, &tt, &tp, &tb) < 0)
			return 1;
		printf("| %llu | %.3f | %.1f | %.3f | %.4f |\n",
		       (unsigned long long)n, tt,
		       tt * 1e9 / ((double)n * log2((double)n)), tp, tb);
	}
	return 0;
}
