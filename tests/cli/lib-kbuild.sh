# SPDX-License-Identifier: GPL-2.0-or-later
# Shared by the scripts that build a kernel tree (tests/packaging/kernel-*.sh),
# sourced after lib.sh:
#   . "$AXFS_TOP/tests/cli/lib-kbuild.sh"
#
# require_kbuild_tools [CMD...]: the script needs a kernel build's tools
# (prerequisite KBUILD_TOOLS): bc bison flex make xz perl, libelf-dev and
# libssl-dev, and the commands CMD (its compilers, git, spatch, ...); all
# of them are what `make deps-tests-all` installs (scripts/install-deps.sh,
# groups packages and kernel-all).  Without them it skips, naming what is
# missing.
require_kbuild_tools() {
	kbuild_missing=
	for c in bc bison flex make xz perl "$@"; do
		command -v "$c" >/dev/null 2>&1 || kbuild_missing="$kbuild_missing $c"
	done
	for p in libelf-dev libssl-dev; do
		dpkg-query -W -f '${db:Status-Abbrev}' "$p" 2>/dev/null | grep -q '^ii' ||
			kbuild_missing="$kbuild_missing $p"
	done
	test_lazy_prereq KBUILD_TOOLS 'test -z "$kbuild_missing"'
	test_require_prereq KBUILD_TOOLS "no$kbuild_missing; make deps-tests-all installs them"
}
