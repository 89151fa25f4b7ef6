#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# The AXFS driver as fs/axfs of a kernel tree, from the files of kernel/
# and the one format header, include/axfs/axfs_fs.h (copied, never
# kept twice in the repository):
#
#   mkpatch.sh --tree LINUX    adds fs/axfs to the kernel tree LINUX and
#                              hooks it into fs/Kconfig and fs/Makefile
#                              (again: replaces fs/axfs, hooks once).
#                              Buildroot's linux extension and the Yocto
#                              kernel bbappend use this.
#   mkpatch.sh --patch LINUX   prints a patch (patch -p1, git apply) that
#                              does the same to a tree like LINUX; the
#                              fs/Kconfig and fs/Makefile hunks are made
#                              against LINUX's, so they apply to it.
#   mkpatch.sh --series LINUX OUT  the same as a git format-patch series
#                              in OUT (kernel/series.txt cuts it), each
#                              patch building on its own, with a cover
#                              letter; for a tree that needs no compat.h.
#   mkpatch.sh --dkms DIR      the module source for DKMS (sources, Kbuild,
#                              Makefile, dkms.conf, the format header) in DIR.
#
# CONFIG_AXFS=y then builds the driver in (for an AXFS root filesystem).
set -eu

here=$(cd "$(dirname "$0")/.." && pwd)	# kernel/
top=$(dirname "$here")
format=$top/include/axfs/axfs_fs.h
version=$(cat "$top/VERSION")
# Who maintains the driver: the Maintainer: line of MAINTAINERS, the one
# place the project says it (also the identity of the Signed-off-by lines).
maintainer=$(sed -n 's/^Maintainer: //p' "$top/MAINTAINERS")

die() { echo "mkpatch.sh: $*" >&2; exit 1; }
[ -n "$maintainer" ] || die "no 'Maintainer:' line in '$top/MAINTAINERS'"
[ -f "$format" ] || die "cannot find the format header '$format'"

# The driver is written against the newest kernel; compat.h and the
# compile probes (probes/) give older kernels the newer interfaces.  A
# tree at least as new as the newest release compat.h covers needs
# neither: its patch leaves them out.
compat_newest=$(sed -n 's/^ \* AXFS_COMPAT_NEWEST \([0-9]*\.[0-9]*\)$/\1/p' "$here/compat.h")
[ -n "$compat_newest" ] || die "compat.h: no AXFS_COMPAT_NEWEST line"

# tree_needs_compat LINUX: whether LINUX is older than $compat_newest (or
# of a version its Makefile does not say: then compat.h stays, harmless).
tree_needs_compat() {
	v=$(sed -n 's/^VERSION = \([0-9]*\)$/\1/p' "$1/Makefile" 2>/dev/null)
	p=$(sed -n 's/^PATCHLEVEL = \([0-9]*\)$/\1/p' "$1/Makefile" 2>/dev/null)
	[ -n "$v" ] && [ -n "$p" ] || return 0
	[ $((v * 1000 + p)) -lt $((${compat_newest%.*} * 1000 + ${compat_newest#*.})) ]
}

# copy_sources DIR COMPAT: the driver's sources and the format header into
# DIR; with COMPAT=no, without compat.h and the probes.
copy_sources() {
	mkdir -p "$1"
	for f in "$here"/*.c "$here"/*.h "$format"; do
		case ${f##*/} in
		*.mod.c | axfs-probes.h) continue ;;	# made by a build
		compat.h) [ "$2" = no ] && continue ;;
		esac
		cp "$f" "$1/"
	done
	cp "$here/Kconfig" "$1/Kconfig"
	if [ "$2" = no ]; then
		upstream_form "$1"
	else
		cp "$here/compat.mk" "$1/"
		mkdir -p "$1/probes"
		cp "$here"/probes/*.c "$here/probes/probe.sh" "$1/probes/"
	fi
}

# upstream_form DIR: the sources in DIR as a tree without compat.h gets
# them: AXFS_MAGIC from <linux/magic.h> (uapi_magic puts it there), not
# from the format header; no #include "compat.h", and the two operations that compat.h
# wraps for older kernels set directly (AXFS_READ_FOLIO_OP(fn) and
# AXFS_MMAP_PREPARE_OP(fn) lines, with the blank line after them, go;
# AXFS_READ_FOLIO(fn) and AXFS_MMAP_PREPARE(fn) become fn).  Then no
# name that compat.h defines for the driver (AXFS_*, axfs_*) may be left.
upstream_form() {
	for f in "$1"/*.c "$1"/*.h; do
		sed -i -e '/^#include "compat.h"$/d' \
			-e '/^AXFS_[A-Z_]*_OP([a-z0-9_]*)$/{N;d;}' \
			-e 's/AXFS_\(READ_FOLIO\|MMAP_PREPARE\)(\([a-z0-9_]*\))/\2/g' "$f"
	done
	sed -i -e '/^#define AXFS_MAGIC\t/d' \
		-e 's|^#include <linux/types.h>$|#include <linux/magic.h>\n&|' "$1/axfs_fs.h"
	grep -q '^#include <linux/magic.h>$' "$1/axfs_fs.h" ||
		die "axfs_fs.h: no '#include <linux/types.h>' line to include <linux/magic.h> before"
	names=$(grep -o '\<\(AXFS\|axfs\)_[A-Za-z0-9_]*' "$here/compat.h" |
		grep -v '^AXFS_HAVE_\|^AXFS_COMPAT_\|^axfs_backport_' | sort -u)
	for n in $names; do
		! grep -qw "$n" "$1"/*.c "$1"/*.h ||
			die "$n (defined in compat.h) is still used without compat.h: $(grep -lw "$n" "$1"/*.c "$1"/*.h | tr '\n' ' ')"
	done
}

# uapi_magic LINUX: AXFS_MAGIC (the format header's value) in LINUX's
# include/uapi/linux/magic.h, after AUTOFS_SUPER_MAGIC (the list starts
# sorted), unless already there.
uapi_magic() {
	h=$1/include/uapi/linux/magic.h
	[ -f "$h" ] || die "'$1' is not a kernel tree (no include/uapi/linux/magic.h)"
	grep -q '^#define AXFS_MAGIC[[:space:]]' "$h" && return 0
	value=$(sed -n 's/^#define AXFS_MAGIC\t*\(0x[0-9A-F]*\)$/\1/p' "$format")
	[ -n "$value" ] || die "$format: no '#define AXFS_MAGIC 0x...' line"
	awk -v v="$value" '{ print }
		!done && /^#define AUTOFS_SUPER_MAGIC[[:space:]]/ {
			print "#define AXFS_MAGIC\t\t" v; done = 1 }
		END { if (!done) exit 1 }' "$h" >"$h.tmp" ||
		die "$h: no AUTOFS_SUPER_MAGIC line to add AXFS_MAGIC after"
	mv "$h.tmp" "$h"
}

# hook LINUX: source fs/axfs/Kconfig and build fs/axfs/, next to cramfs
# (the other XIP-capable read-only filesystem), unless already there.
hook() {
	k=$1/fs/Kconfig
	m=$1/fs/Makefile
	[ -f "$k" ] && [ -f "$m" ] || die "'$1' is not a kernel tree (no fs/Kconfig, fs/Makefile)"
	if ! grep -q '^source "fs/axfs/Kconfig"' "$k"; then
		grep -q '^source "fs/cramfs/Kconfig"$' "$k" ||
			die "$k: no 'source \"fs/cramfs/Kconfig\"' line to add AXFS after"
		sed -i '/^source "fs\/cramfs\/Kconfig"$/a source "fs/axfs/Kconfig"' "$k"
	fi
	if ! grep -q '^obj-$(CONFIG_AXFS)' "$m"; then
		grep -q '^obj-$(CONFIG_CRAMFS)[[:space:]]*+= cramfs/$' "$m" ||
			die "$m: no 'obj-\$(CONFIG_CRAMFS) += cramfs/' line to add AXFS after"
		sed -i '/^obj-$(CONFIG_CRAMFS)[[:space:]]*+= cramfs\/$/a obj-$(CONFIG_AXFS)		+= axfs/' "$m"
	fi
}

# plain_makefile: Kbuild up to the blank line before its compat.mk part.
plain_makefile() {
	awk '/^# Out of tree/ { exit } { print }' "$here/Kbuild" | sed '$ { /^$/d; }'
}

# document LINUX: Documentation/filesystems/axfs.rst (kernel/axfs.rst) in
# the filesystems' index, and the MAINTAINERS entry (MAINTAINER, the one
# place that names who maintains AXFS), each unless already there; a patch
# always has them (print_patch needs both files).
document() {
	idx=$1/Documentation/filesystems/index.rst
	mnt=$1/MAINTAINERS
	# A tree without them (a trimmed vendor tree) builds without them.
	[ -f "$idx" ] && [ -f "$mnt" ] || return 0
	cp "$here/axfs.rst" "$1/Documentation/filesystems/axfs.rst"
	if ! grep -qx '   axfs' "$idx"; then
		# The filesystems' list is sorted and has autofs in it.
		awk '!done && list && /^   [a-z0-9]/ && $1 > "axfs" { print "   axfs"; done = 1 }
		     /^   autofs$/ { list = 1 } { print }
		     END { if (!done) exit 1 }' "$idx" >"$idx.tmp" ||
			die "$idx: no place for axfs in the filesystems' list"
		mv "$idx.tmp" "$idx"
	fi
	if ! grep -qx 'AXFS FILE SYSTEM' "$mnt"; then
		# Before the first entry of the AX... or B... ones that sorts
		# after it (the list is sorted by and large, not everywhere;
		# entries start after a blank line, from the "3C59X" one on).
		awk -v who="$maintainer" '
			!done && blank && started &&
			((/^AX/ && $0 > "AXFS FILE SYSTEM") || /^B/) {
				print "AXFS FILE SYSTEM"
				print "M:\t" who
				print "L:\tlinux-fsdevel@vger.kernel.org"
				print "S:\tMaintained"
				print "F:\tDocumentation/filesystems/axfs.rst"
				print "F:\tfs/axfs/"
				print ""
				done = 1
			}
			/^3C59X NETWORK DRIVER$|^A8293 MEDIA DRIVER$/ { started = 1 }
			{ blank = ($0 == ""); print }
			END { if (!done) exit 1 }' "$mnt" >"$mnt.tmp" ||
			die "$mnt: no place for the AXFS entry"
		mv "$mnt.tmp" "$mnt"
	fi
}

# tree DEST [LINUX]: fs/axfs in DEST, for a tree like LINUX (default DEST).
tree() {
	if tree_needs_compat "${2:-$1}"; then compat=yes; else compat=no; fi
	rm -rf "$1/fs/axfs"
	copy_sources "$1/fs/axfs" "$compat"
	# PAGE_SIZE_4KB is in every architecture's Kconfig from 6.8 on; an
	# older tree does without the dependency, and super.c's
	# static_assert stops a build with larger pages.
	grep -q '^config PAGE_SIZE_4KB$' "${2:-$1}/arch/Kconfig" 2>/dev/null ||
		sed -i '/^\tdepends on PAGE_SIZE_4KB$/d' "$1/fs/axfs/Kconfig"
	# In a kernel tree the Kbuild file is the directory's Makefile; with
	# no compat.mk to include, the plain part of it.
	if [ "$compat" = yes ]; then
		cp "$here/Kbuild" "$1/fs/axfs/Makefile"
	else
		plain_makefile >"$1/fs/axfs/Makefile"
		uapi_magic "$1"
	fi
	hook "$1"
	document "$1"
}

# udiff OLD NEW PATH: a unified diff of one file, with fixed labels (no
# file times: the same patch every time).
udiff() {
	if [ -n "$1" ]; then old=$1 label=a/$3; else old=/dev/null label=/dev/null; fi
	diff -u --label "$label" --label "b/$3" "$old" "$2" || [ $? = 1 ]
}

# The files of a kernel tree that the patch changes (not adds).
CHANGED="fs/Kconfig fs/Makefile Documentation/filesystems/index.rst MAINTAINERS include/uapi/linux/magic.h"

# pristine LINUX DIR: copies of LINUX's files that the patch changes in DIR.
pristine() {
	for f in $CHANGED; do
		mkdir -p "$2/$(dirname "$f")"
		cp "$1/$f" "$2/$f" 2>/dev/null ||
			die "'$1' is not a kernel tree (no $f)"
	done
}

print_patch() {
	tmp=$(mktemp -d)
	trap 'rm -rf "$tmp"' EXIT
	pristine "$1" "$tmp"
	tree "$tmp" "$1"
	{
		udiff "$1/Documentation/filesystems/index.rst" \
			"$tmp/Documentation/filesystems/index.rst" \
			Documentation/filesystems/index.rst
		udiff "" "$tmp/Documentation/filesystems/axfs.rst" \
			Documentation/filesystems/axfs.rst
		udiff "$1/MAINTAINERS" "$tmp/MAINTAINERS" MAINTAINERS
		udiff "$1/fs/Kconfig" "$tmp/fs/Kconfig" fs/Kconfig
		udiff "$1/fs/Makefile" "$tmp/fs/Makefile" fs/Makefile
		udiff "$1/include/uapi/linux/magic.h" "$tmp/include/uapi/linux/magic.h" \
			include/uapi/linux/magic.h
		for f in $(cd "$tmp/fs/axfs" && find . -type f | sed 's|^\./||' | LC_ALL=C sort); do
			udiff "" "$tmp/fs/axfs/$f" "fs/axfs/$f"
		done
	} >"$tmp/diff"
	cat <<EOF
From: $maintainer
Subject: [PATCH] fs: add the AXFS filesystem

AXFS, the Advanced XIP File System: a read-only, zlib-compressed
filesystem whose pages are stored either compressed or uncompressed and
page-aligned for execute-in-place.

Generated by kernel/scripts/mkpatch.sh of axfs-tools $version.

Signed-off-by: $maintainer
---
EOF
	(cd "$tmp" && git apply --stat diff)
	echo
	cat "$tmp/diff"
}

# partial_makefile DIR: fs/axfs/Makefile for the sources of DIR (fs/axfs
# part way through the series): the plain Makefile's objects, less those
# whose source is not there yet.
partial_makefile() {
	objs=$(plain_makefile | sed -n '/^axfs-y :=/,/[^\\]$/p' |
		sed 's/^axfs-y :=//; s/\\$//' | tr -s ' \t' '\n' | grep .)
	d=$1
	plain_makefile | sed '/^axfs-/,$d'
	set --
	for o in $objs; do
		[ -f "$d/${o%.o}.c" ] && set -- "$@" "$o"
	done
	echo "axfs-y := $*" | fold -s -w 72 | sed '2,$s/^/\t  /; $!s/ *$/ \\/'
	plain_makefile | sed -n '/^axfs-\$/p' | while read -r l; do
		o=${l##* }
		[ ! -f "$d/${o%.o}.c" ] || echo "$l"
	done
}

# series LINUX OUT: the patch as a git format-patch series in OUT, for a
# tree like LINUX (one that needs no compat.h), cut as kernel/series.txt
# says, with a cover letter.  The patches are commits on a scratch git
# repository holding LINUX's files that the series changes.
series() {
	tree_needs_compat "$1" &&
		die "'$1' is older than $compat_newest: a series is for a tree that needs no compat.h (use --patch)"
	command -v git >/dev/null || die "no git"
	def=$here/series.txt
	tmp=$(mktemp -d)
	trap 'rm -rf "$tmp"' EXIT
	full=$tmp/full
	git=$tmp/git
	pristine "$1" "$full"
	pristine "$1" "$git"
	tree "$full" "$1"
	# Fixed dates and identity: the same series from the same sources.
	GIT_AUTHOR_NAME=${maintainer% <*}
	GIT_AUTHOR_EMAIL=${maintainer##*<}
	GIT_AUTHOR_EMAIL=${GIT_AUTHOR_EMAIL%>}
	GIT_AUTHOR_DATE="${SOURCE_DATE_EPOCH:-$(stat -c %Y "$top/VERSION")} +0000"
	GIT_COMMITTER_NAME=$GIT_AUTHOR_NAME GIT_COMMITTER_EMAIL=$GIT_AUTHOR_EMAIL
	GIT_COMMITTER_DATE=$GIT_AUTHOR_DATE
	export GIT_AUTHOR_NAME GIT_AUTHOR_EMAIL GIT_AUTHOR_DATE
	export GIT_COMMITTER_NAME GIT_COMMITTER_EMAIL GIT_COMMITTER_DATE
	g() { git -C "$git" -c core.autocrlf=false -c commit.gpgsign=false "$@"; }
	g init -q
	g add -A
	g commit -q -m base
	# Split series.txt: cover (subject, text) and one file per patch.
	awk -v dir="$tmp" '
		/^#/ { next }
		/^Cover: / { out = dir "/cover"; print substr($0, 8) >out; next }
		/^Subject: / { n++; out = sprintf("%s/msg.%02d", dir, n)
			print substr($0, 10) >out; next }
		/^Files: / { print substr($0, 8) >(sprintf("%s/files.%02d", dir, n)); next }
		out { print >out }' "$def"
	for m in "$tmp"/msg.*; do
		n=${m##*.}
		[ -f "$tmp/files.$n" ] || die "$def: patch $n has no Files: line"
		for f in $(cat "$tmp/files.$n"); do
			[ -f "$full/$f" ] || die "$def: patch $n: $f is not in the patch"
			mkdir -p "$git/$(dirname "$f")"
			cp "$full/$f" "$git/$f"
		done
		if [ -d "$git/fs/axfs" ] && ls "$git"/fs/axfs/*.c >/dev/null 2>&1; then
			partial_makefile "$git/fs/axfs" >"$git/fs/axfs/Makefile"
		fi
		# The subject, a blank line, the message (blank lines at its
		# ends dropped), the sign-off.
		{
			sed -n 1p "$m"
			echo
			sed 1d "$m" | sed -e '/./,$!d' | sed -e ':a' -e '/^\n*$/{$d;N;ba' -e '}'
			echo
			echo "Signed-off-by: $maintainer"
		} >"$tmp/commit"
		g add -A
		g commit -q -F "$tmp/commit"
	done
	# The series adds up to the single patch: every file placed.
	diff -r "$full" "$git" -x .git >"$tmp/rest" ||
		die "$def: the series is not the whole patch:
$(cat "$tmp/rest")"
	# OUT may be a directory of the user's: only its patches are replaced.
	mkdir -p "$2"
	rm -f "$2"/[0-9][0-9][0-9][0-9]-*.patch
	g format-patch -q --cover-letter --no-signature -o "$2" HEAD~$(ls "$tmp"/msg.* | wc -l) ||
		die "git format-patch failed"
	# The cover letter: its subject and text from series.txt.
	c=$(ls "$2"/0000-*.patch)
	awk -v cover="$tmp/cover" '
		BEGIN { getline subject <cover
			while ((getline l <cover) > 0) text = text l "\n" }
		/\*\*\* SUBJECT HERE \*\*\*/ { sub(/\*\*\* SUBJECT HERE \*\*\*/, subject) }
		/^\*\*\* BLURB HERE \*\*\*$/ {
			sub(/^\n+/, "", text); sub(/\n+$/, "", text); print text
			print ""
			print "Generated by kernel/scripts/mkpatch.sh of axfs-tools '"$version"'."
			print ""
			print "Signed-off-by: '"$maintainer"'"
			next }
		{ print }' "$c" >"$c.tmp" && mv "$c.tmp" "$c"
}

dkms() {
	rm -rf "$1"
	copy_sources "$1" yes
	cp "$here/Kbuild" "$here/Makefile" "$1/"
	sed "s/@VERSION@/$version/" "$here/dkms.conf" >"$1/dkms.conf"
}

case ${1:-} in
--tree)  [ $# = 2 ] || die "usage: mkpatch.sh --tree LINUX"; tree "$2" ;;
--patch) [ $# = 2 ] || die "usage: mkpatch.sh --patch LINUX"; print_patch "$2" ;;
--series) [ $# = 3 ] || die "usage: mkpatch.sh --series LINUX OUT"; series "$2" "$3" ;;
--dkms)  [ $# = 2 ] || die "usage: mkpatch.sh --dkms DIR"; dkms "$2" ;;
*) echo "usage: mkpatch.sh --tree LINUX | --patch LINUX | --series LINUX OUT | --dkms DIR" >&2; exit 2 ;;
esac
