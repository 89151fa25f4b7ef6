// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * benchio - the guest side measurements of bench/kernel/run.sh, one static
 * program so that no shell or busybox start-up lands inside a timing.
 *
 *   benchio seq DIR              read every regular file under DIR once, in
 *                                order, 128 KiB at a time
 *   benchio rand N MINSIZE DIR   N random 4 KiB preads (4 KiB aligned)
 *                                across the files under DIR of at least
 *                                MINSIZE bytes; latency percentiles
 *
 * (The time to first output is kernel/tests/probe.c's first-output.)
 * Each prints one line of KEY=VALUE pairs.  System CPU is the growth of
 * system + irq + softirq time of all CPUs in /proc/stat (the work done on
 * behalf of the reader: decompression, block and MTD I/O), in ms.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* system + irq + softirq ticks of all CPUs, in ms */
static double sys_cpu_ms(void)
{
	unsigned long long v[7] = { 0 };
	FILE *f = fopen("/proc/stat", "r");

	if (!f)
		return 0;
	if (fscanf(f, "cpu %llu %llu %llu %llu %llu %llu %llu", &v[0], &v[1],
		   &v[2], &v[3], &v[4], &v[5], &v[6]) != 7)
		v[2] = v[5] = v[6] = 0;
	fclose(f);
	return (v[2] + v[5] + v[6]) * 1000.0 / sysconf(_SC_CLK_TCK);
}

struct file_list {
	char **path;
	off_t *size;
	size_t n, cap;
};

static void add_file(struct file_list *l, const char *path, off_t size)
{
	if (l->n == l->cap) {
		l->cap = l->cap ? 2 * l->cap : 256;
		l->path = realloc(l->path, l->cap * sizeof(*l->path));
		l->size = realloc(l->size, l->cap * sizeof(*l->size));
		if (!l->path || !l->size) {
			perror("benchio");
			exit(1);
		}
	}
	l->path[l->n] = strdup(path);
	l->size[l->n++] = size;
}

/* Regular files under DIR in readdir order, without following links. */
static void collect(struct file_list *l, const char *dir, off_t min_size)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	struct stat st;
	char path[4096];

	if (!d)
		return;
	while ((e = readdir(d))) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		if (lstat(path, &st))
			continue;
		if (S_ISDIR(st.st_mode))
			collect(l, path, min_size);
		else if (S_ISREG(st.st_mode) && st.st_size >= min_size)
			add_file(l, path, st.st_size);
	}
	closedir(d);
}

static int cmd_seq(const char *dir)
{
	static char buf[128 << 10];
	struct file_list l = { 0 };
	long long bytes = 0;
	double t0, c0;
	size_t i;
	ssize_t r;
	int fd, errors = 0;

	c0 = sys_cpu_ms();
	t0 = now_ms();
	collect(&l, dir, 0);
	for (i = 0; i < l.n; i++) {
		fd = open(l.path[i], O_RDONLY);
		if (fd < 0) {
			errors++;
			continue;
		}
		while ((r = read(fd, buf, sizeof(buf))) > 0)
			bytes += r;
		if (r < 0)
			errors++;
		close(fd);
	}
	printf("files=%zu bytes=%lld ms=%.1f sys_ms=%.0f errors=%d\n", l.n,
	       bytes, now_ms() - t0, sys_cpu_ms() - c0, errors);
	return errors != 0;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static int cmd_rand(long n, off_t min_size, const char *dir)
{
	struct file_list l = { 0 };
	double *lat, t0, c0;
	char buf[4096];
	long i, errors = 0;
	int *fd;
	size_t k;
	unsigned int seed = 12345;	/* the same offsets on every file system */

	collect(&l, dir, min_size);
	if (!l.n || n <= 0) {
		printf("files=0 errors=1\n");
		return 1;
	}
	lat = calloc(n, sizeof(*lat));
	fd = calloc(l.n, sizeof(*fd));
	if (!lat || !fd)
		return 1;
	for (k = 0; k < l.n; k++)
		fd[k] = open(l.path[k], O_RDONLY);
	c0 = sys_cpu_ms();
	for (i = 0; i < n; i++) {
		k = rand_r(&seed) % l.n;
		off_t pages = (l.size[k] + 4095) / 4096;
		off_t off = (off_t)(rand_r(&seed) % pages) * 4096;

		t0 = now_ms();
		if (fd[k] < 0 || pread(fd[k], buf, sizeof(buf), off) <= 0)
			errors++;
		lat[i] = (now_ms() - t0) * 1000.0;
	}
	c0 = sys_cpu_ms() - c0;
	qsort(lat, n, sizeof(*lat), cmp_double);
	printf("files=%zu reads=%ld p50_us=%.0f p90_us=%.0f p99_us=%.0f max_us=%.0f sys_ms=%.0f errors=%ld\n",
	       l.n, n, lat[n / 2], lat[n * 9 / 10], lat[n * 99 / 100],
	       lat[n - 1], c0, errors);
	return errors != 0;
}

int main(int argc, char **argv)
{
	if (argc == 3 && !strcmp(argv[1], "seq"))
		return cmd_seq(argv[2]);
	if (argc == 5 && !strcmp(argv[1], "rand"))
		return cmd_rand(atol(argv[2]), atoll(argv[3]), argv[4]);
	fprintf(stderr, "usage: benchio seq DIR | rand N MINSIZE DIR\n");
	return 2;
}
