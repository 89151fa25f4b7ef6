# SPDX-License-Identifier: GPL-2.0-only
#
# apt.sh - a private apt configuration under the cache, for fetching Debian
# packages and sources of other releases without touching the host's apt
# sources.  Sourced, not run; CACHE_TOP must be set.
#
#   apt_private NAME ARCH LINE...
#       writes CACHE_TOP/apt/NAME/sources.list from the LINEs ("deb URL
#       SUITE main", "deb-src URL SUITE main"), sets APT_OPTS for apt-get
#       and apt-cache, and refreshes the lists at most every 6 hours
#       (flock-ed; a failed update keeps what is cached).

apt_private() {
	_name=$1
	_d=$CACHE_TOP/apt/$1
	_arch=$2
	shift 2
	mkdir -p "$_d/lists/partial" "$_d/cache/archives/partial"
	printf '%s\n' "$@" >"$_d/sources.list"
	APT_OPTS="-o Dir::Etc::sourcelist=$_d/sources.list
		-o Dir::Etc::sourceparts=/dev/null -o Dir::State::Lists=$_d/lists
		-o Dir::Cache=$_d/cache -o Dir::Etc::preferencesparts=/dev/null
		-o APT::Architecture=$_arch -o APT::Architectures=$_arch
		-o Debug::NoLocking=1"
	(
		flock 8
		if [ -z "$(find "$_d/lists" -maxdepth 1 \( -name '*_Packages*' -o -name '*_Sources*' \) -mmin -360 2>/dev/null | head -n 1)" ]; then
			echo "apt-get update ($_name, private lists in $_d)" >&2
			# shellcheck disable=SC2086
			apt-get $APT_OPTS update -q >&2 </dev/null ||
				echo "apt-get update failed: using what is cached" >&2
		fi
	) 8>"$_d.lock"
}
