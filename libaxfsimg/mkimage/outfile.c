// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * outfile.c - atomic output files (internal/outfile.h).  Where the filesystem
 * allows it the file is an unnamed O_TMPFILE in the output's directory,
 * given a name (linkat through /proc/self/fd) and renamed over the output
 * only when complete: nothing is left behind whatever ends the process,
 * SIGKILL and SIGPIPE included.  Elsewhere (no O_TMPFILE, no /proc) it is
 * written under a temporary name beside the output, renamed when complete,
 * removed on failure or when a caught signal ends the process.
 *
 * The hostile input rule for names we create (README.md): the temporary
 * file is made with O_TMPFILE or mkostemp() (O_EXCL: a new file, never
 * through a symlink), its mode is set with fchmod() on that descriptor,
 * and rename() replaces whatever is at the output's name, a symlink
 * included, without following it.
 *
 * "-" is standard output: the writer seeks, so the output is an unlinked
 * temporary file in $TMPDIR copied to standard output when complete
 * (nothing of a failed build reaches it, and no file is left behind by
 * any signal).
 */
#include "outfile.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/*
 * Temporary files still to be removed if a signal ends the process.  The
 * paths live in static storage that is never freed, so the handler can
 * read them at any moment; a slot's path is complete before its in_use
 * flag is set, and the flag is cleared before the slot is reused.
 */
#define OUTFILE_SLOTS 16
static char outfile_paths[OUTFILE_SLOTS][PATH_MAX];
static volatile sig_atomic_t outfile_in_use[OUTFILE_SLOTS];
static pthread_mutex_t outfile_lock = PTHREAD_MUTEX_INITIALIZER;

static int outfile_register(const char *path)
{
	int slot = -1;

	if (strlen(path) >= PATH_MAX)
		return -1;
	pthread_mutex_lock(&outfile_lock);
	for (int i = 0; i < OUTFILE_SLOTS; i++) {
		if (!outfile_in_use[i]) {
			strcpy(outfile_paths[i], path);
			outfile_in_use[i] = 1;
			slot = i;
			break;
		}
	}
	pthread_mutex_unlock(&outfile_lock);
	return slot;
}

static void outfile_unregister(const char *path)
{
	pthread_mutex_lock(&outfile_lock);
	for (int i = 0; i < OUTFILE_SLOTS; i++) {
		if (outfile_in_use[i] && strcmp(outfile_paths[i], path) == 0) {
			outfile_in_use[i] = 0;
			break;
		}
	}
	pthread_mutex_unlock(&outfile_lock);
}

void outfile_abort_all_signal_safe(void)
{
	for (int i = 0; i < OUTFILE_SLOTS; i++)
		if (outfile_in_use[i])
			unlink(outfile_paths[i]);
}

/* "-": an unlinked file in $TMPDIR (O_TMPFILE where the file system
 * has it), copied to standard output by outfile_commit(). */
static int outfile_open_stdout(struct outfile *of,
			       struct axfs_error *err)
{
	const char *dir = getenv("TMPDIR");
	char *tmpl;
	int fd;

	if (!dir || !*dir)
		dir = "/tmp";
	of->final_path = strdup("-");
	if (!of->final_path)
		return axfs_error_set(err, AXFS_ERR_NOMEM, "out of memory");
	fd = open(dir, O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
	if (fd < 0) {
		tmpl = malloc(strlen(dir) + sizeof("/axfs-out.XXXXXX"));
		if (!tmpl) {
			outfile_abort(of);
			return axfs_error_set(err, AXFS_ERR_NOMEM,
					      "out of memory");
		}
		sprintf(tmpl, "%s/axfs-out.XXXXXX", dir);
		fd = mkostemp(tmpl, O_CLOEXEC);
		if (fd >= 0)
			unlink(tmpl);
		free(tmpl);
	}
	if (fd < 0) {
		int rc = axfs_error_sys(err, errno, "cannot create a "
					"temporary file in '%s' (TMPDIR) for "
					"standard output", dir);

		outfile_abort(of);
		return rc;
	}
	of->fd = fd;
	return 0;
}

/* Copies the finished temporary file to standard output. */
static int outfile_commit_stdout(struct outfile *of,
				 struct axfs_error *err)
{
	static uint8_t buf[1 << 16];
	off_t pos = 0;

	for (;;) {
		ssize_t n = pread(of->fd, buf, sizeof(buf), pos), done = 0;

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return axfs_error_sys(err, errno, "cannot read back the "
					      "image for standard output");
		if (n == 0)
			break;
		while (done < n) {
			ssize_t w = write(STDOUT_FILENO, buf + done,
					  (size_t)(n - done));

			if (w < 0 && errno == EINTR)
				continue;
			if (w < 0)
				return axfs_error_sys(err, errno, "cannot write "
						      "the image to standard "
						      "output");
			done += w;
		}
		pos += n;
	}
	close(of->fd);
	of->fd = -1;
	free(of->final_path);
	of->final_path = NULL;
	return 0;
}

int outfile_open(struct outfile *of, const char *path,
		 struct axfs_error *err)
{
	struct stat st;
	const char *slash, *base;
	size_t dirlen;
	sigset_t block, old;
	mode_t mask;
	int fd, saved, rc;

	of->final_path = NULL;
	of->tmp_path = NULL;
	of->fd = -1;
	of->unnamed = 0;
	if (!path || !*path)
		return axfs_error_set(err, AXFS_ERR_INVALID,
				      "no output file given");
	if (strcmp(path, "-") == 0)
		return outfile_open_stdout(of, err);
	if (stat(path, &st) == 0) {
		if (S_ISDIR(st.st_mode))
			return axfs_error_set(err, AXFS_ERR_INVALID,
					      "cannot write '%s': it is a directory",
					      path);
		if (!S_ISREG(st.st_mode))
			return axfs_error_set(err, AXFS_ERR_INVALID,
				"cannot write '%s': it is not a regular file "
				"(write the image to a file, then copy it)",
				path);
	}
	slash = strrchr(path, '/');
	base = slash ? slash + 1 : path;
	dirlen = slash ? (size_t)(slash - path) + 1 : 0;
	if (!*base)
		return axfs_error_set(err, AXFS_ERR_INVALID,
				      "cannot write '%s': it is a directory",
				      path);
	of->final_path = strdup(path);
	of->tmp_path = malloc(dirlen + strlen(base) + 9);
	if (!of->final_path || !of->tmp_path) {
		outfile_abort(of);
		return axfs_error_set(err, AXFS_ERR_NOMEM, "out of memory");
	}
	/* ".NAME.XXXXXX" in the output's directory: same filesystem, so
	 * rename() is atomic, and hidden from a casual ls. */
	memcpy(of->tmp_path, path, dirlen);
	sprintf(of->tmp_path + dirlen, ".%s.XXXXXX", base);

	/* An unnamed file first: the mode is 0666 less the umask, as for
	 * any new file.  linkat() needs /proc to name it at the end.
	 * AXFS_OUTFILE_NAMED (axfs(1)) asks for the named file instead,
	 * for a filesystem whose O_TMPFILE misbehaves, and the tests. */
	if (!getenv("AXFS_OUTFILE_NAMED")) {
		char *dir = dirlen ? strndup(path, dirlen) : strdup(".");

		fd = dir && access("/proc/self/fd", X_OK) == 0 ?
		     open(dir, O_TMPFILE | O_RDWR | O_CLOEXEC, 0666) : -1;
		free(dir);
		if (fd >= 0) {
			of->fd = fd;
			of->unnamed = 1;	/* tmp_path is made at commit */
			return 0;
		}
	}

	/* No signal between creating the file and recording it. */
	sigemptyset(&block);
	sigaddset(&block, SIGINT);
	sigaddset(&block, SIGTERM);
	sigaddset(&block, SIGHUP);
	pthread_sigmask(SIG_BLOCK, &block, &old);
	fd = mkostemp(of->tmp_path, O_CLOEXEC);
	saved = errno;
	if (fd >= 0 && outfile_register(of->tmp_path) < 0) {
		unlink(of->tmp_path);
		close(fd);
		fd = -1;
		saved = ENAMETOOLONG;
	}
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (fd < 0) {
		rc = axfs_error_sys(err, saved, "cannot create a file beside '%s'",
				    path);
		free(of->tmp_path);
		of->tmp_path = NULL;
		outfile_abort(of);
		return rc;
	}
	of->fd = fd;
	/* mkstemp makes 0600; an image is an ordinary file. */
	mask = umask(0);
	umask(mask);
	if (fchmod(fd, 0666 & ~mask) < 0) {
		rc = axfs_error_sys(err, errno, "cannot write '%s'",
				    of->tmp_path);
		outfile_abort(of);
		return rc;
	}
	return 0;
}

/*
 * The unnamed file gets the name of_tmp (".NAME.XXXXXX", a new one while
 * it exists), registered for removal by a signal like a named temporary
 * file.  0, or -1 with errno.
 */
static int name_tmpfile(struct outfile *of)
{
	static const char chars[] =
		"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
	char proc[64];
	size_t len = strlen(of->tmp_path);
	unsigned long long r;
	struct timespec ts;

	snprintf(proc, sizeof(proc), "/proc/self/fd/%d", of->fd);
	clock_gettime(CLOCK_REALTIME, &ts);
	r = (unsigned long long)ts.tv_nsec * 2654435761u ^
	    (unsigned long long)getpid() << 20;
	for (int tries = 0; tries < 100; tries++) {
		for (size_t i = len - 6; i < len; i++) {
			of->tmp_path[i] = chars[r % (sizeof(chars) - 1)];
			r = r / (sizeof(chars) - 1) ^ r * 6364136223846793005ull;
		}
		if (linkat(AT_FDCWD, proc, AT_FDCWD, of->tmp_path,
			   AT_SYMLINK_FOLLOW) == 0) {
			if (outfile_register(of->tmp_path) < 0) {
				unlink(of->tmp_path);
				errno = ENAMETOOLONG;
				return -1;
			}
			return 0;
		}
		if (errno != EEXIST)
			return -1;
		r += (unsigned long long)tries * 7919u + 1;
	}
	errno = EEXIST;
	return -1;
}

int outfile_commit(struct outfile *of, struct axfs_error *err)
{
	char *dir, *slash;
	sigset_t block, old;
	int rc, dfd, anonymous;

	if (of->fd >= 0 && !of->tmp_path && of->final_path &&
	    strcmp(of->final_path, "-") == 0) {
		rc = outfile_commit_stdout(of, err);
		if (rc < 0)
			outfile_abort(of);
		return rc;
	}
	if (of->fd < 0 || !of->final_path || !of->tmp_path)
		return axfs_error_set(err, AXFS_ERR_INVALID,
				      "the output file is not open");
	anonymous = of->unnamed;
	if (fsync(of->fd) < 0) {
		rc = axfs_error_sys(err, errno, "cannot write '%s'",
				    of->final_path);
		outfile_abort(of);
		return rc;
	}
	if (anonymous) {
		/* The name lives only until the rename below: no signal in
		 * between. */
		sigemptyset(&block);
		sigaddset(&block, SIGINT);
		sigaddset(&block, SIGTERM);
		sigaddset(&block, SIGHUP);
		pthread_sigmask(SIG_BLOCK, &block, &old);
		rc = name_tmpfile(of);
		if (rc < 0) {
			rc = axfs_error_sys(err, errno, "cannot create a file "
					    "beside '%s'", of->final_path);
			pthread_sigmask(SIG_SETMASK, &old, NULL);
			outfile_abort(of);
			return rc;
		}
		of->unnamed = 0;
		rc = close(of->fd);
		of->fd = -1;
		if (rc < 0 || rename(of->tmp_path, of->final_path) < 0) {
			rc = axfs_error_sys(err, errno, rc < 0 ?
					    "cannot write '%s'" :
					    "cannot rename '%s' to '%s'",
					    of->tmp_path, of->final_path);
			outfile_abort(of);
			pthread_sigmask(SIG_SETMASK, &old, NULL);
			return rc;
		}
		outfile_unregister(of->tmp_path);
		pthread_sigmask(SIG_SETMASK, &old, NULL);
		goto renamed;
	}
	rc = close(of->fd);
	of->fd = -1;
	if (rc < 0) {
		rc = axfs_error_sys(err, errno, "cannot write '%s'",
				    of->tmp_path);
		outfile_abort(of);
		return rc;
	}
	if (rename(of->tmp_path, of->final_path) < 0) {
		rc = axfs_error_sys(err, errno, "cannot rename '%s' to '%s'",
				    of->tmp_path, of->final_path);
		outfile_abort(of);
		return rc;
	}
	outfile_unregister(of->tmp_path);
renamed:
	/* Make the rename itself durable. */
	dir = strdup(of->final_path);
	if (dir) {
		slash = strrchr(dir, '/');
		if (slash)
			slash[1] = '\0';
		dfd = open(slash ? dir : ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (dfd >= 0) {
			fsync(dfd);
			close(dfd);
		}
		free(dir);
	}
	free(of->tmp_path);
	free(of->final_path);
	of->tmp_path = NULL;
	of->final_path = NULL;
	return 0;
}

void outfile_abort(struct outfile *of)
{
	if (!of)
		return;
	if (of->fd >= 0) {
		close(of->fd);
		of->fd = -1;
	}
	if (of->tmp_path) {
		/* An unnamed file's tmp_path is only the template. */
		if (!of->unnamed) {
			unlink(of->tmp_path);
			outfile_unregister(of->tmp_path);
		}
		free(of->tmp_path);
		of->tmp_path = NULL;
	}
	of->unnamed = 0;
	free(of->final_path);
	of->final_path = NULL;
}
