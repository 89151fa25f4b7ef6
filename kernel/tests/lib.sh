# SPDX-License-Identifier: GPL-2.0-only
#
# lib.sh - host side of the qemu tests, shared by tests/run.sh and
# tools/measure-xip.sh.  Sourced, not run.
#
#   kt_need_tools          qemu-system-x86 and busybox-static (installed by
#                          make deps-tests); sets KT_SKIP to a reason when
#                          they are missing
#   kt_kernel              Debian's kernel and headers (fetch-kernel.sh):
#                          sets KVER KDIR VMLINUZ MODROOT; AXFS_KSUITE
#                          picks the release (bullseye, trixie, newest...;
#                          default: the host's own, 6.1 on Debian 12);
#                          AXFS_KSUITE=debug: 6.1 built from source with
#                          KASAN, UBSAN and lockdep (debug-kernel.sh)
#   kt_build_module        make -C kernel, or for another AXFS_KSUITE
#                          (debug too) build-module.sh (its compiler, its
#                          build root) in KT_BUILD_DIR; sets KO
#   kt_debian_pkgs         real Debian package trees (KT_DEBIAN_PKGS, as
#                          `dpkg-deb -x` unpacks them) in the cache; sets
#                          KT_DEBROOT, or KT_SKIP when they cannot be had
#   kt_initramfs DIR OUT   kernel/tools/mkinitramfs.sh, the tool users
#                          take: busybox, axfs.ko, the modules the tests
#                          use (KT_MODULES, those the kernel has, with
#                          their dependencies) and DIR's files -> cpio
#   kt_boot LOG TIMEOUT APPEND QEMU-ARGS...
#                          boot it; the guest's console goes to LOG
#
# KT_ARCH=arm64, armhf or riscv64 (set before sourcing; tests/cross.sh)
# reads arch/KT_ARCH.sh, boots qemu's "virt" machine of that architecture
# with the device tree kt_dtb writes, and puts KT_GUEST_BUSYBOX
# (busybox-static of that architecture) in the initramfs; the host's
# busybox still does the host's work (applet list, depmod, listings).

KT_TOP=${AXFS_TOP:-$(cd "$(dirname "$0")/../.." && pwd)}
KT_KERNEL=$KT_TOP/kernel
KT_SKIP=

kt_say() { echo "# $*"; }

# A work directory in W, removed at exit unless KEEP is 1; then SAY (a
# command such as kt_say) prints where it is.
kt_workdir() {	# kt_workdir NAME KEEP SAY
	W=$(mktemp -d "${TMPDIR:-/tmp}/$1.XXXXXX") || exit 1
	TEST_TMP=$W
	if [ "$2" = 1 ]; then
		"$3" "work directory: $W"
	else
		trap 'rm -rf "$W"' EXIT
		trap 'exit 1' INT TERM
	fi
}

# The corrupted images of DIR (corrupt.py) that guest/hostile.sh mounts
# with physaddr=: qemu's loader puts them in guest memory 1 MiB apart
# from BASE.  Sets KT_LOADERS (the qemu arguments) and KT_PHYS_CORRUPT
# ("NAME@ADDR ...", the guest's PHYS_CORRUPT).
kt_corrupt_loaders() {	# kt_corrupt_loaders DIR BASE
	local name a addr
	addr=$2
	KT_LOADERS=""
	KT_PHYS_CORRUPT=""
	for name in sb-size-huge sb-size-u32-wrap sb-mmap-beyond desc-outside-strings \
		    region-size-huge-xip region-offset-wrap-compressed cblock-garbage \
		    xip-index-outside banode-outside random-03 random-07 random-z-01; do
		[ -f "$1/$name.img" ] || continue
		a=$(printf '0x%x' "$addr")
		KT_LOADERS="$KT_LOADERS -device loader,file=$1/$name.img,addr=$a,force-raw=on"
		KT_PHYS_CORRUPT="$KT_PHYS_CORRUPT $name@$a"
		addr=$((addr + 0x100000))
	done
}

# The host's packages are installed by `make deps-tests` (groups kernel
# and kernel-all of scripts/install-deps.sh), never by the tests: a missing
# one is named, with the command that installs it.
kt_missing() {	# kt_missing PACKAGE GROUP
	echo "$1 is not installed (as root: make deps-tests, or sh scripts/install-deps.sh --install $2)"
}

kt_static_busybox() {
	for b in /bin/busybox /usr/bin/busybox; do
		[ -x "$b" ] && file_is_static "$b" && { echo "$b"; return 0; }
	done
	return 1
}

# A static ELF has no PT_INTERP program header.
file_is_static() {
	python3 - "$1" <<'PY'
import struct, sys
b = open(sys.argv[1], "rb").read(1 << 16)
if b[:4] != b"\x7fELF" or b[4] != 2:
    sys.exit(1)
phoff, = struct.unpack_from("<Q", b, 32)
phentsize, phnum = struct.unpack_from("<HH", b, 54)
for i in range(phnum):
    if struct.unpack_from("<I", b, phoff + i * phentsize)[0] == 3:
        sys.exit(1)
PY
}

kt_need_tools() {
	if ! command -v qemu-system-x86_64 >/dev/null 2>&1; then
		KT_SKIP=$(kt_missing qemu-system-x86 kernel)
		return 1
	fi
	if ! KT_BUSYBOX=$(kt_static_busybox); then
		KT_SKIP="no static busybox: $(kt_missing busybox-static kernel)"
		return 1
	fi
	for tool in apt-get dpkg python3 cc make; do
		command -v $tool >/dev/null 2>&1 ||
			{ KT_SKIP="$tool is missing"; return 1; }
	done
	return 0
}

kt_kernel() {
	local out
	if [ "${AXFS_KSUITE:-}" = debug ]; then
		out=$(sh "$KT_KERNEL/tests/debug-kernel.sh") ||
			{ KT_SKIP="cannot build the debug kernel (debug-kernel.sh)"; return 1; }
		eval "$out"
		return 0
	fi
	# shellcheck disable=SC2086
	out=$(sh "$KT_KERNEL/tests/fetch-kernel.sh" ${AXFS_KSUITE:-}) ||
		{ KT_SKIP="cannot fetch Debian's kernel packages"; return 1; }
	eval "$out"
	[ -r "$VMLINUZ" ] && [ -d "$KDIR" ] ||
		{ KT_SKIP="kernel cache incomplete"; return 1; }
}

kt_build_module() {
	if [ -z "${AXFS_KSUITE:-}" ] || [ "$AXFS_KSUITE" = host ]; then
		make -s -C "$KT_KERNEL" KDIR="$KDIR" modules >&2 || return 1
		KO=$KT_KERNEL/axfs.ko
	else
		# In a copy of the sources: check-all builds for the host
		# kernel in kernel/ at the same time.
		sh "$KT_KERNEL/tests/build-module.sh" "$AXFS_KSUITE" \
			"$KT_BUILD_DIR" >&2 || { cat "$KT_BUILD_DIR/build.log" >&2; return 1; }
		cat "$KT_BUILD_DIR/build.log" >&2
		KO=$KT_BUILD_DIR/kernel/axfs.ko
	fi
	[ -f "$KO" ]
}

# Real Debian package trees for the test tree, beside the kernel cache:
# time zones (1300 entries, 365 symbolic links), a program with man pages
# and a shared library with its links.  Fetched once with apt-get download.
KT_DEBIAN_PKGS="tzdata less zlib1g"

kt_debian_pkgs() {
	local cache=${AXFS_KCACHE:-/var/cache/axfs-tools/kernel}/debian-pkgs p
	KT_DEBROOT=$cache/root
	mkdir -p "$cache" || { KT_SKIP="cannot create $cache"; return 1; }
	(
		# Two test runs at once: the second waits, then finds it done.
		flock 9 2>/dev/null
		[ -e "$cache/.complete" ] &&
			[ "$(cat "$cache/.complete")" = "$KT_DEBIAN_PKGS" ] && exit 0
		rm -rf "$cache/debs" "$KT_DEBROOT" &&
		mkdir -p "$cache/debs" "$KT_DEBROOT" &&
		(cd "$cache/debs" && apt-get download -q $KT_DEBIAN_PKGS >&2) ||
			exit 1
		for p in $KT_DEBIAN_PKGS; do
			mkdir -p "$KT_DEBROOT/$p" &&
				dpkg-deb -x "$cache"/debs/"$p"_*.deb "$KT_DEBROOT/$p" ||
				exit 1
		done
		rm -rf "$cache/debs"
		echo "$KT_DEBIAN_PKGS" >"$cache/.complete"
	) 9>"$cache/.lock" ||
		{ KT_SKIP="apt-get download $KT_DEBIAN_PKGS failed"; return 1; }
}

# Modules the guest loads (and, through modules.dep, what they need).
KT_MODULES="virtio_pci virtio_blk loop mtd mtdram mtdblock phram block2mtd"

kt_initramfs() {	# kt_initramfs STAGEDIR OUT.cpio
	local log
	# shellcheck disable=SC2086
	log=$(sh "$KT_KERNEL/tools/mkinitramfs.sh" -k "$KVER" -m "$MODROOT" \
		-b "${KT_GUEST_BUSYBOX:-$KT_BUSYBOX}" -H "$KT_BUSYBOX" -d "$1" -s \
		-o "$2" "$KO" $KT_MODULES) || return 1
	kt_say "initramfs: ${log#*: }"
}

# RAM reserved for physaddr= mounts: 64 MiB at 256 MiB on x86 (memmap=);
# on the other architectures arch/KT_ARCH.sh says where (a reserved-memory
# node in the device tree kt_dtb writes), with the qemu machine, console,
# cross compiler and modules.
KT_ARCH=${KT_ARCH:-amd64}
if [ "$KT_ARCH" != amd64 ]; then
	. "$KT_KERNEL/tests/arch/load.sh"
	kt_load_arch "$KT_KERNEL/tests/arch" "$KT_ARCH"
else
	KT_PHYS_BASE=0x10000000
	KT_PHYS_SIZE=64M
fi

# kt_dtb OUT: the virt machine's own device tree (qemu dumps it) plus a
# reserved-memory node with no-map over KT_PHYS_BASE/SIZE: the kernel
# neither uses nor maps that RAM, qemu's loader can fill it.  The virt
# machines of arm, aarch64 and riscv64 all use two address and size cells.
# KT_DTB_NOMAP=no: qemu's tree alone (an image beyond the kernel's mem=).
kt_dtb() {
	local out=$1 size base
	size=$(numfmt --from=iec "$KT_PHYS_SIZE")
	base=$(printf '%016x' "$KT_PHYS_BASE")
	# shellcheck disable=SC2086
	$KT_QEMU $KT_MACHINE -nographic -nic none \
		-machine dumpdtb="$out.qemu" >/dev/null 2>&1 &&
		dtc -q -I dtb -O dts -o "$out.dts" "$out.qemu" || return 1
	# Recompiled either way: qemu's dump is padded to 1 MiB, and 6.1
	# armmp given it prints nothing at all.
	[ "${KT_DTB_NOMAP:-yes}" = yes ] ||
		{ dtc -q -I dts -O dtb -o "$out" "$out.dts"; return; }
	# dtc merges a second definition of / into the first.
	cat >>"$out.dts" <<EOF
/ {
	reserved-memory {
		#address-cells = <2>;
		#size-cells = <2>;
		ranges;
		axfs@${KT_PHYS_BASE#0x} {
			reg = <0x${base%????????} 0x${base#????????} 0x0 $(printf '0x%x' "$size")>;
			no-map;
		};
	};
};
EOF
	dtc -q -I dts -O dtb -o "$out" "$out.dts"
}

# Opt-in qemu settings for kt_boot (unset: two vCPUs on multi-threaded TCG,
# 512 MiB on amd64, as every test boots):
#   KT_ICOUNT=N   a deterministic clock: one vCPU, `-icount shift=N,sleep=off`
#                 (each guest instruction advances virtual time by 2^N ns,
#                 an idle vCPU jumps to the next timer), so the guest's
#                 clock counts instructions, not the host's load (benchmarks)
#   KT_MEM=SIZE   guest RAM on amd64 (qemu -m), for RAM above 512 MiB
kt_qemu_cpu_args() {
	if [ -n "${KT_ICOUNT:-}" ]; then
		# icount needs single-threaded TCG (qemu refuses MTTCG with it);
		# this -smp comes after the machine's and wins.
		echo "-smp 1 -accel tcg,thread=single -icount shift=$KT_ICOUNT,sleep=off"
	else
		echo "-accel tcg,thread=multi"
	fi
}

kt_boot() {	# kt_boot LOG TIMEOUT APPEND QEMU-ARGS...
	local log=$1 tmo=$2 append=$3
	shift 3
	# A machine busy with other work: AXFS_KT_SLOW=3 triples the limits.
	tmo=$((tmo * ${AXFS_KT_SLOW:-1}))
	if [ "$KT_ARCH" != amd64 ]; then
		# shellcheck disable=SC2086
		set -- $KT_QEMU $KT_MACHINE -dtb "$KT_DTB" \
			-append "console=$KT_CONSOLE panic=-1 loglevel=3 $append" "$@"
	else
		# no_timer_check: on a busy host TCG can be too slow for the
		# IO-APIC timer test, and the kernel panics at boot.
		# tsc=unstable: at a late initcall the kernel marks
		# sched_clock stable, a static key patched with int3 while the
		# other vCPU runs sched_clock_cpu() at every tick; under load
		# qemu 7.2's multi-threaded TCG then sometimes executes the
		# int3 after the patch is done: "Oops: int3" in sched_clock_cpu,
		# "Fatal exception in interrupt" (7.3, 1 boot in about 50).
		# With the TSC unstable from the start that key never changes;
		# sched_clock still reads the TSC, the clocksource is the HPET.
		# One vCPU (KT_ICOUNT, the benchmarks) has no such race and
		# keeps the TSC, so the benchmarks' clock stays what it was.
		local tsc=tsc=unstable
		[ -n "${KT_ICOUNT:-}" ] && tsc=
		set -- qemu-system-x86_64 -M pc -cpu max -smp 2 -m "${KT_MEM:-512M}" \
			-append "console=ttyS0 panic=-1 loglevel=3 no_timer_check $tsc memmap=$KT_PHYS_SIZE\$$KT_PHYS_BASE $append" \
			"$@"
	fi
	# shellcheck disable=SC2046
	timeout -k 10 "$tmo" "$@" $(kt_qemu_cpu_args) \
		-nographic -no-reboot -nic none \
		-kernel "$VMLINUZ" -initrd "$KT_INITRD" </dev/null >"$log" 2>&1
	local rc=$?
	tr -d '\r' <"$log" >"$log.tmp" && mv "$log.tmp" "$log"
	return $rc
}

# What the matrix table (matrix.sh --table) says about a kernel: one
# shell-quoted KEY='VALUE' line each in AXFS_CACHE_TOP/matrix/KVER.rec.
kt_record() {	# kt_record KVER KEY=VALUE...
	local f=${AXFS_CACHE_TOP:-/var/cache/axfs-tools}/matrix/$1.rec kv
	shift
	mkdir -p "${f%/*}" && touch "$f" || return 1
	for kv in "$@"; do
		grep -v "^${kv%%=*}=" "$f" >"$f.tmp"
		printf "%s='%s'\n" "${kv%%=*}" "${kv#*=}" >>"$f.tmp"
		mv "$f.tmp" "$f"
	done
}

# ---- TAP output (tests/run.sh, tests/cross.sh): the test library of tests/
# The numbering, the ok / not ok lines, the plan and the prerequisites are
# tests/test-lib.sh's, as in the CLI scripts; tap and host_check are the
# host-side names these suites use for its test_ok / test_fail and
# test_expect_cmd.  (The guest's scripts run in busybox ash inside qemu
# and print AXFS-RESULT lines; parse_guest turns them into tests here.)
TEST_TMP=	# kt_workdir sets it to $W
. "$KT_TOP/tests/test-lib.sh"
# passed / failed: what the suites record (run.sh's finish).
passed=0
failed=0
_kt_count() {
	failed=$test_failed
	passed=$((test_count - test_failed - test_skipped))
}

T0=$(date +%s)

# The summary line of a suite (kt_summary WHAT) and the plan, then exit 1
# if a test failed; the suite's finish() records what it needs first.
kt_summary() {
	_kt_count
	echo "# $1: $passed passed, $failed failed in $(($(date +%s) - T0)) s"
	echo "1..$test_count"
	[ "$failed" -eq 0 ]
	exit $?
}

# The whole suite cannot run here: one skipped test, exit 0.
skip_all() {
	test_skip_all "$*"
}

kt_need_root() {
	test_have_prereq ROOT || skip_all "needs root (mknod, chown in the test tree, modules)"
}

tap() {	# tap ok|fail NAME
	if [ "$1" = ok ]; then
		test_ok "$2"
	else
		test_fail "$2"
	fi
	_kt_count
}

host_check() {	# host_check NAME CMD...
	test_expect_cmd "$@"
	_kt_count
}

drive() {	# drive FILE SERIAL [ro|snapshot]
	echo "-drive file=$1,if=none,id=$2,format=raw,$([ "${3:-ro}" = ro ] && echo readonly=on || echo snapshot=on) -device virtio-blk-pci,drive=$2,serial=$2"
}

# What to show of the console log of a guest that did not run to the end:
# the first kernel report (its header says what went wrong; the last lines
# alone are only the tail of its stack trace), then the log's last lines.
KT_REPORT_START='Kernel panic|BUG:|Oops|WARNING:|UBSAN:|general protection|invalid opcode|int3:|watchdog:|rcu: INFO|hung_task|Unable to handle|Internal error'
kt_crash_report() {	# kt_crash_report LOG
	local first
	first=$(grep -n -m 1 -E "$KT_REPORT_START" "$1" | cut -d: -f1)
	if [ -n "$first" ]; then
		echo "first kernel report, from line $first:"
		sed -n "$((first > 3 ? first - 3 : 1)),$((first + 45))p" "$1"
		echo "last lines:"
	fi
	tail -n 20 "$1"
}

# Turn the guest's AXFS-RESULT lines into TAP lines; details as comments.
parse_guest() {	# parse_guest LOG BOOTNAME
	local log=$1 boot=$2 st name t last=0
	while IFS= read -r line; do
		case $line in
		"AXFS-RESULT "*)
			line=${line#AXFS-RESULT }
			st=${line%% *}
			line=${line#* }
			t=${line%% *}
			name=${line#* }
			tap "$st" "$boot: $name"
			# Say which checks are slow (guest uptime, seconds).
			t=${t%.*}
			[ $((t - last)) -ge 15 ] && echo "#   (took $((t - last)) s)"
			last=$t
			;;
		"  | "*)
			echo "#   ${line#  | }"
			;;
		esac
	done <"$log"
	if grep -q '^AXFS-GUEST-END' "$log"; then
		tap ok "$boot: the guest ran to the end"
	else
		tap fail "$boot: the guest ran to the end (crash or timeout; its report below)"
		kt_crash_report "$log" | sed 's/^/#   /'
	fi
}
