# SPDX-License-Identifier: GPL-2.0-or-later
# axfs-tools-native compresses images with libdeflate (its default
# compressor: smaller and faster than zlib, see bench/RESULTS.md), so the
# build host needs it too; meta-oe's recipe builds it for the target only.
BBCLASSEXTEND = "native nativesdk"
