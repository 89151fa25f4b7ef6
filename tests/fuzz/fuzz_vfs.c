// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Fuzz target: what axfs mount does with an image, without FUSE.  Opens
 * the input as axfs mount does, serves it through axfs_vfs.h with a
 * cblock pool of 4 slots (so slots are evicted and, with two threads,
 * sometimes all lent), and answers what the kernel would ask: readdir
 * of every directory in pieces, lookup of every name listed (and of
 * names that are not there), getattr, open, readlink, and reads at
 * page-straddling offsets.  Every few inputs the same walk runs on two
 * threads at once against one vfs.  Any crash, hang, leak or sanitizer
 * report is a bug; errors are fine.  Budgets keep each input fast.
 */
#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "axfs_format.h"
#include "axfs_vfs.h"
#include "fuzz.h"

#define MAX_DIRS	64		/* directories listed per walk */
#define MAX_CALLS	2048		/* vfs calls per walk */

struct walk {
	struct axfs_vfs *v;
	uint64_t dirs[MAX_DIRS];
	size_t ndirs, next;
	unsigned int calls;
	unsigned int listed;		/* entries in the current call */
	uint64_t cur;			/* directory being listed */
	uint64_t pos;			/* where the listing goes on */
};

static void visit(struct walk *w, uint64_t dir, const char *name)
{
	struct axfs_error err;
	struct stat st;
	uint64_t ino;
	static const size_t offs[] = { 0, 1, 4095, 4096, 70000 };
	char buf[AXFS_PAGE_SIZE + 8];
	size_t got;

	w->calls++;
	if (axfs_vfs_lookup(w->v, dir, name, strlen(name), &ino, &st,
			    &err) < 0)
		return;
	if (S_ISDIR(st.st_mode)) {
		if (w->ndirs < MAX_DIRS)
			w->dirs[w->ndirs++] = ino;
		return;
	}
	if (S_ISLNK(st.st_mode)) {
		axfs_vfs_readlink(w->v, ino, buf, sizeof(buf), &err);
		axfs_vfs_readlink(w->v, ino, buf, 2, &err);
		return;
	}
	if (axfs_vfs_open(w->v, ino, &err) < 0)
		return;
	for (size_t i = 0; i < sizeof(offs) / sizeof(offs[0]); i++) {
		w->calls++;
		axfs_vfs_read(w->v, ino, offs[i], buf, sizeof(buf), &got,
			      &err);
	}
	axfs_vfs_read(w->v, ino, (uint64_t)st.st_size - 1, buf, 2, &got,
		      &err);
	axfs_vfs_read(w->v, ino, UINT64_MAX - 1, buf, 4, &got, &err);
}

static int on_entry(void *ctx, const char *name, uint64_t ino,
		    uint32_t type, uint64_t next_pos)
{
	struct walk *w = ctx;

	(void)ino;
	(void)type;
	w->pos = next_pos;
	if (w->calls >= MAX_CALLS)
		return 1;
	if (strcmp(name, ".") && strcmp(name, ".."))
		visit(w, w->cur, name);
	/* Small pieces, as a small readdir buffer would ask for. */
	return ++w->listed >= 3;
}

static void *walk_all(void *arg)
{
	struct walk *w = arg;
	struct axfs_error err;
	struct stat st;

	while (w->next < w->ndirs && w->calls < MAX_CALLS) {
		w->cur = w->dirs[w->next++];
		w->pos = 0;
		axfs_vfs_getattr(w->v, w->cur, &st, &err);
		for (int piece = 0; piece < 64 && w->calls < MAX_CALLS;
		     piece++) {
			w->listed = 0;
			w->calls++;
			if (axfs_vfs_readdir(w->v, w->cur, w->pos, on_entry, w,
					     &err) < 0 || w->listed == 0)
				break;
		}
		visit(w, w->cur, "no such name");
		visit(w, w->cur, "");
	}
	return NULL;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct axfs_vfs_opts vo = { .struct_size = sizeof(vo), .cache_bytes = 1 };
	struct axfs_open_opts o = { .struct_size = sizeof(o) };
	struct axfs_image *img;
	struct axfs_vfs *v;
	struct axfs_error err;
	struct statvfs sfs;
	struct stat st;
	struct walk w[2];
	pthread_t t;
	int threaded = (size & 3) == 1;

	if (axfs_image_open_buffer(&img, data, size, "fuzz", &o, &err) < 0)
		return 0;
	if (axfs_vfs_new(&v, img, &vo, &err) < 0) {
		axfs_image_close(img);
		return 0;
	}
	axfs_vfs_statfs(v, &sfs);
	axfs_vfs_getattr(v, 0, &st, &err);
	axfs_vfs_getattr(v, UINT64_MAX, &st, &err);
	for (int i = 0; i < 2; i++) {
		memset(&w[i], 0, sizeof(w[i]));
		w[i].v = v;
		w[i].dirs[0] = AXFS_VFS_ROOT;
		w[i].ndirs = 1;
	}
	axfs_vfs_readdir(v, AXFS_VFS_ROOT, UINT64_MAX - 1, on_entry, &w[0],
			 &err);
	/* Threads only now and then: creating them is slow. */
	if (threaded && pthread_create(&t, NULL, walk_all, &w[1]) == 0) {
		walk_all(&w[0]);
		pthread_join(t, NULL);
	} else {
		walk_all(&w[0]);
	}
	axfs_vfs_free(v);
	axfs_image_close(img);
	return 0;
}
