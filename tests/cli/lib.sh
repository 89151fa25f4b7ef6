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
test_count=0
test_failed=0
test_skipped=0
_test_in_test=0

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

# ---- prerequisites, as in git's test-lib ------------------------------------
# A test that needs something this machine may lack names it:
#   test_expect_success ROOT,SETPRIV 'desc' 'commands'
# It is then reported "ok N # skip desc (missing ROOT)" where a
# prerequisite is not met; "!NAME" asks for its absence.
#   test_set_prereq NAME          NAME is met
#   test_lazy_prereq NAME 'cmds'  NAME is met if CMDS succeed, run (once, when
#                                 first asked) in a subshell in an empty
#                                 directory
#   test_have_prereq LIST         whether every prerequisite of LIST is met
# The common ones are defined below, once: ROOT, SETPRIV, FUSE, PYTHON, LOOP,
# TMPFS_MOUNT, TTY, GIT, SANITIZED, MAN, EXPENSIVE, XATTR_USER.
_prereq_yes=" "
_prereq_no=" "
_prereq_lazy=" "

test_set_prereq() {
	_prereq_yes="$_prereq_yes$1 "
}

test_lazy_prereq() {
	_prereq_lazy="$_prereq_lazy$1 "
	eval "_prereq_script_$1=\$2"
}

# _prereq_eval NAME: runs NAME's script (or the library's function
# _prereq_fn_NAME, in this shell: it may set variables), records the answer.
_prereq_eval() {
	if command -v "_prereq_fn_$1" >/dev/null 2>&1; then
		"_prereq_fn_$1" >/dev/null 2>&1
	else
		_pdir=$TRASH/.prereq-$1
		mkdir -p "$_pdir" &&
		eval "_pscript=\$_prereq_script_$1" &&
		(cd "$_pdir" && eval "$_pscript") >/dev/null 2>&1
		_prc=$?
		rm -rf "$_pdir"
		return $_prc
	fi
}

test_have_prereq() {
	_pmissing=""
	_plist=$(echo "$1" | tr ',' ' ')
	for _p in $_plist; do
		_pneg=0
		case $_p in !*) _pneg=1 _p=${_p#!} ;; esac
		case $_prereq_yes in
		*" $_p "*) _pok=1 ;;
		*)
			case $_prereq_no in
			*" $_p "*) _pok=0 ;;
			*)
				case $_prereq_lazy in
				*" $_p "*) ;;
				*)
					command -v "_prereq_fn_$_p" >/dev/null 2>&1 || {
						echo "test_have_prereq: unknown prerequisite '$_p'" >&2
						exit 2
					} ;;
				esac
				if _prereq_eval "$_p"; then
					_prereq_yes="$_prereq_yes$_p "
					_pok=1
				else
					_prereq_no="$_prereq_no$_p "
					_pok=0
				fi ;;
			esac ;;
		esac
		[ "$_pneg" = 1 ] && _pok=$((1 - _pok))
		if [ "$_pok" = 0 ]; then
			[ "$_pneg" = 1 ] && _p="!$_p"
			_pmissing="${_pmissing:+$_pmissing,}$_p"
		fi
	done
	test -z "$_pmissing"
}

# The common prerequisites.
_prereq_fn_ROOT() { test "$(id -u)" = 0; }
# Root (permissions mean nothing to root) and setpriv to run commands as
# nobody (as_nobody CMD...).  Another user cannot reach the tools under a
# checkout in /root (mode 0700): $AXFS_NOBODY is a copy of $AXFS (with
# libaxfsimg.so beside it, found through its $ORIGIN runpath) in a
# directory of mode 0755 under /tmp, removed at the end.  $TRASH is made
# reachable too (mode 0755): the tests give nobody its subdirectories.
_prereq_fn_SETPRIV() {
	_prereq_fn_ROOT && command -v setpriv >/dev/null &&
	AXFS_NOBODY_DIR=$(mktemp -d /tmp/axfs-nobody.XXXXXX) &&
	chmod 755 "$AXFS_NOBODY_DIR" "$TRASH" &&
	cp "$AXFS" "$AXFS_NOBODY_DIR/axfs" &&
	for _so in "$(dirname "$AXFS")"/libaxfsimg.so*; do
		[ ! -e "$_so" ] || cp -P "$_so" "$AXFS_NOBODY_DIR/" || return 1
	done &&
	chmod -R a+rX "$AXFS_NOBODY_DIR" &&
	AXFS_NOBODY=$AXFS_NOBODY_DIR/axfs &&
	as_nobody "$AXFS_NOBODY" --version &&
	as_nobody test -x "$TRASH"
}
as_nobody() { setpriv --reuid=65534 --regid=65534 --clear-groups "$@"; }
AXFS_NOBODY=${AXFS_NOBODY:-/nonexistent/SETPRIV-prerequisite-not-asked/axfs}
# /dev/fuse usable: FUSE mounts can work here (as root, modprobe fuse).
_prereq_fn_FUSE() {
	if ! test -c /dev/fuse && _prereq_fn_ROOT; then
		modprobe fuse
	fi
	test -c /dev/fuse &&
	{ _prereq_fn_ROOT || { test -r /dev/fuse && test -w /dev/fuse; }; }
}
_prereq_fn_PYTHON() { python3 -c 'import sys; sys.exit(sys.version_info < (3, 7))'; }
# Root and losetup: loop devices of the images.
_prereq_fn_LOOP() {
	_prereq_fn_ROOT && command -v losetup && losetup -f
}
# Root: a small tmpfs can be mounted (a full disk).
_prereq_fn_TMPFS_MOUNT() {
	_prereq_fn_ROOT && mkdir "$TRASH/.tmpfs" &&
	mount -t tmpfs -o size=64k axfs-test "$TRASH/.tmpfs" &&
	umount "$TRASH/.tmpfs" && rmdir "$TRASH/.tmpfs"
}
# script(1) gives a command a terminal (on_tty).
_prereq_fn_TTY() { on_tty "$TRASH/.tty" tty && grep -q '^/dev/' "$TRASH/.tty"; }
# The source tree is a git checkout with its history.
_prereq_fn_GIT() { git -C "$AXFS_TOP" rev-parse --verify -q HEAD; }
# $AXFS is an ASan+UBSan build (the sanitizer pass sets AXFS_SANITIZED=1).
_prereq_fn_SANITIZED() {
	test "${AXFS_SANITIZED:-0}" = 1 || grep -q __asan_init "$AXFS"
}
# man-db and groff render man pages.
_prereq_fn_MAN() { command -v man && command -v groff; }
# AXFS_TEST_EXPENSIVE=1: tests that take minutes.
_prereq_fn_EXPENSIVE() { test "${AXFS_TEST_EXPENSIVE:-0}" = 1; }
# The filesystem of $TRASH takes user.* extended attributes.
_prereq_fn_XATTR_USER() {
	: >"$TRASH/.xattr" &&
	python3 -c "import os; os.setxattr('$TRASH/.xattr', 'user.k', b'v')"
	_prc=$?
	rm -f "$TRASH/.xattr"
	return $_prc
}

# ---- tests ------------------------------------------------------------------

# _test_selected N: whether --run= selects test N.
_test_selected() {
	[ -z "$test_run" ] && return 0
	for _r in $(echo "$test_run" | tr ',' ' '); do
		case $_r in
		*-*)	_lo=${_r%-*} _hi=${_r#*-}
			[ "$1" -ge "${_lo:-1}" ] && { [ -z "$_hi" ] || [ "$1" -le "$_hi" ]; } &&
				return 0 ;;
		*)	[ "$1" = "$_r" ] && return 0 ;;
		esac
	done
	return 1
}

# test_expect_success [PREREQS] DESCRIPTION COMMANDS: ok if COMMANDS exit 0.
# PREREQS, comma-separated, must all be met, or the test is skipped.
test_expect_success() {
	if [ $# = 3 ]; then
		_tprereq=$1
		shift
	else
		_tprereq=""
	fi
	test_count=$((test_count + 1))
	if ! _test_selected "$test_count"; then
		test_skipped=$((test_skipped + 1))
		echo "ok $test_count # skip $1 (--run)"
		return 0
	fi
	if [ -n "$_tprereq" ] && ! test_have_prereq "$_tprereq"; then
		test_skipped=$((test_skipped + 1))
		echo "ok $test_count # skip $1 (missing $_pmissing)"
		return 0
	fi
	# The commands, then what test_when_finished queued (even when they
	# failed); a failing clean-up fails the test.
	if (
		_test_in_test=1 _test_finish="" _test_finish_failed=0
		[ "$test_trace" = 1 ] && set -x
		eval "$2"
		_trc=$?
		{ set +x; } 2>/dev/null
		eval "$_test_finish"
		[ "$_test_finish_failed" = 0 ] ||
			{ echo "test_when_finished: a clean-up command failed"; _trc=1; }
		exit $_trc
	) >"$TRASH/.out" 2>&1 </dev/null; then
		[ "$test_verbose" = 1 ] && cat "$TRASH/.out"
		echo "ok $test_count - $1"
	else
		echo "not ok $test_count - $1"
		if [ "$test_verbose" = 1 ]; then
			sed 's/^/#   /' "$TRASH/.out"
		else
			sed 's/^/#   /' "$TRASH/.out" | tail -n 30
		fi
		test_failed=$((test_failed + 1))
		if [ "$test_immediate" = 1 ]; then
			echo "# stopped at the first failure (-i)"
			test_done
			exit 1
		fi
	fi
}

# Like test_expect_success, but the commands must fail: a crash counts as a
# failure of the test (see test_must_fail).
test_expect_failure_cmd() {
	if [ $# = 3 ]; then
		test_expect_success "$1" "$2" "( $3 )
		_rc=\$?; [ \$_rc -ne 0 ] && ! test_crashed \$_rc ||
		{ echo \"exit \$_rc: success or a crash\"; false; }"
	else
		test_expect_success "$1" "( $2 )
		_rc=\$?; [ \$_rc -ne 0 ] && ! test_crashed \$_rc ||
		{ echo \"exit \$_rc: success or a crash\"; false; }"
	fi
}

# test_when_finished CMDS (inside a test): CMDS run when the test's commands
# are done, whether they passed or not; the last queued runs first.
test_when_finished() {
	if [ "$_test_in_test" != 1 ]; then
		echo "test_when_finished: only inside a test" >&2
		exit 2
	fi
	_test_finish="{ $*
} || _test_finish_failed=1
$_test_finish"
}

# test_skip REASON: a test that cannot run here, reported as skipped.  A
# test with a prerequisite says the same by itself; this is for the few
# cases that are not one test (tests/packaging's loops).
test_skip() {
	test_count=$((test_count + 1))
	test_skipped=$((test_skipped + 1))
	echo "ok $test_count # skip $1"
}

# test_skip_all REASON: the whole script cannot run here (git's skip_all):
# one skipped test with the reason, then the plan.
test_skip_all() {
	test_skip "$1"
	test_done
	exit 0
}

# test_require_prereq LIST [WHY]: the whole script needs LIST; where one of
# them is missing, it reports one skipped test naming what is missing (and
# WHY) and ends.
test_require_prereq() {
	test_have_prereq "$1" ||
		test_skip_all "$(basename "$0" .sh) (missing $_pmissing${2:+: $2})"
}

# The TAP plan comes last ("1..N"): the runner takes a script that stopped
# before its plan for a failed one.
test_done() {
	_tskip=""
	[ "$test_skipped" -gt 0 ] && _tskip=", $test_skipped skipped"
	echo "# $(basename "$0"): $test_count run, $test_failed failed$_tskip"
	echo "1..$test_count"
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
