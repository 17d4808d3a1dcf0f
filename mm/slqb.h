/* SPDX-License-Identifier: GPL-2.0 */
/*
 * SLQB internals shared by mm/slqb.c (the allocator) and mm/slqb_sysfs.c
 * (its view under /sys/kernel/slab). Not for use outside mm/, but for
 * SLQB's KUnit suites in lib/.
 */
#ifndef MM_SLQB_H
#define MM_SLQB_H

#include <linux/jump_label.h>
#include <linux/slab.h>

/* The largest per-CPU queue a tunable may ask for, in objects. */
#define SLQB_MAX_HIWATER	65536

/* How often each CPU trims its idle queues. */
#define SLQB_TRIM_INTERVAL	(2 * HZ)

/*
 * A cache whose preferred order is above its minimum makes slabs of the
 * minimum order until it has needed as many objects as SLQB_BUSY_SLABS
 * slabs of the preferred order hold. Most caches of large objects hold a
 * handful of them for good (a driver's, a file system's on a machine
 * without one), and a preferred slab on each CPU that touches them would
 * cost more than they hold; a busy one (kmalloc-4k under network load,
 * task_struct under fork) soon passes the mark, and from then on a trip
 * to the page allocator serves several of its objects.
 */
#define SLQB_BUSY_SLABS		4

static inline bool slqb_cache_busy(const struct kmem_cache *s)
{
	return READ_ONCE(s->grown) >= SLQB_BUSY_SLABS * s->objects;
}

/* The order of the slabs @s makes now (slabinfo and sysfs show it). */
static inline unsigned int slqb_new_order(const struct kmem_cache *s)
{
	return slqb_cache_busy(s) ? s->order : s->min_order;
}

/* Objects in a slab of the order @s makes now. */
static inline unsigned int slqb_new_objects(const struct kmem_cache *s)
{
	return slqb_cache_busy(s) ? s->objects : s->min_objects;
}

int slqb_set_tunables(struct kmem_cache *s, long hiwater, long freebatch);

/* What a cache holds, all its lists told: see slqb_count(). */
struct slqb_counts {
	unsigned long slabs;	/* slabs (pages or compound pages) */
	unsigned long pages;	/* base pages of those */
	unsigned long objects;	/* objects of those slabs */
	unsigned long free;	/* of those, free: queued or in a slab */
};

void slqb_count(struct kmem_cache *s, struct slqb_counts *n);

/* The slabs of @s, and (each pointer may be NULL) its free and all objects. */
static inline unsigned long slqb_count_slabs(struct kmem_cache *s,
					     unsigned long *nr_free,
					     unsigned long *nr_objects)
{
	struct slqb_counts n;

	slqb_count(s, &n);
	if (nr_free)
		*nr_free = n.free;
	if (nr_objects)
		*nr_objects = n.objects;
	return n.slabs;
}

extern const char * const slqb_stat_names[NR_SLQB_STAT_ITEMS];

#if IS_ENABLED(CONFIG_SLQB_KUNIT_TEST)
/* New pages of this cache are taken as from the reserves, for the tests. */
extern struct kmem_cache *slqb_kunit_reserve_cache;
/*
 * New pages of this cache for a CPU's own list come from this node, as a
 * fallback page would when the local node is short, for the tests.
 */
extern struct kmem_cache *slqb_kunit_foreign_cache;
extern int slqb_kunit_foreign_node;
/* The CPUs that ran a drain of this cache (kmem_cache_shrink(), shrinker). */
extern struct kmem_cache *slqb_kunit_drain_cache;
extern struct cpumask slqb_kunit_drained;
unsigned long slqb_kunit_shrink_scan(unsigned long nr_to_scan);
unsigned long slqb_kunit_shrink_count(void);
#endif

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

/*
 * Debugging (mm/slqb_debug.c): only caches with one of these flags, and
 * only once slqb_debug= or such a cache has turned the static key on,
 * leave the fast paths for the checks.
 */
#ifdef CONFIG_SLQB_DEBUG
#define SLQB_DEBUG_FLAGS	(SLAB_CONSISTENCY_CHECKS | SLAB_RED_ZONE | \
				 SLAB_POISON | SLAB_STORE_USER)

/* slqb_debug_enabled is declared in mm/slab.h, for common code. */
static __always_inline bool slqb_debug(const struct kmem_cache *s)
{
	return static_branch_maybe(CONFIG_SLQB_DEBUG_ON, &slqb_debug_enabled) &&
	       (s->flags & SLQB_DEBUG_FLAGS);
}

slab_flags_t slqb_debug_flags(const char *name);
bool slqb_debug_names(const char *name);
unsigned int slqb_debug_layout(struct kmem_cache *s, unsigned int size,
			       bool meta);
void slqb_debug_init_object(struct kmem_cache *s, void *object);
bool slqb_debug_alloc(struct kmem_cache *s, void *object, unsigned long addr);
bool slqb_debug_free(struct kmem_cache *s, struct slab *slab, void *object,
		     unsigned long addr);
bool slqb_debug_object_live(struct kmem_cache *s, void *object);
void slqb_debug_report_leak(struct kmem_cache *s, void *object);
void slqb_debug_obj_info(struct kmem_obj_info *kpp, struct kmem_cache *s,
			 void *objp);
long slqb_debug_report_count(void);
#else
#define SLQB_DEBUG_FLAGS	0

static __always_inline bool slqb_debug(const struct kmem_cache *s)
{
	return false;
}

static inline slab_flags_t slqb_debug_flags(const char *name)
{
	return 0;
}

static inline bool slqb_debug_names(const char *name)
{
	return false;
}

static inline unsigned int slqb_debug_layout(struct kmem_cache *s,
					     unsigned int size, bool meta)
{
	return size;
}

static inline void slqb_debug_init_object(struct kmem_cache *s, void *object)
{
}

static inline bool slqb_debug_alloc(struct kmem_cache *s, void *object,
				    unsigned long addr)
{
	return true;
}

static inline bool slqb_debug_free(struct kmem_cache *s, struct slab *slab,
				   void *object, unsigned long addr)
{
	return true;
}

static inline bool slqb_debug_object_live(struct kmem_cache *s, void *object)
{
	return false;
}

static inline void slqb_debug_report_leak(struct kmem_cache *s, void *object)
{
}

static inline void slqb_debug_obj_info(struct kmem_obj_info *kpp,
				       struct kmem_cache *s, void *objp)
{
}
#endif

#endif /* MM_SLQB_H */
