// SPDX-License-Identifier: GPL-2.0-only
/*
 * super.c - mounting: options, choice of backend, superblock operations,
 * module init.
 *
 * The backend is chosen as the 2008 driver chose it:
 *   1. physaddr=ADDR        the image (or, with second_dev=, its first
 *                           mmap_size bytes) is in memory at ADDR;
 *   2. an MTD source        mtd:NAME, mtdN, /dev/mtdN, /dev/mtdblockN;
 *   3. anything else        a block device (get_tree_bdev).
 * second_dev=DEV (MTD name or block device path) holds the rest of a
 * dual-device image: image offset X >= mmap_size is byte X - mmap_size
 * of DEV.
 */
#include <linux/backing-dev.h>
#include <linux/blkdev.h>
#include <linux/build_bug.h>
#include <linux/fs.h>
#include <linux/fs_context.h>
#include <linux/fs_parser.h>
#include <linux/limits.h>
#include <linux/init.h>
#include <linux/kdev_t.h>
#include <linux/module.h>
#include <linux/mm.h>
#include <linux/mtd/mtd.h>
#include <linux/mtd/super.h>
#include <linux/security.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/statfs.h>
#include <linux/string.h>

#include "axfs.h"

/*
 * Image pages are page-cache pages and the pages of user mappings, one to
 * one: Kconfig has AXFS depend on PAGE_SIZE_4KB; out of tree (DKMS) a
 * kernel with 16 or 64 KiB pages stops here.
 */
static_assert(PAGE_SIZE == AXFS_PAGE_SIZE,
	      "AXFS needs a kernel with 4 KiB pages");

/* ---- options ------------------------------------------------------------ */

enum { Opt_physaddr, Opt_physsize, Opt_second_dev, Opt_profile,
	Opt_profile_mode };

/* profile=MODE: what the profiler counts from the mount on. */
static const struct constant_table axfs_param_profile[] = {
	{ "off",	AXFS_PROF_OFF },
	{ "on",		AXFS_PROF_MAPPED },
	{ "all",	AXFS_PROF_ALL },
	{}
};

static const struct fs_parameter_spec axfs_fs_parameters[] = {
	fsparam_string("physaddr", Opt_physaddr),
	fsparam_string("physsize", Opt_physsize),
	fsparam_string("second_dev", Opt_second_dev),
	fsparam_flag("profile", Opt_profile),
	fsparam_enum("profile", Opt_profile_mode, axfs_param_profile),
	{}
};

static int axfs_parse_param(struct fs_context *fc, struct fs_parameter *param)
{
	struct axfs_options *ctx = fc->fs_private;
	struct fs_parse_result result;
	unsigned long long v;
	char *end;
	int opt;

	/* Unknown keys: -ENOPARAM, and the VFS logs "Unknown parameter". */
	opt = fs_parse(fc, axfs_fs_parameters, param, &result);
	if (opt < 0)
		return opt;

	switch (opt) {
	case Opt_physaddr:
		if (kstrtoull(param->string, 0, &v) || !v)
			return invalfc(fc,
				       "physaddr=%s: expected a non-zero address such as 0x10000000",
				       param->string);
		if (v & ~PAGE_MASK)
			return invalfc(fc, "physaddr=0x%llx is not aligned to a page", v);
		/* 32-bit ARM without LPAE: phys_addr_t has 32 bits. */
		if (v > PHYS_ADDR_MAX)
			return invalfc(fc, "physaddr=0x%llx is beyond %zu-bit physical addresses",
				       v, sizeof(phys_addr_t) * 8);
		ctx->physaddr = v;
		break;
	case Opt_physsize:
		v = memparse(param->string, &end);
		if (*end || !v)
			return invalfc(fc, "physsize=%s: expected a size such as 64M",
				       param->string);
		ctx->physsize = v;
		break;
	case Opt_second_dev:
		if (!*param->string)
			return invalfc(fc, "second_dev= needs a device");
		kfree(ctx->second_dev);
		ctx->second_dev = param->string;
		param->string = NULL;
		break;
	case Opt_profile:
	case Opt_profile_mode:
		if (!IS_ENABLED(CONFIG_AXFS_PROFILING))
			return invalfc(fc, "profile: built without CONFIG_AXFS_PROFILING");
		ctx->profile = true;
		/* "profile" alone starts in "on", as the 2008 driver did. */
		ctx->profile_mode = opt == Opt_profile ? AXFS_PROF_MAPPED :
							 result.uint_32;
		break;
	}
	return 0;
}

/* ---- superblock operations --------------------------------------------- */

static int axfs_statfs(struct dentry *dentry, struct kstatfs *buf)
{
	struct super_block *sb = dentry->d_sb;
	struct axfs_sb_info *sbi = AXFS_SB(sb);
	u64 id = huge_encode_dev(sb->s_dev);

	buf->f_type = AXFS_MAGIC;
	buf->f_bsize = AXFS_PAGE_SIZE;
	buf->f_blocks = sbi->blocks;
	buf->f_bfree = 0;
	buf->f_bavail = 0;
	buf->f_files = sbi->files;
	buf->f_ffree = 0;
	buf->f_fsid = u64_to_fsid(id);
	buf->f_namelen = AXFS_MAXPATHLEN;
	return 0;
}

static int axfs_show_options(struct seq_file *m, struct dentry *root)
{
	struct axfs_sb_info *sbi = AXFS_SB(root->d_sb);

	if (sbi->opt.physaddr)
		seq_printf(m, ",physaddr=0x%llx", sbi->opt.physaddr);
	if (sbi->opt.physsize)
		seq_printf(m, ",physsize=%llu", sbi->opt.physsize);
	if (sbi->opt.second_dev)
		seq_show_option(m, "second_dev", sbi->opt.second_dev);
	if (sbi->opt.profile)
		seq_puts(m, ",profile");
	return 0;
}

/*
 * Appended to the mount's line in /proc/self/mountstats: the size of the
 * cblock cache and how many cblocks were inflated since the mount (what
 * bench/kernel/cblock-cache.sh and the kernel tests count).
 */
static int axfs_show_stats(struct seq_file *m, struct dentry *root)
{
	struct axfs_sb_info *sbi = AXFS_SB(root->d_sb);

	seq_printf(m, "cblock_cache=%u cblock_inflations=%lld",
		   sbi->cblock_entries,
		   (long long)atomic64_read(&sbi->cblocks_inflated));
	return 0;
}

static const struct super_operations axfs_sops = {
	.statfs		= axfs_statfs,
	.show_options	= axfs_show_options,
	.show_stats	= axfs_show_stats,
};

/* ---- mounting ------------------------------------------------------------ */

static int axfs_open_second(struct super_block *sb, struct axfs_sb_info *sbi)
{
	const char *name = sbi->opt.second_dev;
	int err;

	if (IS_ENABLED(CONFIG_AXFS_MTD) && axfs_is_mtd_name(name))
		err = axfs_mtd_open(&sbi->dev1, name);
	else
		err = axfs_bdev_open(&sbi->dev1, name, sb->s_type);
	if (err)
		axfs_err(sb, "cannot open second_dev=%s (%d)", name, err);
	return err;
}

/*
 * A physaddr= mount reads memory: no readahead, as MTD's shared bdi has
 * none.  Readahead hides no I/O there (a page is a copy or an inflate,
 * done in the reader's context either way; an inflate fills the file's
 * other pages in its cblock itself), and it would read around a fault
 * or a read() into pages that never needed the page cache: XIP pages,
 * which mmap() maps and read() copies straight from the image (xip.c),
 * and the pages of files nobody reads.
 */
static int axfs_setup_memory_bdi(struct super_block *sb)
{
	int err = super_setup_bdi(sb);

	if (err)
		return err;
	sb->s_bdi->ra_pages = 0;
	sb->s_bdi->io_pages = 0;
	return 0;
}

static int axfs_fill_super(struct super_block *sb, struct fs_context *fc)
{
	struct axfs_options *ctx = fc->fs_private;
	bool silent = fc->sb_flags & SB_SILENT;
	struct axfs_sb_info *sbi;
	struct inode *root;
	bool dual;
	int err;

	sbi = kzalloc_obj(*sbi);
	if (!sbi)
		return -ENOMEM;
	sb->s_fs_info = sbi;
	sbi->sb = sb;
	mutex_init(&sbi->cblock_lock);
	sbi->opt = *ctx;
	ctx->second_dev = NULL;		/* now owned by sbi */

	sb->s_flags |= SB_RDONLY | SB_NOATIME;
	sb->s_magic = AXFS_MAGIC;
	sb->s_op = &axfs_sops;
	sb->s_maxbytes = MAX_LFS_FILESIZE;
	sb->s_time_gran = NSEC_PER_SEC;
	if (!sb->s_bdev) {
		/* get_tree_bdev() sets the device's; the others set none. */
		sb->s_blocksize = PAGE_SIZE;
		sb->s_blocksize_bits = PAGE_SHIFT;
	}
	if (!sb->s_bdev && !sb->s_mtd) {
		err = axfs_setup_memory_bdi(sb);
		if (err)
			return err;
	}

	/*
	 * Messages name the mount by s_id, which only get_tree_bdev() sets
	 * (to the block device); the others leave the type's name, "axfs".
	 */
	if (sb->s_mtd) {
		sbi->dev0.mtd = sb->s_mtd;
		sbi->dev0.size = sb->s_mtd->size;
		snprintf(sb->s_id, sizeof(sb->s_id), "mtd%d", sb->s_mtd->index);
	} else if (sb->s_bdev) {
		sbi->dev0.bdev = sb->s_bdev;
		sbi->dev0.size = bdev_nr_bytes(sb->s_bdev);
	}
	if (ctx->physaddr)
		snprintf(sb->s_id, sizeof(sb->s_id), "physaddr=0x%llx",
			 ctx->physaddr);
	dual = sbi->opt.second_dev;
	if (dual) {
		err = axfs_open_second(sb, sbi);
		if (err)
			return err;
	}

	err = axfs_open_image(sb, silent);
	if (err)
		return err;

	root = axfs_iget(sb, 0);
	if (IS_ERR(root))
		return PTR_ERR(root);
	sb->s_root = d_make_root(root);
	if (!sb->s_root)
		return -ENOMEM;

	err = axfs_sysfs_add(sbi);
	if (err)
		axfs_warn(sb, "no counters in /sys/fs/axfs/%s (%d)", sb->s_id,
			  err);

	if (sbi->opt.profile) {
		err = axfs_profiling_start(sbi, sbi->opt.profile_mode);
		if (err)
			axfs_warn(sb, "profiling not available (%d)", err);
	}

	axfs_info(sb, "%s: %llu inodes, %llu nodes, %llu bytes%s%s%s",
		  fc->source ? fc->source : "memory", sbi->files, sbi->blocks,
		  sbi->size, sbi->virt ? ", mapped" : "",
		  sbi->xip_direct ? ", XIP to user space" : "",
		  dual ? ", two devices" : "");
	return 0;
}

static void axfs_free_sbi(struct axfs_sb_info *sbi)
{
	axfs_free_regions(sbi);
	axfs_physmem_unmap(sbi);
	if (IS_ENABLED(CONFIG_AXFS_MTD))
		axfs_mtd_close(&sbi->dev1);
	axfs_bdev_close(&sbi->dev1);
	axfs_cblock_exit(sbi);
	axfs_zlib_exit(sbi);
	kvfree(sbi->parent);
	kfree(sbi->opt.second_dev);
	kfree(sbi);
}

static void axfs_kill_sb(struct super_block *sb)
{
	struct axfs_sb_info *sbi = AXFS_SB(sb);

	/*
	 * No file is open any more.  Drop the counters' directory, the
	 * proc files (they read the tables) and the MTD mapping
	 * (kill_mtd_super() puts the MTD).
	 */
	if (sbi) {
		axfs_sysfs_del(sbi);
		axfs_profiling_stop(sbi);
		if (IS_ENABLED(CONFIG_AXFS_MTD))
			axfs_mtd_unpoint(sbi);
	}
	if (IS_ENABLED(CONFIG_AXFS_MTD) && sb->s_mtd)
		kill_mtd_super(sb);
	else if (sb->s_bdev)
		kill_block_super(sb);
	else
		kill_anon_super(sb);
	if (sbi)
		axfs_free_sbi(sbi);
}

/*
 * physaddr= reads and maps memory it names, as /dev/mem does: refused
 * where lockdown refuses /dev/mem ("integrity" and "confidentiality").
 */
static int axfs_physaddr_allowed(struct fs_context *fc)
{
	int err = security_locked_down(LOCKDOWN_DEV_MEM);

	if (err)
		errorfc(fc, "physaddr= reads physical memory, which the kernel lockdown forbids");
	return err;
}

static int axfs_get_tree(struct fs_context *fc)
{
	struct axfs_options *ctx = fc->fs_private;
	int err;

	if (ctx->physaddr) {
		err = axfs_physaddr_allowed(fc);
		return err ? err : get_tree_nodev(fc, axfs_fill_super);
	}
	if (ctx->physsize)
		return invalfc(fc, "physsize= needs physaddr=");
	if (!fc->source)
		return invalfc(fc, "no device given");
	if (IS_ENABLED(CONFIG_AXFS_MTD) && axfs_source_is_mtd(fc->source))
		return axfs_get_tree_mtd(fc, axfs_fill_super);
	return get_tree_bdev(fc, axfs_fill_super);
}

static int axfs_reconfigure(struct fs_context *fc)
{
	struct axfs_options *ctx = fc->fs_private;
	struct axfs_sb_info *sbi = AXFS_SB(fc->root->d_sb);

	if ((ctx->physaddr && ctx->physaddr != sbi->opt.physaddr) ||
	    (ctx->physsize && ctx->physsize != sbi->opt.physsize) ||
	    (ctx->second_dev && (!sbi->opt.second_dev ||
				 strcmp(ctx->second_dev, sbi->opt.second_dev))))
		return invalfc(fc, "physaddr=, physsize= and second_dev= cannot change on remount");
	if (ctx->profile && !sbi->profile)
		return invalfc(fc,
			       "profile starts at mount only; /proc/axfs/volumeN changes what it counts");
	sync_filesystem(fc->root->d_sb);
	fc->sb_flags |= SB_RDONLY;
	return 0;
}

static void axfs_free_fc(struct fs_context *fc)
{
	struct axfs_options *ctx = fc->fs_private;

	if (ctx)
		kfree(ctx->second_dev);
	kfree(ctx);
}

static const struct fs_context_operations axfs_context_ops = {
	.parse_param	= axfs_parse_param,
	.get_tree	= axfs_get_tree,
	.reconfigure	= axfs_reconfigure,
	.free		= axfs_free_fc,
};

static int axfs_init_fs_context(struct fs_context *fc)
{
	struct axfs_options *ctx;

	ctx = kzalloc_obj(*ctx);
	if (!ctx)
		return -ENOMEM;
	fc->fs_private = ctx;
	fc->ops = &axfs_context_ops;
	/* Read-only: the block device is opened without write access. */
	fc->sb_flags |= SB_RDONLY;
	return 0;
}

static struct file_system_type axfs_fs_type = {
	.owner			= THIS_MODULE,
	.name			= "axfs",
	.init_fs_context	= axfs_init_fs_context,
	.parameters		= axfs_fs_parameters,
	.kill_sb		= axfs_kill_sb,
	.fs_flags		= FS_REQUIRES_DEV,
};
MODULE_ALIAS_FS("axfs");

static int __init axfs_init(void)
{
	int err;

	err = axfs_profiling_module_init();
	if (err)
		return err;
	err = axfs_sysfs_module_init();
	if (err)
		goto fail_sysfs;
	err = register_filesystem(&axfs_fs_type);
	if (err)
		goto fail_register;
	return 0;
fail_register:
	axfs_sysfs_module_exit();
fail_sysfs:
	axfs_profiling_module_exit();
	return err;
}

static void __exit axfs_exit(void)
{
	unregister_filesystem(&axfs_fs_type);
	axfs_sysfs_module_exit();
	axfs_profiling_module_exit();
}

module_init(axfs_init);
module_exit(axfs_exit);

MODULE_DESCRIPTION("Advanced XIP File System (AXFS): read-only, compressed, execute-in-place");
MODULE_AUTHOR("axfs-tools developers");
MODULE_LICENSE("GPL");
