/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What kernel/probes/probe.sh would say of the shim (kshim.h): it has
 * the newest form of every interface the files it compiles use, so
 * compat.h adds nothing to them.  Block devices are opened in bdev.c,
 * which the fuzz target does not compile; mapping goes through ->mmap,
 * which the harness calls, not ->mmap_prepare.
 */
#define AXFS_HAVE_PROBES 1
#define AXFS_HAVE_BDEV_NR_BYTES 1
#define AXFS_HAVE_BIO_ALLOC_BDEV 1
#define AXFS_HAVE_FILEMAP_SPLICE_READ 1
#define AXFS_HAVE_FOLIO 1
#define AXFS_HAVE_FOLIO_END_READ 1
#define AXFS_HAVE_INODE_SET_CTIME_TO_TS 1
#define AXFS_HAVE_INODE_SET_MTIME_TO_TS 1
#define AXFS_HAVE_INODE_STATE_READ_ONCE 1
#define AXFS_HAVE_KMAP_LOCAL 1
#define AXFS_HAVE_LOOKUP_BDEV_DEV 1
#define AXFS_HAVE_PDE_DATA 1
#define AXFS_HAVE_READ_FOLIO 1
#define AXFS_HAVE_READAHEAD_FOLIO 1
#define AXFS_HAVE_VM_FLAGS_SET 1
#define AXFS_HAVE_VMF_INSERT_MIXED_PFN 1
