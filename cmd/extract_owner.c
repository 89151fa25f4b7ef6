// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cmd/extract_owner.c - axfs extract IMAGE DIR: the owners, modes and
 * times entries get, and the messages that name DIR/path.
 *
 * No metadata call on a name we created may follow a symbolic link (the
 * hostile input rules of libaxfsimg/README.md): DIR may be writable by
 * someone else, who can swap what we just created for a symlink to any
 * file.  So owners, modes and times are set through a descriptor opened
 * with O_NOFOLLOW (regular files, directories), or by calls that never
 * follow (symlinks, device nodes, FIFOs, sockets:
 * extract_set_node_meta()).
 * Owners need root; without root, modes lose 06000 and the umask's bits
 * unless -p is given, as GNU tar does.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common.h"
#include "extract_tree.h"

/*
 * The permission bits a file gets: as in the image as root or with -p;
 * otherwise without set-user-ID/set-group-ID and the umask's bits, as
 * GNU tar and unsquashfs do for an ordinary user (a -rwsrwsrwx file owned
 * by whoever extracts is nobody's wish).
 */
mode_t extract_final_mode(const struct extract *x, uint32_t mode)
{
	mode_t m = mode & 07777;

	if (!x->as_root && !x->same_perms)
		m &= ~(mode_t)(06000 | x->user_mask);
	return m;
}

/* Messages name DIR/path. */
int extract_fail(struct extract *x, int e, const char *what,
		 const char *path)
{
	cmd_error("cannot %s '%s%s': %s", what, x->dir,
		  strcmp(path, "/") ? path : "", strerror(e));
	return -1;
}

/*
 * Owner, set-user-ID bits and time of the symlink, device node, FIFO or
 * socket we just created at pfd/name, none of which can be opened for
 * fchown()/fchmod(), without a call that follows a symlink (the hostile
 * input rules, libaxfsimg/README.md).  Whoever can write to DIR may have
 * swapped the entry for a symlink to any file, or a hard link to one.
 *
 * As root, the entry is opened O_PATH|O_NOFOLLOW (a symlink is opened as
 * itself) and checked to be what we made: its type, a single link.  The
 * owner is set on that descriptor (fchownat AT_EMPTY_PATH, which changes
 * a symlink itself), and so are the 06000 bits chown clears, through
 * /proc/self/fd/N, which reaches the opened inode and no other (without
 * /proc that fails: a mode is never set by name).  The other permission
 * bits were given at mknodat() (umask 0), so no other mode call is
 * needed.  Without root nothing but the time is set, with
 * AT_SYMLINK_NOFOLLOW, which never follows.
 */
int extract_set_node_meta(struct extract *x, int pfd, const char *name,
			  const struct axfs_inode_info *in, mode_t perm,
			  const char *path)
{
	char proc[64];
	struct stat st;
	int fd;

	if (!x->as_root) {
		if (in->uid != geteuid() || in->gid != getegid())
			x->not_owned++;
	} else {
		fd = openat(pfd, name, O_PATH | O_NOFOLLOW | O_CLOEXEC);
		if (fd < 0)
			return extract_fail(x, errno, "open", path);
		if (fstat(fd, &st) < 0) {
			close(fd);
			return extract_fail(x, errno, "inspect", path);
		}
		if ((st.st_mode & S_IFMT) != (in->mode & S_IFMT) ||
		    st.st_nlink != 1) {
			close(fd);
			cmd_error("'%s%s' was replaced while it was extracted "
				  "(another user writing to '%s'?): left as "
				  "it is", x->dir, path, x->dir);
			return -1;
		}
		if (fchownat(fd, "", in->uid, in->gid, AT_EMPTY_PATH) < 0) {
			close(fd);
			return extract_fail(x, errno, "change the owner of",
					    path);
		}
		snprintf(proc, sizeof(proc), "/proc/self/fd/%d", fd);
		if ((perm & 06000) && chmod(proc, perm) < 0) {
			close(fd);
			return extract_fail(x, errno, "change the mode of",
					    path);
		}
		close(fd);
	}
	if (utimensat(pfd, name, x->times, AT_SYMLINK_NOFOLLOW) < 0)
		return extract_fail(x, errno, "set the time of", path);
	return 0;
}
