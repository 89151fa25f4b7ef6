/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * tests/unit/unit.h - what several suites build their fixtures from: tree
 * entries, spools of bytes, a logger that keeps what it was told.
 */
#ifndef TESTS_UNIT_UNIT_H
#define TESTS_UNIT_UNIT_H

#include <stddef.h>
#include <stdint.h>

#include "axfs_error.h"
#include "tree.h"
#include "packer.h"

struct axfs_image;

/* An entry of TYPE at PATH (mode, size, symlink target, hard-link target
 * as given; owner root; a character device is 1:3), for tree_add(). */
struct source_entry unit_entry(const char *path, enum axfs_ftype type,
			       uint32_t mode, uint64_t size,
			       const char *target, const char *hardlink_to);
/* tree_add() of *e, which must succeed. */
void unit_tree_add(struct tree *t, const struct source_entry *e);

/* A spool (what the packer hands the writer) holding len bytes of data. */
void unit_spool(struct pack_spool_file *s, const void *data, size_t len);

/* The whole file at path, malloc()ed; the test fails if it cannot. */
uint8_t *unit_read_file(const char *path, size_t *len);
/* DIR/tree built into DIR/img (unit_build_opts(), BLOCK_SIZE blocks)
 * and the image's bytes, malloc()ed; the test fails if the build does. */
uint8_t *unit_build_tree_image(const char *dir, uint32_t block_size,
			       size_t *len);
/* A reading handle on the image in buf, which must outlive it; the test
 * fails if it cannot be opened. */
struct axfs_image *unit_open_buffer(const uint8_t *buf, size_t len);

/* rm -rf dir; the test fails if it cannot. */
void unit_remove_tree(const char *dir);

/* A logger that counts warnings and notes and keeps the last of each. */
struct unit_log {
	int warn, info;
	char last_warn[1024], last_info[1024];
};
/* A logger writing into *log, which it clears. */
struct axfs_logger unit_logger(struct unit_log *log);

#endif
