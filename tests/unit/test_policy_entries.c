// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * What a policy adds beside the source, as mksquashfs pseudo files do:
 * the `entries` section (files from host files, symlinks, hard links),
 * the owners' id maps and offsets, and makedevs device tables; parsed
 * (every error word for word with file:line:column) and applied to a
 * real tree.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "axfs_policy.h"
#include "policy_apply.h"
#include "unit.h"

static struct axfs_policy pol;
static struct axfs_error err;
static struct tree tree;
static struct unit_log ulog;
static struct axfs_logger logger;
static char dir[64];

static void setup(void)
{
	struct source_entry e;

	axfs_policy_init(&pol);
	axfs_error_clear(&err);
	logger = unit_logger(&ulog);
	ck_assert_int_eq(tree_init(&tree, &logger, &err), 0);
	e = unit_entry("etc", AXFS_FT_DIR, 0755, 0, NULL, NULL);
	e.uid = e.gid = 1000;
	unit_tree_add(&tree, &e);
	e = unit_entry("etc/passwd", AXFS_FT_REG, 0644, 0, NULL, NULL);
	e.uid = 1001;
	e.gid = 4294967000u;
	unit_tree_add(&tree, &e);
	e = unit_entry("dev", AXFS_FT_DIR, 0755, 0, NULL, NULL);
	unit_tree_add(&tree, &e);
	snprintf(dir, sizeof(dir), "/tmp/axfs-entries.XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(dir));
}

static void teardown(void)
{
	tree_free(&tree);
	axfs_policy_free(&pol);
	unit_remove_tree(dir);
}

static int parse(const char *text)
{
	axfs_error_clear(&err);
	return axfs_policy_parse(&pol, "p.yaml", text, strlen(text), &err);
}

static int table(const char *text)
{
	axfs_error_clear(&err);
	return axfs_policy_parse_device_table(&pol, "t.txt", text,
					      strlen(text), &err);
}

#define OK(text) ck_assert_msg(parse(text) == 0, "rejected: %s", err.msg)
#define ERR(text, want) do { \
	ck_assert_msg(parse(text) < 0, "accepted: %s", text); \
	ck_assert_str_eq(err.msg, want); \
	ck_assert_uint_eq(pol.n_devices, 0); } while (0)
#define TOK(text) ck_assert_msg(table(text) == 0, "rejected: %s", err.msg)
#define TERR(text, want) do { \
	size_t n_ = pol.n_devices; \
	ck_assert_msg(table(text) < 0, "accepted: %s", text); \
	ck_assert_str_eq(err.msg, want); \
	ck_assert_uint_eq(pol.n_devices, n_); } while (0)

static struct tree_entry *get(const char *path)
{
	struct tree_entry *e = tree_lookup(&tree, path);

	ck_assert_msg(e != NULL, "'%s' missing", path);
	return e;
}

/* ---- entries ---------------------------------------------------------------- */

START_TEST(test_entries_parse)
{
	const struct axfs_policy_device *d;

	OK("entries:\n"
	   "  - {path: /etc/motd, type: file, source: files/motd}\n"
	   "  - {path: /bin/sh, type: symlink, target: busybox, uid: 3}\n"
	   "  - {path: /bin/ls, type: hardlink, target: /bin//busybox}\n"
	   "  - {path: /dev/null, type: char, major: 1, minor: 3, mode: \"0666\"}\n"
	   "devices: [{path: /dev/zero, type: char, major: 1, minor: 5}]\n");
	ck_assert_uint_eq(pol.n_devices, 5);
	d = &pol.devices[0];
	ck_assert_int_eq(d->type, AXFS_FT_REG);
	ck_assert_str_eq(d->source, "files/motd");	/* p.yaml has no dir */
	ck_assert_uint_eq(d->mode, 0644);
	ck_assert_str_eq(d->section, "entries");
	d = &pol.devices[1];
	ck_assert_int_eq(d->type, AXFS_FT_LNK);
	ck_assert_str_eq(d->target, "busybox");
	ck_assert_uint_eq(d->mode, 0777);
	ck_assert_uint_eq(d->uid, 3);
	d = &pol.devices[2];
	ck_assert_int_eq(d->hardlink, 1);
	ck_assert_str_eq(d->target, "/bin/busybox");
	ck_assert_str_eq(pol.devices[4].section, "devices");
	ck_assert_uint_eq(pol.devices[4].index, 0);
	axfs_policy_free(&pol);
	/* a relative source is the policy's directory's */
	axfs_error_clear(&err);
	{
		const char *t = "entries: [{path: /a, type: file, source: x/y}, "
				"{path: /b, type: file, source: /abs}]";

		ck_assert_int_eq(axfs_policy_parse(&pol, "/srv/br/policy.yaml",
						   t, strlen(t), &err), 0);
	}
	ck_assert_str_eq(pol.devices[0].source, "/srv/br/x/y");
	ck_assert_str_eq(pol.devices[1].source, "/abs");
}
END_TEST

START_TEST(test_entries_errors)
{
	ERR("entries:\n  - {path: /a, type: file}\n",
	    "p.yaml:2:5: entries[0]: a file needs a 'source' (the host file to take its bytes from)");
	ERR("entries:\n  - {path: /a, type: symlink}\n",
	    "p.yaml:2:5: entries[0]: a symlink needs a 'target'");
	ERR("entries:\n  - {path: /a, type: hardlink, target: b}\n",
	    "p.yaml:2:40: entries[0].target: 'b': must be an absolute path (starting with '/')");
	ERR("entries:\n  - {path: /a, type: hardlink, target: /b, mode: \"0644\"}\n",
	    "p.yaml:2:44: entries[0].mode: a hard link has the mode and owners of its target; it takes no mode, uid or gid");
	ERR("entries:\n  - {path: /a, type: fifo, target: /b}\n",
	    "p.yaml:2:36: entries[0].target: 'target' applies only to symlink and hardlink");
	ERR("entries:\n  - {path: /a, type: dir, source: /b}\n",
	    "p.yaml:2:35: entries[0].source: 'source' applies only to type file");
	ERR("entries:\n  - {path: /a, type: door}\n",
	    "p.yaml:2:22: entries[0].type: 'door' is not one of file, dir, symlink, hardlink, char, block, fifo, socket");
	ERR("entries:\n  - {path: /../etc/shadow, type: file, source: x}\n",
	    "p.yaml:2:12: entries[0].path: '/../etc/shadow': '..' is not allowed in a path");
	ERR("entries:\n  - {path: /a, type: file, source: x, target: y}\n",
	    "p.yaml:2:47: entries[0].target: 'target' applies only to symlink and hardlink");
	/* devices keep their narrower types */
	ERR("devices:\n  - {path: /a, type: symlink, target: b}\n",
	    "p.yaml:2:31: devices[0].target: unknown key (valid keys: path, type, major, minor, mode, uid, gid)");
	ERR("devices:\n  - {path: /a, type: file}\n",
	    "p.yaml:2:22: devices[0].type: 'file' is not one of char, block, fifo, socket, dir");
	/* one path once over both sections */
	ERR("devices: [{path: /dev/null, type: fifo}]\n"
	    "entries: [{path: /dev//null, type: symlink, target: x}]\n",
	    "p.yaml:2:18: entries[0].path: duplicate entry '/dev/null' (first at line 1, column 11)");
}
END_TEST

START_TEST(test_entries_apply)
{
	char src[128], link[128], fifo[128];
	struct tree_entry *e;
	FILE *f;
	char text[512];

	snprintf(src, sizeof(src), "%s/motd", dir);
	f = fopen(src, "w");
	ck_assert_ptr_nonnull(f);
	fputs("hello\n", f);
	fclose(f);
	snprintf(text, sizeof(text), "entries:\n"
		 "  - {path: /etc/motd, type: file, source: %s, uid: 5}\n"
		 "  - {path: /bin/sh, type: symlink, target: busybox}\n"
		 "  - {path: /etc/motd.lnk, type: hardlink, target: /etc/motd}\n"
		 "  - {path: /etc/passwd, type: symlink, target: /dev/null}\n",
		 src);
	OK(text);
	ck_assert_int_eq(policy_apply(&pol, &tree, &logger, &err), 0);
	e = get("/etc/motd");
	ck_assert_int_eq(e->type, AXFS_FT_REG);
	ck_assert_uint_eq(e->size, 6);
	ck_assert_uint_eq(e->mode, S_IFREG | 0644);
	ck_assert_uint_eq(e->uid, 5);
	ck_assert_int_eq(e->data.policy_host, 1);
	ck_assert_str_eq(e->data.host_path, src);
	e = get("/bin/sh");
	ck_assert_int_eq(e->type, AXFS_FT_LNK);
	ck_assert_str_eq(e->link_target, "busybox");
	ck_assert_ptr_eq(get("/etc/motd.lnk")->link_master, get("/etc/motd"));
	ck_assert_str_eq(get("/etc/passwd")->link_target, "/dev/null");
	ck_assert_str_eq(ulog.last_warn, "p.yaml:5:5: entries[3]: '/etc/passwd' replaces the file from the source");
	axfs_policy_free(&pol);

	/* a symlink where a host file is expected is refused, not followed */
	snprintf(link, sizeof(link), "%s/shadow", dir);
	ck_assert_int_eq(symlink("/etc/shadow", link), 0);
	snprintf(text, sizeof(text), "entries: [{path: /x, type: file, source: %s}]", link);
	OK(text);
	ck_assert_int_lt(policy_apply(&pol, &tree, &logger, &err), 0);
	snprintf(text, sizeof(text), "p.yaml:1:11: entries[0]: cannot take '%s': it is a symbolic link (name the file itself, or add a symlink entry)", link);
	ck_assert_str_eq(err.msg, text);
	axfs_policy_free(&pol);
	/* so is a FIFO (which would block the build), and a directory */
	snprintf(fifo, sizeof(fifo), "%s/fifo", dir);
	ck_assert_int_eq(mkfifo(fifo, 0600), 0);
	snprintf(text, sizeof(text), "entries: [{path: /x, type: file, source: %s}]", fifo);
	OK(text);
	ck_assert_int_lt(policy_apply(&pol, &tree, &logger, &err), 0);
	ck_assert_ptr_nonnull(strstr(err.msg, "is not a regular file"));
	axfs_policy_free(&pol);
	/* a hard link to nothing */
	OK("entries: [{path: /x, type: hardlink, target: /nothing}]");
	ck_assert_int_lt(policy_apply(&pol, &tree, &logger, &err), 0);
	ck_assert_str_eq(err.msg, "p.yaml:1:11: entries[0]: hard link '/x' points to 'nothing', which is not in the source before it");
}
END_TEST

/* ---- owners: id maps and offsets ---------------------------------------- */

START_TEST(test_idmap_parse)
{
	OK("owners:\n  uid-map: {1000: 0, 1001: 100}\n  gid-offset: 7\n");
	ck_assert_uint_eq(pol.n_uid_map, 2);
	ck_assert_uint_eq(pol.uid_map[0].from, 1000);
	ck_assert_uint_eq(pol.uid_map[1].to, 100);
	ck_assert_uint_eq(pol.gid_offset, 7);
	axfs_policy_free(&pol);
	ERR("owners:\n  uid-map: {1000: 0, 5: 1, 1000: 2}\n",
	    "p.yaml:2:28: owners.uid-map: id 1000 is mapped twice (first at line 2, column 13)");
	ERR("owners:\n  uid-map: [1000]\n",
	    "p.yaml:2:12: owners.uid-map: expected a mapping of ids, such as {1000: 0}, got a list");
	ERR("owners:\n  gid-map: {x: 0}\n",
	    "p.yaml:2:13: owners.gid-map: 'x' is not an integer (expected 0 to 4294967295)");
	ERR("owners:\n  gid-map: {1: -1}\n",
	    "p.yaml:2:16: owners.gid-map.1: '-1' is not an integer (expected 0 to 4294967295)");
	ERR("owners: {uid-offset: 4294967296}\n",
	    "p.yaml:1:22: owners.uid-offset: 4294967296 is out of range (0 to 4294967295)");
	ERR("owners: {all-root: true, gid-offset: 1}\n",
	    "p.yaml:1:20: owners.all-root: all-root: true sets every owner to 0; it cannot be combined with an id map or offset");
	ERR("owners: {uid: 3, uid-map: {1: 2}}\n",
	    "p.yaml:1:15: owners.uid: owners.uid sets every user; it cannot be combined with owners.uid-map or owners.uid-offset");
}
END_TEST

START_TEST(test_idmap_apply)
{
	OK("owners: {uid-map: {1000: 0}, uid-offset: 100, gid-map: {1000: 50}}\n"
	   "entries: [{path: /dev/null, type: char, major: 1, minor: 3, uid: 1000}]\n");
	ck_assert_int_eq(policy_apply(&pol, &tree, &logger, &err), 0);
	ck_assert_uint_eq(get("/etc")->uid, 0);		/* mapped */
	ck_assert_uint_eq(get("/etc")->gid, 50);
	ck_assert_uint_eq(get("/etc/passwd")->uid, 1101);	/* offset */
	ck_assert_uint_eq(get("/etc/passwd")->gid, 4294967000u);
	ck_assert_uint_eq(get("/")->uid, 100);
	/* an entry of the policy keeps the owner it names */
	ck_assert_uint_eq(get("/dev/null")->uid, 1000);
	axfs_policy_free(&pol);
	/* an offset past the largest id is an error naming the entry */
	OK("owners: {gid-offset: 1000}\n");
	ck_assert_int_lt(policy_apply(&pol, &tree, &logger, &err), 0);
	ck_assert_str_eq(err.msg, "p.yaml:1:22: owners.gid-offset: '/etc/passwd' has gid 4294967000, which the offset 1000 moves past 4294967295");
}
END_TEST

/* ---- device tables ---------------------------------------------------------- */

START_TEST(test_table_parse)
{
	const struct axfs_policy_device *d;

	TOK("# <name> <type> <mode> <uid> <gid> <major> <minor> <start> <inc> <count>\n"
	    "\n"
	    "/dev\t\td\t755\t0\t0\t-\t-\t-\t-\t-\n"
	    "/dev/console c 600 0 0 5 1 - - -\n"
	    "/dev/ttyS c 660 0 5 4 64 0 1 4\n"
	    "/dev/mtdblock b 640 0 0 31 0 2 2 3\n"
	    "   # an indented comment\n"
	    "/etc/passwd f 600 0 0 - - - - -\n"
	    "/opt/x F 600 0 0\n"
	    "/home r 700 1000 1000 - - - - -\n"
	    "/dev/initctl p 622 0 0 - - - - -\r\n"
	    "/dev/hda b 640 0 0 3 1 1 1 1\n");
	ck_assert_uint_eq(pol.n_devices, 14);
	d = &pol.devices[0];
	ck_assert_int_eq(d->type, AXFS_FT_DIR);
	ck_assert_int_eq(d->op, AXFS_POLICY_SET);
	ck_assert_str_eq(d->file, "t.txt");
	ck_assert_ptr_null(d->section);
	ck_assert_uint_eq(d->line, 3);
	d = &pol.devices[2];
	ck_assert_str_eq(d->path, "/dev/ttyS0");
	ck_assert_uint_eq(d->minor, 64);
	ck_assert_uint_eq(d->gid, 5);
	ck_assert_str_eq(pol.devices[5].path, "/dev/ttyS3");
	ck_assert_uint_eq(pol.devices[5].minor, 67);
	ck_assert_str_eq(pol.devices[6].path, "/dev/mtdblock2");
	ck_assert_uint_eq(pol.devices[8].minor, 4);
	ck_assert_str_eq(pol.devices[8].path, "/dev/mtdblock4");
	ck_assert_int_eq(pol.devices[10].op, AXFS_POLICY_SET_IF);
	ck_assert_int_eq(pol.devices[11].op, AXFS_POLICY_SET_TREE);
	ck_assert_int_eq(pol.devices[12].type, AXFS_FT_FIFO);
	ck_assert_uint_eq(pol.devices[12].mode, 0622);
	/* a count of 1 makes the name itself, as makedevs does */
	ck_assert_str_eq(pol.devices[13].path, "/dev/hda");
	ck_assert_uint_eq(pol.devices[13].minor, 1);
}
END_TEST

START_TEST(test_table_errors)
{
	TERR("/dev/tty c 600 0 0 4 0 0 1 1000000000\n",
	     "t.txt:1:28: count: 1000000000 nodes on one line; at most 65536");
	TERR("/dev/tty c 600 0 0 4 0 0 1 99999999999999999999999\n",
	     "t.txt:1:28: count: 99999999999999999999999 is out of range (0 to 18446744073709551615)");
	TERR("\n/dev/tty c 600 0 0 4 200 0 1 100\n",
	     "t.txt:2:22: minor: 200 + 99 x 1 is past 255, the largest minor AXFS stores");
	TERR("/dev/../etc/shadow c 600 0 0 1 1 - - -\n",
	     "t.txt:1:1: '/dev/../etc/shadow': '..' is not allowed in a path");
	TERR("dev/tty c 600 0 0 1 1 - - -\n",
	     "t.txt:1:1: 'dev/tty': must be an absolute path (starting with '/')");
	TERR("/dev/tty x 600 0 0 1 1 - - -\n",
	     "t.txt:1:10: type: 'x' is not one of d, f, F, r, c, b, p");
	TERR("/dev/tty c 900 0 0 1 1 - - -\n",
	     "t.txt:1:12: mode: '900' is not an octal mode (such as 755)");
	TERR("/dev/tty c 600 root 0 1 1 - - -\n",
	     "t.txt:1:16: uid: 'root' is not a number (names are not looked up: give the number)");
	TERR("/dev/tty c 600 0 0 256 1 - - -\n",
	     "t.txt:1:20: major: 256 is out of range (0 to 255)");
	TERR("/dev/tty c 600 0 0 - - - - -\n",
	     "t.txt:1:20: a char device needs <major> and <minor>");
	TERR("/dev/tty c 600 0\n",
	     "t.txt:1:17: expected <name> <type> <mode> <uid> <gid> [<major> <minor> <start> <inc> <count>], got 4 fields");
	TERR("/etc d 755 0 0 - - 0 1 3\n",
	     "t.txt:1:24: a range (count) applies only to c, b and p (give '-')");
	TERR("/etc p 755 0 0 4 1 - - -\n",
	     "t.txt:1:16: major and minor apply only to c and b (give '-')");
	TERR("/etc d 755 0 0 - - - - - extra\n",
	     "t.txt:1:26: more than 10 fields (<name> <type> <mode> <uid> <gid> <major> <minor> <start> <inc> <count>)");
	TERR("/bin/ping f 4755 0 0 - - - - -\n|xattr cap_net_raw+ep\n",
	     "t.txt:2:1: '|xattr cap_net_raw+ep': AXFS cannot store extended attributes (file capabilities among them)");
	/* a line that fails leaves the policy as it was */
	TOK("/dev d 755 0 0\n");
	TERR("/dev/a p 600 0 0\n/dev/b q 600 0 0\n",
	     "t.txt:2:8: type: 'q' is not one of d, f, F, r, c, b, p");
	ck_assert_uint_eq(pol.n_devices, 1);
}
END_TEST

START_TEST(test_table_total_limit)
{
	/* 5 lines of 65536 nodes: past the 2^18 entries of all tables */
	char line[64];
	int rc = 0, i;

	for (i = 0; i < 5 && rc == 0; i++) {
		snprintf(line, sizeof(line), "/d/t%d p 600 0 0 - - 0 0 65536\n", i);
		rc = table(line);
	}
	ck_assert_int_lt(rc, 0);
	ck_assert_int_eq(i, 5);
	ck_assert_str_eq(err.msg, "t.txt:1:25: more than 262144 entries in the device tables");
	ck_assert_uint_eq(pol.n_devices, 4 * 65536);
}
END_TEST

START_TEST(test_table_apply)
{
	struct tree_entry *e;

	TOK("/dev d 700 0 0 - - - - -\n"
	    "/var/log d 750 4 4 - - - - -\n"
	    "/etc/passwd f 600 0 2 - - - - -\n"
	    "/etc/missing F 600 0 0 - - - - -\n"
	    "/etc r 711 9 9 - - - - -\n"
	    "/dev/ttyS c 660 0 5 4 64 0 1 2\n");
	ck_assert_int_eq(policy_apply(&pol, &tree, &logger, &err), 0);
	ck_assert_uint_eq(get("/dev")->mode, S_IFDIR | 0700);
	ck_assert_ptr_nonnull(tree_lookup(&tree, "/dev/ttyS0"));
	e = get("/var/log");
	ck_assert_uint_eq(e->mode, S_IFDIR | 0750);
	ck_assert_uint_eq(e->uid, 4);
	ck_assert_ptr_null(tree_lookup(&tree, "/etc/missing"));
	/* r after f: everything below /etc */
	e = get("/etc/passwd");
	ck_assert_uint_eq(e->mode, S_IFREG | 0711);
	ck_assert_uint_eq(e->gid, 9);
	ck_assert_uint_eq(get("/etc")->uid, 9);
	e = get("/dev/ttyS1");
	ck_assert_uint_eq(e->rdev_minor, 65);
	ck_assert_uint_eq(e->mode, S_IFCHR | 0660);
	ck_assert_int_eq(ulog.warn, 0);
	axfs_policy_free(&pol);
	TOK("/etc/shadow f 600 0 0 - - - - -\n");
	ck_assert_int_lt(policy_apply(&pol, &tree, &logger, &err), 0);
	ck_assert_str_eq(err.msg, "t.txt:1:1: '/etc/shadow' is not in the image (type f sets the mode and owners of a regular file that is there)");
	axfs_policy_free(&pol);
	TOK("/etc f 600 0 0 - - - - -\n");
	ck_assert_int_lt(policy_apply(&pol, &tree, &logger, &err), 0);
	ck_assert_str_eq(err.msg, "t.txt:1:1: '/etc' is a directory, not a file");
}
END_TEST

Suite *suite_policy_entries(void)
{
	Suite *s = suite_create("policy_entries");
	TCase *tc = tcase_create("entries");
	TCase *tl = tcase_create("limits");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_entries_parse);
	tcase_add_test(tc, test_entries_errors);
	tcase_add_test(tc, test_entries_apply);
	tcase_add_test(tc, test_idmap_parse);
	tcase_add_test(tc, test_idmap_apply);
	tcase_add_test(tc, test_table_parse);
	tcase_add_test(tc, test_table_errors);
	tcase_add_test(tc, test_table_apply);
	suite_add_tcase(s, tc);
	/* 262144 entries under ASan on a loaded machine */
	tcase_add_checked_fixture(tl, setup, teardown);
	tcase_set_timeout(tl, 120);
	tcase_add_test(tl, test_table_total_limit);
	suite_add_tcase(s, tl);
	return s;
}
