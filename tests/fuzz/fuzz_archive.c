// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Fuzz target: the archive source.  The input is written to a temporary
 * file, opened as an archive, and every entry and every byte of data is
 * read back.
 */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "axfs_source.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char path[] = "/tmp/axfs-fuzz-archive.XXXXXX";
	struct axfs_source *src;
	struct axfs_src_entry e;
	struct axfs_error err;
	char buf[65536];
	int fd = mkstemp(path);

	if (fd < 0)
		return 0;
	if (write(fd, data, size) != (ssize_t)size) {
		close(fd);
		unlink(path);
		return 0;
	}
	close(fd);
	if (axfs_source_archive_open(&src, path, NULL, &err) == 0) {
		while (src->ops->next(src, &e, &err) > 0) {
			void *h;
			size_t got;

			if (e.type != AXFS_FT_REG || e.hardlink_to)
				continue;
			if (src->ops->data_open(src, &e.data, &h, &err) < 0)
				continue;
			while (src->ops->data_read(src, h, buf, sizeof(buf),
						   &got, &err) == 0 && got)
				;
			src->ops->data_close(src, h);
			free(e.data.host_path);
		}
		axfs_source_destroy(src);
	}
	unlink(path);
	return 0;
}
