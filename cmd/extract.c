// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cmd/extract.c - axfs extract: recreate the tree stored in an image.
 *
 *   axfs extract [options] IMAGE DIR [PATH...]
 *
 * With PATHs, only the subtrees they name are written, with the
 * directories on the way to them and the links followed to reach them
 * (extract_paths.c); each PATH is resolved before anything is written.
 * --tar writes a pax archive instead (extract_tar.c).
 *
 * Safety first: the image is untrusted.  A first walk (extract_plan.c)
 * validates the whole tree and counts what is to be written before
 * anything is; the second walk, here, creates every entry relative to an
 * open descriptor of its parent directory (extract_dirs.c), each
 * directory opened with O_NOFOLLOW, so no symbolic link, whether from the
 * image or already in DIR, is ever followed: nothing is written outside
 * DIR.  No metadata call on a name we created follows a symlink either
 * (extract_owner.c).
 *
 * A link group (regular files sharing one node range and mode/owner: how
 * mkfs stores hard links) is written once and linked, as --tar does
 * (extract_links.c), so the bytes written are bounded by the pre-walk's
 * total, which must fit in DIR's free space (and under --max-size).
 * Owners and device nodes need root; otherwise one warning says what was
 * left out.  Every file gets the image timestamp as its mtime and atime.
 *
 * File data is inflated ahead on -j threads (axfs_stream.h) while this
 * thread creates the files in walk order (extract_files.c).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "common.h"
#include "escape.h"
#include "image_operands.h"
#include "options.h"
#include "outputs.h"
#include "progress.h"
#include "extract_paths.h"
#include "extract_tar.h"
#include "extract_tree.h"

static const struct cmd_usage usage = {
"usage: axfs extract [options] IMAGE DIR [PATH...]\n"
"       axfs extract --tar FILE|- [options] IMAGE [PATH...]\n"
"\n"
"Recreate the tree stored in the AXFS image IMAGE (- for standard input)\n"
"under DIR, which is created if needed and must be empty; with PATHs\n"
"(image paths such as /usr/bin), only those subtrees, with the directories\n"
"on the way to them and the symbolic links followed to reach them.  The\n"
"store segment of a split image is given with --store FILE.  Nothing is\n"
"written outside DIR.  Owners and device nodes are restored as root;\n"
"without root, modes lose set-user-ID/set-group-ID and the umask's bits.\n"
"Hard links (link groups) are restored as hard links.\n"
"\n",
"\nSee axfs-extract(1).\n",
};

static int extract_fn(void *ctx, const char *path,
		      const struct axfs_inode_info *in)
{
	struct extract *x = ctx;
	size_t depth = 0;
	const char *name;
	int pfd, rc;

	if (!strcmp(path, "/")) {
		x->lv[0].in = *in;
		x->files_done++;
		return 0;
	}
	if (!extract_paths_wants(x->paths, path))
		return 0;
	/* "/a/b/c": depth 3, parent at level 2. */
	for (const char *p = path; *p; p++)
		depth += *p == '/';
	name = strrchr(path, '/') + 1;
	if (extract_pop_to(x, depth - 1) < 0)
		return 1;
	pfd = extract_level_fd(x, depth - 1);
	if (pfd < 0) {
		extract_fail(x, errno, "open the directory of", path);
		return 1;
	}
	if (cmd_verbosity >= 2) {
		cmd_progress_clear();
		printf("%s%s\n", cmd_esc(x->dir), cmd_esc(path));
	}
	switch (in->mode & S_IFMT) {
	case S_IFDIR:
		rc = extract_make_dir(x, pfd, name, path, in);
		break;
	case S_IFREG: {
		struct reg *r = x->next_reg < x->nregs ?
				&x->regs[x->next_reg] : NULL;

		/* The second walk meets the files of the first, in order. */
		if (!r || r->ino != in->ino || r->size != in->size) {
			cmd_error("'%s' changed while it was read ('%s')",
				  axfs_image_name(x->img), path);
			return 1;
		}
		x->next_reg++;
		if (r->link_to != SHARE_NO_LINK)
			rc = extract_make_link(x, pfd, name, path,
					       &x->regs[r->link_to]);
		else
			rc = extract_make_file(x, pfd, name, path, in, r);
		break;
	}
	case S_IFLNK:
		rc = extract_make_symlink(x, pfd, name, path, in);
		break;
	default:
		rc = extract_make_special(x, pfd, name, path, in);
		break;
	}
	x->files_done++;
	extract_progress_draw(x);
	return rc < 0 ? 1 : 0;	/* 1: failed, already reported */
}

static int extract(const char *image, const char *store, const char *dir,
		   char **paths, int npaths, int force, int same_perms,
		   uint64_t max_size, uint64_t max_ratio, unsigned int jobs)
{
	struct axfs_stream_opts so = { .struct_size = sizeof(so),
				       .threads = jobs > 1 ? jobs : 0 };
	struct extract_paths sel;
	struct extract x;
	time_t ts;
	int rc = EXIT_OPERATIONAL, fd, created = 0;

	memset(&x, 0, sizeof(x));
	/* Every mode is given explicitly: files are created 0600 and
	 * directories 0700 until they are complete (nobody else may look
	 * into what is being written), device nodes, FIFOs and sockets with
	 * their final bits (extract_make_special()).  The user's umask is applied by
	 * extract_final_mode() when it should be. */
	x.user_mask = umask(0);
	x.dir = dir;
	x.force = force;
	x.same_perms = same_perms;
	x.max_ratio = max_ratio;
	x.as_root = geteuid() == 0;
	x.paths = &sel;
	if (cmd_open_image(&x.img, image, store, 0) != 0)
		return EXIT_OPERATIONAL;
	if (extract_paths_resolve(&sel, x.img, paths, npaths) < 0) {
		extract_paths_free(&sel);
		axfs_image_close(x.img);
		return EXIT_OPERATIONAL;
	}
	ts = (time_t)axfs_image_super(x.img)->timestamp;
	x.times[0].tv_sec = x.times[1].tv_sec = ts;

	/* Validate the whole tree before writing anything. */
	rc = axfs_image_walk(x.img, extract_count_fn, &x, &x.err);
	if (rc != 0) {
		if (rc < 0)
			cmd_error("%s", x.err.msg);
		rc = EXIT_OPERATIONAL;
		goto out;
	}
	rc = EXIT_OPERATIONAL;
	if (extract_find_links(&x) < 0)
		goto out;

	if (mkdir(dir, 0700) == 0)
		created = 1;
	else if (errno != EEXIST) {
		cmd_error("cannot create directory '%s': %s", dir,
			  strerror(errno));
		goto out;
	}
	/* A DIR we created is opened without following a symlink and
	 * must still be ours: in a directory others can write to (/tmp),
	 * someone could have put a symlink to elsewhere in its place.  A DIR
	 * that existed is the user's choice, symlink or not. */
	fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC |
		  (created ? O_NOFOLLOW : 0));
	if (fd < 0) {
		cmd_error("cannot open directory '%s': %s", dir,
			  strerror(errno));
		goto out;
	}
	if (created) {
		struct stat st;

		if (fstat(fd, &st) < 0 || st.st_uid != geteuid()) {
			close(fd);
			cmd_error("'%s' was replaced while it was created "
				  "(another user writing to its parent?)",
				  dir);
			goto out;
		}
	}
	if (!created && !force) {
		int dfd = dup(fd);
		DIR *d = dfd >= 0 ? fdopendir(dfd) : NULL;
		struct dirent *e;
		int empty = 1;

		while (d && (e = readdir(d)))
			if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
				empty = 0;
		if (d)
			closedir(d);
		else if (dfd >= 0)
			close(dfd);
		if (!empty) {
			close(fd);
			cmd_error("'%s' is not empty (use --force to extract "
				  "into it)", dir);
			goto out;
		}
	}
	if (extract_input_in_target(x.img, dir, image, "IMAGE") ||
	    extract_input_in_target(x.img, dir, store, "STORE") ||
	    extract_check_space(&x, fd, max_size) < 0) {
		close(fd);
		if (created)
			rmdir(dir);
		goto out;
	}
	x.cap = 64;
	x.lv = calloc(x.cap, sizeof(*x.lv));
	if (!x.lv) {
		close(fd);
		cmd_error("out of memory");
		goto out;
	}
	x.lv[0].fd = fd;
	x.depth = 1;
	x.open_dirs = 1;
	cmd_progress_begin(cmd_name, 1);
	if (axfs_stream_open(&x.stream, x.img, x.files, x.nfiles, &so,
			     &x.err) < 0) {
		cmd_error("%s", x.err.msg);
		x.depth = 1;
		goto close_levels;
	}

	/* The walk returns 1 when a callback failed (already reported),
	 * a negative code when the image is bad. */
	rc = axfs_image_walk(x.img, extract_fn, &x, &x.err);
	if (rc < 0) {
		cmd_error("%s", x.err.msg);
	}
	if (rc == 0 && extract_pop_to(&x, 0) == 0 && extract_finish_dir(&x, 0, "/") == 0)
		rc = EXIT_OK;
	else
		rc = EXIT_OPERATIONAL;
	extract_progress_draw(&x);
	cmd_progress_end();
	if (x.skipped_devices)
		cmd_warn("not running as root: skipped %" PRIu64 " device "
			 "node%s", x.skipped_devices,
			 x.skipped_devices == 1 ? "" : "s");
	if (x.not_owned)
		cmd_warn("not running as root: %" PRIu64 " entr%s keep%s your "
			 "owner instead of the image's", x.not_owned,
			 x.not_owned == 1 ? "y" : "ies",
			 x.not_owned == 1 ? "s" : "");
close_levels:
	axfs_stream_close(x.stream);
	for (size_t k = 0; k < x.depth; k++) {
		if (x.lv[k].fd >= 0)
			close(x.lv[k].fd);
		if (k)
			free(x.lv[k].name);
	}
	free(x.lv);
out:
	for (size_t i = 0; i < x.nregs; i++)
		free(x.regs[i].path);
	free(x.regs);
	free(x.all);
	free(x.files);
	extract_paths_free(&sel);
	axfs_image_close(x.img);
	return rc;
}

int cmd_extract(int argc, char **argv)
{
	const char *tar = NULL;
	const char *image, *store = NULL, *dir;
	int force = 0, same_perms = 0, c, first;
	unsigned long long jobs = 0;
	uint64_t max_size = 0;
	unsigned long long max_ratio = SHARE_MAX_RATIO;
	const struct cmd_opt options[] = {
		{ CMD_FLAG('f', "force", &force, 1, "extract into a non-empty "
			   "DIR, replacing what is in\nthe way (never a "
			   "directory by a file)") },
		{ CMD_COUNT('j', "jobs", "N", &jobs, 0, 1024, "inflate file "
			    "data on N threads (default 0: one per\nCPU; 1: "
			    "no extra thread)"),
		  .bad = "invalid number of jobs '%s': use 1 to 1024 (0: one "
			 "per CPU)" },
		{ CMD_SIZE(0, "max-size", "SIZE", &max_size, "refuse an image "
			   "whose files hold more than SIZE\nbytes (always: "
			   "more than DIR's free space)"),
		  .min = 1, .bad = "invalid size '%s' for --max-size: use a "
				   "number of bytes with an optional unit "
				   "(64KiB, 2G)" },
		{ CMD_COUNT(0, "max-ratio", "N", &max_ratio, 1, 1000000,
			    "refuse an image whose files would write\nmore "
			    "than N times the data it holds (default 8:\n"
			    "files that share data but not their owner\nare "
			    "written once each)"),
		  .bad = "invalid ratio '%s' for --max-ratio: use 1 to "
			 "1000000" },
		{ CMD_FLAG('p', "same-permissions", &same_perms, 1, "without "
			   "root too, modes exactly as in the image") },
		{ CMD_STRING(0, "tar", "FILE", &tar, "write a pax archive "
			     "instead (- for standard output),\nwith owners, "
			     "devices and hard links, without root") },
		CMD_OPTS_IMAGE,
		CMD_OPTS_PROGRESS,
		CMD_OPTS_END(CMD_HELP_QUIET,
			     "print each path as it is written"),
	};
	struct cmd_step step = cmd_parse_options(argc, argv, options, &usage);

	if (step.stop)
		return step.exit_code;
	/* --tar FILE stands for DIR. */
	step = cmd_image_path_operands(argc, argv, !tar, "target directory",
				       &image, &store, &dir, &first);
	if (step.stop)
		return step.exit_code;
	if (tar && (same_perms || max_size))
		return cmd_usage_error("-p and --max-size are for a target "
				       "directory, not --tar");
	if (tar) {
		struct cmd_file in[] = { { image, "IMAGE", 0 }, { store, "STORE", 0 } };
		struct cmd_file out = { tar, "--tar", 1 };

		if ((c = cmd_check_outputs(in, 2, &out, 1)) != 0)
			return c;
		return cmd_finish_stdout(extract_tar(image, store, tar,
						     argv + first,
						     argc - first,
						     max_ratio));
	}
	if (jobs == 0) {
		long cpus = sysconf(_SC_NPROCESSORS_ONLN);

		jobs = cpus > 1 ? (unsigned long long)(cpus > 1024 ? 1024 : cpus)
				: 1;
	}
	return cmd_finish_stdout(extract(image, store, dir, argv + first,
					 argc - first, force, same_perms, max_size,
					 max_ratio, (unsigned int)jobs));
}
