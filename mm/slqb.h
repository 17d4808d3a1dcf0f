/* SPDX-License-Identifier: GPL-2.0 */
/*
 * SLQB internals shared by mm/slqb.c (the allocator) and mm/slqb_sysfs.c
 * (its view under /sys/kernel/slab). Not for use outside mm/.
 */
#ifndef MM_SLQB_H
#define MM_SLQB_H

#include <linux/slab.h>

/* The largest per-CPU queue a tunable may ask for, in objects. */
#define SLQB_MAX_HIWATER	65536

int slqb_set_tunables(struct kmem_cache *s, long hiwater, long freebatch);

#ifdef CONFIG_SLQB_SYSFS
int slqb_sysfs_add(struct kmem_cache *s);
int slqb_sysfs_alias(struct kmem_cache *s, const char *name);
#else
static inline int slqb_sysfs_add(struct kmem_cache *s)
{
	return 0;
}

static inline int slqb_sysfs_alias(struct kmem_cache *s, const char *name)
{
	return 0;
}
#endif

#endif /* MM_SLQB_H */
