// SPDX-License-Identifier: GPL-2.0-only
/*
 * xipflash - a "physmap-flash" platform device over a range of reserved
 * RAM, probed as map_ram, for bench/kernel/run.sh's cramfs-xip row.
 *
 *   insmod xipflash.ko addr=0x14000000 size=0x4000000
 *
 * The MTD it gives (mtd:physmap-flash.0) is what a board's NOR flash
 * gives cramfs: its point() returns the physical address, so cramfs maps
 * the image's uncompressed, page-aligned blocks straight into user space
 * (phram's point() returns none, and cramfs then copies every page).
 * physmap maps a power of two bytes: SIZE must be one, inside the RAM
 * reserved with memmap=.  Unloading the module removes the device.
 */
#include <linux/module.h>
#include <linux/platform_device.h>
#include <linux/ioport.h>
#include <linux/log2.h>
#include <linux/mtd/physmap.h>

static unsigned long addr;
module_param(addr, ulong, 0444);
MODULE_PARM_DESC(addr, "physical address of the image");
static unsigned long size;
module_param(size, ulong, 0444);
MODULE_PARM_DESC(size, "bytes mapped from addr (a power of two)");

static struct physmap_flash_data xipflash_data = {
	.width = 4,
	.probe_type = "map_ram",
};
static struct platform_device *xipflash_dev;

static int __init xipflash_init(void)
{
	struct resource res = DEFINE_RES_MEM(addr, size);

	if (!size || !is_power_of_2(size) || !IS_ALIGNED(addr, PAGE_SIZE))
		return -EINVAL;
	xipflash_dev = platform_device_register_resndata(NULL, "physmap-flash", 0,
							 &res, 1, &xipflash_data,
							 sizeof(xipflash_data));
	return PTR_ERR_OR_ZERO(xipflash_dev);
}

static void __exit xipflash_exit(void)
{
	platform_device_unregister(xipflash_dev);
}

module_init(xipflash_init);
module_exit(xipflash_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("physmap-flash (map_ram) device over reserved RAM, for the cramfs XIP bench");
