// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Fuzz target: the YAML policy parser, and the globs of the policies it
 * accepts (compiled as a build compiles them, each matched against a few
 * paths and against its own text).  Besides the sanitizers, it fails when
 * a policy it accepts holds more text than a policy written out in full
 * can (16 MiB, axfs-policy(5)): YAML aliases are counted as what they
 * expand to, so an alias bomb (regress/policy/) is refused, not copied.
 * The same bytes are also read as a makedevs device table (mkfs
 * --device-table), which must stay within its entry limit whatever a
 * line's count says.
 */
#include <stdlib.h>
#include <string.h>

#include "axfs_policy.h"
#include "fuzz.h"
#include "glob_match.h"

#define POLICY_TEXT_MAX (16u << 20)
#define TABLE_ENTRIES_MAX (1u << 18)	/* device_table.c */

static size_t strings_of(char **v, size_t n)
{
	size_t sum = 0;

	for (size_t i = 0; i < n; i++)
		sum += strlen(v[i]);
	return sum;
}

static const char *const paths[] = {
	"/", "/a.pm", "/usr/lib/perl5/File/Spec.pm", "/usr/share/doc",
	"/dev/tty1", "/lib/libc.so.6", "/x/y/z/w/v",
};

/* Compiles the globs as a build does (duplicates dropped) and matches
 * each against the paths and its own text; a glob the parser accepted
 * must compile. */
static void match_all(char **v, size_t n)
{
	struct glob_set s;
	size_t bad;

	if (glob_set_init(&s, (const char *const *)v, n, &bad) < 0)
		abort();
	for (size_t k = 0; k < s.n; k++) {
		for (size_t i = 0; i < sizeof(paths) / sizeof(paths[0]); i++)
			(void)glob_test(&s.g[k], paths[i]);
		(void)glob_test(&s.g[k], v[s.orig[k]]);
	}
	glob_set_free(&s);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct axfs_policy p;
	struct axfs_error err;
	size_t held;

	axfs_policy_init(&p);
	if (axfs_policy_parse(&p, "fuzz.yaml", (const char *)data, size, &err) == 0) {
		held = strings_of(p.xip_files, p.n_xip_files) +
		       strings_of(p.xip_exclude, p.n_xip_exclude) +
		       strings_of(p.exclude, p.n_exclude);
		for (size_t i = 0; i < p.n_rules; i++)
			held += strlen(p.rules[i].match);
		for (size_t i = 0; i < p.n_devices; i++)
			held += strlen(p.devices[i].path) +
				(p.devices[i].target ? strlen(p.devices[i].target) : 0) +
				(p.devices[i].source ? strlen(p.devices[i].source) : 0);
		if (held > POLICY_TEXT_MAX)
			abort();
		match_all(p.xip_files, p.n_xip_files);
		match_all(p.xip_exclude, p.n_xip_exclude);
		match_all(p.exclude, p.n_exclude);
		for (size_t i = 0; i < p.n_rules; i++)
			match_all(&p.rules[i].match, 1);
	}
	axfs_policy_free(&p);

	axfs_policy_init(&p);
	if (axfs_policy_parse_device_table(&p, "fuzz.txt", (const char *)data,
					   size, &err) == 0 &&
	    p.n_devices > TABLE_ENTRIES_MAX)
		abort();
	axfs_policy_free(&p);
	return 0;
}
