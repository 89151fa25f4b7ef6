# SPDX-License-Identifier: GPL-2.0-or-later
# axfs-tools build.  `make`, `make check`, `make demo`, `make install`.
# V=1 shows the commands; CC=clang works; SANITIZE=1 builds with
# -fsanitize=address,undefined into build-san/.

VERSION     := 0.1.0
SOVERSION   := 0
PREFIX      ?= /usr/local
BINDIR      ?= $(PREFIX)/bin
SBINDIR     ?= $(PREFIX)/sbin
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
FUSE_CFLAGS  = $(shell $(PKG_CONFIG) --cflags fuse3 2>/dev/null)
FUSE_LIBS    = $(shell $(PKG_CONFIG) --libs fuse3 2>/dev/null)
CHECK_LIBS   = $(shell $(PKG_CONFIG) --libs check 2>/dev/null)

WARN        := -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes -Wmissing-prototypes -Wno-unused-parameter
OPT         ?= -O2 -g
BASE_CFLAGS := -std=c11 -D_GNU_SOURCE -D_FILE_OFFSET_BITS=64 -DAXFS_VERSION=\"$(VERSION)\" -pthread
CFLAGS      ?=
ALL_CFLAGS   = $(BASE_CFLAGS) $(OPT) $(WARN) $(SAN_FLAGS) -fPIC -MMD -MP -Ilibaxfsimg $(PKG_CFLAGS) $(CFLAGS)
LDFLAGS     ?=
ALL_LDFLAGS  = $(SAN_FLAGS) -pthread $(LDFLAGS)

LIB_SRCS    := $(sort $(wildcard libaxfsimg/*.c))
CMD_SRCS    := $(sort $(wildcard cmd/*.c))
UNIT_SRCS   := $(sort $(wildcard tests/unit/*.c))
LIB_OBJS    := $(LIB_SRCS:%.c=$(B)/%.o)
CMD_OBJS    := $(CMD_SRCS:%.c=$(B)/%.o)
UNIT_OBJS   := $(UNIT_SRCS:%.c=$(B)/%.o)

AXFS        := $(B)/axfs
LIBA        := $(B)/libaxfsimg.a
LIBSO       := $(B)/libaxfsimg.so.$(VERSION)
UNIT        := $(B)/unit-tests
DEPS_STAMP  := $(B)/.deps-ok

# Sanitizer pass run by `make check` (and CI): unit + CLI tests again
# under ASan+UBSan, built in build-san/.
.PHONY: check-san check-san-build fuzz-replay
.PHONY: all deps check check-all check-unit check-cli check-kernel check-arm64 demo install uninstall clean fuzz bench

all: $(AXFS) $(LIBSO)

# Installs missing Debian packages (as root) and says what it does.
deps: $(DEPS_STAMP)
$(DEPS_STAMP): scripts/install-deps.sh
	$(Q)sh scripts/install-deps.sh
	$(Q)mkdir -p $(@D) && touch $@

$(B)/%.o: %.c | $(DEPS_STAMP)
	@mkdir -p $(@D)
	@$(if $(Q),echo "  CC      $<")
	$(Q)$(CC) $(ALL_CFLAGS) $(if $(filter tests/unit/%,$<),$(CHECK_CFLAGS) -Wno-missing-prototypes -I$(B)/tests/unit) $(if $(filter cmd/mount.c,$<),$(FUSE_CFLAGS)) -c $< -o $@

$(LIBA): $(LIB_OBJS)
	@$(if $(Q),echo "  AR      $@")
	$(Q)rm -f $@ && $(AR) rcs $@ $^

$(LIBSO): $(LIB_OBJS)
	@$(if $(Q),echo "  LD      $@")
	$(Q)$(CC) -shared -Wl,-soname,libaxfsimg.so.$(SOVERSION) -Wl,--version-script=libaxfsimg/libaxfsimg.map $(ALL_LDFLAGS) -o $@ $^ $(PKG_LIBS)
	$(Q)ln -sf libaxfsimg.so.$(VERSION) $(B)/libaxfsimg.so.$(SOVERSION)
	$(Q)ln -sf libaxfsimg.so.$(VERSION) $(B)/libaxfsimg.so

$(AXFS): $(CMD_OBJS) $(LIB_OBJS)
	@$(if $(Q),echo "  LD      $@")
	$(Q)$(CC) $(ALL_LDFLAGS) -o $@ $(CMD_OBJS) $(LIB_OBJS) $(PKG_LIBS) $(FUSE_LIBS)

# Every tests/unit/*.c defines `Suite *suite_NAME(void)`; collect them.
$(B)/tests/unit/suites.h: $(UNIT_SRCS) | $(DEPS_STAMP)
	@mkdir -p $(@D)
	$(Q)grep -ho 'Suite \*suite_[a-z0-9_]*(void)' $(UNIT_SRCS) | sed 's/.*\(suite_[a-z0-9_]*\).*/AXFS_SUITE(\1)/' | sort -u > $@.tmp && mv $@.tmp $@
$(UNIT_OBJS): $(B)/tests/unit/suites.h

$(UNIT): $(UNIT_OBJS) $(LIB_OBJS)
	@$(if $(Q),echo "  LD      $@")
	$(Q)$(CC) $(ALL_LDFLAGS) -o $@ $(UNIT_OBJS) $(LIB_OBJS) $(CHECK_LIBS) $(PKG_LIBS)

# ---- tests ---------------------------------------------------------------
# The builds (normal, sanitizer, fuzz) run in parallel, one job per CPU:
# make check has a time budget.  The Debian packages are installed first,
# alone, so that two apt-get runs never race for the dpkg lock.
CHECK_JOBS ?= $(shell nproc 2>/dev/null || echo 1)
check:
	$(Q)$(MAKE) --no-print-directory deps
	$(Q)$(MAKE) --no-print-directory -j$(CHECK_JOBS) check-build
	$(Q)B=$(B) SAN_B=$(B)-san sh tests/run-tests.sh

.PHONY: check-build
check-build: all $(UNIT) $(FUZZ_REPLAY) check-san-build

# The same unit and CLI tests again under ASan+UBSan (run by `make check`).
check-san-build:
ifneq ($(SANITIZE),1)
	$(Q)$(MAKE) --no-print-directory SANITIZE=1 B=$(B)-san $(B)-san/axfs $(B)-san/unit-tests $(FUZZ_TARGETS:%=$(B)-san/fuzz/replay_%)
endif

check-san: check-san-build
	$(Q)B=$(B) SAN_B=$(B)-san sh tests/run-tests.sh san

check-unit: $(UNIT)
	$(Q)B=$(B) sh tests/run-tests.sh unit

check-cli: $(AXFS)
	$(Q)B=$(B) sh tests/run-tests.sh cli

check-kernel: $(AXFS)
	$(Q)B=$(B) sh tests/run-tests.sh kernel

# axfs.ko cross-built for arm64 and tested on Debian's arm64 kernel (qemu
# virt, TCG; 8-12 minutes, see kernel/README.md): part of make check-all.
check-arm64: $(AXFS)
	$(Q)AXFS=$(abspath $(AXFS)) sh kernel/tests/arm64.sh

# make check, then axfs.ko against every kernel line (kernel/tests/matrix.sh:
# built with W=1 against 5.10, 6.1, 6.12 and the newest Debian kernel; the
# full qemu suite on the newest, a smoke run on 5.10 and 6.12) and on arm64.
check-all: check
	$(Q)AXFS=$(abspath $(AXFS)) sh kernel/tests/matrix.sh --boot
	$(Q)$(MAKE) --no-print-directory check-arm64

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
FUZZ_CFLAGS := $(BASE_CFLAGS) -O1 -g $(WARN) -fsanitize=address,undefined -fno-sanitize-recover=all -MMD -MP -Ilibaxfsimg -Itests/fuzz
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
KFUZZ_KSRCS := $(addprefix kernel/,regions.c io.c inode.c dir.c file.c xip.c uncompress.c physmem.c) \
	       tests/fuzz/kshim/kshim.c tests/fuzz/fuzz_kernel.c
KFUZZ_USRCS := tests/fuzz/kshim/kshim_libc.c tests/fuzz/kshim/kzlib.c tests/fuzz/standalone.c
KFUZZ_KFLAGS := -std=gnu11 -D__KERNEL__ -fno-strict-aliasing $(WARN) -Wno-sign-compare \
		-Itests/fuzz/kshim -Ikernel -Ilibaxfsimg -Itests/fuzz
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
demo: $(AXFS)
	$(Q)sh examples/demo.sh $(AXFS)

# ---- install ---------------------------------------------------------------
install: all $(LIBA)
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
	install -m 644 libaxfsimg/axfs_*.h $(DESTDIR)$(INCLUDEDIR)/axfs/
	for m in man/*.1; do [ -e "$$m" ] && install -m 644 $$m $(DESTDIR)$(MANDIR)/man1/; done; true
	for m in man/*.5; do [ -e "$$m" ] && install -m 644 $$m $(DESTDIR)$(MANDIR)/man5/; done; true
	for m in man/*.8; do [ -e "$$m" ] && install -m 644 $$m $(DESTDIR)$(MANDIR)/man8/; done; true
	install -d $(DESTDIR)$(DATADIR)/bash-completion/completions
	install -m 644 contrib/bash-completion/axfs $(DESTDIR)$(DATADIR)/bash-completion/completions/axfs
	ln -sf axfs $(DESTDIR)$(DATADIR)/bash-completion/completions/mkfs.axfs
	ln -sf axfs $(DESTDIR)$(DATADIR)/bash-completion/completions/fsck.axfs
	sed -e 's|@PREFIX@|$(PREFIX)|; s|@LIBDIR@|$(PC_LIBDIR)|; s|@INCLUDEDIR@|$(PC_INCLUDEDIR)|; s|@VERSION@|$(VERSION)|' \
		libaxfsimg/axfsimg.pc.in > $(DESTDIR)$(LIBDIR)/pkgconfig/axfsimg.pc

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

-include $(LIB_OBJS:.o=.d) $(CMD_OBJS:.o=.d) $(UNIT_OBJS:.o=.d) $(FUZZ_LIB_OBJS:.o=.d) \
	$(wildcard $(FUZZ_B)/tests/fuzz/*.d) $(KFUZZ_OBJS:.o=.d) $(KFUZZ_FOBJS:.o=.d)
