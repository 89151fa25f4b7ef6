// SPDX-License-Identifier: GPL-2.0-or-later
/* Fuzz target: the profile CSV parser (both forms), canonicaliser, the
 * ranks' normalising and renumbering (merge-profile's), and writer. */
#include <stdio.h>

#include "axfs_profile.h"
#include "fuzz.h"
#include "profile_order.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct axfs_profile p;
	struct axfs_error err;
	FILE *devnull;

	axfs_profile_init(&p, NULL);
	if (axfs_profile_parse(&p, "fuzz.csv", (const char *)data, size,
			       &err) == 0 &&
	    axfs_profile_canonicalize(&p, &err) == 0 &&
	    profile_order_normalise(&p, &err) == 0 &&
	    profile_order_renumber(&p, &err) == 0) {
		devnull = fopen("/dev/null", "w");
		if (devnull) {
			axfs_profile_write(&p, devnull, &err);
			fclose(devnull);
		}
	}
	axfs_profile_free(&p);
	return 0;
}
