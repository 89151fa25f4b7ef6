include $(sort $(wildcard $(BR2_EXTERNAL_AXFS_PATH)/package/*/*.mk))
include $(sort $(wildcard $(BR2_EXTERNAL_AXFS_PATH)/fs/*/*.mk))

# The host packages, then the axfs filesystem type: its $(eval $(rootfs))
# needs fs/common.mk, which Buildroot includes before any external.mk.
# (SPDX-License-Identifier of the .mk files: see REUSE.toml; Buildroot's
# check-package wants their first line to be the header or an include.)
