// SPDX-License-Identifier: GPL-2.0-only
/*
 * ramflash.c - test helper: an MTD over reserved physical memory, the way a
 * board's flash map (physmap "mtd-ram", phram) describes RAM or NOR flash
 * that the CPU addresses directly.
 *
 * Debian's arm64 kernels build no MTD driver that can be pointed at a
 * range of memory (PHRAM, MTDRAM and PHYSMAP are off), but they ship the
 * "map_ram" chip driver.  This module gives it a map_info per range, so
 * the MTD it registers has point() returning both the kernel address and
 * the physical address: axfs then maps XIP pages straight from the MTD.
 *
 *   modprobe ramflash map=NAME@ADDR+SIZE[,NAME@ADDR+SIZE...]
 *
 * The range must not be System RAM (reserve it in the device tree with a
 * no-map reserved-memory node, or keep it above mem=).
 */
#include <linux/io.h>
#include <linux/ioport.h>
#include <linux/kernel.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/mtd/map.h>
#include <linux/mtd/mtd.h>
#include <linux/slab.h>
#include <linux/string.h>

#define RAMFLASH_MAX	4

static char *map[RAMFLASH_MAX];
static int nr_map;
module_param_array(map, charp, &nr_map, 0444);
MODULE_PARM_DESC(map, "NAME@ADDR+SIZE of each MTD to create");

struct ramflash {
	struct map_info map;
	struct mtd_info *mtd;
	char name[32];
};

static struct ramflash *flashes[RAMFLASH_MAX];

static void ramflash_free(struct ramflash *rf)
{
	if (rf->mtd) {
		mtd_device_unregister(rf->mtd);
		map_destroy(rf->mtd);
	}
	if (rf->map.virt)
		memunmap((void __force *)rf->map.virt);
	kfree(rf);
}

static int ramflash_parse(const char *spec, struct ramflash *rf)
{
	const char *at = strchr(spec, '@');
	char *end;

	if (!at || at == spec || at - spec >= sizeof(rf->name))
		return -EINVAL;
	memcpy(rf->name, spec, at - spec);
	rf->map.phys = memparse(at + 1, &end);
	if (*end != '+')
		return -EINVAL;
	rf->map.size = memparse(end + 1, &end);
	if (*end || !rf->map.size || !PAGE_ALIGNED(rf->map.phys))
		return -EINVAL;
	return 0;
}

static int ramflash_add(const char *spec, struct ramflash **out)
{
	struct ramflash *rf = kzalloc(sizeof(*rf), GFP_KERNEL);
	void *virt;
	int err;

	if (!rf)
		return -ENOMEM;
	err = ramflash_parse(spec, rf);
	if (err) {
		pr_err("ramflash: '%s': expected NAME@ADDR+SIZE\n", spec);
		goto fail;
	}
	if (region_intersects(rf->map.phys, rf->map.size, IORESOURCE_SYSTEM_RAM,
			      IORES_DESC_NONE) != REGION_DISJOINT) {
		pr_err("ramflash: %s overlaps System RAM\n", spec);
		err = -EINVAL;
		goto fail;
	}
	/* Cacheable, as RAM or NOR flash in read-array mode are mapped. */
	virt = memremap(rf->map.phys, rf->map.size, MEMREMAP_WB);
	if (!virt) {
		err = -ENOMEM;
		goto fail;
	}
	rf->map.virt = (void __iomem __force *)virt;
	rf->map.name = rf->name;
	rf->map.bankwidth = 4;
	simple_map_init(&rf->map);
	rf->mtd = do_map_probe("map_ram", &rf->map);
	if (!rf->mtd) {
		err = -ENODEV;
		goto fail;
	}
	rf->mtd->owner = THIS_MODULE;
	err = mtd_device_register(rf->mtd, NULL, 0);
	if (err) {
		map_destroy(rf->mtd);
		rf->mtd = NULL;
		goto fail;
	}
	pr_info("ramflash: %s: 0x%llx bytes at 0x%llx\n", rf->name,
		(unsigned long long)rf->map.size,
		(unsigned long long)rf->map.phys);
	*out = rf;
	return 0;
fail:
	ramflash_free(rf);
	return err;
}

static void ramflash_exit(void)
{
	int i;

	for (i = RAMFLASH_MAX - 1; i >= 0; i--) {
		if (flashes[i])
			ramflash_free(flashes[i]);
		flashes[i] = NULL;
	}
}

static int __init ramflash_init(void)
{
	int i, err;

	for (i = 0; i < nr_map; i++) {
		err = ramflash_add(map[i], &flashes[i]);
		if (err) {
			ramflash_exit();
			return err;
		}
	}
	return 0;
}

static void __exit ramflash_cleanup(void)
{
	ramflash_exit();
}

module_init(ramflash_init);
module_exit(ramflash_cleanup);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Test MTD over reserved physical memory (map_ram)");
