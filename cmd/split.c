// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cmd/split.c - `axfs split`: cut an image at mmap_size into the segment
 * that sits on directly addressable memory (NOR flash or RAM, mounted with
 * physaddr=) and the store segment (second_dev=), join them again, or show
 * which regions land where.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "outfile.h"
#include "axfs_format.h"
#include "axfs_reader.h"
#include "common.h"
#include "image_operands.h"
#include "json.h"
#include "options.h"
#include "outputs.h"
#include "signals.h"

static const struct cmd_usage usage = {
	"usage: axfs split [options] IMAGE --mmap OUT1 --store OUT2\n"
	"   or: axfs split --join MMAP STORE -o IMAGE\n"
	"   or: axfs split --info [--json] IMAGE [STORE]\n"
	"\n"
	"Cut an AXFS image at mmap_size into its memory-mapped segment and its\n"
	"store segment, join the two again, or show which regions each holds.\n"
	"\n",
	NULL,
};

/* Copies [off, off+len) of in_fd into the temporary output file. */
static int copy_range(int in_fd, const char *in_name, uint64_t off,
		      uint64_t len, struct outfile *of)
{
	static char buf[1 << 16];

	while (len) {
		size_t want = len < sizeof(buf) ? (size_t)len : sizeof(buf);
		ssize_t n = pread(in_fd, buf, want, (off_t)off);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			cmd_error("cannot read '%s': %s", in_name, strerror(errno));
			return -1;
		}
		if (n == 0) {
			cmd_error("'%s': unexpected end of file at byte %llu",
				  in_name, (unsigned long long)off);
			return -1;
		}
		for (ssize_t done = 0; done < n;) {
			ssize_t w = write(of->fd, buf + done, (size_t)(n - done));

			if (w < 0 && errno == EINTR)
				continue;
			if (w < 0) {
				cmd_error("cannot write '%s': %s",
					  of->final_path, strerror(errno));
				return -1;
			}
			done += w;
		}
		off += (uint64_t)n;
		len -= (uint64_t)n;
	}
	return 0;
}

/* Which segment holds [off, off+len): "mmap", "store" or "both". */
static const char *segment_of(uint64_t off, uint64_t len, uint64_t mmap_size)
{
	if (len == 0)
		return "-";
	if (off + len <= mmap_size)
		return "mmap";
	if (off >= mmap_size)
		return "store";
	return "both";
}

/* --info --json: the schema is in axfs-split(1). */
static void info_json(struct axfs_image *img, const char *image,
		      const char *store)
{
	const struct axfs_super_info *sb = axfs_image_super(img);

	fputs("{\n  \"image\": ", stdout);
	json_cstr(stdout, image);
	fputs(",\n  \"store\": ", stdout);
	json_cstr(stdout, store);
	printf(",\n  \"size\": %llu,\n  \"mmap_size\": %llu,\n"
	       "  \"store_size\": %llu,\n  \"regions\": [",
	       (unsigned long long)sb->size,
	       (unsigned long long)sb->mmap_size,
	       (unsigned long long)(sb->size - sb->mmap_size));
	for (int r = 0; r < AXFS_REGION_COUNT; r++) {
		const struct axfs_region_info *ri = axfs_image_region(img, r);
		uint64_t stored = ri->compressed_size ? ri->compressed_size
						      : ri->size;
		const char *seg = segment_of(ri->fsoffset, stored,
					     sb->mmap_size);

		printf("%s\n    {\"name\": \"%s\", \"fsoffset\": %llu, "
		       "\"size\": %llu, \"stored_size\": %llu, "
		       "\"segment\": \"%s\"}", r ? "," : "",
		       axfs_region_name(r), (unsigned long long)ri->fsoffset,
		       (unsigned long long)ri->size,
		       (unsigned long long)stored,
		       strcmp(seg, "-") ? seg : "none");
	}
	fputs("\n  ]\n}\n", stdout);
}

static int do_info(const char *image, const char *store, int json)
{
	struct axfs_image *img;
	const struct axfs_super_info *sb;

	if (cmd_open_image(&img, image, store, 0) != 0)
		return EXIT_OPERATIONAL;
	if (json) {
		info_json(img, image, store);
		axfs_image_close(img);
		return cmd_finish_stdout(EXIT_OK);
	}
	sb = axfs_image_super(img);
	printf("image size:     %llu\n", (unsigned long long)sb->size);
	printf("mmap segment:   %llu bytes (0 .. %llu)\n",
	       (unsigned long long)sb->mmap_size,
	       (unsigned long long)sb->mmap_size);
	printf("store segment:  %llu bytes (%llu .. %llu)\n",
	       (unsigned long long)(sb->size - sb->mmap_size),
	       (unsigned long long)sb->mmap_size,
	       (unsigned long long)sb->size);
	printf("%-18s %12s %12s %12s  %s\n", "region", "offset", "size",
	       "stored", "segment");
	for (int r = 0; r < AXFS_REGION_COUNT; r++) {
		const struct axfs_region_info *ri = axfs_image_region(img, r);
		uint64_t stored = ri->compressed_size ? ri->compressed_size
						      : ri->size;

		printf("%-18s %12llu %12llu %12llu  %s\n", axfs_region_name(r),
		       (unsigned long long)ri->fsoffset,
		       (unsigned long long)ri->size,
		       (unsigned long long)stored,
		       segment_of(ri->fsoffset, stored, sb->mmap_size));
	}
	axfs_image_close(img);
	return cmd_finish_stdout(EXIT_OK);
}

static int do_split(const char *image, const char *mmap_out,
		    const char *store_out)
{
	struct axfs_image *img;
	const struct axfs_super_info *sb;
	struct outfile of1 = { 0 }, of2 = { 0 };
	struct axfs_error err;
	uint64_t mmap_size, size;
	int fd, rc = EXIT_OPERATIONAL;

	if (cmd_open_image(&img, image, NULL, 0) != 0)
		return EXIT_OPERATIONAL;
	sb = axfs_image_super(img);
	mmap_size = sb->mmap_size;
	size = sb->size;
	/* A region that straddles the cut would be read from the wrong
	 * device by the driver: refuse rather than write broken parts. */
	for (int r = 0; r < AXFS_REGION_COUNT; r++) {
		const struct axfs_region_info *ri = axfs_image_region(img, r);
		uint64_t stored = ri->compressed_size ? ri->compressed_size
						      : ri->size;

		if (strcmp(segment_of(ri->fsoffset, stored, mmap_size),
			   "both") == 0) {
			cmd_error("'%s': region '%s' (bytes %llu..%llu) straddles "
				  "mmap_size %llu; rebuild with axfs mkfs --mmap-limit",
				  image, axfs_region_name(r),
				  (unsigned long long)ri->fsoffset,
				  (unsigned long long)(ri->fsoffset + stored),
				  (unsigned long long)mmap_size);
			axfs_image_close(img);
			return EXIT_OPERATIONAL;
		}
	}
	axfs_image_close(img);
	if (mmap_size == 0 || mmap_size >= size) {
		cmd_error("'%s' has no store segment (mmap_size %llu, size %llu): "
			  "build it with axfs mkfs --mmap-limit SIZE", image,
			  (unsigned long long)mmap_size,
			  (unsigned long long)size);
		return EXIT_OPERATIONAL;
	}
	fd = open(image, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		cmd_error("cannot open '%s': %s", image, strerror(errno));
		return EXIT_OPERATIONAL;
	}
	if (outfile_open(&of1, mmap_out, &err) < 0 ||
	    outfile_open(&of2, store_out, &err) < 0) {
		cmd_error("%s", err.msg);
		goto out;
	}
	if (copy_range(fd, image, 0, mmap_size, &of1) < 0 ||
	    copy_range(fd, image, mmap_size, size - mmap_size, &of2) < 0)
		goto out;
	if (outfile_commit(&of1, &err) < 0 ||
	    outfile_commit(&of2, &err) < 0) {
		cmd_error("%s", err.msg);
		goto out;
	}
	cmd_info("wrote '%s' (%llu bytes) and '%s' (%llu bytes)", mmap_out,
		 (unsigned long long)mmap_size, store_out,
		 (unsigned long long)(size - mmap_size));
	rc = EXIT_OK;
out:
	outfile_abort(&of1);
	outfile_abort(&of2);
	close(fd);
	return rc;
}

static int do_join(const char *mmap_in, const char *store_in, const char *out)
{
	struct axfs_image *img;
	struct outfile of = { 0 };
	struct axfs_error err;
	uint64_t mmap_size, size;
	int fd1 = -1, fd2 = -1, rc = EXIT_OPERATIONAL;

	/* The reader checks that the first part starts with a superblock
	 * whose mmap_size is its length and that the parts add up to size,
	 * so swapped or truncated parts are refused with a reason. */
	if (cmd_open_image(&img, mmap_in, store_in, 0) != 0)
		return EXIT_OPERATIONAL;
	/* Segments may be partitions longer than their part of the image:
	 * copy mmap_size and size - mmap_size bytes, not their lengths. */
	mmap_size = axfs_image_super(img)->mmap_size;
	size = axfs_image_super(img)->size;
	axfs_image_close(img);
	fd1 = open(mmap_in, O_RDONLY | O_CLOEXEC);
	fd2 = open(store_in, O_RDONLY | O_CLOEXEC);
	if (fd1 < 0 || fd2 < 0) {
		cmd_error("cannot open '%s': %s", fd1 < 0 ? mmap_in : store_in,
			  strerror(errno));
		goto out;
	}
	if (outfile_open(&of, out, &err) < 0) {
		cmd_error("%s", err.msg);
		goto out;
	}
	if (copy_range(fd1, mmap_in, 0, mmap_size, &of) < 0 ||
	    copy_range(fd2, store_in, 0, size - mmap_size, &of) < 0)
		goto out;
	if (outfile_commit(&of, &err) < 0) {
		cmd_error("%s", err.msg);
		goto out;
	}
	rc = EXIT_OK;
out:
	outfile_abort(&of);
	if (fd1 >= 0)
		close(fd1);
	if (fd2 >= 0)
		close(fd2);
	return rc;
}

int cmd_split(int argc, char **argv)
{
	const char *mmap_out = NULL, *store_out = NULL, *out = NULL;
	int join = 0, info = 0, json = 0, c;
	const struct cmd_opt options[] = {
		{ CMD_STRING('m', "mmap", "FILE", &mmap_out,
			     "write the memory-mapped segment here") },
		{ CMD_STRING('s', "store", "FILE", &store_out,
			     "write the store segment here") },
		{ CMD_FLAG('J', "join", &join, 1,
			   "join MMAP and STORE into -o IMAGE") },
		{ CMD_STRING('o', "output", "FILE", &out,
			     "the joined image (with --join)") },
		{ CMD_FLAG('i', "info", &info, 1,
			   "print the two sizes and the regions in each") },
		{ CMD_FLAG(0, "json", &json, 1, "with --info: print one JSON "
			   "document (see axfs-split(1))") },
		CMD_OPTS_END(CMD_HELP_QUIET, "say what is written"),
	};
	struct cmd_file in[2] = { { NULL, "MMAP", 0 }, { NULL, "STORE", 0 } };
	struct cmd_file outs[2] = { { NULL, "-o", 1 }, { NULL, NULL, 1 } };
	struct cmd_step step = cmd_parse_options(argc, argv, options, &usage);

	if (step.stop)
		return step.exit_code;
	argc -= optind;
	argv += optind;
	if (join + info > 1)
		return cmd_usage_error("--join and --info exclude each other");
	if (json && !info)
		return cmd_usage_error("--json goes with --info");
	if (info) {
		if (argc < 1 || argc > 2)
			return cmd_usage_error("--info takes IMAGE [STORE]");
		return do_info(argv[0], argc == 2 ? argv[1] : NULL, json);
	}
	/* Both of the others write files: a signal must not leave a
	 * temporary one behind. */
	cmd_remove_output_on_signal();
	if (join) {
		if (argc != 2 || !out)
			return cmd_usage_error("--join takes MMAP STORE -o IMAGE");
		in[0].path = argv[0];
		in[1].path = argv[1];
		outs[0].path = out;
		if ((c = cmd_check_outputs(in, 2, outs, 1)) != 0)
			return c;
		return do_join(argv[0], argv[1], out);
	}
	if (argc != 1)
		return cmd_usage_error("expected one IMAGE");
	if (!mmap_out || !store_out)
		return cmd_usage_error("both --mmap and --store are required");
	in[0].path = argv[0];
	in[1].path = NULL;
	outs[0] = (struct cmd_file){ mmap_out, "--mmap", 1 };
	outs[1] = (struct cmd_file){ store_out, "--store", 1 };
	if ((c = cmd_check_outputs(in, 1, outs, 2)) != 0)
		return c;
	return do_split(argv[0], mmap_out, store_out);
}
