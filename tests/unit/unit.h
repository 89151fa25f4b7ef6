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
/* A reading handle on the image in buf, which must outlive it; the test
 * fails if it cannot be opened. */
struct axfs_image *unit_open_buffer(const uint8_t *buf, size_t len);

/*
 * An image built from a real directory, the fixture of the suites that
 * read one back: unit_fixture_begin() makes dir (a new
 * /tmp/axfs-NAME.XXXXXX) and dir/tree (0755), where the suite's setup
 * writes its tree; unit_fixture_build() builds dir/tree into dir/img
 * (unit_build_opts(), BLOCK_SIZE blocks) and reads the image into buf;
 * unit_fixture_end() frees it and removes dir.  The test fails if any
 * step does.
 */
struct unit_fixture {
	char dir[64];
	uint8_t *buf;
	size_t len;
};
void unit_fixture_begin(struct unit_fixture *fx, const char *name);
void unit_fixture_build(struct unit_fixture *fx, uint32_t block_size);
/* unit_open_buffer() on the fixture's image. */
struct axfs_image *unit_fixture_open(const struct unit_fixture *fx);
void unit_fixture_end(struct unit_fixture *fx);

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
