// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The YAML policy: one test per key and per kind of error, each error
 * checked word for word with its file:line:column, and the application
 * of a policy to a real tree (tree.c).
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "axfs_policy.h"
#include "policy_apply.h"
#include "unit.h"

static struct axfs_policy pol;
static struct axfs_error err;

static void setup(void)
{
	axfs_policy_init(&pol);
	axfs_error_clear(&err);
}

static void teardown(void)
{
	axfs_policy_free(&pol);
}

static int parse(const char *text)
{
	axfs_error_clear(&err);
	return axfs_policy_parse(&pol, "p.yaml", text, strlen(text), &err);
}

#define OK(text) ck_assert_msg(parse(text) == 0, "rejected: %s", err.msg)
#define ERR(text, want) do { \
	ck_assert_msg(parse(text) < 0, "accepted: %s", text); \
	ck_assert_str_eq(err.msg, want); \
	/* all or nothing: a failed parse leaves an empty policy */ \
	ck_assert_int_eq(pol.level, -1); \
	ck_assert_int_eq(pol.compressor, AXFS_COMPRESSOR_DEFAULT); \
	ck_assert_uint_eq(pol.n_rules, 0); \
	ck_assert_uint_eq(pol.n_devices, 0); } while (0)

/* ---- the whole schema ------------------------------------------------------ */

START_TEST(test_design_example)
{
	OK("compression: { level: 9, block-size: 64KiB }\n"
	   "xip:\n"
	   "  budget: 8MiB            # at most this many bytes of XIP pages\n"
	   "  min-count: 2\n"
	   "  files: [/bin/busybox]\n"
	   "  exclude: [\"/usr/share/**\"]\n"
	   "owners: { all-root: true }\n"
	   "files:\n"
	   "  - { match: \"/usr/bin/sudo\", mode: \"04755\", uid: 0, gid: 0 }\n"
	   "  - { match: \"/etc/**\", compress: none }\n"
	   "devices:\n"
	   "  - { path: /dev/console, type: char, major: 5, minor: 1, mode: \"0600\" }\n"
	   "timestamp: 0\n"
	   "split: { mmap-limit: 16MiB }\n");
	ck_assert_str_eq(pol.file, "p.yaml");
	ck_assert_int_eq(pol.level, 9);
	ck_assert_uint_eq(pol.block_size, 65536);
	ck_assert_int_eq(pol.has_xip_budget, 1);
	ck_assert_uint_eq(pol.xip_budget, 8u << 20);
	ck_assert_uint_eq(pol.xip_min_count, 2);
	ck_assert_uint_eq(pol.n_xip_files, 1);
	ck_assert_str_eq(pol.xip_files[0], "/bin/busybox");
	ck_assert_uint_eq(pol.xip_files_pos[0].line, 5);
	ck_assert_uint_eq(pol.xip_files_pos[0].column, 11);
	ck_assert_uint_eq(pol.n_xip_exclude, 1);
	ck_assert_str_eq(pol.xip_exclude[0], "/usr/share/**");
	ck_assert_int_eq(pol.all_root, 1);
	ck_assert_int_eq(pol.has_uid, 0);
	ck_assert_uint_eq(pol.n_rules, 2);
	ck_assert_str_eq(pol.rules[0].match, "/usr/bin/sudo");
	ck_assert_int_eq(pol.rules[0].has_mode, 1);
	ck_assert_uint_eq(pol.rules[0].mode, 04755);
	ck_assert_int_eq(pol.rules[0].has_uid, 1);
	ck_assert_int_eq(pol.rules[0].has_gid, 1);
	ck_assert_int_eq(pol.rules[0].compress, -1);
	ck_assert_int_eq(pol.rules[0].xip, -1);
	ck_assert_uint_eq(pol.rules[0].line, 9);
	ck_assert_uint_eq(pol.rules[0].column, 5);
	ck_assert_int_eq(pol.rules[1].compress, 0);
	ck_assert_int_eq(pol.rules[1].has_mode, 0);
	ck_assert_uint_eq(pol.n_devices, 1);
	ck_assert_str_eq(pol.devices[0].path, "/dev/console");
	ck_assert_int_eq(pol.devices[0].type, AXFS_FT_CHR);
	ck_assert_uint_eq(pol.devices[0].major, 5);
	ck_assert_uint_eq(pol.devices[0].minor, 1);
	ck_assert_uint_eq(pol.devices[0].mode, 0600);
	ck_assert_uint_eq(pol.devices[0].line, 12);
	ck_assert_int_eq(pol.has_timestamp, 1);
	ck_assert_int_eq(pol.timestamp, 0);
	ck_assert_uint_eq(pol.mmap_limit, 16u << 20);
}
END_TEST

START_TEST(test_empty_and_null)
{
	OK("");
	ck_assert_int_eq(pol.level, -1);
	ck_assert_int_eq(pol.all_root, -1);
	ck_assert_int_eq(pol.has_timestamp, 0);
	OK("# only a comment\n");
	OK("---\n...\n");
	OK("compression:\nxip: ~\nowners: null\nfiles: []\ndevices:\nsplit: {}\n");
	ck_assert_uint_eq(pol.n_rules, 0);
}
END_TEST

/* ---- compression ----------------------------------------------------------- */

START_TEST(test_compression_level)
{
	OK("compression: {level: 1}");
	ck_assert_int_eq(pol.level, 1);
	OK("compression:\n  level: \"6\"\n");
	ck_assert_int_eq(pol.level, 6);
	/* no compressor named: the default's levels, libdeflate's 1 to 12 */
	OK("compression:\n  level: 12\n");
	ck_assert_int_eq(pol.level, 12);
	ck_assert_int_eq(pol.compressor, AXFS_COMPRESSOR_DEFAULT);
	/* where it is, for axfs_build to name against another compressor */
	ck_assert_uint_eq(pol.level_pos.line, 2);
	ck_assert_uint_eq(pol.level_pos.column, 10);
	ERR("compression:\n  level: 13\n",
	    "p.yaml:2:10: compression.level: 13 is out of range for libdeflate (1 to 12)");
	ERR("compression:\n  level: 0\n",
	    "p.yaml:2:10: compression.level: 0 is out of range for libdeflate (1 to 12)");
	ERR("compression: {level: high}",
	    "p.yaml:1:22: compression.level: 'high' is not an integer (expected 1 to 12 for libdeflate)");
	ERR("compression: {level: -3}",
	    "p.yaml:1:22: compression.level: '-3' is not an integer (expected 1 to 12 for libdeflate)");
	ERR("compression: {level: [9]}",
	    "p.yaml:1:22: compression.level: expected an integer, got a list");
	ERR("compression: {level: }",
	    "p.yaml:1:22: compression.level: expected an integer, got nothing");
}
END_TEST

START_TEST(test_compression_block_size)
{
	OK("compression: {block-size: 4KiB}");
	ck_assert_uint_eq(pol.block_size, 4096);
	OK("compression: {block-size: 1MiB}");
	ck_assert_uint_eq(pol.block_size, 1u << 20);
	OK("compression: {block-size: 131072}");
	ck_assert_uint_eq(pol.block_size, 131072);
	ERR("compression: {block-size: 2MiB}",
	    "p.yaml:1:27: compression.block-size: 2MiB is not a power of two from 4KiB to 1MiB");
	ERR("compression: {block-size: 2048}",
	    "p.yaml:1:27: compression.block-size: 2048 is not a power of two from 4KiB to 1MiB");
	ERR("compression: {block-size: 96KiB}",
	    "p.yaml:1:27: compression.block-size: 96KiB is not a power of two from 4KiB to 1MiB");
	ERR("compression: {block-size: 64QB}",
	    "p.yaml:1:27: compression.block-size: '64QB': unknown unit 'QB' (use B, KiB, MiB, GiB or TiB)");
	ERR("compression: {block-size: {a: 1}}",
	    "p.yaml:1:27: compression.block-size: expected a size such as 64KiB, got a mapping");
	ERR("compression: 9",
	    "p.yaml:1:14: compression: expected a mapping (compressor, level, block-size), got a scalar");
}
END_TEST

START_TEST(test_compression_compressor)
{
	OK("compression: {compressor: zlib}");
	ck_assert_int_eq(pol.compressor, AXFS_COMPRESSOR_ZLIB);
	ck_assert_int_eq(pol.level, -1);
	OK("compression: {compressor: libdeflate, level: 12}");
	ck_assert_int_eq(pol.compressor, AXFS_COMPRESSOR_LIBDEFLATE);
	ck_assert_int_eq(pol.level, 12);
	/* the level is checked against the compressor wherever it stands */
	OK("compression: {level: 9, compressor: zlib}");
	ck_assert_int_eq(pol.compressor, AXFS_COMPRESSOR_ZLIB);
	ck_assert_int_eq(pol.level, 9);
	ERR("compression: {level: 10, compressor: zlib}",
	    "p.yaml:1:22: compression.level: 10 is out of range for zlib (1 to 9)");
	ERR("compression:\n  compressor: zlib\n  level: 12\n",
	    "p.yaml:3:10: compression.level: 12 is out of range for zlib (1 to 9)");
	ERR("compression: {compressor: libdeflate, level: 13}",
	    "p.yaml:1:46: compression.level: 13 is out of range for libdeflate (1 to 12)");
	ERR("compression: {compressor: gzip}",
	    "p.yaml:1:27: compression.compressor: expected libdeflate or zlib, got 'gzip'");
	ERR("compression: {compressor: Zlib}",
	    "p.yaml:1:27: compression.compressor: expected libdeflate or zlib, got 'Zlib'");
	ERR("compression: {compressor: [zlib]}",
	    "p.yaml:1:27: compression.compressor: expected libdeflate or zlib, got a list");
	ERR("compression: {compressor: }",
	    "p.yaml:1:27: compression.compressor: expected libdeflate or zlib, got nothing");
	ERR("compression: {compresor: zlib}",
	    "p.yaml:1:15: compression.compresor: unknown key; did you mean 'compressor'?");
}
END_TEST

/* ---- xip -------------------------------------------------------------------------- */

START_TEST(test_xip_budget_min_count)
{
	OK("xip: {budget: 0}");
	ck_assert_int_eq(pol.has_xip_budget, 1);
	ck_assert_uint_eq(pol.xip_budget, 0);
	OK("xip: {budget: 1GiB, min-count: 18446744073709551615}");
	ck_assert_uint_eq(pol.xip_budget, 1u << 30);
	ck_assert_uint_eq(pol.xip_min_count, UINT64_MAX);
	ERR("xip:\n  budget: lots\n",
	    "p.yaml:2:11: xip.budget: 'lots' is not a size (expected a number with an optional unit such as 64KiB)");
	ERR("xip:\n  budget: -1\n", "p.yaml:2:11: xip.budget: a size cannot be negative");
	ERR("xip: {min-count: 1.5}",
	    "p.yaml:1:18: xip.min-count: '1.5' is not an integer (expected 0 to 18446744073709551615)");
	ERR("xip: {min-count: 18446744073709551616}",
	    "p.yaml:1:18: xip.min-count: 18446744073709551616 is out of range (0 to 18446744073709551615)");
}
END_TEST

START_TEST(test_xip_files_exclude)
{
	OK("xip:\n  files: /bin/busybox\n  exclude:\n    - /usr/share/**\n    - \"/lib/*.a\"\n");
	ck_assert_uint_eq(pol.n_xip_files, 1);
	ck_assert_str_eq(pol.xip_files[0], "/bin/busybox");
	ck_assert_uint_eq(pol.n_xip_exclude, 2);
	ck_assert_str_eq(pol.xip_exclude[1], "/lib/*.a");
	ck_assert_uint_eq(pol.xip_exclude_pos[1].line, 5);
	ck_assert_uint_eq(pol.xip_exclude_pos[1].column, 7);
	ERR("xip:\n  files: [\"/a[b\"]\n",
	    "p.yaml:2:11: xip.files[0]: bad glob '/a[b': unterminated bracket expression (missing ']') at byte 3");
	ERR("xip:\n  exclude: [/ok, \"/x/../y\"]\n",
	    "p.yaml:2:18: xip.exclude[1]: bad glob '/x/../y': '..' components are not allowed (paths are normalised)");
	ERR("xip: {files: [{a: 1}]}",
	    "p.yaml:1:15: xip.files[0]: expected a path glob, got a mapping");
	ERR("xip: {exclude: {a: 1}}",
	    "p.yaml:1:16: xip.exclude: expected a glob or a list of globs, got a mapping");
	ERR("xip: [1]",
	    "p.yaml:1:6: xip: expected a mapping (budget, min-count, files, exclude, suffix, strict-profile), got a list");
}
END_TEST

/* ---- owners ------------------------------------------------------------------------ */

START_TEST(test_owners)
{
	OK("owners: {all-root: yes}");
	ck_assert_int_eq(pol.all_root, 1);
	OK("owners: {all-root: False}");
	ck_assert_int_eq(pol.all_root, 0);
	OK("owners: {uid: 1000, gid: 4294967295}");
	ck_assert_int_eq(pol.all_root, -1);
	ck_assert_int_eq(pol.has_uid, 1);
	ck_assert_uint_eq(pol.uid, 1000);
	ck_assert_int_eq(pol.has_gid, 1);
	ck_assert_uint_eq(pol.gid, 4294967295u);
	OK("owners: {all-root: false, uid: 5}");
	ERR("owners: {all-root: maybe}",
	    "p.yaml:1:20: owners.all-root: expected true or false, got 'maybe'");
	ERR("owners: {uid: 4294967296}",
	    "p.yaml:1:15: owners.uid: 4294967296 is out of range (0 to 4294967295)");
	ERR("owners: {gid: root}",
	    "p.yaml:1:15: owners.gid: 'root' is not an integer (expected 0 to 4294967295)");
	ERR("owners:\n  all-root: true\n  uid: 5\n",
	    "p.yaml:2:13: owners.all-root: all-root: true sets every owner to 0; it cannot be combined with owners.uid or owners.gid");
}
END_TEST

/* ---- files rules ---------------------------------------------------------------- */

START_TEST(test_rule_keys)
{
	OK("files:\n"
	   "  - match: /etc/**\n"
	   "    type: file\n"
	   "    mode: \"0644\"\n"
	   "    uid: 0\n"
	   "    gid: 42\n"
	   "    compress: zlib\n"
	   "    xip: false\n"
	   "  - {match: /bin/*, xip: true, compress: none}\n");
	ck_assert_uint_eq(pol.n_rules, 2);
	ck_assert_int_eq(pol.rules[0].type, AXFS_FT_REG);
	ck_assert_uint_eq(pol.rules[0].mode, 0644);
	ck_assert_uint_eq(pol.rules[0].gid, 42);
	ck_assert_int_eq(pol.rules[0].compress, 1);
	ck_assert_int_eq(pol.rules[0].xip, 0);
	ck_assert_uint_eq(pol.rules[0].line, 2);
	ck_assert_uint_eq(pol.rules[0].column, 5);
	ck_assert_int_eq(pol.rules[1].type, AXFS_FT_NONE);
	ck_assert_int_eq(pol.rules[1].xip, 1);
	ck_assert_int_eq(pol.rules[1].compress, 0);
	ck_assert_int_eq(pol.rules[1].has_mode, 0);
}
END_TEST

START_TEST(test_rule_modes)
{
	static const struct { const char *text; unsigned mode; } ok[] = {
		{ "\"0755\"", 0755 }, { "0755", 0755 }, { "755", 0755 },
		{ "\"04755\"", 04755 }, { "0o640", 0640 }, { "'7777'", 07777 },
		{ "0", 0 },
	};
	char buf[128];

	for (size_t i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
		snprintf(buf, sizeof(buf), "files: [{match: /x, mode: %s}]", ok[i].text);
		OK(buf);
		ck_assert_uint_eq(pol.rules[0].mode, ok[i].mode);
	}
	ERR("files: [{match: /x, mode: \"0999\"}]",
	    "p.yaml:1:27: files[0].mode: '0999' is not an octal mode (such as \"0755\")");
	ERR("files: [{match: /x, mode: 17777}]",
	    "p.yaml:1:27: files[0].mode: mode '17777' is out of range (0 to 07777)");
	ERR("files: [{match: /x, mode: rwxr-xr-x}]",
	    "p.yaml:1:27: files[0].mode: 'rwxr-xr-x' is not an octal mode (such as \"0755\")");
	ERR("files: [{match: /x, mode: 0o}]",
	    "p.yaml:1:27: files[0].mode: '0o' is not an octal mode (such as \"0755\")");
}
END_TEST

START_TEST(test_rule_errors)
{
	ERR("files:\n  - {match: /x, compress: lzma}\n",
	    "p.yaml:2:27: files[0].compress: expected none or zlib, got 'lzma'");
	ERR("files:\n  - {match: /x, xip: sometimes}\n",
	    "p.yaml:2:22: files[0].xip: expected true or false, got 'sometimes'");
	ERR("files:\n  - {match: /x, uid: -1}\n",
	    "p.yaml:2:22: files[0].uid: '-1' is not an integer (expected 0 to 4294967295)");
	ERR("files:\n  - {match: /x, gid: 99999999999}\n",
	    "p.yaml:2:22: files[0].gid: 99999999999 is out of range (0 to 4294967295)");
	ERR("files:\n  - {match: /x, type: pipe, mode: \"0644\"}\n",
	    "p.yaml:2:23: files[0].type: 'pipe' is not one of file, dir, symlink, char, block, fifo, socket");
	ERR("files:\n  - {match: /ok, mode: \"0644\"}\n  - {mode: \"0644\"}\n",
	    "p.yaml:3:5: files[1]: a rule needs a 'match' glob");
	ERR("files:\n  - {match: /x}\n",
	    "p.yaml:2:5: files[0]: the rule sets nothing (give mode, uid, gid, compress or xip)");
	ERR("files:\n  - {match: \"/x[\", mode: \"0644\"}\n",
	    "p.yaml:2:13: files[0].match: bad glob '/x[': unterminated bracket expression (missing ']') at byte 3");
	ERR("files:\n  - {match: \"\", mode: \"0644\"}\n",
	    "p.yaml:2:13: files[0].match: bad glob '': empty pattern");
	ERR("files:\n  - /etc/**\n",
	    "p.yaml:2:5: files[0]: expected a rule (a mapping with match: and what to set), got a scalar");
	ERR("files: /etc/**\n",
	    "p.yaml:1:8: files: expected a list of rules, got a scalar");
}
END_TEST

/* ---- devices ------------------------------------------------------------------------ */

START_TEST(test_devices)
{
	OK("devices:\n"
	   "  - {path: /dev/console, type: char, major: 5, minor: 1, mode: \"0600\"}\n"
	   "  - {path: /dev/sda, type: block, major: 8, minor: 0, uid: 0, gid: 6}\n"
	   "  - {path: /dev/initctl, type: fifo}\n"
	   "  - {path: /dev/log, type: socket, mode: \"0666\"}\n"
	   "  - {path: //proc/, type: dir}\n"
	   "  - {path: /dev/null, type: char, major: 255, minor: 0, mode: \"0666\"}\n");
	ck_assert_uint_eq(pol.n_devices, 6);
	ck_assert_int_eq(pol.devices[1].type, AXFS_FT_BLK);
	ck_assert_uint_eq(pol.devices[1].mode, 0600);	/* default */
	ck_assert_uint_eq(pol.devices[1].gid, 6);
	ck_assert_int_eq(pol.devices[2].type, AXFS_FT_FIFO);
	ck_assert_uint_eq(pol.devices[2].major, 0);
	ck_assert_int_eq(pol.devices[3].type, AXFS_FT_SOCK);
	ck_assert_uint_eq(pol.devices[3].mode, 0666);
	ck_assert_int_eq(pol.devices[4].type, AXFS_FT_DIR);
	ck_assert_str_eq(pol.devices[4].path, "/proc");	/* normalised */
	ck_assert_uint_eq(pol.devices[4].mode, 0755);	/* default for dir */
	ck_assert_uint_eq(pol.devices[5].major, 255);
}
END_TEST

START_TEST(test_device_errors)
{
	ERR("devices:\n  - {type: char, major: 1, minor: 3}\n",
	    "p.yaml:2:5: devices[0]: a device needs a 'path'");
	ERR("devices:\n  - {path: /dev/null, major: 1, minor: 3}\n",
	    "p.yaml:2:5: devices[0]: a device needs a 'type' (char, block, fifo, socket or dir)");
	ERR("devices:\n  - {path: /dev/null, type: file}\n",
	    "p.yaml:2:29: devices[0].type: 'file' is not one of char, block, fifo, socket, dir");
	ERR("devices:\n  - {path: /dev/null, type: char, major: 1}\n",
	    "p.yaml:2:5: devices[0]: a char device needs 'major' and 'minor'");
	ERR("devices:\n  - {path: /dev/sda, type: block, minor: 1}\n",
	    "p.yaml:2:5: devices[0]: a block device needs 'major' and 'minor'");
	ERR("devices:\n  - {path: /dev/p, type: fifo, minor: 1}\n",
	    "p.yaml:2:39: devices[0].minor: 'major' and 'minor' apply only to char and block devices");
	ERR("devices:\n  - {path: /dev/x, type: char, major: 256, minor: 0}\n",
	    "p.yaml:2:39: devices[0].major: 256 is out of range (0 to 255)");
	ERR("devices:\n  - {path: /dev/x, type: char, major: 1, minor: 1000}\n",
	    "p.yaml:2:49: devices[0].minor: 1000 is out of range (0 to 255)");
	ERR("devices:\n  - {path: dev/x, type: fifo}\n",
	    "p.yaml:2:12: devices[0].path: 'dev/x': must be an absolute path (starting with '/')");
	ERR("devices:\n  - {path: /dev/../x, type: fifo}\n",
	    "p.yaml:2:12: devices[0].path: '/dev/../x': '..' is not allowed in a path");
	ERR("devices:\n  - {path: /, type: dir}\n",
	    "p.yaml:2:12: devices[0].path: '/': the root directory cannot be added or replaced");
	ERR("devices:\n  - {path: /dev/x, type: fifo, mode: \"8\"}\n",
	    "p.yaml:2:38: devices[0].mode: '8' is not an octal mode (such as \"0755\")");
	ERR("devices:\n"
	    "  - {path: /dev/null, type: char, major: 1, minor: 3}\n"
	    "  - {path: /dev/tty, type: char, major: 5, minor: 0}\n"
	    "  - {path: /dev//null, type: fifo}\n",
	    "p.yaml:4:12: devices[2].path: duplicate device '/dev/null' (first at line 2, column 5)");
	ERR("devices: {path: /dev/null}\n",
	    "p.yaml:1:10: devices: expected a list of devices, got a mapping");
}
END_TEST

/* ---- timestamp, split ------------------------------------------------------------- */

START_TEST(test_timestamp)
{
	OK("timestamp: 1700000000");
	ck_assert_int_eq(pol.has_timestamp, 1);
	ck_assert_int_eq(pol.timestamp, 1700000000);
	OK("timestamp: 2024-02-29");
	ck_assert_int_eq(pol.timestamp, 1709164800);
	OK("timestamp: 2000-01-01T00:00:01Z");
	ck_assert_int_eq(pol.timestamp, 946684801);
	OK("timestamp: \"1970-01-01 00:00:00\"");
	ck_assert_int_eq(pol.timestamp, 0);
	OK("timestamp: \"@86400\"");
	ck_assert_int_eq(pol.timestamp, 86400);
	ERR("timestamp: 2023-02-29",
	    "p.yaml:1:12: timestamp: '2023-02-29' is not a timestamp (seconds since 1970, or a UTC date such as 2024-01-31 or 2024-01-31T12:00:00Z)");
	ERR("timestamp: -1",
	    "p.yaml:1:12: timestamp: '-1' is not a timestamp (seconds since 1970, or a UTC date such as 2024-01-31 or 2024-01-31T12:00:00Z)");
	ERR("timestamp: 9223372036854775808",
	    "p.yaml:1:12: timestamp: 9223372036854775808 is out of range");
	ERR("timestamp: 2024-01-01T10:00:00+02:00",
	    "p.yaml:1:12: timestamp: '2024-01-01T10:00:00+02:00' is not a timestamp (seconds since 1970, or a UTC date such as 2024-01-31 or 2024-01-31T12:00:00Z)");
	ERR("timestamp: [0]",
	    "p.yaml:1:12: timestamp: expected seconds since 1970 or a UTC date, got a list");
}
END_TEST

START_TEST(test_split)
{
	OK("split: {mmap-limit: 16MiB}");
	ck_assert_uint_eq(pol.mmap_limit, 16u << 20);
	ERR("split: {mmap-limit: 0}",
	    "p.yaml:1:21: split.mmap-limit: 0 is not a positive multiple of 4KiB");
	ERR("split: {mmap-limit: 5000}",
	    "p.yaml:1:21: split.mmap-limit: 5000 is not a positive multiple of 4KiB");
	ERR("split: {mmap_limit: 16MiB}",
	    "p.yaml:1:9: split.mmap_limit: unknown key; did you mean 'mmap-limit'?");
}
END_TEST

/* ---- keys: unknown, duplicate, odd --------------------------------------------------- */

START_TEST(test_unknown_keys)
{
	ERR("compresion: {level: 9}\n",
	    "p.yaml:1:1: compresion: unknown key; did you mean 'compression'?");
	ERR("compression:\n  blocksize: 64K\n",
	    "p.yaml:2:3: compression.blocksize: unknown key; did you mean 'block-size'?");
	ERR("compression:\n  levle: 3\n",
	    "p.yaml:2:3: compression.levle: unknown key; did you mean 'level'?");
	ERR("xip: {Min_Count: 3}\n",
	    "p.yaml:1:7: xip.Min_Count: unknown key; did you mean 'min-count'?");
	ERR("owners: {allroot: true}\n",
	    "p.yaml:1:10: owners.allroot: unknown key; did you mean 'all-root'?");
	ERR("files:\n  - {matches: /x, mode: \"0644\"}\n",
	    "p.yaml:2:6: files[0].matches: unknown key; did you mean 'match'?");
	ERR("devices:\n  - {path: /dev/x, type: fifo, owner: 0}\n",
	    "p.yaml:2:32: devices[0].owner: unknown key (valid keys: path, type, major, minor, mode, uid, gid)");
	ERR("frobnicate: 1\n",
	    "p.yaml:1:1: frobnicate: unknown key (valid keys: compression, xip, owners, files, devices, entries, timestamp, split, xattrs, pad, exclude)");
	ERR("base: &b {level: 9}\ncompression:\n  <<: *b\n",
	    "p.yaml:1:1: base: unknown key (valid keys: compression, xip, owners, files, devices, entries, timestamp, split, xattrs, pad, exclude)");
	ERR("compression:\n  <<: {level: 9}\n",
	    "p.yaml:2:3: compression.<<: YAML merge keys ('<<') are not supported");
}
END_TEST

START_TEST(test_duplicate_keys)
{
	ERR("compression:\n  level: 1\n  level: 2\n",
	    "p.yaml:3:3: compression.level: duplicate key (first at line 2, column 3)");
	ERR("timestamp: 0\nxip: {}\ntimestamp: 1\n",
	    "p.yaml:3:1: timestamp: duplicate key (first at line 1, column 1)");
	ERR("files:\n  - {match: /a, match: /b, mode: \"0644\"}\n",
	    "p.yaml:2:17: files[0].match: duplicate key (first at line 2, column 6)");
}
END_TEST

START_TEST(test_wrong_shapes)
{
	ERR("- compression\n",
	    "p.yaml:1:1: expected a mapping of sections (compression, xip, owners, files, devices, entries, timestamp, split, xattrs, pad, exclude), got a list");
	ERR("just words\n",
	    "p.yaml:1:1: expected a mapping of sections (compression, xip, owners, files, devices, entries, timestamp, split, xattrs, pad, exclude), got a scalar");
	ERR("? [a, b]\n: 1\n",
	    "p.yaml:1:3: keys must be plain words, not a list");
	ERR("compression: {level: \"9\\0\"}\n",
	    "p.yaml:1:22: compression.level: NUL byte in a value");
}
END_TEST

START_TEST(test_yaml_syntax)
{
	ERR("compression:\n  level: 9\n bad: [\n",
	    "p.yaml:3:2: did not find expected key (while parsing a block mapping at line 1, column 1)");
	ERR("files: [\n",
	    "p.yaml:2:1: did not find expected node content (while parsing a flow node at line 2, column 1)");
	ERR("xip: {budget: 1M\n",
	    "p.yaml:2:1: did not find expected ',' or '}' (while parsing a flow mapping at line 1, column 6)");
	ERR("a: *nowhere\n",
	    "p.yaml:1:4: found undefined alias");
	ERR("timestamp: 0\n---\ntimestamp: 1\n",
	    "p.yaml:2:1: a policy is one YAML document; a second one starts here");
	ERR("timestamp: 0\n\tlevel: 1\n",
	    "p.yaml:2:1: found a tab character that violates indentation (while scanning a plain scalar at line 1, column 12)");
	ck_assert_int_eq(axfs_policy_parse(&pol, "p.yaml", "a: \"\xff\"\n", 7, &err),
			 AXFS_ERR_PARSE);
	ck_assert_str_eq(err.msg, "p.yaml:1:5: invalid leading UTF-8 octet (byte 4)");
}
END_TEST

/* libyaml slows down with flow nesting: 100000 brackets must fail fast */
START_TEST(test_deep_nesting)
{
	size_t n = 100000;
	char *text = malloc(2 * n + 16);

	ck_assert_ptr_nonnull(text);
	strcpy(text, "files: ");
	memset(text + 7, '[', n);
	memset(text + 7 + n, ']', n);
	text[7 + 2 * n] = '\0';
	ERR(text, "p.yaml:1:39: nested deeper than 32 levels; a policy is never that deep");
	free(text);
	ERR("files:\n - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - x\n",
	    "p.yaml:2:64: nested deeper than 32 levels; a policy is never that deep");
}
END_TEST

START_TEST(test_aliases)
{
	OK("files:\n"
	   "  - &r {match: /bin/*, mode: \"0755\"}\n"
	   "  - *r\n"
	   "xip: {files: &f /bin/sh, exclude: *f}\n");
	ck_assert_uint_eq(pol.n_rules, 2);
	ck_assert_str_eq(pol.rules[1].match, "/bin/*");
	ck_assert_str_eq(pol.xip_exclude[0], "/bin/sh");
}
END_TEST

/* Aliases count as what they expand to: 5000 aliases of a 4000-byte
 * glob are 20 MB from 40 KB of text (issue 38 §2).  Refused at the alias
 * that passes 16 MiB, before anything is copied; and an alias inside the
 * node it names (a cycle). */
START_TEST(test_alias_bomb)
{
	size_t n = 5000, glen = 4000, len = 0;
	char *text = malloc(glen + 64 + 8 * n);

	ck_assert_ptr_nonnull(text);
	len += (size_t)sprintf(text, "exclude:\n- &x \"/");
	memset(text + len, 'a', glen - 1);
	len += glen - 1;
	len += (size_t)sprintf(text + len, "\"\n");
	for (size_t i = 0; i < n; i++)
		len += (size_t)sprintf(text + len, "- *x\n");
	/* 4000 + 7 ("exclude") + k * 4000 > 16 MiB from the 4194th alias,
	 * on line 2 + 4194 */
	ERR(text, "p.yaml:4196:3: this alias expands the policy to more than "
	    "16 MiB of values, more than a policy written out in full can "
	    "hold");
	ck_assert_int_eq(err.code, AXFS_ERR_LIMIT);
	free(text);
	ERR("files: &a [ {match: /x, mode: \"0644\"}, *a ]\n",
	    "p.yaml:1:40: alias '*a' inside the node it names (a cycle)");
	ERR("xip:\n  files: &l [/a, /b]\n  exclude: [*l, *l]\n",
	    "p.yaml:2:10: xip.exclude[0]: expected a path glob, got a list");
}
END_TEST

/* Duplicate devices are found by a hash of their paths (comparing every
 * pair, with a key formatted for each, cost 30,000 devices 15 s of CPU):
 * among 30,000, a duplicate at the end is named with the first's
 * position. */
START_TEST(test_many_devices)
{
	size_t n = 30000, len = 0;
	char *text = malloc(40 * (n + 2));

	ck_assert_ptr_nonnull(text);
	len += (size_t)sprintf(text, "devices:\n");
	for (size_t i = 0; i < n; i++)
		len += (size_t)sprintf(text + len, "- {path: /d%zu, type: dir}\n", i);
	sprintf(text + len, "- {path: /d7, type: fifo}\n");
	ERR(text, "p.yaml:30002:10: devices[30000].path: duplicate device '/d7' (first at line 9, column 3)");
	free(text);
}
END_TEST

START_TEST(test_load_file)
{
	char path[] = "/tmp/axfs-test-policy-XXXXXX";
	int fd = mkstemp(path);
	const char text[] = "compression:\n  level: 3\n";

	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(write(fd, text, sizeof(text) - 1), (ssize_t)sizeof(text) - 1);
	close(fd);
	ck_assert_int_eq(axfs_policy_load(&pol, path, &err), 0);
	ck_assert_int_eq(pol.level, 3);
	ck_assert_str_eq(pol.file, path);
	fd = open(path, O_WRONLY | O_APPEND);
	ck_assert_int_eq(write(fd, "  level: 4\n", 11), 11);
	close(fd);
	ck_assert_int_lt(axfs_policy_load(&pol, path, &err), 0);
	ck_assert_ptr_nonnull(strstr(err.msg, ":3:3: compression.level: duplicate key"));
	ck_assert_int_eq(strncmp(err.msg, path, strlen(path)), 0);
	unlink(path);
	ck_assert_int_eq(axfs_policy_load(&pol, path, &err), AXFS_ERR_IO);
	ck_assert_ptr_nonnull(strstr(err.msg, "cannot open"));
}
END_TEST

/* ---- applying to a tree ---------------------------------------------------------------- */

static char logbuf[4096];

static void log_fn(void *ctx, enum axfs_log_level level, const char *msg)
{
	(void)ctx;
	if (level != AXFS_LOG_WARN)
		return;
	strncat(logbuf, msg, sizeof(logbuf) - strlen(logbuf) - 2);
	strcat(logbuf, "\n");
}

static const struct axfs_logger test_log = { log_fn, NULL };
static struct tree tree;

static void add(const char *path, enum axfs_ftype type, unsigned mode,
		unsigned uid)
{
	struct source_entry e = unit_entry(
		path, type, mode, 0,
		type == AXFS_FT_LNK ? "busybox" : NULL, NULL);

	e.uid = uid;
	e.gid = uid;
	unit_tree_add(&tree, &e);
}

static struct tree_entry *get(const char *path)
{
	struct tree_entry *e = tree_lookup(&tree, path);

	ck_assert_msg(e != NULL, "'%s' missing", path);
	return e;
}

static void tree_setup(void)
{
	setup();
	logbuf[0] = '\0';
	ck_assert_int_eq(tree_init(&tree, &test_log, &err), 0);
	add("bin", AXFS_FT_DIR, 0755, 1000);
	add("bin/busybox", AXFS_FT_REG, 0755, 1000);
	add("bin/sh", AXFS_FT_LNK, 0777, 1000);
	add("etc", AXFS_FT_DIR, 0755, 1000);
	add("etc/passwd", AXFS_FT_REG, 0644, 1000);
	add("etc/init.d", AXFS_FT_DIR, 0755, 1000);
	add("etc/init.d/rcS", AXFS_FT_REG, 0755, 1000);
	add("usr/bin/sudo", AXFS_FT_REG, 0755, 1000);
	add("usr/share/doc/README", AXFS_FT_REG, 0644, 1000);
	add("dev", AXFS_FT_DIR, 0755, 1000);
	add("dev/console", AXFS_FT_REG, 0644, 1000);	/* a tarball stand-in */
}

static void tree_teardown(void)
{
	tree_free(&tree);
	teardown();
}

static int apply(const char *text)
{
	OK(text);
	return policy_apply(&pol, &tree, &test_log, &err);
}

START_TEST(test_apply_owners)
{
	ck_assert_int_eq(apply("owners: {all-root: true}\n"
			       "devices: [{path: /dev/tty1, type: char, major: 4, minor: 1, uid: 5}]\n"), 0);
	ck_assert_uint_eq(get("/")->uid, 0);
	ck_assert_uint_eq(get("/bin/busybox")->uid, 0);
	ck_assert_uint_eq(get("/bin/busybox")->gid, 0);
	ck_assert_uint_eq(get("/usr/share/doc/README")->gid, 0);
	ck_assert_uint_eq(get("/dev/tty1")->uid, 5);	/* devices keep theirs */
	axfs_policy_free(&pol);
	ck_assert_int_eq(apply("owners: {uid: 7}"), 0);
	ck_assert_uint_eq(get("/etc/passwd")->uid, 7);
	ck_assert_uint_eq(get("/etc/passwd")->gid, 0);
	ck_assert_int_eq(apply("owners: {gid: 9, all-root: false}"), 0);
	ck_assert_uint_eq(get("/etc/passwd")->uid, 7);
	ck_assert_uint_eq(get("/etc/passwd")->gid, 9);
	ck_assert_str_eq(logbuf, "");
}
END_TEST

START_TEST(test_apply_devices)
{
	struct tree_entry *e;

	ck_assert_int_eq(apply("devices:\n"
			       "  - {path: /dev/console, type: char, major: 5, minor: 1}\n"
			       "  - {path: /dev/pts, type: dir, mode: \"0700\"}\n"
			       "  - {path: /run/initctl, type: fifo, mode: \"0622\", gid: 3}\n"
			       "  - {path: /etc, type: dir, mode: \"0750\"}\n"), 0);
	e = get("/dev/console");
	ck_assert_int_eq(e->type, AXFS_FT_CHR);
	ck_assert_uint_eq(e->mode, S_IFCHR | 0600);
	ck_assert_uint_eq(e->rdev_major, 5);
	ck_assert_uint_eq(e->rdev_minor, 1);
	ck_assert_uint_eq(e->uid, 0);
	ck_assert_uint_eq(get("/dev/pts")->mode, S_IFDIR | 0700);
	e = get("/run/initctl");	/* /run did not exist: created */
	ck_assert_uint_eq(e->mode, S_IFIFO | 0622);
	ck_assert_uint_eq(e->gid, 3);
	ck_assert_int_eq(get("/run")->type, AXFS_FT_DIR);
	/* replacing a directory's metadata keeps its entries */
	ck_assert_uint_eq(get("/etc")->mode, S_IFDIR | 0750);
	ck_assert_ptr_nonnull(tree_lookup(&tree, "/etc/passwd"));
	ck_assert_str_eq(logbuf,
			 "p.yaml:2:5: devices[0]: '/dev/console' replaces the file from the source\n"
			 "p.yaml:5:5: devices[3]: '/etc' replaces the directory from the source\n");
}
END_TEST

START_TEST(test_apply_device_over_nonempty_dir)
{
	ck_assert_int_lt(apply("devices:\n  - {path: /etc, type: fifo}\n"), 0);
	ck_assert_ptr_nonnull(strstr(err.msg, "p.yaml:2:5: devices[0]: "));
	ck_assert_ptr_nonnull(strstr(err.msg, "directory that already has entries"));
}
END_TEST

START_TEST(test_apply_rules)
{
	struct tree_entry *e;

	ck_assert_int_eq(apply("files:\n"
			       "  - {match: /usr/bin/sudo, mode: \"04755\", uid: 0, gid: 0}\n"
			       "  - {match: \"/etc/**\", compress: none}\n"
			       "  - {match: \"/etc/**\", type: file, mode: \"0600\"}\n"
			       "  - {match: \"/etc/**\", type: file, mode: \"0640\"}\n"
			       "  - {match: /bin/busybox, xip: true}\n"
			       "  - {match: \"/nothing/**\", mode: \"0644\"}\n"
			       "  - {match: \"/bin/*\", type: socket, mode: \"0644\"}\n"), 0);
	e = get("/usr/bin/sudo");
	ck_assert_uint_eq(e->mode, S_IFREG | 04755);
	ck_assert_uint_eq(e->uid, 0);
	ck_assert_uint_eq(e->gid, 0);
	e = get("/etc/passwd");
	ck_assert_uint_eq(e->mode, S_IFREG | 0640);	/* the later rule won */
	ck_assert_int_eq(e->want_compress, 0);
	ck_assert_int_eq(e->want_xip, -1);
	ck_assert_int_eq(e->reason_override, TREE_WHY_POLICY_RULE);
	ck_assert_uint_eq(get("/etc/init.d")->mode, S_IFDIR | 0755);	/* type: file */
	ck_assert_int_eq(get("/etc/init.d")->want_compress, -1);	/* not a file */
	ck_assert_uint_eq(get("/etc/init.d/rcS")->mode, S_IFREG | 0640);
	e = get("/bin/busybox");
	ck_assert_int_eq(e->want_xip, 1);
	ck_assert_int_eq(e->reason_override, TREE_WHY_POLICY_RULE);
	ck_assert_uint_eq(e->uid, 1000);
	ck_assert_uint_eq(pol.rules[1].matched, 3);	/* any type */
	ck_assert_uint_eq(pol.rules[2].matched, 2);
	ck_assert_str_eq(logbuf,
			 "p.yaml:7:5: files[5]: '/nothing/**' matches nothing\n"
			 "p.yaml:8:5: files[6]: '/bin/*' matches no socket\n");
}
END_TEST

START_TEST(test_apply_xip_files_exclude)
{
	ck_assert_int_eq(apply("xip:\n"
			       "  files: [/bin/*, \"/usr/**\", /etc]\n"
			       "  exclude: [\"/usr/share/**\", /sbin/*]\n"
			       "files:\n"
			       "  - {match: /usr/bin/sudo, xip: false}\n"
			       "  - {match: /etc/passwd, xip: true}\n"
			       "  - {match: /etc/passwd, compress: none}\n"), 0);
	ck_assert_int_eq(get("/bin/busybox")->want_xip, 1);
	ck_assert_int_eq(get("/bin/busybox")->reason_override, TREE_WHY_WHOLE_FILE);
	ck_assert_int_eq(get("/bin/sh")->want_xip, -1);		/* a symlink */
	/* a later files rule beats xip.files */
	ck_assert_int_eq(get("/usr/bin/sudo")->want_xip, 0);
	ck_assert_int_eq(get("/usr/bin/sudo")->reason_override, TREE_WHY_POLICY_RULE);
	/* xip.exclude beats everything */
	ck_assert_int_eq(get("/usr/share/doc/README")->want_xip, 0);
	ck_assert_int_eq(get("/usr/share/doc/README")->reason_override, TREE_WHY_EXCLUDED);
	/* compress after xip keeps the xip reason */
	ck_assert_int_eq(get("/etc/passwd")->want_xip, 1);
	ck_assert_int_eq(get("/etc/passwd")->want_compress, 0);
	ck_assert_int_eq(get("/etc/passwd")->reason_override, TREE_WHY_POLICY_RULE);
	ck_assert_str_eq(logbuf,
			 "p.yaml:2:30: xip.files[2]: '/etc' matches no regular file\n"
			 "p.yaml:3:30: xip.exclude[1]: '/sbin/*' matches nothing\n");
}
END_TEST

START_TEST(test_apply_after_finalize)
{
	ck_assert_int_eq(tree_finalize(&tree, &err), 0);
	ck_assert_int_lt(apply("owners: {all-root: true}"), 0);
	ck_assert_str_eq(err.msg, "p.yaml: a policy must be applied before the tree is finalised");
}
END_TEST

Suite *suite_policy(void)
{
	Suite *s = suite_create("policy");
	TCase *tc = tcase_create("parse");
	TCase *ta = tcase_create("apply"), *tm;

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_design_example);
	tcase_add_test(tc, test_empty_and_null);
	tcase_add_test(tc, test_compression_level);
	tcase_add_test(tc, test_compression_block_size);
	tcase_add_test(tc, test_compression_compressor);
	tcase_add_test(tc, test_xip_budget_min_count);
	tcase_add_test(tc, test_xip_files_exclude);
	tcase_add_test(tc, test_owners);
	tcase_add_test(tc, test_rule_keys);
	tcase_add_test(tc, test_rule_modes);
	tcase_add_test(tc, test_rule_errors);
	tcase_add_test(tc, test_devices);
	tcase_add_test(tc, test_device_errors);
	tcase_add_test(tc, test_timestamp);
	tcase_add_test(tc, test_split);
	tcase_add_test(tc, test_unknown_keys);
	tcase_add_test(tc, test_duplicate_keys);
	tcase_add_test(tc, test_wrong_shapes);
	tcase_add_test(tc, test_yaml_syntax);
	tcase_add_test(tc, test_deep_nesting);
	tcase_add_test(tc, test_aliases);
	tcase_add_test(tc, test_alias_bomb);
	tcase_add_test(tc, test_load_file);
	suite_add_tcase(s, tc);

	/* 30,000 devices under ASan on a loaded machine: more than the
	 * default 4 s */
	tm = tcase_create("many");
	tcase_add_checked_fixture(tm, setup, teardown);
	tcase_set_timeout(tm, 60);
	tcase_add_test(tm, test_many_devices);
	suite_add_tcase(s, tm);
	tcase_add_checked_fixture(ta, tree_setup, tree_teardown);
	tcase_add_test(ta, test_apply_owners);
	tcase_add_test(ta, test_apply_devices);
	tcase_add_test(ta, test_apply_device_over_nonempty_dir);
	tcase_add_test(ta, test_apply_rules);
	tcase_add_test(ta, test_apply_xip_files_exclude);
	tcase_add_test(ta, test_apply_after_finalize);
	suite_add_tcase(s, ta);
	return s;
}
