/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cmd/listing.h - how inodes of an image are shown to people, the same in
 * dump --inodes and ls: the ls -l mode string, the type names of --json,
 * and names with their non-printable bytes escaped.
 */
#ifndef CMD_LISTING_H
#define CMD_LISTING_H

#include <stdint.h>

/* "drwxr-xr-x", as ls -l prints it. */
void cmd_mode_string(uint32_t mode, char s[11]);
/* "reg", "dir", "lnk", "chr", "blk", "fifo", "sock" or "unknown". */
const char *cmd_type_name(uint32_t mode);
/* "root/root" on standard output, as ls -l and unsquashfs -ll show an
 * owner: the names the host's passwd and group databases give uid and gid,
 * each as its number where there is none or numeric is set. */
void cmd_put_owner(uint32_t uid, uint32_t gid, int numeric);
/* A path or name on standard output: control characters, DEL and '\\'
 * as \NNN (octal), the rest as is. */
void cmd_put_name(const char *s);

#endif
