#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Exits 0 when the compiler ($1, default clang) can build and link a
# libFuzzer target with ASan and UBSan (Debian: libclang-rt-N-dev), so
# `make check` can fuzz each target briefly; 1 otherwise, silently.
cc=${1:-clang}
command -v "$cc" >/dev/null 2>&1 || exit 1
tmp=$(mktemp -d "${TMPDIR:-/tmp}/axfs-libfuzzer.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
cat >"$tmp/t.c" <<'C'
#include <stddef.h>
#include <stdint.h>
int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n);
int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n)
{
	return n > 0 && d[0] == 1;
}
C
"$cc" -fsanitize=fuzzer,address,undefined -o "$tmp/t" "$tmp/t.c" >/dev/null 2>&1 &&
	"$tmp/t" -runs=1 >/dev/null 2>&1
