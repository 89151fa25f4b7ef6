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
TRASH=$(mktemp -d "${TMPDIR:-/tmp}/axfs-t.XXXXXX")
trap 'test_cleanup' EXIT
cd "$TRASH" || exit 1
test_count=0
test_failed=0

test_cleanup() {
	if [ "$test_failed" -gt 0 ] && [ -z "${AXFS_TEST_NO_KEEP:-}" ]; then
		echo "# trash directory kept: $TRASH"
	else
		cd / && rm -rf "$TRASH"
	fi
}

# ---- tests ------------------------------------------------------------------

# test_expect_success DESCRIPTION COMMANDS: ok if COMMANDS exit 0.
test_expect_success() {
	test_count=$((test_count + 1))
	if (eval "$2") >"$TRASH/.out" 2>&1; then
		echo "ok $test_count - $1"
	else
		echo "not ok $test_count - $1"
		sed 's/^/#   /' "$TRASH/.out" | tail -n 30
		test_failed=$((test_failed + 1))
	fi
}

# Like test_expect_success, but the commands must fail: a crash counts as a
# failure of the test (see test_must_fail).
test_expect_failure_cmd() {
	test_expect_success "$1" "( $2 )
		_rc=\$?; [ \$_rc -ne 0 ] && ! test_crashed \$_rc ||
		{ echo \"exit \$_rc: success or a crash\"; false; }"
}

test_skip() {
	test_count=$((test_count + 1))
	echo "ok $test_count # skip $1"
}

test_done() {
	echo "# $(basename "$0"): $test_count run, $test_failed failed"
	[ "$test_failed" -eq 0 ]
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
