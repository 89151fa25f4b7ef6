#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# matrix.sh - axfs.ko against every kernel line: built warning-free (W=1)
# with each kernel's own compiler, and optionally booted under qemu.
#
#   sh kernel/tests/matrix.sh [--boot] [SUITE...]
#   sh kernel/tests/matrix.sh --table | --readme
#
# SUITEs as for fetch-kernel.sh; default: bullseye (5.10), host (6.1 on
# Debian 12), trixie (6.12), newest (trixie-backports or sid).  One line
# per kernel, then "N passed, N failed".  With --boot, after the builds:
# the full qemu suite (run.sh) on the newest kernel and a smoke run
# (AXFS_KSMOKE=1, with the corrupted images: AXFS_KHOSTILE=1) on bullseye
# and trixie; 6.1's full suite is the `kernel`
# suite of `make check-all` (make check runs its smoke run), and runs here
# too only if asked for with AXFS_MATRIX_FULL.
# Each result is recorded in AXFS_CACHE_TOP/matrix (one file per kernel);
# --table prints them as a Markdown table, --readme puts that table into
# kernel/README.md between its two "matrix.sh --table" markers.
# Needs root (build roots, qemu); AXFS as for run.sh.
set -u
here=$(cd "$(dirname "$0")" && pwd)
CACHE_TOP=${AXFS_CACHE_TOP:-/var/cache/axfs-tools}
REC=$CACHE_TOP/matrix
. "$here/lib.sh"

table() {
	echo "| kernel | Debian | compiler | built (W=1) | booted under qemu |"
	echo "|---|---|---|---|---|"
	for f in "$REC"/*.rec; do
		[ -f "$f" ] || continue
		# shellcheck disable=SC1090
		(BOOTED=; . "$f"; echo "$VERSION|$KVER|$DEBIAN|$GCC|$BUILT|$BOOTED")
	done | sort -t. -k1,1n -k2,2n -k3,3n |
	while IFS='|' read -r _ kver deb gcc built booted; do
		echo "| $kver | $deb | $gcc | $built | ${booted:-no} |"
	done
}

if [ "${1:-}" = --table ]; then
	table
	exit 0
fi
# --readme: the table between the two markers of kernel/README.md.
if [ "${1:-}" = --readme ]; then
	readme=$here/../README.md
	table >"$readme.table"
	awk -v tf="$readme.table" '
		/^<!-- matrix.sh --table: end -->$/ { skip = 0 }
		!skip { print }
		/^<!-- matrix.sh --table: begin -->$/ {
			while ((getline l < tf) > 0) print l
			skip = 1
		}' "$readme" >"$readme.new" && mv "$readme.new" "$readme"
	rm -f "$readme.table"
	exit 0
fi
boot=0
if [ "${1:-}" = --boot ]; then
	boot=1
	shift
fi
[ $# -gt 0 ] || set -- bullseye host trixie newest

W=$(mktemp -d "${TMPDIR:-/tmp}/axfs-matrix.XXXXXX")
trap 'rm -rf "$W"' EXIT
TEST_TMP=$W

result() {	# result ok|fail LINE: one test (tap, lib.sh)
	tap "$1" "$2"
}

debian_of() {	# the Debian release a suite's kernel comes from
	case $1 in
	bullseye) echo "11 (bullseye)" ;;
	host) echo "12 (bookworm)" ;;
	trixie) echo "13 (trixie)" ;;
	newest|trixie-backports) echo "13 backports / unstable" ;;
	*) echo "$1" ;;
	esac
}

kvers=
for suite in "$@"; do
	t=$(date +%s)
	out=$(sh "$here/build-module.sh" "$suite" "$W/$suite" W=1 2>"$W/$suite.err")
	rc=$?
	KVER='' GCC='' WARNINGS=''
	eval "$(echo "$out" | grep -E '^(KVER|GCC|WARNINGS|RELEASE)=')"
	if [ -z "$KVER" ]; then
		result fail "$suite: kernel packages not found ($(tail -n 1 "$W/$suite.err"))"
		continue
	fi
	kvers="$kvers $suite:$KVER"
	where=host
	command -v "$GCC" >/dev/null 2>&1 || where="$RELEASE root"
	line="$KVER ($suite, $GCC in the $where): $((${WARNINGS:-0})) warnings, $(($(date +%s) - t)) s"
	VERSION=${KVER%%-*}
	VERSION=${VERSION%%+*}
	if [ $rc = 0 ] && [ "${WARNINGS:-1}" = 0 ]; then
		result ok "build $line"
		kt_record "$KVER" VERSION="$VERSION" KVER="$KVER" DEBIAN="$(debian_of "$suite")" \
			GCC="$GCC" BUILT="yes, $(date -u +%F)"
	else
		result fail "build $line"
		grep -E 'error|warning' "$W/$suite/build.log" | head -n 20 | sed 's/^/#   /'
		kt_record "$KVER" VERSION="$VERSION" KVER="$KVER" DEBIAN="$(debian_of "$suite")" \
			GCC="$GCC" BUILT="FAILS, $(date -u +%F)"
	fi
done

if [ $boot = 1 ]; then
	for sk in $kvers; do
		suite=${sk%%:*}
		KVER=${sk#*:}
		case $suite in
		newest) smoke=0 ;;
		host) [ -n "${AXFS_MATRIX_FULL:-}" ] || continue; smoke=0 ;;
		*) smoke=1 ;;
		esac
		what=full
		[ $smoke = 1 ] && what=smoke
		t=$(date +%s)
		AXFS_KSUITE=$suite AXFS_KSMOKE=$smoke AXFS_KHOSTILE=1 sh "$here/run.sh" >"$W/run-$suite.log" 2>&1
		rc=$?
		sum=$(sed -n 's/^# kernel tests ([^)]*): \(.*\) in .*/\1/p' "$W/run-$suite.log")
		line="$KVER: $what qemu suite: ${sum:-no summary}, $(($(date +%s) - t)) s"
		# run.sh records the outcome for the table itself.
		if [ $rc = 0 ] && [ -n "$sum" ]; then
			result ok "boot $line"
		else
			result fail "boot $line"
			# The failures with the lines run.sh prints under them
			# (a guest that did not run to the end: its last lines).
			sed -n '/^not ok/,/^ok /{/^ok /d;p}' "$W/run-$suite.log" |
				head -n 100 | sed 's/^/#   /'
		fi
	done
fi
kt_summary matrix
