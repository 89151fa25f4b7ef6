// SPDX-License-Identifier: GPL-2.0-or-later
/* Fuzz target: the YAML policy parser. */
#include "axfs_policy.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct axfs_policy p;
	struct axfs_error err;

	axfs_policy_init(&p);
	axfs_policy_parse(&p, "fuzz.yaml", (const char *)data, size, &err);
	axfs_policy_free(&p);
	return 0;
}
