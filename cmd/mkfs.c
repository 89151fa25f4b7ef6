// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cmd/mkfs.c - axfs mkfs: build an image from a directory, an archive or
 * an image.
 *
 *   axfs mkfs [options] SOURCE -o IMAGE
 *   axfs mkfs [options] SOURCE IMAGE        (as mkfs.cramfs takes it)
 *   axfs mkfs [options] OLD.nor OLD.nand -o IMAGE   (a split image source)
 *
 * Parses the command line, loads the policy and the profiles, and runs
 * axfs_build(), which does the work and the atomic output.  SIGINT and
 * SIGTERM remove the temporary file before the process dies.
 */
#include <errno.h>
#include <getopt.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "common.h"
#include "options_legacy.h"
#include "outputs.h"
#include "progress.h"
#include "signals.h"
#include "axfs_build.h"
#include "axfs_format.h"
#include "axfs_glob.h"
#include "axfs_policy.h"
#include "axfs_profile.h"
#include "axfs_source.h"
#include "mkfs_exclude.h"
#include "mkfs_summary.h"
#include "util_report.h"

enum {
	OPT_XIP = 256,
	OPT_XIP_BUDGET,
	OPT_MMAP_LIMIT,
	OPT_XIP_SUFFIX,
	OPT_PAD,
	OPT_PAD_BYTE,
	OPT_ALL_ROOT,
	OPT_UID,
	OPT_GID,
	OPT_MTIME,
	OPT_COMPRESS_METADATA,
	OPT_COMPRESSOR,
	OPT_REPORT,
	OPT_REPORT_JSON,
	OPT_REPORT_SVG,
	OPT_XATTRS,
	OPT_STRICT_PROFILE,
	OPT_EXCLUDE,
	OPT_EXCLUDE_FROM,
};

static const struct option longopts[] = {
	{ "output", required_argument, NULL, 'o' },
	{ "block-size", required_argument, NULL, 'b' },
	{ "level", required_argument, NULL, 'l' },
	{ "compressor", required_argument, NULL, OPT_COMPRESSOR },
	{ "jobs", required_argument, NULL, 'j' },
	{ "xip", required_argument, NULL, OPT_XIP },
	{ "exclude", required_argument, NULL, OPT_EXCLUDE },
	{ "exclude-from", required_argument, NULL, OPT_EXCLUDE_FROM },
	{ "profile", required_argument, NULL, 'p' },
	{ "policy", required_argument, NULL, 'c' },
	{ "xip-budget", required_argument, NULL, OPT_XIP_BUDGET },
	{ "mmap-limit", required_argument, NULL, OPT_MMAP_LIMIT },
	{ "xip-suffix", no_argument, NULL, OPT_XIP_SUFFIX },
	{ "strict-profile", no_argument, NULL, OPT_STRICT_PROFILE },
	{ "pad", required_argument, NULL, OPT_PAD },
	{ "pad-byte", required_argument, NULL, OPT_PAD_BYTE },
	{ "all-root", no_argument, NULL, OPT_ALL_ROOT },
	{ "uid", required_argument, NULL, OPT_UID },
	{ "gid", required_argument, NULL, OPT_GID },
	{ "mtime", required_argument, NULL, OPT_MTIME },
	{ "compress-metadata", required_argument, NULL, OPT_COMPRESS_METADATA },
	{ "report", required_argument, NULL, OPT_REPORT },
	{ "report-json", required_argument, NULL, OPT_REPORT_JSON },
	{ "report-svg", required_argument, NULL, OPT_REPORT_SVG },
	{ "xattrs", required_argument, NULL, OPT_XATTRS },
	CMD_LONGOPTS_PROGRESS_END,
};

static int usage(void)
{
	printf(
"usage: axfs mkfs [options] SOURCE [STORE-SEGMENT] -o IMAGE\n"
"       axfs mkfs [options] SOURCE IMAGE\n"
"\n"
"Build an AXFS image from SOURCE: a directory, an archive (tar, pax, cpio;\n"
"gzip, xz, zstd or bzip2 compressed), - for an archive or an image on\n"
"standard input, or an AXFS image (with the store segment of a split image\n"
"after it) to plan again, e.g. with a new profile.\n"
"\n"
"  -o, --output IMAGE        the image to write (replaced only when complete;\n"
"                            - for standard output)\n"
"  -b, --block-size SIZE     compression block size, a power of two from 4KiB\n"
"                            to 1MiB (default %uKiB)\n"
"  -l, --level N             compression level: 1..12 with libdeflate, 1..9\n"
"                            with zlib (default %d)\n"
"      --compressor NAME     the library that writes the zlib streams:\n"
"                            libdeflate (default; smaller, faster) or zlib\n"
"  -j, --jobs N              compression threads (default: online CPUs)\n"
"      --xip GLOB            store the files matching GLOB (an image path such\n"
"                            as '/bin/*') uncompressed for execute-in-place;\n"
"                            repeatable\n"
"      --exclude GLOB        leave the entries matching GLOB (an image path\n"
"                            such as '/usr/share/doc/**') out, with what is\n"
"                            under them; repeatable\n"
"      --exclude-from FILE   the same for each line of FILE (# comments)\n"
"  -p, --profile CSV         make the pages a profile counted XIP; repeatable\n"
"      --strict-profile      a profile entry naming no page of the tree is an\n"
"                            error (one that matches nothing always is)\n"
"  -c, --policy YAML         build policy (see axfs-policy(5))\n"
"      --xip-budget SIZE     most bytes of XIP pages (hottest pages first); a\n"
"                            build whose whole-file XIP exceeds it fails\n"
"      --mmap-limit SIZE     most bytes of the memory-mapped part of the image\n"
"      --xip-suffix          make every page after a file's first XIP page XIP\n"
"                            too, within the budget (for the 2008 driver)\n"
"      --pad SIZE            pad the file to SIZE (a partition's size); the\n"
"                            image itself keeps its own length\n"
"      --pad-byte BYTE       the padding byte: 0x00 (default) or 0xff for\n"
"                            erased flash\n"
"      --all-root            make every file owned by root:root\n"
"      --uid N, --gid N      make every file owned by user N / group N\n"
"      --mtime TIME          image timestamp: seconds since 1970 or\n"
"                            YYYY-MM-DD[THH:MM:SS] UTC (default:\n"
"                            SOURCE_DATE_EPOCH, else now)\n"
"      --compress-metadata=auto|yes|no\n"
"                            zlib-compress the metadata (default auto)\n"
"      --xattrs=warn|error|ignore\n"
"                            what to do with extended attributes and ACLs\n"
"                            (SELinux labels, capabilities), which AXFS\n"
"                            cannot store (default warn)\n"
"      --report FILE         write what became of every page, and why (- for\n"
"                            standard output)\n"
"      --report-json FILE    the same report as JSON\n"
"      --report-svg FILE     a picture of the regions and the XIP files\n",
	       AXFS_DEFAULT_BLOCK_SIZE / 1024, AXFS_DEFAULT_LEVEL);
	return cmd_print_shared_help(28, 1, NULL,
				     "say more; repeat for debugging output",
				     "\nSee axfs-mkfs(1).\n");
}

static void progress_fn(void *ctx, uint64_t files_done, uint64_t files_total,
			uint64_t bytes_done, uint64_t bytes_total)
{
	(void)ctx;
	cmd_progress_update(files_done, files_total, bytes_done, bytes_total);
}

/* ---- option values ------------------------------------------------------ */

static int parse_block_size(const char *s, uint32_t *out)
{
	uint64_t v;

	if (axfs_parse_size(s, &v, NULL, 0) < 0 || !AXFS_CBLOCK_SIZE_OK(v))
		return -1;
	*out = (uint32_t)v;
	return 0;
}

/* Seconds since 1970 ("1700000000", "@1700000000") or a UTC date. */
static int parse_time(const char *s, int64_t *out)
{
	static const char *const fmts[] = {
		"%Y-%m-%dT%H:%M:%SZ", "%Y-%m-%dT%H:%M:%S",
		"%Y-%m-%d %H:%M:%S", "%Y-%m-%d",
	};
	unsigned long long v;
	struct tm tm;

	if (*s == '@')
		s++;
	if (cmd_parse_uint(s, (unsigned long long)INT64_MAX, &v) == 0) {
		*out = (int64_t)v;
		return 0;
	}
	for (size_t i = 0; i < sizeof(fmts) / sizeof(*fmts); i++) {
		const char *end;
		time_t t;

		memset(&tm, 0, sizeof(tm));
		end = strptime(s, fmts[i], &tm);
		if (!end || *end)
			continue;
		t = timegm(&tm);
		if (t < 0)
			return -1;
		*out = (int64_t)t;
		return 0;
	}
	return -1;
}

/* -l against the compressor of the command line, else the policy's, else
 * the default: a usage error, before anything is read or written. */
static int check_level(const struct axfs_build_opts *o)
{
	enum axfs_compressor c = o->compressor ? o->compressor :
				 o->policy ? o->policy->compressor :
				 AXFS_COMPRESSOR_DEFAULT;
	int max = axfs_compressor_max_level(c);

	if (o->level <= max)
		return 0;
	cmd_usage_error("invalid level '%d': %s takes 1 to %d", o->level,
			axfs_compressor_name(c), max);
	return -1;
}

static int add_string(const char ***v, size_t *n, const char *s)
{
	const char **nv = realloc(*v, (*n + 1) * sizeof(**v));

	if (!nv)
		return -1;
	nv[(*n)++] = s;
	*v = nv;
	return 0;
}

/* Every output against every input and the other outputs, and every
 * output writable, before anything is read or written. */
static int check_files(const struct axfs_build_opts *o, const char **profiles,
		       size_t nprofiles, const struct excludes *excl,
		       const char *policy_file,
		       const char *report_text, const char *report_json,
		       const char *report_svg)
{
	struct cmd_file out[] = {
		{ o->output, "the image" },
		{ report_text, "--report" },
		{ report_json, "--report-json" },
		{ report_svg, "--report-svg" },
	};
	struct cmd_file *in = calloc(nprofiles + excl->nfiles + 3, sizeof(*in));
	size_t nin = 0;
	int rc;

	if (!in) {
		cmd_error("out of memory");
		return EXIT_OPERATIONAL;
	}
	in[nin++] = (struct cmd_file){ o->source, "SOURCE" };
	in[nin++] = (struct cmd_file){ o->source_store, "the store segment" };
	in[nin++] = (struct cmd_file){ policy_file, "--policy" };
	for (size_t i = 0; i < nprofiles; i++)
		in[nin++] = (struct cmd_file){ profiles[i], "--profile" };
	for (size_t i = 0; i < excl->nfiles; i++)
		in[nin++] = (struct cmd_file){ excl->files[i], "--exclude-from" };
	rc = cmd_check_outputs(in, nin, out, sizeof(out) / sizeof(*out));
	free(in);
	return rc;
}

static int report_is_stdout(const char *text, const char *json,
			    const char *svg)
{
	return (text && !strcmp(text, "-")) || (json && !strcmp(json, "-")) ||
	       (svg && !strcmp(svg, "-"));
}

/* Seconds since an arbitrary point, for the build's time. */
static double now_seconds(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int cmd_mkfs(int argc, char **argv)
{
	struct cmd_getopt g = CMD_GETOPT_INIT("o:b:l:j:p:c:", longopts, usage);
	struct axfs_build_opts o;
	struct axfs_build_result *res = NULL;
	struct axfs_policy policy;
	struct axfs_profile profile;
	struct axfs_error err;
	const char **xip = NULL, **profiles = NULL;
	struct excludes excl = { 0 };
	size_t nxip = 0, nprofiles = 0;
	const char *output = NULL, *policy_file = NULL;
	const char *report_text = NULL, *report_json = NULL, *report_svg = NULL;
	int have_policy = 0, have_profile = 0;
	int rc = EXIT_OPERATIONAL, c;
	double started = now_seconds();
	unsigned long long v;
	char why[256];

	axfs_build_opts_init(&o);
	axfs_error_clear(&err);
	while ((c = cmd_getopt(argc, argv, &g)) != -1) {
		switch (c) {
		case 'o':
			output = optarg;
			break;
		case 'b':
			if (parse_block_size(optarg, &o.block_size) < 0) {
				rc = cmd_usage_error("invalid block size '%s': "
					"use a power of two from 4KiB to 1MiB",
					optarg);
				goto out;
			}
			break;
		case 'l':
			/* Checked against the compressor once it is known. */
			if (cmd_parse_uint(optarg, 1000, &v) < 0 || v < 1) {
				rc = cmd_usage_error("invalid level '%s': use 1 "
					"to 12 with libdeflate, 1 to 9 with zlib",
					optarg);
				goto out;
			}
			o.level = (int)v;
			break;
		case OPT_COMPRESSOR:
			o.compressor = axfs_compressor_by_name(optarg);
			if (o.compressor == AXFS_COMPRESSOR_DEFAULT) {
				rc = cmd_usage_error("invalid compressor '%s': "
					"use %s", optarg,
					axfs_compressor_names());
				goto out;
			}
			break;
		case 'j':
			if (cmd_parse_uint(optarg, 1024, &v) < 0) {
				rc = cmd_usage_error("invalid number of jobs "
					"'%s': use 1 to 1024 (0: one per CPU)",
					optarg);
				goto out;
			}
			o.jobs = (int)v;
			break;
		case OPT_XIP:
			if (optarg[0] != '/') {
				rc = cmd_usage_error("--xip '%s': the pattern "
					"must be an image path starting with "
					"'/', such as '/bin/*'", optarg);
				goto out;
			}
			if (axfs_glob_check(optarg, why, sizeof(why)) < 0) {
				rc = cmd_usage_error("--xip '%s': %s", optarg,
						     why);
				goto out;
			}
			if (add_string(&xip, &nxip, optarg) < 0)
				goto nomem;
			break;
		case 'p':
			if (add_string(&profiles, &nprofiles, optarg) < 0)
				goto nomem;
			break;
		case OPT_EXCLUDE:
		case OPT_EXCLUDE_FROM:
			rc = c == OPT_EXCLUDE ?
			     add_exclude(&excl, optarg, "--exclude", 0) :
			     read_exclude_file(&excl, optarg);
			if (rc < 0)
				goto nomem;
			if (rc > 0)
				goto out;
			rc = EXIT_OPERATIONAL;
			break;
		case 'c':
			policy_file = optarg;
			break;
		case OPT_XIP_BUDGET:
			if (axfs_parse_size(optarg, &o.budget, why,
					    sizeof(why)) < 0) {
				rc = cmd_usage_error("invalid --xip-budget: %s",
						     why);
				goto out;
			}
			o.has_budget = 1;
			break;
		case OPT_MMAP_LIMIT:
			if (axfs_parse_size(optarg, &o.mmap_limit, why,
					    sizeof(why)) < 0) {
				rc = cmd_usage_error("invalid --mmap-limit: %s",
						     why);
				goto out;
			}
			/* As the policy's split.mmap-limit: the mapped part
			 * ends on a page boundary, so a limit is in pages. */
			if (o.mmap_limit == 0 || o.mmap_limit % 4096) {
				rc = cmd_usage_error("invalid --mmap-limit: it "
						     "must be a positive "
						     "multiple of 4KiB");
				goto out;
			}
			break;
		case OPT_XIP_SUFFIX:
			o.xip_suffix = 1;
			break;
		case OPT_STRICT_PROFILE:
			o.strict_profile = 1;
			break;
		case OPT_PAD:
			if (axfs_parse_size(optarg, &o.pad_size, why,
					    sizeof(why)) < 0 || o.pad_size == 0) {
				rc = cmd_usage_error("invalid --pad: %s",
						     o.pad_size ? why :
						     "not a positive size");
				goto out;
			}
			break;
		case OPT_PAD_BYTE: {
			char *end;
			unsigned long b;

			errno = 0;
			b = strtoul(optarg, &end, 0);
			if (errno || end == optarg || *end || b > 255 ||
			    *optarg == '-') {
				rc = cmd_usage_error("invalid --pad-byte: '%s' "
						     "is not 0 to 255 (0x00 to "
						     "0xff)", optarg);
				goto out;
			}
			o.pad_byte = (int)b;
			break;
		}
		case OPT_ALL_ROOT:
			o.all_root = 1;
			break;
		case OPT_UID:
		case OPT_GID:
			if (cmd_parse_uint(optarg, UINT32_MAX, &v) < 0) {
				rc = cmd_usage_error("invalid %s '%s': use a "
					"number from 0 to 4294967295",
					c == OPT_UID ? "uid" : "gid", optarg);
				goto out;
			}
			if (c == OPT_UID)
				o.force_uid = (int64_t)v;
			else
				o.force_gid = (int64_t)v;
			break;
		case OPT_MTIME:
			if (parse_time(optarg, &o.timestamp) < 0) {
				rc = cmd_usage_error("invalid time '%s': use "
					"seconds since 1970 or YYYY-MM-DD"
					"[THH:MM:SS] (UTC)", optarg);
				goto out;
			}
			o.has_timestamp = 1;
			break;
		case OPT_COMPRESS_METADATA:
			if (!strcmp(optarg, "auto")) {
				o.compress_metadata = -1;
			} else if (!strcmp(optarg, "yes")) {
				o.compress_metadata = 1;
			} else if (!strcmp(optarg, "no")) {
				o.compress_metadata = 0;
			} else {
				rc = cmd_usage_error("invalid --compress-metadata "
					"'%s': use auto, yes or no", optarg);
				goto out;
			}
			break;
		case OPT_REPORT:
			report_text = optarg;
			break;
		case OPT_REPORT_JSON:
			report_json = optarg;
			break;
		case OPT_REPORT_SVG:
			report_svg = optarg;
			break;
		case OPT_XATTRS:
			o.xattrs = axfs_xattr_action_parse(optarg);
			if (o.xattrs == AXFS_XATTRS_UNSET) {
				rc = cmd_usage_error("invalid --xattrs '%s': "
					"use warn, error or ignore", optarg);
				goto out;
			}
			break;
		case CMD_OPT_EXIT:
			rc = g.exit_code;
			goto out;
		}
	}

	switch (argc - optind) {
	case 0:
		rc = cmd_usage_error("no source given");
		goto out;
	case 1:
		break;
	case 2:
		/* With -o, a second name is the store segment of a split
		 * image source; without, the image to write. */
		if (output) {
			o.source_store = argv[optind + 1];
			break;
		}
		output = argv[optind + 1];
		break;
	case 3:
		if (output) {
			rc = cmd_usage_error("the image is given twice: '%s' "
					     "and '%s'", output, argv[optind + 2]);
			goto out;
		}
		o.source_store = argv[optind + 1];
		output = argv[optind + 2];
		break;
	default:
		rc = cmd_usage_error("too many arguments");
		goto out;
	}
	if (!output) {
		rc = cmd_usage_error("no image given (-o IMAGE)");
		goto out;
	}
	if (strcmp(output, "-") == 0 &&
	    ((report_text && strcmp(report_text, "-") == 0) ||
	     (report_json && strcmp(report_json, "-") == 0) ||
	     (report_svg && strcmp(report_svg, "-") == 0))) {
		rc = cmd_usage_error("the image goes to standard output (-o -): "
				     "a report cannot go there too");
		goto out;
	}
	if (o.source_store && !axfs_source_is_image(argv[optind])) {
		rc = cmd_usage_error("too many arguments: only an AXFS image "
				     "source takes a store segment, and '%s' "
				     "is none", argv[optind]);
		goto out;
	}
	o.source = argv[optind];
	o.output = output;
	if ((rc = check_files(&o, profiles, nprofiles, &excl, policy_file,
			      report_text, report_json, report_svg)) != 0)
		goto out;
	rc = EXIT_OPERATIONAL;
	o.xip_globs = xip;
	o.n_xip_globs = nxip;
	o.exclude_globs = excl.glob;
	o.exclude_where = excl.where;
	o.n_exclude_globs = excl.n;
	o.log = &cmd_logger;
	o.cancel = &cmd_cancelled;

	if (policy_file) {
		axfs_policy_init(&policy);
		have_policy = 1;
		if (axfs_policy_load(&policy, policy_file, &err) < 0) {
			cmd_error("%s", err.msg);
			goto out;
		}
		o.policy = &policy;
	}
	if (o.level && check_level(&o) < 0) {
		rc = EXIT_USAGE;
		goto out;
	}
	if (nprofiles) {
		axfs_profile_init(&profile, &cmd_logger);
		have_profile = 1;
		for (size_t i = 0; i < nprofiles; i++) {
			if (axfs_profile_read(&profile, profiles[i], &err) < 0) {
				cmd_error("%s", err.msg);
				goto out;
			}
		}
		if (axfs_profile_canonicalize(&profile, &err) < 0) {
			cmd_error("%s", err.msg);
			goto out;
		}
		o.profile = &profile;
	}
	if (cmd_progress_begin(cmd_name, 1))
		o.progress = progress_fn;

	cmd_remove_output_on_signal();
	if (axfs_build(&o, &res, &err) < 0) {
		cmd_error("%s", err.msg);
		rc = EXIT_OPERATIONAL;
		goto out;
	}
	cmd_progress_end();
	/* The image is complete; a report that cannot be written is an
	 * error of its own but leaves the image in place. */
	rc = mkfs_write_reports(res, output, report_text, report_json,
				report_svg) < 0 ? EXIT_OPERATIONAL : EXIT_OK;
	/* Last, on standard output as mksquashfs prints its own (unless a
	 * report went there): a reader that went away misses no file. */
	if (cmd_verbosity >= 1)
		mkfs_print_summary(report_is_stdout(report_text, report_json,
						    report_svg) ? stderr : stdout,
				   output, res, now_seconds() - started);
	axfs_build_result_free(res);
	goto out;

nomem:
	cmd_error("out of memory");
	rc = EXIT_OPERATIONAL;
out:
	if (have_policy)
		axfs_policy_free(&policy);
	if (have_profile)
		axfs_profile_free(&profile);
	free(xip);
	free(profiles);
	excludes_free(&excl);
	return cmd_finish_stdout(rc);
}
