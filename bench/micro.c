// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * bench/micro.c - the metadata path alone, for N entries doubling up to
 * MAX_N: building and finalising a tree of N regular files of 1 to 8
 * pages (spread over N/1000 directories, names in random order), the
 * planner over it with a profile naming one page of every fourth file and
 * an XIP budget of half of them (so it selects by count), and a byte
 * table of N values.
 *
 * Times are CPU seconds of this thread (CLOCK_THREAD_CPUTIME_ID), the
 * best of REPS repetitions, so that other load on a shared machine
 * disturbs them little.  "growth" is log2(t(N) / t(N/2)): about 1 for a
 * linear step, 1 + 1/log2(N) (~1.05) for N log N, 2 for quadratic.
 *   build/bench-micro [MAX_N [REPS]]     (default 1000000 3)
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "bytetable.h"
#include "planner.h"
#include "axfs_profile.h"
#include "tree.h"

static double cpu_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static uint64_t rng;
static uint64_t next_rand(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

struct times {
	double tree, plan, table;
};

struct spec {
	uint64_t name;			/* random: the file's name */
	uint32_t pages;			/* 1..8 */
	uint32_t hot_page;		/* its profiled page */
	uint64_t count;			/* and that page's count */
};

static int run(uint64_t n, struct times *tm)
{
	struct tree t;
	struct axfs_error err;
	struct plan_opts po;
	struct plan_stats ps;
	struct axfs_profile prof;
	struct bytetable bt;
	uint64_t dirs = n / 1000 + 1, *vals = NULL, pages = 0;
	struct spec *sp;
	char path[64];
	double t0;
	int rc = -1;

	/* The same random tree every repetition, drawn before timing. */
	rng = 88172645463325252ull;
	sp = malloc(n * sizeof(*sp));
	vals = malloc(n * sizeof(*vals));
	axfs_profile_init(&prof, NULL);
	if (!sp || !vals || tree_init(&t, NULL, &err) < 0) {
		free(sp);
		free(vals);
		return -1;
	}
	for (uint64_t i = 0; i < n; i++) {
		sp[i].name = next_rand();
		sp[i].pages = (uint32_t)(next_rand() % 8 + 1);
		sp[i].hot_page = (uint32_t)(next_rand() % sp[i].pages);
		sp[i].count = next_rand() % 1000 + 1;
		vals[i] = next_rand() >> 40;
	}

	t0 = cpu_now();
	for (uint64_t i = 0; i < n; i++) {
		struct source_entry e;

		memset(&e, 0, sizeof(e));
		snprintf(path, sizeof(path), "d%llu/f%016llx",
			 (unsigned long long)(i % dirs),
			 (unsigned long long)sp[i].name);
		e.path = path;
		e.type = AXFS_FT_REG;
		e.mode = 0644;
		e.data.size = (uint64_t)sp[i].pages * 4096 - 100;
		if (tree_add(&t, &e, NULL, &err) < 0) {
			fprintf(stderr, "tree_add: %s\n", err.msg);
			goto out;
		}
	}
	if (tree_finalize(&t, &err) < 0) {
		fprintf(stderr, "finalize: %s\n", err.msg);
		goto out;
	}
	tm->tree = cpu_now() - t0;

	/* One page of every fourth file counted (not timed). */
	for (uint64_t i = 0; i < n; i += 4) {
		snprintf(path, sizeof(path), "/d%llu/f%016llx",
			 (unsigned long long)(i % dirs),
			 (unsigned long long)sp[i].name);
		if (axfs_profile_add(&prof, path,
				     (uint64_t)sp[i].hot_page * 4096,
				     sp[i].count, "micro", i + 1, &err) < 0) {
			fprintf(stderr, "profile: %s\n", err.msg);
			goto out;
		}
		pages++;
	}
	if (axfs_profile_canonicalize(&prof, &err) < 0) {
		fprintf(stderr, "canonicalize: %s\n", err.msg);
		goto out;
	}

	memset(&po, 0, sizeof(po));
	po.profile = &prof;
	po.has_budget = 1;
	po.budget = pages / 2 * 4096;
	t0 = cpu_now();
	if (plan_tree(&t, &po, &ps, &err) < 0) {
		fprintf(stderr, "plan: %s\n", err.msg);
		goto out;
	}
	tm->plan = cpu_now() - t0;
	if (ps.xip_pages != pages / 2) {
		fprintf(stderr, "plan: %llu XIP pages, expected %llu\n",
			(unsigned long long)ps.xip_pages,
			(unsigned long long)(pages / 2));
		goto out;
	}

	t0 = cpu_now();
	if (bytetable_build(&bt, vals, n, &err) < 0)
		goto out;
	tm->table = cpu_now() - t0;
	bytetable_free(&bt);
	rc = 0;
out:
	tree_free(&t);
	axfs_profile_free(&prof);
	free(vals);
	free(sp);
	return rc;
}

/* "growth" column: "-" on the first row or below the clock's grain. */
static const char *growth(char *buf, size_t len, double t, double prev)
{
	if (prev <= 1e-5 || t <= 1e-5)
		return "-";
	snprintf(buf, len, "%.2f", log2(t / prev));
	return buf;
}

int main(int argc, char **argv)
{
	uint64_t max = argc > 1 ? strtoull(argv[1], NULL, 10) : 1000000;
	int reps = argc > 2 ? atoi(argv[2]) : 3;
	struct times prev = { 0, 0, 0 };

	if (max < 15625 || reps < 1) {
		fprintf(stderr, "usage: %s [MAX_N >= 15625 [REPS >= 1]]\n",
			argv[0]);
		return 16;
	}
	printf("| entries | tree s | growth | ns/entry | planner s | growth | "
	       "byte table s | growth | peak RSS MiB |\n");
	printf("|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
	for (uint64_t n = 15625; n <= max; n *= 2) {
		struct times best = { 0, 0, 0 };
		struct rusage ru;
		char g1[16], g2[16], g3[16];

		for (int r = 0; r < reps; r++) {
			struct times tm = { 0, 0, 0 };

			if (run(n, &tm) < 0)
				return 1;
			if (r == 0 || tm.tree < best.tree)
				best.tree = tm.tree;
			if (r == 0 || tm.plan < best.plan)
				best.plan = tm.plan;
			if (r == 0 || tm.table < best.table)
				best.table = tm.table;
		}
		getrusage(RUSAGE_SELF, &ru);
		printf("| %llu | %.3f | %s | %.0f | %.4f | %s | %.5f | %s | "
		       "%.0f |\n", (unsigned long long)n, best.tree,
		       growth(g1, sizeof(g1), best.tree, prev.tree),
		       best.tree * 1e9 / (double)n, best.plan,
		       growth(g2, sizeof(g2), best.plan, prev.plan), best.table,
		       growth(g3, sizeof(g3), best.table, prev.table),
		       (double)ru.ru_maxrss / 1024.0);
		fflush(stdout);
		prev = best;
	}
	return 0;
}
