#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# fetch.sh - Debian's arm64 kernel, headers and busybox-static:arm64:
# arch/fetch.sh --arch arm64 (kept for the commands in kernel/README.md).
#   sh kernel/tests/arm64/fetch.sh [SUITE [FLAVOUR]]
exec sh "$(dirname "$0")/../arch/fetch.sh" --arch arm64 "$@"
