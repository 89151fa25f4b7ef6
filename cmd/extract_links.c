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
 * The file system holds no more links to m (EMLINK: ext4 allows 65,000):
 * a copy of it at pfd/name instead, counted by the pre-walk
 * (extract_check_space()), which the group's next members are linked to.
 * fd: m, opened by open_link_target().
 */
static int copy_instead(struct extract *x, int fd, int pfd, const char *name,
			const char *path, struct reg *m)
{
	char proc[64], *p;
	struct stat st;
	int src, rc;

	snprintf(proc, sizeof(proc), "/proc/self/fd/%d", fd);
	src = open(proc, O_RDONLY | O_CLOEXEC);
	if (src < 0)
		return extract_fail(x, errno, "open the file to copy for",
				    path);
	rc = extract_make_copy(x, pfd, name, path, src, &st);
	close(src);
	if (rc < 0)
		return -1;
	p = strdup(path);
	if (!p)
		return extract_fail(x, ENOMEM, "create", path);
	free(m->path);
	m->path = p;
	m->dev = st.st_dev;
	m->st_ino = st.st_ino;
	return 0;
}

/*
 * Another member of a link group: a hard link to the group's first file
 * (same data, mode, owner and time: nothing else to set).  linkat()
 * through /proc/self/fd links the very file we opened, whatever has
 * happened to its name since; without /proc, AT_EMPTY_PATH does the
 * same for root.
 */
int extract_make_link(struct extract *x, int pfd, const char *name,
		      const char *path, struct reg *m)
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
	if (rc < 0 && errno == EMLINK) {
		rc = copy_instead(x, fd, pfd, name, path, m);
		close(fd);
		return rc;
	}
	close(fd);
	if (rc < 0)
		return extract_fail(x, errno, "create hard link", path);
	return 0;
}

/* The link groups of f[0, n) (share.h); link_to[] gets them. */
static int groups(struct extract *x, const struct share_file *f, size_t n,
		  size_t *link_to, struct share_totals *t)
{
	if (share_link_groups(f, n, link_to, t, &x->err) < 0) {
		cmd_error("%s", x->err.msg);
		return -1;
	}
	return 0;
}

/*
 * Link groups: non-empty regular files that share their nodes (same
 * inode_array_index and size) and their mode/owner tuple, the rule of
 * share.h, which the image source (and so --tar) follows too.  The first
 * in walk order is written, the others linked to it; the data of the
 * first files only is read, and counted in bytes_total.  The groups of
 * all the image's files give what extracting it writes (x->share).
 */
int extract_find_links(struct extract *x)
{
	struct share_file *f = malloc((x->nregs + 1) * sizeof(*f));
	size_t *link = malloc((x->nregs + 1) * sizeof(*link));
	int rc = -1;

	x->files = malloc((x->nregs + 1) * sizeof(*x->files));
	if (!f || !link || !x->files) {
		cmd_error("out of memory");
		goto out;
	}
	for (size_t i = 0; i < x->nregs; i++) {
		f[i].array_index = x->regs[i].array_index;
		f[i].size = x->regs[i].size;
		f[i].mode_index = x->regs[i].mode_index;
	}
	if (groups(x, f, x->nregs, link, NULL) < 0 ||
	    groups(x, x->all, x->nall, NULL, &x->share) < 0)
		goto out;
	for (size_t i = 0; i < x->nregs; i++) {
		struct reg *r = &x->regs[i];

		r->link_to = link[i];
		if (r->link_to != SHARE_NO_LINK) {
			x->regs[r->link_to].links++;
			continue;
		}
		r->stream_index = x->nfiles;
		x->files[x->nfiles].ino = r->ino;
		x->files[x->nfiles].size = r->size;
		x->nfiles++;
		x->bytes_total += r->size;
	}
	rc = 0;
out:
	free(f);
	free(link);
	return rc;
}
