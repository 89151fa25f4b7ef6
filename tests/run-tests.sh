#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Runs the test suites and ends with one line: "N passed, N failed".
#   tests/run-tests.sh [unit] [cli] [cli-long] [fuzz] [san] [kernel-smoke] [kernel]
#                      [kernel-debug] [san-all] [matrix] [arm64] [armhf] [armhf-lpae]
#                      [armhf-6.12] [riscv64] [rootfs] [bootorder] [packages]
#   (default: unit cli fuzz san kernel-smoke, what `make check` runs)
# Suites:
#   unit     the Check unit tests ($B/unit-tests)
#   cli      every tests/cli/tNNNN-*.sh against $B/axfs but those of
#            $LONG_CLI
#   cli-long the scripts of $LONG_CLI (t3100's full sweep): make check-all
#   fuzz     the fuzz regression corpus (tests/fuzz/replay.sh)
#   san      the unit tests and the CLI scripts of $SAN_CLI (the readers of
#            untrusted input: images, archives, policies, profiles) again
#            against the ASan+UBSan build $SAN_B
#   san-all  the unit tests and every CLI script under ASan+UBSan: `make
#            check-all` (it takes longer than make check's budget)
#   kernel-smoke  the kernel module under qemu, the smoke run
#            (AXFS_KSMOKE=1 kernel/tests/run.sh: boot 1, every backend)
#   kernel   the kernel module under qemu, the full suite (kernel/tests/run.sh:
#            both boots)                             \
#   kernel-debug  boot 1 with the corrupted images and the kernel fuzz
#            corpus on 6.1 built with KASAN, UBSAN and lockdep,
#            panic_on_warn=1 (run.sh with AXFS_KSUITE=debug; the kernel
#            built once, cached: kernel/README.md)   |
#   matrix   axfs.ko built against every kernel line and booted on them
#            (kernel/tests/matrix.sh --boot)         |
#   arm64    axfs.ko on Debian's arm64 kernel        | make check-all
#            (kernel/tests/cross.sh --arch arm64)    |
#   armhf    on Debian's armhf (32-bit ARM) 6.1      |
#            armmp kernel (cross.sh --arch armhf)    |
#   armhf-lpae  on its armmp-lpae flavour (64-bit    |
#            phys_addr_t)                            |
#   armhf-6.12  on Debian's 6.12 armmp kernel        |
#   riscv64  on Debian's riscv64 6.12 kernel         |
#            (cross.sh --arch riscv64)               |
#   rootfs   AXFS as the root filesystem, one job per |
#            architecture of $ROOTFS_ARCHS (amd64    |
#            arm64 armhf riscv64): rootfs.sh --arch A,|
#            on arm64 with --builtin; and one per    |
#            kernel of $ROOTFS_PLACEMENTS (armhf 6.1 |
#            and 6.12, armmp and armmp-lpae): the    |
#            image in lowmem, highmem, beyond RAM    |
#            (rootfs.sh --placements)                |
#   bootorder  the boot order's reduced measured boot |
#            (bench/kernel/boot-order.sh --check), one|
#            job per architecture of $BOOTORDER_ARCHS |
#            (amd64 arm64)                           |
#   packages tests/packaging/*.sh: the kernel patch, |
#            the Debian packages, bitbake            /
# AXFS_TESTS="t1* t2050-*" limits cli, san and san-all to these scripts.
# Every suite prints TAP-style "ok N - ..." / "not ok N - ..." lines
# (Check's own summary is printed too); this script counts them.
#
# The jobs (the unit tests, each CLI script, the corpus, the kernel tests,
# each of them under sanitizers) run AXFS_TEST_JOBS at a time (default: one
# per CPU), longest first as the last run measured them ($B/test-times);
# each job's output goes to its own log and is printed in the order above,
# so a run reads the same however the jobs interleave.  At the end come the
# slowest jobs and the wall and CPU time of the whole run: `make check` has
# a budget of 10 minutes on 2 idle cores.
set -u
B=${B:-build}
top=$(cd "$(dirname "$0")/.." && pwd)
export AXFS_TOP="$top" AXFS_BUILD="$top/$B"
export AXFS="$top/$B/axfs"
SAN_B=${SAN_B:-}
# CLI scripts run again under sanitizers by the san suite: those that feed
# the readers untrusted bytes (images, archives, YAML, CSV).  The others
# exercise the same code on well-formed input, which the normal pass and
# valgrind (t8100) cover; san-all runs them all.
ROOTFS_ARCHS=${ROOTFS_ARCHS:-"amd64 arm64 armhf riscv64"}
BOOTORDER_ARCHS=${BOOTORDER_ARCHS:-"amd64 arm64"}
ROOTFS_PLACEMENTS=${ROOTFS_PLACEMENTS:-"armhf:bookworm:armmp armhf:bookworm:armmp-lpae armhf:trixie:armmp armhf:trixie:armmp-lpae"}
# CLI scripts that make check's 10-minute budget leaves to check-all
# (suite cli-long): t3100's full mutant sweep, 118 s of CPU; make check
# still runs its sanitizer pass (a sixteenth of the random mutants).
LONG_CLI=${LONG_CLI:-"t3100-*"}
SAN_CLI=${SAN_CLI:-"t2000-* t2020-* t2070-* t2090-* t2095-* t2100-* t2110-* t2120-* t3000-* t3100-* t4000-* t4500-* t4530-* t4540-* t4550-* t5000-* t5200-* t6000-* t8200-* t8300-* t8310-*"}

# ---- one job: sh run-tests.sh --job KIND NAME ------------------------------
# Writes $AXFS_TEST_WORK/KIND.NAME.log, then KIND.NAME.rc: "EXIT WALL_MS CPU_S".
run_job() {
	kind=$1 name=$2 w=$AXFS_TEST_WORK
	id=$kind.$name
	san=""
	case $kind in
	san-*)
		# Reports also go to files: a test that expects a command to
		# fail, or sends its stderr to a file, would hide them.
		san=$w/$id.san
		mkdir -p "$san"
		export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=0:exitcode=99}:log_path=$san/asan
		export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1:exitcode=99}:log_path=$san/ubsan
		;;
	esac
	t0=$(date +%s%N)
	case $kind in
	unit)	CK_FORK=yes "$top/$B/unit-tests" ;;
	cli)	sh "$top/tests/cli/$name.sh" ;;
	fuzz)	sh "$top/tests/fuzz/replay.sh" ;;
	kernel)	sh "$top/kernel/tests/run.sh" ;;
	ksmoke)	AXFS_KSMOKE=1 sh "$top/kernel/tests/run.sh" ;;
	kdebug)	# KASAN and lockdep make the guest about 3 times slower.
		AXFS_KSUITE=debug AXFS_KSMOKE=1 AXFS_KHOSTILE=1 \
		AXFS_KAPPEND=panic_on_warn=1 AXFS_KT_SLOW=$((${AXFS_KT_SLOW:-1} * 3)) \
			sh "$top/kernel/tests/run.sh" ;;
	matrix)	sh "$top/kernel/tests/matrix.sh" --boot ;;
	arm64|armhf|riscv64)
		sh "$top/kernel/tests/cross.sh" --arch "$kind" ;;
	armhf-lpae)
		sh "$top/kernel/tests/cross.sh" --arch armhf bookworm armmp-lpae ;;
	armhf-6.12)
		sh "$top/kernel/tests/cross.sh" --arch armhf trixie armmp ;;
	rootfs)	# shellcheck disable=SC2046
		sh "$top/kernel/tests/rootfs.sh" --arch "$name" $([ "$name" = arm64 ] && echo --builtin) ;;
	rootfs-place)	# ARCH:SUITE:FLAVOUR
		sh "$top/kernel/tests/rootfs.sh" --arch "${name%%:*}" --placements --kernel "${name#*:}" ;;
	bootorder)
		sh "$top/bench/kernel/boot-order.sh" --check --arch "$name" ;;
	pkg)	sh "$top/tests/packaging/$name.sh" ;;
	san-unit) CK_FORK=yes "$top/$SAN_B/unit-tests" ;;
	san-cli) AXFS="$top/$SAN_B/axfs" AXFS_SANITIZED=1 \
		 sh "$top/tests/cli/$name.sh" ;;
	esac >"$w/$id.log" 2>&1 </dev/null
	rc=$?
	t1=$(date +%s%N)
	if [ -n "$san" ]; then
		cat "$san"/* >>"$w/$id.log" 2>/dev/null
		rm -rf "$san"
	fi
	times >"$w/$id.times"	# no pipe: a subshell would count nothing
	cpu=$(awk 'END { n = split($0, a, /[ms]+/); print a[1] * 60 + a[2] + a[3] * 60 + a[4] }' \
		"$w/$id.times")
	echo "$rc $(((t1 - t0) / 1000000)) $cpu" >"$w/$id.rc.tmp"
	mv "$w/$id.rc.tmp" "$w/$id.rc"
}
if [ "${1:-}" = --job ]; then
	run_job "$2" "$3"
	exit 0
fi

check_suites="unit cli fuzz san kernel-smoke"
suites=${*:-$check_suites}
is_check=0
[ "$suites" = "$check_suites" ] && is_check=1
jobs=${AXFS_TEST_JOBS:-$(nproc 2>/dev/null || echo 1)}
w=$(mktemp -d "${TMPDIR:-/tmp}/axfs-tests.XXXXXX")
export AXFS_TEST_WORK="$w"
pool=""
trap '[ -n "$pool" ] && kill "$pool" 2>/dev/null; rm -rf "$w"' EXIT
trap 'exit 130' INT TERM
passed=0
failed=0
# The packages the tests use are installed by `make deps-tests` (every
# check target runs it first), never here: a run names what is missing
# (the scripts skip what needs it, with the prerequisite they miss).
sh "$top/scripts/install-deps.sh" tests kernel
# The Python of the tests is Debian's, the one install-deps.sh installs
# with the modules they import.  A version manager's shim first in PATH
# (pyenv's costs 0.8 s of CPU a call, and t3000 alone calls python3 300
# times) is bypassed.
if [ -x /usr/bin/python3 ] && [ "$(command -v python3)" != /usr/bin/python3 ]; then
	mkdir "$w/bin" && ln -s /usr/bin/python3 "$w/bin/python3" &&
		PATH=$w/bin:$PATH && export PATH
fi

# ---- the list of jobs, in the order their output is printed ---------------
: >"$w/jobs"
# AXFS_TESTS="t1* t2050-*" runs only the CLI scripts these patterns match.
cli_scripts() {
	for t in "$top"/tests/cli/t[0-9]*.sh; do
		[ -e "$t" ] || continue
		t=$(basename "$t" .sh)
		for p in ${AXFS_TESTS:-"*"}; do
			# shellcheck disable=SC2254
			case $t in $p) echo "$t"; break ;; esac
		done
	done
}
for s in $suites; do
	case $s in
	unit)	echo "unit -" ;;
	cli)	for t in $(cli_scripts); do
			long=0
			for p in $LONG_CLI; do
				# shellcheck disable=SC2254
				case $t in $p) long=1; break ;; esac
			done
			[ $long = 1 ] || echo "cli $t"
		done ;;
	cli-long)
		for t in $(cli_scripts); do
			for p in $LONG_CLI; do
				# shellcheck disable=SC2254
				case $t in $p) echo "cli $t"; break ;; esac
			done
		done ;;
	fuzz)	[ -x "$top/tests/fuzz/replay.sh" ] && echo "fuzz -" ;;
	kernel)	[ -f "$top/kernel/tests/run.sh" ] && echo "kernel -" ;;
	kernel-smoke)
		[ -f "$top/kernel/tests/run.sh" ] && echo "ksmoke -" ;;
	kernel-debug)
		[ -f "$top/kernel/tests/run.sh" ] && echo "kdebug -" ;;
	matrix)	echo "matrix -" ;;
	arm64|armhf|armhf-lpae|armhf-6.12|riscv64)
		echo "$s -" ;;
	rootfs)	for a in $ROOTFS_ARCHS; do echo "rootfs $a"; done
		for k in $ROOTFS_PLACEMENTS; do echo "rootfs-place $k"; done ;;
	bootorder)
		for a in $BOOTORDER_ARCHS; do echo "bootorder $a"; done ;;
	packages)
		for t in "$top"/tests/packaging/*.sh; do
			echo "pkg $(basename "$t" .sh)"
		done
		;;
	san|san-all)
		[ -n "$SAN_B" ] && [ -x "$top/$SAN_B/axfs" ] || continue
		echo "san-unit -"
		for t in $(cli_scripts); do
			if [ "$s" = san ]; then
				for p in $SAN_CLI; do
					# shellcheck disable=SC2254
					case $t in $p) echo "san-cli $t"; break ;; esac
				done
			else
				echo "san-cli $t"
			fi
		done
		;;
	*)
		echo "unknown suite '$s'" >&2
		exit 2
		;;
	esac
done | awk '!seen[$0]++' >"$w/jobs"

# Longest first, as measured by the last run (jobs never measured first of
# all, the kernel tests next: they are the longest).
# A fresh checkout has no measurements yet: tests/test-times holds those
# of a run on 2 cores, so that CI starts the kernel tests and t3000 first.
times_file=$top/$B/test-times
{ if [ -f "$times_file" ]; then cat "$times_file"; else grep -v '^#' "$top/tests/test-times"; fi; } |
	awk -v jobs="$w/jobs" '
	{ ms[$1] = $2 }
	END {
		while ((getline line < jobs) > 0) {
			split(line, f, " ")
			id = f[1] "." f[2]
			t = (id in ms) ? ms[id] : (f[1] ~ /^k/ ? 1e9 : 2e9)
			print t, line
		}
	}' | sort -k1,1nr | cut -d' ' -f2- >"$w/order"

start=$(date +%s%N)
xargs -P "$jobs" -L 1 sh "$top/tests/run-tests.sh" --job <"$w/order" \
	>"$w/xargs.log" 2>&1 &
pool=$!

# ---- the output of each job, in order, as soon as it is there -------------
count() {	# count the ok / not ok lines of log $1
	p=$(grep -c '^ok ' "$1")
	f=$(grep -c '^not ok ' "$1")
	passed=$((passed + p))
	failed=$((failed + f))
}
unit_count() {	# Check's summary line of log $1 ("san" for the san pass)
	run=$(sed -n 's/^unit: \([0-9]*\) run, \([0-9]*\) failed$/\1/p' "$1")
	bad=$(sed -n 's/^unit: \([0-9]*\) run, \([0-9]*\) failed$/\2/p' "$1")
	if [ -z "$run" ] || { [ "$2" = san ] && grep -q 'Sanitizer' "$1"; }; then
		echo "not ok - unit-tests${2:+ under sanitizers} did not finish or reported (exit $rc)"
		tail -n 30 "$1"
		failed=$((failed + 1))
	else
		passed=$((passed + run - bad))
		failed=$((failed + bad))
	fi
}

header=""
while read -r kind name; do
	id=$kind.$name
	log=$w/$id.log
	while [ ! -f "$w/$id.rc" ]; do
		if ! kill -0 "$pool" 2>/dev/null && [ ! -f "$w/$id.rc" ]; then
			echo "not ok - $id did not run"; cat "$w/xargs.log"
			failed=$((failed + 1))
			continue 2
		fi
		sleep 0.2
	done
	read -r rc ms cpu <"$w/$id.rc"
	echo "$id $ms $cpu" >>"$w/times"
	case $kind in
	unit) h="== unit tests (Check)" ;;
	cli) h="== command-line tests (tests/cli)" ;;
	fuzz) h="== fuzz regression corpus" ;;
	kernel) h="== kernel module under qemu" ;;
	ksmoke) h="== kernel module under qemu (smoke run)" ;;
	kdebug) h="== kernel module on a KASAN, UBSAN, lockdep kernel (corrupted images)" ;;
	matrix) h="== axfs.ko against every kernel line (matrix.sh --boot)" ;;
	arm64|armhf|armhf-lpae|armhf-6.12|riscv64) h="== axfs.ko on $kind under qemu" ;;
	rootfs|rootfs-place) h="== AXFS as the root filesystem (kernel/tests/rootfs.sh)" ;;
	bootorder) h="== the boot order, measured boot reduced (bench/kernel/boot-order.sh --check)" ;;
	pkg) h="== packaging (tests/packaging)" ;;
	san-*) h="== unit and CLI tests under ASan+UBSan ($SAN_B)" ;;
	esac
	[ "$h" != "$header" ] && echo "$h" && header=$h
	case $kind in
	unit)
		cat "$log"
		unit_count "$log" ""
		;;
	cli)
		sed 's/^/  /' "$log" | grep -E '^  (ok|not ok|# )' || true
		# The TAP plan (test_done's "1..N", the last thing a script
		# prints) tells a script that stopped early from one that ran.
		plan=$(sed -n 's/^1\.\.\([0-9][0-9]*\)$/\1/p' "$log" | tail -n 1)
		ran=$(grep -c -E '^(ok|not ok) ' "$log")
		if [ "$plan" != "$ran" ]; then
			echo "not ok - $name.sh: plan 1..${plan:-(none)}, $ran tests ran" >>"$log"
			echo "  not ok - $name.sh: plan 1..${plan:-(none)}, $ran tests ran"
		fi
		if [ "$rc" -ne 0 ] && ! grep -q '^not ok ' "$log"; then
			echo "not ok - $name.sh exited $rc" >>"$log"
			tail -n 20 "$log" | sed 's/^/    /'
		elif grep -q '^not ok ' "$log"; then
			echo "  --- output of $name.sh:"
			tail -n 40 "$log" | sed 's/^/    /'
		fi
		count "$log"
		;;
	fuzz)
		grep -E '^(ok|not ok|#)' "$log"
		count "$log"
		;;
	kernel|ksmoke|kdebug|matrix|arm64|armhf|armhf-lpae|armhf-6.12|riscv64|rootfs|rootfs-place|bootorder|pkg)
		grep -E '^(ok|not ok|#)' "$log"
		if [ "$rc" -ne 0 ] && ! grep -q '^not ok ' "$log"; then
			echo "not ok - $id exited $rc" >>"$log"
			tail -n 30 "$log"
		fi
		count "$log"
		;;
	san-unit)
		grep -E '^[0-9]+%: Checks' "$log" | sed 's/^/  san /'
		unit_count "$log" san
		;;
	san-cli)
		# Any sanitizer report fails the script.
		if grep -q 'Sanitizer\|runtime error:' "$log"; then
			echo "not ok - $name.sh under sanitizers"
			grep -B2 -A20 'Sanitizer\|runtime error:' "$log" | head -n 40
			failed=$((failed + 1))
		elif [ "$rc" -ne 0 ] || grep -q '^not ok ' "$log"; then
			echo "not ok - $name.sh under sanitizers (exit $rc)"
			grep '^not ok' "$log" | head
			failed=$((failed + 1))
		else
			echo "ok - $name.sh under sanitizers"
			passed=$((passed + 1))
		fi
		;;
	esac
done <"$w/jobs"
wait "$pool" 2>/dev/null
pool=""
wall=$((($(date +%s%N) - start) / 1000000))

# The measurements: kept for the next run's order, and the slowest shown.
if [ -f "$w/times" ]; then
	{ [ -f "$times_file" ] && cat "$times_file"; cat "$w/times"; } |
		awk '{ t[$1] = $2 } END { for (k in t) print k, t[k] }' |
		sort >"$times_file.tmp" 2>/dev/null &&
		mv "$times_file.tmp" "$times_file" 2>/dev/null
	echo "# slowest jobs (wall s, CPU user+sys s):"
	sort -k2,2nr "$w/times" | head -n 8 |
		awk '{ printf "#   %-32s %7.1f %7.1f\n", $1, $2 / 1000, $3 }'
	awk -v wall="$wall" -v jobs="$jobs" -v check="$is_check" '{ cpu += $3; n++ }
		END { printf "# %d jobs, %d at a time: %.0f s wall, %.0f s CPU (user+sys)\n",
		      n, jobs, wall / 1000, cpu
		      # The budget counts the build too; on a shared machine
		      # the wall time says little, CPU / 2 what 2 idle cores take.
		      if (check)
			printf "# make check budget: 600 s on 2 idle cores, build included; tests: %.0f s wall, CPU / 2 = %.0f s%s\n",
			       wall / 1000, cpu / 2, (wall > 600000 ? " (wall over budget)" : "") }' "$w/times"
fi
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
