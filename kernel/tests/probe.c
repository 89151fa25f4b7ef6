// SPDX-License-Identifier: GPL-2.0-only
/*
 * probe - checks run inside the qemu guest that busybox cannot do.
 * Built static on the host by run.sh and put in the initramfs.
 *
 *   probe dtype DIR        readdir of every directory: "." and ".." first
 *                          with the right inode numbers, d_type and d_ino
 *                          agree with lstat()
 *   probe pread FILE       pread() at and past EOF returns 0 at once
 *   probe mmap FILE        an mmap() of the file reads what read() reads,
 *                          and the rest of the last page is zero
 *   probe threads N DIR    N threads read every file under DIR in
 *                          different orders; all must see the same bytes
 *   probe xip FILE         map FILE read+exec, touch every page, print
 *                          "mixedmap=0|1 size_kb=S rss_kb=R" from smaps
 *   probe walk DIR         lstat, readlink, read() and mmap() everything
 *                          under DIR; errors are counted, not fatal (for
 *                          corrupted images: it must only come back)
 *
 * Exit status 0 when the check holds, 1 with a message on stderr if not.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

static int failures;

static void fail(const char *fmt, const char *a, const char *b)
{
	fprintf(stderr, "probe: ");
	fprintf(stderr, fmt, a, b);
	fputc('\n', stderr);
	failures++;
}

static unsigned char dtype_of(mode_t m)
{
	switch (m & S_IFMT) {
	case S_IFREG: return DT_REG;
	case S_IFDIR: return DT_DIR;
	case S_IFLNK: return DT_LNK;
	case S_IFCHR: return DT_CHR;
	case S_IFBLK: return DT_BLK;
	case S_IFIFO: return DT_FIFO;
	case S_IFSOCK: return DT_SOCK;
	}
	return DT_UNKNOWN;
}

/* ---- dtype --------------------------------------------------------------- */

static void check_dir(const char *path, ino_t parent_ino)
{
	struct stat dst, st;
	struct dirent *de;
	int n = 0, dots = 0;
	char sub[PATH_MAX];
	DIR *d;

	if (lstat(path, &dst)) {
		fail("lstat %s: %s", path, strerror(errno));
		return;
	}
	d = opendir(path);
	if (!d) {
		fail("opendir %s: %s", path, strerror(errno));
		return;
	}
	while ((errno = 0, de = readdir(d))) {
		n++;
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, "..")) {
			ino_t want = de->d_name[1] ? parent_ino : dst.st_ino;

			if (n > 2)
				fail("%s: '%s' is not among the first two entries", path, de->d_name);
			/* At a mount's root ".." names the mounted-on directory:
			 * the filesystem cannot know its inode. */
			if (want && de->d_ino != want)
				fail("%s: wrong inode number for '%s'", path, de->d_name);
			if (de->d_type != DT_DIR)
				fail("%s: d_type of '%s' is not DT_DIR", path, de->d_name);
			dots++;
			continue;
		}
		snprintf(sub, sizeof(sub), "%s/%s", path, de->d_name);
		if (lstat(sub, &st)) {
			fail("lstat %s: %s", sub, strerror(errno));
			continue;
		}
		if (de->d_type != dtype_of(st.st_mode))
			fail("%s: d_type disagrees with lstat%s", sub, "");
		if (de->d_ino != st.st_ino)
			fail("%s: d_ino disagrees with lstat%s", sub, "");
		if (S_ISDIR(st.st_mode))
			check_dir(sub, dst.st_ino);
	}
	if (errno)
		fail("readdir %s: %s", path, strerror(errno));
	if (dots != 2)
		fail("%s: missing '.' or '..'%s", path, "");
	closedir(d);
}

static int cmd_dtype(const char *dir)
{
	check_dir(dir, 0);
	return failures != 0;
}

/* ---- pread past EOF -------------------------------------------------------- */

static int cmd_pread(const char *file)
{
	static const off_t past[] = { 0, 1, 4095, 4096, 1 << 20, (off_t)1 << 40 };
	char buf[8192];
	struct stat st;
	unsigned int i;
	int fd = open(file, O_RDONLY);

	if (fd < 0 || fstat(fd, &st)) {
		fail("open %s: %s", file, strerror(errno));
		return 1;
	}
	for (i = 0; i < sizeof(past) / sizeof(past[0]); i++) {
		ssize_t r = pread(fd, buf, sizeof(buf), st.st_size + past[i]);

		if (r != 0)
			fail("%s: pread past EOF returned non-zero%s", file, "");
	}
	close(fd);
	return failures != 0;
}

/* ---- mmap vs read ------------------------------------------------------------ */

static unsigned char *read_all(const char *file, size_t *len)
{
	unsigned char *buf = NULL;
	size_t cap = 0, n = 0;
	ssize_t r;
	int fd = open(file, O_RDONLY);

	if (fd < 0)
		return NULL;
	for (;;) {
		if (n == cap) {
			cap = cap ? cap * 2 : 65536;
			buf = realloc(buf, cap);
			if (!buf)
				exit(2);
		}
		r = read(fd, buf + n, cap - n);
		if (r < 0) {
			free(buf);
			close(fd);
			return NULL;
		}
		if (r == 0)
			break;
		n += r;
	}
	close(fd);
	*len = n;
	return buf ? buf : malloc(1);
}

static int cmd_mmap(const char *file)
{
	long pg = sysconf(_SC_PAGESIZE);
	size_t len, maplen, i;
	unsigned char *data, *map;
	int fd;

	data = read_all(file, &len);
	if (!data) {
		fail("read %s: %s", file, strerror(errno));
		return 1;
	}
	if (!len)
		return 0;
	fd = open(file, O_RDONLY);
	maplen = (len + pg - 1) / pg * pg;
	map = mmap(NULL, maplen, PROT_READ, MAP_PRIVATE, fd, 0);
	if (map == MAP_FAILED) {
		fail("mmap %s: %s", file, strerror(errno));
		return 1;
	}
	if (memcmp(map, data, len))
		fail("%s: mmap and read differ%s", file, "");
	for (i = len; i < maplen; i++)
		if (map[i]) {
			fail("%s: bytes after EOF in the last page are not zero%s", file, "");
			break;
		}
	munmap(map, maplen);
	close(fd);
	free(data);
	return failures != 0;
}

/* ---- concurrent readers -------------------------------------------------------- */

struct file_ref {
	char *path;
	unsigned char *data;
	size_t len;
};

static struct file_ref *files;
static size_t nfiles, capfiles;

static void collect(const char *dir)
{
	char sub[PATH_MAX];
	struct dirent *de;
	struct stat st;
	DIR *d = opendir(dir);

	if (!d)
		return;
	while ((de = readdir(d))) {
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		snprintf(sub, sizeof(sub), "%s/%s", dir, de->d_name);
		if (lstat(sub, &st))
			continue;
		if (S_ISDIR(st.st_mode)) {
			collect(sub);
		} else if (S_ISREG(st.st_mode)) {
			if (nfiles == capfiles) {
				capfiles = capfiles ? capfiles * 2 : 256;
				files = realloc(files, capfiles * sizeof(*files));
				if (!files)
					exit(2);
			}
			files[nfiles].path = strdup(sub);
			files[nfiles].data = NULL;
			nfiles++;
		}
	}
	closedir(d);
}

static void *reader(void *arg)
{
	size_t seed = (size_t)(uintptr_t)arg, i, k, len;
	long bad = 0;

	for (k = 0; k < nfiles; k++) {
		/* Each thread walks the files in its own order. */
		i = (k * (2 * seed + 1) + seed * 7) % nfiles;
		unsigned char *d = read_all(files[i].path, &len);

		if (!d || len != files[i].len || memcmp(d, files[i].data, len))
			bad++;
		free(d);
	}
	return (void *)bad;
}

static int cmd_threads(int n, const char *dir)
{
	pthread_t t[64];
	size_t i;
	long bad = 0;

	collect(dir);
	if (!nfiles) {
		fail("%s: no files%s", dir, "");
		return 1;
	}
	for (i = 0; i < nfiles; i++) {
		files[i].data = read_all(files[i].path, &files[i].len);
		if (!files[i].data)
			fail("read %s: %s", files[i].path, strerror(errno));
	}
	if (failures)
		return 1;
	/* Drop the page cache so the threads decompress concurrently. */
	{
		int fd = open("/proc/sys/vm/drop_caches", O_WRONLY);

		if (fd >= 0) {
			if (write(fd, "3\n", 2) < 0)
				perror("drop_caches");
			close(fd);
		}
	}
	if (n > 64)
		n = 64;
	for (i = 0; i < (size_t)n; i++)
		pthread_create(&t[i], NULL, reader, (void *)(uintptr_t)(i + 1));
	for (i = 0; i < (size_t)n; i++) {
		void *r;

		pthread_join(t[i], &r);
		bad += (long)r;
	}
	if (bad)
		fail("%s: concurrent readers saw different bytes%s", dir, "");
	printf("%zu files, %d threads\n", nfiles, n);
	return failures != 0;
}

/* ---- XIP mapping ------------------------------------------------------------ */

static int cmd_xip(const char *file)
{
	long pg = sysconf(_SC_PAGESIZE);
	char line[512], want[64];
	unsigned long size_kb = 0, rss_kb = 0;
	int in_vma = 0, mixed = 0;
	volatile unsigned char sum = 0;
	struct stat st;
	unsigned char *map;
	size_t maplen, i;
	FILE *f;
	int fd = open(file, O_RDONLY);

	if (fd < 0 || fstat(fd, &st) || !st.st_size) {
		fail("open %s: %s", file, strerror(errno));
		return 1;
	}
	maplen = (st.st_size + pg - 1) / pg * pg;
	map = mmap(NULL, maplen, PROT_READ | PROT_EXEC, MAP_PRIVATE, fd, 0);
	if (map == MAP_FAILED) {
		fail("mmap %s: %s", file, strerror(errno));
		return 1;
	}
	for (i = 0; i < maplen; i += pg)
		sum += map[i];
	snprintf(want, sizeof(want), "%lx-", (unsigned long)map);
	f = fopen("/proc/self/smaps", "r");
	while (f && fgets(line, sizeof(line), f)) {
		if (strchr(line, '-') && strchr(line, ' ') &&
		    strchr(line, '-') < strchr(line, ' ')) {
			in_vma = !strncmp(line, want, strlen(want));
			continue;
		}
		if (!in_vma)
			continue;
		sscanf(line, "Size: %lu kB", &size_kb);
		sscanf(line, "Rss: %lu kB", &rss_kb);
		/* "mm": VM_MIXEDMAP */
		if (!strncmp(line, "VmFlags:", 8) && strstr(line, " mm"))
			mixed = 1;
	}
	if (f)
		fclose(f);
	printf("mixedmap=%d size_kb=%lu rss_kb=%lu\n", mixed, size_kb, rss_kb);
	munmap(map, maplen);
	close(fd);
	return 0;
}

/* ---- walk everything, ignoring errors ------------------------------------ */

static long walk_items, walk_errors;

static void walk_file(const char *path, off_t size)
{
	long pg = sysconf(_SC_PAGESIZE);
	static char buf[65536];
	volatile unsigned char sum = 0;
	unsigned char *map;
	size_t maplen, i;
	int fd = open(path, O_RDONLY | O_NONBLOCK);

	if (fd < 0) {
		walk_errors++;
		return;
	}
	for (;;) {
		ssize_t r = read(fd, buf, sizeof(buf));

		if (r < 0)
			walk_errors++;
		if (r <= 0)
			break;
	}
	if (size > 0 && size < ((off_t)1 << 32)) {
		maplen = (size + pg - 1) / pg * pg;
		map = mmap(NULL, maplen, PROT_READ, MAP_PRIVATE, fd, 0);
		if (map != MAP_FAILED) {
			/* Touching a page that cannot be read raises SIGBUS;
			 * reading it through /proc/self/mem gives an error. */
			int mem = open("/proc/self/mem", O_RDONLY);

			for (i = 0; mem >= 0 && i < maplen; i += pg) {
				unsigned char c;

				if (pread(mem, &c, 1, (off_t)(uintptr_t)(map + i)) == 1)
					sum += c;
				else
					walk_errors++;
			}
			if (mem >= 0)
				close(mem);
			munmap(map, maplen);
		}
	}
	close(fd);
}

static void walk(const char *path, int depth)
{
	char sub[PATH_MAX], target[PATH_MAX];
	struct dirent *de;
	struct stat st;
	DIR *d;

	walk_items++;
	if (lstat(path, &st)) {
		walk_errors++;
		return;
	}
	if (S_ISLNK(st.st_mode)) {
		if (readlink(path, target, sizeof(target)) < 0)
			walk_errors++;
		return;
	}
	if (S_ISREG(st.st_mode)) {
		walk_file(path, st.st_size);
		return;
	}
	if (!S_ISDIR(st.st_mode) || depth > 64)
		return;
	d = opendir(path);
	if (!d) {
		walk_errors++;
		return;
	}
	while ((errno = 0, de = readdir(d))) {
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		snprintf(sub, sizeof(sub), "%s/%s", path, de->d_name);
		walk(sub, depth + 1);
	}
	if (errno)
		walk_errors++;
	closedir(d);
}

static int cmd_walk(const char *dir)
{
	walk(dir, 0);
	printf("%ld entries, %ld errors\n", walk_items, walk_errors);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 3 && !strcmp(argv[1], "dtype"))
		return cmd_dtype(argv[2]);
	if (argc == 3 && !strcmp(argv[1], "pread"))
		return cmd_pread(argv[2]);
	if (argc == 3 && !strcmp(argv[1], "mmap"))
		return cmd_mmap(argv[2]);
	if (argc == 4 && !strcmp(argv[1], "threads"))
		return cmd_threads(atoi(argv[2]), argv[3]);
	if (argc == 3 && !strcmp(argv[1], "xip"))
		return cmd_xip(argv[2]);
	if (argc == 3 && !strcmp(argv[1], "walk"))
		return cmd_walk(argv[2]);
	fprintf(stderr, "usage: probe dtype DIR | pread FILE | mmap FILE | threads N DIR | xip FILE | walk DIR\n");
	return 2;
}
