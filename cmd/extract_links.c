// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cmd/extract_links.c - axfs extract IMAGE DIR: link groups, the regular
 * files that share one node range, as mkfs stores hard links.
 *
 * The pre-walk's files are grouped here (the rule --tar follows too,
 * through the image source); the first file of a group in walk order is
 * written, the others are hard links to it, made through a descriptor of
 * the very file written, so that a link is never made to something put
 * in its place.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common.h"
#include "extract_tree.h"

/*
 * Opens the first file of a link group, created earlier at DIR/path,
 * without following any symlink on the way (each directory O_NOFOLLOW,
 * the file O_PATH|O_NOFOLLOW), and checks that it is still the file we
 * wrote: a link must never be made to something else put there.
 */
static int open_link_target(struct extract *x, const struct reg *m)
{
	const char *p = m->path + 1;	/* after the leading '/' */
	int dfd = dup(extract_level_fd(x, 0)), fd;
	struct stat st;

	if (dfd < 0)
		return -1;
	for (;;) {
		const char *slash = strchr(p, '/');
		char comp[256];
		size_t len = slash ? (size_t)(slash - p) : strlen(p);

		if (len >= sizeof(comp)) {
			close(dfd);
			errno = ENAMETOOLONG;
			return -1;
		}
		memcpy(comp, p, len);
		comp[len] = '\0';
		if (!slash) {
			fd = openat(dfd, comp, O_PATH | O_NOFOLLOW | O_CLOEXEC);
			break;
		}
		fd = extract_open_dir(dfd, comp);
		close(dfd);
		if (fd < 0)
			return -1;
		dfd = fd;
		p = slash + 1;
	}
	close(dfd);
	if (fd < 0)
		return -1;
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) ||
	    st.st_dev != m->dev || st.st_ino != m->st_ino) {
		close(fd);
		errno = ESTALE;
		return -1;
	}
	return fd;
}

/*
 * Another member of a link group: a hard link to the group's first file
 * (same data, mode, owner and time: nothing else to set).  linkat()
 * through /proc/self/fd links the very file we opened, whatever has
 * happened to its name since; without /proc, AT_EMPTY_PATH does the
 * same for root.
 */
int extract_make_link(struct extract *x, int pfd, const char *name,
		      const char *path, const struct reg *m)
{
	char proc[64];
	int fd, rc, reuse;

	fd = open_link_target(x, m);
	if (fd < 0)
		return extract_fail(x, errno, "find the file to link to",
				    m->path);
	snprintf(proc, sizeof(proc), "/proc/self/fd/%d", fd);
	for (;;) {
		rc = linkat(AT_FDCWD, proc, pfd, name, AT_SYMLINK_FOLLOW);
		if (rc < 0 && errno == ENOENT)
			rc = linkat(fd, "", pfd, name, AT_EMPTY_PATH);
		if (rc == 0 || errno != EEXIST)
			break;
		if (extract_make_room(x, pfd, name, path, 0, &reuse) < 0) {
			close(fd);
			return -1;
		}
	}
	close(fd);
	if (rc < 0)
		return extract_fail(x, errno, "create hard link", path);
	return 0;
}

/* Regular files by what a link group shares, then in walk order. */
static int by_share(const void *a, const void *b, void *ctx)
{
	const struct reg *regs = ctx;
	size_t i = *(const size_t *)a, j = *(const size_t *)b;
	const struct reg *p = &regs[i], *q = &regs[j];

	if (p->array_index != q->array_index)
		return p->array_index < q->array_index ? -1 : 1;
	if (p->size != q->size)
		return p->size < q->size ? -1 : 1;
	if (p->mode_index != q->mode_index)
		return p->mode_index < q->mode_index ? -1 : 1;
	return i < j ? -1 : i > j;
}

/*
 * Link groups: non-empty regular files that share their nodes (same
 * inode_array_index and size) and their mode/owner tuple, the rule of
 * the image source (libaxfsimg/source/source_image.c) that --tar writes as hard
 * links.  The first in walk order is written, the others linked to it;
 * the data of the first files only is read, and counted in bytes_total.
 */
int extract_find_links(struct extract *x)
{
	size_t *idx, m = 0;

	idx = malloc((x->nregs + 1) * sizeof(*idx));
	x->files = malloc((x->nregs + 1) * sizeof(*x->files));
	if (!idx || !x->files) {
		free(idx);
		cmd_error("out of memory");
		return -1;
	}
	for (size_t i = 0; i < x->nregs; i++)
		if (x->regs[i].size > 0)
			idx[m++] = i;
	qsort_r(idx, m, sizeof(*idx), by_share, x->regs);
	for (size_t i = 1; i < m; i++) {
		struct reg *p = &x->regs[idx[i - 1]];
		struct reg *r = &x->regs[idx[i]];

		if (p->array_index == r->array_index && p->size == r->size &&
		    p->mode_index == r->mode_index) {
			r->link_to = p->link_to == NO_LINK ? idx[i - 1] :
				     p->link_to;
			x->regs[r->link_to].has_links = 1;
		}
	}
	free(idx);
	for (size_t i = 0; i < x->nregs; i++) {
		struct reg *r = &x->regs[i];

		if (r->link_to != NO_LINK)
			continue;
		r->stream_index = x->nfiles;
		x->files[x->nfiles].ino = r->ino;
		x->files[x->nfiles].size = r->size;
		x->nfiles++;
		x->bytes_total += r->size;
	}
	return 0;
}
