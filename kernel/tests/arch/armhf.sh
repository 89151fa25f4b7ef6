# SPDX-License-Identifier: GPL-2.0-only
#
# armhf.sh - what the qemu tests need to know about 32-bit ARM (read
# by arch/load.sh; see arm64.sh).
#
# Debian packages: armmp (ARMv7, no LPAE: 32-bit phys_addr_t, highmem
# above ~760 MiB) and armmp-lpae (64-bit phys_addr_t).
KT_DEB_ARCH=armhf
KT_SUITE=bookworm
KT_FLAVOUR=armmp
KT_KARCH=arm
KT_CROSS=arm-linux-gnueabihf-
KT_ELF='ARM, EABI5'
# qemu: cortex-a15 has LPAE.  highmem=off keeps PCI below 4 GiB, which a
# kernel without LPAE needs to reach its virtio-pci devices.
KT_QEMU=qemu-system-arm
KT_QEMU_PKG=qemu-system-arm
KT_MACHINE="-M virt,highmem=off -cpu cortex-a15 -smp 2 -m 2G"
KT_CONSOLE=ttyAMA0
# RAM: 2 GiB at 0x40000000, 256 MiB of it reserved at 0x70000000 (above
# the ~760 MiB of lowmem: memremap() must not need a lowmem mapping of
# it); the 1 GiB above it is highmem, where the page cache goes first, so
# the driver's page-cache pages are highmem pages (kmap_local_page()).
KT_PHYS_BASE=0x70000000
KT_SYSRAM=0x41000000
KT_HIGHMEM=yes				# the guest checks its page cache is there
# Booted: bookworm armmp (the default, 6.1) and armmp-lpae (make
# check-all's armhf-lpae); also cross-built (not booted) by the default
# run: SUITE:FLAVOUR.
KT_XBUILDS="bookworm:armmp-lpae trixie:armmp trixie:armmp-lpae"
KT_IOMEM_RESERVED=no			# /proc/iomem omits no-map reserved-memory:
					# physaddr= mounts there give physsize=
# Without LPAE 32-bit ARM has no special PTEs (ARCH_HAS_PTE_SPECIAL):
# vmf_insert_mixed() maps an XIP page, which has a struct page there, as a
# normal refcounted page, and it counts in the process's RSS (pagemap
# still shows the image's frames).
KT_XIP_IN_RSS=1
KT_PHYS_ADDR_BITS=32			# sizeof(phys_addr_t) * 8
# kt_flavour FLAVOUR: what changes for that kernel flavour.  armmp-lpae
# has a 64-bit phys_addr_t and special PTEs.  Same machine: with
# highmem=on and RAM above 4 GiB (-m 5G) Debian 12's qemu 7.2 did not get
# 6.1 armmp-lpae to print anything in 200 s, and 6.12 looped in a page
# fault on the first exec (soft lockup in __clear_user from elf_load, no
# module loaded), so the reserved range stays below 4 GiB.
kt_flavour() {
	case $1 in
	armmp-lpae)
		KT_XIP_IN_RSS=0
		KT_PHYS_ADDR_BITS=64
		;;
	esac
}
# Where rootfs.sh --placements puts the root image (kernel/README.md,
# armhf): kt_placement NAME sets P_ADDR, P_SIZE, P_NOMAP, P_MEM and
# P_MACHINE (see rootfs.sh).
#   lowmem   RAM reserved with no-map inside the ~760 MiB of lowmem, as on
#            a board with 256-512 MiB: struct pages, no linear mapping
#   highmem  the suites' range at 0x70000000: struct pages that kmap maps
#   beyond   memory the kernel does not know (no struct page, as NOR
#            flash): RAM above mem=.  With LPAE at 4 GiB, the kernel's
#            RAM below it (mem=3072M): given RAM above 4 GiB, 6.12
#            armmp-lpae loops at its first exec (see kt_flavour).
KT_PLACEMENTS=${AXFS_PLACEMENTS:-lowmem highmem beyond}	# rootfs.sh: AXFS_PLACEMENTS picks
kt_placement() {
	P_NOMAP=yes
	P_MEM=
	P_MACHINE=$KT_MACHINE
	case $1 in
	lowmem)
		P_ADDR=0x58000000
		P_SIZE=96M
		;;
	highmem)
		P_ADDR=$KT_PHYS_BASE
		P_SIZE=$KT_PHYS_SIZE
		;;
	beyond)
		P_NOMAP=no
		if [ "$KT_PHYS_ADDR_BITS" = 64 ]; then
			P_ADDR=0x100000000
			P_SIZE=128M
			P_MEM=3072M
			P_MACHINE="-M virt,highmem=on -cpu cortex-a15 -smp 2 -m 3200M"
		else
			P_ADDR=0xa0000000
			P_SIZE=256M
			P_MEM=1536M
		fi
		;;
	esac
}
