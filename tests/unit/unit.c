// SPDX-License-Identifier: GPL-2.0-or-later
/* tests/unit/unit.c - shared fixture builders (see unit.h) */
#include "unit.h"

#include <check.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
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

struct axfs_image *unit_open_buffer(const uint8_t *buf, size_t len)
{
	struct axfs_image *img;
	struct axfs_error err;

	ck_assert_msg(axfs_image_open_buffer(&img, buf, len, "img", NULL,
					     &err) == 0, "%s", err.msg);
	return img;
}

void unit_fixture_begin(struct unit_fixture *fx, const char *name)
{
	char tree[PATH_MAX];

	memset(fx, 0, sizeof(*fx));
	snprintf(fx->dir, sizeof(fx->dir), "/tmp/axfs-%s.XXXXXX", name);
	ck_assert_ptr_nonnull(mkdtemp(fx->dir));
	snprintf(tree, sizeof(tree), "%s/tree", fx->dir);
	ck_assert_int_eq(mkdir(tree, 0755), 0);
}

void unit_fixture_build(struct unit_fixture *fx, uint32_t block_size)
{
	struct axfs_build_opts o;
	struct axfs_error err;
	char src[PATH_MAX], out[PATH_MAX];

	snprintf(src, sizeof(src), "%s/tree", fx->dir);
	snprintf(out, sizeof(out), "%s/img", fx->dir);
	unit_build_opts(&o, src, out, block_size);
	ck_assert_msg(axfs_build(&o, NULL, &err) == 0, "%s", err.msg);
	fx->buf = unit_read_file(out, &fx->len);
}

struct axfs_image *unit_fixture_open(const struct unit_fixture *fx)
{
	return unit_open_buffer(fx->buf, fx->len);
}

void unit_fixture_end(struct unit_fixture *fx)
{
	free(fx->buf);
	fx->buf = NULL;
	unit_remove_tree(fx->dir);
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
