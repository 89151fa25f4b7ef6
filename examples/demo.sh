#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The demo run by `make demo`:  sh examples/demo.sh build/axfs
#
# Copies the example tree examples/rootfs/ to a temporary directory, adds
# what git does not keep (binaries, generated data, empty mount points),
# builds an AXFS image of it with examples/policy.yaml, shows the image
# with `axfs dump`, checks it with `axfs fsck`, builds it again with the
# profile examples/profile.csv (recorded by the driver, see its header) to
# show the XIP pages a profile selects and the RAM they save, builds it a
# second time to show that the bytes are reproducible, prints a short
# summary and removes everything it made.  Any failure ends the demo with a
# non-zero status.
set -eu

usage() {
	echo "usage: sh examples/demo.sh PATH/TO/axfs" >&2
	exit 2
}
[ $# -eq 1 ] || usage
case $1 in
/*) AXFS=$1 ;;
*) AXFS=$(pwd)/$1 ;;
esac
[ -x "$AXFS" ] || { echo "demo: '$AXFS' is not an executable (run make first)" >&2; exit 1; }

top=$(cd "$(dirname "$0")/.." && pwd)
examples=$top/examples
export LC_ALL=C
# A fixed build time, so that the demo's image is the same on every run.
export SOURCE_DATE_EPOCH="${SOURCE_DATE_EPOCH:-1700000000}"

work=$(mktemp -d "${TMPDIR:-/tmp}/axfs-demo.XXXXXX")
trap 'rm -rf "$work"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
tree=$work/rootfs
image=$work/demo.axfs

say() { printf '%s\n' "$*"; }
step() { printf '\n== %s\n' "$*"; }

# True when a command's failure is a placeholder of a subcommand that is
# still being written ("not implemented yet"), not a real error.
not_implemented() { grep -q 'not implemented yet' "$1"; }

# ---- 1. the source tree ------------------------------------------------------
step "preparing the example tree (examples/rootfs + generated files)"
cp -R "$examples/rootfs" "$tree"
# Directories git cannot keep because they are empty: mount points and
# places the running system writes to (tmpfs at run time).
for d in dev proc sys tmp run root home var/log var/tmp mnt; do
	mkdir -p "$tree/$d"
done
chmod 1777 "$tree/tmp" "$tree/var/tmp"
chmod 700 "$tree/root"

# Real executables, copied from this machine (never committed): BusyBox if
# it is installed, otherwise /bin/true stands in for it.
if [ -x /bin/busybox ]; then
	cp /bin/busybox "$tree/bin/busybox"
	busybox_from=/bin/busybox
else
	cp /bin/true "$tree/bin/busybox"
	busybox_from="/bin/true (BusyBox is not installed)"
fi
for applet in cat hostname ls mount umount reboot ifup; do
	ln -s busybox "$tree/bin/$applet"
done
cp /bin/true "$tree/usr/bin/true"
chmod 755 "$tree/bin/busybox" "$tree/usr/bin/true"

# Data: a compressible text file of several pages and an incompressible
# gzip file (deterministic: gzip -n stores no name and no time).
seq 1 40000 >"$tree/usr/share/axfs-demo/numbers.txt"
gzip -9n <"$tree/usr/share/axfs-demo/numbers.txt" >"$tree/usr/share/axfs-demo/numbers.txt.gz"
# A hard link: one copy of the data in the image, two names.
ln "$tree/usr/bin/true" "$tree/usr/bin/false-friend"

entries=$(cd "$tree" && find . -mindepth 1 | wc -l)
srcbytes=$(cd "$tree" && find . -type f -exec cat {} + | wc -c)
say "source: $entries entries, $srcbytes bytes of file data; bin/busybox from $busybox_from"

# ---- 2. mkfs -------------------------------------------------------------------
# Devices come through the policy, so no root is needed.  Without a policy
# (or while the policy loader is still a placeholder) the demo falls back
# to equivalent command-line options.
fallback_opts="--all-root --xip /bin/busybox"
policy_opts=""
policy_note="command-line options ($fallback_opts)"
if [ -f "$examples/policy.yaml" ]; then
	policy_opts="--policy $examples/policy.yaml"
	policy_note="examples/policy.yaml"
fi

mkfs() {	# mkfs OUTPUT [OPTION...]: builds the tree with the chosen options
	out=$1
	shift
	# shellcheck disable=SC2086
	"$AXFS" mkfs $opts --no-progress "$@" "$tree" -o "$out"
}
# report_line FILE WHAT: the figure of one line of a --report ("XIP pages:",
# "RAM saved by XIP:"), without its caveat.
report_line() {
	sed -n "s/^$2 *//p" "$1" | sed 's/ (.*//'
}

step "axfs mkfs (policy: $policy_note)"
opts=${policy_opts:-$fallback_opts}
say "\$ axfs mkfs $opts --report plain.txt rootfs -o demo.axfs"
if ! mkfs "$image" --report "$work/plain.txt" 2>"$work/mkfs.err"; then
	cat "$work/mkfs.err" >&2
	if [ -n "$policy_opts" ] && not_implemented "$work/mkfs.err"; then
		say "(the policy loader is not implemented yet: building with $fallback_opts)"
		opts=$fallback_opts
		policy_note="command-line options ($fallback_opts)"
		mkfs "$image" --report "$work/plain.txt"
	else
		echo "demo: axfs mkfs failed" >&2
		exit 1
	fi
else
	cat "$work/mkfs.err" >&2
fi
imgbytes=$(wc -c <"$image")

# ---- 3. dump ---------------------------------------------------------------------
step "axfs dump demo.axfs"
"$AXFS" dump "$image"

# How the pages were stored: the entry counts of the data regions, from the
# machine-readable dump.
"$AXFS" dump --json --regions "$image" >"$work/regions.json"
count() {	# count REGION: max_index of a region in the JSON dump
	sed -n "s/.*\"name\": \"$1\",.*\"max_index\": \([0-9]*\).*/\1/p" "$work/regions.json"
}
pages="$(count xip) XIP, $(count cnode_index) compressed in $(count compressed) blocks, $(count banode_offset) byte-aligned"

# ---- 4. fsck ---------------------------------------------------------------------
step "axfs fsck demo.axfs"
fsck_result=clean
if "$AXFS" fsck "$image" >"$work/fsck.out" 2>&1; then
	cat "$work/fsck.out"
elif not_implemented "$work/fsck.out"; then
	fsck_result="skipped (axfs fsck is not implemented yet)"
	say "$fsck_result"
else
	cat "$work/fsck.out" >&2
	echo "demo: axfs fsck found problems in the image" >&2
	exit 1
fi

# ---- 5. a profile ---------------------------------------------------------------------
# examples/profile.csv was recorded by the driver (/proc/axfs/volume0) on
# a busybox exec'd from an AXFS image; its header names that busybox by
# its sha256.  The same offsets of another busybox are other pages.
profile=$examples/profile.csv
step "axfs mkfs with a profile (examples/profile.csv)"
want=$(sed -n 's/^# sha256 \([0-9a-f]*\)\.$/\1/p' "$profile")
have=$(sha256sum <"$tree/bin/busybox" | cut -d' ' -f1)
if [ "$want" = "$have" ]; then
	say "bin/busybox is the busybox the profile was recorded on (sha256 $have)"
else
	say "bin/busybox ($busybox_from) is not the busybox the profile was recorded"
	say "on: its pages at the profiled offsets become XIP, not the ones the"
	say "recording used (that was Debian 12's busybox-static, see the header)"
fi
say "\$ axfs mkfs $opts -p examples/profile.csv --report profiled.txt rootfs -o profiled.axfs"
mkfs "$work/profiled.axfs" -p "$profile" --report "$work/profiled.txt"
sed -n '/^XIP pages:/p; /^XIP flash cost:/p; /^RAM saved by XIP:/p; /^profile pages:/p' "$work/profiled.txt"
xip_plain=$(report_line "$work/plain.txt" "XIP pages:")
xip_prof=$(report_line "$work/profiled.txt" "XIP pages:")
ram_prof=$(report_line "$work/profiled.txt" "RAM saved by XIP:")
[ "${xip_prof%% *}" -gt 0 ] || { echo "demo: the profile gave no XIP page" >&2; exit 1; }
"$AXFS" fsck -q "$work/profiled.axfs" || { echo "demo: axfs fsck found problems in profiled.axfs" >&2; exit 1; }

# ---- 6. reproducibility -------------------------------------------------------------
step "building the same tree again"
mkfs "$work/again.axfs"
if cmp -s "$image" "$work/again.axfs"; then
	repro="yes, the two builds are byte-identical"
else
	echo "demo: two builds of the same tree differ" >&2
	cmp "$image" "$work/again.axfs" >&2 || true
	exit 1
fi

# ---- 7. summary -----------------------------------------------------------------
step "summary"
say "source tree:   $entries entries, $srcbytes bytes of file data"
say "image:         $imgbytes bytes ($((imgbytes * 100 / (srcbytes ? srcbytes : 1)))% of the file data, padding and metadata included)"
say "file pages:    $pages"
say "XIP:           without a profile $xip_plain pages; with examples/profile.csv"
say "               $xip_prof pages, saving $ram_prof of RAM where the kernel maps the"
say "               image in place (physaddr= or an MTD device with point(); a block"
say "               device copies every page into the page cache)"
say "built with:    $policy_note"
say "fsck:          $fsck_result"
say "reproducible:  $repro"
say "Next: axfs-mkfs(1), axfs-dump(1), axfs-policy(5), README.md."
