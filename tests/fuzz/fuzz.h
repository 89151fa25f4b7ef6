/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Shared by the fuzz targets: the libFuzzer entry point. */
#ifndef TESTS_FUZZ_FUZZ_H
#define TESTS_FUZZ_FUZZ_H
#include <stddef.h>
#include <stdint.h>
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
#endif
