// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cmd/extract_tar.c - axfs extract --tar FILE|-: the image as a pax
 * archive, written by libarchive without root: numeric owners, modes,
 * device numbers, symlink targets and the hard links the image source
 * sees (inodes that share their data and their mode and owner), every
 * entry with the image timestamp as its mtime.
 *
 * The entries come from the image source
 * (libaxfsimg/source/source_image.c), the same producer mkfs reads an
 * image with, so that
 *     axfs extract --tar - a.axfs | axfs mkfs - -o b.axfs
 * sees what `axfs mkfs a.axfs -o b.axfs` sees and writes the same bytes
 * (given the same timestamp).  A FILE is written to a temporary file
 * renamed over it when complete; "-" streams to standard output.
 *
 * With PATHs only the entries extract_paths.h selects are written.  A
 * hard link whose first member was left out is written in full, and the
 * other members then link to it.
 */
#include <archive.h>
#include <archive_entry.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common.h"
#include "extract_paths.h"
#include "image_operands.h"
#include "extract_tar.h"
#include "extract_tree.h"
#include "signals.h"
#include "outfile.h"
#include "axfs_reader.h"
#include "source.h"

#define TAR_CHUNK (256u * 1024u)

struct tar_out {
	struct archive *a;
	int fd;
	int write_errno;		/* first write(2) failure, 0 if none */
	struct source *src;
	const char *name;		/* for messages: FILE or "standard output" */
	unsigned char *buf;
	unsigned long long sockets;
	const struct extract_paths *paths;
	/* Hard links whose first member was left out: the member written
	 * in full in its place (both are the image source's strings). */
	struct relink { const char *from, *to; } *relinks;
	size_t nrelinks, relinks_cap;
};

/*
 * libarchive's writer: a failure is kept, not returned, so that libarchive
 * never enters its fatal state (in which archive_write_free() leaks the
 * block buffer); the callers check write_errno and stop.
 */
static la_ssize_t write_cb(struct archive *a, void *ctx, const void *buf,
			   size_t len)
{
	struct tar_out *t = ctx;
	const char *p = buf;
	size_t done = 0;

	(void)a;
	while (done < len && !t->write_errno) {
		ssize_t n = write(t->fd, p + done, len - done);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			t->write_errno = n < 0 ? errno : EIO;
		else
			done += (size_t)n;
	}
	return (la_ssize_t)len;
}

static int tar_fail(struct tar_out *t, const char *what)
{
	const char *why = t->write_errno ? strerror(t->write_errno) :
			  archive_error_string(t->a);

	if (what)
		cmd_error("cannot write '%s' (at '/%s'): %s", t->name, what,
			  why ? why : strerror(errno));
	else
		cmd_error("cannot write '%s': %s", t->name,
			  why ? why : strerror(errno));
	return -1;
}

static int copy_data(struct tar_out *t, const struct source_entry *ent)
{
	struct axfs_error err;
	void *h = NULL;
	uint64_t left = ent->data.size;
	int rc = -1;

	axfs_error_clear(&err);
	if (t->src->ops->data_open(t->src, &ent->data, &h, &err) < 0) {
		cmd_error("%s", err.msg);
		return -1;
	}
	while (left) {
		size_t got;

		if (t->src->ops->data_read(t->src, h, t->buf, TAR_CHUNK, &got,
					   &err) < 0) {
			cmd_error("'/%s': %s", ent->path, err.msg);
			goto out;
		}
		if (!got)
			break;
		if (archive_write_data(t->a, t->buf, got) != (la_ssize_t)got ||
		    t->write_errno) {
			tar_fail(t, ent->path);
			goto out;
		}
		left -= got;
	}
	rc = 0;
out:
	t->src->ops->data_close(t->src, h);
	return rc;
}

static int write_entry(struct tar_out *t, struct archive_entry *e,
		       const struct source_entry *ent)
{
	int r;

	archive_entry_clear(e);
	archive_entry_set_pathname(e, ent->path[0] ? ent->path : ".");
	archive_entry_set_uid(e, ent->uid);
	archive_entry_set_gid(e, ent->gid);
	archive_entry_set_mtime(e, (time_t)ent->mtime, 0);
	archive_entry_set_perm(e, ent->mode & 07777);
	archive_entry_set_filetype(e, axfs_ftype_to_mode(ent->type));
	if (ent->hardlink_to) {
		archive_entry_set_hardlink(e, ent->hardlink_to);
		archive_entry_set_size(e, 0);
	} else if (ent->type == AXFS_FT_REG) {
		archive_entry_set_size(e, (la_int64_t)ent->data.size);
	} else if (ent->type == AXFS_FT_LNK) {
		archive_entry_set_symlink(e, ent->link_target);
	} else if (ent->type == AXFS_FT_CHR || ent->type == AXFS_FT_BLK) {
		archive_entry_set_rdevmajor(e, ent->rdev_major);
		archive_entry_set_rdevminor(e, ent->rdev_minor);
	} else if (ent->type == AXFS_FT_SOCK) {
		/* ustar and pax have no socket type. */
		cmd_info("'/%s': skipped: a tar archive cannot hold a socket",
			 ent->path);
		t->sockets++;
		return 0;
	}
	r = archive_write_header(t->a, e);
	if ((r < ARCHIVE_OK && r != ARCHIVE_WARN) || t->write_errno)
		return tar_fail(t, ent->path);
	if (ent->type == AXFS_FT_REG && !ent->hardlink_to)
		return copy_data(t, ent);
	return 0;
}

/* Points ent's hard link at what was written; 0, or -1 (reported). */
static int relink(struct tar_out *t, struct source_entry *ent)
{
	struct relink *n;

	if (!ent->hardlink_to || extract_paths_wants(t->paths,
						     ent->hardlink_to))
		return 0;
	for (size_t i = 0; i < t->nrelinks; i++) {
		if (!strcmp(t->relinks[i].from, ent->hardlink_to)) {
			ent->hardlink_to = t->relinks[i].to;
			return 0;
		}
	}
	n = cmd_grow(t->relinks, t->nrelinks, &t->relinks_cap, sizeof(*n), 16);
	if (!n) {
		cmd_error("out of memory");
		return -1;
	}
	t->relinks = n;
	t->relinks[t->nrelinks].from = ent->hardlink_to;
	t->relinks[t->nrelinks++].to = ent->path;
	ent->hardlink_to = NULL;	/* this one holds the data now */
	return 0;
}

static int write_all(struct tar_out *t)
{
	struct archive_entry *e = archive_entry_new();
	struct source_entry ent;
	struct axfs_error err;
	int rc;

	if (!e) {
		cmd_error("out of memory");
		return -1;
	}
	axfs_error_clear(&err);
	while ((rc = t->src->ops->next(t->src, &ent, &err)) > 0) {
		if (!extract_paths_wants(t->paths, ent.path))
			continue;
		if (cmd_cancelled || relink(t, &ent) < 0 ||
		    write_entry(t, e, &ent) < 0) {
			rc = -1;
			break;
		}
		cmd_info("%s", ent.path[0] ? ent.path : ".");
	}
	if (rc < 0 && err.msg[0])
		cmd_error("%s", err.msg);
	archive_entry_free(e);
	return rc;
}

/* The PATHs resolved in the image, before anything is written. */
static int resolve_paths(struct extract_paths *sel, const char *image,
			 const char *store, char **paths, int npaths)
{
	struct axfs_image *img;
	int rc;

	memset(sel, 0, sizeof(*sel));
	sel->all = 1;
	if (!npaths)
		return 0;
	if (cmd_open_image(&img, image, store, 0) != 0)
		return -1;
	rc = extract_paths_resolve(sel, img, paths, npaths);
	axfs_image_close(img);
	return rc;
}

int extract_tar(const char *image, const char *store, const char *file,
		char **paths, int npaths, uint64_t max_ratio)
{
	struct outfile of = { NULL, NULL, -1, 0 };
	struct extract_paths sel;
	struct source_opts so;
	struct share_totals share;
	struct axfs_error err;
	struct tar_out t;
	int to_stdout = strcmp(file, "-") == 0;
	int rc = EXIT_OPERATIONAL;

	memset(&t, 0, sizeof(t));
	memset(&so, 0, sizeof(so));
	axfs_error_clear(&err);
	so.log = &cmd_logger;
	so.store_path = store;
	t.name = to_stdout ? "standard output" : file;
	t.fd = STDOUT_FILENO;
	t.paths = &sel;
	memset(&sel, 0, sizeof(sel));
	sel.all = 1;
	/* Not a directory or an archive: only an image (the reader says
	 * so when IMAGE is none); "-" is standard input, which is read
	 * once: PATHs need an image file. */
	if (strcmp(image, "-") != 0 && !source_is_image(image)) {
		cmd_error("'%s' is not an AXFS image", image);
		return EXIT_OPERATIONAL;
	}
	if (npaths && strcmp(image, "-") == 0) {
		cmd_error("image paths need the image as a file, not standard "
			  "input");
		return EXIT_OPERATIONAL;
	}
	if (resolve_paths(&sel, image, store, paths, npaths) < 0) {
		extract_paths_free(&sel);
		return EXIT_OPERATIONAL;
	}
	so.max_memory = cmd_image.max_memory;
	if (source_image_open(&t.src, image, &so, &err) < 0) {
		cmd_error("%s", err.msg);
		extract_paths_free(&sel);
		return EXIT_OPERATIONAL;
	}
	/* The bound of share.h, before anything is written. */
	if (source_image_share(t.src, &share) < 0 ||
	    extract_check_ratio(t.src->name, &share, max_ratio) < 0)
		goto out;
	t.buf = malloc(TAR_CHUNK);
	t.a = archive_write_new();
	if (!t.buf || !t.a) {
		cmd_error("out of memory");
		goto out;
	}
	if (!to_stdout) {
		cmd_remove_output_on_signal();
		if (outfile_open(&of, file, &err) < 0) {
			cmd_error("%s", err.msg);
			goto out;
		}
		t.fd = of.fd;
	}
	if (archive_write_set_format_pax(t.a) != ARCHIVE_OK ||
	    archive_write_set_bytes_in_last_block(t.a, 1) != ARCHIVE_OK ||
	    archive_write_open2(t.a, &t, NULL, write_cb, NULL, NULL) !=
	    ARCHIVE_OK) {
		tar_fail(&t, NULL);
		goto out;
	}
	if (write_all(&t) < 0)
		goto out;
	if (archive_write_close(t.a) != ARCHIVE_OK || t.write_errno) {
		tar_fail(&t, NULL);
		goto out;
	}
	if (!to_stdout && outfile_commit(&of, &err) < 0) {
		cmd_error("%s", err.msg);
		goto out;
	}
	if (t.sockets)
		cmd_warn("left out %llu socket%s: a tar archive cannot hold "
			 "them (-v names them)", t.sockets,
			 t.sockets == 1 ? "" : "s");
	rc = EXIT_OK;
out:
	if (t.a)
		archive_write_free(t.a);
	if (!to_stdout)
		outfile_abort(&of);
	free(t.buf);
	free(t.relinks);
	extract_paths_free(&sel);
	source_destroy(t.src);
	return rc;
}
