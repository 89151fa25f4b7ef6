# SPDX-License-Identifier: GPL-2.0-or-later
# Shared helpers for tests/cli/tNNNN-*.sh (in the spirit of git's t/).
#   . "$(dirname "$0")/lib.sh"
#   test_expect_success 'what it proves' '
#       commands (set -e is not in force; chain with &&)
#   '
#   test_done
# Each test runs in a fresh subshell inside $TRASH (removed at the end).

set -u
AXFS_TOP=${AXFS_TOP:-$(cd "$(dirname "$0")/../.." && pwd)}
AXFS=${AXFS:-$AXFS_TOP/build/axfs}
export AXFS AXFS_TOP LC_ALL=C SOURCE_DATE_EPOCH=1700000000
TRASH=$(mktemp -d "${TMPDIR:-/tmp}/axfs-t.XXXXXX")
trap 'rm -rf "$TRASH"' EXIT
cd "$TRASH" || exit 1
test_count=0
test_failed=0

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

# Like test_expect_success, but the commands must fail.
test_expect_failure_cmd() {
	test_expect_success "$1" "! ( $2 )"
}

test_skip() {
	test_count=$((test_count + 1))
	echo "ok $test_count # skip $1"
}

test_done() {
	echo "# $(basename "$0"): $test_count run, $test_failed failed"
	[ "$test_failed" -eq 0 ]
}

# Independent reader that follows the 2008 driver's read path.
seedread() { python3 "$AXFS_TOP/tests/tools/seedread.py" "$@"; }
