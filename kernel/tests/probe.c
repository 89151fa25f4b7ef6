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
 *   probe cow FILE         a private writable mapping of FILE: pages
 *                          written first (even pages) or read and then
 *                          written (odd pages) hold the writes, the rest
 *                          of each page and the other pages the file's
 *                          bytes; the file and a fresh mapping are
 *                          unchanged afterwards
 *   probe cow-mprotect FILE
 *                          the same on a read-only private mapping whose
 *                          every page was read first, then made writable
 *                          with mprotect(); where that is refused (EACCES:
 *                          XIP pages the kernel must never copy, see
 *                          kernel/xip.c) prints "mprotect refused"
 *   probe threads N DIR    N threads read every file under DIR in
 *                          different orders; all must see the same bytes
 *   probe xip FILE         map FILE read+exec, touch every page, print
 *                          "mixedmap=0|1 size_kb=S rss_kb=R" from smaps
 *   probe pagemap FILE BASE SIZE
 *                          map FILE read+exec, compare every mapped byte
 *                          with read() of it, and count from
 *                          /proc/self/pagemap (PFNs need root) the pages
 *                          whose frame lies in [BASE, BASE+SIZE), the
 *                          image in memory: "pages=N in_image=M"
 *   probe memwrite FILE ADDR
 *                          copy FILE to physical address ADDR through an
 *                          mmap() of /dev/mem (arm64 refuses write() there
 *                          for memory the kernel does not map)
 *   probe walk DIR         lstat, readlink, read() and mmap() everything
 *                          under DIR; errors are counted, not fatal (for
 *                          corrupted images: it must only come back)
 *   probe hostile loop|mtdN|phys MANIFEST [NAME@ADDR...]
 *                          mount each corrupted image of MANIFEST (see
 *                          corrupt.py) on /mnt/c from a loop device, from
 *                          MTD N (written there first) or from memory
 *                          (the NAME@ADDR images only), walk it, check the
 *                          expectation, print AXFS-RESULT lines; the
 *                          kernel log is appended to /tmp/dmesg.hostile
 *   probe incore PATH...   the page cache each regular file (under each
 *                          directory) holds, by mincore() of a mapping
 *                          that is never touched: "KIB PATH" for each
 *                          file with some, then "incore_kb=N files=M"
 *   probe first-output PROG ARGS...
 *                          run PROG, print "first_ms=F total_ms=T": the
 *                          time to its first byte of output and to its end
 *
 * Exit status 0 when the check holds, 1 with a message on stderr if not.
 */
#define _GNU_SOURCE
/* 32-bit guests (armhf): 64-bit off_t for pread() past 4 GiB, /dev/mem. */
#define _FILE_OFFSET_BITS 64
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/loop.h>
#include <stdarg.h>
#include <sys/ioctl.h>
#include <sys/klog.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
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

/* ---- copy on write of a private writable mapping -------------------------- */

static int cmd_cow(const char *file, int late)
{
	long pg = sysconf(_SC_PAGESIZE);
	size_t len, maplen, i, pages;
	unsigned char *data, *want, *map, *again;
	int fd;

	data = read_all(file, &len);
	if (!data || !len) {
		fail("read %s: %s", file, data ? "empty file" : strerror(errno));
		return 1;
	}
	fd = open(file, O_RDONLY);
	maplen = (len + pg - 1) / pg * pg;
	pages = maplen / pg;
	map = mmap(NULL, maplen, late ? PROT_READ : PROT_READ | PROT_WRITE,
		   MAP_PRIVATE, fd, 0);
	want = calloc(1, maplen);
	if (map == MAP_FAILED || !want) {
		fail("mmap %s: %s", file, strerror(errno));
		return 1;
	}
	memcpy(want, data, len);
	if (late) {
		/* Every page present (XIP pages mapped) before the mprotect. */
		for (i = 0; i < maplen; i += pg)
			if (((volatile unsigned char *)map)[i] != want[i])
				fail("%s: a mapped page differs from read()%s", file, "");
		if (mprotect(map, maplen, PROT_READ | PROT_WRITE)) {
			if (errno != EACCES)
				fail("mprotect %s: %s", file, strerror(errno));
			else
				printf("mprotect refused\n");
			munmap(map, maplen);
			free(want);
			free(data);
			close(fd);
			return failures != 0;
		}
	}
	/* Page i: byte 8 * i of it written, first or after a read. */
	for (i = 0; i < pages; i++) {
		size_t at = i * pg + (8 * i) % pg;
		volatile unsigned char *p = map + at;

		if (i % 2)
			(void)*p;
		*p = (unsigned char)~want[at];
		want[at] = (unsigned char)~want[at];
	}
	if (memcmp(map, want, maplen))
		fail("%s: the private writable mapping does not hold what was written over the file%s", file, "");
	munmap(map, maplen);
	free(want);
	again = read_all(file, &i);
	if (!again || i != len || memcmp(again, data, len))
		fail("%s: read() after the writes to a private mapping differs%s", file, "");
	map = mmap(NULL, maplen, PROT_READ, MAP_PRIVATE, fd, 0);
	if (map == MAP_FAILED || memcmp(map, data, len))
		fail("%s: a fresh mapping after the writes differs%s", file, "");
	if (map != MAP_FAILED)
		munmap(map, maplen);
	close(fd);
	free(again);
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

static void add_file(const char *path)
{
	if (nfiles == capfiles) {
		capfiles = capfiles ? capfiles * 2 : 256;
		files = realloc(files, capfiles * sizeof(*files));
		if (!files)
			exit(2);
	}
	files[nfiles].path = strdup(path);
	files[nfiles].data = NULL;
	nfiles++;
}

/* Every regular file under dir, into files[]. */
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
		if (S_ISDIR(st.st_mode))
			collect(sub);
		else if (S_ISREG(st.st_mode))
			add_file(sub);
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

/* ---- pagemap: where the mapped pages come from -------------------------- */

static int cmd_pagemap(const char *file, const char *base_s, const char *size_s)
{
	long pg = sysconf(_SC_PAGESIZE);
	unsigned long long base = strtoull(base_s, NULL, 0);
	unsigned long long size = strtoull(size_s, NULL, 0);
	unsigned long pages = 0, in_image = 0;
	unsigned char *map, *buf;
	struct stat st;
	size_t maplen, i;
	int fd = open(file, O_RDONLY);
	int pm = open("/proc/self/pagemap", O_RDONLY);

	if (fd < 0 || pm < 0 || fstat(fd, &st) || !st.st_size) {
		fail("open %s or pagemap: %s", file, strerror(errno));
		return 1;
	}
	maplen = (st.st_size + pg - 1) / pg * pg;
	buf = malloc(st.st_size);
	map = mmap(NULL, maplen, PROT_READ | PROT_EXEC, MAP_PRIVATE, fd, 0);
	if (!buf || map == MAP_FAILED) {
		fail("mmap %s: %s", file, strerror(errno));
		return 1;
	}
	if (pread(fd, buf, st.st_size, 0) != st.st_size) {
		fail("read %s: %s", file, "short");
		return 1;
	}
	if (memcmp(map, buf, st.st_size))
		fail("%s: %s", file, "mapped bytes differ from read()");
	for (i = 0; i < maplen; i += pg) {
		uint64_t e, phys;
		off_t at = (off_t)((uintptr_t)(map + i) / pg) * 8;

		pages++;
		if (pread(pm, &e, 8, at) != 8) {
			fail("%s: %s", "pagemap", strerror(errno));
			return 1;
		}
		/* bit 63: present; bits 0-54: the page frame number */
		phys = (e & ((1ULL << 55) - 1)) * (uint64_t)pg;
		if ((e >> 63) && phys >= base && phys - base < size)
			in_image++;
	}
	printf("pages=%lu in_image=%lu\n", pages, in_image);
	munmap(map, maplen);
	free(buf);
	close(pm);
	close(fd);
	return failures ? 1 : 0;
}

static int cmd_memwrite(const char *file, const char *addr_s)
{
	long pg = sysconf(_SC_PAGESIZE);
	uint64_t addr = strtoull(addr_s, NULL, 0);
	size_t len, maplen;
	unsigned char *data, *mem;
	int fd;

	data = read_all(file, &len);
	if (!data || !len || addr % pg) {
		fail("memwrite %s to %s: nothing to write or unaligned", file, addr_s);
		return 1;
	}
	maplen = (len + pg - 1) / pg * pg;
	fd = open("/dev/mem", O_RDWR | O_SYNC);
	mem = fd < 0 ? MAP_FAILED : mmap(NULL, maplen, PROT_READ | PROT_WRITE,
					 MAP_SHARED, fd, (off_t)addr);
	if (mem == MAP_FAILED) {
		fail("map /dev/mem at %s: %s", addr_s, strerror(errno));
		return 1;
	}
	memcpy(mem, data, len);
	if (memcmp(mem, data, len))
		fail("memwrite %s: read back differs at %s", file, addr_s);
	munmap(mem, maplen);
	close(fd);
	free(data);
	return failures != 0;
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

/* ---- page cache per file ---------------------------------------------------- */

/* KiB of path's pages in the page cache, by mincore() of an untouched mapping. */
static long incore_kib(const char *path)
{
	long page = sysconf(_SC_PAGESIZE), resident = 0;
	struct stat st;
	unsigned char *vec;
	size_t pages, i;
	void *map;
	int fd = open(path, O_RDONLY);

	if (fd < 0) {
		fail("open %s: %s", path, strerror(errno));
		return 0;
	}
	map = fstat(fd, &st) || !st.st_size ? NULL :
	      mmap(NULL, st.st_size, PROT_READ, MAP_SHARED, fd, 0);
	if (map == MAP_FAILED)
		fail("mmap %s: %s", path, strerror(errno));
	if (!map || map == MAP_FAILED) {
		close(fd);
		return 0;
	}
	pages = (st.st_size + page - 1) / page;
	vec = malloc(pages);
	if (!vec || mincore(map, st.st_size, vec))
		fail("mincore %s: %s", path, strerror(errno));
	else
		for (i = 0; i < pages; i++)
			resident += vec[i] & 1;
	free(vec);
	munmap(map, st.st_size);
	close(fd);
	return resident * page / 1024;
}

static int cmd_incore(int n, char **paths)
{
	long total = 0, with = 0, kib;
	struct stat st;
	size_t i;
	int k;

	for (k = 0; k < n; k++) {
		if (lstat(paths[k], &st))
			fail("lstat %s: %s", paths[k], strerror(errno));
		else if (S_ISDIR(st.st_mode))
			collect(paths[k]);
		else if (S_ISREG(st.st_mode))
			add_file(paths[k]);
	}
	for (i = 0; i < nfiles; i++) {
		kib = incore_kib(files[i].path);
		if (kib) {
			printf("%ld %s\n", kib, files[i].path);
			total += kib;
			with++;
		}
	}
	printf("incore_kb=%ld files=%ld\n", total, with);
	return failures != 0;
}

/* ---- corrupted images, one process for all of them ------------------------ */

#define HOSTILE_MNT "/mnt/c"
#define HOSTILE_TIMEOUT_MS 60000

enum { MOUNT_REFUSED = 10, WALKED = 20, WALKED_EIO = 21, WALKED_NO_EIO = 22 };

static void result(const char *status, const char *fmt, ...)
{
	double up = 0;
	va_list ap;
	FILE *f = fopen("/proc/uptime", "r");

	if (f) {
		if (fscanf(f, "%lf", &up) != 1)
			up = 0;
		fclose(f);
	}
	printf("AXFS-RESULT %s %.2f ", status, up);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	fflush(stdout);
}

/* Read and clear the kernel log; keep a copy in /tmp/dmesg.hostile. */
static char klog[1 << 20];

static const char *klog_take(void)
{
	int n = klogctl(4 /* SYSLOG_ACTION_READ_CLEAR */, klog, sizeof(klog) - 1);
	FILE *f;

	if (n < 0)
		n = 0;
	klog[n] = '\0';
	f = fopen("/tmp/dmesg.hostile", "a");
	if (f) {
		fputs(klog, f);
		fclose(f);
	}
	return klog;
}

/* In a child: mount, walk, check PATH gives EIO, unmount. */
static int hostile_child(const char *src, const char *opts, const char *path)
{
	char full[PATH_MAX], buf[4096];
	int fd, eio = 0;
	ssize_t r;

	if (mount(src, HOSTILE_MNT, "axfs", MS_RDONLY | MS_SILENT, opts))
		return MOUNT_REFUSED;
	walk(HOSTILE_MNT, 0);
	if (path && *path) {
		snprintf(full, sizeof(full), "%s%s", HOSTILE_MNT, path);
		fd = open(full, O_RDONLY | O_NONBLOCK);
		if (fd < 0) {
			eio = errno == EIO;
		} else {
			while ((r = read(fd, buf, sizeof(buf))) > 0)
				;
			eio = r < 0 && errno == EIO;
			close(fd);
		}
	}
	if (umount(HOSTILE_MNT))
		perror("umount");
	if (!path || !*path)
		return WALKED;
	return eio ? WALKED_EIO : WALKED_NO_EIO;
}

/* Returns the child's code, or -1 if it did not finish in time. */
static int run_bounded(const char *src, const char *opts, const char *path)
{
	int status, waited;
	pid_t pid;

	fflush(stdout);
	pid = fork();
	if (pid == 0)
		_exit(hostile_child(src, opts, path));
	for (waited = 0; waited < HOSTILE_TIMEOUT_MS; waited += 20) {
		if (waitpid(pid, &status, WNOHANG) == pid)
			return WIFEXITED(status) ? WEXITSTATUS(status) : -2;
		usleep(20000);
	}
	return -1;
}

static int loop_attach(const char *file, char *dev, size_t devlen, int *lfd)
{
	struct loop_config cfg;
	int ctl, n, ffd;

	ctl = open("/dev/loop-control", O_RDWR);
	if (ctl < 0)
		return -1;
	n = ioctl(ctl, LOOP_CTL_GET_FREE);
	close(ctl);
	if (n < 0)
		return -1;
	snprintf(dev, devlen, "/dev/loop%d", n);
	*lfd = open(dev, O_RDONLY);
	ffd = open(file, O_RDONLY);
	if (*lfd < 0 || ffd < 0)
		return -1;
	memset(&cfg, 0, sizeof(cfg));
	cfg.fd = ffd;
	cfg.info.lo_flags = LO_FLAGS_READ_ONLY;
	n = ioctl(*lfd, LOOP_CONFIGURE, &cfg);
	close(ffd);
	return n;
}

static int copy_to(const char *file, const char *dev)
{
	static char buf[1 << 16];
	int in = open(file, O_RDONLY), out = open(dev, O_WRONLY);
	ssize_t r;
	int err = in < 0 || out < 0;

	while (!err && (r = read(in, buf, sizeof(buf))) > 0)
		err = write(out, buf, r) != r;
	if (in >= 0)
		close(in);
	if (out >= 0)
		close(out);
	return err ? -1 : 0;
}

static int hostile_one(const char *how, const char *name, const char *expect,
		       const char *path, const char *src, const char *opts)
{
	const char *log;
	int code;

	code = run_bounded(src, opts, path);
	log = klog_take();
	if (code == -1) {
		result("fail", "hostile/%s: %s: hung", how, name);
		return 1;
	}
	if (code == -2) {
		result("fail", "hostile/%s: %s: the test process crashed", how, name);
		return 1;
	}
	if (!strncmp(expect, "refuse", 6)) {
		if (code != MOUNT_REFUSED) {
			result("fail", "hostile/%s: %s: mounted", how, name);
			return 1;
		}
		if (strcmp(expect, "refuse-quiet") && !strstr(log, "axfs")) {
			result("fail", "hostile/%s: %s: refused without a message", how, name);
			return 1;
		}
		result("ok", "hostile/%s: %s: refused%s", how, name,
		       strcmp(expect, "refuse-quiet") ? " with a message" : "");
		return 0;
	}
	if (!strcmp(expect, "eio")) {
		if (code != WALKED_EIO) {
			result("fail", "hostile/%s: %s: %s", how, name,
			       code == MOUNT_REFUSED ? "mount failed" : "no EIO");
			return 1;
		}
		result("ok", "hostile/%s: %s: mounted, EIO for %s", how, name, path);
		return 0;
	}
	result("ok", "hostile/%s: %s: no crash or hang (%s)", how, name,
	       code == MOUNT_REFUSED ? "refused" : "mounted, every file read");
	return 0;
}

static int cmd_hostile(int argc, char **argv)
{
	const char *how = argv[2];
	char line[512], file[PATH_MAX], dev[64], mtd[64];
	int bad = 0, i;
	FILE *m = fopen(argv[3], "r");
	char *dir = strdup(argv[3]);

	if (!m) {
		fail("open %s: %s", argv[3], strerror(errno));
		return 1;
	}
	*strrchr(dir, '/') = '\0';
	klog_take();
	while (fgets(line, sizeof(line), m)) {
		char name[128] = "", expect[32] = "", path[256] = "", opts[64] = "";
		const char *src = NULL;
		int lfd = -1;

		if (sscanf(line, "%127s %31s %255s", name, expect, path) < 2)
			continue;
		snprintf(file, sizeof(file), "%s/%s.img", dir, name);
		if (!strcmp(how, "loop")) {
			if (loop_attach(file, dev, sizeof(dev), &lfd)) {
				result("fail", "hostile/loop: %s: cannot set up a loop device", name);
				bad++;
				continue;
			}
			src = dev;
		} else if (!strncmp(how, "mtd", 3)) {
			if (!strncmp(name, "random", 6))
				continue;	/* targeted ones only */
			snprintf(mtd, sizeof(mtd), "/dev/%s", how);
			if (copy_to(file, mtd)) {
				result("fail", "hostile/mtd: %s: cannot write %s", name, mtd);
				bad++;
				continue;
			}
			src = how;
		} else {
			for (i = 4; i < argc; i++) {
				size_t len = strlen(name);

				if (!strncmp(argv[i], name, len) && argv[i][len] == '@')
					snprintf(opts, sizeof(opts), "physaddr=%s", argv[i] + len + 1);
			}
			if (!*opts)
				continue;
			src = "none";
		}
		bad += hostile_one(!strcmp(how, "loop") ? "loop" :
				   !strncmp(how, "mtd", 3) ? "mtd" : "physaddr",
				   name, expect, path, src, *opts ? opts : NULL);
		if (lfd >= 0) {
			ioctl(lfd, LOOP_CLR_FD, 0);
			close(lfd);
		}
	}
	fclose(m);
	free(dir);
	return bad != 0;
}

/* ---- time to first output -------------------------------------------------- */

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static int cmd_first_output(char **argv)
{
	double t0, first = -1;
	char buf[4096];
	int p[2], status;
	ssize_t r;
	pid_t pid;

	if (pipe(p))
		return 1;
	t0 = now_ms();
	pid = fork();
	if (pid == 0) {
		dup2(p[1], 1);
		close(p[0]);
		close(p[1]);
		execv(argv[0], argv);
		_exit(127);
	}
	close(p[1]);
	while ((r = read(p[0], buf, sizeof(buf))) > 0)
		if (first < 0)
			first = now_ms() - t0;
	waitpid(pid, &status, 0);
	printf("first_ms=%.1f total_ms=%.1f\n", first, now_ms() - t0);
	return !(WIFEXITED(status) && WEXITSTATUS(status) == 0);
}

int main(int argc, char **argv)
{
	if (argc == 3 && !strcmp(argv[1], "dtype"))
		return cmd_dtype(argv[2]);
	if (argc == 3 && !strcmp(argv[1], "pread"))
		return cmd_pread(argv[2]);
	if (argc == 3 && !strcmp(argv[1], "mmap"))
		return cmd_mmap(argv[2]);
	if (argc == 3 && !strcmp(argv[1], "cow"))
		return cmd_cow(argv[2], 0);
	if (argc == 3 && !strcmp(argv[1], "cow-mprotect"))
		return cmd_cow(argv[2], 1);
	if (argc == 4 && !strcmp(argv[1], "threads"))
		return cmd_threads(atoi(argv[2]), argv[3]);
	if (argc == 3 && !strcmp(argv[1], "xip"))
		return cmd_xip(argv[2]);
	if (argc == 5 && !strcmp(argv[1], "pagemap"))
		return cmd_pagemap(argv[2], argv[3], argv[4]);
	if (argc == 4 && !strcmp(argv[1], "memwrite"))
		return cmd_memwrite(argv[2], argv[3]);
	if (argc == 3 && !strcmp(argv[1], "walk"))
		return cmd_walk(argv[2]);
	if (argc >= 4 && !strcmp(argv[1], "hostile"))
		return cmd_hostile(argc, argv);
	if (argc >= 3 && !strcmp(argv[1], "incore"))
		return cmd_incore(argc - 2, argv + 2);
	if (argc >= 3 && !strcmp(argv[1], "first-output"))
		return cmd_first_output(argv + 2);
	fprintf(stderr, "usage: probe dtype DIR | pread FILE | mmap FILE | cow FILE | cow-mprotect FILE | threads N DIR | xip FILE | pagemap FILE BASE SIZE | memwrite FILE ADDR | walk DIR | incore PATH... | hostile loop|mtdN|phys MANIFEST [NAME@ADDR...] | first-output PROG ARGS...\n");
	return 2;
}
