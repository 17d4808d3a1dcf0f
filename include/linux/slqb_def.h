/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _LINUX_SLQB_DEF_H
#define _LINUX_SLQB_DEF_H

/*
 * SLQB: a slab allocator with per-CPU object queues.
 *
 * The data structures are described at the top of mm/slqb.c, together
 * with the rules for which lock (or which CPU, with interrupts off)
 * guards each field.
 */
#include <linux/kasan.h>
#include <linux/irq_work.h>
#include <linux/kfence.h>
#include <linux/kobject.h>
#include <linux/reciprocal_div.h>
#include <linux/spinlock_types.h>
#include <linux/types.h>

/*
 * Per-cache statistics (CONFIG_SLQB_STATS) count the events of
 * /proc/vmstat's slqb_* counters, cache by cache, in the same order:
 * SLQB_STAT_x is SLQB_x - SLQB_ALLOC (checked at boot by mm/slqb.c).
 */
enum slqb_stat_item {
	SLQB_STAT_ALLOC,
	SLQB_STAT_ALLOC_FROM_PAGE,
	SLQB_STAT_OFFNODE_ALLOC,
	SLQB_STAT_FREE,
	SLQB_STAT_REMOTE_FREE,
	SLQB_STAT_OFFNODE_FREE,
	SLQB_STAT_FLUSH_REMOTE_FREE_CACHE,
	SLQB_STAT_CLAIM_REMOTE_FREE_CACHE,
	SLQB_STAT_FLUSH_FREE_LIST,
	SLQB_STAT_PAGE_FREE_PARTIAL,
	SLQB_STAT_PAGE_FREE_EMPTY,
	SLQB_STAT_PAGE_ALLOC_PARTIAL,
	SLQB_STAT_PAGE_ALLOC_FULL,
	SLQB_STAT_PAGE_ALLOC,
	SLQB_STAT_PAGE_FREE,
	NR_SLQB_STAT_ITEMS
};

/*
 * A singly linked list of free objects, linked through their free
 * pointers. The tail lets a whole list be spliced onto another in O(1).
 */
struct kmlist {
	unsigned long nr;
	void *head;
	void *tail;
};

/*
 * The slab pages owned by one list: a CPU's (see struct kmem_cache_cpu)
 * or a node's (struct kmem_cache_node in mm/slab.h). A page that still
 * has free objects of its own is on @partial; a page whose objects are
 * all handed out is on no list, but still points back to its owner
 * through slab->list. Every slab page has exactly one owner.
 */
struct kmem_cache_list {
	struct list_head partial;
	unsigned long nr_partial;	/* pages on @partial */
	unsigned long nr_slabs;		/* all pages owned */
	unsigned long nr_pages;		/* base pages of those (of two orders) */
	unsigned long nr_objects;	/* objects of those pages, all told */
	unsigned long nr_free;		/* free objects on the pages' freelists */
	int cpu;			/* owning CPU, or -1 for a node list */
	struct list_head full;		/* full pages, of debug caches only */
};

/* Objects freed by other CPUs into a CPU's pages, waiting for their owner. */
struct kmem_cache_remote_free {
	spinlock_t lock;		/* guards all of this, see mm/slqb.c */
	/* Set once the queue is long enough to be worth the owner's while. */
	int check;
	/* The owning CPU is offline: freers return objects to pages. */
	bool dead;
	struct kmlist list;
	/* Queued on the owner when @list passes hiwater, see mm/slqb.c. */
	struct irq_work claim_work;
	struct kmem_cache *cache;
} ____cacheline_aligned_in_smp;

/*
 * Per-CPU state of a cache. The first part is touched only by its CPU,
 * with interrupts disabled; @remote_free sits on its own cache line, the
 * one other CPUs write to.
 */
struct kmem_cache_cpu {
	struct kmlist freelist;		/* LIFO of free objects of @list's pages */
#ifdef CONFIG_SMP
	struct kmlist rlist;		/* objects freed here, owned elsewhere */
	struct kmem_cache_cpu *rlist_owner;	/* all of one owner's, or NULL */
#endif
	struct kmem_cache_list list;	/* this CPU's pages */
#ifdef CONFIG_SLQB_STATS
	unsigned long stat[NR_SLQB_STAT_ITEMS];	/* this CPU's events */
#endif
#ifdef CONFIG_SMP
	struct kmem_cache_remote_free remote_free;
#endif
};

/*
 * Slab cache management.
 */
struct kmem_cache {
	/* Read on every allocation and free. */
	struct kmem_cache_cpu __percpu *cpu_slab;
	slab_flags_t flags;
	unsigned int size;		/* object stride: object + metadata */
	unsigned int object_size;	/* what the user asked for */
	unsigned int offset;		/* free pointer offset */
	unsigned int hiwater;		/* flush the CPU freelist above this */
	unsigned int freebatch;		/* objects moved per flush or hand-over */
#ifdef CONFIG_SLAB_FREELIST_HARDENED
	unsigned long random;		/* free pointer obfuscation */
#endif

	/* Used when slab pages are allocated and freed. */
	struct reciprocal_value reciprocal_size;
	unsigned int objects;		/* objects per slab of @order */
	unsigned int order;		/* preferred order */
	unsigned int min_objects;	/* objects per slab of @min_order */
	unsigned int min_order;		/* fallback order, fits one object */
	unsigned int grown;		/* objects of min_order slabs made */
	gfp_t allocflags;
	void (*ctor)(void *object);
	unsigned int inuse;		/* offset of the metadata */
	unsigned int align;
#ifdef CONFIG_SLQB_DEBUG
	unsigned int red_end;		/* red zone: object_size to here */
	unsigned int debug_offset;	/* state word and tracks */
#endif
#ifdef CONFIG_SLAB_FREELIST_RANDOM
	unsigned int *random_seq;	/* order of objects in a new slab */
#endif
	unsigned int useroffset;	/* usercopy window */
	unsigned int usersize;
	const char *name;
	int refcount;
	struct list_head list;		/* slab_caches */
#ifdef CONFIG_SLQB_SYSFS
	struct kobject kobj;		/* /sys/kernel/slab/<name> */
#endif
#ifdef CONFIG_KASAN
	struct kasan_cache kasan_info;
#endif
	/*
	 * Per-node lists for off-node allocations and pages from the
	 * emergency reserves, allocated together with the cache (nr_node_ids
	 * of them) so memory stays linear in nodes.
	 * The boot cache of caches gets its own once kmalloc works.
	 */
	struct kmem_cache_node *node[MAX_NUMNODES];
};

#ifdef CONFIG_SLQB_SYSFS
#define SLAB_SUPPORTS_SYSFS
void sysfs_slab_unlink(struct kmem_cache *s);
void sysfs_slab_release(struct kmem_cache *s);
#else
static inline void sysfs_slab_unlink(struct kmem_cache *s)
{
}

static inline void sysfs_slab_release(struct kmem_cache *s)
{
}
#endif

/* Objects in @slab: of the cache's preferred order, or of its fallback. */
static inline unsigned int slqb_slab_objects(const struct kmem_cache *cache,
					     const struct slab *slab)
{
	return slab_order(slab) == cache->order ? cache->objects :
						  cache->min_objects;
}

static inline void *nearest_obj(struct kmem_cache *cache,
				const struct slab *slab, void *x)
{
	unsigned int objects = slqb_slab_objects(cache, slab);
	void *base = slab_address(slab);
	unsigned int idx = (unsigned int)((char *)x - (char *)base) /
			   cache->size;

	if (idx >= objects)
		idx = objects - 1;
	return (char *)base + idx * cache->size;
}

/* Determine object index from a given position. */
static inline unsigned int obj_to_index(const struct kmem_cache *cache,
					const struct slab *slab, void *obj)
{
	if (is_kfence_address(obj))
		return 0;
	return reciprocal_divide(kasan_reset_tag(obj) - slab_address(slab),
				 cache->reciprocal_size);
}

static inline int objs_per_slab(const struct kmem_cache *cache,
				const struct slab *slab)
{
	/* A KFENCE page holds one object, whatever the cache. */
	if (is_kfence_address(slab_address(slab)))
		return 1;
	return slqb_slab_objects(cache, slab);
}

#endif /* _LINUX_SLQB_DEF_H */
