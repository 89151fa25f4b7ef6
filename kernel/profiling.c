// SPDX-License-Identifier: GPL-2.0-only
/*
 * profiling.c - which pages of which files are faulted in, per mount.
 *
 * A mount with the option `profile` (or profile=on, profile=all,
 * profile=off: the mode it starts in; `profile` alone is "on", as the
 * 2008 driver started) gets /proc/axfs/volumeN (N: the lowest free
 * number, so a lone mount is volume0); a mount without it has no file
 * and counts nothing.  Reading it prints one line per node with a
 * non-zero count, in node order, in the 2008 driver's format:
 *
 *	./dir/sub/name,OFFSET,COUNT
 *
 * OFFSET is the byte offset of the page in the file (a multiple of 4096)
 * and COUNT the number of times it was used (xip.c says which count).
 * Writing "on" counts the faults of mappings that are not writable, as
 * the 2008 driver did.  "all" counts every page a program uses: faults of
 * writable private mappings too, and the pages read() copies out; for
 * images mounted from memory, where XIP pages serve read() and the copy
 * on a write fault straight from the image (xip.c), so that what a
 * program reads or writes rather than runs costs no page cache either,
 * as on DAX.  "off" stops and "clear" zeroes the counting.  axfs mkfs -p
 * reads this output back to choose the pages to store XIP.
 *
 * Beside it, /proc/axfs/volumeN.order prints "# axfs-profile order" and
 * then the same lines with a fourth field, FIRST: the rank of the node's
 * first use since the mount or the last "clear" (1 for the first page
 * used, 2 for the next new one, ...), for every node with a rank, in
 * node order.  A node is ranked at its first use through the profiler's
 * hooks in xip.c, whatever the mode counts, but not while the mode is
 * "off": a fault on its page in any mapping (XIP or page cache, read or
 * write), or read(), splice or sendfile copying its bytes out.  Filling
 * the page cache is no use: the pages readahead, an inflate's siblings
 * or the driver's readahead bring in are ranked only if a program uses
 * them, and then when it does, so the ranks do not depend on the
 * image's cblock size nor on the medium's readahead windows.  Nor are
 * symbolic links' pages ranked (the page cache reads them for the VFS,
 * mkfs -p does not place them).  A rank never changes until "clear".
 * axfs mkfs -p packs the compressed pages of a boot in that order.
 *
 * A rank costs a u32 beside the count and is given without a lock: the
 * node is claimed with cmpxchg(), then numbered from an atomic counter,
 * so ranks are unique and, once the counting is quiet, run 1..N.
 *
 * The files name every file used and when other users' programs fault
 * their pages: they are root's alone (mode 0600, and writing needs
 * CAP_SYS_ADMIN in the initial user namespace, so a container's root
 * cannot steer it), and exist only where the mount asked for them.
 */
#include <linux/atomic.h>
#include <linux/capability.h>
#include <linux/idr.h>
#include <linux/proc_fs.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uaccess.h>
#include <linux/user_namespace.h>

#include "axfs.h"

#define AXFS_PROC_DIR "axfs"
/* Deepest directory nesting printed in a path (PATH_MAX / 2). */
#define AXFS_PATH_DEPTH_MAX 2048

/* axfs_profile_entry.first while its rank is being given. */
#define AXFS_RANK_CLAIMED	U32_MAX
#define AXFS_ORDER_HEADER	"# axfs-profile order\n"

struct axfs_profile_entry {
	atomic_long_t count;
	u32 ino;		/* the inode that last used this node */
	u32 first;		/* rank of its first use; 0: none yet */
};

struct axfs_profile {
	struct axfs_sb_info *sbi;
	struct proc_dir_entry *pde;
	struct proc_dir_entry *order_pde;	/* volumeN.order */
	int id;
	enum axfs_prof_mode mode;
	atomic_t ranks;		/* ranks given since the mount or "clear" */
	u64 nodes;
	struct axfs_profile_entry *data;
};

static struct proc_dir_entry *axfs_proc_dir;
static DEFINE_IDA(axfs_volume_ida);

/*
 * Give e its rank if it has none: claim it (0 -> AXFS_RANK_CLAIMED), so
 * that one racer alone takes a number, then publish the number after the
 * inode that names it.
 */
static void axfs_prof_rank(struct axfs_profile *p,
			   struct axfs_profile_entry *e, u64 ino)
{
	if (READ_ONCE(e->first) || cmpxchg(&e->first, 0, AXFS_RANK_CLAIMED))
		return;
	WRITE_ONCE(e->ino, (u32)ino);
	/* Pairs with axfs_prof_first(): a reader of the rank sees ino. */
	smp_store_release(&e->first, (u32)atomic_inc_return(&p->ranks));
}

/*
 * A use of node (of inode ino): ranked unless profiling is off, counted
 * if the mode counts that kind of use.
 */
void axfs_profiling_add(struct axfs_sb_info *sbi, u64 node, u64 ino,
			enum axfs_prof_mode use)
{
	struct axfs_profile *p = sbi->profile;
	enum axfs_prof_mode mode;

	if (!p || node >= p->nodes)
		return;
	mode = READ_ONCE(p->mode);
	if (mode == AXFS_PROF_OFF)
		return;
	axfs_prof_rank(p, &p->data[node], ino);
	if (mode < use)
		return;
	WRITE_ONCE(p->data[node].ino, (u32)ino);
	atomic_long_inc(&p->data[node].count);
}

/* Whether uses are ranked: read() then goes through the hooks. */
bool axfs_profiling_on(const struct axfs_sb_info *sbi)
{
	const struct axfs_profile *p = sbi->profile;

	return p && READ_ONCE(p->mode) != AXFS_PROF_OFF;
}

/* ---- reading: seq_file over the nodes with a count ---------------------- */

/* The rank of e, 0 if it has none (or it is being given). */
static u32 axfs_prof_first(const struct axfs_profile_entry *e)
{
	/* Pairs with axfs_prof_rank(): ino is read after the rank. */
	u32 first = smp_load_acquire(&e->first);

	return first == AXFS_RANK_CLAIMED ? 0 : first;
}

static void *axfs_prof_find(struct axfs_profile *p, loff_t *pos)
{
	for (; *pos >= 0 && *pos < p->nodes; (*pos)++)
		if (atomic_long_read(&p->data[*pos].count))
			return &p->data[*pos];
	return NULL;
}

/* volumeN.order: position 0 is the header, node k is position k + 1. */
static void *axfs_order_find(struct axfs_profile *p, loff_t *pos)
{
	for (; *pos >= 1 && *pos - 1 < p->nodes; (*pos)++)
		if (axfs_prof_first(&p->data[*pos - 1]))
			return &p->data[*pos - 1];
	return NULL;
}

static void *axfs_prof_start(struct seq_file *m, loff_t *pos)
{
	return axfs_prof_find(m->private, pos);
}

static void *axfs_prof_next(struct seq_file *m, void *v, loff_t *pos)
{
	(*pos)++;
	return axfs_prof_find(m->private, pos);
}

static void axfs_prof_stop(struct seq_file *m, void *v)
{
}

static void *axfs_order_start(struct seq_file *m, loff_t *pos)
{
	if (!*pos)
		return SEQ_START_TOKEN;
	return axfs_order_find(m->private, pos);
}

static void *axfs_order_next(struct seq_file *m, void *v, loff_t *pos)
{
	(*pos)++;
	return axfs_order_find(m->private, pos);
}

/* The ancestor `up` levels above ino (up = 1: its directory). */
static u64 axfs_ancestor(const struct axfs_sb_info *sbi, u64 ino,
			 unsigned int up)
{
	while (up-- && ino < sbi->files && sbi->parent[ino] != U32_MAX)
		ino = sbi->parent[ino];
	return ino;
}

/* Print "./a/b/" for the directories between the root and ino. */
static void axfs_print_dirs(struct seq_file *m, const struct axfs_sb_info *sbi,
			    u64 ino)
{
	unsigned int depth = 0, k;
	u64 d = ino;

	/* Number of directories strictly between the root and ino. */
	while (d < sbi->files && sbi->parent[d] != U32_MAX &&
	       sbi->parent[d] != 0 && depth < AXFS_PATH_DEPTH_MAX) {
		d = sbi->parent[d];
		depth++;
	}
	seq_puts(m, "./");
	for (k = depth; k >= 1; k--) {
		unsigned int len;
		const char *name = axfs_inode_name(sbi,
						   axfs_ancestor(sbi, ino, k),
						   &len);

		if (name)
			seq_printf(m, "%s/", name);
	}
}

/*
 * "./path,OFFSET,COUNT" for entry e, then ",FIRST" in the ordered view;
 * nothing for a node no inode names.
 */
static void axfs_prof_line(struct seq_file *m, struct axfs_profile *p,
			   struct axfs_profile_entry *e, bool order)
{
	struct axfs_sb_info *sbi = p->sbi;
	u64 node = e - p->data;
	u32 first = order ? axfs_prof_first(e) : 0;
	u64 ino = READ_ONCE(e->ino);
	unsigned int len;
	const char *name;
	u64 start;

	name = axfs_inode_name(sbi, ino, &len);
	if (!name ||
	    axfs_table_get(sbi, AXFS_R_INODE_ARRAY_INDEX, ino, &start) ||
	    start > node)
		return;
	axfs_print_dirs(m, sbi, ino);
	seq_printf(m, "%s,%llu,%lu", name, (node - start) * AXFS_PAGE_SIZE,
		   atomic_long_read(&e->count));
	if (order)
		seq_printf(m, ",%u", first);
	seq_putc(m, '\n');
}

static int axfs_prof_show(struct seq_file *m, void *v)
{
	axfs_prof_line(m, m->private, v, false);
	return 0;
}

static int axfs_order_show(struct seq_file *m, void *v)
{
	if (v == SEQ_START_TOKEN)
		seq_puts(m, AXFS_ORDER_HEADER);
	else
		axfs_prof_line(m, m->private, v, true);
	return 0;
}

static const struct seq_operations axfs_prof_seq_ops = {
	.start	= axfs_prof_start,
	.next	= axfs_prof_next,
	.stop	= axfs_prof_stop,
	.show	= axfs_prof_show,
};

static const struct seq_operations axfs_order_seq_ops = {
	.start	= axfs_order_start,
	.next	= axfs_order_next,
	.stop	= axfs_prof_stop,
	.show	= axfs_order_show,
};

static int axfs_prof_seq_open(struct inode *inode, struct file *file,
			      const struct seq_operations *ops)
{
	int err = seq_open(file, ops);

	if (!err)
		((struct seq_file *)file->private_data)->private =
			pde_data(inode);
	return err;
}

static int axfs_prof_open(struct inode *inode, struct file *file)
{
	return axfs_prof_seq_open(inode, file, &axfs_prof_seq_ops);
}

static int axfs_order_open(struct inode *inode, struct file *file)
{
	return axfs_prof_seq_open(inode, file, &axfs_order_seq_ops);
}

/* ---- writing: on / all / off / clear ----------------------------------- */

static ssize_t axfs_prof_write(struct file *file, const char __user *ubuf,
			       size_t count, loff_t *ppos)
{
	struct axfs_profile *p = ((struct seq_file *)file->private_data)->private;
	char buf[8] = "";
	size_t n = min(count, sizeof(buf) - 1);
	u64 i;

	/* The opener's credentials, as for any file whose mode decides. */
	if (!file_ns_capable(file, &init_user_ns, CAP_SYS_ADMIN))
		return -EPERM;
	if (copy_from_user(buf, ubuf, n))
		return -EFAULT;
	buf[n] = '\0';
	strim(buf);

	if (!strcmp(buf, "on")) {
		WRITE_ONCE(p->mode, AXFS_PROF_MAPPED);
	} else if (!strcmp(buf, "all")) {
		WRITE_ONCE(p->mode, AXFS_PROF_ALL);
	} else if (!strcmp(buf, "off")) {
		WRITE_ONCE(p->mode, AXFS_PROF_OFF);
	} else if (!strcmp(buf, "clear")) {
		/*
		 * The numbers first: a node ranked while the entries are
		 * zeroed may leave a gap in the ranks, never a duplicate.
		 */
		atomic_set(&p->ranks, 0);
		for (i = 0; i < p->nodes; i++) {
			atomic_long_set(&p->data[i].count, 0);
			WRITE_ONCE(p->data[i].first, 0);
		}
	} else {
		axfs_info(p->sbi->sb, "unknown profiling command; write \"on\", \"all\", \"off\" or \"clear\"");
		return -EINVAL;
	}
	return count;
}

static const struct proc_ops axfs_prof_proc_ops = {
	.proc_open	= axfs_prof_open,
	.proc_read	= seq_read,
	.proc_write	= axfs_prof_write,
	.proc_lseek	= seq_lseek,
	.proc_release	= seq_release,
};

/* volumeN.order takes the same commands as volumeN. */
static const struct proc_ops axfs_order_proc_ops = {
	.proc_open	= axfs_order_open,
	.proc_read	= seq_read,
	.proc_write	= axfs_prof_write,
	.proc_lseek	= seq_lseek,
	.proc_release	= seq_release,
};

/* ---- per mount --------------------------------------------------------- */

int axfs_profiling_start(struct axfs_sb_info *sbi, int mode)
{
	struct axfs_profile *p;
	char name[32];
	int err = -ENOMEM;

	if (!sbi->blocks || !axfs_proc_dir || !sbi->parent)
		return 0;	/* nothing to count, as in the 2008 driver */
	/* Ranks are positive ints below AXFS_RANK_CLAIMED. */
	if (sbi->blocks > INT_MAX)
		return -EFBIG;

	p = kzalloc_obj(*p, GFP_KERNEL);
	if (!p)
		return -ENOMEM;
	p->sbi = sbi;
	p->nodes = sbi->blocks;
	p->mode = mode;
	p->data = kvcalloc(p->nodes, sizeof(*p->data),
			   GFP_KERNEL | __GFP_NOWARN | __GFP_RETRY_MAYFAIL);
	if (!p->data)
		goto fail;
	p->id = ida_alloc(&axfs_volume_ida, GFP_KERNEL);
	if (p->id < 0) {
		err = p->id;
		goto fail;
	}
	snprintf(name, sizeof(name), "volume%d", p->id);
	/* Publish before the proc file can be opened or faults counted. */
	sbi->profile = p;
	p->pde = proc_create_data(name, 0600, axfs_proc_dir,
				  &axfs_prof_proc_ops, p);
	strlcat(name, ".order", sizeof(name));
	if (p->pde)
		p->order_pde = proc_create_data(name, 0600, axfs_proc_dir,
						&axfs_order_proc_ops, p);
	if (!p->order_pde) {
		proc_remove(p->pde);
		sbi->profile = NULL;
		ida_free(&axfs_volume_ida, p->id);
		goto fail;
	}
	return 0;
fail:
	kvfree(p->data);
	kfree(p);
	return err;
}

void axfs_profiling_stop(struct axfs_sb_info *sbi)
{
	struct axfs_profile *p = sbi->profile;

	if (!p)
		return;
	/* Each waits for its readers and writers. */
	proc_remove(p->order_pde);
	proc_remove(p->pde);
	sbi->profile = NULL;
	ida_free(&axfs_volume_ida, p->id);
	kvfree(p->data);
	kfree(p);
}

int axfs_profiling_module_init(void)
{
	axfs_proc_dir = proc_mkdir(AXFS_PROC_DIR, NULL);
	if (!axfs_proc_dir)
		pr_warn("axfs: cannot create /proc/%s; profiling disabled\n",
			AXFS_PROC_DIR);
	return 0;
}

void axfs_profiling_module_exit(void)
{
	proc_remove(axfs_proc_dir);
	axfs_proc_dir = NULL;
}
