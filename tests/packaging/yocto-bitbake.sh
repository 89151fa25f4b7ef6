#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# examples/meta-axfs under a real bitbake, offline: for each release whose
# checkouts are in $AXFS_YOCTO (default /var/cache/axfs-tools/yocto:
# oe-core-REL, meta-oe-REL and bitbake-VER, e.g. git clones of
# openembedded-core, meta-openembedded and bitbake at those branches),
# `bitbake -p` parses the layer and `bitbake -c unpack axfs-tools-native`
# unpacks the `make dist` tarball, given as a file:// release site with its
# sha256, with BB_NO_NETWORK=1 as a normal user the test creates (bitbake
# refuses root).  Without those checkouts (Debian has neither bitbake nor
# oe-core) the bitbake steps are skipped with that reason.
# Slow: run by `make check-packages`.  Needs the en_US.UTF-8 locale and
# bitbake's host tools (chrpath gawk diffstat lz4 zstd file cpio).
. "$(dirname "$0")/../cli/lib.sh"

top=$AXFS_TOP
Y=${AXFS_YOCTO:-/var/cache/axfs-tools/yocto}
user=${AXFS_BB_USER:-axfsbb}
releases=${AXFS_YOCTO_RELEASES:-"scarthgap:2.8 wrynose:2.18"}
version=$(cat "$top/VERSION")
unset MAKEFLAGS MFLAGS MAKELEVEL MAKEOVERRIDES

# bitbake refuses root: as root, the test creates the unprivileged user it
# runs bitbake as (a system account without a home, removed at the end
# when the test made it).
test_require_prereq ROOT "bitbake runs as a user root creates"
made_user=""
if ! id "$user" >/dev/null 2>&1; then
	useradd --system --no-create-home --home-dir "$Y" --shell /bin/sh "$user" ||
		{ echo "Bail out! cannot create the user $user"; exit 1; }
	made_user=$user
fi

work=$Y/t-$$
mkdir -p "$work/dist/v$version" && chown "$user" "$work"
trap 'rm -rf "$work" "$TRASH"; if [ -n "$made_user" ]; then userdel "$made_user"; fi' EXIT

test_expect_success "the user $user exists and is not root" '
	test "$(id -u "$user")" != 0 &&
	su "$user" -c "test \$(id -u) != 0"
'

test_expect_success 'make dist gives the release tarball and its sha256' '
	make -s -C "$top" dist DISTDIR="$work/dist/v$version" >dist.log &&
	chmod -R a+rX "$work"
'
sha=$(cut -d" " -f1 "$work/dist/v$version/axfs-tools-$version.tar.xz.sha256" 2>/dev/null)

for rel in $releases; do
	r=${rel%%:*}
	bb=$Y/bitbake-${rel#*:}
	if [ ! -x "$bb/bin/bitbake" ] || [ ! -d "$Y/oe-core-$r/meta" ] || [ ! -d "$Y/meta-oe-$r/meta-oe" ]; then
		# Debian packages neither bitbake (none since bookworm; sid has
		# only kas, which clones them) nor openembedded-core or
		# meta-openembedded, and the tests reach no other network.
		test_skip "no bitbake-${rel#*:}, oe-core-$r and meta-oe-$r checkouts in $Y: Debian packages neither bitbake nor openembedded-core/meta-openembedded, so bitbake -p and bitbake axfs-tools-native cannot run here; clone them there (see Tested here in the layer documentation)"
		continue
	fi
	b=$work/build-$r
	mkdir -p "$b/conf"
	cat >"$b/conf/bblayers.conf" <<-EOF
	BBPATH = "\${TOPDIR}"
	BBFILES ?= ""
	BBLAYERS = "$Y/oe-core-$r/meta $Y/meta-oe-$r/meta-oe $top/examples/meta-axfs"
	EOF
	cat >"$b/conf/local.conf" <<-EOF
	BB_NO_NETWORK = "1"
	MACHINE = "qemux86-64"
	DL_DIR = "$b/downloads"
	SSTATE_DIR = "$b/sstate"
	AXFS_TOOLS_RELEASES = "file://$work/dist"
	SRC_URI[sha256sum] = "$sha"
	# The release recipe (the default is the git checkout's).
	PREFERRED_VERSION_axfs-tools-native = "$version"
	INHERIT:remove = "uninative"
	CONNECTIVITY_CHECK_URIS = ""
	# Only libdeflate from meta-oe: parsing all of it takes long.
	BBMASK = "meta-oe/recipes-(?!extended/libdeflate)"
	BB_NUMBER_PARSE_THREADS = "2"
	BB_NUMBER_THREADS = "2"
	# xz for the .tar.xz from the host: xz-native would need the network
# (scarthgap does not list xz in HOSTTOOLS).
	ASSUME_PROVIDED += "xz-native"
	HOSTTOOLS += "xz"
	EOF
	chown -R "$user" "$b"
	run_bb() {
		su "$user" -c "cd '$b' && LANG=en_US.UTF-8 PATH='$bb/bin:/usr/bin:/bin' BB_NO_NETWORK=1 bitbake $*"
	}
	test_expect_success "$r: bitbake -p parses meta-axfs offline" '
		{ run_bb -p >"parse-$r.log" 2>&1 || { tail -n 30 "parse-$r.log"; false; }; } &&
		! grep -E "^(ERROR|WARNING):" "parse-$r.log"
	'
	test_expect_success "$r: bitbake -c unpack axfs-tools-native unpacks the tarball into S" '
		run_bb -c unpack axfs-tools-native >"unpack-$r.log" 2>&1 ||
			{ tail -n 30 "unpack-$r.log"; false; } &&
		# TMPDIR is tmp-glibc where the release still appends TCLIBC
		# (scarthgap), tmp from styhead on.
		s=$(ls -d "$b"/tmp*/work/*/axfs-tools-native/$version*/axfs-tools-$version \
			"$b"/tmp*/work/*/axfs-tools-native/$version*/sources/axfs-tools-$version 2>/dev/null | head -n 1) &&
		test -n "$s" && cmp "$s/VERSION" "$top/VERSION" &&
		run_bb -e axfs-tools-native >"env-$r.log" 2>&1 &&
		grep -qx "S=\"$s\"" "env-$r.log"
	'
	test_expect_success "$r: the module and git recipes parse with the layer" '
		{ run_bb -e axfs-module >"mod-$r.log" 2>&1 || { tail -n 20 "mod-$r.log"; false; }; } &&
		grep -qx "MODULES_INSTALL_TARGET=\"modules_install\"" "mod-$r.log" &&
		run_bb -e axfs-tools >"git-$r.log" 2>&1 &&
		grep -q "^HOMEPAGE=\"https://" "git-$r.log"
	'
done

test_done
