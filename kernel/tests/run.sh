#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# run.sh - tests of kernel/axfs.ko in Debian's kernel under qemu.
# Run by `make check` / `make check-kernel` (tests/run-tests.sh), or alone:
#   AXFS=build/axfs sh kernel/tests/run.sh
#   AXFS_KSUITE=newest sh kernel/tests/run.sh      another kernel line
#   AXFS_KSUITE=bullseye AXFS_KSMOKE=1 sh ...      its smoke run: boot 1
#       (block, loop, MTD, physaddr=, XIP exec and pagemap, dual device,
#       profile) and the profiled image's checks on the host, no boot 2;
#       with AXFS_KHOSTILE=1 boot 1 also tries the corrupted images
#       (guest/hostile.sh, with slub_debug), as matrix.sh asks
#   AXFS_KSUITE=debug AXFS_KSMOKE=1 AXFS_KHOSTILE=1 \
#   AXFS_KAPPEND=panic_on_warn=1 sh ...           the same on 6.1 built with
#       KASAN, UBSAN and lockdep (debug-kernel.sh; AXFS_KAPPEND is added
#       to the guests' command lines), with the kernel fuzz target's
#       whole corpus among the corrupted images (AXFS_KFUZZ=all: on
#       another kernel too)
#
# Prints one "ok N - name" / "not ok N - name" line per check.  Needs
# root (apt-get download, mknod, chown) and qemu-system-x86 and
# busybox-static (make deps-tests installs them); fetches Debian's current kernel and headers into
# AXFS_KCACHE (default /var/cache/axfs-tools/kernel).  Only when those
# cannot be had does it print "ok 1 # skip REASON" and stop.
#
# Host side: build axfs.ko, a static probe program, two source trees (the
# full one with real Debian package trees), the images (`axfs mkfs`),
# corrupted images (corrupt.py), the expected listing (guest/listing.sh
# with the same busybox), an initramfs.  Boot 1 (guest/boot1.sh) mounts
# them over virtio-blk, loop, MTD (mtdram, phram, block2mtd), physaddr=
# and two devices, and profiles a workload.  The host builds images with
# `axfs mkfs -p` from that profile, alone and with --mmap-limit (split;
# mmapseg.py reads the mmap segment alone), and checks their pages are
# XIP; boot 2 (guest/boot2.sh) mounts them on every backend, runs the
# workload from memory, and tries the corrupted images.  AXFS_KEEP=1
# keeps the work directory.
set -u
export LC_ALL=C
here=$(cd "$(dirname "$0")" && pwd)
AXFS_TOP=${AXFS_TOP:-$(cd "$here/../.." && pwd)}
. "$here/lib.sh"

finish() {
	local what=full
	[ "${AXFS_KSMOKE:-0}" = 1 ] && what=smoke
	# The matrix table (matrix.sh --table) lists Debian's kernels, not
	# the debug kernel.
	if [ -n "${KVER:-}" ] && [ "${booted:-0}" = 1 ] &&
	   [ "${AXFS_KSUITE:-}" != debug ]; then
		if [ "$failed" -eq 0 ]; then
			kt_record "$KVER" BOOTED="$what suite ($passed passed), $(date -u +%F)"
		else
			kt_record "$KVER" BOOTED="FAILS ($what suite: $failed of $((passed + failed))), $(date -u +%F)"
		fi
	fi
	kt_summary "kernel tests (${KVER:-?}$([ "${AXFS_KSMOKE:-0}" = 1 ] && echo ", smoke"))"
}

# ---- tools, kernel, module ------------------------------------------------
kt_need_root
kt_need_tools || skip_all "$KT_SKIP"
kt_kernel || skip_all "$KT_SKIP"
# The debug kernel cannot power off (guest/init).
[ "${AXFS_KSUITE:-}" = debug ] && AXFS_KAPPEND="axfsreboot ${AXFS_KAPPEND:-}"

AXFS=${AXFS:-$AXFS_TOP/build/axfs}
SEEDREAD="python3 $AXFS_TOP/tests/tools/seedread.py"

kt_workdir axfs-kernel "${AXFS_KEEP:-0}" kt_say

KT_BUILD_DIR=$W/kbuild
if kt_build_module >"$W/build.log" 2>&1; then
	tap ok "build axfs.ko against $KVER"
	host_check "axfs.ko builds without warnings" sh -c "! grep 'warning:' '$W/build.log'"
else
	tap fail "build axfs.ko against $KVER"
	sed 's/^/#   /' "$W/build.log" | tail -n 30
	finish
fi
if ! [ -x "$AXFS" ]; then
	tap fail "the axfs binary exists ($AXFS)"
	finish
fi

stage=$W/stage
mkdir -p "$stage/tests" "$stage/data" "$stage/corrupt" "$stage/bin"
host_check "build the static probe program" \
	cc -static -O2 -Wall -pthread -o "$stage/bin/probe" "$here/probe.c"

# ---- trees and images -------------------------------------------------------
MTIME=1700000000
# Real Debian package trees in the full tree: fetched once into the cache.
# Without them (no archive, nothing cached) the tree still has linux-kbuild.
KT_DEBROOT=
if kt_debian_pkgs >"$W/debian-pkgs.log" 2>&1; then
	echo "# Debian packages in the tree: $KT_DEBIAN_PKGS"
else
	echo "# no extra Debian packages in the tree: $KT_SKIP"
	KT_DEBROOT=
fi
sh "$here/mktree.sh" "$W/full" full "$MODROOT" "$KT_DEBROOT" >"$W/mktree.log" 2>&1 &&
	sh "$here/mktree.sh" "$W/mini" mini >>"$W/mktree.log" 2>&1 ||
	{ tap fail "build the source trees"; sed 's/^/#   /' "$W/mktree.log"; finish; }

mk() {	# mk NAME MKFS-OPTIONS... SOURCE
	local name=$1
	shift
	"$AXFS" mkfs -q --mtime $MTIME "$@" -o "$W/$name.img" >"$W/mkfs-$name.log" 2>&1
}
images_ok=1
for spec in "tree|" "treemeta|--compress-metadata=yes -b 4KiB" \
	    "treebig|-b 1MiB" "xip|--xip /bin/*" \
	    "dual|--xip /bin/* --mmap-limit 8MiB"; do
	name=${spec%%|*}
	opts=${spec#*|}
	# shellcheck disable=SC2086
	if (set -f; mk "$name" $opts "$W/full"); then
		tap ok "mkfs: $name image ($opts)"
	else
		tap fail "mkfs: $name image ($opts)"
		sed 's/^/#   /' "$W/mkfs-$name.log" | head -n 10
		images_ok=0
	fi
done
# The mini tree for corrupt.py: an XIP file, a byte-aligned file (the
# policy), the rest compressed.
printf 'files:\n  - { match: "/ba", compress: none }\n' >"$W/mini.yaml"
for spec in "miniraw|--compress-metadata=no" \
	    "minizmeta|--compress-metadata=yes -b 4KiB"; do
	name=${spec%%|*}
	opts=${spec#*|}
	# shellcheck disable=SC2086
	mk "$name" $opts -c "$W/mini.yaml" --xip /bin/xipfile "$W/mini" ||
		{ sed 's/^/#   /' "$W/mkfs-$name.log" | head -n 10; images_ok=0; }
done
[ $images_ok = 1 ] || { tap fail "all images built"; finish; }

# Dual-device image: cut at mmap_size (axfs split when it works, else dd).
be64() { od -An -tx1 -j "$2" -N 8 "$1" | tr -d ' \n'; }
MMAP_SIZE=$((0x$(be64 "$W/dual.img" 88)))
DUAL_SIZE=$(stat -c %s "$W/dual.img")
host_check "dual image: mmap_size $MMAP_SIZE < size $DUAL_SIZE" test "$MMAP_SIZE" -lt "$DUAL_SIZE"
if ! "$AXFS" split -q "$W/dual.img" --mmap "$W/dual.mmap" --store "$W/dual.store" 2>/dev/null; then
	echo "# axfs split not available: cutting with dd"
	head -c "$MMAP_SIZE" "$W/dual.img" >"$W/dual.mmap"
	tail -c +"$((MMAP_SIZE + 1))" "$W/dual.img" >"$W/dual.store"
fi
host_check "dual image: the segments add up to the image" \
	sh -c "cat '$W/dual.mmap' '$W/dual.store' | cmp - '$W/dual.img'"
# block2mtd needs whole erase blocks; the padding is never read.
cp "$W/dual.store" "$W/dual.storerw"
truncate -s $(( ($(stat -c %s "$W/dual.store") + 131071) / 131072 * 131072 )) "$W/dual.storerw"

host_check "corrupted images (corrupt.py), and a sparse 3 GiB one claiming 2 GiB of strings" \
	python3 "$here/corrupt.py" "$W/miniraw.img" "$W/minizmeta.img" "$stage/corrupt" \
	"$W/hugemeta.img"
# Plus the fuzzers' regression inputs for images (reader, fsck, kernel);
# on the debug kernel the kernel target's whole corpus, as replay.sh
# replays it (the regression inputs and the seeds of make-seeds.sh), and
# the corpus a libFuzzer run (`make fuzz`) left in build-fuzz/.  Named
# fuzz-WHERE-FILE, so that a failure names its input.  AXFS_KFUZZ=all
# takes the whole corpus on another kernel too.
nfuzz=0
fuzz_limit=40
add_fuzz() {	# add_fuzz WHERE FILE...
	local where=$1 f name
	shift
	for f; do
		[ -f "$f" ] && [ "$(stat -c %s "$f")" -le 1048576 ] &&
			[ "$nfuzz" -lt "$fuzz_limit" ] || continue
		nfuzz=$((nfuzz + 1))
		name=fuzz-$where-$(basename "$f" | tr -c 'A-Za-z0-9_.\n-' _ | cut -c 1-60)
		name=${name%.axfs}
		name=${name%.img}
		cp "$f" "$stage/corrupt/$name.img"
		echo "$name any" >>"$stage/corrupt/manifest"
	done
}
for t in reader fsck kernel; do
	add_fuzz "$t" "$AXFS_TOP"/tests/fuzz/regress/$t/*
done
if [ "${AXFS_KSUITE:-}" = debug ] || [ "${AXFS_KFUZZ:-}" = all ]; then
	fuzz_limit=${AXFS_KFUZZ_MAX:-1000}
	if AXFS=$AXFS sh "$AXFS_TOP/tests/fuzz/make-seeds.sh" kernel "$W/seeds" \
		>"$W/seeds.log" 2>&1; then
		add_fuzz seed "$W"/seeds/*
	else
		tap fail "the kernel fuzz target's seeds (make-seeds.sh kernel)"
		sed 's/^/#   /' "$W/seeds.log" | tail -n 10
	fi
	add_fuzz corpus "$AXFS_TOP"/build-fuzz/corpus/kernel/*
fi
[ $nfuzz -gt 0 ] && echo "# $nfuzz fuzz inputs added to the corrupted images"

# Pages of /bin/busybox that are not XIP in IMAGE, per the seed reader.
nonxip_pages() {
	local xp total
	xp=$($SEEDREAD xip "$1" | grep -c '^/bin/busybox,')
	total=$(( ($(stat -c %s "$W/full/bin/busybox") + 4095) / 4096 ))
	echo $((total - xp))
}
XIP_BB_NONXIP=$(nonxip_pages "$W/xip.img")

# ---- guest data -------------------------------------------------------------
PHYS_XIP=0x10000000
PHYS_DUAL=0x12000000
PHYS_CORRUPT_BASE=$((0x13000000))
fits() { test "$(stat -c %s "$1")" -le "$2"; }
host_check "images fit the reserved memory" sh -c "
	test \$(stat -c %s '$W/xip.img') -le $((0x2000000)) &&
	test \$(stat -c %s '$W/dual.mmap') -le $((0x1000000))"

cp "$here/guest/init" "$stage/init"
chmod 755 "$stage/init"
cp "$here/guest/lib.sh" "$here/guest/listing.sh" "$here/guest/workload.sh" \
	"$here/guest/boot1.sh" "$here/guest/boot2.sh" "$here/guest/hostile.sh" \
	"$stage/tests/"
"$KT_BUSYBOX" sh "$here/guest/listing.sh" "$W/full" >"$stage/data/tree.list"
# Images as found in the field (legacy writer, bigger partitions).
[ -f "$here/field-images.sh" ] && . "$here/field-images.sh"

kt_corrupt_loaders "$stage/corrupt" $PHYS_CORRUPT_BASE

cat >"$stage/data/config" <<EOF
MTIME=$MTIME
TREE_SIZE=$(stat -c %s "$W/tree.img")
PHYS_XIP=$PHYS_XIP
XIP_SIZE=$(( ($(stat -c %s "$W/xip.img") + 4095) / 4096 * 4096 ))
XIP_BB_RSS_KB=$((XIP_BB_NONXIP * 4))
PHYS_DUAL=$PHYS_DUAL
DUAL_MMAP_SIZE=$(stat -c %s "$W/dual.mmap")
PHYS_CORRUPT="$KT_PHYS_CORRUPT"
EOF
# A smoke run with AXFS_KHOSTILE=1 (matrix.sh's) also tries the corrupted
# images at the end of boot 1, with slub_debug as boot 2 does.
boot1_opts=
boot1_loaders=
if [ "${AXFS_KSMOKE:-0}" = 1 ] && [ "${AXFS_KHOSTILE:-0}" = 1 ]; then
	echo "HOSTILE=1" >>"$stage/data/config"
	boot1_opts="slub_debug=FZPU,kmalloc-*"
	boot1_loaders="$KT_LOADERS $(drive "$W/hugemeta.img" hugemeta) $(drive "$W/hugemeta-ram.img" hugeram)"
fi

# ---- boot 1 -----------------------------------------------------------------
KT_INITRD=$W/initrd1.cpio
kt_initramfs "$stage" "$KT_INITRD" || { tap fail "build the initramfs"; finish; }
# shellcheck disable=SC2046,SC2086
kt_boot "$W/boot1.log" 300 "axfsplan=boot1 $boot1_opts ${AXFS_KAPPEND:-}" $boot1_loaders \
	$(drive "$W/tree.img" tree) $(drive "$W/treemeta.img" treemeta) \
	$(drive "$W/treebig.img" treebig) $(drive "$W/dual.store" store) \
	$(drive "$W/dual.mmap" mmapseg) $(drive "$W/dual.storerw" storerw snapshot) \
	-device loader,file="$W/xip.img",addr=$PHYS_XIP,force-raw=on \
	-device loader,file="$W/dual.mmap",addr=$PHYS_DUAL,force-raw=on
booted=1
echo "# boot 1 done after $(($(date +%s) - T0)) s"
parse_guest "$W/boot1.log" boot1
if [ "${AXFS_KSUITE:-}" = debug ]; then
	# The guest's own dmesg check covers the log up to its end; this also
	# sees a report after it and one that panicked the guest.
	host_check "debug kernel: no KASAN, UBSAN, lockdep or WARN report on the console" \
		sh -c "! grep -v -E '^(AXFS-RESULT|  \\| )' '$W/boot1.log' |
		       grep -E 'BUG:|UBSAN:|WARNING:|KASAN|Kernel panic|general protection|Oops'"
	for how in loop mtd physaddr; do
		echo "# boot 1: $(grep -c "^AXFS-RESULT [a-z]* [0-9.]* hostile/$how: " "$W/boot1.log") corrupted and fuzz images tried from $how"
	done
fi

# ---- the profile, the profiled image ------------------------------------------
sed -n '/^AXFS-PROFILE-BEGIN$/,/^AXFS-PROFILE-END$/p' "$W/boot1.log" |
	sed '1d;$d' >"$W/profile.csv"
host_check "profile: collected from /proc/axfs/volume0 ($(wc -l <"$W/profile.csv") lines)" \
	grep -q '^\./bin/busybox,' "$W/profile.csv"
if mk treeprof -p "$W/profile.csv" "$W/full"; then
	tap ok "mkfs -p: image from the guest's profile"
else
	tap fail "mkfs -p: image from the guest's profile"
	sed 's/^/#   /' "$W/mkfs-treeprof.log" | head -n 10
	finish
fi
# Every page the profile names is XIP in the new image (seed reader).
$SEEDREAD xip "$W/treeprof.img" | sort >"$W/treeprof.xip"
sed -n 's/^\.\(\/.*\),\([0-9]*\),[0-9]*$/\1,\2/p' "$W/profile.csv" | sort >"$W/profile.pages"
host_check "mkfs -p: every profiled page is XIP in the new image ($(wc -l <"$W/profile.pages") pages)" \
	sh -c "test -s '$W/profile.pages' && comm -23 '$W/profile.pages' '$W/treeprof.xip' | head -n 5 | { ! grep .; }"
# And per `axfs dump --pages`: the XIP pages of each file, as path,offset.
if "$AXFS" dump --pages "$W/treeprof.img" >"$W/treeprof.dump" 2>/dev/null; then
	awk '/^[-dlcbps][-rwxsStT]+ / { path = $(NF - 1) == "->" ? $(NF - 2) : $NF; next }
	     $1 == "page" && $5 == "xip" { sub(":", "", $2); print path "," $2 * 4096 }' \
		"$W/treeprof.dump" | sort >"$W/treeprof.dumpxip"
	host_check "axfs dump --pages agrees: every profiled page is XIP" \
		sh -c "test -s '$W/treeprof.dumpxip' && comm -23 '$W/profile.pages' '$W/treeprof.dumpxip' | head -n 5 | { ! grep .; }"
fi
[ "${AXFS_KSMOKE:-0}" = 1 ] && finish
PROF_BB_NONXIP=$(nonxip_pages "$W/treeprof.img")
host_check "profiled image fits below the dual image's segment" fits "$W/treeprof.img" $((0x2000000))

# Profile and two segments at once: the profiled pages must land in the
# memory-mapped segment, which an independent reader (mmapseg.py) given
# only that segment walks: every XIP page and every region the 2008
# driver uses in place lie inside it.
if mk profdual -p "$W/profile.csv" --mmap-limit 16MiB "$W/full" &&
   "$AXFS" split -q "$W/profdual.img" --mmap "$W/profdual.mmap" --store "$W/profdual.store" \
	>>"$W/mkfs-profdual.log" 2>&1; then
	tap ok "mkfs -p --mmap-limit, axfs split: profiled dual-device image"
else
	tap fail "mkfs -p --mmap-limit, axfs split: profiled dual-device image"
	sed 's/^/#   /' "$W/mkfs-profdual.log" | head -n 10
	finish
fi
host_check "profiled dual image: split and joined again gives the same bytes" \
	sh -c "'$AXFS' split -q --join '$W/profdual.mmap' '$W/profdual.store' -o '$W/profdual.joined' &&
	       cmp '$W/profdual.img' '$W/profdual.joined'"
for d in dual profdual; do
	$SEEDREAD xip "$W/$d.img" | sort >"$W/$d.xip"
	host_check "$d: the mmap segment alone holds every XIP page ($(wc -l <"$W/$d.xip")) and in-place region" \
		sh -c "python3 '$AXFS_TOP/tests/tools/mmapseg.py' '$W/$d.mmap' >'$W/$d.segxip' &&
		       test -s '$W/$d.xip' && cmp '$W/$d.xip' '$W/$d.segxip'"
done
host_check "profiled dual image: every profiled page is XIP" \
	sh -c "comm -23 '$W/profile.pages' '$W/profdual.xip' | head -n 5 | { ! grep .; }"
host_check "profiled dual image: the mmap segment fits below the corrupted images" \
	fits "$W/profdual.mmap" $((0x1000000))

# ---- boot 2 -----------------------------------------------------------------
cat >>"$stage/data/config" <<EOF
PHYS_PROF=$PHYS_XIP
PROF_SIZE=$(stat -c %s "$W/treeprof.img")
PROF_BB_NONXIP=$PROF_BB_NONXIP
PROFDUAL_BB_NONXIP=$(nonxip_pages "$W/profdual.img")
EOF
KT_INITRD=$W/initrd2.cpio
kt_initramfs "$stage" "$KT_INITRD" || { tap fail "build the initramfs"; finish; }
# shellcheck disable=SC2046,SC2086
kt_boot "$W/boot2.log" 300 "axfsplan=boot2 slub_debug=FZPU,kmalloc-* ${AXFS_KAPPEND:-}" \
	$(drive "$W/treeprof.img" prof) $(drive "$W/profdual.store" pstore) \
	-device loader,file="$W/treeprof.img",addr=$PHYS_XIP,force-raw=on \
	-device loader,file="$W/profdual.mmap",addr=$PHYS_DUAL,force-raw=on \
	$(drive "$W/hugemeta.img" hugemeta) $(drive "$W/hugemeta-ram.img" hugeram) $KT_LOADERS
echo "# boot 2 done after $(($(date +%s) - T0)) s"
parse_guest "$W/boot2.log" boot2

finish
