/* SPDX-License-Identifier: GPL-2.0-or-later */
/* tests/unit/helpers.h - what several unit tests' fixtures need */
#ifndef AXFS_UNIT_HELPERS_H
#define AXFS_UNIT_HELPERS_H

#include <stddef.h>
#include <stdint.h>

/* The whole file at path, malloc()ed; the test fails if it cannot. */
uint8_t *unit_read_file(const char *path, size_t *len);
/* rm -rf dir; the test fails if it cannot. */
void unit_remove_tree(const char *dir);

#endif
