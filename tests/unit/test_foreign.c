// SPDX-License-Identifier: GPL-2.0-or-later
/* foreign_format(): other images named by their magic, at its offset; a
 * magic past the bytes given is not seen; a file is probed only when it
 * is a regular file (or block device). */
#include <check.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "foreign.h"

static uint8_t buf[FOREIGN_PROBE_SIZE];

static const char *named(size_t off, const void *magic, size_t mlen,
			 size_t len)
{
	const struct foreign_format *f;

	memset(buf, 0, sizeof(buf));
	memcpy(buf + off, magic, mlen);
	f = foreign_format(buf, len);
	return f ? f->name : NULL;
}

START_TEST(test_magics)
{
	const struct foreign_format *f;

	ck_assert_str_eq(named(0, "hsqs", 4, 4), "SquashFS");
	ck_assert_str_eq(named(0, "sqsh", 4, 96), "SquashFS");
	ck_assert_str_eq(named(1024, "\xe2\xe1\xf5\xe0", 4, 1028), "EROFS");
	ck_assert_ptr_null(named(1024, "\xe2\xe1\xf5\xe0", 4, 1027));
	ck_assert_str_eq(named(0, "\x45\x3d\xcd\x28", 4, 512), "cramfs");
	ck_assert_str_eq(named(512, "\x45\x3d\xcd\x28", 4, 1024), "cramfs");
	ck_assert_str_eq(named(1080, "\x53\xef", 2, 2048), "ext2/3/4");
	ck_assert_ptr_null(named(0, "\x48\xa0\xe4\xcd", 4, 2048));
	ck_assert_ptr_null(named(0, "", 0, 0));
	memset(buf, 0, sizeof(buf));
	memcpy(buf + 1024, "\xe2\xe1\xf5\xe0", 4);
	f = foreign_format(buf, sizeof(buf));
	ck_assert_ptr_nonnull(f);
	ck_assert_uint_eq(f->offset, 1024);
	ck_assert_str_eq(f->what, "an EROFS image");
	/* ext2's two bytes are not enough before an archive is read. */
	memset(buf, 0, sizeof(buf));
	memcpy(buf + 1080, "\x53\xef", 2);
	ck_assert_ptr_null(foreign_format_min(buf, sizeof(buf), 4));
}
END_TEST

START_TEST(test_files)
{
	char path[] = "/tmp/axfs-foreign-XXXXXX", fifo[64];
	const struct foreign_format *f;
	int fd = mkstemp(path);

	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(write(fd, "hsqs", 4), 4);
	close(fd);
	f = foreign_format_of_file(path);
	ck_assert_ptr_nonnull(f);
	ck_assert_str_eq(f->name, "SquashFS");
	unlink(path);
	ck_assert_ptr_null(foreign_format_of_file(path));
	/* A FIFO is not opened for a probe a writer could see. */
	snprintf(fifo, sizeof(fifo), "%s.fifo", path);
	ck_assert_int_eq(mkfifo(fifo, 0600), 0);
	ck_assert_ptr_null(foreign_format_of_file(fifo));
	unlink(fifo);
	ck_assert_ptr_null(foreign_format_of_file("/"));
}
END_TEST

Suite *suite_foreign(void)
{
	Suite *s = suite_create("foreign");
	TCase *tc = tcase_create("foreign");

	tcase_add_test(tc, test_magics);
	tcase_add_test(tc, test_files);
	suite_add_tcase(s, tc);
	return s;
}
