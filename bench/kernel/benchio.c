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
 *   benchio pair A B             read files A and B 4 KiB at a time, one
 *                                read of each in turn, in one process:
 *                                two readers interleaved the same way
 *                                every run (bench/kernel/cblock-cache.sh)
 *   benchio two A B              the same with two processes reading at
 *                                once, as the scheduler interleaves them
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
#include <sys/wait.h>
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

/* Read fd to its end 4 KiB at a time; bytes read, or -1. */
static long long read_all_4k(int fd)
{
	char buf[4096];
	long long bytes = 0;
	ssize_t r;

	while ((r = read(fd, buf, sizeof(buf))) > 0)
		bytes += r;
	return r < 0 ? -1 : bytes;
}

static int cmd_pair(const char *a, const char *b)
{
	char buf[4096];
	int fd[2], open_fds = 2, i, errors = 0;
	long long bytes = 0;
	double t0 = now_ms();
	ssize_t r;

	fd[0] = open(a, O_RDONLY);
	fd[1] = open(b, O_RDONLY);
	if (fd[0] < 0 || fd[1] < 0) {
		perror("benchio pair: open");
		return 1;
	}
	while (open_fds) {
		for (i = 0; i < 2; i++) {
			if (fd[i] < 0)
				continue;
			r = read(fd[i], buf, sizeof(buf));
			if (r > 0) {
				bytes += r;
				continue;
			}
			errors += r < 0;
			close(fd[i]);
			fd[i] = -1;
			open_fds--;
		}
	}
	printf("bytes=%lld ms=%.1f errors=%d\n", bytes, now_ms() - t0, errors);
	return errors != 0;
}

static int cmd_two(const char *a, const char *b)
{
	const char *files[2] = { a, b };
	double t0 = now_ms();
	int i, status, errors = 0;
	pid_t pid[2];

	for (i = 0; i < 2; i++) {
		pid[i] = fork();
		if (pid[i] == 0) {
			int fd = open(files[i], O_RDONLY);

			_exit(fd < 0 || read_all_4k(fd) < 0);
		}
		if (pid[i] < 0)
			errors++;
	}
	for (i = 0; i < 2; i++)
		if (pid[i] > 0 && (waitpid(pid[i], &status, 0) < 0 ||
				   !WIFEXITED(status) || WEXITSTATUS(status)))
			errors++;
	printf("ms=%.1f errors=%d\n", now_ms() - t0, errors);
	return errors != 0;
}

int main(int argc, char **argv)
{
	if (argc == 4 && !strcmp(argv[1], "pair"))
		return cmd_pair(argv[2], argv[3]);
	if (argc == 4 && !strcmp(argv[1], "two"))
		return cmd_two(argv[2], argv[3]);
	if (argc == 3 && !strcmp(argv[1], "seq"))
		return cmd_seq(argv[2]);
	if (argc == 5 && !strcmp(argv[1], "rand"))
		return cmd_rand(atol(argv[2]), atoll(argv[3]), argv[4]);
	fprintf(stderr, "usage: benchio seq DIR | rand N MINSIZE DIR | pair A B | two A B\n");
	return 2;
}
