// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Fuzz target: the YAML policy parser.  Besides the sanitizers, it fails
 * when a policy it accepts holds more text than a policy written out in
 * full can (16 MiB, axfs-policy(5), LIMITS): YAML aliases are counted as
 * what they expand to, so an alias bomb (regress/policy/) is refused, not
 * copied.
 */
#include <stdlib.h>
#include <string.h>

#include "axfs_policy.h"
#include "fuzz.h"

#define POLICY_TEXT_MAX (16u << 20)

static size_t strings_of(char **v, size_t n)
{
	size_t sum = 0;

	for (size_t i = 0; i < n; i++)
		sum += strlen(v[i]);
	return sum;
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
			held += strlen(p.devices[i].path);
		if (held > POLICY_TEXT_MAX)
			abort();
	}
	axfs_policy_free(&p);
	return 0;
}
