/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * tests/unit/unit_build.h - the options of the small, reproducible builds
 * the unit tests and the fuzz targets read back.  Header-only: the fuzz
 * targets do not link Check.
 */
#ifndef TESTS_UNIT_UNIT_BUILD_H
#define TESTS_UNIT_UNIT_BUILD_H

#include <stdint.h>

#include "axfs_build.h"

/* Build SOURCE into OUTPUT in BLOCK_SIZE blocks, quickly (level 1, one
 * job) and reproducibly (mtimes 1700000000); the caller changes what its
 * test is about. */
static inline void unit_build_opts(struct axfs_build_opts *o,
				   const char *source, const char *output,
				   uint32_t block_size)
{
	axfs_build_opts_init(o);
	o->source = source;
	o->output = output;
	o->block_size = block_size;
	o->level = 1;
	o->jobs = 1;
	o->has_timestamp = 1;
	o->timestamp = 1700000000;
}

#endif
