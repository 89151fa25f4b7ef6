# SPDX-License-Identifier: GPL-2.0-or-later
# Makefile fragments of this br2-external tree: the host packages, then the
# axfs filesystem type (its $(eval $(rootfs)) needs fs/common.mk, which
# Buildroot has included before any external.mk).
include $(sort $(wildcard $(BR2_EXTERNAL_AXFS_PATH)/package/*/*.mk))
include $(sort $(wildcard $(BR2_EXTERNAL_AXFS_PATH)/fs/*/*.mk))
