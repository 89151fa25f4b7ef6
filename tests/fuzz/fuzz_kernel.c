// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * fuzz_kernel.c - the AXFS driver's own code on hostile images, without a
 * VM: kernel/mount.c, regions.c, io.c, inode.c, dir.c, file.c, xip.c,
 * uncompress.c and physmem.c, compiled unchanged against the user-space
 * shim in kshim/ (see README.md).
 *
 * Each input is mounted six ways, as super.c's axfs_fill_super() does:
 * the backend is attached here (that side needs the VFS), the rest is
 * mount.c's axfs_open_image():
 *
 *   bdev        a block device holding the input;
 *   phys        physaddr= with physsize= the input's length (physmem.c);
 *   dual        physaddr= holding the first mmap_size bytes, second_dev=
 *               an MTD holding the rest (what `axfs split` makes);
 *   point       an MTD whose point() maps its first mmap_size bytes, the
 *               rest read through mtd_read (as mtd.c's axfs_mtd_point());
 *   bad sector  a block device with one sector that fails to read;
 *   no memory   a block device, and one allocation fails.
 *
 * A mounted image is then used as a user would: readdir of every
 * directory (a few entries at a time, so that readdir resumes), lookup of
 * every name and of names that are not there, iget, every page of every
 * file and symlink read through read_folio and faulted through mmap
 * (bounded: an image may claim files of 2^60 bytes).  Then it is
 * unmounted as axfs_kill_sb() does, freeing everything: a leak is a
 * finding too.
 *
 * Every buffer the driver sees is an allocation of its exact size, so a
 * read past a device, a mapping or a page is an ASan report.  The devices
 * abort on a read outside them (io.c must never ask for one), no inode
 * may have a negative size, lookup must find the names readdir gives
 * (when they are sorted) and nothing else, an XIP page
 * must be mapped from inside the image and hold what read_folio read, and
 * the backends that mount an image must agree on its tree.
 */
#include "kshim.h"

#include "axfs.h"
#include "fuzz.h"

/* Bounds on the work per mount, so that each input stays fast. */
#define WALK_DEPTH	32
#define WALK_INODES	2048
#define WALK_PAGES	512
#define FILE_PAGES	48
#define WALK_INFLATE	(64ULL << 20)

/*
 * The devices io.c reads through axfs_bdev_read() and axfs_mtd_read():
 * their bytes, and a bad sector that fails to read (struct kshim_dev).
 */
struct mtd_info {
	struct kshim_dev dev;
};

static int dev_read(const struct kshim_dev *d, void *dst, u64 offset, u64 len)
{
	if (offset > d->size || len > d->size - offset)
		kshim_die("io.c read past the end of a device");
	if (d->bad_len && offset < d->bad + d->bad_len && d->bad < offset + len)
		return -EIO;
	memcpy(dst, d->data + offset, len);
	return 0;
}

int axfs_bdev_read(struct block_device *bdev, void *dst, u64 offset, u64 len)
{
	return dev_read(&bdev->kshim, dst, offset, len);
}

int axfs_mtd_read(struct mtd_info *mtd, void *dst, u64 offset, u64 len)
{
	return dev_read(&mtd->dev, dst, offset, len);
}

/* ---- mount and unmount ------------------------------------------------- */

/*
 * The four backends, then two block devices that fail: one with a bad
 * sector, one where an allocation fails (the error paths).
 */
enum mode { M_BDEV, M_PHYS, M_DUAL, M_POINT, M_BADSECTOR, M_NOMEM, M_COUNT };
static const char *const mode_names[M_COUNT] = {
	"bdev", "phys", "dual", "point", "bad sector", "no memory"
};

struct mount {
	struct super_block sb;
	struct block_device bdev;
	struct mtd_info mtd;
	u8 *first;		/* dual: the first segment, mmap_size bytes */
	u8 *second;		/* dual: the rest, on the second device */
};

static struct axfs_sb_info *mount_sbi(struct mount *m)
{
	return m->sb.s_fs_info;
}

/*
 * Attach the backend, as get_tree_*() and the option parser would; seed
 * picks the bad sector or the allocation that fails.
 */
static int attach(struct mount *m, enum mode mode, const u8 *img, u64 len,
		  u64 seed)
{
	struct axfs_sb_info *sbi = mount_sbi(m);
	u64 split;

	switch (mode) {
	case M_BADSECTOR:
		m->bdev.kshim.bad = seed % DIV_ROUND_UP_ULL(len + 1, 512) * 512;
		m->bdev.kshim.bad_len = 512;
		fallthrough;
	case M_BDEV:
	case M_NOMEM:
		m->bdev.kshim.data = img;
		m->bdev.kshim.size = len;
		sbi->dev0.bdev = &m->bdev;
		sbi->dev0.size = len;
		if (mode == M_NOMEM)
			kshim_fail_alloc(seed % 64);
		return 0;
	case M_PHYS:
		sbi->opt.physaddr = (uintptr_t)img;
		sbi->opt.physsize = len;
		return 0;
	case M_DUAL:
		/* The split point is the image's own mmap_size. */
		split = get_unaligned_be64(img + AXFS_SB_MMAP_SIZE);
		m->first = kshim_alloc_pages(split);
		m->second = kvmalloc(len - split, GFP_KERNEL);
		if (!m->first || !m->second)
			return -ENOMEM;
		memcpy(m->first, img, split);
		memcpy(m->second, img + split, len - split);
		sbi->opt.physaddr = (uintptr_t)m->first;
		sbi->opt.physsize = split;
		m->mtd.dev.data = m->second;
		m->mtd.dev.size = len - split;
		sbi->dev1.mtd = &m->mtd;
		sbi->dev1.size = len - split;
		return 0;
	case M_POINT:
		m->mtd.dev.data = img;
		m->mtd.dev.size = len;
		sbi->dev0.mtd = &m->mtd;
		sbi->dev0.size = len;
		return 0;
	default:
		return -EINVAL;
	}
}

/* mtd.c's axfs_mtd_point() on an MTD whose point() maps everything. */
int axfs_mtd_point(struct axfs_sb_info *sbi)
{
	const struct mtd_info *mtd = sbi->dev0.mtd;
	u64 len = min_t(u64, sbi->mmap_size, mtd->dev.size);

	if (!len)
		return 0;
	sbi->virt = (void *)mtd->dev.data;
	sbi->virt_len = len;
	sbi->phys = (uintptr_t)mtd->dev.data;
	sbi->pointed = true;
	return 0;
}

/* axfs_fill_super() from the superblock on; returns the root or an error. */
static struct inode *fill_super(struct mount *m, enum mode mode,
				const u8 *img, u64 len, u64 seed)
{
	struct axfs_sb_info *sbi;
	int err;

	sbi = kzalloc(sizeof(*sbi), GFP_KERNEL);
	if (!sbi)
		return ERR_PTR(-ENOMEM);
	m->sb.s_fs_info = sbi;
	sbi->sb = &m->sb;
	strcpy(m->sb.s_id, mode_names[mode]);
	mutex_init(&sbi->cblock_lock);
	err = attach(m, mode, img, len, seed);
	if (!err)
		err = axfs_open_image(&m->sb, false);
	if (err)
		return ERR_PTR(err);
	return axfs_iget(&m->sb, 0);
}

/* axfs_kill_sb() and axfs_free_sbi(): also after a failed mount. */
static void kill_sb(struct mount *m)
{
	struct axfs_sb_info *sbi = mount_sbi(m);

	kshim_evict_inodes(&m->sb);
	if (sbi) {
		if (sbi->pointed) {
			sbi->pointed = false;
			sbi->virt = NULL;
			sbi->virt_len = 0;
		}
		axfs_free_regions(sbi);
		axfs_physmem_unmap(sbi);
		axfs_cblock_exit(sbi);
		axfs_zlib_exit(sbi);
		kvfree(sbi->parent);
		kfree(sbi);
	}
	kvfree(m->first);
	kvfree(m->second);
}

/* ---- using the mounted image ------------------------------------------- */

/*
 * The walk of one mount.  Its digest covers what the metadata decides
 * (the entries readdir gives, what lookup finds, each inode's
 * attributes): the same image gives the same digest on every backend.
 * Page contents are left out: a backend may refuse a cblock another
 * inflates (one read from a device must fit its buffer).
 */
struct walk {
	struct super_block *sb;
	unsigned int inodes;
	unsigned int pages, failed, xip;
	u8 *page;		/* PAGE_SIZE bytes */
	u64 digest;
};

static void mix(struct walk *w, const void *p, size_t n)
{
	const u8 *b = p;

	while (n--)
		w->digest = (w->digest ^ *b++) * 0x100000001b3ULL;
}

static void mix_u64(struct walk *w, u64 v)
{
	mix(w, &v, sizeof(v));
}

/* An inode's attributes, or the error getting it. */
static void mix_inode(struct walk *w, const struct inode *inode)
{
	if (IS_ERR_OR_NULL(inode)) {
		mix_u64(w, PTR_ERR(inode));
		return;
	}
	mix_u64(w, inode->i_ino);
	mix_u64(w, inode->i_mode);
	mix_u64(w, inode->i_size);
	mix_u64(w, inode->i_nlink);
	mix_u64(w, inode->i_uid.val);
	mix_u64(w, inode->i_gid.val);
	mix_u64(w, inode->i_rdev);
	mix_u64(w, inode->i_mtime.tv_sec);
}

/* Directory entries, a few per readdir call. */
struct entries {
	struct dir_context ctx;		/* first: the actor gets its address */
	unsigned int n;
	struct {
		char name[AXFS_MAXPATHLEN + 1];
		unsigned int len;
		unsigned int type;
		u64 ino;
	} e[8];
};

static bool collect(struct dir_context *ctx, const char *name, int len,
		    loff_t pos, u64 ino, unsigned int type)
{
	struct entries *es = (struct entries *)ctx;

	if (es->n == ARRAY_SIZE(es->e))
		return false;
	if (len <= 0 || len > AXFS_MAXPATHLEN)
		kshim_die("readdir: a name of impossible length");
	memcpy(es->e[es->n].name, name, len);
	es->e[es->n].name[len] = '\0';
	es->e[es->n].len = len;
	es->e[es->n].ino = ino;
	es->e[es->n].type = type;
	es->n++;
	return true;
}

/* The inode lookup finds for name in dir, NULL if none, or an error. */
static struct inode *lookup(struct inode *dir, const char *name,
			    unsigned int len)
{
	struct dentry de = {
		.d_name = { .name = (const unsigned char *)name, .len = len },
		.d_sb = dir->i_sb,
	};
	struct dentry *res = dir->i_op->lookup(dir, &de, 0);
	struct inode *found = de.d_inode;
	const char *has;
	unsigned int has_len;

	if (IS_ERR(res))
		return ERR_CAST(res);
	/* What lookup finds has that name. */
	if (found) {
		has = axfs_inode_name(AXFS_SB(dir->i_sb), found->i_ino - 1,
				      &has_len);
		if (!has || has_len != len || memcmp(has, name, len))
			kshim_die("lookup found an inode of another name");
	}
	return found;
}

/*
 * Are the names in dir strictly in strcmp order?  Then lookup must find
 * each of them (where they are not, some cannot be found, as with the
 * 2008 driver, and the mount warns).
 */
static bool names_sorted(struct walk *w, struct inode *dir)
{
	struct axfs_sb_info *sbi = AXFS_SB(w->sb);
	const char *prev = NULL, *name;
	unsigned int len;
	u64 first, n, i;

	if (axfs_table_get(sbi, AXFS_R_INODE_NUM_ENTRIES, dir->i_ino - 1, &n) ||
	    axfs_table_get(sbi, AXFS_R_INODE_ARRAY_INDEX, dir->i_ino - 1,
			   &first))
		return false;
	for (i = 0; i < n; i++) {
		name = axfs_inode_name(sbi, first + i, &len);
		if (!name || (prev && strcmp(prev, name) >= 0))
			return false;
		prev = name;
	}
	return true;
}

/* A read-only private mapping of a file, as exec maps a program. */
struct map {
	struct file file;
	struct vm_area_struct vma;
	bool ok;
};

static void map_file(struct map *map, struct inode *inode)
{
	map->file.f_inode = inode;
	map->vma.vm_start = 1UL << 32;
	map->vma.vm_end = ULONG_MAX;
	map->vma.vm_flags = VM_READ | VM_EXEC;
	map->vma.vm_file = &map->file;
	map->ok = S_ISREG(inode->i_mode) &&
		  !inode->i_fop->mmap(&map->file, &map->vma);
}

/*
 * Fault page index of the mapping in.  A page mapped by physical address
 * (XIP) must lie inside the image's mapping and hold what read_folio
 * read (want bytes of buf; -1: read_folio failed).
 */
static void fault_page(struct walk *w, struct map *map, pgoff_t index,
		       const u8 *buf, long want)
{
	struct axfs_sb_info *sbi = AXFS_SB(w->sb);
	struct vm_fault vmf = {
		.vma = &map->vma,
		.pgoff = index,
		.address = map->vma.vm_start + (index << PAGE_SHIFT),
	};
	u64 at;

	if (!map->ok || index > (ULONG_MAX - map->vma.vm_start) >> PAGE_SHIFT)
		return;
	map->vma.kshim_inserted = false;
	map->vma.vm_ops->fault(&vmf);
	if (!map->vma.kshim_inserted)
		return;
	at = (map->vma.kshim_pfn << PAGE_SHIFT) - sbi->phys;
	if (map->vma.kshim_pfn << PAGE_SHIFT < sbi->phys ||
	    at > sbi->virt_len || sbi->virt_len - at < PAGE_SIZE)
		kshim_die("an XIP page mapped from outside the image");
	if (want >= 0 && memcmp((const u8 *)sbi->virt + at, buf, want))
		kshim_die("an XIP page differs from what read_folio read");
	w->xip++;
}

static void read_page(struct walk *w, struct inode *inode, struct map *map,
		      pgoff_t index)
{
	struct axfs_sb_info *sbi = AXFS_SB(w->sb);
	struct folio folio = {
		.page.kshim_addr = w->page,
		.mapping = inode->i_mapping,
		.index = index,
		.locked = true,
	};
	loff_t size = i_size_read(inode);
	phys_addr_t phys;
	long want = -1;
	u64 node;
	int err;

	err = inode->i_mapping->a_ops->read_folio(NULL, &folio);
	if (folio.locked)
		kshim_die("read_folio left the folio locked");
	if (!err != folio.uptodate)
		kshim_die("read_folio: return value and uptodate disagree");
	if (err)
		w->failed++;
	else
		want = (u64)index << PAGE_SHIFT >= size ? 0 :
		       min_t(u64, PAGE_SIZE, size - ((u64)index << PAGE_SHIFT));
	if (!axfs_node_of_page(sbi, inode->i_ino - 1, index, &node))
		axfs_xip_node_phys(sbi, node, &phys);
	fault_page(w, map, index, w->page, want);
	w->pages++;
}

static void read_pages(struct walk *w, struct inode *inode)
{
	u64 pages = DIV_ROUND_UP_ULL(i_size_read(inode), PAGE_SIZE);
	struct map map = { 0 };
	u64 p;

	map_file(&map, inode);
	for (p = 0; p < pages && p < FILE_PAGES; p++) {
		if (w->pages >= WALK_PAGES || kshim_inflated() > WALK_INFLATE)
			return;
		read_page(w, inode, &map, p);
	}
	/* The last page of a long file, and one past the end. */
	if (pages > FILE_PAGES) {
		read_page(w, inode, &map, pages - 1);
		read_page(w, inode, &map, pages);
	}
}

static void walk_dir(struct walk *w, struct inode *dir, unsigned int depth);

static void visit(struct walk *w, struct inode *inode, unsigned int depth)
{
	if (w->inodes++ >= WALK_INODES)
		return;
	/* The VFS (llseek, stat, the page cache) takes i_size >= 0. */
	if (inode->i_size < 0)
		kshim_die("an inode with a negative i_size");
	mix_inode(w, inode);
	if (S_ISDIR(inode->i_mode) && depth < WALK_DEPTH)
		walk_dir(w, inode, depth + 1);
	else if (S_ISREG(inode->i_mode) || S_ISLNK(inode->i_mode))
		read_pages(w, inode);
}

static void visit_entry(struct walk *w, struct inode *dir, char *name,
			unsigned int len, u64 ino, bool sorted,
			unsigned int depth)
{
	struct inode *inode = lookup(dir, name, len);
	unsigned char last = name[len - 1];

	if (sorted && !IS_ERR(inode) && (!inode || inode->i_ino != ino))
		kshim_die("lookup misses a name of a sorted directory");

	mix(w, name, len);
	mix_u64(w, ino);
	mix_inode(w, inode);
	/* Names that sort just after this one, and after everything. */
	if (last < 0xff) {
		name[len - 1] = last + 1;
		mix_inode(w, lookup(dir, name, len));
		name[len - 1] = last;
	}
	mix_inode(w, lookup(dir, "\xff", 1));

	/* Unsorted names may not be found: the entry's own inode then. */
	if (!inode)
		inode = axfs_iget(w->sb, ino - 1);
	if (!IS_ERR(inode))
		visit(w, inode, depth);
}

static void walk_dir(struct walk *w, struct inode *dir, unsigned int depth)
{
	struct file file = { .f_inode = dir };
	struct entries es = { .ctx.actor = collect };
	bool sorted = names_sorted(w, dir);
	unsigned int i;

	do {
		es.n = 0;
		if (dir->i_fop->iterate_shared(&file, &es.ctx))
			return;
		for (i = 0; i < es.n; i++) {
			if (!strcmp(es.e[i].name, ".") ||
			    !strcmp(es.e[i].name, ".."))
				continue;
			mix_u64(w, es.e[i].type);
			visit_entry(w, dir, es.e[i].name, es.e[i].len,
				    es.e[i].ino, sorted, depth);
			if (w->inodes >= WALK_INODES)
				return;
		}
	} while (es.n);
}

/* Mount, walk, unmount; returns whether it mounted, and the digest. */
static bool run(enum mode mode, const u8 *img, u64 len, u64 seed,
		u64 *digest)
{
	struct mount m = { 0 };
	struct inode *root;
	bool mounted = false;

	kshim_inflated_reset();
	root = fill_super(&m, mode, img, len, seed);
	if (!IS_ERR(root)) {
		struct walk w = { .sb = &m.sb, .digest = 0xcbf29ce484222325ULL };

		w.page = kmalloc(PAGE_SIZE, GFP_KERNEL);
		if (w.page) {
			if (!S_ISDIR(root->i_mode))
				kshim_die("mounted, but the root is no directory");
			visit(&w, root, 0);
		}
		pr_info("fuzz_kernel: %s: mounted; %u inodes, %u pages read (%u failed, %u mapped XIP), digest %016llx\n",
			mode_names[mode], w.inodes, w.pages, w.failed, w.xip,
			w.digest);
		kfree(w.page);
		mounted = w.page;
		*digest = w.digest;
	}
	kill_sb(&m);
	kshim_fail_alloc(-1);
	return mounted;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	u64 seed = 0xcbf29ce484222325ULL, first = 0, digest;
	bool seen = false;
	enum mode mode;
	size_t i;
	u8 *img;

	/*
	 * An exact copy (the standalone driver's buffer may be larger) at a
	 * page-aligned address, as an image in memory is.
	 */
	img = kshim_alloc_pages(size);
	if (!img)
		return 0;
	memcpy(img, data, size);
	for (i = 0; i < size; i++)
		seed = (seed ^ data[i]) * 0x100000001b3ULL;
	for (mode = 0; mode < M_COUNT; mode++) {
		if (mode == M_DUAL) {
			u64 split = size >= AXFS_SUPER_SIZE ?
				    get_unaligned_be64(img + AXFS_SB_MMAP_SIZE) : 0;

			if (split < AXFS_SUPER_SIZE || split >= size)
				continue;
		}
		/*
		 * physsize=0 tells the driver "not given": it then maps a
		 * page of memory the kernel describes, which an empty input
		 * does not have.
		 */
		if (mode == M_PHYS && !size)
			continue;
		/* Failed allocations may fail lookups: no digest. */
		if (!run(mode, img, size, seed, &digest) || mode == M_NOMEM)
			continue;
		if (seen && digest != first)
			kshim_die("two backends read the same image differently");
		seen = true;
		first = digest;
	}
	kvfree(img);
	return 0;
}
