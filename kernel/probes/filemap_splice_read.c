// SPDX-License-Identifier: GPL-2.0-only
/* 6.5: filemap_splice_read() */
#include <linux/fs.h>

const struct file_operations axfs_probe_fops = { .splice_read = filemap_splice_read };
