# SPDX-License-Identifier: GPL-2.0-or-later
# The test library's core, after git's t/test-lib.sh: TAP output ("ok N -
# DESC", "not ok N - DESC", the plan "1..N" last), prerequisites,
# test_expect_success, test_when_finished.  Sourced by tests/cli/lib.sh
# (the CLI scripts, tests/packaging) and kernel/tests/lib.sh (the host side
# of the kernel tests); see tests/README.md.  The sourcing library sets
# TEST_TMP, a directory of its own for the tests' output and the
# prerequisites' scratch files, and AXFS, the binary under test.
test_count=${test_count:-0}
test_failed=${test_failed:-0}
test_skipped=${test_skipped:-0}
test_verbose=${test_verbose:-0}
test_trace=${test_trace:-0}
test_immediate=${test_immediate:-0}
test_run=${test_run:-}
_test_in_test=0

# test_ok DESC / test_fail DESC: report one result that was checked by
# other means (the kernel tests' guest results).
test_ok() {
	test_count=$((test_count + 1))
	echo "ok $test_count - $1"
}
test_fail() {
	test_count=$((test_count + 1))
	test_failed=$((test_failed + 1))
	echo "not ok $test_count - $1"
}

# test_expect_cmd DESC CMD...: one test, ok if CMD (words, not a script)
# exits 0; its output (20 lines) shown if not.
test_expect_cmd() {
	_tdesc=$1
	shift
	: "${TEST_TMP:?test-lib.sh: the sourcing library sets TEST_TMP}"
	if "$@" >"$TEST_TMP/.out" 2>&1 </dev/null; then
		test_ok "$_tdesc"
	else
		test_fail "$_tdesc"
		sed 's/^/#   /' "$TEST_TMP/.out" | head -n 20
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
		_pdir=$TEST_TMP/.prereq-$1
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
# directory of mode 0755 under /tmp, removed at the end.  $TEST_TMP is made
# reachable too (mode 0755): the tests give nobody its subdirectories.
# (test_cleanup in tests/cli/lib.sh removes the copy.)
_prereq_fn_SETPRIV() {
	_prereq_fn_ROOT && command -v setpriv >/dev/null &&
	AXFS_NOBODY_DIR=$(mktemp -d /tmp/axfs-nobody.XXXXXX) &&
	chmod 755 "$AXFS_NOBODY_DIR" "$TEST_TMP" &&
	cp "$AXFS" "$AXFS_NOBODY_DIR/axfs" &&
	for _so in "$(dirname "$AXFS")"/libaxfsimg.so*; do
		[ ! -e "$_so" ] || cp -P "$_so" "$AXFS_NOBODY_DIR/" || return 1
	done &&
	chmod -R a+rX "$AXFS_NOBODY_DIR" &&
	AXFS_NOBODY=$AXFS_NOBODY_DIR/axfs &&
	as_nobody "$AXFS_NOBODY" --version &&
	as_nobody test -x "$TEST_TMP"
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
	_prereq_fn_ROOT && mkdir "$TEST_TMP/.tmpfs" &&
	mount -t tmpfs -o size=64k axfs-test "$TEST_TMP/.tmpfs" &&
	umount "$TEST_TMP/.tmpfs" && rmdir "$TEST_TMP/.tmpfs"
}
# script(1) gives a command a terminal (on_tty).
_prereq_fn_TTY() { on_tty "$TEST_TMP/.tty" tty && grep -q '^/dev/' "$TEST_TMP/.tty"; }
# The source tree is a git checkout with its history.
_prereq_fn_GIT() { git -C "$AXFS_TOP" rev-parse --verify -q HEAD; }
# $AXFS is an ASan+UBSan build (the sanitizer pass sets AXFS_SANITIZED=1).
_prereq_fn_SANITIZED() {
	test "${AXFS_SANITIZED:-0}" = 1 || grep -q __asan_init "$AXFS"
}
# man-db and groff render man pages.
_prereq_fn_MAN() { command -v man && command -v groff; }
# dpkg knows the installed base-files package (tests/tools/pkgtree.sh builds
# a tree of its files: /etc/os-release, a relative symlink, and licences).
_prereq_fn_BASE_FILES() {
	command -v dpkg-query &&
	dpkg-query -W -f='${db:Status-Status}' base-files | grep -qx installed
}
# AXFS_TEST_EXPENSIVE=1: tests that take minutes.
_prereq_fn_EXPENSIVE() { test "${AXFS_TEST_EXPENSIVE:-0}" = 1; }
# The filesystem of $TEST_TMP takes user.* extended attributes.
_prereq_fn_XATTR_USER() {
	: >"$TEST_TMP/.xattr" &&
	python3 -c "import os; os.setxattr('$TEST_TMP/.xattr', 'user.k', b'v')"
	_prc=$?
	rm -f "$TEST_TMP/.xattr"
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
	: "${TEST_TMP:?test-lib.sh: the sourcing library sets TEST_TMP}"
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
	) >"$TEST_TMP/.out" 2>&1 </dev/null; then
		[ "$test_verbose" = 1 ] && cat "$TEST_TMP/.out"
		echo "ok $test_count - $1"
	else
		echo "not ok $test_count - $1"
		if [ "$test_verbose" = 1 ]; then
			sed 's/^/#   /' "$TEST_TMP/.out"
		else
			sed 's/^/#   /' "$TEST_TMP/.out" | tail -n 30
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

