/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * axfs.h - private declarations of the AXFS driver.
 *
 * The on-disk format (structures, byte offsets, region numbers)
 * lives in include/axfs/axfs_fs.h, shared with the user-space tools;
 * this header only holds what the kernel keeps in memory.
 */
#ifndef AXFS_KERNEL_H
#define AXFS_KERNEL_H

#include <linux/atomic.h>
#include <linux/completion.h>
#include <linux/fs.h>
#include <linux/kobject.h>
#include <linux/mutex.h>
#include <linux/printk.h>
#include <linux/ratelimit.h>
#include <linux/types.h>
#include <linux/zlib.h>

#include "axfs_fs.h"
#include "compat.h"

/*
 * Messages about a mounted (or mounting) volume name its device:
 * "axfs (loop0): ...".  No trailing newline in fmt.  Other messages start
 * "axfs: " (spelt out where they are).
 */
#define axfs_err(sb, fmt, ...) \
	pr_err("axfs (%s): " fmt "\n", (sb)->s_id, ##__VA_ARGS__)
#define axfs_warn(sb, fmt, ...) \
	pr_warn("axfs (%s): " fmt "\n", (sb)->s_id, ##__VA_ARGS__)
#define axfs_info(sb, fmt, ...) \
	pr_info("axfs (%s): " fmt "\n", (sb)->s_id, ##__VA_ARGS__)
/* For errors a reader can trigger at will (a corrupt page read in a loop). */
#define axfs_err_ratelimited(sb, fmt, ...)				\
do {									\
	static DEFINE_RATELIMIT_STATE(_rs, DEFAULT_RATELIMIT_INTERVAL,	\
				      DEFAULT_RATELIMIT_BURST);		\
									\
	if (__ratelimit(&_rs))						\
		axfs_err(sb, fmt, ##__VA_ARGS__);			\
} while (0)

/* Largest cblock we allocate buffers for (cblock_cache + 1 per mount). */
#define AXFS_CBLOCK_LIMIT	(16u << 20)

/* One of the 18 regions, as described by its descriptor. */
struct axfs_region_info {
	u64 fsoffset;		/* where its bytes start in the image */
	u64 size;		/* uncompressed size */
	u64 compressed_size;	/* 0: stored raw */
	u64 max_index;		/* informational, never trusted */
	u8 depth;		/* bytes per entry of a byte table */
	u8 incore;
	/*
	 * The region's bytes in kernel memory, or NULL if they are read from
	 * the device on demand.  Either a private copy (owned) or a pointer
	 * into the directly mapped part of the image.
	 */
	const u8 *data;
	bool owned;
};

/* A device holding (part of) the image: an MTD or a block device. */
struct axfs_dev {
	struct mtd_info *mtd;
	struct block_device *bdev;
	bool own;		/* opened by us (second_dev), not by the VFS */
	struct file *bdev_file;	/* the block device we opened (second_dev=) */
	u64 size;		/* bytes readable */
};

/* One inflated cblock in the cblock cache. */
struct axfs_cblock_entry {
	u64 c;			/* which cblock; U64_MAX: none */
	u64 used;		/* cblock_clock at its last use */
	u32 len;		/* inflated length */
	u8 *buf;		/* cblock_size bytes, allocated at first use */
};

/* Mount options, kept for show_options. */
struct axfs_options {
	u64 physaddr;		/* physaddr=: image (or its mmap segment) in memory */
	u64 physsize;		/* physsize=: size of that memory window, 0 = unknown */
	char *second_dev;	/* second_dev=: store segment of a dual image */
	bool profile;		/* profile[=MODE]: /proc/axfs/volumeN exists */
	int profile_mode;	/* enum axfs_prof_mode it starts in */
};

struct axfs_profile;

struct axfs_sb_info {
	struct super_block *sb;	/* whose s_id messages name */
	struct axfs_options opt;

	/* Superblock fields. */
	u32 cblock_size;
	u64 files;
	u64 size;
	u64 blocks;
	u64 mmap_size;
	u64 timestamp;
	u8 version[3];
	struct axfs_region_info r[AXFS_REGION_COUNT];

	/*
	 * Where the bytes are.  Image offsets below mmap_size come from
	 * `virt` when the image is directly addressable (physaddr= or an MTD
	 * that supports point()), else from dev0.  Offsets from mmap_size up
	 * come from dev1 at (offset - mmap_size) when a second device is
	 * given, else from dev0 at the same offset.
	 */
	void *virt;		/* kernel mapping of image [0, virt_len) */
	u64 virt_len;
	phys_addr_t phys;	/* physical address of image offset 0, or 0 */
	bool memremapped;	/* virt came from memremap() */
	bool pointed;		/* virt came from mtd_point() */
	struct axfs_dev dev0;
	struct axfs_dev dev1;

	/* XIP pages may be mapped into user space straight from `phys`. */
	bool xip_direct;
	/*
	 * ... but the mm must never copy one (no special PTEs, lowmem pages
	 * outside the linear map): only read-only mappings get XIP pages.
	 */
	bool xip_no_cow;

	/*
	 * cblock cache: the cblock_entries cblocks inflated last, shared by
	 * all readers (module parameter cblock_cache, read at mount).
	 */
	struct mutex cblock_lock;
	struct axfs_cblock_entry *cblocks;
	unsigned int cblock_entries;
	u64 cblock_clock;	/* ticks once per lookup: LRU order */
	/*
	 * Compressed bytes read from a device: the cblock being inflated
	 * and, read in the same request, the cblocks the image places
	 * after it (readahead, file.c), which the next inflations take
	 * from here.  [zbuf_start, zbuf_start + zbuf_len) of the
	 * compressed region, under cblock_lock; a fixed size per mount.
	 */
	u8 *cblock_zbuf;
	u32 cblock_zbuf_size;
	u32 cblock_readahead;	/* bytes read ahead at most (cblock_readahead) */
	u32 zbuf_len;
	u64 zbuf_start;
	u64 zbuf_next_c;	/* the cblock after the last one read from it */
	struct z_stream_s zs;	/* inflate state, used under cblock_lock */

	/* Counters since the mount: /sys/fs/axfs/<s_id>/ (sysfs.c). */
	atomic64_t cblocks_inflated;
	atomic64_t device_bytes_read;
	atomic64_t readahead_cblocks;
	struct kobject kobj;
	struct completion kobj_released;
	bool kobj_added;

	/* parent[i]: the directory holding inode i (U32_MAX for the root). */
	u32 *parent;
	struct axfs_profile *profile;
};

static inline struct axfs_sb_info *AXFS_SB(const struct super_block *sb)
{
	return sb->s_fs_info;
}

/* AXFS inode index (root = 0) <-> VFS inode number (root = 1). */
static inline u64 axfs_ino_index(const struct inode *inode)
{
	return inode->i_ino - 1;
}

/* ---- io.c: reading image bytes from wherever they live ---------------- */
int axfs_read(struct axfs_sb_info *sbi, void *dst, u64 fsoffset, u64 len);
int axfs_region_read(struct axfs_sb_info *sbi, int region, void *dst,
		     u64 offset, u64 len);
const u8 *axfs_region_ptr(struct axfs_sb_info *sbi, int region, u64 offset,
			  u64 len);

/* ---- bdev.c ------------------------------------------------------------ */
int axfs_bdev_read(struct block_device *bdev, void *dst, u64 offset, u64 len);
int axfs_bdev_open(struct axfs_dev *dev, const char *path, void *holder);
void axfs_bdev_close(struct axfs_dev *dev);

/* ---- mtd.c ------------------------------------------------------------- */
bool axfs_is_mtd_name(const char *name);
int axfs_mtd_read(struct mtd_info *mtd, void *dst, u64 offset, u64 len);
int axfs_mtd_open(struct axfs_dev *dev, const char *name);
void axfs_mtd_close(struct axfs_dev *dev);
int axfs_mtd_point(struct axfs_sb_info *sbi);
void axfs_mtd_unpoint(struct axfs_sb_info *sbi);
int axfs_get_tree_mtd(struct fs_context *fc,
		      int (*fill_super)(struct super_block *,
					struct fs_context *));
bool axfs_source_is_mtd(const char *source);

/* ---- physmem.c --------------------------------------------------------- */
int axfs_physmem_map(struct axfs_sb_info *sbi, u64 len);
void axfs_physmem_unmap(struct axfs_sb_info *sbi);

/* ---- mount.c: the mount sequence (calls every layer below) ------------ */
int axfs_open_image(struct super_block *sb, bool silent);

/* ---- regions.c: superblock, descriptors, mount-time validation ------- */
int axfs_read_super(struct super_block *sb, struct axfs_sb_info *sbi,
		    bool silent);
int axfs_check_devices(struct axfs_sb_info *sbi);
int axfs_load_regions(struct axfs_sb_info *sbi);
int axfs_check_tree(struct axfs_sb_info *sbi, u32 **parent);
void axfs_free_regions(struct axfs_sb_info *sbi);
u64 axfs_table_entries(const struct axfs_sb_info *sbi, int region);
int axfs_table_get(const struct axfs_sb_info *sbi, int region, u64 index,
		   u64 *value);

/* Inode attribute helpers (all bounds-checked, -EIO on corruption). */
int axfs_inode_mode(const struct axfs_sb_info *sbi, u64 ino, umode_t *mode);
const char *axfs_inode_name(const struct axfs_sb_info *sbi, u64 ino,
			    unsigned int *len);

/* ---- uncompress.c ------------------------------------------------------ */
int axfs_zlib_init(struct axfs_sb_info *sbi);
void axfs_zlib_exit(struct axfs_sb_info *sbi);
int axfs_inflate(struct axfs_sb_info *sbi, void *dst, u32 dstlen,
		 const void *src, u32 srclen, u32 *outlen);

/* ---- inode.c / dir.c -------------------------------------------------- */
struct inode *axfs_iget(struct super_block *sb, u64 ino);
extern const struct inode_operations axfs_dir_inode_operations;
extern const struct file_operations axfs_dir_operations;

/* ---- file.c: the read path (below xip.c) ------------------------------- */
extern const struct address_space_operations axfs_aops;
int axfs_node_of_page(const struct axfs_sb_info *sbi, u64 ino, pgoff_t index,
		      u64 *node);
int axfs_node(const struct axfs_sb_info *sbi, u64 node, u64 *type, u64 *index);
int axfs_node_place(const struct axfs_sb_info *sbi, u64 type, u64 index,
		    int *region, u64 *off);
int axfs_cblock_init(struct axfs_sb_info *sbi);
void axfs_cblock_exit(struct axfs_sb_info *sbi);

/* ---- xip.c: read(), mmap() and execute in place ------------------------ */
extern const struct file_operations axfs_file_operations;
void axfs_setup_xip(struct axfs_sb_info *sbi);
int axfs_xip_node_phys(struct axfs_sb_info *sbi, u64 node, phys_addr_t *phys);

/* ---- sysfs.c: /sys/fs/axfs/<s_id>/ ------------------------------------- */
int axfs_sysfs_module_init(void);
void axfs_sysfs_module_exit(void);
int axfs_sysfs_add(struct axfs_sb_info *sbi);
void axfs_sysfs_del(struct axfs_sb_info *sbi);

/* ---- profiling.c ------------------------------------------------------- */
/* What /proc/axfs/volumeN counts; each mode also counts what those before it do. */
enum axfs_prof_mode {
	AXFS_PROF_OFF,
	AXFS_PROF_MAPPED,	/* "on": faults of read-only mappings (2008) */
	AXFS_PROF_ALL,		/* "all": every fault, and pages read() copies */
};

#ifdef CONFIG_AXFS_PROFILING
int axfs_profiling_module_init(void);
void axfs_profiling_module_exit(void);
int axfs_profiling_start(struct axfs_sb_info *sbi, int mode);
void axfs_profiling_stop(struct axfs_sb_info *sbi);
void axfs_profiling_add(struct axfs_sb_info *sbi, u64 node, u64 ino,
			enum axfs_prof_mode use);
bool axfs_profiling_on(const struct axfs_sb_info *sbi);
#else
static inline int axfs_profiling_module_init(void) { return 0; }
static inline void axfs_profiling_module_exit(void) { }
static inline int axfs_profiling_start(struct axfs_sb_info *sbi, int mode)
{
	return 0;
}

static inline void axfs_profiling_stop(struct axfs_sb_info *sbi) { }
static inline void axfs_profiling_add(struct axfs_sb_info *sbi, u64 node,
				      u64 ino, enum axfs_prof_mode use) { }
static inline bool axfs_profiling_on(const struct axfs_sb_info *sbi)
{
	return false;
}
#endif

#endif /* AXFS_KERNEL_H */
