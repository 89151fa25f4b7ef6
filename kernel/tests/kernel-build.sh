# SPDX-License-Identifier: GPL-2.0-only
#
# kernel-build.sh - a kernel built once from Debian's linux-source
# (linux-source.sh) as tinyconfig plus a configuration fragment, cached by
# what makes it: the steps debug-kernel.sh and rootfs/builtin-kernel.sh
# share.  Sourced, not run; set -eu, say() and KB_TESTS (the path of
# kernel/tests) are the caller's.
#
#   kb_source LINE [RELEASE]
#       linux-source.sh LINE [RELEASE]: sets KB_SRC (the tree, never
#       written to) and KB_DEB (the package's file name)
#   kb_cached NAME RECIPE FRAGMENT COMPILER [KEY-CMD...]
#       takes NAME's lock (fd 8, held until the caller exits) and sets
#       KB_OUT=$AXFS_CACHE/NAME/KEY, KEY the first 16 hex digits of the
#       SHA-256 of "KB_DEB recipe RECIPE", what KEY-CMD prints (the AXFS
#       patch), FRAGMENT and COMPILER's version line; returns 0 when that
#       kernel is built (KB_OUT/build-seconds is written last), else 1 and
#       the caller builds it into KB_OUT, then calls kb_built
#   kb_configure BUILD FRAGMENT MAKE...
#       tinyconfig, FRAGMENT merged, olddefconfig in BUILD (MAKE: the
#       caller's make command with its O=BUILD, ARCH= and compiler);
#       fails when a line of FRAGMENT did not survive olddefconfig
#   kb_built
#       KB_OUT/source (KB_DEB) and KB_OUT/build-seconds (the time since
#       kb_cached)

KB_CACHE=${AXFS_CACHE:-/var/cache/axfs-tools}

kb_source() {
	local out
	out=$(sh "$KB_TESTS/linux-source.sh" "$@") || return 1
	KB_SRC=$(echo "$out" | sed -n 's/^SRC=//p')
	KB_DEB=$(echo "$out" | sed -n 's/^DEB=//p')
}

kb_cached() {
	local name=$1 recipe=$2 fragment=$3 compiler=$4 key
	shift 4
	key=$( { echo "$KB_DEB recipe $recipe"; [ $# -eq 0 ] || "$@";
		 cat "$fragment"; $compiler --version | head -n 1; } |
		sha256sum | cut -c1-16)
	KB_OUT=$KB_CACHE/$name/$key
	{ mkdir -p "$KB_CACHE/$name" && exec 8>"$KB_CACHE/$name/.lock" &&
		flock 8; } || { say "cannot lock $KB_CACHE/$name/.lock"; exit 1; }
	if [ -f "$KB_OUT/build-seconds" ]; then
		say "built in $KB_OUT: using it"
		return 0
	fi
	KB_T0=$(date +%s)
	return 1
}

kb_configure() {
	local build=$1 fragment=$2 missing
	shift 2
	"$@" tinyconfig >&2 &&
	"$KB_SRC/scripts/kconfig/merge_config.sh" -m -O "$build" "$build/.config" \
		"$fragment" >&2 &&
	"$@" olddefconfig >&2 || return 1
	missing=$(grep '^CONFIG_' "$fragment" | while read -r l; do
		grep -qx "$l" "$build/.config" || echo "$l"
	done)
	[ -z "$missing" ] || { say "not set after olddefconfig:" $missing; return 1; }
}

kb_built() {
	echo "$KB_DEB" >"$KB_OUT/source"
	echo "$(($(date +%s) - KB_T0))" >"$KB_OUT/build-seconds.tmp"
	mv "$KB_OUT/build-seconds.tmp" "$KB_OUT/build-seconds"
	say "built in $(cat "$KB_OUT/build-seconds") s"
}
