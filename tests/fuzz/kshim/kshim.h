/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * kshim.h - just enough of the Linux kernel's API, in user space, to
 * compile the AXFS driver's image-parsing code (kernel/regions.c, io.c,
 * mount.c, inode.c, dir.c, file.c, uncompress.c, physmem.c) unchanged for the
 * fuzz target tests/fuzz/fuzz_kernel.c.  Every <linux/...> header the
 * driver includes is a one-line file in kshim/linux/ that includes this.
 *
 * It describes the newest kernel interfaces the driver is written
 * against (folio_end_read(), vm_flags_set(), vmf_insert_mixed() taking a
 * pfn, inode time accessors): axfs-probes.h beside this file says that
 * every interface kernel/probes/ asks for is here, so compat.h defines
 * nothing and the driver's own code is what runs.
 *
 * Files that include this must not include libc headers that define
 * kernel type names (<sys/types.h>, <stdlib.h>, <stdio.h>): the libc
 * side (allocation, logging, zlib) lives in kshim_libc.c and kzlib.c,
 * reached through the kshim_* functions of kshim_libc.h.  Where the
 * kernel would warn or BUG (an unbalanced mutex, a folio unlocked twice),
 * the shim aborts, so the fuzzer reports it.
 */
#ifndef KSHIM_H
#define KSHIM_H

#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "kshim_libc.h"

#define KERNEL_VERSION(a, b, c)	(((a) << 16) + ((b) << 8) + ((c) > 255 ? 255 : (c)))
#define LINUX_VERSION_CODE	KERNEL_VERSION(6, 19, 0)

/* ---- types ------------------------------------------------------------- */

typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef unsigned long long u64;	/* as in the kernel: printed with %llu */
typedef int8_t s8;
typedef int16_t s16;
typedef int32_t s32;
typedef long long s64;
typedef u64 phys_addr_t;
#define PHYS_ADDR_MAX	(~(phys_addr_t)0)
typedef u64 resource_size_t;
typedef unsigned short umode_t;
typedef unsigned long pgoff_t;
typedef long long loff_t;
typedef long ssize_t;
typedef s64 time64_t;
typedef u64 blkcnt_t;
typedef u32 dev_t;
typedef unsigned int uid_t;
typedef unsigned int gid_t;
typedef unsigned int gfp_t;
typedef unsigned int vm_fault_t;
typedef unsigned int fmode_t;
/* The format header's on-disk types (no sparse here: plain integers). */
typedef u8 __u8;
typedef u32 __u32;
typedef u64 __u64;
typedef u32 __be32;
typedef u64 __be64;

#define KSHIM_LE (__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__)
static inline u32 be32_to_cpu(__be32 v) { return KSHIM_LE ? __builtin_bswap32(v) : v; }
static inline u64 be64_to_cpu(__be64 v) { return KSHIM_LE ? __builtin_bswap64(v) : v; }

static inline u32 get_unaligned_be32(const void *p)
{
	__be32 v;

	memcpy(&v, p, sizeof(v));
	return be32_to_cpu(v);
}

static inline u64 get_unaligned_be64(const void *p)
{
	__be64 v;

	memcpy(&v, p, sizeof(v));
	return be64_to_cpu(v);
}

#define U8_MAX		((u8)~0U)
#define U16_MAX		((u16)~0U)
#define U32_MAX		((u32)~0U)
#define U64_MAX		((u64)~0ULL)
#define S64_MAX		((s64)(U64_MAX >> 1))

#ifndef static_assert
#define static_assert(expr, ...) _Static_assert(expr, "" __VA_ARGS__)
#endif

#define __init
#define __exit
#define likely(x)	__builtin_expect(!!(x), 1)
#define unlikely(x)	__builtin_expect(!!(x), 0)
/*
 * IS_ENABLED(CONFIG_X): 1 if CONFIG_X is defined as 1, else 0, as in the
 * kernel.  The shim stands in for the MTD layer (fuzz_kernel.c provides
 * axfs_mtd_read() and axfs_mtd_point()); profiling is left out.
 */
#define CONFIG_AXFS_MTD		1
#define KSHIM_ONE_1		0,
#define KSHIM_SECOND(ignored, val, ...)	val
#define KSHIM_IS_ONE(junk)	KSHIM_SECOND(junk 1, 0, 0)
#define KSHIM_PASTE_ONE(val)	KSHIM_IS_ONE(KSHIM_ONE_##val)
#define IS_ENABLED(option)	KSHIM_PASTE_ONE(option)
#define __printf(a, b)		__attribute__((format(printf, a, b)))
#define fallthrough		__attribute__((__fallthrough__))
#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

/* ---- errors ------------------------------------------------------------ */

#define ENOENT		2
#define EIO		5
#define EAGAIN		11
#define ENOMEM		12
#define EFAULT		14
#define EBUSY		16
#define EINVAL		22
#define ERANGE		34
#define ENAMETOOLONG	36
#define EOPNOTSUPP	95
#define EUCLEAN		117
#define MAX_ERRNO	4095

static inline void *ERR_PTR(long error)
{
	return (void *)error;
}

static inline long PTR_ERR(const void *ptr)
{
	return (long)ptr;
}

static inline bool IS_ERR(const void *ptr)
{
	return (unsigned long)ptr >= (unsigned long)-MAX_ERRNO;
}

static inline bool IS_ERR_OR_NULL(const void *ptr)
{
	return !ptr || IS_ERR(ptr);
}

static inline void *ERR_CAST(const void *ptr)
{
	return (void *)ptr;
}

/* ---- arithmetic -------------------------------------------------------- */

#define min(a, b)	((a) < (b) ? (a) : (b))
#define max(a, b)	((a) > (b) ? (a) : (b))
#define min_t(type, a, b) ((type)(a) < (type)(b) ? (type)(a) : (type)(b))
#define max_t(type, a, b) ((type)(a) > (type)(b) ? (type)(a) : (type)(b))
#define clamp_t(type, v, lo, hi) min_t(type, max_t(type, v, lo), hi)
#define READ_ONCE(x) (*(const volatile __typeof__(x) *)&(x))
#define DIV_ROUND_UP(n, d)	(((n) + (d) - 1) / (d))
#define DIV_ROUND_UP_ULL(n, d)	DIV_ROUND_UP((unsigned long long)(n), (d))
/* linux/math64.h: 64-bit division, an operator in user space. */
static inline u64 div_u64(u64 dividend, u32 divisor) { return dividend / divisor; }
#define check_add_overflow(a, b, d)	__builtin_add_overflow(a, b, d)
#define check_sub_overflow(a, b, d)	__builtin_sub_overflow(a, b, d)
#define check_mul_overflow(a, b, d)	__builtin_mul_overflow(a, b, d)

#define PAGE_SHIFT	12
#define PAGE_SIZE	(1UL << PAGE_SHIFT)
#define PAGE_MASK	(~(PAGE_SIZE - 1))
#define PAGE_ALIGNED(addr)	(((unsigned long)(addr) & (PAGE_SIZE - 1)) == 0)
#define offset_in_page(p)	((unsigned long)(p) & ~PAGE_MASK)
#define NSEC_PER_SEC	1000000000L
#define MAX_LFS_FILESIZE	((loff_t)LLONG_MAX)

/* ---- printk: formatted (so bad arguments show), printed if verbose ---- */

__attribute__((format(printf, 2, 3)))
void kshim_printk(int level, const char *fmt, ...);
#define pr_err(...)		kshim_printk(3, __VA_ARGS__)
#define pr_warn(...)		kshim_printk(4, __VA_ARGS__)
#define pr_notice(...)		kshim_printk(5, __VA_ARGS__)
#define pr_info(...)		kshim_printk(6, __VA_ARGS__)
#define pr_debug(...)		kshim_printk(7, __VA_ARGS__)
#define pr_err_ratelimited(...)	pr_err(__VA_ARGS__)
#define pr_warn_ratelimited(...) pr_warn(__VA_ARGS__)
#define pr_warn_once(...)	pr_warn(__VA_ARGS__)
#define KERN_ERR		"3"
#define KERN_WARNING		"4"
#define KERN_INFO		"6"
#define DEFAULT_RATELIMIT_INTERVAL	5
#define DEFAULT_RATELIMIT_BURST		10
#define DEFINE_RATELIMIT_STATE(name, interval, burst)	int name
/* Every message is logged: the fuzzer runs with them off. */
static inline int __ratelimit(int *state)
{
	(void)state;
	return 1;
}

#define WARN_ON(cond)		kshim_warn_on(!!(cond), __FILE__, __LINE__)
#define WARN_ON_ONCE(cond)	WARN_ON(cond)
int kshim_warn_on(int cond, const char *file, int line);

/* ---- memory ------------------------------------------------------------ */

#define GFP_KERNEL	0x01u
#define GFP_NOFS	0x02u
#define __GFP_NOWARN	0x10u
#define __GFP_ZERO	0x20u
#define __GFP_RETRY_MAYFAIL	0x40u

void *kmalloc_array(size_t n, size_t size, gfp_t flags);
void *kvmalloc_array(size_t n, size_t size, gfp_t flags);
void kfree(const void *p);
#define kmalloc(size, flags)	kmalloc_array(1, size, flags)
#define kzalloc(size, flags)	kmalloc(size, (flags) | __GFP_ZERO)
#define kcalloc(n, size, flags)	kmalloc_array(n, size, (flags) | __GFP_ZERO)
#define kvmalloc(size, flags)	kvmalloc_array(1, size, flags)
#define kvzalloc(size, flags)	kvmalloc(size, (flags) | __GFP_ZERO)
#define kvfree(p)		kfree(p)
/* Make the n-th allocation from now fail (n = 0: the next); -1: none. */
void kshim_fail_alloc(long n);

/* A mutex that must be taken and released in turn. */
struct mutex {
	int held;
};

void mutex_init(struct mutex *m);
void mutex_lock(struct mutex *m);
void mutex_unlock(struct mutex *m);
void kshim_assert_held(const struct mutex *m);
#define lockdep_assert_held(m)	kshim_assert_held(m)

/*
 * linux/atomic.h: the counters of /sys/fs/axfs (the harness is one
 * thread); linux/kobject.h, linux/completion.h: the sysfs directory of a
 * mount lives in axfs_sb_info, and sysfs.c is not compiled here.
 */
typedef struct {
	s64 counter;
} atomic64_t;

static inline s64 atomic64_read(const atomic64_t *v) { return v->counter; }
static inline void atomic64_add(s64 i, atomic64_t *v) { v->counter += i; }
static inline void atomic64_inc(atomic64_t *v) { v->counter++; }

struct kobject {
	const char *name;
};

struct completion {
	unsigned int done;
};

/* ---- files and modes --------------------------------------------------- */

#define S_IFMT		00170000
#define S_IFSOCK	0140000
#define S_IFLNK		0120000
#define S_IFREG		0100000
#define S_IFBLK		0060000
#define S_IFDIR		0040000
#define S_IFCHR		0020000
#define S_IFIFO		0010000
#define S_ISLNK(m)	(((m) & S_IFMT) == S_IFLNK)
#define S_ISREG(m)	(((m) & S_IFMT) == S_IFREG)
#define S_ISDIR(m)	(((m) & S_IFMT) == S_IFDIR)
#define S_ISCHR(m)	(((m) & S_IFMT) == S_IFCHR)
#define S_ISBLK(m)	(((m) & S_IFMT) == S_IFBLK)
#define S_ISFIFO(m)	(((m) & S_IFMT) == S_IFIFO)
#define S_ISSOCK(m)	(((m) & S_IFMT) == S_IFSOCK)

#define MINORBITS	20
#define MINORMASK	((1U << MINORBITS) - 1)
#define MAJOR(dev)	((unsigned int)((dev) >> MINORBITS))
#define MINOR(dev)	((unsigned int)((dev) & MINORMASK))
#define MKDEV(ma, mi)	(((ma) << MINORBITS) | (mi))

static inline dev_t new_decode_dev(u32 dev)
{
	unsigned int major = (dev & 0xfff00) >> 8;
	unsigned int minor = (dev & 0xff) | ((dev >> 12) & 0xfff00);

	return MKDEV(major, minor);
}

struct timespec64 {
	time64_t tv_sec;
	long tv_nsec;
};

typedef struct {
	uid_t val;
} kuid_t;

typedef struct {
	gid_t val;
} kgid_t;

struct super_block;
struct inode;
struct file;
struct dentry;
struct folio;
struct page;
struct fs_context;
struct mtd_info;
struct kstatfs;
struct seq_file;
struct vm_area_struct;
struct vm_fault;

struct qstr {
	u32 hash;
	u32 len;
	const unsigned char *name;
};

struct dentry {
	struct qstr d_name;
	struct inode *d_inode;
	struct super_block *d_sb;
};

struct dir_context;
typedef bool (*filldir_t)(struct dir_context *, const char *, int, loff_t,
			  u64, unsigned int);
struct dir_context {
	filldir_t actor;
	loff_t pos;
};

struct file {
	struct inode *f_inode;
	loff_t f_pos;
};

struct inode_operations {
	struct dentry *(*lookup)(struct inode *, struct dentry *,
				 unsigned int);
	const char *(*get_link)(struct dentry *, struct inode *, void *);
};

struct pipe_inode_info;

/*
 * read_iter (kernel/xip.c) is not driven by the fuzz target, which reads
 * through read_folio: enough of struct kiocb and iov_iter to compile it,
 * and stand-ins that die if called.
 */
struct kiocb {
	struct file *ki_filp;
	loff_t ki_pos;
};

struct iov_iter {
	size_t count;
};

static inline size_t iov_iter_count(const struct iov_iter *i)
{
	return i->count;
}

static inline void iov_iter_truncate(struct iov_iter *i, u64 count)
{
	if (i->count > count)
		i->count = count;
}

static inline void iov_iter_reexpand(struct iov_iter *i, size_t count)
{
	i->count = count;
}

size_t copy_to_iter(const void *addr, size_t bytes, struct iov_iter *i);

#define current	NULL

static inline bool fatal_signal_pending(void *task)
{
	(void)task;
	return false;
}

static inline void cond_resched(void)
{
}

struct file_operations {
	loff_t (*llseek)(struct file *, loff_t, int);
	ssize_t (*read)(struct file *, char *, size_t, loff_t *);
	ssize_t (*read_iter)(struct kiocb *, struct iov_iter *);
	int (*iterate_shared)(struct file *, struct dir_context *);
	int (*iterate)(struct file *, struct dir_context *);
	int (*mmap)(struct file *, struct vm_area_struct *);
	ssize_t (*splice_read)(struct file *, loff_t *,
			       struct pipe_inode_info *, size_t, unsigned int);
};

struct readahead_control;

struct address_space_operations {
	int (*read_folio)(struct file *, struct folio *);
	int (*readpage)(struct file *, struct page *);
	void (*readahead)(struct readahead_control *);
};

struct address_space {
	struct inode *host;
	const struct address_space_operations *a_ops;
};

#define I_NEW	(1 << 3)

struct inode {
	unsigned long i_ino;
	struct super_block *i_sb;
	unsigned long i_state;
	umode_t i_mode;
	unsigned char i_blkbits;
	unsigned int i_nlink;
	kuid_t i_uid;
	kgid_t i_gid;
	dev_t i_rdev;
	loff_t i_size;
	blkcnt_t i_blocks;
	struct timespec64 i_atime, i_mtime, i_ctime;
	const struct inode_operations *i_op;
	const struct file_operations *i_fop;
	struct address_space i_data;
	struct address_space *i_mapping;
	struct inode *kshim_next;	/* the super_block's list */
};

static inline struct timespec64 inode_set_atime_to_ts(struct inode *inode,
						      struct timespec64 ts)
{
	inode->i_atime = ts;
	return ts;
}

static inline struct timespec64 inode_set_mtime_to_ts(struct inode *inode,
						      struct timespec64 ts)
{
	inode->i_mtime = ts;
	return ts;
}

static inline struct timespec64 inode_set_ctime_to_ts(struct inode *inode,
						      struct timespec64 ts)
{
	inode->i_ctime = ts;
	return ts;
}

static inline unsigned long inode_state_read_once(struct inode *inode)
{
	return inode->i_state;
}

struct super_block {
	void *s_fs_info;
	char s_id[32];
	unsigned long s_flags;
	unsigned long s_magic;
	struct inode *kshim_inodes;	/* every inode iget_locked made */
};

static inline struct inode *file_inode(const struct file *f)
{
	return f->f_inode;
}

static inline loff_t i_size_read(const struct inode *inode)
{
	return inode->i_size;
}

static inline void i_uid_write(struct inode *inode, uid_t uid)
{
	inode->i_uid.val = uid;
}

static inline void i_gid_write(struct inode *inode, gid_t gid)
{
	inode->i_gid.val = gid;
}

static inline void set_nlink(struct inode *inode, unsigned int nlink)
{
	inode->i_nlink = nlink;
}

static inline void inode_nohighmem(struct inode *inode)
{
}

void init_special_inode(struct inode *inode, umode_t mode, dev_t dev);
struct inode *iget_locked(struct super_block *sb, unsigned long ino);
void unlock_new_inode(struct inode *inode);
void iget_failed(struct inode *inode);
/* Frees every inode of sb (what umount's evict_inodes would do). */
void kshim_evict_inodes(struct super_block *sb);

struct dentry *d_splice_alias(struct inode *inode, struct dentry *dentry);
bool dir_emit_dots(struct file *file, struct dir_context *ctx);

static inline bool dir_emit(struct dir_context *ctx, const char *name,
			    int namelen, u64 ino, unsigned int type)
{
	return ctx->actor(ctx, name, namelen, ctx->pos, ino, type);
}

loff_t generic_file_llseek(struct file *file, loff_t offset, int whence);
ssize_t generic_file_read_iter(struct kiocb *iocb, struct iov_iter *to);
ssize_t generic_file_splice_read(struct file *in, loff_t *ppos,
				 struct pipe_inode_info *pipe, size_t len,
				 unsigned int flags);
ssize_t filemap_splice_read(struct file *in, loff_t *ppos,
			    struct pipe_inode_info *pipe, size_t len,
			    unsigned int flags);
ssize_t copy_splice_read(struct file *in, loff_t *ppos,
			 struct pipe_inode_info *pipe, size_t len,
			 unsigned int flags);
ssize_t generic_read_dir(struct file *file, char *buf, size_t len,
			 loff_t *pos);
extern const struct inode_operations page_symlink_inode_operations;

/* ---- block devices -------------------------------------------------- */

/* The bytes of a fake device, and a bad sector (bad_len bytes at bad). */
struct kshim_dev {
	const u8 *data;
	u64 size;
	u64 bad, bad_len;
};

struct block_device {
	struct inode *bd_inode;
	dev_t bd_dev;
	struct kshim_dev kshim;
};

#define FMODE_READ	((fmode_t)0x1)
#define FMODE_EXCL	((fmode_t)0x80)

static inline u64 bdev_nr_bytes(struct block_device *bdev)
{
	return bdev->kshim.size;
}

/* Opening devices by path is not part of the shim: these abort. */
int lookup_bdev(const char *path, dev_t *dev);
struct block_device *blkdev_get_by_path(const char *path, fmode_t mode,
					void *holder);
void blkdev_put(struct block_device *bdev, fmode_t mode);

/* ---- procfs --------------------------------------------------------- */

void *pde_data(const struct inode *inode);

/* ---- pages and folios -------------------------------------------------- */

struct page {
	void *kshim_addr;	/* PAGE_SIZE bytes */
};

/*
 * A folio of one page, locked while read_folio runs.  The ones
 * __filemap_get_folio() makes (kshim_refs > 0) stand for pages the driver
 * fills besides the one asked for; folio_put() checks and frees them.
 */
struct folio {
	struct page page;
	struct address_space *mapping;
	pgoff_t index;
	bool locked, uptodate, error;
	int kshim_refs;
};

static inline struct folio *page_folio(struct page *page)
{
	return (struct folio *)((char *)page - offsetof(struct folio, page));
}

static inline bool folio_test_uptodate(const struct folio *folio)
{
	return folio->uptodate;
}

void folio_put(struct folio *folio);

static inline void put_page(struct page *page)
{
	folio_put(page_folio(page));
}

#define FGP_LOCK	0x00000002
#define FGP_CREAT	0x00000004
#define FGP_NOWAIT	0x00000020

static inline gfp_t readahead_gfp_mask(struct address_space *mapping)
{
	return GFP_KERNEL;
}

/*
 * No page cache: every index is a new locked page (what FGP_CREAT gives
 * for a page nobody has), so each sibling the driver fills is checked.
 */
struct folio *__filemap_get_folio(struct address_space *mapping,
				  pgoff_t index, int fgp_flags, gfp_t gfp);

/* The harness does not call ->readahead: this aborts. */
struct readahead_control {
	struct address_space *mapping;
};
struct folio *readahead_folio(struct readahead_control *rac);

static inline void *kmap_local_page(struct page *page)
{
	return page->kshim_addr;
}

static inline void kunmap_local(const void *addr)
{
}

static inline void flush_dcache_page(struct page *page)
{
}

static inline void *kmap_local_folio(struct folio *folio, size_t offset)
{
	return (char *)folio->page.kshim_addr + offset;
}

static inline void flush_dcache_folio(struct folio *folio)
{
}

static inline void folio_mark_uptodate(struct folio *folio)
{
	folio->uptodate = true;
}

static inline void folio_set_error(struct folio *folio)
{
	folio->error = true;
}

void folio_unlock(struct folio *folio);

static inline void folio_end_read(struct folio *folio, bool success)
{
	if (success)
		folio_mark_uptodate(folio);
	folio_unlock(folio);
}

/* ---- mmap and faults (xip.c) -------------------------------------------- */

#define VM_READ		0x00000001UL
#define VM_WRITE	0x00000002UL
#define VM_EXEC		0x00000004UL
#define VM_SHARED	0x00000008UL
#define VM_MAYWRITE	0x00000020UL
#define VM_IO		0x00004000UL
#define VM_MIXEDMAP	0x10000000UL
#define VM_FAULT_NOPAGE	0x000100
#define VM_FAULT_RETRY	0x000400
#define PHYS_PFN(x)	((unsigned long)((x) >> PAGE_SHIFT))


/* asm/cacheflush.h: XIP pages are executed in place only in a kernel. */
static inline void flush_icache_range(unsigned long start, unsigned long end)
{
	(void)start;
	(void)end;
}


struct vm_operations_struct {
	vm_fault_t (*fault)(struct vm_fault *);
};

struct vm_area_struct {
	unsigned long vm_start, vm_end;
	unsigned long vm_flags;
	struct file *vm_file;
	const struct vm_operations_struct *vm_ops;
	/* What the last fault mapped: vmf_insert_mixed's pfn, or none. */
	bool kshim_inserted;
	u64 kshim_pfn;
};

struct vm_fault {
	struct vm_area_struct *vma;
	pgoff_t pgoff;
	unsigned long address;
};

vm_fault_t vmf_insert_mixed(struct vm_area_struct *vma, unsigned long addr,
			    unsigned long pfn);

static inline void vm_flags_set(struct vm_area_struct *vma, unsigned long flags)
{
	vma->vm_flags |= flags;
}

static inline void vm_flags_clear(struct vm_area_struct *vma, unsigned long flags)
{
	vma->vm_flags &= ~flags;
}

/*
 * The fuzzer's "physical" memory (user-space buffers) has no struct page,
 * as NOR flash has none: xip.c's check for lowmem pages finds none.
 */
static inline int pfn_valid(unsigned long pfn)
{
	(void)pfn;
	return 0;
}

static inline struct page *pfn_to_page(unsigned long pfn)
{
	(void)pfn;
	return NULL;
}

static inline bool PageHighMem(const struct page *page)
{
	(void)page;
	return false;
}
vm_fault_t filemap_fault(struct vm_fault *vmf);
int generic_file_readonly_mmap(struct file *file, struct vm_area_struct *vma);

/* ---- physical memory: "physical addresses" are user-space pointers ---- */

#define IORESOURCE_SYSTEM_RAM	0x01000200
#define IORES_DESC_NONE		0
#define REGION_DISJOINT		0
#define IORESOURCE_MEM		0x00000200

/* The fuzzer's physical memory is the image buffer, all of it described. */
struct resource {
	resource_size_t start, end;
};

static inline int walk_iomem_res_desc(unsigned long desc, unsigned long flags,
				      u64 start, u64 end, void *arg,
				      int (*func)(struct resource *, void *))
{
	struct resource res = { .start = start, .end = end };

	(void)desc;
	(void)flags;
	return func(&res, arg);
}
#define MEMREMAP_WB		1

static inline int region_intersects(resource_size_t start, size_t size,
				    unsigned long flags, unsigned long desc)
{
	return REGION_DISJOINT;
}

static inline void *memremap(resource_size_t offset, size_t size,
			     unsigned long flags)
{
	return (void *)(uintptr_t)offset;
}

static inline void memunmap(void *addr)
{
}

/* The fuzzer's memory is its own: every claim succeeds. */
static inline struct resource *request_mem_region(resource_size_t start,
						  resource_size_t n,
						  const char *name)
{
	static struct resource claimed;

	(void)start;
	(void)n;
	(void)name;
	return &claimed;
}

static inline void release_mem_region(resource_size_t start,
				      resource_size_t n)
{
}

/* ---- zlib: the kernel's API over user-space zlib (kzlib.c) ------------- */

#define MAX_WBITS	15
#define Z_NO_FLUSH	0
#define Z_SYNC_FLUSH	2
#define Z_FINISH	4
#define Z_OK		0
#define Z_STREAM_END	1
#define Z_NEED_DICT	2
#define Z_DATA_ERROR	(-3)
#define Z_MEM_ERROR	(-4)
#define Z_BUF_ERROR	(-5)

struct z_stream_s {
	const u8 *next_in;
	unsigned int avail_in;
	unsigned long total_in;
	u8 *next_out;
	unsigned int avail_out;
	unsigned long total_out;
	char *msg;
	void *workspace;	/* holds user-space zlib's z_stream */
};
typedef struct z_stream_s z_stream;

int zlib_inflate_workspacesize(void);
int zlib_inflateInit2(struct z_stream_s *strm, int window_bits);
int zlib_inflate(struct z_stream_s *strm, int flush);
int zlib_inflateEnd(struct z_stream_s *strm);

#endif /* KSHIM_H */
