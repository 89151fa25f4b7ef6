# SPDX-License-Identifier: GPL-2.0-or-later
# Shared by the scripts that feed the commands hostile input (t8200, t8300,
# ...), sourced after lib.sh:
#   . "$AXFS_TOP/tests/cli/lib-hostile.sh"
#
# P ARGS...: tests/tools/axfs_patch.py, which reads and patches an image's
# fields by name.
P() { python3 "$AXFS_TOP/tests/tools/axfs_patch.py" "$@"; }

# limit_memory MIB: in a subshell, lets the commands that follow allocate
# at most MIB MiB: far more than what they need, far less than what a
# hostile input claims, so that an allocation sized from a claim fails
# (and no_alloc_failure then says so).  ASan reserves terabytes of address
# space: under the sanitizers its own allocator limit says the same.
limit_memory() {
	if test "${AXFS_SANITIZED:-0}" = 1; then
		export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}allocator_may_return_null=1:max_allocation_size_mb=$1"
	else
		ulimit -v $(($1 * 1024))
	fi
}

# no_alloc_failure FILE: FILE (a command's standard error) holds no sign
# of a failed allocation or of a sanitizer's report.
no_alloc_failure() {
	! grep -i -E "out of memory|cannot allocate|Sanitizer|runtime error" "$1"
}
