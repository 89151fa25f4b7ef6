# SPDX-License-Identifier: GPL-2.0-or-later
# axfs-tools build.  `make`, `make check`, `make demo`, `make install`,
# `make dist`.  V=1 shows the commands; CC=clang works; SANITIZE=1 builds
# with -fsanitize=address,undefined into build-san/.  The GNU variables
# CPPFLAGS, CFLAGS and LDFLAGS are the packager's: they are added after
# the project's own flags.  WERROR=1 makes warnings errors (make check and
# CI set it).

# The release number, from its one place (VERSION); the library's soname
# number changes only when its ABI breaks (see "Releases" in README.md).
VERSION     := $(shell cat $(dir $(lastword $(MAKEFILE_LIST)))VERSION)
SOVERSION   := 0
PREFIX      ?= /usr/local
BINDIR      ?= $(PREFIX)/bin
SBINDIR     ?= $(PREFIX)/sbin
# Debian's multiarch directory, e.g. LIBDIR=/usr/lib/x86_64-linux-gnu.
LIBDIR      ?= $(PREFIX)/lib
INCLUDEDIR  ?= $(PREFIX)/include
MANDIR      ?= $(PREFIX)/share/man
DATADIR     ?= $(PREFIX)/share
DESTDIR     ?=

CC          ?= cc
PKG_CONFIG  ?= pkg-config
ifeq ($(origin CC),default)
CC := cc
endif

ifeq ($(SANITIZE),1)
B           ?= build-san
SAN_FLAGS   := -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all
else
B           ?= build
SAN_FLAGS   :=
endif

ifeq ($(V),1)
Q :=
else
Q := @
endif

# Libraries: resolved through pkg-config once the deps script has run.
# libdeflate writes the image's zlib streams by default and inflates them in
# the reader: smaller and faster than zlib (bench/RESULTS.md).  zlib stays
# for --compressor zlib, fsck (which inflates as the kernel does) and the
# packer's checksums.
PKGS        := zlib libdeflate libarchive yaml-0.1 libmd
PKG_CFLAGS   = $(shell $(PKG_CONFIG) --cflags $(PKGS) 2>/dev/null)
PKG_LIBS     = $(shell $(PKG_CONFIG) --libs $(PKGS) 2>/dev/null)
CHECK_CFLAGS = $(shell $(PKG_CONFIG) --cflags check 2>/dev/null)
# libfuse3 for axfs mount only (cmd/mount.c); the library stays without.
# FUSE=1 when pkg-config finds fuse3 (make deps installs it), else FUSE=0:
# cmd/mount_nofuse.c says the command is not built in, so that builds for a
# board (Buildroot, Yocto) need no libfuse3.
FUSE        ?= $(shell $(PKG_CONFIG) --exists fuse3 2>/dev/null && echo 1 || echo 0)
FUSE_CFLAGS  = $(if $(filter 1,$(FUSE)),$(shell $(PKG_CONFIG) --cflags fuse3 2>/dev/null))
FUSE_LIBS    = $(if $(filter 1,$(FUSE)),$(shell $(PKG_CONFIG) --libs fuse3 2>/dev/null))
CHECK_LIBS   = $(shell $(PKG_CONFIG) --libs check 2>/dev/null)

WARN        ?= -Wall -Wextra -Wshadow -Wstrict-prototypes -Wmissing-prototypes -Wno-unused-parameter
ifeq ($(WERROR),1)
WARN        += -Werror
endif
BASE_CFLAGS := -std=c11 -D_GNU_SOURCE -D_FILE_OFFSET_BITS=64 -pthread
CPPFLAGS    ?=
CFLAGS      ?= -O2 -g
# The library's API is include/axfs/ (installed).  libaxfsimg/internal/
# holds the headers its units share with each other, cmd/, the tests and
# bench (not installed); a unit's private header is its folder's
# internal.h (libaxfsimg/README.md).
API_HDRS    := $(sort $(wildcard include/axfs/*.h))
API_INCS    := -Iinclude/axfs
INT_INCS    := -Ilibaxfsimg/internal
LIB_INCS    := $(API_INCS) $(INT_INCS) -Ilibaxfsimg
ALL_CFLAGS   = $(BASE_CFLAGS) $(WARN) $(SAN_FLAGS) -fPIC -MMD -MP $(if $(filter cmd/%,$<),$(API_INCS) $(INT_INCS),$(LIB_INCS)) $(PKG_CFLAGS) $(CPPFLAGS) $(CFLAGS)
LDFLAGS     ?=
ALL_LDFLAGS  = $(SAN_FLAGS) -pthread $(CFLAGS) $(LDFLAGS)

LIB_SRCS    := $(sort $(wildcard libaxfsimg/*.c libaxfsimg/*/*.c))
CMD_SRCS    := $(filter-out $(if $(filter 1,$(FUSE)),cmd/mount_nofuse.c,cmd/mount.c),$(sort $(wildcard cmd/*.c)))
UNIT_SRCS   := $(sort $(wildcard tests/unit/*.c))
LIB_OBJS    := $(LIB_SRCS:%.c=$(B)/%.o)
CMD_OBJS    := $(CMD_SRCS:%.c=$(B)/%.o)
UNIT_OBJS   := $(UNIT_SRCS:%.c=$(B)/%.o)

# libaxfsimg.so exports the API of include/axfs/ only.  The axfs command,
# the unit tests, the fuzzers and bench also use the internal headers
# (libaxfsimg/internal/: the tree, the stages, reports, JSON, the atomic
# output), so they link the library's objects from the static archive
# instead, as squashfs-tools-ng's tools link libcommon.a: the same code,
# none of it a promise.  So $(B)/axfs needs no runpath and is what
# `make install` installs.
AXFS        := $(B)/axfs
LIBA        := $(B)/libaxfsimg.a
LIBSO       := $(B)/libaxfsimg.so.$(VERSION)
UNIT        := $(B)/unit-tests
DEPS_STAMP  := $(B)/.deps-ok
UNIT_DEPS_STAMP := $(B)/.deps-unit-ok
FLAGS_STAMP := $(B)/.build-flags

# Sanitizer pass run by `make check` (and CI): unit + CLI tests again
# under ASan+UBSan, built in build-san/.
.PHONY: check-san check-san-build fuzz-replay
.PHONY: all deps deps-tests deps-tests-all check check-all check-unit check-cli check-kernel check-arm64 check-armhf check-riscv64 demo install install-man uninstall clean fuzz bench FORCE

all: $(AXFS) $(LIBSO) $(LIBA)

# `make` only checks that the libraries are there (through $(PKG_CONFIG)),
# and if not names the Debian packages and the apt-get command; `make deps`
# (run by `make check` and `make demo`) installs them as root.
deps:
	$(Q)PKG_CONFIG='$(PKG_CONFIG)' sh scripts/install-deps.sh --install build unit fuse
# What the tests use (archivers, valgrind, man-db, qemu, ...), installed
# by every check target before the runner starts: the runner and the
# scripts never install anything, and no two apt-get race for the lock.
deps-tests:
	$(Q)sh scripts/install-deps.sh --install tests kernel
deps-tests-all:
	$(Q)sh scripts/install-deps.sh --install tests kernel kernel-all packages
$(DEPS_STAMP): scripts/install-deps.sh
	$(Q)PKG_CONFIG='$(PKG_CONFIG)' sh scripts/install-deps.sh build
	$(Q)mkdir -p $(@D) && touch $@
$(UNIT_DEPS_STAMP): scripts/install-deps.sh
	$(Q)PKG_CONFIG='$(PKG_CONFIG)' sh scripts/install-deps.sh unit
	$(Q)mkdir -p $(@D) && touch $@

# Objects are rebuilt when the compiler or its flags change (a packager's
# CFLAGS), and when WERROR=1 asks for objects that were built without it.
# Objects built with -Werror serve a build without it: the code is the same,
# and `make install` (t7000) must not rebuild the tree the tests of `make
# check` are running from.
FLAGS_KEY = $(subst ','\'',$(CC) $(filter-out -Werror,$(ALL_CFLAGS)))
$(FLAGS_STAMP): FORCE
	@mkdir -p $(@D)
	@key='$(FLAGS_KEY)'; have=$$(cat $@ 2>/dev/null); \
	if [ '$(WERROR)' = 1 ]; then want="$$key -Werror"; \
	elif [ "$$have" = "$$key -Werror" ]; then want=$$have; \
	else want=$$key; fi; \
	[ "$$have" = "$$want" ] || printf '%s\n' "$$want" >$@

# What `axfs --version` says, in $(B)/build_version.h (only cmd/common.c
# includes it, so a new commit rebuilds that one file): in a git checkout
# whose top is this directory, `git describe` of the v* tags (0.1.0-N-gHASH,
# -dirty with uncommitted changes; before the first tag, N counts every
# commit), so that builds between releases tell apart; in a release
# tarball (make dist: no .git), VERSION as it is.
BUILD_VERSION = $(shell top=$$(git -C '$(CURDIR)' rev-parse --show-toplevel 2>/dev/null); \
	if [ "$$top" = '$(CURDIR)' ]; then \
		d=$$(git -C '$(CURDIR)' describe --tags --match 'v[0-9]*' --dirty 2>/dev/null) && echo "$${d#v}" || \
		{ h=$$(git -C '$(CURDIR)' describe --always --dirty 2>/dev/null) && \
		  echo "$(VERSION)-$$(git -C '$(CURDIR)' rev-list --count HEAD)-g$$h"; }; \
	fi)
$(B)/build_version.h: FORCE
	@mkdir -p $(@D)
	@v='$(or $(BUILD_VERSION),$(VERSION))'; \
	line="#define AXFS_VERSION \"$$v\""; \
	[ "$$(cat $@ 2>/dev/null)" = "$$line" ] || printf '%s\n' "$$line" >$@
$(B)/cmd/common.o: $(B)/build_version.h

$(B)/%.o: %.c $(FLAGS_STAMP) | $(DEPS_STAMP)
	@mkdir -p $(@D)
	@$(if $(Q),echo "  CC      $<")
	$(Q)$(CC) $(ALL_CFLAGS) $(if $(filter tests/unit/%,$<),$(CHECK_CFLAGS) -Wno-missing-prototypes -I$(B)/tests/unit) $(if $(filter cmd/mount.c,$<),$(FUSE_CFLAGS)) $(if $(filter cmd/common.c,$<),-I$(B)) -c $< -o $@

$(LIBA): $(LIB_OBJS)
	@$(if $(Q),echo "  AR      $@")
	$(Q)rm -f $@ && $(AR) rcs $@ $^

# libaxfsimg.so exports exactly the functions the API headers declare:
# the version script lists the names the preprocessed headers declare
# (comments gone) followed by "(", less the static inline helpers.
LIB_MAP     := $(B)/libaxfsimg.map
$(LIB_MAP): $(API_HDRS) | $(DEPS_STAMP)
	@mkdir -p $(@D)
	@$(if $(Q),echo "  GEN     $@")
	$(Q){ echo 'AXFSIMG_0 {'; echo '	global:'; \
	  for h in $(notdir $(API_HDRS)); do echo "#include \"$$h\""; done | \
	  $(CC) $(BASE_CFLAGS) $(API_INCS) $(PKG_CFLAGS) -E -P -x c - | \
	  awk '{ n = split($$0, w, /[^A-Za-z0-9_]+/); static = /static/; \
	         for (i = 1; i < n; i++) if (w[i] ~ /^axfs_/ && index($$0, w[i] "(")) \
	           if (static) skip[w[i]] = 1; else name[w[i]] = 1 } \
	       END { for (f in name) if (!(f in skip)) print "		" f ";" }' | LC_ALL=C sort; \
	  echo '	local:'; echo '		*;'; echo '};'; } >$@.tmp && mv $@.tmp $@

$(LIBSO): $(LIB_OBJS) $(LIB_MAP)
	@$(if $(Q),echo "  LD      $@")
	$(Q)$(CC) -shared -Wl,-soname,libaxfsimg.so.$(SOVERSION) -Wl,--version-script=$(LIB_MAP) $(ALL_LDFLAGS) -o $@ $(LIB_OBJS) $(PKG_LIBS)
	$(Q)ln -sf libaxfsimg.so.$(VERSION) $(B)/libaxfsimg.so.$(SOVERSION)
	$(Q)ln -sf libaxfsimg.so.$(VERSION) $(B)/libaxfsimg.so

$(AXFS): $(CMD_OBJS) $(LIBA)
	@$(if $(Q),echo "  LD      $@")
	$(Q)$(CC) $(ALL_LDFLAGS) -o $@ $(CMD_OBJS) $(LIBA) $(PKG_LIBS) $(FUSE_LIBS)

# Every tests/unit/*.c defines `Suite *suite_NAME(void)`; collect them.
$(B)/tests/unit/suites.h: $(UNIT_SRCS) | $(UNIT_DEPS_STAMP)
	@mkdir -p $(@D)
	$(Q)grep -ho 'Suite \*suite_[a-z0-9_]*(void)' $(UNIT_SRCS) | sed 's/.*\(suite_[a-z0-9_]*\).*/UNIT_SUITE(\1)/' | sort -u > $@.tmp && mv $@.tmp $@
$(UNIT_OBJS): $(B)/tests/unit/suites.h | $(UNIT_DEPS_STAMP)

$(UNIT): $(UNIT_OBJS) $(LIB_OBJS)
	@$(if $(Q),echo "  LD      $@")
	$(Q)$(CC) $(ALL_LDFLAGS) -o $@ $(UNIT_OBJS) $(LIB_OBJS) $(CHECK_LIBS) $(PKG_LIBS)

# ---- tests ---------------------------------------------------------------
# The builds (normal, sanitizer, fuzz) run in parallel, one job per CPU:
# make check has a time budget.  The Debian packages are installed first,
# alone, so that two apt-get runs never race for the dpkg lock.
CHECK_JOBS ?= $(shell nproc 2>/dev/null || echo 1)
check:
	$(Q)$(MAKE) --no-print-directory deps deps-tests
	$(Q)$(MAKE) --no-print-directory -j$(CHECK_JOBS) WERROR=1 check-build
	$(Q)B=$(B) SAN_B=$(B)-san sh tests/run-tests.sh

.PHONY: check-build
check-build: all $(UNIT) $(FUZZ_REPLAY) check-san-build

# The same unit and CLI tests again under ASan+UBSan (run by `make check`).
check-san-build:
ifneq ($(SANITIZE),1)
	$(Q)$(MAKE) --no-print-directory SANITIZE=1 B=$(B)-san $(B)-san/axfs $(B)-san/unit-tests $(FUZZ_TARGETS:%=$(B)-san/fuzz/replay_%)
endif

check-san: check-san-build deps-tests
	$(Q)B=$(B) SAN_B=$(B)-san sh tests/run-tests.sh san

check-unit: $(UNIT) deps-tests
	$(Q)B=$(B) sh tests/run-tests.sh unit

check-cli: $(AXFS) deps-tests
	$(Q)B=$(B) sh tests/run-tests.sh cli

check-kernel: $(AXFS) deps-tests
	$(Q)B=$(B) sh tests/run-tests.sh kernel

# The Debian packages built from `make dist`, installed in a clean root,
# axfs-dkms building the module there, the kernel patch applied to a real
# tree, bitbake on the Yocto layer, a build without libfuse3 (FUSE=0):
# slow, root, Debian's archive.
.PHONY: check-packages
check-packages: $(AXFS) deps-tests-all
	$(Q)B=$(B) sh tests/run-tests.sh packages

# axfs.ko cross-built for arm64, armhf (32-bit ARM: 6.1 armmp and
# armmp-lpae, 6.12 armmp) and riscv64 and tested on Debian's kernels of
# each (qemu virt, TCG; kernel/tests/cross.sh; 5-14 minutes each, see
# kernel/README.md).
check-arm64: $(AXFS) deps-tests-all
	$(Q)B=$(B) sh tests/run-tests.sh arm64
check-armhf: $(AXFS) deps-tests-all
	$(Q)B=$(B) sh tests/run-tests.sh armhf armhf-lpae armhf-6.12
check-riscv64: $(AXFS) deps-tests-all
	$(Q)B=$(B) sh tests/run-tests.sh riscv64

# AXFS as the root filesystem (kernel/tests/rootfs.sh): the module route
# on amd64, arm64, armhf and riscv64, the built-in route on arm64, the
# profile loop; on armhf's four kernels the image in lowmem, highmem and
# beyond RAM (--placements).
# `make bench-rootfs` also writes the tables into bench/RESULTS.md.
.PHONY: check-rootfs bench-rootfs
check-rootfs: $(AXFS)
	$(Q)B=$(B) sh tests/run-tests.sh rootfs

bench-rootfs: $(AXFS)
	$(Q)for a in $${ROOTFS_ARCHS:-amd64 arm64 armhf riscv64}; do \
		AXFS=$(AXFS) sh kernel/tests/rootfs.sh --arch $$a \
			$$([ $$a = arm64 ] && echo --builtin) --results bench/RESULTS.md || exit 1; \
	done

# What make check runs (its kernel run is the smoke suite, boot 1 on every
# backend; its unit tests check the library's ABI, tests/unit/test_abi.c), the full qemu suite on 6.1 (kernel), the
# corrupted images and the kernel fuzz corpus on 6.1 built with KASAN, UBSAN
# and lockdep, panic_on_warn=1 (kernel-debug: kernel/tests/debug-kernel.sh,
# built once and cached), every CLI script under
# sanitizers (san-all), axfs.ko
# against every kernel line (kernel/tests/matrix.sh: built with W=1 against
# 5.10, 6.1, 6.12 and the newest Debian kernel; the full qemu suite on the
# newest, a smoke run with the corrupted images on 5.10 and 6.12), on
# arm64, armhf (6.1 armmp and armmp-lpae, 6.12 armmp) and riscv64, and
# the packages; one run of the test runner, so it ends with one
# "N passed, N failed" line.
# AXFS_KT_SLOW=2: qemu's time limits doubled, since two guests may run at
# once.  .ci/run runs this.
check-all:
	$(Q)$(MAKE) --no-print-directory deps deps-tests-all
	$(Q)$(MAKE) --no-print-directory -j$(CHECK_JOBS) WERROR=1 check-build
	$(Q)B=$(B) SAN_B=$(B)-san AXFS_KT_SLOW=$${AXFS_KT_SLOW:-2} sh tests/run-tests.sh \
		unit cli cli-long fuzz san-all kernel kernel-debug matrix arm64 armhf armhf-lpae armhf-6.12 riscv64 rootfs bootorder packages

# ---- fuzzing ------------------------------------------------------------------
# Standalone replay drivers (any compiler) in $(B)/fuzz/, libFuzzer builds
# (clang) in build-fuzz/.  `make fuzz FUZZ_SECONDS=N` fuzzes every target.
FUZZ_TARGETS := $(patsubst tests/fuzz/fuzz_%.c,%,$(sort $(wildcard tests/fuzz/fuzz_*.c)))
FUZZ_SECONDS ?= 60
FUZZ_REPLAY  := $(FUZZ_TARGETS:%=$(B)/fuzz/replay_%)

$(B)/fuzz/replay_%: tests/fuzz/fuzz_%.c tests/fuzz/standalone.c $(LIB_OBJS)
	@mkdir -p $(@D)
	@$(if $(Q),echo "  LD      $@")
	$(Q)$(CC) $(ALL_CFLAGS) -Wno-missing-prototypes -Itests/fuzz $(ALL_LDFLAGS) -o $@ tests/fuzz/fuzz_$*.c tests/fuzz/standalone.c $(LIB_OBJS) $(PKG_LIBS)

fuzz-replay: $(FUZZ_REPLAY)

# The library is compiled once (fuzzer-no-link) and linked into each target;
# UB aborts, so libFuzzer records it as a crash.  `make check` builds them in
# $(B)-fuzz/ (when clang links libFuzzer) so parallel builds do not race.
FUZZ_B      ?= build-fuzz
FUZZ_CC     ?= clang
FUZZ_CFLAGS := $(BASE_CFLAGS) -O1 -g $(WARN) -fsanitize=address,undefined -fno-sanitize-recover=all -MMD -MP $(LIB_INCS) -Itests/fuzz
FUZZ_LIB_OBJS := $(LIB_SRCS:%.c=$(FUZZ_B)/%.o)
.SECONDARY: $(FUZZ_LIB_OBJS) $(FUZZ_TARGETS:%=$(FUZZ_B)/tests/fuzz/fuzz_%.o)
$(FUZZ_B)/%.o: %.c | $(DEPS_STAMP)
	@mkdir -p $(@D)
	@$(if $(Q),echo "  FUZZCC  $<")
	$(Q)$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer-no-link $(PKG_CFLAGS) -c $< -o $@
$(FUZZ_B)/fuzz_%: $(FUZZ_B)/tests/fuzz/fuzz_%.o $(FUZZ_LIB_OBJS)
	@$(if $(Q),echo "  FUZZ    $@")
	$(Q)$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer -o $@ $< $(FUZZ_LIB_OBJS) $(PKG_LIBS)

fuzz: $(AXFS) $(FUZZ_TARGETS:%=$(FUZZ_B)/fuzz_%)
	$(Q)AXFS=$(CURDIR)/$(AXFS) FUZZ_B=$(FUZZ_B) FUZZ_SECONDS=$(FUZZ_SECONDS) sh tests/fuzz/run-fuzzers.sh $(FUZZ_TARGETS)

# `make check`: the standalone drivers replay the corpus (under ASan+UBSan
# through check-san-build), and each target fuzzes briefly if clang can.
check-build: $(FUZZ_REPLAY) check-fuzz-build
.PHONY: check-fuzz-build
check-fuzz-build:
	$(Q)if sh tests/fuzz/have-libfuzzer.sh $(FUZZ_CC); then $(MAKE) --no-print-directory FUZZ_B=$(B)-fuzz $(FUZZ_TARGETS:%=$(B)-fuzz/fuzz_%); fi

# The kernel target (fuzz_kernel.c) links no libaxfsimg: it compiles the
# driver's sources in kernel/, unchanged, against user-space stand-ins for
# the kernel headers (tests/fuzz/kshim/).  These explicit rules take over
# from the pattern rules above for replay_kernel and fuzz_kernel.
KFUZZ_KSRCS := $(addprefix kernel/,mount.c regions.c io.c inode.c dir.c file.c xip.c uncompress.c physmem.c) \
	       tests/fuzz/kshim/kshim.c tests/fuzz/fuzz_kernel.c
KFUZZ_USRCS := tests/fuzz/kshim/kshim_libc.c tests/fuzz/kshim/kzlib.c tests/fuzz/standalone.c
KFUZZ_KFLAGS := -std=gnu11 -D__KERNEL__ -fno-strict-aliasing $(WARN) -Wno-sign-compare \
		-Itests/fuzz/kshim -Ikernel -Iinclude/axfs -Itests/fuzz \
		-include tests/fuzz/kshim/axfs-probes.h
KFUZZ_UFLAGS := $(BASE_CFLAGS) $(WARN) -Wno-missing-prototypes -Itests/fuzz
KFUZZ_FLAGS   = $(if $(filter $(KFUZZ_USRCS),$<),$(KFUZZ_UFLAGS),$(KFUZZ_KFLAGS)) -MMD -MP
KFUZZ_LIBS    = $(or $(shell $(PKG_CONFIG) --libs zlib 2>/dev/null),-lz)
KFUZZ_OBJS   := $(KFUZZ_KSRCS:%.c=$(B)/kfuzz/%.o) $(KFUZZ_USRCS:%.c=$(B)/kfuzz/%.o)
KFUZZ_FOBJS  := $(filter-out %/standalone.o,$(KFUZZ_OBJS:$(B)/%=$(FUZZ_B)/%))
$(B)/kfuzz/%.o: %.c | $(DEPS_STAMP)
	@mkdir -p $(@D)
	@$(if $(Q),echo "  CC      $<")
	$(Q)$(CC) $(KFUZZ_FLAGS) $(OPT) $(SAN_FLAGS) -c $< -o $@
$(B)/fuzz/replay_kernel: $(KFUZZ_OBJS)
	@mkdir -p $(@D)
	@$(if $(Q),echo "  LD      $@")
	$(Q)$(CC) $(ALL_LDFLAGS) -o $@ $^ $(KFUZZ_LIBS)
$(FUZZ_B)/kfuzz/%.o: %.c | $(DEPS_STAMP)
	@mkdir -p $(@D)
	@$(if $(Q),echo "  FUZZCC  $<")
	$(Q)$(FUZZ_CC) $(KFUZZ_FLAGS) -O1 -g -fsanitize=address,undefined,fuzzer-no-link -fno-sanitize-recover=all -c $< -o $@
$(FUZZ_B)/fuzz_kernel: $(KFUZZ_FOBJS)
	@$(if $(Q),echo "  FUZZ    $@")
	$(Q)$(FUZZ_CC) -fsanitize=address,undefined,fuzzer -o $@ $^ $(KFUZZ_LIBS)

# ---- benchmarks (bench/): not part of `make check` ---------------------------
# The measured boot of issue 40 (bench/kernel/boot-order.sh, root, qemu
# with -icount: 3 boots of each root, about 25 minutes on 2 loaded cores;
# BOOT_ORDER_ARCH=arm64 or armhf: Debian's kernel and root of that
# architecture, about 11 to 22 and 28 minutes).
BOOT_ORDER_ARCH ?= amd64
.PHONY: bench-boot-order
bench-boot-order: $(AXFS)
	$(Q)AXFS=$(CURDIR)/$(AXFS) nice sh bench/kernel/boot-order.sh --arch $(BOOT_ORDER_ARCH) --results bench/RESULTS.md

$(B)/bench-micro: bench/micro.c $(LIB_OBJS)
	@$(if $(Q),echo "  LD      $@")
	$(Q)$(CC) $(ALL_CFLAGS) $(ALL_LDFLAGS) -o $@ bench/micro.c $(LIB_OBJS) $(PKG_LIBS) -lm

# zlib against libdeflate (Debian libdeflate-dev); not built by `make bench`.
$(B)/bench-deflate: bench/deflate.c
	@mkdir -p $(@D)
	@$(if $(Q),echo "  LD      $@")
	$(Q)$(CC) $(ALL_CFLAGS) $(ALL_LDFLAGS) -o $@ bench/deflate.c -lz -ldeflate

bench: $(AXFS) $(B)/bench-micro
	$(Q)AXFS=$(CURDIR)/$(AXFS) sh bench/run.sh
	$(Q)$(B)/bench-micro

# ---- the main job on the bundled example -------------------------------------
demo:
	$(Q)$(MAKE) --no-print-directory deps
	$(Q)sh scripts/install-deps.sh --install demo
	$(Q)$(MAKE) --no-print-directory $(AXFS)
	$(Q)sh examples/demo.sh $(AXFS)

# ---- install ---------------------------------------------------------------
install: all $(LIBA) install-man
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(SBINDIR) $(DESTDIR)$(LIBDIR) \
		$(DESTDIR)$(LIBDIR)/pkgconfig $(DESTDIR)$(INCLUDEDIR)/axfs \
		$(DESTDIR)$(MANDIR)/man1 $(DESTDIR)$(MANDIR)/man5 $(DESTDIR)$(MANDIR)/man8
	install -m 755 $(AXFS) $(DESTDIR)$(BINDIR)/axfs
	ln -sf $$(realpath -m --relative-to=$(SBINDIR) $(BINDIR))/axfs $(DESTDIR)$(SBINDIR)/mkfs.axfs
	ln -sf $$(realpath -m --relative-to=$(SBINDIR) $(BINDIR))/axfs $(DESTDIR)$(SBINDIR)/fsck.axfs
	ln -sf $$(realpath -m --relative-to=$(SBINDIR) $(BINDIR))/axfs $(DESTDIR)$(SBINDIR)/mount.fuse.axfs
	install -m 644 $(LIBA) $(DESTDIR)$(LIBDIR)/libaxfsimg.a
	install -m 755 $(LIBSO) $(DESTDIR)$(LIBDIR)/libaxfsimg.so.$(VERSION)
	ln -sf libaxfsimg.so.$(VERSION) $(DESTDIR)$(LIBDIR)/libaxfsimg.so.$(SOVERSION)
	ln -sf libaxfsimg.so.$(VERSION) $(DESTDIR)$(LIBDIR)/libaxfsimg.so
	install -m 644 $(API_HDRS) $(DESTDIR)$(INCLUDEDIR)/axfs/
	install -d $(DESTDIR)$(DATADIR)/bash-completion/completions
	install -m 644 contrib/bash-completion/axfs $(DESTDIR)$(DATADIR)/bash-completion/completions/axfs
	ln -sf axfs $(DESTDIR)$(DATADIR)/bash-completion/completions/mkfs.axfs
	ln -sf axfs $(DESTDIR)$(DATADIR)/bash-completion/completions/fsck.axfs
	sed -e 's|@PREFIX@|$(PREFIX)|; s|@LIBDIR@|$(PC_LIBDIR)|; s|@INCLUDEDIR@|$(PC_INCLUDEDIR)|; s|@VERSION@|$(VERSION)|' \
		libaxfsimg/axfsimg.pc.in > $(DESTDIR)$(LIBDIR)/pkgconfig/axfsimg.pc

# An alias page (mkfs.axfs.8) is a symbolic link in man/, so that
# `man -l man/mkfs.axfs.8` works in the tree; installed, it is a .so page
# naming its target in that target's section directory.
install-man:
	install -d $(DESTDIR)$(MANDIR)/man1 $(DESTDIR)$(MANDIR)/man5 $(DESTDIR)$(MANDIR)/man8
	for m in man/*.[158]; do \
		d=$(DESTDIR)$(MANDIR)/man$${m##*.}; \
		if [ -L "$$m" ]; then t=$$(readlink "$$m"); \
			printf '%s\n' '.\" SPDX-License-Identifier: GPL-2.0-or-later' ".so man$${t##*.}/$$t" >$$d/$${m#man/} && chmod 644 $$d/$${m#man/}; \
		else install -m 644 $$m $$d/; fi || exit 1; \
	done

# axfsimg.pc names its directories under ${prefix} where they are, so that
# `pkg-config --define-prefix` finds a relocated (DESTDIR) install.
PC_LIBDIR     = $(patsubst $(PREFIX)/%,$${prefix}/%,$(LIBDIR))
PC_INCLUDEDIR = $(patsubst $(PREFIX)/%,$${prefix}/%,$(INCLUDEDIR))

uninstall:
	rm -f $(DESTDIR)$(BINDIR)/axfs $(DESTDIR)$(SBINDIR)/mkfs.axfs $(DESTDIR)$(SBINDIR)/fsck.axfs
	rm -f $(DESTDIR)$(SBINDIR)/mount.fuse.axfs
	rm -f $(DESTDIR)$(LIBDIR)/libaxfsimg.a $(DESTDIR)$(LIBDIR)/libaxfsimg.so*
	rm -f $(DESTDIR)$(LIBDIR)/pkgconfig/axfsimg.pc
	rm -rf $(DESTDIR)$(INCLUDEDIR)/axfs
	rm -f $(addprefix $(DESTDIR)$(DATADIR)/bash-completion/completions/,axfs mkfs.axfs fsck.axfs)
	cd man && for m in *.[158]; do rm -f $(DESTDIR)$(MANDIR)/man$${m##*.}/$$m; done

clean:
	rm -rf build build-san build-*

# ---- release tarball -----------------------------------------------------------
# `make dist`: axfs-tools-$(VERSION).tar.xz of the commit checked out (HEAD),
# the same bytes every time: git archive writes the files in tree order,
# owned by root, with the commit's time; xz runs with fixed options on one
# thread (threaded xz writes other bytes).  Uncommitted changes are not in
# it.  DISTDIR says where to write it; a .sha256 file goes beside it.
DIST_NAME := axfs-tools-$(VERSION)
DISTDIR   ?= .
.PHONY: dist
dist:
	$(Q)git -C $(CURDIR) rev-parse --verify -q HEAD >/dev/null || \
		{ echo "make dist: needs a git checkout with a commit" >&2; exit 1; }
	$(Q)test "$$(git -C $(CURDIR) show HEAD:VERSION)" = "$(VERSION)" || \
		{ echo "make dist: VERSION differs from the committed one; commit it first" >&2; exit 1; }
	$(Q)mkdir -p $(DISTDIR)
	$(Q)git -C $(CURDIR) -c tar.umask=022 archive --format=tar --prefix=$(DIST_NAME)/ HEAD | \
		xz -T1 -6 --check=crc64 -c >$(DISTDIR)/$(DIST_NAME).tar.xz.tmp
	$(Q)mv $(DISTDIR)/$(DIST_NAME).tar.xz.tmp $(DISTDIR)/$(DIST_NAME).tar.xz
	$(Q)cd $(DISTDIR) && sha256sum $(DIST_NAME).tar.xz >$(DIST_NAME).tar.xz.sha256
	@echo "$(DISTDIR)/$(DIST_NAME).tar.xz ($$(cut -d' ' -f1 $(DISTDIR)/$(DIST_NAME).tar.xz.sha256))"

-include $(LIB_OBJS:.o=.d) $(CMD_OBJS:.o=.d) $(UNIT_OBJS:.o=.d) $(FUZZ_LIB_OBJS:.o=.d) \
	$(wildcard $(FUZZ_B)/tests/fuzz/*.d) $(KFUZZ_OBJS:.o=.d) $(KFUZZ_FOBJS:.o=.d)
