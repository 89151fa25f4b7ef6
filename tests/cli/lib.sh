# SPDX-License-Identifier: GPL-2.0-or-later
# Shared helpers for tests/cli/tNNNN-*.sh, after git's t/test-lib.sh; see
# tests/README.md.
#   . "$(dirname "$0")/lib.sh"
#   test_expect_success 'what it proves' '
#       commands (set -e is not in force; chain with &&)
#   '
#   test_done
# Each test runs in a subshell inside $TRASH, a fresh directory removed at
# the end, or kept (and named) when a test failed.

set -u
AXFS_TOP=${AXFS_TOP:-$(cd "$(dirname "$0")/../.." && pwd)}
AXFS=${AXFS:-$AXFS_TOP/build/axfs}
export AXFS AXFS_TOP LC_ALL=C SOURCE_DATE_EPOCH=1700000000

# ---- options: sh tNNNN-name.sh [-v] [-x] [-i] [--run=LIST] -------------------
#   -v, --verbose    show every test's output (not only a failing one's)
#   -x               trace each test's commands (set -x); implies -v
#   -i, --immediate  stop at the first failing test, its trash kept
#   --run=LIST       run only the tests LIST names: numbers and ranges,
#                    "1-3,7,9-"; the others are reported as skipped (the
#                    setup tests they need are yours to include)
test_verbose=0 test_trace=0 test_immediate=0 test_run=""
for _arg in "$@"; do
	case $_arg in
	-v|--verbose) test_verbose=1 ;;
	-x) test_trace=1 test_verbose=1 ;;
	-i|--immediate) test_immediate=1 ;;
	--run=*) test_run=${_arg#--run=} ;;
	-h|--help)
		echo "usage: sh $0 [-v] [-x] [-i] [--run=1-3,7,9-] (tests/README.md)"
		exit 0 ;;
	*) echo "$(basename "$0"): unknown option '$_arg' (-v, -x, -i, --run=LIST)" >&2
	   exit 2 ;;
	esac
done

TRASH=$(mktemp -d "${TMPDIR:-/tmp}/axfs-t.XXXXXX")
trap 'test_cleanup' EXIT
cd "$TRASH" || exit 1
TEST_TMP=$TRASH
. "$AXFS_TOP/tests/test-lib.sh"

# test_atexit CMDS (outside a test): CMDS run when the script ends, before
# $TRASH is removed (the last queued first): unmount what a failed test
# left mounted.  Scripts do not set their own EXIT trap.
_test_atexit=""
test_atexit() {
	_test_atexit="$*
$_test_atexit"
}

test_cleanup() {
	eval "$_test_atexit"
	# The copy of the tools for another user (prereq SETPRIV).
	if [ -n "${AXFS_NOBODY_DIR:-}" ]; then
		rm -rf "$AXFS_NOBODY_DIR"
	fi
	if [ "$test_failed" -gt 0 ] && [ -z "${AXFS_TEST_NO_KEEP:-}" ]; then
		echo "# trash directory kept: $TRASH"
	else
		cd / && rm -rf "$TRASH"
	fi
}

# ---- assertions (inside a test's commands) ------------------------------------

# test_crashed STATUS: true when STATUS is a crash, not an answer: a signal
# (128+N; the shell's 126/127 are "cannot run"), or a sanitizer's report
# (exit 99: ASAN_OPTIONS/UBSAN_OPTIONS exitcode in tests/run-tests.sh).
test_crashed() {
	[ "$1" -ge 126 ] || [ "$1" -eq 99 ]
}

# test_must_fail CMD...: CMD must fail with an exit status of its own;
# success, a signal or a sanitizer report is a failure of the test.
test_must_fail() {
	"$@"
	_rc=$?
	if [ "$_rc" -eq 0 ]; then
		echo "test_must_fail: '$*' succeeded" >&2
		return 1
	elif test_crashed "$_rc"; then
		echo "test_must_fail: '$*' crashed (exit $_rc)" >&2
		return 1
	fi
	return 0
}

# test_expect_code N CMD...: CMD must exit with status N.
test_expect_code() {
	_want=$1
	shift
	"$@"
	_rc=$?
	[ "$_rc" = "$_want" ] && return 0
	echo "test_expect_code: '$*' exited $_rc, wanted $_want" >&2
	return 1
}

# test_cmp EXPECTED ACTUAL: the files are the same; the difference shown.
test_cmp() {
	diff -u "$1" "$2"
}

# test_path_is_file FILE / test_path_is_missing PATH
test_path_is_file() {
	[ -f "$1" ] || { echo "'$1' is not a file" >&2; return 1; }
}
test_path_is_missing() {
	[ ! -e "$1" ] && [ ! -L "$1" ] || { echo "'$1' exists" >&2; return 1; }
}

# ---- helpers ------------------------------------------------------------------

# be FILE OFFSET LEN: the big-endian integer of LEN bytes at OFFSET, in
# decimal.
be() {
	printf '%d\n' "0x$(od -An -tx1 -j"$2" -N"$3" "$1" | tr -d ' \n')"
}

# compare_trees SRC OUT [--content] [--owners] [--mtime EPOCH]: the same
# entries with the same types, permission bits, device numbers, sizes and
# symlink targets (and contents, owners, mtimes when asked); the
# differences are printed (tests/tools/treecmp.py).
compare_trees() {
	python3 "$AXFS_TOP/tests/tools/treecmp.py" "$@"
}

# on_tty OUT CMD...: runs CMD with a terminal as stdin, stdout and stderr
# (script(1)), everything it printed in OUT.
on_tty() {
	_out=$1
	shift
	script -qec "$*" /dev/null >"$_out" 2>&1 </dev/null
}

# Independent reader that follows the 2008 driver's read path.
seedread() { python3 "$AXFS_TOP/tests/tools/seedread.py" "$@"; }
