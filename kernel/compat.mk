# SPDX-License-Identifier: GPL-2.0-only
#
# What Kbuild adds to the plain build of fs/axfs out of tree (make -C
# kernel, DKMS) and for kernels older than compat.h's newest: the settings
# Kconfig would make, where the format header lies, and the compile probes
# compat.h is driven by.  mkpatch.sh leaves this file, compat.h and the
# probes out of a tree new enough to need none of them.

ifneq ($(KBUILD_EXTMOD),)
# Out of tree: the module, with profiling unless AXFS_PROFILING=n (make -C
# kernel AXFS_PROFILING=n), with MTD if the kernel has it.  In a kernel
# tree Kconfig sets CONFIG_AXFS, CONFIG_AXFS_MTD and CONFIG_AXFS_PROFILING,
# and autoconf.h defines the latter two for the C code; out of tree
# nothing does, hence the -D.
obj-m += axfs.o
ifneq ($(AXFS_PROFILING),n)
axfs-y += profiling.o
ccflags-y += -DCONFIG_AXFS_PROFILING=1
endif
# MTD devices if the kernel has MTD, built in or as a module (the module
# can use either), as Kconfig's AXFS_MTD would have it.
ifneq ($(CONFIG_MTD),)
axfs-y += mtd.o
ccflags-y += -DCONFIG_AXFS_MTD=1
endif
endif

# The format header: in this repository from its one place, ../include/axfs;
# in a DKMS tree or a patched kernel (kernel/scripts/mkpatch.sh) a copy of
# it lies beside the sources.  $(src) is absolute out of tree; in tree it
# is relative to $(srctree) before 6.10.
axfs-fs-h := $(firstword $(wildcard $(src)/../include/axfs/axfs_fs.h \
			$(srctree)/$(src)/../include/axfs/axfs_fs.h))
ifneq ($(axfs-fs-h),)
ccflags-y += -I$(dir $(axfs-fs-h))
endif

# Compile probes (probes/*.c, run by probes/probe.sh with this kernel's
# compiler and flags): which interfaces the kernel has.  The result,
# axfs-probes.h, is included by every object; compat.h provides the
# missing ones under their upstream names.
axfs-probe-dir := $(firstword $(wildcard $(src)/probes $(srctree)/$(src)/probes))
ifneq ($(axfs-probe-dir),)
ccflags-y += -include $(obj)/axfs-probes.h
$(addprefix $(obj)/,$(axfs-y) $(axfs-m)): $(obj)/axfs-probes.h
targets += axfs-probes.h
clean-files += axfs-probes.h
# The flags an object gets, less ccflags-y (which includes the header
# being made) and the dependency file.
axfs-probe-flags = $(NOSTDINC_FLAGS) $(LINUXINCLUDE) \
	-include $(srctree)/include/linux/compiler_types.h \
	$(KBUILD_CPPFLAGS) $(KBUILD_CFLAGS) $(KBUILD_CFLAGS_MODULE)
filechk_axfs_probes = $(CONFIG_SHELL) $(axfs-probe-dir)/probe.sh \
	$(axfs-probe-dir) $(CC) $(axfs-probe-flags)
$(obj)/axfs-probes.h: $(wildcard $(axfs-probe-dir)/*) FORCE
	$(call filechk,axfs_probes)
endif
