# SPDX-License-Identifier: GPL-2.0-or-later
#
# cramfs.sh - the cramfs-xip row of bench/kernel/run.sh (sourced by it,
# after kt_kernel and kt_workdir).
#
#   cramfs_prepare STAGE   cramfs.ko (Debian's kernels have CONFIG_CRAMFS
#                          unset) and xipflash.ko into STAGE's modules,
#                          mkcramfs-xip built; sets CRAMFS_WHY to the
#                          reason when one of them cannot be had
#   cramfs_images TREE STAGE
#                          $W/cramfs-xip.img (mkcramfs-xip; also as
#                          cramfs-xip-phram.img), $W/cramfs-mkfs.img
#                          (util-linux mkfs.cramfs: no XIP) and the
#                          tree's listing for the guest's comparison
#                          (STAGE/data/manifest)
#   cramfs_xip_pages       how many pages mkcramfs-xip stored for XIP
#   cramfs_place IMAGE     like run.sh's place, in a window of a power of
#                          two bytes (what physmap maps); sets placed, or
#                          CRAMFS_WHY when the reserved RAM is too small
#   cramfs_notes LOG       what the guest's checks found (under the table)
#
# cramfs.ko: fs/cramfs of Debian's linux-source of the kernel's own
# version (apt-get download; the .deb of tests/packaging/kernel-patch.sh
# in AXFS_CACHE_TOP/linux-src is used when it is that version), built out
# of tree with both backends: CONFIG_CRAMFS_BLOCKDEV and CONFIG_CRAMFS_MTD
# defined on the command line (inode.c tests them with IS_ENABLED), against
# the kernel's headers.  Cached in AXFS_CACHE_TOP/cramfs/KVER.
#
# The medium: cramfs maps XIP pages only when the MTD's point() gives a
# physical address (cramfs_mtd_fill_super, linear_phys_addr).  phram's
# point() in 6.1 gives none, so cramfs on phram reads every page into the
# page cache like any block file system.  map_ram's point() gives one:
# xipflash.ko (bench/kernel/xipflash/) registers a "physmap-flash"
# platform device over the image in reserved RAM with probe type map_ram,
# as a board with NOR flash does, and the image is mounted with
# `-t cramfs mtd:physmap-flash.0`.

CRAMFS_WHY=
CRAMFS_MODULES="physmap map_ram"	# from the kernel's own modules

# The fs/cramfs sources of linux-source-MAJOR.MINOR at VERSION into DIR.
cramfs_source() {	# cramfs_source VERSION DIR
	local series=${KVER%%-*} lsrc=${AXFS_CACHE_TOP:-/var/cache/axfs-tools}/linux-src deb
	series=${series%.*}
	deb=$lsrc/linux-source-${series}_$1_all.deb
	if ! flock "$lsrc.lock" test -s "$deb" 2>/dev/null; then
		deb=$(ls "$2/../linux-source-${series}_$1_all.deb" 2>/dev/null)
		if [ -z "$deb" ]; then
			(cd "$2/.." && apt-get download -q "linux-source-$series=$1" >&2) ||
				{ CRAMFS_WHY="apt-get download linux-source-$series=$1 failed"; return 1; }
			deb=$(ls "$2/../linux-source-${series}_$1_all.deb")
		fi
	fi
	rm -rf "$2.tmp" && mkdir -p "$2.tmp" &&
		dpkg-deb --fsys-tarfile "$deb" |
		tar -xO "./usr/src/linux-source-$series.tar.xz" |
		tar -xJ -C "$2.tmp" --strip-components=1 "linux-source-$series/fs/cramfs" &&
		[ -f "$2.tmp/fs/cramfs/inode.c" ] ||
		{ CRAMFS_WHY="no fs/cramfs in $deb"; return 1; }
	rm -rf "$2" && mv "$2.tmp/fs/cramfs" "$2" && rm -rf "$2.tmp"
	# The .deb was ours (not kernel-patch.sh's): it is not needed again.
	rm -f "$2/../linux-source-${series}_$1_all.deb"
}

cramfs_module() {	# sets CRAMFS_KO
	local cache=${AXFS_CACHE_TOP:-/var/cache/axfs-tools}/cramfs ver
	CRAMFS_KO=$cache/$KVER/cramfs.ko
	if [ -n "${AXFS_KSUITE:-}" ] && [ "$AXFS_KSUITE" != host ]; then
		CRAMFS_WHY="cramfs.ko is built for the host's kernel only (AXFS_KSUITE=$AXFS_KSUITE)"
		return 1
	fi
	mkdir -p "$cache/$KVER" || return 1
	exec 7>"$cache/.lock"
	flock 7
	if [ ! -f "$CRAMFS_KO" ]; then
		ver=$(apt-cache show "linux-headers-$KVER" 2>/dev/null | sed -n 's/^Version: //p' | head -n 1)
		[ -n "$ver" ] || { CRAMFS_WHY="apt-cache knows no linux-headers-$KVER"; exec 7>&-; return 1; }
		say "cramfs.ko: fs/cramfs of linux-source $ver ($(date -u +%T))"
		if cramfs_source "$ver" "$cache/$KVER/src"; then
			cat >"$cache/$KVER/src/Kbuild" <<'EOF'
# Written by bench/kernel/cramfs.sh: fs/cramfs out of tree, both backends.
obj-m := cramfs.o
cramfs-y := inode.o uncompress.o
ccflags-y := -DCONFIG_CRAMFS_BLOCKDEV=1 -DCONFIG_CRAMFS_MTD=1
EOF
			make -s -C "$KDIR" M="$cache/$KVER/src" modules >"$cache/$KVER/build.log" 2>&1 &&
				cp "$cache/$KVER/src/cramfs.ko" "$CRAMFS_KO.tmp" && mv "$CRAMFS_KO.tmp" "$CRAMFS_KO" ||
				CRAMFS_WHY="cramfs.ko does not build: $(tail -n 3 "$cache/$KVER/build.log" | tr '\n' ' ')"
		fi
	fi
	exec 7>&-
	[ -z "$CRAMFS_WHY" ]
}

cramfs_prepare() {	# cramfs_prepare STAGE
	local x=$W/xipflash
	cramfs_module || return 1
	mkdir -p "$x" && cp "$here/xipflash/xipflash.c" "$here/xipflash/Kbuild" "$x/" &&
		make -s -C "$KDIR" M="$x" modules >"$x/build.log" 2>&1 ||
		{ CRAMFS_WHY="xipflash.ko does not build: $(tail -n 3 "$x/build.log" | tr '\n' ' ')"; return 1; }
	mkdir -p "$1/lib/modules/$KVER/extra"
	cp "$CRAMFS_KO" "$x/xipflash.ko" "$1/lib/modules/$KVER/extra/"
	cc -std=c11 -O2 -Wall -Wextra -o "$W/mkcramfs-xip" "$here/mkcramfs-xip.c" -lz ||
		{ CRAMFS_WHY="mkcramfs-xip does not build"; return 1; }
	command -v mkfs.cramfs >/dev/null 2>&1 ||
		{ CRAMFS_WHY="no mkfs.cramfs (util-linux)"; return 1; }
	KT_MODULES="$KT_MODULES $CRAMFS_MODULES"
}

cramfs_images() {	# cramfs_images TREE STAGE
	"$W/mkcramfs-xip" "$1" "$W/cramfs-xip.img" 2>"$W/cramfs-xip.summary" ||
		{ CRAMFS_WHY="mkcramfs-xip failed: $(cat "$W/cramfs-xip.summary")"; return 1; }
	ln -f "$W/cramfs-xip.img" "$W/cramfs-xip-phram.img"
	mkfs.cramfs "$1" "$W/cramfs-mkfs.img" >/dev/null || { CRAMFS_WHY="mkfs.cramfs failed"; return 1; }
	# util-linux checks the image it can read (not the XIP one: it
	# refuses CRAMFS_FLAG_EXT_BLOCK_POINTERS as an unknown feature).
	fsck.cramfs "$W/cramfs-mkfs.img" >/dev/null ||
		{ CRAMFS_WHY="fsck.cramfs finds $W/cramfs-mkfs.img bad"; return 1; }
	# What the guest compares each cramfs mount with: every entry's type,
	# mode, size (not directories': cramfs's are its records' bytes),
	# link target and content, listed by the same busybox as in the guest.
	(cd "$1" && "$KT_BUSYBOX" sh "$here/guest/manifest.sh") >"$2/data/manifest" ||
		{ CRAMFS_WHY="cannot list $1"; return 1; }
}

cramfs_place() {	# cramfs_place IMAGE: place it in a power-of-two window
	local size=$(stat -c %s "$1") win=$((1 << 20))
	while [ $win -lt "$size" ]; do win=$((win * 2)); done
	[ $((addr + win)) -le $((KT_PHYS_BASE + PHYS_BYTES)) ] ||
		{ CRAMFS_WHY="$1 (a window of $win bytes) does not fit in the reserved $KT_PHYS_SIZE"; return 1; }
	loaders="$loaders -device loader,file=$1,addr=$(printf 0x%x $addr),force-raw=on"
	placed="$(printf 0x%x $addr) $win"
	addr=$((addr + win))
}

cramfs_xip_pages() {
	sed -n 's/.*XIP files (\([0-9]*\) pages).*/\1/p' "$W/cramfs-xip.summary"
}

cramfs_notes() {	# cramfs_notes LOG
	sed -n 's/^CRAMFS-CHECK //p' "$1"
}
