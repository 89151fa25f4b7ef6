#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# arm64.sh - axfs.ko on Debian's arm64 kernel: cross.sh --arch arm64.
#   AXFS=build/axfs sh kernel/tests/arm64.sh [SUITE]     (default bookworm)
exec sh "$(dirname "$0")/cross.sh" --arch arm64 "$@"
