// SPDX-License-Identifier: GPL-2.0-or-later
/* tests/unit/unit.c - shared fixture builders (see unit.h) */
#include "unit.h"

#include <check.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "axfs_reader.h"
#include "unit_build.h"

struct source_entry unit_entry(const char *path, enum axfs_ftype type,
			       uint32_t mode, uint64_t size,
			       const char *target, const char *hardlink_to)
{
	struct source_entry e;

	memset(&e, 0, sizeof(e));
	e.path = path;
	e.type = type;
	e.mode = mode;
	e.link_target = target;
	e.hardlink_to = hardlink_to;
	e.data.size = size;
	if (type == AXFS_FT_CHR) {
		e.rdev_major = 1;
		e.rdev_minor = 3;
	}
	return e;
}

void unit_tree_add(struct tree *t, const struct source_entry *e)
{
	struct axfs_error err;

	ck_assert_msg(tree_add(t, e, NULL, &err) == 0, "%s: %s", e->path,
		      err.msg);
}

void unit_spool(struct pack_spool_file *s, const void *data, size_t len)
{
	FILE *f = tmpfile();

	ck_assert_ptr_nonnull(f);
	s->fd = dup(fileno(f));
	fclose(f);
	ck_assert_int_eq(pwrite(s->fd, data, len, 0), (ssize_t)len);
	s->size = len;
}

uint8_t *unit_read_file(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	uint8_t *buf;

	ck_assert_ptr_nonnull(f);
	fseek(f, 0, SEEK_END);
	*len = (size_t)ftell(f);
	rewind(f);
	buf = malloc(*len ? *len : 1);
	ck_assert_ptr_nonnull(buf);
	ck_assert_uint_eq(fread(buf, 1, *len, f), *len);
	fclose(f);
	return buf;
}

uint8_t *unit_build_tree_image(const char *dir, uint32_t block_size,
			       size_t *len)
{
	struct axfs_build_opts o;
	struct axfs_error err;
	char src[PATH_MAX], out[PATH_MAX];

	snprintf(src, sizeof(src), "%s/tree", dir);
	snprintf(out, sizeof(out), "%s/img", dir);
	unit_build_opts(&o, src, out, block_size);
	ck_assert_msg(axfs_build(&o, NULL, &err) == 0, "%s", err.msg);
	return unit_read_file(out, len);
}

struct axfs_image *unit_open_buffer(const uint8_t *buf, size_t len)
{
	struct axfs_image *img;
	struct axfs_error err;

	ck_assert_msg(axfs_image_open_buffer(&img, buf, len, "img", NULL,
					     &err) == 0, "%s", err.msg);
	return img;
}

void unit_remove_tree(const char *dir)
{
	char cmd[256];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	ck_assert_int_eq(system(cmd), 0);
}

static void log_fn(void *ctx, enum axfs_log_level level, const char *msg)
{
	struct unit_log *c = ctx;

	if (level <= AXFS_LOG_WARN) {
		c->warn++;
		snprintf(c->last_warn, sizeof(c->last_warn), "%s", msg);
	} else if (level == AXFS_LOG_INFO) {
		c->info++;
		snprintf(c->last_info, sizeof(c->last_info), "%s", msg);
	}
}

struct axfs_logger unit_logger(struct unit_log *log)
{
	struct axfs_logger lg = { log_fn, log };

	memset(log, 0, sizeof(*log));
	return lg;
}
