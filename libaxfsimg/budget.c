// SPDX-License-Identifier: LGPL-2.1-or-later
/* budget.c - see budget.h */
#include "budget.h"

uint64_t budget_default(uint64_t image_size)
{
	if (image_size > (UINT64_MAX - BUDGET_BASE) / BUDGET_PER_BYTE)
		return UINT64_MAX;
	return BUDGET_BASE + BUDGET_PER_BYTE * image_size;
}

int budget_take(struct budget *b, uint64_t bytes)
{
	if (bytes > b->limit || b->used > b->limit - bytes)
		return -1;
	b->used += bytes;
	return 0;
}

void budget_give(struct budget *b, uint64_t bytes)
{
	b->used -= bytes < b->used ? bytes : b->used;
}

/* n entries of `each` bytes plus a page, saturating. */
static uint64_t times(uint64_t n, uint64_t each)
{
	if (n > (UINT64_MAX - AXFS_PAGE_SIZE) / each)
		return UINT64_MAX;
	return n * each + AXFS_PAGE_SIZE;
}

uint64_t budget_region_max(enum axfs_region r, uint64_t files,
			  uint64_t blocks)
{
	switch (r) {
	case AXFS_R_STRINGS:
		return times(files, 256);
	case AXFS_R_XIP: case AXFS_R_BYTE_ALIGNED: case AXFS_R_COMPRESSED:
		return times(blocks, 65536);
	case AXFS_R_INODE_FILE_SIZE: case AXFS_R_INODE_NAME_OFFSET:
	case AXFS_R_INODE_NUM_ENTRIES: case AXFS_R_INODE_MODE_INDEX:
	case AXFS_R_INODE_ARRAY_INDEX:
	case AXFS_R_MODES: case AXFS_R_UIDS: case AXFS_R_GIDS:
		return times(files, AXFS_TABLE_DEPTH_MAX);
	default:
		/* node_type, node_index, cnode_*, banode_offset,
		 * cblock_offset (its sentinel) */
		return times(blocks < UINT64_MAX ? blocks + 1 : blocks,
			     AXFS_TABLE_DEPTH_MAX);
	}
}

int budget_region_loaded(enum axfs_region r, uint64_t compressed_size)
{
	return r == AXFS_R_STRINGS || AXFS_REGION_IS_TABLE(r) ||
	       compressed_size > 0;
}

static uint64_t add_sat(uint64_t a, uint64_t b)
{
	return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

uint64_t budget_open_need(const uint64_t size[AXFS_REGION_COUNT],
			  const uint64_t compressed_size[AXFS_REGION_COUNT],
			  uint64_t nodes)
{
	uint64_t held = 0, peak = 0;

	for (int r = 0; r < AXFS_REGION_COUNT; r++) {
		uint64_t top;

		if (!size[r] || !budget_region_loaded((enum axfs_region)r,
						      compressed_size[r]))
			continue;
		top = add_sat(add_sat(held, size[r]), compressed_size[r]);
		if (top > peak)
			peak = top;
		held = add_sat(held, size[r]);
	}
	held = add_sat(held, nodes > UINT64_MAX / 2 ? UINT64_MAX : 2 * nodes);
	return held > peak ? held : peak;
}
