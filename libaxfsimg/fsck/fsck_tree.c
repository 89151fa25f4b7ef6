// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * fsck_tree.c - the inode tree: the root, every directory's children
 * (consecutive inodes, strictly strcmp-sorted, unique names), every inode
 * reached exactly once, names, modes, and the per-type fields of files,
 * symlinks and special files.  Files' node ranges are collected here for
 * fsck_data.c.
 *
 * The walk is breadth-first over directories with an explicit queue, so
 * neither a deep tree nor a cycle can exhaust the stack: an inode is
 * entered only the first time a directory claims it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "internal.h"

#define TREE_DEPTH_MAX 4096		/* what the reader's walk accepts */

/* Reads table r for inode ino; a missing entry is reported once per
 * table. */
static int ival(struct fsck *f, enum axfs_region r, uint64_t ino,
		uint64_t *v)
{
	struct fsck_region *R = &f->r[r];

	if (fsck_table(f, r, ino, v) == 0)
		return 0;
	if (!R->missing_reported && R->table_ok) {
		R->missing_reported = 1;
		fsck_report(f, FC_INODE_TABLES, fsck_table_off(f, r, ino),
			    FSCK_NO_INO, "inode %llu (and any after it) has no "
			    "entry in table '%s', which has %llu",
			    (unsigned long long)ino, fsck_region_name(r),
			    (unsigned long long)R->entries);
	}
	return -1;
}

struct fsck_tree {
	struct fsck *f;
	uint64_t strings_size;
	uint64_t last_nul;	/* offset of the last NUL in strings + 1 */
	uint8_t *strings_used;	/* bitmap */
	uint64_t *queue;
	uint64_t qhead, qtail;
	int depth_reported;
};

/* Checks the name of a non-root inode; 0 if it can be compared. */
static int check_name(struct fsck *f, struct fsck_tree *t, uint64_t ino,
		      const char **name, size_t *len)
{
	const char *why;
	uint64_t noff = 0;
	uint64_t toff = fsck_table_off(f, AXFS_R_INODE_NAME_OFFSET, ino);

	if (fsck_inode_name(f, ino, t->last_nul, name, len, &noff, &why) < 0) {
		uint64_t dummy;

		if (!strcmp(why, "no name offset"))
			ival(f, AXFS_R_INODE_NAME_OFFSET, ino, &dummy);
		else if (!strcmp(why, "range"))
			fsck_report(f, FC_NAME_RANGE, toff, ino, "name offset "
				    "%llu is outside the strings region (%llu "
				    "bytes)", (unsigned long long)noff,
				    (unsigned long long)t->strings_size);
		else if (!strcmp(why, "long"))
			fsck_report(f, FC_NAME_LONG,
				    fsck_region_off(f, AXFS_R_STRINGS, noff),
				    ino, "name is longer than %d bytes",
				    AXFS_MAXPATHLEN);
		else if (!strcmp(why, "unterminated"))
			fsck_report(f, FC_NAME_UNTERMINATED,
				    fsck_region_off(f, AXFS_R_STRINGS, noff),
				    ino, "name at strings offset %llu runs to "
				    "the end of the strings region without a "
				    "NUL", (unsigned long long)noff);
		return -1;
	}
	if (t->strings_used)
		for (uint64_t b = noff; b <= noff + *len; b++)
			t->strings_used[b >> 3] |= (uint8_t)(1u << (b & 7));
	if (*len == 0) {
		fsck_report(f, FC_NAME_EMPTY,
			    fsck_region_off(f, AXFS_R_STRINGS, noff), ino,
			    "name is empty");
		return -1;
	}
	if (memchr(*name, '/', *len)) {
		fsck_report(f, FC_NAME_SLASH,
			    fsck_region_off(f, AXFS_R_STRINGS, noff), ino,
			    "name contains '/'");
		return -1;
	}
	if (!strcmp(*name, ".") || !strcmp(*name, "..")) {
		fsck_report(f, FC_NAME_DOT,
			    fsck_region_off(f, AXFS_R_STRINGS, noff), ino,
			    "name is \"%s\"", *name);
		return -1;
	}
	return 0;
}

/* ---- modes -------------------------------------------------------------- */

static int type_ok(uint64_t mode)
{
	switch (mode & S_IFMT) {
	case S_IFDIR:
	case S_IFREG:
	case S_IFLNK:
	case S_IFCHR:
	case S_IFBLK:
	case S_IFIFO:
	case S_IFSOCK:
		return 1;
	}
	return 0;
}

/* Every tuple of the mode tables, used or not.  Loops run over entries
 * that exist as bytes: a depth-0 table claims any count for free. */
static void check_modes(struct fsck *f)
{
	struct fsck_region *M = &f->r[AXFS_R_MODES];
	uint64_t n = f->n_modes;

	if (M->table_ok && M->depth == 0 && n) {
		fsck_report(f, FC_MODE_TYPE, M->desc_off + AXFS_RD_TABLE_DEPTH,
			    FSCK_NO_INO, "the modes table has depth 0: all %llu "
			    "modes are 0, which is no file type",
			    (unsigned long long)n);
		n = 0;
	}
	for (uint64_t m = 0; m < n && m < M->entries && !fsck_stopped(f);
	     m++) {
		uint64_t mode;

		if (fsck_table(f, AXFS_R_MODES, m, &mode) < 0)
			break;
		if (!type_ok(mode))
			fsck_report(f, FC_MODE_TYPE,
				    fsck_table_off(f, AXFS_R_MODES, m),
				    FSCK_NO_INO, "mode %llu is 0%llo, which is no "
				    "known file type", (unsigned long long)m,
				    (unsigned long long)mode);
		if (mode >> AXFS_MODE_BITS)
			fsck_report(f, FC_MODE_BITS,
				    fsck_table_off(f, AXFS_R_MODES, m),
				    FSCK_NO_INO, "mode %llu is 0%llo, wider than "
				    "16 bits", (unsigned long long)m,
				    (unsigned long long)mode);
	}
	for (int k = 0; k < 2; k++) {
		enum axfs_region r = k ? AXFS_R_GIDS : AXFS_R_UIDS;
		struct fsck_region *R = &f->r[r];

		if (!R->table_ok || R->depth <= 4)
			continue;	/* fits 32 bits */
		for (uint64_t m = 0; m < f->n_modes && m < R->entries &&
		     !fsck_stopped(f); m++) {
			uint64_t id;

			if (fsck_table(f, r, m, &id) == 0 && id >> 32)
				fsck_report(f, FC_MODE_BITS,
					    fsck_table_off(f, r, m), FSCK_NO_INO,
					    "%s %llu of mode %llu is wider than "
					    "32 bits", k ? "gid" : "uid",
					    (unsigned long long)id,
					    (unsigned long long)m);
		}
	}
}

/* Mode of an inode, or -1 when its mode index or tuple is unusable. */
static int inode_mode(struct fsck *f, uint64_t ino, uint64_t *mode,
		      int report)
{
	uint64_t mi;

	if (ival(f, AXFS_R_INODE_MODE_INDEX, ino, &mi) < 0)
		return -1;
	if (mi >= f->n_modes) {
		if (report)
			fsck_report(f, FC_MODE_INDEX,
				    fsck_table_off(f, AXFS_R_INODE_MODE_INDEX,
						   ino), ino, "mode index %llu "
				    "is outside the mode tables (%llu tuples)",
				    (unsigned long long)mi,
				    (unsigned long long)f->n_modes);
		return -1;
	}
	if (f->mode_used)
		f->mode_used[mi] = 1;
	if (fsck_table(f, AXFS_R_MODES, mi, mode) < 0)
		return -1;
	return 0;
}

/* ---- per-inode fields ------------------------------------------------------ */

static void add_range(struct fsck *f, uint64_t start, uint64_t count,
		      uint64_t ino, uint64_t size, int symlink)
{
	if (f->nranges == f->ranges_cap) {
		size_t cap = f->ranges_cap ? f->ranges_cap * 2 : 1024;
		struct fsck_range *nr;

		if (fsck_mem_reserve(f, (cap - f->ranges_cap) *
				     sizeof(*nr), 0, "the file list") < 0) {
			f->stop = f->stop;	/* reported; drop the range */
			return;
		}
		nr = realloc(f->ranges, cap * sizeof(*nr));
		if (!nr) {
			fsck_mem_release(f, (cap - f->ranges_cap) *
					 sizeof(*nr));
			return;
		}
		f->ranges = nr;
		f->ranges_cap = cap;
	}
	f->ranges[f->nranges].start = start;
	f->ranges[f->nranges].count = count;
	f->ranges[f->nranges].ino = ino;
	f->ranges[f->nranges].size = size;
	f->ranges[f->nranges].symlink = symlink;
	f->ranges[f->nranges].overlaps = 0;
	f->nranges++;
}

static void check_file(struct fsck *f, uint64_t ino, uint64_t mode)
{
	uint64_t size, nent, ai, pages;
	int have_size, have_nent, have_ai;
	int symlink = S_ISLNK(mode);

	have_size = ival(f, AXFS_R_INODE_FILE_SIZE, ino, &size) == 0;
	have_nent = ival(f, AXFS_R_INODE_NUM_ENTRIES, ino, &nent) == 0;
	have_ai = ival(f, AXFS_R_INODE_ARRAY_INDEX, ino, &ai) == 0;
	if (!have_size)
		return;
	if (symlink && (size == 0 || size >= AXFS_PAGE_SIZE))
		fsck_report(f, FC_SYMLINK_SIZE,
			    fsck_table_off(f, AXFS_R_INODE_FILE_SIZE, ino), ino,
			    "symlink target length is %llu (must be 1..4095)",
			    (unsigned long long)size);
	pages = size / AXFS_PAGE_SIZE + (size % AXFS_PAGE_SIZE != 0);
	/* num_entries is i_blocks: mkfs writes 512-byte blocks (0 for a
	 * symlink); older writers wrote the node count. */
	if (have_nent &&
	    !(symlink ? nent == 0 || nent == 1 :
	      nent == size / 512 + (size % 512 != 0) || nent == pages))
		fsck_report(f, FC_FILE_NUM_ENTRIES,
			    fsck_table_off(f, AXFS_R_INODE_NUM_ENTRIES, ino),
			    ino, symlink ? "symlink has num_entries %llu, not 0" :
			    "num_entries is %llu, not size %llu in 512-byte "
			    "blocks", (unsigned long long)nent,
			    (unsigned long long)size);
	if (!have_ai)
		return;
	if (pages == 0) {
		if (ai != 0)
			fsck_report(f, FC_FILE_EMPTY_FIELDS,
				    fsck_table_off(f, AXFS_R_INODE_ARRAY_INDEX,
						   ino), ino, "empty %s has "
				    "array_index %llu, not 0",
				    symlink ? "symlink" : "file",
				    (unsigned long long)ai);
		return;
	}
	if (ai >= f->n_nodes || pages > f->n_nodes - ai) {
		fsck_report(f, FC_FILE_NODES,
			    fsck_table_off(f, AXFS_R_INODE_ARRAY_INDEX, ino),
			    ino, "nodes %llu..%llu (size %llu) are outside the "
			    "node tables (%llu nodes)", (unsigned long long)ai,
			    (unsigned long long)(ai + pages - 1),
			    (unsigned long long)size,
			    (unsigned long long)f->n_nodes);
		return;
	}
	add_range(f, ai, pages, ino, size, symlink);
}

static void check_special(struct fsck *f, uint64_t ino, uint64_t mode)
{
	uint64_t size, nent, ai;
	int dev = S_ISCHR(mode) || S_ISBLK(mode);

	if (ival(f, AXFS_R_INODE_FILE_SIZE, ino, &size) == 0) {
		if (dev && size > 0xffff)
			fsck_report(f, FC_DEV_NUMBER,
				    fsck_table_off(f, AXFS_R_INODE_FILE_SIZE,
						   ino), ino, "device number "
				    "0x%llx does not fit 8-bit major and minor",
				    (unsigned long long)size);
		else if (!dev && size)
			fsck_report(f, FC_SPECIAL_FIELDS,
				    fsck_table_off(f, AXFS_R_INODE_FILE_SIZE,
						   ino), ino, "%s has size %llu",
				    S_ISFIFO(mode) ? "fifo" : "socket",
				    (unsigned long long)size);
	}
	if (ival(f, AXFS_R_INODE_NUM_ENTRIES, ino, &nent) == 0 && nent)
		fsck_report(f, FC_SPECIAL_FIELDS,
			    fsck_table_off(f, AXFS_R_INODE_NUM_ENTRIES, ino),
			    ino, "special file has num_entries %llu, not 0",
			    (unsigned long long)nent);
	if (ival(f, AXFS_R_INODE_ARRAY_INDEX, ino, &ai) == 0 && ai)
		fsck_report(f, FC_SPECIAL_FIELDS,
			    fsck_table_off(f, AXFS_R_INODE_ARRAY_INDEX, ino),
			    ino, "special file has array_index %llu, not 0",
			    (unsigned long long)ai);
}

/* mkfs writes a directory's size as the bytes its children's names take
 * in the strings region (each with its NUL), as cramfs does. */
static void check_dir_fields(struct fsck *f, uint64_t ino, uint64_t nent,
			     uint64_t names, int names_ok)
{
	uint64_t size, ai;

	if (names_ok && ival(f, AXFS_R_INODE_FILE_SIZE, ino, &size) == 0 &&
	    size != names)
		fsck_report(f, FC_DIR_FIELDS,
			    fsck_table_off(f, AXFS_R_INODE_FILE_SIZE, ino), ino,
			    "directory has size %llu, but its entries' names "
			    "take %llu bytes", (unsigned long long)size,
			    (unsigned long long)names);
	if (nent == 0 && ival(f, AXFS_R_INODE_ARRAY_INDEX, ino, &ai) == 0 &&
	    ai != 0)
		fsck_report(f, FC_DIR_FIELDS,
			    fsck_table_off(f, AXFS_R_INODE_ARRAY_INDEX, ino),
			    ino, "empty directory has array_index %llu, not 0",
			    (unsigned long long)ai);
}

/* ---- the walk ----------------------------------------------------------- */

/* Claims the children of directory d and checks their order. */
static void walk_dir(struct fsck *f, struct fsck_tree *t, uint64_t d)
{
	uint64_t nent, ai;
	const char *prev = NULL;
	uint64_t prev_ino = 0, names = 0;
	int names_ok = 1;

	if (ival(f, AXFS_R_INODE_NUM_ENTRIES, d, &nent) < 0 ||
	    ival(f, AXFS_R_INODE_ARRAY_INDEX, d, &ai) < 0)
		return;
	if (nent == 0) {
		check_dir_fields(f, d, nent, 0, 1);
		return;
	}
	if (ai == 0 || ai >= f->nino || nent > f->nino - ai) {
		fsck_report(f, FC_DIR_RANGE,
			    fsck_table_off(f, AXFS_R_INODE_ARRAY_INDEX, d), d,
			    "children are inodes %llu..%llu, %s",
			    (unsigned long long)ai,
			    (unsigned long long)(ai + nent - 1),
			    ai == 0 ? "which include the root" :
			    "beyond the inode tables");
		/* Still claim what exists, so that its inodes are not
		 * reported unreachable too. */
		if (ai == 0) {
			ai = 1;
			nent--;
		}
		if (ai >= f->nino)
			return;
		if (nent > f->nino - ai)
			nent = f->nino - ai;
		names_ok = 0;
	}
	for (uint64_t c = ai; c < ai + nent && !fsck_stopped(f); c++) {
		const char *name;
		size_t len;
		uint64_t mode;

		if (f->parent[c] != FSCK_NO_INO) {
			fsck_report(f, FC_INODE_MULTIPLE,
				    fsck_table_off(f, AXFS_R_INODE_ARRAY_INDEX,
						   d), d, "claims inode %llu, "
				    "already a child of inode %llu",
				    (unsigned long long)c,
				    (unsigned long long)f->parent[c]);
			prev = NULL;
			names_ok = 0;
			continue;
		}
		f->parent[c] = d;
		if (check_name(f, t, c, &name, &len) == 0) {
			names += len + 1;
			if (prev) {
				int cmp = strcmp(prev, name);

				if (cmp == 0)
					fsck_report(f, FC_DIR_DUPLICATE,
						    fsck_table_off(f,
						    AXFS_R_INODE_NAME_OFFSET, c),
						    c, "the name is also used by "
						    "inode %llu",
						    (unsigned long long)prev_ino);
				else if (cmp > 0)
					fsck_report(f, FC_DIR_ORDER,
						    fsck_table_off(f,
						    AXFS_R_INODE_NAME_OFFSET, c),
						    c, "is sorted after \"%s\" "
						    "(strcmp order is required)",
						    prev);
			}
			prev = name;
			prev_ino = c;
		} else {
			prev = NULL;
			names_ok = 0;
		}
		if (inode_mode(f, c, &mode, 1) < 0)
			continue;
		if (S_ISDIR(mode)) {
			t->queue[t->qtail++] = c;
		} else if (S_ISREG(mode) || S_ISLNK(mode)) {
			check_file(f, c, mode);
		} else if (type_ok(mode)) {
			check_special(f, c, mode);
		}
	}
	check_dir_fields(f, d, nent, names, names_ok);
}

static void check_root(struct fsck *f, struct fsck_tree *t)
{
	uint64_t mode, nent = 0;
	const char *name, *why;
	size_t len;
	uint64_t noff;

	if (inode_mode(f, 0, &mode, 1) == 0 && !S_ISDIR(mode)) {
		uint64_t mi = 0;

		fsck_table(f, AXFS_R_INODE_MODE_INDEX, 0, &mi);
		fsck_report(f, FC_ROOT_TYPE, fsck_table_off(f, AXFS_R_MODES, mi),
			    0, "the root (inode 0) has mode 0%llo, not a "
			    "directory", (unsigned long long)mode);
	}
	if (ival(f, AXFS_R_INODE_NUM_ENTRIES, 0, &nent) == 0 && nent == 0)
		fsck_report(f, FC_ROOT_EMPTY,
			    fsck_table_off(f, AXFS_R_INODE_NUM_ENTRIES, 0), 0,
			    "the root directory is empty; the driver refuses to "
			    "mount it");
	if (fsck_inode_name(f, 0, t->last_nul, &name, &len, &noff, &why) == 0) {
		if (t->strings_used)
			for (uint64_t b = noff; b <= noff + len; b++)
				t->strings_used[b >> 3] |=
					(uint8_t)(1u << (b & 7));
		if (len)
			fsck_report(f, FC_ROOT_NAME,
				    fsck_table_off(f, AXFS_R_INODE_NAME_OFFSET,
						   0), 0, "the root has the name "
				    "\"%s\"", name);
	} else if (why && !strcmp(why, "range")) {
		fsck_report(f, FC_NAME_RANGE,
			    fsck_table_off(f, AXFS_R_INODE_NAME_OFFSET, 0), 0,
			    "name offset %llu is outside the strings region "
			    "(%llu bytes)", (unsigned long long)noff,
			    (unsigned long long)t->strings_size);
	} else if (why && strcmp(why, "no name offset") &&
		   strcmp(why, "no strings region")) {
		fsck_report(f, FC_NAME_UNTERMINATED,
			    fsck_region_off(f, AXFS_R_STRINGS, noff), 0,
			    "the root's name is not NUL-terminated within 256 "
			    "bytes");
	}
}

void fsck_check_tree(struct fsck *f)
{
	struct fsck_region *S = &f->r[AXFS_R_STRINGS];
	struct fsck_region *NE = &f->r[AXFS_R_INODE_NUM_ENTRIES];
	struct fsck_tree t;
	struct fsck_run run = { .check = FC_INODE_UNREACHABLE,
				.what = "inode", .verb = "not reachable from "
				"the root" };
	uint64_t level_end, level = 0;

	memset(&t, 0, sizeof(t));
	t.f = f;
	if (S->data) {
		t.strings_size = S->size;
		for (uint64_t i = S->size; i > 0; i--)
			if (S->data[i - 1] == 0) {
				t.last_nul = i;
				break;
			}
	}
	if (f->n_modes && f->r[AXFS_R_MODES].table_ok)
		f->mode_used = fsck_alloc(f, f->n_modes, 1,
					  f->r[AXFS_R_MODES].desc_off,
					  "the mode tuple list");
	check_modes(f);

	/*
	 * How many inodes to walk.  Children only come from num_entries, so
	 * beyond its entries nothing can be reached: bound the walk (and the
	 * allocations) by the bytes of that table, never by `files` alone.
	 */
	f->nino = f->n_inodes;
	if (!NE->table_ok || NE->depth == 0) {
		if (f->n_inodes)
			check_root(f, &t);
		if (f->n_inodes > 1) {
			fsck_run_add(f, &run, 1, fsck_table_off(f,
				     AXFS_R_INODE_NUM_ENTRIES, 1));
			run.last = f->n_inodes - 1;
			fsck_run_flush(f, &run);
		}
		f->nino = 0;
		return;
	}
	if (f->nino > NE->entries)
		f->nino = NE->entries;
	if (f->nino == 0)
		return;
	if (S->size && S->data)
		t.strings_used = fsck_alloc(f, S->size / 8 + 1, 1, S->desc_off,
					    "the strings bitmap");
	f->parent = fsck_alloc(f, f->nino, sizeof(uint64_t),
			       NE->desc_off, "the inode tree");
	t.queue = fsck_alloc(f, f->nino, sizeof(uint64_t), NE->desc_off,
			     "the directory queue");
	if (!f->parent || !t.queue) {
		fsck_free(f, t.queue, f->nino, sizeof(uint64_t));
		fsck_free(f, f->parent, f->nino, sizeof(uint64_t));
		fsck_free(f, t.strings_used, S->size / 8 + 1, 1);
		f->parent = NULL;
		f->nino = 0;
		return;
	}
	for (uint64_t i = 0; i < f->nino; i++)
		f->parent[i] = FSCK_NO_INO;
	f->parent[0] = 0;
	check_root(f, &t);
	t.queue[t.qtail++] = 0;
	level_end = t.qtail;
	while (t.qhead < t.qtail && !fsck_stopped(f)) {
		uint64_t d = t.queue[t.qhead++];

		walk_dir(f, &t, d);
		if (t.qhead == level_end) {
			level++;
			level_end = t.qtail;
			if (level > TREE_DEPTH_MAX && !t.depth_reported &&
			    t.qhead < t.qtail) {
				t.depth_reported = 1;
				fsck_report(f, FC_TREE_DEPTH,
					    fsck_table_off(f,
					    AXFS_R_INODE_ARRAY_INDEX, d), d,
					    "directories are nested more than "
					    "%d deep", TREE_DEPTH_MAX);
			}
		}
	}

	/* Everything not claimed is unreachable; mode tuples of such inodes
	 * still count as used (they are reported once, as unreachable). */
	for (uint64_t i = 1; i < f->nino && !fsck_stopped(f); i++) {
		if (f->parent[i] != FSCK_NO_INO)
			continue;
		fsck_run_add(f, &run, i, fsck_table_off(f,
			     AXFS_R_INODE_NUM_ENTRIES, i));
		if (f->mode_used) {
			uint64_t mi;

			if (fsck_table(f, AXFS_R_INODE_MODE_INDEX, i, &mi) == 0
			    && mi < f->n_modes)
				f->mode_used[mi] = 1;
		}
	}
	if (f->nino < f->n_inodes && f->nino > 0) {
		fsck_run_add(f, &run, f->nino, fsck_table_off(f,
			     AXFS_R_INODE_NUM_ENTRIES, f->nino));
		run.last = f->n_inodes - 1;
	}
	fsck_run_flush(f, &run);
	for (uint64_t i = 0; i < f->nino; i++)
		if (f->parent[i] != FSCK_NO_INO)
			f->res->inodes++;

	if (f->mode_used) {
		struct fsck_run mr = { .check = FC_MODE_UNUSED,
				       .what = "mode tuple",
				       .verb = "used by no inode" };

		for (uint64_t m = 0; m < f->n_modes; m++)
			if (!f->mode_used[m])
				fsck_run_add(f, &mr, m,
					     fsck_table_off(f, AXFS_R_MODES, m));
		fsck_run_flush(f, &mr);
	}
	if (t.strings_used && !fsck_stopped(f)) {
		struct fsck_run sr = { .check = FC_STRINGS_UNUSED,
				       .what = "strings byte",
				       .verb = "part of no name" };

		for (uint64_t b = 0; b < t.strings_size; b++)
			if (!(t.strings_used[b >> 3] & (1u << (b & 7))))
				fsck_run_add(f, &sr, b, fsck_region_off(f,
					     AXFS_R_STRINGS, b));
		fsck_run_flush(f, &sr);
	}
	fsck_free(f, t.queue, f->nino, sizeof(uint64_t));
	fsck_free(f, t.strings_used, S->size / 8 + 1, 1);
}

void fsck_tree_free(struct fsck *f)
{
	fsck_free(f, f->parent, f->nino, sizeof(uint64_t));
	f->parent = NULL;
	fsck_free(f, f->mode_used, f->n_modes, 1);
	f->mode_used = NULL;
	if (f->ranges) {
		free(f->ranges);
		fsck_mem_release(f, f->ranges_cap * sizeof(*f->ranges));
	}
	f->ranges = NULL;
	f->nranges = f->ranges_cap = 0;
}
