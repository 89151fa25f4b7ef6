// SPDX-License-Identifier: GPL-2.0-or-later
/* cmd/mkfs_cli.c - axfs mkfs's option table and operands (mkfs_cli.h) */
#include "mkfs_cli.h"

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"
#include "outputs.h"
#include "progress.h"
#include "axfs_format.h"
#include "glob_match.h"
#include "axfs_policy.h"
#include "source.h"

static const struct cmd_usage usage = {
"usage: axfs mkfs [options] SOURCE [STORE-SEGMENT] -o IMAGE\n"
"       axfs mkfs [options] SOURCE IMAGE\n"
"\n"
"Build an AXFS image from SOURCE: a directory, an archive (tar, pax, cpio;\n"
"gzip, xz, zstd or bzip2 compressed), - for an archive or an image on\n"
"standard input, or an AXFS image (with the store segment of a split image\n"
"after it) to plan again, e.g. with a new profile.\n"
"\n",
"\nSee axfs-mkfs(1).\n",
};

static const struct cmd_opt_name auto_yes_no[] = {
	{ "auto", -1 }, { "yes", 1 }, { "no", 0 }, { NULL, 0 },
};

static struct cmd_step opt_block_size(const struct cmd_opt *opt,
				      const char *arg)
{
	uint64_t v;

	if (axfs_parse_size(arg, &v, NULL, 0) < 0 || !AXFS_CBLOCK_SIZE_OK(v))
		return cmd_stop(cmd_usage_error("invalid block size '%s': use "
						"a power of two from 4KiB to "
						"1MiB", arg));
	*(uint32_t *)opt->target = (uint32_t)v;
	return CMD_GO_ON;
}

static struct cmd_step opt_compressor(const struct cmd_opt *opt,
				      const char *arg)
{
	enum axfs_compressor *c = opt->target;

	*c = axfs_compressor_by_name(arg);
	if (*c == AXFS_COMPRESSOR_DEFAULT)
		return cmd_stop(cmd_usage_error("invalid compressor '%s': use "
						"%s", arg,
						axfs_compressor_names()));
	return CMD_GO_ON;
}

static struct cmd_step opt_xip(const struct cmd_opt *opt, const char *arg)
{
	const struct cmd_strings *l = opt->target;
	char why[256];

	if (strlen(arg) > GLOB_MAX_LEN)
		return cmd_stop(cmd_usage_error("--xip: a glob of %zu bytes: "
						"no image path is longer "
						"than %d", strlen(arg),
						GLOB_MAX_LEN));
	if (l->n >= GLOB_MAX_COUNT)
		return cmd_stop(cmd_usage_error("--xip: more than %d globs",
						GLOB_MAX_COUNT));
	if (glob_check(arg, why, sizeof(why)) < 0)
		return cmd_stop(cmd_usage_error("--xip '%s': %s", arg, why));
	if (cmd_strings_add(opt->target, arg) < 0) {
		cmd_error("out of memory");
		return cmd_stop(EXIT_OPERATIONAL);
	}
	return CMD_GO_ON;
}

/* add_exclude() and read_exclude_file() say what is wrong but memory. */
static struct cmd_step exclude_step(int rc)
{
	if (rc < 0) {
		cmd_error("out of memory");
		return cmd_stop(EXIT_OPERATIONAL);
	}
	return rc ? cmd_stop(rc) : CMD_GO_ON;
}

static struct cmd_step opt_exclude(const struct cmd_opt *opt, const char *arg)
{
	return exclude_step(add_exclude(opt->target, arg, "--exclude", 0));
}

static struct cmd_step opt_exclude_from(const struct cmd_opt *opt,
					const char *arg)
{
	return exclude_step(read_exclude_file(opt->target, arg));
}

/* As the policy's split.mmap-limit: the mapped part ends on a page
 * boundary, so a limit is in pages. */
static struct cmd_step check_mmap_limit(const struct cmd_opt *opt,
					const char *arg)
{
	uint64_t v = *(const uint64_t *)opt->target;

	if (v == 0 || v % 4096)
		return cmd_stop(cmd_usage_error("invalid --mmap-limit: it must "
						"be a positive multiple of "
						"4KiB"));
	return CMD_GO_ON;
}

/* 0 to 255, in decimal, octal or hexadecimal (0xff). */
static struct cmd_step opt_pad_byte(const struct cmd_opt *opt,
				    const char *arg)
{
	char *end;
	unsigned long b;

	errno = 0;
	b = strtoul(arg, &end, 0);
	if (errno || end == arg || *end || b > 255 || *arg == '-')
		return cmd_stop(cmd_usage_error("invalid --pad-byte: '%s' is "
						"not 0 to 255 (0x00 to 0xff)",
						arg));
	*(int *)opt->target = (int)b;
	return CMD_GO_ON;
}

static struct cmd_step opt_xattrs(const struct cmd_opt *opt, const char *arg)
{
	enum axfs_xattr_action *x = opt->target;

	*x = axfs_xattr_action_parse(arg);
	if (*x == AXFS_XATTRS_UNSET)
		return cmd_stop(cmd_usage_error("invalid --xattrs '%s': use "
						"warn, error or ignore", arg));
	return CMD_GO_ON;
}

static struct cmd_step parse_options(struct mkfs_cli *c, int argc,
				     char **argv)
{
	struct axfs_build_opts *o = &c->o;
	char block_help[160], level_help[160];
	const struct cmd_opt options[] = {
		{ CMD_STRING('o', "output", "IMAGE", &o->output, "the image "
			     "to write (replaced only when complete;\n- for "
			     "standard output)") },
		{ CMD_CALLBACK('b', "block-size", "SIZE", &o->block_size,
			       opt_block_size, block_help) },
		/* Checked against the compressor once it is known. */
		{ CMD_COUNT('l', "level", "N", &o->level, 1, 1000, level_help),
		  .bad = "invalid level '%s': use 1 to 12 with libdeflate, 1 "
			 "to 9 with zlib" },
		{ CMD_CALLBACK(0, "compressor", "NAME", &o->compressor,
			       opt_compressor, "the library that writes the "
			       "zlib streams:\nlibdeflate (default; smaller, "
			       "faster) or zlib") },
		{ CMD_COUNT('j', "jobs", "N", &o->jobs, 0, 1024,
			    "compression threads (default: online CPUs)"),
		  .bad = "invalid number of jobs '%s': use 1 to 1024 (0: one "
			 "per CPU)" },
		{ CMD_CALLBACK(0, "xip", "GLOB", &c->xip, opt_xip, "store the "
			       "files matching GLOB (an image path such\nas "
			       "'/bin/*') uncompressed for execute-in-place;\n"
			       "repeatable") },
		{ CMD_CALLBACK(0, "exclude", "GLOB", &c->excl, opt_exclude,
			       "leave the entries matching GLOB (an image "
			       "path\nsuch as '/usr/share/doc/**') out, with "
			       "what is\nunder them; repeatable") },
		{ CMD_CALLBACK(0, "exclude-from", "FILE", &c->excl,
			       opt_exclude_from, "the same for each line of "
			       "FILE (# comments)") },
		{ CMD_LIST('p', "profile", "CSV", &c->profiles, "make the "
			   "pages a profile counted XIP; repeatable") },
		{ CMD_FLAG(0, "strict-profile", &o->strict_profile, 1,
			   "a profile entry naming no page of the tree is "
			   "an\nerror (one that matches nothing always is)") },
		{ CMD_STRING('c', "policy", "YAML", &c->policy_file,
			     "build policy (see axfs-policy(5))") },
		{ CMD_LIST(0, "device-table", "FILE", &c->tables, "add the "
			   "devices and set the modes of a\nmakedevs device "
			   "table (Buildroot's); repeatable") },
		{ CMD_SIZE(0, "xip-budget", "SIZE", &o->budget, "most bytes of "
			   "XIP pages (hottest pages first); a\nbuild whose "
			   "whole-file XIP exceeds it fails"),
		  .seen = &o->has_budget },
		{ CMD_SIZE(0, "mmap-limit", "SIZE", &o->mmap_limit, "most "
			   "bytes of the memory-mapped part of the image"),
		  .parse = check_mmap_limit },
		{ CMD_FLAG(0, "xip-suffix", &o->xip_suffix, 1, "make every "
			   "page after a file's first XIP page XIP\ntoo, "
			   "within the budget (for the 2008 driver)") },
		{ CMD_SIZE(0, "pad", "SIZE", &o->pad_size, "pad the file to "
			   "SIZE (a partition's size); the\nimage itself "
			   "keeps its own length"), .min = 1 },
		{ CMD_SIZE(0, "max-holes", "SIZE", &o->max_holes, "most bytes "
			   "of holes (sparse files) the image\nmay have "
			   "(default 64GiB)"), .min = 1 },
		{ CMD_CALLBACK(0, "pad-byte", "BYTE", &o->pad_byte,
			       opt_pad_byte, "the padding byte: 0x00 (default) "
			       "or 0xff for\nerased flash") },
		{ CMD_FLAG(0, "all-root", &o->all_root, 1,
			   "make every file owned by root:root") },
		{ CMD_COUNT(0, "uid", "N", &o->force_uid, 0, UINT32_MAX,
			    "make every file owned by user N / group N"),
		  .bad = "invalid uid '%s': use a number from 0 to 4294967295",
		  .shown = "    --uid N, --gid N" },
		{ CMD_COUNT(0, "gid", "N", &o->force_gid, 0, UINT32_MAX, NULL),
		  .bad = "invalid gid '%s': use a number from 0 to 4294967295" },
		{ CMD_TIME(0, "mtime", "TIME", &o->timestamp, "image timestamp: "
			   "seconds since 1970 or\nYYYY-MM-DD[THH:MM:SS] UTC "
			   "(default:\nSOURCE_DATE_EPOCH, else now)"),
		  .seen = &o->has_timestamp,
		  .bad = "invalid time '%s': use seconds since 1970 or "
			 "YYYY-MM-DD[THH:MM:SS] (UTC)" },
		{ CMD_ENUM(0, "compress-metadata", "=auto|yes|no",
			   &o->compress_metadata, auto_yes_no,
			   "zlib-compress the metadata (default auto)") },
		{ CMD_CALLBACK(0, "xattrs", "=warn|error|ignore", &o->xattrs,
			       opt_xattrs, "what to do with extended attributes "
			       "and ACLs\n(SELinux labels, capabilities), which "
			       "AXFS\ncannot store (default warn)") },
		{ CMD_STRING(0, "report", "FILE", &c->report_text, "write what "
			     "became of every page, and why (- for\nstandard "
			     "output)") },
		{ CMD_STRING(0, "report-json", "FILE", &c->report_json,
			     "the same report as JSON") },
		{ CMD_STRING(0, "report-svg", "FILE", &c->report_svg,
			     "a picture of the regions and the XIP files") },
		CMD_OPTS_PROGRESS,
		CMD_OPTS_END(CMD_HELP_QUIET,
			     "say more; repeat for debugging output"),
	};

	snprintf(block_help, sizeof(block_help), "compression block size, a "
		 "power of two from 4KiB\nto 1MiB (default %uKiB)",
		 AXFS_DEFAULT_BLOCK_SIZE / 1024);
	snprintf(level_help, sizeof(level_help), "compression level: 1..12 "
		 "with libdeflate, 1..9\nwith zlib (default %d)",
		 AXFS_DEFAULT_LEVEL);
	return cmd_parse_options(argc, argv, options, &usage);
}

/* SOURCE [STORE-SEGMENT] [IMAGE] from argv[optind] on. */
static struct cmd_step operands(struct mkfs_cli *c, int argc, char **argv)
{
	struct axfs_build_opts *o = &c->o;

	switch (argc - optind) {
	case 0:
		return cmd_stop(cmd_usage_error("no source given"));
	case 1:
		break;
	case 2:
		/* With -o, a second name is the store segment of a split
		 * image source; without, the image to write. */
		if (o->output)
			o->source_store = argv[optind + 1];
		else
			o->output = argv[optind + 1];
		break;
	case 3:
		if (o->output)
			return cmd_stop(cmd_usage_error("the image is given "
							"twice: '%s' and '%s'",
							o->output,
							argv[optind + 2]));
		o->source_store = argv[optind + 1];
		o->output = argv[optind + 2];
		break;
	default:
		return cmd_stop(cmd_usage_error("too many arguments"));
	}
	if (!o->output)
		return cmd_stop(cmd_usage_error("no image given (-o IMAGE)"));
	if (strcmp(o->output, "-") == 0 && mkfs_cli_report_is_stdout(c))
		return cmd_stop(cmd_usage_error("the image goes to standard "
						"output (-o -): a report "
						"cannot go there too"));
	if (o->source_store && !source_is_image(argv[optind]))
		return cmd_stop(cmd_usage_error("too many arguments: only an "
						"AXFS image source takes a "
						"store segment, and '%s' is "
						"none", argv[optind]));
	o->source = argv[optind];
	return CMD_GO_ON;
}

/* Every output against every input and the other outputs, and every
 * output writable, before anything is read or written. */
static struct cmd_step check_files(const struct mkfs_cli *c)
{
	struct cmd_file out[] = {
		{ c->o.output, "the image", 1 },
		{ c->report_text, "--report", 0 },
		{ c->report_json, "--report-json", 0 },
		{ c->report_svg, "--report-svg", 0 },
	};
	struct cmd_file *in = calloc(c->profiles.n + c->excl.nfiles +
				     c->tables.n + 3,
				     sizeof(*in));
	size_t nin = 0;
	int rc;

	if (!in) {
		cmd_error("out of memory");
		return cmd_stop(EXIT_OPERATIONAL);
	}
	in[nin++] = (struct cmd_file){ c->o.source, "SOURCE", 0 };
	in[nin++] = (struct cmd_file){ c->o.source_store, "the store segment", 0 };
	in[nin++] = (struct cmd_file){ c->policy_file, "--policy", 0 };
	for (size_t i = 0; i < c->profiles.n; i++)
		in[nin++] = (struct cmd_file){ c->profiles.v[i], "--profile", 0 };
	for (size_t i = 0; i < c->tables.n; i++)
		in[nin++] = (struct cmd_file){ c->tables.v[i], "--device-table",
					       0 };
	for (size_t i = 0; i < c->excl.nfiles; i++)
		in[nin++] = (struct cmd_file){ c->excl.files[i],
					       "--exclude-from", 0 };
	rc = cmd_check_outputs(in, nin, out, sizeof(out) / sizeof(*out));
	free(in);
	return rc ? cmd_stop(rc) : CMD_GO_ON;
}

struct cmd_step mkfs_cli_parse(struct mkfs_cli *c, int argc, char **argv)
{
	struct cmd_step step;

	memset(c, 0, sizeof(*c));
	axfs_build_opts_init(&c->o);
	step = parse_options(c, argc, argv);
	if (!step.stop)
		step = operands(c, argc, argv);
	if (!step.stop)
		step = check_files(c);
	c->o.xip_globs = c->xip.v;
	c->o.n_xip_globs = c->xip.n;
	c->o.exclude_globs = c->excl.glob;
	c->o.exclude_where = c->excl.where;
	c->o.n_exclude_globs = c->excl.n;
	return step;
}

void mkfs_cli_free(struct mkfs_cli *c)
{
	cmd_strings_free(&c->profiles);
	cmd_strings_free(&c->tables);
	cmd_strings_free(&c->xip);
	excludes_free(&c->excl);
}

struct cmd_step mkfs_cli_check_level(const struct axfs_build_opts *o)
{
	enum axfs_compressor comp = o->compressor ? o->compressor :
				    o->policy ? o->policy->compressor :
				    AXFS_COMPRESSOR_DEFAULT;
	int max = axfs_compressor_max_level(comp);

	if (!o->level || o->level <= max)
		return CMD_GO_ON;
	return cmd_stop(cmd_usage_error("invalid level '%d': %s takes 1 to %d",
					o->level, axfs_compressor_name(comp),
					max));
}

int mkfs_cli_report_is_stdout(const struct mkfs_cli *c)
{
	const char *r[] = { c->report_text, c->report_json, c->report_svg };

	for (size_t i = 0; i < sizeof(r) / sizeof(*r); i++)
		if (r[i] && strcmp(r[i], "-") == 0)
			return 1;
	return 0;
}
