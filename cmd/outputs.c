// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cmd/outputs.c - an output that is an input is refused before anything is
 * written: `axfs mkfs a.tar -o a.tar` or `split --mmap X --store X` would
 * otherwise end with an atomic rename over the very file just read.
 */
#include "outputs.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common.h"

/* What identifies one named file. */
struct ident {
	int exists;
	dev_t dev;
	ino_t ino;
	char *resolved;		/* real directory + "/" + name; NULL if none */
};

static int is_stdio(const char *path)
{
	return strcmp(path, "-") == 0;
}

/* The real directory of `path` (symlinks and ".." resolved) joined to its
 * last component: the name a file not created yet will have.  NULL with
 * errno set when the directory cannot be resolved. */
static char *resolve_new(const char *path)
{
	const char *slash = strrchr(path, '/');
	const char *base = slash ? slash + 1 : path;
	char *dir, *real, *out;

	if (!slash)
		dir = strdup(".");
	else if (slash == path)
		dir = strdup("/");
	else
		dir = strndup(path, (size_t)(slash - path));
	if (!dir)
		return NULL;
	real = realpath(dir, NULL);
	free(dir);
	if (!real)
		return NULL;
	out = malloc(strlen(real) + strlen(base) + 2);
	if (out)
		sprintf(out, "%s%s%s", real,
			real[strlen(real) - 1] == '/' ? "" : "/", base);
	free(real);
	return out;
}

/* The directory part of `path` for access(2): "." when it has none. */
static int dir_writable(const char *path)
{
	const char *slash = strrchr(path, '/');
	char *dir;
	int rc;

	if (!slash)
		return access(".", W_OK | X_OK);
	dir = slash == path ? strdup("/") :
	      strndup(path, (size_t)(slash - path));
	if (!dir) {
		errno = ENOMEM;
		return -1;
	}
	rc = access(dir, W_OK | X_OK);
	free(dir);
	return rc;
}

/* An output: its identity, or an error when it cannot be written. */
static int ident_output(const struct cmd_file *f, struct ident *id)
{
	struct stat st;

	if (stat(f->path, &st) == 0) {
		if (S_ISDIR(st.st_mode)) {
			cmd_error("cannot write '%s' (%s): it is a directory",
				  f->path, f->role);
			return -1;
		}
		if (!S_ISREG(st.st_mode)) {
			cmd_error("cannot write '%s' (%s): it is not a regular "
				  "file", f->path, f->role);
			return -1;
		}
		id->exists = 1;
		id->dev = st.st_dev;
		id->ino = st.st_ino;
	} else if (errno != ENOENT) {
		cmd_error("cannot write '%s' (%s): %s", f->path, f->role,
			  strerror(errno));
		return -1;
	}
	/* The file is replaced by a rename in its directory: that directory
	 * must exist and be writable, whether the file exists or not. */
	if (dir_writable(f->path) < 0) {
		cmd_error("cannot write '%s' (%s): %s", f->path, f->role,
			  strerror(errno));
		return -1;
	}
	id->resolved = resolve_new(f->path);
	if (!id->resolved) {
		cmd_error("cannot write '%s' (%s): %s", f->path, f->role,
			  strerror(errno));
		return -1;
	}
	return 0;
}

static int same(const struct ident *a, const struct ident *b)
{
	if (a->exists && b->exists)
		return a->dev == b->dev && a->ino == b->ino;
	return a->resolved && b->resolved &&
	       strcmp(a->resolved, b->resolved) == 0;
}

int cmd_check_outputs(const struct cmd_file *in, size_t nin,
		      const struct cmd_file *out, size_t nout)
{
	struct ident *iid = calloc(nin ? nin : 1, sizeof(*iid));
	struct ident *oid = calloc(nout ? nout : 1, sizeof(*oid));
	const struct cmd_file *on_stdout = NULL;
	int rc = EXIT_USAGE;

	if (!iid || !oid) {
		cmd_error("out of memory");
		rc = EXIT_OPERATIONAL;
		goto out;
	}
	/* An input that does not exist or cannot be read is the reading
	 * code's error, with its own reason: it is skipped here.  A
	 * directory is no file an output could replace. */
	for (size_t i = 0; i < nin; i++) {
		struct stat st;

		if (!in[i].path || is_stdio(in[i].path) ||
		    stat(in[i].path, &st) < 0 || S_ISDIR(st.st_mode))
			continue;
		iid[i].exists = 1;
		iid[i].dev = st.st_dev;
		iid[i].ino = st.st_ino;
	}
	for (size_t o = 0; o < nout; o++) {
		if (!out[o].path)
			continue;
		if (is_stdio(out[o].path)) {
			if (on_stdout) {
				cmd_error("%s and %s both write to standard "
					  "output: give one of them a file",
					  on_stdout->role, out[o].role);
				goto out;
			}
			on_stdout = &out[o];
			/* The one check for every binary output: not on a
			 * terminal (mkfs -o -, extract --tar -). */
			if (out[o].binary && isatty(STDOUT_FILENO)) {
				cmd_error("standard output is a terminal: not "
					  "writing %s there (redirect it, or "
					  "give a file)", out[o].role);
				goto out;
			}
			continue;
		}
		if (ident_output(&out[o], &oid[o]) < 0) {
			rc = EXIT_OPERATIONAL;
			goto out;
		}
		for (size_t i = 0; i < nin; i++) {
			if (iid[i].exists && oid[o].exists &&
			    same(&iid[i], &oid[o])) {
				cmd_error("the output '%s' (%s) is the input "
					  "'%s' (%s): refusing to replace it; "
					  "write the output elsewhere",
					  out[o].path, out[o].role, in[i].path,
					  in[i].role);
				goto out;
			}
		}
		for (size_t p = 0; p < o; p++) {
			if (out[p].path && !is_stdio(out[p].path) &&
			    same(&oid[p], &oid[o])) {
				cmd_error("'%s' (%s) and '%s' (%s) are the same "
					  "file: give each output its own name",
					  out[p].path, out[p].role, out[o].path,
					  out[o].role);
				goto out;
			}
		}
	}
	rc = 0;
out:
	for (size_t i = 0; iid && i < nin; i++)
		free(iid[i].resolved);
	for (size_t o = 0; oid && o < nout; o++)
		free(oid[o].resolved);
	free(iid);
	free(oid);
	return rc;
}
