// SPDX-License-Identifier: GPL-2.0-only
/*
 * sysfs.c - per-mount counters in /sys/fs/axfs/<s_id>/.
 *
 * Every mount gets a directory named after its superblock (vda, loop0,
 * mtd3, physaddr=0x10000000) with read-only decimal files, counted since
 * the mount:
 *
 *	cblocks_inflated	cblocks decompressed (a cache hit is not one)
 *	device_bytes_read	bytes read from the devices holding the image,
 *				or, for an image in memory, copied from it
 *				for inflation and page-cache fills
 *	readahead_cblocks	cblocks inflated from compressed bytes that
 *				the readahead brought in with an earlier
 *				cblock (file.c): no device request of their own
 *
 * A kobject per superblock, as erofs, f2fs and ext4 have; it lives in
 * axfs_sb_info, which unmount frees only once sysfs has let it go.
 */
#include <linux/completion.h>
#include <linux/kobject.h>
#include <linux/sysfs.h>

#include "axfs.h"

static struct kset *axfs_kset;

static struct axfs_sb_info *axfs_kobj_sbi(struct kobject *kobj)
{
	return container_of(kobj, struct axfs_sb_info, kobj);
}

static ssize_t axfs_counter_show(char *buf, atomic64_t *counter)
{
	return sysfs_emit(buf, "%lld\n", (long long)atomic64_read(counter));
}

static ssize_t cblocks_inflated_show(struct kobject *kobj,
				     struct kobj_attribute *attr, char *buf)
{
	return axfs_counter_show(buf, &axfs_kobj_sbi(kobj)->cblocks_inflated);
}

static ssize_t device_bytes_read_show(struct kobject *kobj,
				      struct kobj_attribute *attr, char *buf)
{
	return axfs_counter_show(buf, &axfs_kobj_sbi(kobj)->device_bytes_read);
}

static ssize_t readahead_cblocks_show(struct kobject *kobj,
				      struct kobj_attribute *attr, char *buf)
{
	return axfs_counter_show(buf, &axfs_kobj_sbi(kobj)->readahead_cblocks);
}

static struct kobj_attribute axfs_attr_cblocks_inflated =
	__ATTR_RO(cblocks_inflated);
static struct kobj_attribute axfs_attr_device_bytes_read =
	__ATTR_RO(device_bytes_read);
static struct kobj_attribute axfs_attr_readahead_cblocks =
	__ATTR_RO(readahead_cblocks);

static struct attribute *axfs_sb_attrs[] = {
	&axfs_attr_cblocks_inflated.attr,
	&axfs_attr_device_bytes_read.attr,
	&axfs_attr_readahead_cblocks.attr,
	NULL,
};
ATTRIBUTE_GROUPS(axfs_sb);

static void axfs_sb_release(struct kobject *kobj)
{
	complete(&axfs_kobj_sbi(kobj)->kobj_released);
}

static const struct kobj_type axfs_sb_ktype = {
	.sysfs_ops	= &kobj_sysfs_ops,
	.default_groups	= axfs_sb_groups,
	.release	= axfs_sb_release,
};

/*
 * The mount's directory.  Not having it (no /sys/fs/axfs, a name taken)
 * costs the counters only: the caller warns and mounts.
 */
int axfs_sysfs_add(struct axfs_sb_info *sbi)
{
	int err;

	if (!axfs_kset)
		return -ENOENT;
	init_completion(&sbi->kobj_released);
	sbi->kobj.kset = axfs_kset;
	err = kobject_init_and_add(&sbi->kobj, &axfs_sb_ktype, NULL, "%s",
				   sbi->sb->s_id);
	if (err) {
		kobject_put(&sbi->kobj);
		wait_for_completion(&sbi->kobj_released);
		return err;
	}
	sbi->kobj_added = true;
	return 0;
}

/* Remove the directory and wait until no reader holds the kobject. */
void axfs_sysfs_del(struct axfs_sb_info *sbi)
{
	if (!sbi->kobj_added)
		return;
	kobject_del(&sbi->kobj);
	kobject_put(&sbi->kobj);
	wait_for_completion(&sbi->kobj_released);
	sbi->kobj_added = false;
}

int axfs_sysfs_module_init(void)
{
	axfs_kset = kset_create_and_add("axfs", NULL, fs_kobj);
	if (!axfs_kset)
		pr_warn("axfs: cannot create /sys/fs/axfs; no per-mount counters\n");
	return 0;
}

void axfs_sysfs_module_exit(void)
{
	kset_unregister(axfs_kset);
	axfs_kset = NULL;
}
