// SPDX-License-Identifier: GPL-2.0
/*
 * SLQB: a slab allocator with per-CPU object queues.
 *
 * Design (after Nick Piggin's 2008 SLQB; this implementation is new):
 *
 * Every CPU has, for every cache, a struct kmem_cache_cpu. It owns a set
 * of slab pages (its "list": partial pages, and full pages that point to
 * it) and keeps a LIFO queue of free objects of those pages, @freelist.
 *
 *   Allocation pops @freelist. When it is empty the CPU claims the
 *   objects other CPUs have freed into its pages (@remote_free), but only
 *   once @remote_free.check says there are enough of them; else it takes
 *   a partial page's whole freelist onto @freelist at once; else it asks
 *   the page allocator for a new page and takes all of its objects.
 *
 *   Free of an object whose page this CPU owns pushes it on @freelist, so
 *   the next allocation gets the cache-hot object back. Above @hiwater
 *   objects, @freebatch of them go back to their pages, and pages that
 *   become wholly free go back to the page allocator.
 *
 *   Free of an object owned by another CPU appends it to @rlist, whoever
 *   the owner. When @rlist holds @freebatch objects it is sorted by owner
 *   and each owner's objects are spliced onto its @remote_free queue
 *   under its lock, one hand-off per owner; once that queue holds
 *   @freebatch objects the freer sets @remote_free.check, and only then
 *   does the owner look at it.
 *
 *   NUMA: a CPU's pages come from its nearest memory node. A request for
 *   another node (kmalloc_node(), __GFP_THISNODE, a mempolicy) is served
 *   from that node's struct kmem_cache_node list, whose pages come from
 *   that node only (but for a reserve page, see "Emergency reserves"
 *   below, which such requests do not take) and whose objects go straight
 *   back to their page when freed, under the node's list_lock: there are
 *   no queues to pin memory there. A __GFP_THISNODE request for the CPU's
 *   own node first takes the head of its freelist, if of that node
 *   (alloc_thisnode_queued()). Ownership goes by page (slab->list),
 *   never by node number, so a CPU on a memoryless node (one without
 *   normal memory, N_NORMAL_MEMORY, as tested at allocation time: none at
 *   all, or only ZONE_MOVABLE's) simply owns pages from another node, and
 *   its frees find their way home like any other. A CPU whose queues and
 *   pages are empty takes objects of its node list's pages (for a CPU on
 *   a memoryless node, those of the node its pages come from), one at a
 *   time, before a new page, so that those pages fill up first.
 *
 *   CPU hotplug: a dead CPU's queues go back to the pages, and its pages
 *   with live objects to their nodes' lists, where others allocate from
 *   them and whence they are freed when empty, whether or not it returns.
 *
 *   Emergency reserves: a page the page allocator gave from its reserves
 *   (pfmemalloc) joins a node list even without NUMA, never a CPU's, as a
 *   CPU's freelist serves any caller: the list the CPU takes objects from,
 *   even if the page is another node's. Only callers entitled to the
 *   reserves take its objects (and look there before asking for another
 *   such page); its objects go back to it when freed, as above.
 *
 *   Memory cgroups: an object is charged when allocated and uncharged
 *   when freed, before it is queued, on whichever CPU frees it; queued
 *   objects are charged to nobody.
 *
 *   Memory hotplug: none of this needs a notifier. Offlining isolates
 *   its range first, and isolation refuses any slab page; pages with no
 *   live object go back at the trim or the shrink (below), after which
 *   offlining can be retried.
 *
 *   Orders: a page is order 0 unless objects are over a quarter page;
 *   a larger preferred order is asked for without reclaim or warning, and
 *   falls back to the smallest order that holds one object (new_slab()).
 *
 * Locking:
 *
 *   kmem_cache_cpu, except @remote_free: only its own CPU, with interrupts
 *   disabled. This covers @freelist, @rlist and the CPU's pages (their
 *   freelists, inuse counts and the partial list), so the fast paths take
 *   no lock, use no atomic instruction and touch no cache line another
 *   CPU writes: this CPU's kmem_cache_cpu and the object itself (and, for
 *   a free, the object's struct page, which free has to read anyway).
 *
 *   @remote_free.lock: the remote queue and @remote_free.check. The owner
 *   reads @check without the lock as a hint, but takes the lock before it
 *   looks at the queue. Once a CPU has died, @remote_free.dead is set and
 *   the same lock also guards that CPU's pages, since freers must then
 *   return objects to the pages themselves. Those pages move to their
 *   nodes' lists (slab_dead_cpu(), hand_over()); slab->list is written
 *   under both locks and read without one by freers, who find either
 *   list and do the right thing with each (free_foreign(), flush_rlist(),
 *   flush_free_list()).
 *
 *   kmem_cache_node.list_lock: the node list's pages.
 *
 *   All these locks are taken with interrupts disabled. The only nesting:
 *   a node's list_lock inside a dead CPU's remote_free.lock, as its pages
 *   move to the node's list. Empty pages are freed after the lock is
 *   dropped and the per-CPU state is consistent again, since freeing a
 *   page may free slab objects (memcg vectors) itself. slab_mutex (and
 *   CPU hotplug's lock above it) is taken only by cache creation and
 *   destruction, the trim worker (trylock), the shrinker (trylock), CPU
 *   hotplug, and the tunables' writers (/proc/slabinfo, sysfs).
 *
 * Memory is given back by the flush above @hiwater, by a per-CPU trim
 * that runs every few seconds and shrinks idle queues, by a shrinker that
 * drains queues a cache at a time under memory pressure, as much as
 * reclaim asks for (all of them on drop_caches), and by
 * kmem_cache_shrink(). A dying CPU's queues are drained by the
 * CPUHP_SLAB_PREPARE teardown.
 *
 * Limits count pages, not only objects (the lesson of 2009, when a drain
 * watermark of 512 objects could pin 2 MB): each queued object may pin a
 * whole page, so every queue is bounded in objects by a number that is
 * itself a bound on pages. @freelist holds at most @hiwater objects,
 * also after claiming a remote queue (whether an allocation, the kick or
 * the trim claims it); @rlist fewer than @freebatch; and a
 * remote queue that grows past @hiwater because its owner does not
 * allocate kicks the owner (an irq_work, so idle CPUs answer too),
 * which claims it and flushes down to @hiwater. A CPU thus pins at most
 * about 2 * @hiwater + @freebatch slabs of a cache beyond those holding
 * live objects (order-0 pages but for objects over a quarter page), and
 * @hiwater is sized from the objects per page (slqb_tunables()): 16
 * objects for large objects, at most 512 for small ones. For small
 * objects that is still many pages if they are scattered, so the
 * periodic trim also counts the pages a freelist pins and flushes all of
 * it when they are many more than its objects would fill. Besides, pages
 * that a flush empties stay with the CPU while its pages' free objects
 * number at most @hiwater (at most @hiwater objects' worth of empty
 * pages), for the allocations that follow a burst of frees; the next
 * trim gives them back. The trim work is deferrable, so an idle CPU may
 * not trim for a long while: what it holds is within the bounds above
 * all the same, and the shrinker drains it when memory is short.
 */

#include <kunit/visibility.h>
#include <linux/cpu.h>
#include <linux/debugobjects.h>
#include <linux/interrupt.h>
#include <linux/irq_work.h>
#include <linux/kasan.h>
#include <linux/kfence.h>
#include <linux/kmemleak.h>
#include <linux/kmsan.h>
#include <linux/memcontrol.h>
#include <linux/mempolicy.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/random.h>
#include <linux/seq_file.h>
#include <linux/shrinker.h>
#include <linux/slab.h>
#include <linux/swap.h>
#include <linux/uaccess.h>
#include <linux/vmstat.h>
#include <linux/workqueue.h>

#include <trace/events/kmem.h>

#include "internal.h"
#include "slab.h"
#include "slqb.h"

/* The cache of caches: static, so that it needs no cache to exist. */
static struct kmem_cache boot_kmem_cache;

static unsigned int slqb_min_order;

static int __init setup_slqb_min_order(char *str)
{
	get_option(&str, (int *)&slqb_min_order);
	slqb_min_order = min_t(unsigned int, slqb_min_order,
			       PAGE_ALLOC_COSTLY_ORDER);
	return 1;
}
__setup("slqb_min_order=", setup_slqb_min_order);

/* The events' names: /proc/vmstat's without "slqb_", sysfs's after "stat_". */
const char * const slqb_stat_names[NR_SLQB_STAT_ITEMS] = {
	[SLQB_STAT_ALLOC]			= "alloc",
	[SLQB_STAT_ALLOC_FROM_PAGE]		= "alloc_from_page",
	[SLQB_STAT_OFFNODE_ALLOC]		= "offnode_alloc",
	[SLQB_STAT_FREE]			= "free",
	[SLQB_STAT_REMOTE_FREE]			= "remote_free",
	[SLQB_STAT_OFFNODE_FREE]		= "offnode_free",
	[SLQB_STAT_FLUSH_REMOTE_FREE_CACHE]	= "flush_remote_free_cache",
	[SLQB_STAT_CLAIM_REMOTE_FREE_CACHE]	= "claim_remote_free_cache",
	[SLQB_STAT_FLUSH_FREE_LIST]		= "flush_free_list",
	[SLQB_STAT_PAGE_FREE_PARTIAL]		= "page_free_partial",
	[SLQB_STAT_PAGE_FREE_EMPTY]		= "page_free_empty",
	[SLQB_STAT_PAGE_ALLOC_PARTIAL]		= "page_alloc_partial",
	[SLQB_STAT_PAGE_ALLOC_FULL]		= "page_alloc_full",
	[SLQB_STAT_PAGE_ALLOC]			= "page_alloc",
	[SLQB_STAT_PAGE_FREE]			= "page_free",
};

/*
 * vmstat's BUILD_BUG_ON catches a missing event name, not two swapped:
 * check at boot that each of SLQB's events, as stat() counts it, has its
 * own name in /proc/vmstat.
 */
static void __init check_event_names(void)
{
#if defined(CONFIG_VM_EVENT_COUNTERS) && defined(CONFIG_PROC_FS)
	int i;

	BUILD_BUG_ON(SLQB_PAGE_FREE - SLQB_ALLOC + 1 != NR_SLQB_STAT_ITEMS);
	for (i = 0; i < NR_SLQB_STAT_ITEMS; i++) {
		const char *name = vm_event_name(SLQB_ALLOC + i);

		WARN(strncmp(name, "slqb_", 5) ||
		     strcmp(name + 5, slqb_stat_names[i]),
		     "SLQB: event %d is \"%s\" in /proc/vmstat, \"slqb_%s\" here\n",
		     i, name, slqb_stat_names[i]);
	}
#endif
}

/*
 * Events: /proc/vmstat's slqb_* counters and, with CONFIG_SLQB_STATS, the
 * cache's own per-CPU counts. Both are per-CPU additions touching no
 * shared cache line. Nearly every event happens with interrupts disabled,
 * where the plain per-CPU operations (__stat()) suffice: on architectures
 * without a single-instruction per-CPU add (asm-generic, UML) the
 * interrupt-safe forms would save and restore interrupts around each one.
 * stat() is for the few places that run with interrupts enabled (a new or
 * freed page, a node list's allocation).
 */
static __always_inline void __stat_add(const struct kmem_cache *s,
				       enum slqb_stat_item si, long nr)
{
	__count_vm_events(SLQB_ALLOC + si, nr);
#ifdef CONFIG_SLQB_STATS
	__this_cpu_add(s->cpu_slab->stat[si], nr);
#endif
}

static __always_inline void __stat(const struct kmem_cache *s,
				   enum slqb_stat_item si)
{
	__stat_add(s, si, 1);
}

static __always_inline void stat(const struct kmem_cache *s,
				 enum slqb_stat_item si)
{
	count_vm_event(SLQB_ALLOC + si);
#ifdef CONFIG_SLQB_STATS
	this_cpu_inc(s->cpu_slab->stat[si]);
#endif
}

/*
 * Free pointers. With SLAB_FREELIST_HARDENED they are stored mixed with a
 * per-cache secret and their own address, so a leaked or overwritten free
 * pointer is of little use to an attacker.
 */
static inline void *freeptr_code(const struct kmem_cache *s, void *ptr,
				 unsigned long ptr_addr)
{
#ifdef CONFIG_SLAB_FREELIST_HARDENED
	return (void *)((unsigned long)ptr ^ s->random ^ swab(ptr_addr));
#else
	return ptr;
#endif
}

static inline void *get_freepointer(const struct kmem_cache *s, void *object)
{
	unsigned long addr = (unsigned long)kasan_reset_tag(object) + s->offset;

	return freeptr_code(s, *(void **)addr, addr);
}

static inline void set_freepointer(const struct kmem_cache *s, void *object,
				   void *fp)
{
	unsigned long addr = (unsigned long)kasan_reset_tag(object) + s->offset;

	*(void **)addr = freeptr_code(s, fp, addr);
}

/* Object queues. Callers guard them as described at the top. */
static inline void kmlist_push(const struct kmem_cache *s, struct kmlist *l,
			       void *object)
{
	set_freepointer(s, object, l->head);
	if (!l->nr)
		l->tail = object;
	l->head = object;
	l->nr++;
}

static inline void *kmlist_pop(const struct kmem_cache *s, struct kmlist *l)
{
	void *object = l->head;

	l->head = get_freepointer(s, object);
	l->nr--;
	return object;
}

/* All of @src, which is left empty. */
static inline struct kmlist kmlist_take(struct kmlist *src)
{
	struct kmlist list = *src;

	src->head = NULL;
	src->tail = NULL;
	src->nr = 0;
	return list;
}

/* Move all of @src to the head of @dst. */
static inline void kmlist_splice(const struct kmem_cache *s, struct kmlist *dst,
				 struct kmlist *src)
{
	if (!src->nr)
		return;
	set_freepointer(s, src->tail, dst->head);
	if (!dst->nr)
		dst->tail = src->tail;
	dst->head = src->head;
	dst->nr += src->nr;
	src->head = NULL;
	src->tail = NULL;
	src->nr = 0;
}

static inline bool slqb_is_node_list(const struct kmem_cache_list *l)
{
	return l->cpu < 0;
}

/*
 * Slab pages.
 */
static void *setup_object(struct kmem_cache *s, void *object)
{
	if (slqb_debug(s))
		slqb_debug_init_object(s, object);
	object = kasan_init_slab_obj(s, object);
	if (unlikely(s->ctor)) {
		kasan_unpoison_object_data(s, object);
		s->ctor(object);
		kasan_poison_object_data(s, object);
	}
	return object;
}

/*
 * With CONFIG_SLAB_FREELIST_RANDOM a new page's objects are threaded in
 * the cache's random order (common code's random_seq), from a random
 * starting point, so that heap layouts are harder to predict.
 */
#ifdef CONFIG_SLAB_FREELIST_RANDOM
static void init_random_seq(struct kmem_cache *s)
{
	if (cache_random_seq_create(s, s->objects, GFP_KERNEL))
		pr_err("SLQB %s: no random freelist order\n", s->name);
}

static unsigned int slab_random_start(struct kmem_cache *s)
{
	return s->random_seq ? get_random_u32_below(s->objects) : 0;
}

/* The index of the @i-th object to thread, from @pos. */
static unsigned int slab_object_index(struct kmem_cache *s, unsigned int pos,
				      unsigned int i)
{
	if (!s->random_seq)
		return i;
	pos += i;
	if (pos >= s->objects)
		pos -= s->objects;
	return s->random_seq[pos];
}
#else
static inline void init_random_seq(struct kmem_cache *s)
{
}

static inline unsigned int slab_random_start(struct kmem_cache *s)
{
	return 0;
}

static inline unsigned int slab_object_index(struct kmem_cache *s,
					     unsigned int pos, unsigned int i)
{
	return i;
}
#endif

#if IS_ENABLED(CONFIG_SLQB_KUNIT_TEST)
struct kmem_cache *slqb_kunit_reserve_cache;
EXPORT_SYMBOL_IF_KUNIT(slqb_kunit_reserve_cache);
struct kmem_cache *slqb_kunit_foreign_cache;
EXPORT_SYMBOL_IF_KUNIT(slqb_kunit_foreign_cache);
int slqb_kunit_foreign_node = NUMA_NO_NODE;
EXPORT_SYMBOL_IF_KUNIT(slqb_kunit_foreign_node);
struct kmem_cache *slqb_kunit_drain_cache;
EXPORT_SYMBOL_IF_KUNIT(slqb_kunit_drain_cache);
struct cpumask slqb_kunit_drained;
EXPORT_SYMBOL_IF_KUNIT(slqb_kunit_drained);
#endif

/*
 * The node a CPU's new page comes from: its own, which the page allocator
 * may fall back from when it is short (the page is then another node's),
 * or, for SLQB's KUnit suite, the node it asks for such a fallback.
 */
static int local_slab_node(struct kmem_cache *s)
{
#if IS_ENABLED(CONFIG_SLQB_KUNIT_TEST)
	if (unlikely(s == READ_ONCE(slqb_kunit_foreign_cache)))
		return READ_ONCE(slqb_kunit_foreign_node);
#endif
	return numa_mem_id();
}

/*
 * The node whose list a CPU takes objects from before it asks for a new
 * page (alloc_node_list()): where its new pages come from. That is its
 * own node, unless the node has no memory a slab page can come from (none
 * at all, or only ZONE_MOVABLE's): the page allocator then gives pages of
 * the nearest node that has, first in the node's zonelist for the zones a
 * slab page may come from. numa_mem_id() says so where the architecture
 * keeps it (CONFIG_HAVE_MEMORYLESS_NODES), but x86 does not, and it is set
 * once at CPU bring-up, not updated by memory hotplug.
 */
static int local_list_node(void)
{
	int node = numa_mem_id();
	struct zoneref *z;

	if (likely(node_state(node, N_NORMAL_MEMORY)))
		return node;
	z = first_zones_zonelist(node_zonelist(node, GFP_KERNEL),
				 gfp_zone(GFP_KERNEL), NULL);
	return z->zone ? zone_to_nid(z->zone) : node;
}

/*
 * Did @folio come from the emergency reserves? SLQB's KUnit suite makes
 * a test cache's pages seem to, for the callers the page allocator would
 * give reserves to.
 */
static bool slab_page_pfmemalloc(struct kmem_cache *s, struct folio *folio,
				 gfp_t flags)
{
	if (page_is_pfmemalloc(folio_page(folio, 0)))
		return true;
#if IS_ENABLED(CONFIG_SLQB_KUNIT_TEST)
	if (unlikely(s == READ_ONCE(slqb_kunit_reserve_cache)))
		return gfp_pfmemalloc_allowed(flags);
#endif
	return false;
}

/*
 * Allocate a slab page and thread its objects on its own freelist. The
 * caller gives it an owner. Called with interrupts as the caller of the
 * allocator had them, so it may sleep if @flags allow.
 *
 * The cache's preferred order, once it is busy, is only tried from what
 * is free: it is an optimisation (fewer trips to the page allocator per
 * object), so it must not reclaim (nor wake kswapd), warn or dip into
 * reserves. When it cannot be had the minimum order, the smallest that
 * holds one object, is asked for with the caller's own flags.
 */
static struct slab *new_slab(struct kmem_cache *s, gfp_t flags, int node)
{
	unsigned int order = s->order, objects = s->objects;
	bool young = order > s->min_order && !slqb_cache_busy(s);
	struct folio *folio = NULL;
	struct slab *slab;
	void *start, *p, *next;
	unsigned int i, pos;

	if (young) {
		order = s->min_order;
		objects = s->min_objects;
	}

	if (unlikely(flags & GFP_SLAB_BUG_MASK))
		flags = kmalloc_fix_flags(flags);
	WARN_ON_ONCE(s->ctor && (flags & __GFP_ZERO));
	flags &= GFP_RECLAIM_MASK | GFP_CONSTRAINT_MASK;
	flags |= s->allocflags;

	if (order > s->min_order) {
		gfp_t opt = (flags & ~(__GFP_RECLAIM | __GFP_HIGH |
				       __GFP_NOFAIL)) |
			    __GFP_NOWARN | __GFP_NORETRY | __GFP_NOMEMALLOC;

		folio = (struct folio *)alloc_pages_node(node, opt, order);
		if (unlikely(!folio)) {
			order = s->min_order;
			objects = s->min_objects;
		}
	}
	if (!folio)
		folio = (struct folio *)alloc_pages_node(node, flags, order);
	if (unlikely(!folio))
		return NULL;
	if (young) {
		/* Racy: a lost update only delays the change of order. */
		WRITE_ONCE(s->grown, data_race(s->grown) + objects);
	}

	slab = folio_slab(folio);
	__folio_set_slab(folio);
	/* The flag must be visible before slab_cache (page->mapping) is. */
	smp_wmb();
	if (slab_page_pfmemalloc(s, folio, flags))
		slab_set_pfmemalloc(slab);
	account_slab(slab, order, s, flags);
	slab->slab_cache = s;
	slab->list = NULL;
	slab->inuse = 0;

	kasan_poison_slab(slab);
	start = slab_address(slab);
	/*
	 * The random order is of the preferred order's objects: a smaller
	 * page takes those of its indices that it has, in the same order.
	 */
	pos = slab_random_start(s);
	p = NULL;
	for (i = 0; i < s->objects; i++) {
		unsigned int idx = slab_object_index(s, pos, i);

		if (idx >= objects)
			continue;
		next = setup_object(s, start + idx * s->size);
		if (p)
			set_freepointer(s, p, next);
		else
			slab->freelist = next;
		p = next;
	}
	set_freepointer(s, p, NULL);

	stat(s, SLQB_STAT_PAGE_ALLOC);
	return slab;
}

static void __free_slab(struct kmem_cache *s, struct slab *slab)
{
	struct folio *folio = slab_folio(slab);
	int order = folio_order(folio);

	__slab_clear_pfmemalloc(slab);
	folio->mapping = NULL;
	/* slab_cache must be gone before the page stops being a slab. */
	smp_wmb();
	__folio_clear_slab(folio);
	/* slab->inuse lives in page->_mapcount. */
	page_mapcount_reset(folio_page(folio, 0));
	/*
	 * Credit the task that is reclaiming, not one that an IPI or an
	 * irq_work (a drain, a claim) happened to interrupt.
	 */
	if (in_task() && current->reclaim_state)
		current->reclaim_state->reclaimed_slab += 1 << order;
	unaccount_slab(slab, order, s);
	__free_pages(folio_page(folio, 0), order);
	stat(s, SLQB_STAT_PAGE_FREE);
}

static void rcu_free_slab(struct rcu_head *h)
{
	struct slab *slab = container_of(h, struct slab, rcu_head);

	__free_slab(slab->slab_cache, slab);
}

static void free_slab(struct kmem_cache *s, struct slab *slab)
{
	if (unlikely(s->flags & SLAB_TYPESAFE_BY_RCU))
		call_rcu(&slab->rcu_head, rcu_free_slab);
	else
		__free_slab(s, slab);
}

/* Free the pages collected on @discard by slab_put(). */
static void discard_slabs(struct kmem_cache *s, struct list_head *discard)
{
	struct slab *slab, *next;

	list_for_each_entry_safe(slab, next, discard, slab_list)
		free_slab(s, slab);
}

/* Make @l the owner of a new page, on none of its lists yet. */
static void slab_own(struct kmem_cache *s, struct kmem_cache_list *l,
		     struct slab *slab)
{
	unsigned int objects = slqb_slab_objects(s, slab);

	slab->list = l;
	l->nr_slabs++;
	l->nr_pages += 1UL << slab_order(slab);
	l->nr_objects += objects;
	l->nr_free += objects;
}

/* Make @l the owner of a new page, on its partial list. */
static void slab_adopt(struct kmem_cache *s, struct kmem_cache_list *l,
		       struct slab *slab)
{
	slab_own(s, l, slab);
	list_add(&slab->slab_list, &l->partial);
	l->nr_partial++;
}

/* Take an object from a page on @l's partial list. */
static void *slab_take(struct kmem_cache *s, struct kmem_cache_list *l,
		       struct slab *slab)
{
	void *object = slab->freelist;

	slab->freelist = get_freepointer(s, object);
	slab->inuse++;
	l->nr_free--;
	if (!slab->freelist) {
		list_del(&slab->slab_list);
		l->nr_partial--;
		/* Debug caches keep full pages in sight, for leak reports. */
		if (slqb_debug(s))
			list_add(&slab->slab_list, &l->full);
		__stat(s, SLQB_STAT_PAGE_ALLOC_FULL);
	} else {
		__stat(s, SLQB_STAT_PAGE_ALLOC_PARTIAL);
	}
	__stat(s, SLQB_STAT_ALLOC_FROM_PAGE);
	return object;
}

/*
 * Refill @c's empty freelist from @slab, a page of @c's: on its partial
 * list if @listed, else a new one on no list yet (slab_own(): not put on
 * the partial list only to be taken off again, at 1 KiB a list update for
 * every four allocations). The page's whole freelist becomes @c's at once
 * (at most @hiwater objects), so the page's bookkeeping is done once for
 * the allocations it serves rather than once for each, and the page is
 * on no partial list after: its objects are now queued like freed ones.
 * A freelist keeps no tail, as it is never spliced onto another list.
 */
static void refill_freelist(struct kmem_cache *s, struct kmem_cache_cpu *c,
			    struct slab *slab, bool listed)
{
	struct kmem_cache_list *l = &c->list;
	unsigned int nr = slqb_slab_objects(s, slab) - slab->inuse;
	/* hiwater may be set anew meanwhile (sysfs): read it once. */
	unsigned int max = READ_ONCE(s->hiwater);
	void *last = slab->freelist;

	c->freelist.head = slab->freelist;
	if (unlikely(nr > max)) {
		/* A page of more than hiwater objects: take hiwater of them. */
		unsigned int i;

		for (i = 1; i < max; i++)
			last = get_freepointer(s, last);
		nr = max;
		slab->freelist = get_freepointer(s, last);
		set_freepointer(s, last, NULL);
		if (!listed) {
			list_add(&slab->slab_list, &l->partial);
			l->nr_partial++;
		}
		__stat(s, SLQB_STAT_PAGE_ALLOC_PARTIAL);
	} else {
		slab->freelist = NULL;
		if (listed) {
			list_del(&slab->slab_list);
			l->nr_partial--;
		}
		/* Debug caches keep full pages in sight, for leak reports. */
		if (slqb_debug(s))
			list_add(&slab->slab_list, &l->full);
		__stat(s, SLQB_STAT_PAGE_ALLOC_FULL);
	}
	c->freelist.tail = NULL;
	c->freelist.nr = nr;
	slab->inuse += nr;
	l->nr_free -= nr;
	__stat_add(s, SLQB_STAT_ALLOC_FROM_PAGE, nr);
}

/*
 * @slab, empty and off @l's lists, leaves @l for @discard, to be freed by
 * the caller once its own state is consistent.
 */
static void slab_drop(struct kmem_cache *s, struct kmem_cache_list *l,
		      struct slab *slab, struct list_head *discard)
{
	unsigned int objects = slqb_slab_objects(s, slab);

	l->nr_slabs--;
	l->nr_pages -= 1UL << slab_order(slab);
	l->nr_objects -= objects;
	l->nr_free -= objects;
	list_add(&slab->slab_list, discard);
	__stat(s, SLQB_STAT_PAGE_FREE_EMPTY);
}

/*
 * Does @l keep a page it just emptied, rather than give it back? A CPU's
 * freelist spills to its pages past @hiwater when a burst of frees
 * outruns its allocations (kmem_cache_free_bulk() after
 * kmem_cache_alloc_bulk(), a consumer's frees after a producer's
 * allocations), and as many allocations tend to follow: given back at
 * once, the same pages would go to the page allocator and come straight
 * back. So a CPU keeps emptied pages while the free objects of all its
 * pages, these included, number at most @hiwater; the periodic trim and
 * every drain give them back (discard_unused()). Node lists, shared by
 * the CPUs of a node, keep none, nor does a dead CPU's list.
 */
static bool slab_keep_empty(struct kmem_cache *s, struct kmem_cache_list *l)
{
	return !slqb_is_node_list(l) && cpu_online(l->cpu) &&
	       l->nr_free <= READ_ONCE(s->hiwater);
}

/*
 * Return @cnt objects of one page, owned by @l, to it: @head, linked
 * through to @tail (one object: both). A page that becomes empty stays at
 * the tail of @l's partial list if slab_keep_empty() says so, else leaves
 * @l and goes on @discard, for the caller to free once its own state is
 * consistent. A bulk free's run of objects of one page costs one update
 * of the page and its list, as one object does.
 */
static void slab_put_run(struct kmem_cache *s, struct kmem_cache_list *l,
			 struct slab *slab, void *head, void *tail,
			 unsigned int cnt, struct list_head *discard)
{
	void *prior = slab->freelist;

	set_freepointer(s, tail, prior);
	slab->freelist = head;
	slab->inuse -= cnt;
	l->nr_free += cnt;
	if (!slab->inuse) {
		if (prior || slqb_debug(s))
			list_del(&slab->slab_list);
		if (prior)
			l->nr_partial--;
		if (!slab_keep_empty(s, l)) {
			slab_drop(s, l, slab, discard);
			/* The last object emptied the page: the rest did not. */
			__stat_add(s, SLQB_STAT_PAGE_FREE_PARTIAL, cnt - 1);
			return;
		}
		/*
		 * Last on the partial list: refills take the pages in use
		 * first, and the trim finds kept pages there.
		 */
		list_add_tail(&slab->slab_list, &l->partial);
		l->nr_partial++;
		__stat_add(s, SLQB_STAT_PAGE_FREE_PARTIAL, cnt);
		return;
	}
	if (!prior) {
		if (slqb_debug(s))
			list_del(&slab->slab_list);
		list_add(&slab->slab_list, &l->partial);
		l->nr_partial++;
	}
	__stat_add(s, SLQB_STAT_PAGE_FREE_PARTIAL, cnt);
}

/* Return an object to its page, owned by @l, as slab_put_run() does. */
static inline void slab_put(struct kmem_cache *s, struct kmem_cache_list *l,
			    struct slab *slab, void *object,
			    struct list_head *discard)
{
	slab_put_run(s, l, slab, object, object, 1, discard);
}

/*
 * Return a run of objects (as for slab_put_run()) to their page, which is
 * on a node list (pages never leave one). Interrupts are disabled.
 */
static void node_put_run(struct kmem_cache *s, struct slab *slab,
			 void *head, void *tail, unsigned int cnt,
			 struct list_head *discard)
{
	struct kmem_cache_list *l = READ_ONCE(slab->list);
	struct kmem_cache_node *n = container_of(l, struct kmem_cache_node,
						 list);

	spin_lock(&n->list_lock);
	slab_put_run(s, l, slab, head, tail, cnt, discard);
	spin_unlock(&n->list_lock);
}

static inline void node_put(struct kmem_cache *s, struct slab *slab,
			    void *object, struct list_head *discard)
{
	node_put_run(s, slab, object, object, 1, discard);
}

#ifdef CONFIG_SMP
/*
 * @slab, of a dead CPU's list @l, moves to its node's list @n: the CPU is
 * not there to allocate from it, so anyone may now, and frees return its
 * objects under @n's lock (see slab_dead_cpu()). The dead CPU's
 * remote_free.lock and @n's list_lock are held.
 */
static void slab_to_node(struct kmem_cache *s, struct kmem_cache_list *l,
			 struct kmem_cache_node *n, struct slab *slab)
{
	unsigned int objects = slqb_slab_objects(s, slab);
	unsigned int free = objects - slab->inuse;

	/* Partial pages are on @partial, full ones of debug caches on @full. */
	if (slab->freelist || slqb_debug(s))
		list_del(&slab->slab_list);
	if (slab->freelist)
		l->nr_partial--;
	l->nr_slabs--;
	l->nr_pages -= 1UL << slab_order(slab);
	l->nr_objects -= objects;
	l->nr_free -= free;

	n->list.nr_slabs++;
	n->list.nr_pages += 1UL << slab_order(slab);
	n->list.nr_objects += objects;
	n->list.nr_free += free;
	if (slab->freelist) {
		list_add(&slab->slab_list, &n->list.partial);
		n->list.nr_partial++;
	} else if (slqb_debug(s)) {
		list_add(&slab->slab_list, &n->list.full);
	}
	/* Freers read it without a lock: see free_foreign(). */
	WRITE_ONCE(slab->list, &n->list);
}
#endif

/* Does @object lie in the page at @base, of @bytes? */
static inline bool in_page(unsigned long base, size_t bytes,
			   const void *object)
{
	return (unsigned long)kasan_reset_tag(object) - base < bytes;
}

/*
 * Cut from the head of @l the objects, at most @max, that lie in @slab,
 * the page of the head object: they stay linked, @run->head to
 * @run->tail.
 */
static void kmlist_cut_run(const struct kmem_cache *s, struct kmlist *l,
			   struct slab *slab, unsigned long max,
			   struct kmlist *run)
{
	unsigned long base = (unsigned long)slab_address(slab);
	size_t bytes = slab_size(slab);
	void *next = get_freepointer(s, l->head);

	max = min_t(unsigned long, max, l->nr);
	run->head = l->head;
	run->tail = l->head;
	run->nr = 1;
	while (run->nr < max && in_page(base, bytes, next)) {
		run->tail = next;
		next = get_freepointer(s, next);
		run->nr++;
	}
	l->head = next;
	l->nr -= run->nr;
}

/*
 * Return up to @nr objects of @c's freelist to their pages, each run of
 * objects of one page at once: objects freed one after another mostly
 * came from one page, one after another. An object whose page went to a
 * node list while this CPU was dead (an object that was on its way here
 * then) goes back to that page on its node.
 */
static void flush_free_list(struct kmem_cache *s, struct kmem_cache_cpu *c,
			    unsigned long nr, struct list_head *discard)
{
	if (!c->freelist.nr)
		return;
	while (nr && c->freelist.nr) {
		struct slab *slab = virt_to_slab(c->freelist.head);
		struct kmlist run;

		kmlist_cut_run(s, &c->freelist, slab, nr, &run);
		nr -= run.nr;
		if (likely(slab->list == &c->list))
			slab_put_run(s, &c->list, slab, run.head, run.tail,
				     run.nr, discard);
		else
			node_put_run(s, slab, run.head, run.tail, run.nr,
				     discard);
	}
	__stat(s, SLQB_STAT_FLUSH_FREE_LIST);
}

/*
 * Remote frees.
 */
#ifdef CONFIG_SMP
static void claim_remote_free(struct kmem_cache *s, struct kmem_cache_cpu *c);

/*
 * A CPU's remote queue grew past hiwater while it did not allocate: an
 * irq_work on that CPU claims the queue and returns what is above
 * hiwater to the pages. An irq_work, not a work item: it may be queued
 * from any context that frees (with any lock held, even the workqueue's
 * or the scheduler's), it needs no lock, and it runs even on an idle CPU.
 * It runs with interrupts disabled on its CPU, so it never interrupts
 * that CPU's own use of its queues.
 */
static void claim_irq_work(struct irq_work *work)
{
	struct kmem_cache_remote_free *rf =
		container_of(work, struct kmem_cache_remote_free, claim_work);
	struct kmem_cache_cpu *c =
		container_of(rf, struct kmem_cache_cpu, remote_free);
	struct kmem_cache *s = rf->cache;
	LIST_HEAD(discard);

	if (WARN_ON_ONCE(c != this_cpu_ptr(s->cpu_slab)))
		return;
	claim_remote_free(s, c);
	if (c->freelist.nr > s->hiwater)
		flush_free_list(s, c, c->freelist.nr - s->hiwater, &discard);
	discard_slabs(s, &discard);
}

static void kick_owner(struct kmem_cache_cpu *owner)
{
	if (cpu_online(owner->list.cpu))
		irq_work_queue_on(&owner->remote_free.claim_work,
				  owner->list.cpu);
}

/* Hand @objects, all of @owner's pages, to @owner: @objects ends empty. */
static void hand_over(struct kmem_cache *s, struct kmem_cache_cpu *owner,
		      struct kmlist *objects, struct list_head *discard)
{
	struct kmem_cache_remote_free *rf = &owner->remote_free;
	bool kick = false;

	spin_lock(&rf->lock);
	if (unlikely(rf->dead)) {
		/*
		 * Nobody will claim them: back to the pages, which go to their
		 * node's list if they have not yet (slab_dead_cpu()).
		 */
		while (objects->nr) {
			void *object = kmlist_pop(s, objects);
			struct slab *slab = virt_to_slab(object);
			struct kmem_cache_node *n = s->node[slab_nid(slab)];

			if (unlikely(!n)) {
				slab_put(s, &owner->list, slab, object, discard);
				continue;
			}
			spin_lock(&n->list_lock);
			if (slab->list == &owner->list)
				slab_to_node(s, &owner->list, n, slab);
			slab_put(s, &n->list, slab, object, discard);
			spin_unlock(&n->list_lock);
		}
	} else {
		kmlist_splice(s, &rf->list, objects);
		if (rf->list.nr >= s->freebatch && !rf->check)
			WRITE_ONCE(rf->check, 1);
		/*
		 * An owner that does not allocate never looks: past hiwater
		 * objects (each may pin a page) it is asked to, now.
		 */
		kick = rf->list.nr > s->hiwater;
	}
	spin_unlock(&rf->lock);
	if (kick)
		kick_owner(owner);
	__stat(s, SLQB_STAT_FLUSH_REMOTE_FREE_CACHE);
}

/*
 * Hand @c's rlist to the owners of its objects: one locked splice for
 * each owner, however the frees of different owners were interleaved
 * (one CPU freeing what many produced, as a network receive path does).
 * The rlist is walked once for each owner it holds objects of, at most
 * @freebatch objects each time. Interrupts are disabled.
 */
static void flush_rlist(struct kmem_cache *s, struct kmem_cache_cpu *c)
{
	struct kmlist rest = kmlist_take(&c->rlist);
	struct kmem_cache_cpu *owner = c->rlist_owner;
	LIST_HEAD(discard);

	c->rlist_owner = NULL;
	/* All of one owner, the common case: no sorting. */
	if (owner)
		hand_over(s, owner, &rest, &discard);
	while (rest.nr) {
		struct kmlist mine = { }, others = { };

		owner = NULL;
		while (rest.nr) {
			void *object = kmlist_pop(s, &rest);
			struct slab *slab = virt_to_slab(object);
			struct kmem_cache_list *l = READ_ONCE(slab->list);
			struct kmem_cache_cpu *o;

			/* Its page went to a node list since (a dead owner's). */
			if (unlikely(slqb_is_node_list(l))) {
				node_put(s, slab, object, &discard);
				continue;
			}
			o = container_of(l, struct kmem_cache_cpu, list);
			if (!owner)
				owner = o;
			kmlist_push(s, o == owner ? &mine : &others, object);
		}
		if (owner)
			hand_over(s, owner, &mine, &discard);
		rest = others;
	}
	discard_slabs(s, &discard);
}

/* Move the objects others freed into @c's pages onto @c's freelist. */
static void claim_remote_free(struct kmem_cache *s, struct kmem_cache_cpu *c)
{
	struct kmem_cache_remote_free *rf = &c->remote_free;
	struct kmlist list;

	/* Look at the queue only under its lock. */
	spin_lock(&rf->lock);
	list = kmlist_take(&rf->list);
	WRITE_ONCE(rf->check, 0);
	spin_unlock(&rf->lock);

	if (list.nr) {
		kmlist_splice(s, &c->freelist, &list);
		__stat(s, SLQB_STAT_CLAIM_REMOTE_FREE_CACHE);
	}
}

static void free_to_rlist(struct kmem_cache *s, struct kmem_cache_cpu *c,
			  struct kmem_cache_cpu *owner, void *object)
{
	/* The rlist's one owner, or NULL once it holds several owners'. */
	if (!c->rlist.nr)
		c->rlist_owner = owner;
	else if (c->rlist_owner != owner)
		c->rlist_owner = NULL;
	kmlist_push(s, &c->rlist, object);
	__stat(s, SLQB_STAT_REMOTE_FREE);
	if (c->rlist.nr >= s->freebatch)
		flush_rlist(s, c);
}
#else
static inline void flush_rlist(struct kmem_cache *s, struct kmem_cache_cpu *c)
{
}

static inline void claim_remote_free(struct kmem_cache *s,
				     struct kmem_cache_cpu *c)
{
}
#endif

static inline bool remote_free_pending(struct kmem_cache_cpu *c)
{
#ifdef CONFIG_SMP
	return READ_ONCE(c->remote_free.check);
#else
	return false;
#endif
}

/*
 * Does @c's freelist pin many more pages than its objects would fill?
 * Consecutive objects of one page count once, so this overestimates the
 * pages pinned, which errs on the side of giving memory back.
 */
static bool freelist_scattered(struct kmem_cache *s, struct kmem_cache_cpu *c)
{
	unsigned long packed = DIV_ROUND_UP(c->freelist.nr * s->size,
					    PAGE_SIZE << s->order);
	unsigned long pages = 0;
	struct slab *prev = NULL;
	void *object;

	for (object = c->freelist.head; object;
	     object = get_freepointer(s, object)) {
		struct slab *slab = virt_to_slab(object);

		if (slab != prev)
			pages++;
		prev = slab;
	}
	return pages > 4 * packed + 8;
}

/* @slab, empty on @l's partial list, leaves for @discard. */
static void partial_drop(struct kmem_cache *s, struct kmem_cache_list *l,
			 struct slab *slab, struct list_head *discard)
{
	list_del(&slab->slab_list);
	l->nr_partial--;
	slab_drop(s, l, slab, discard);
}

/*
 * Pages of @c's list that nothing uses: those kept after a flush emptied
 * them (slab_keep_empty()), and a new page alloc_local() adopts unused
 * when an interrupt or a migration refilled the freelist while the page
 * was being made. They wait on the partial list for the freelist to run
 * dry, and a drain gives them back. Interrupts are disabled.
 */
static void discard_unused(struct kmem_cache *s, struct kmem_cache_cpu *c,
			   struct list_head *discard)
{
	struct kmem_cache_list *l = &c->list;
	struct slab *slab, *next;

	list_for_each_entry_safe(slab, next, &l->partial, slab_list)
		if (!slab->inuse)
			partial_drop(s, l, slab, discard);
}

/*
 * The kept pages alone, found at the tail of @c's partial list without
 * walking the pages in use (the trim's share of discard_unused()).
 * Interrupts are disabled.
 */
static void discard_kept(struct kmem_cache *s, struct kmem_cache_cpu *c,
			 struct list_head *discard)
{
	struct kmem_cache_list *l = &c->list;

	while (l->nr_partial) {
		struct slab *slab = list_last_entry(&l->partial, struct slab,
						    slab_list);

		if (slab->inuse)
			break;
		partial_drop(s, l, slab, discard);
	}
}

/*
 * Give back what @c holds: its remote frees, its rlist, and either all of
 * its freelist and its unused pages (@all) or one batch of the freelist
 * (more if the claim took it past @hiwater), or all of it if its objects
 * are scattered over many pages. Interrupts are disabled.
 */
static void trim_cpu(struct kmem_cache *s, struct kmem_cache_cpu *c, bool all,
		     struct list_head *discard)
{
	/* Both may be set anew meanwhile (sysfs): read them once. */
	unsigned long nr = READ_ONCE(s->freebatch);
	unsigned long hiwater = READ_ONCE(s->hiwater);

#ifdef CONFIG_SMP
	if (c->rlist.nr)
		flush_rlist(s, c);
	/* A hint only: claim_remote_free() reads the queue under its lock. */
	if (READ_ONCE(c->remote_free.list.nr))
		claim_remote_free(s, c);
#endif
	if (all) {
		flush_free_list(s, c, c->freelist.nr, discard);
		discard_unused(s, c, discard);
		return;
	}
	if (c->freelist.nr > nr && freelist_scattered(s, c))
		nr = c->freelist.nr;
	else if (c->freelist.nr > hiwater)
		nr += c->freelist.nr - hiwater;
	flush_free_list(s, c, nr, discard);
	/* Pages kept for allocations that did not come (slab_keep_empty()). */
	discard_kept(s, c, discard);
}

/*
 * Allocation.
 */

/*
 * Take an object from a node list's pages for a caller that asked for
 * @node, or for none (NUMA_NO_NODE: a CPU's local allocation). Only a
 * caller entitled to the emergency reserves (gfp_pfmemalloc_allowed())
 * gets one of a reserve page's, and, if it asked for a node, only of a
 * reserve page of that node: a reserve page may sit on the list of
 * another node than its own (alloc_pfmemalloc()). The node's list_lock is
 * held.
 */
static void *node_list_take(struct kmem_cache *s, struct kmem_cache_list *l,
			    int node, gfp_t gfpflags)
{
	bool reserves = gfp_pfmemalloc_allowed(gfpflags);
	struct slab *slab;

	list_for_each_entry(slab, &l->partial, slab_list) {
		if (unlikely(slab_test_pfmemalloc(slab)) &&
		    (!reserves ||
		     (node != NUMA_NO_NODE && slab_nid(slab) != node)))
			continue;
		return slab_take(s, l, slab);
	}
	return NULL;
}

/*
 * Pages from the emergency reserves (pfmemalloc) belong to node lists,
 * never to a CPU's: a CPU list's objects reach its LIFO freelist, which
 * serves any caller, and the reserves are for callers that free memory
 * (swap over the network depends on them). An object of such a page is
 * freed to its page, under the node's lock (free_foreign()).
 *
 * A new page from the reserves gives the entitled caller one object and
 * joins the node list that this CPU takes objects from (alloc_node_list()),
 * so that the next entitled allocation here finds it before it takes
 * another reserve page. That is the page's own node's list unless the
 * page allocator gave the page from another node, this one being short of
 * memory; a reserve page is then the only page of a node list that is not
 * of its node, and a caller that asks for a node does not get its objects
 * (node_list_take()). It is freed as soon as it is empty. Interrupts are
 * disabled.
 */
static void *alloc_pfmemalloc(struct kmem_cache *s, struct slab *slab)
{
	struct kmem_cache_node *n = s->node[local_list_node()];
	void *object;

	/* Only the boot cache, before kmem_cache_init() is done. */
	if (unlikely(!n))
		return NULL;
	spin_lock(&n->list_lock);
	slab_adopt(s, &n->list, slab);
	object = slab_take(s, &n->list, slab);
	spin_unlock(&n->list_lock);
	return object;
}

/*
 * With nothing queued, a CPU takes an object of its node list's pages, if
 * it has any, before it asks for a new page: pages a dead CPU left there
 * and off-node allocations' pages fill up before new ones come. A caller
 * entitled to the reserves may take a reserve page's objects, and so
 * looks there before another page from the reserves. The object is the
 * caller's, not queued: its page stays the node's. Interrupts are
 * disabled.
 */
static void *alloc_node_list(struct kmem_cache *s, gfp_t gfpflags)
{
	struct kmem_cache_node *n = s->node[local_list_node()];
	void *object;

	/*
	 * A hint: the list is read under its lock. It counts reserve pages
	 * too, which a caller not entitled to them looks at in vain: they
	 * are few and short-lived, being freed as soon as they are empty.
	 */
	if (!n || !READ_ONCE(n->list.nr_partial))
		return NULL;
	spin_lock(&n->list_lock);
	object = node_list_take(s, &n->list, NUMA_NO_NODE, gfpflags);
	spin_unlock(&n->list_lock);
	/* Its free is counted as an off-node free: count it alike. */
	if (object)
		__stat(s, SLQB_STAT_OFFNODE_ALLOC);
	return object;
}

/* The fast path: the most recently freed object of this CPU, or NULL. */
static __always_inline void *freelist_pop(struct kmem_cache *s,
					  struct kmem_cache_cpu *c)
{
	void *object = c->freelist.head;

	if (likely(object)) {
		c->freelist.head = get_freepointer(s, object);
		c->freelist.nr--;
		__stat(s, SLQB_STAT_ALLOC);
	}
	return object;
}

#ifdef CONFIG_NUMA
static void *alloc_local(struct kmem_cache *s, gfp_t gfpflags, bool irqs_on);

/*
 * A __GFP_THISNODE request for this CPU's own node, @node: the object at
 * the head of the CPU's freelist, if it is of @node, as nearly all are
 * (only pages the page allocator gave from another node are not). The
 * request then costs what a plain allocation does, not the node's lock.
 */
static void *alloc_thisnode_queued(struct kmem_cache *s, int node)
{
	struct kmem_cache_cpu *c;
	unsigned long flags;
	void *object;

	local_irq_save(flags);
	c = this_cpu_ptr(s->cpu_slab);
	object = c->freelist.head;
	if (object && slab_nid(virt_to_slab(object)) == node)
		object = freelist_pop(s, c);
	else
		object = NULL;
	local_irq_restore(flags);
	return object;
}

/*
 * Allocate from @node's list (NUMA_NO_NODE: under __GFP_THISNODE, the
 * CPU's own node), or, for the CPU's own node, from its freelist
 * (alloc_thisnode_queued()). Without __GFP_THISNODE a node that has no
 * pages to give falls back to this CPU's own list.
 */
static void *alloc_node(struct kmem_cache *s, gfp_t gfpflags, int node)
{
	struct kmem_cache_node *n = NULL;
	struct slab *slab;
	unsigned long flags;
	void *object;
	gfp_t pageflags = gfpflags;

	if (node == NUMA_NO_NODE)
		node = numa_mem_id();
	if (node == numa_mem_id()) {
		object = alloc_thisnode_queued(s, node);
		if (object)
			return object;
	}

	/*
	 * A node without normal memory (none, or only ZONE_MOVABLE's) has no
	 * page for a slab: do not ask the page allocator for one there.
	 */
	if (node >= 0 && node < nr_node_ids &&
	    node_state(node, N_NORMAL_MEMORY))
		n = s->node[node];
	if (unlikely(!n))
		goto fallback;

	spin_lock_irqsave(&n->list_lock, flags);
	object = node_list_take(s, &n->list, node, gfpflags);
	spin_unlock_irqrestore(&n->list_lock, flags);
	if (object)
		goto out;

	if (!(gfpflags & __GFP_THISNODE))
		pageflags = (gfpflags | __GFP_THISNODE | __GFP_NOWARN |
			     __GFP_NORETRY) & ~__GFP_NOFAIL;
	slab = new_slab(s, pageflags, node);
	if (!slab)
		goto fallback;

	spin_lock_irqsave(&n->list_lock, flags);
	slab_adopt(s, &n->list, slab);
	object = slab_take(s, &n->list, slab);
	spin_unlock_irqrestore(&n->list_lock, flags);
out:
	stat(s, SLQB_STAT_OFFNODE_ALLOC);
	stat(s, SLQB_STAT_ALLOC);
	return object;

fallback:
	if (gfpflags & __GFP_THISNODE)
		return NULL;
	local_irq_save(flags);
	object = alloc_local(s, gfpflags, !irqs_disabled_flags(flags));
	local_irq_restore(flags);
	return object;
}

#endif

/*
 * The CPU's freelist is empty: claim remote frees, else take from a
 * partial page, else get a new page. Called and returns with interrupts
 * disabled, but enables them to allocate a page if @irqs_on, if the
 * caller had them enabled. The caller's saved flags are not needed here:
 * its fast path need not keep them in memory for this call, and the bulk
 * allocation, whose caller must have interrupts enabled, has none.
 */
static void *alloc_local(struct kmem_cache *s, gfp_t gfpflags, bool irqs_on)
{
	struct kmem_cache_cpu *c = this_cpu_ptr(s->cpu_slab);
	struct slab *slab;
	void *object;

	if (unlikely(remote_free_pending(c))) {
		claim_remote_free(s, c);
		/* Claimed objects obey the watermark like freed ones. */
		if (unlikely(c->freelist.nr > s->hiwater)) {
			LIST_HEAD(discard);

			flush_free_list(s, c, c->freelist.nr - s->hiwater,
					&discard);
			discard_slabs(s, &discard);
		}
	}
	/*
	 * alloc_node()'s fallback comes here without popping, and a freelist
	 * may have been refilled while interrupts were enabled: a refill
	 * must never replace objects already queued.
	 */
	if (c->freelist.nr)
		goto freelist;

	if (c->list.nr_partial) {
		slab = list_first_entry(&c->list.partial, struct slab,
					slab_list);
		refill_freelist(s, c, slab, true);
		goto freelist;
	}

	object = alloc_node_list(s, gfpflags);
	if (object)
		goto out;

	if (irqs_on)
		local_irq_enable();
	slab = new_slab(s, gfpflags, local_slab_node(s));
	local_irq_disable();
	if (unlikely(!slab))
		return NULL;

	if (unlikely(slab_test_pfmemalloc(slab))) {
		object = alloc_pfmemalloc(s, slab);
		if (object)
			goto out;
	}
	/* We may be on another CPU now: the page joins this one's list. */
	c = this_cpu_ptr(s->cpu_slab);
	/* An interrupt may have freed objects here meanwhile: those first. */
	if (c->freelist.nr) {
		slab_adopt(s, &c->list, slab);
		goto freelist;
	}
	slab_own(s, &c->list, slab);
	refill_freelist(s, c, slab, false);
freelist:
	object = kmlist_pop(s, &c->freelist);
out:
	__stat(s, SLQB_STAT_ALLOC);
	return object;
}

/* The freelist was empty. Interrupts are disabled, as for alloc_local(). */
static void *alloc_slow(struct kmem_cache *s, gfp_t gfpflags, bool irqs_on)
{
#ifdef CONFIG_NUMA
	/* Honour the task's mempolicy for the objects it did not free. */
	if (unlikely(current->mempolicy) && !in_interrupt()) {
		int node = mempolicy_slab_node();

		if (node != numa_mem_id()) {
			void *object;

			if (irqs_on)
				local_irq_enable();
			object = alloc_node(s, gfpflags & ~__GFP_THISNODE,
					    node);
			local_irq_disable();
			return object;
		}
	}
#endif
	return alloc_local(s, gfpflags, irqs_on);
}

/* With init_on_free, an object must come back all zeroes. */
static __always_inline void wipe_freepointer(struct kmem_cache *s,
					     void *object)
{
	if (unlikely(slab_want_init_on_free(s)) && object &&
	    s->offset < s->object_size)
		*(void **)(kasan_reset_tag(object) + s->offset) = NULL;
}

/*
 * May the CPU's queues serve a request for @node? Without NUMA they may.
 * With it, for no node in particular or for the CPU's own, but not under
 * __GFP_THISNODE, whose objects must be of that node (or of the CPU's own,
 * for none, as with the page allocator): a CPU's queues may hold objects
 * of another node's pages, where the page allocator fell back.
 * alloc_node() serves those, from the queue when it can.
 */
static __always_inline bool node_is_local(int node, gfp_t gfpflags)
{
	if (!IS_ENABLED(CONFIG_NUMA))
		return true;
	if (unlikely(gfpflags & __GFP_THISNODE))
		return false;
	return node == NUMA_NO_NODE || node == numa_mem_id();
}

/* The free fast path's push: a freelist's tail is never read. */
static __always_inline void freelist_push(struct kmem_cache *s,
					  struct kmem_cache_cpu *c,
					  void *object)
{
	set_freepointer(s, object, c->freelist.head);
	c->freelist.head = object;
	c->freelist.nr++;
}

static __always_inline void *slqb_alloc(struct kmem_cache *s,
					struct list_lru *lru, gfp_t gfpflags,
					int node, size_t orig_size,
					unsigned long addr)
{
	struct obj_cgroup *objcg = NULL;
	unsigned long flags;
	void *object;
	bool init = false;

	s = slab_pre_alloc_hook(s, lru, &objcg, 1, gfpflags);
	if (unlikely(!s))
		return NULL;

	object = kfence_alloc(s, orig_size, gfpflags);
	if (unlikely(object))
		goto out;

redo:
#ifdef CONFIG_NUMA
	if (unlikely(!node_is_local(node, gfpflags))) {
		object = alloc_node(s, gfpflags, node);
		goto init;
	}
#endif
	local_irq_save(flags);
	object = freelist_pop(s, this_cpu_ptr(s->cpu_slab));
	if (unlikely(!object))
		object = alloc_slow(s, gfpflags, !irqs_disabled_flags(flags));
	local_irq_restore(flags);
#ifdef CONFIG_NUMA
init:
#endif
	/* A damaged object is reported and set aside: take another. */
	if (slqb_debug(s) && object && !slqb_debug_alloc(s, object, addr))
		goto redo;
	wipe_freepointer(s, object);
	init = slab_want_init_on_alloc(gfpflags, s);
out:
	slab_post_alloc_hook(s, objcg, gfpflags, 1, &object, init);
	return object;
}

void *kmem_cache_alloc(struct kmem_cache *s, gfp_t gfpflags)
{
	void *ret = slqb_alloc(s, NULL, gfpflags, NUMA_NO_NODE, s->object_size,
			       _RET_IP_);

	trace_kmem_cache_alloc(_RET_IP_, ret, s, gfpflags, NUMA_NO_NODE);
	return ret;
}
EXPORT_SYMBOL(kmem_cache_alloc);

void *kmem_cache_alloc_lru(struct kmem_cache *s, struct list_lru *lru,
			   gfp_t gfpflags)
{
	void *ret = slqb_alloc(s, lru, gfpflags, NUMA_NO_NODE, s->object_size,
			       _RET_IP_);

	trace_kmem_cache_alloc(_RET_IP_, ret, s, gfpflags, NUMA_NO_NODE);
	return ret;
}
EXPORT_SYMBOL(kmem_cache_alloc_lru);

void *kmem_cache_alloc_node(struct kmem_cache *s, gfp_t gfpflags, int node)
{
	void *ret = slqb_alloc(s, NULL, gfpflags, node, s->object_size,
			       _RET_IP_);

	trace_kmem_cache_alloc(_RET_IP_, ret, s, gfpflags, node);
	return ret;
}
EXPORT_SYMBOL(kmem_cache_alloc_node);

void *__kmem_cache_alloc_node(struct kmem_cache *s, gfp_t gfpflags, int node,
			      size_t orig_size, unsigned long caller)
{
	return slqb_alloc(s, NULL, gfpflags, node, orig_size, caller);
}

/*
 * Free.
 */
static void report_double_free(struct kmem_cache *s, void *object)
{
	pr_err("SLQB %s: double free of object 0x%p\n", s->name, object);
	dump_stack();
	add_taint(TAINT_BAD_PAGE, LOCKDEP_NOW_UNRELIABLE);
}

/* An object owned by another list than this CPU's. */
static void free_foreign(struct kmem_cache *s, struct kmem_cache_cpu *c,
			 struct slab *slab, void *object)
{
	/*
	 * A dead CPU's page may move to its node's list meanwhile: as the
	 * dead CPU's, the object goes to the rlist and on to hand_over(),
	 * which looks again under the dead CPU's lock.
	 */
	struct kmem_cache_list *l = READ_ONCE(slab->list);

	if (slqb_is_node_list(l)) {
		LIST_HEAD(discard);

		node_put(s, slab, object, &discard);
		__stat(s, SLQB_STAT_OFFNODE_FREE);
		discard_slabs(s, &discard);
		return;
	}
#ifdef CONFIG_SMP
	free_to_rlist(s, c, container_of(l, struct kmem_cache_cpu, list),
		      object);
#endif
}

/*
 * Past @hiwater, a CPU's freelist goes back to its pages a batch at a time
 * (more if a bulk free took it further). Interrupts are disabled.
 */
static __always_inline void freelist_check_hiwater(struct kmem_cache *s,
						   struct kmem_cache_cpu *c)
{
	if (unlikely(c->freelist.nr > s->hiwater)) {
		LIST_HEAD(discard);

		flush_free_list(s, c, c->freelist.nr - s->hiwater +
				s->freebatch - 1, &discard);
		discard_slabs(s, &discard);
	}
}

/*
 * Put an object back on @c, this CPU's, without hooks and without looking
 * at @hiwater, with interrupts disabled. A double free caught here (the
 * object heads the freelist) is reported with interrupts still disabled.
 */
static __always_inline void free_to_cpu(struct kmem_cache *s,
					struct kmem_cache_cpu *c,
					struct slab *slab, void *object)
{
	/* A dead CPU's page may be moving to a node list: READ_ONCE. */
	if (likely(READ_ONCE(slab->list) == &c->list)) {
		if (IS_ENABLED(CONFIG_SLAB_FREELIST_HARDENED) &&
		    unlikely(object == c->freelist.head)) {
			report_double_free(s, object);
			return;
		}
		freelist_push(s, c, object);
	} else {
		free_foreign(s, c, slab, object);
	}
}

/* Put an object back, without hooks, with interrupts disabled. */
static __always_inline void __do_slab_free(struct kmem_cache *s,
					   struct slab *slab, void *object)
{
	struct kmem_cache_cpu *c = this_cpu_ptr(s->cpu_slab);

	__stat(s, SLQB_STAT_FREE);
	free_to_cpu(s, c, slab, object);
	freelist_check_hiwater(s, c);
}

/* Put an object back, without hooks. Also KASAN's quarantine exit. */
static __always_inline void do_slab_free(struct kmem_cache *s,
					 struct slab *slab, void *object)
{
	unsigned long flags;

	local_irq_save(flags);
	__do_slab_free(s, slab, object);
	local_irq_restore(flags);
}

/* The hooks every freed object passes. True: do not free it now. */
static __always_inline bool slab_free_hook(struct kmem_cache *s, void *x,
					   bool init)
{
	kmemleak_free_recursive(x, s->flags);
	kmsan_slab_free(s, x);
	debug_check_no_locks_freed(x, s->object_size);
	if (!(s->flags & SLAB_DEBUG_OBJECTS))
		debug_check_no_obj_freed(x, s->object_size);
	/* Racy use after free, if KCSAN is watching. */
	if (!(s->flags & SLAB_TYPESAFE_BY_RCU))
		__kcsan_check_access(x, s->object_size,
				     KCSAN_ACCESS_WRITE | KCSAN_ACCESS_ASSERT);
	/* Wiping and KASAN go together: KASAN may do the wiping itself. */
	if (init) {
		if (!kasan_has_integrated_init())
			memset(kasan_reset_tag(x), 0, s->object_size);
		/* Debug metadata is not the caller's: it stays. */
		if (s->inuse > s->object_size && !slqb_debug(s))
			memset((char *)kasan_reset_tag(x) + s->object_size, 0,
			       s->inuse - s->object_size);
	}
	return kasan_slab_free(s, x, init);
}

/*
 * Everything a free does before the object goes back: memcg, KFENCE,
 * slqb_debug's checks and the hooks. True: put it back now.
 */
static __always_inline bool slqb_free_prepare(struct kmem_cache *s,
					      struct slab *slab, void *object,
					      unsigned long addr)
{
	/*
	 * GCC keeps the hook out of line, as SLQB calls it from several
	 * paths: test its static key here, so that a kernel without kmem
	 * accounting in use makes no call.
	 */
	if (memcg_kmem_enabled())
		memcg_slab_free_hook(s, slab, &object, 1);

	if (unlikely(is_kfence_address(object))) {
		slab_free_hook(s, object, false);
		__kfence_free(object);
		return false;
	}
	/* A bad free is reported and not done. */
	if (slqb_debug(s) && !slqb_debug_free(s, slab, object, addr))
		return false;
	return !slab_free_hook(s, object, slab_want_init_on_free(s));
}

/*
 * The cache to free @x, on @slab (NULL: not a slab page), into when it is
 * freed as @s's: @s, or with CONFIG_SLAB_FREELIST_HARDENED the cache @x
 * really belongs to (with a warning), or NULL for no slab object. That is
 * cache_from_obj(), whose other check (SLAB_CONSISTENCY_CHECKS) needs
 * CONFIG_SLUB_DEBUG, so never applies here; but it looks the slab up
 * again, so it is only called when @slab does not say @s already.
 */
static __always_inline struct kmem_cache *free_cache(struct kmem_cache *s,
						     struct slab *slab,
						     void *x)
{
	if (!IS_ENABLED(CONFIG_SLAB_FREELIST_HARDENED) ||
	    likely(slab && slab->slab_cache == s))
		return s;
	return cache_from_obj(s, x);
}

static __always_inline void slqb_free(struct kmem_cache *s, struct slab *slab,
				      void *object, unsigned long addr)
{
	if (slqb_free_prepare(s, slab, object, addr))
		do_slab_free(s, slab, object);
}

void kmem_cache_free(struct kmem_cache *s, void *x)
{
	struct slab *slab = virt_to_slab(x);

	s = free_cache(s, slab, x);
	if (!s)
		return;
	trace_kmem_cache_free(_RET_IP_, x, s);
	slqb_free(s, slab, x, _RET_IP_);
}
EXPORT_SYMBOL(kmem_cache_free);

/*
 * kfree(), with the @slab it has just found @x on: not looked up again.
 * It is kfree()'s only way in (mm/slab.h), so SLQB has no
 * __kmem_cache_free().
 */
void __kmem_cache_free_slab(struct kmem_cache *s, struct slab *slab, void *x,
			    unsigned long caller)
{
	slqb_free(s, slab, x, caller);
}

#ifdef CONFIG_KASAN_GENERIC
void ___cache_free(struct kmem_cache *cache, void *x, unsigned long addr)
{
	do_slab_free(cache, virt_to_slab(x), x);
}
#endif

/*
 * Bulk interfaces.
 */
/*
 * The hooks run for each object with interrupts enabled, as they would for
 * kmem_cache_free(); the objects to put back now are gathered at the front
 * of @p (as with SLUB's detached freelists, the array is the caller's no
 * more) and go back in interrupts-off sections of up to SLQB_BULK_BATCH
 * objects (kvfree_rcu() frees hundreds at a time). Objects of one cache
 * (kmem_cache_free_bulk() proper) share, in a section, one look at the
 * CPU's queue, one count and one look at @hiwater; kfree_bulk()'s may be
 * of any cache.
 */
#define SLQB_BULK_BATCH	64

/* Do the objects at @a and @b (kasan_reset_tag()'d) share a page? */
static inline bool same_page(unsigned long a, unsigned long b)
{
	return (a & PAGE_MASK) == (b & PAGE_MASK);
}

/* How many objects at the start of @p (1 to @nr) lie in @slab. */
static size_t slab_run(struct slab *slab, void **p, size_t nr)
{
	unsigned long base = (unsigned long)slab_address(slab);
	size_t bytes = slab_size(slab), k;

	for (k = 1; k < nr; k++)
		if (!in_page(base, bytes, p[k]))
			break;
	return k;
}

/*
 * Put back @cnt objects of @slab, of this CPU's @c, with interrupts
 * disabled: pushed onto a list of their own, then spliced onto the
 * freelist, or with @to_page into their page (slab_put_run()), an emptied
 * page going on @to_page. The order and the double frees caught are those
 * of putting them back one at a time: an object heading the freelist or,
 * with @to_page, its page's freelist, the last one put back included.
 */
static void free_run(struct kmem_cache *s, struct kmem_cache_cpu *c,
		     struct slab *slab, void **p, size_t cnt,
		     struct list_head *to_page)
{
	struct kmlist run = { };
	size_t k;

	if (unlikely(READ_ONCE(slab->list) != &c->list)) {
		for (k = 0; k < cnt; k++)
			free_foreign(s, c, slab, p[k]);
		return;
	}
	for (k = 0; k < cnt; k++) {
		void *object = p[k];

		if (IS_ENABLED(CONFIG_SLAB_FREELIST_HARDENED) &&
		    unlikely(object == c->freelist.head || object == run.head ||
			     (to_page && object == slab->freelist))) {
			report_double_free(s, object);
			continue;
		}
		/* Pushed, as one at a time would be: the last freed heads. */
		set_freepointer(s, object, run.head);
		if (!run.nr)
			run.tail = object;
		run.head = object;
		run.nr++;
	}
	if (!run.nr)
		return;
	if (to_page)
		slab_put_run(s, &c->list, slab, run.head, run.tail, run.nr,
			     to_page);
	else
		kmlist_splice(s, &c->freelist, &run);
}

/*
 * Put back @nr objects of @s, of this CPU's @c, interrupts disabled. If
 * they do not all fit under @hiwater, the freelist is filled to a batch
 * below it (where a flush would leave it) and the rest go straight to
 * their pages, where a flush would have taken them at once: each run of
 * objects of one page is linked into it at once, not pushed, popped and
 * linked one by one. One page lookup serves a run.
 */
static void free_run_to_cpu(struct kmem_cache *s, struct kmem_cache_cpu *c,
			    void **p, size_t nr)
{
	/*
	 * hiwater and freebatch may be set anew meanwhile (sysfs), one after
	 * the other: read each once, and never let an old freebatch exceed
	 * a new hiwater.
	 */
	unsigned int hiwater = READ_ONCE(s->hiwater);
	unsigned int keep = hiwater - min(READ_ONCE(s->freebatch), hiwater) + 1;
	size_t room = 0, j, run;
	LIST_HEAD(discard);

	if (c->freelist.nr + nr <= hiwater)
		room = nr;
	else if (c->freelist.nr < keep)
		room = min_t(size_t, keep - c->freelist.nr, nr);
	for (j = 0; j < nr; j += run) {
		struct slab *slab = virt_to_slab(p[j]);
		bool push = j < room;

		run = slab_run(slab, p + j, (push ? room : nr) - j);
		free_run(s, c, slab, p + j, run, push ? NULL : &discard);
	}
	if (room < nr) {
		__stat(s, SLQB_STAT_FLUSH_FREE_LIST);
		discard_slabs(s, &discard);
	}
	/* A freelist above a hiwater lowered meanwhile: flush it too. */
	freelist_check_hiwater(s, c);
}

/*
 * kmem_cache_free_bulk() of a single object @x of @s: kmem_cache_free()'s
 * path (but its tracepoint: the bulk free has none). Out of line: that
 * path inlined into the bulk free costs the gathering of large batches
 * its registers, and cycles per object.
 */
static noinline void free_bulk_one(struct kmem_cache *s, void *x,
				   unsigned long addr)
{
	struct slab *slab = virt_to_slab(x);

	if (unlikely(!slab)) {
		virt_to_cache(x);	/* a warning */
		return;
	}
	s = free_cache(s, slab, x);
	if (s)
		slqb_free(s, slab, x, addr);
}

void kmem_cache_free_bulk(struct kmem_cache *s, size_t size, void **p)
{
	struct kmem_cache *cache = NULL;
	struct kmem_cache_cpu *c;
	struct slab *slab = NULL;
	unsigned long last = 0;
	size_t i, j, end, n = 0;

	/* As for kmem_cache_alloc_bulk(): interrupts are enabled. */
	lockdep_assert_irqs_enabled();

	/*
	 * One object of one cache: kmem_cache_free()'s path, without the
	 * gathering below, which only pays off for more (two objects cost
	 * the same either way, measured).
	 */
	if (s && size == 1) {
		free_bulk_one(s, p[0], _RET_IP_);
		return;
	}

	for (i = 0; i < size; i++) {
		void *object = p[i];
		unsigned long addr = (unsigned long)kasan_reset_tag(object);

		/*
		 * Objects allocated together mostly share a page: the slab
		 * and cache of the last object serve the next one in the
		 * same page, without a lookup in the memory map.
		 */
		if (!slab || !same_page(addr, last)) {
			struct folio *folio = virt_to_folio(object);

			slab = NULL;
			if (unlikely(!folio_test_slab(folio))) {
				/* kfree_bulk(): kmalloc'ed objects of any size. */
				if (!s)
					free_large_kmalloc(folio, object);
				else
					virt_to_cache(object);	/* a warning */
				continue;
			}
			cache = s ? free_cache(s, folio_slab(folio), object) :
				    folio_slab(folio)->slab_cache;
			if (!cache)
				continue;
			slab = folio_slab(folio);
		}
		last = addr;
		if (!slqb_free_prepare(cache, slab, object, _RET_IP_))
			continue;
		if (unlikely(s && cache != s))
			do_slab_free(cache, slab, object);
		else
			p[n++] = object;
	}
	if (!n)
		return;

	slab = NULL;
	for (i = 0; i < n; i = end) {
		/* Interrupts stay off for SLQB_BULK_BATCH objects at most. */
		end = min_t(size_t, n, i + SLQB_BULK_BATCH);
		local_irq_disable();
		if (!s) {
			for (j = i; j < end; j++) {
				unsigned long addr =
					(unsigned long)kasan_reset_tag(p[j]);

				if (!slab || !same_page(addr, last))
					slab = virt_to_slab(p[j]);
				last = addr;
				__do_slab_free(slab->slab_cache, slab, p[j]);
			}
		} else {
			c = this_cpu_ptr(s->cpu_slab);
			__stat_add(s, SLQB_STAT_FREE, end - i);
			free_run_to_cpu(s, c, p + i, end - i);
		}
		local_irq_enable();
	}
}
EXPORT_SYMBOL(kmem_cache_free_bulk);

int kmem_cache_alloc_bulk(struct kmem_cache *s, gfp_t gfpflags, size_t size,
			  void **p)
{
	struct obj_cgroup *objcg = NULL;
	size_t i;

	/* Debug caches check each object on the way out, one at a time. */
	if (slqb_debug(s)) {
		for (i = 0; i < size; i++) {
			p[i] = slqb_alloc(s, NULL, gfpflags, NUMA_NO_NODE,
					  s->object_size, _RET_IP_);
			if (unlikely(!p[i])) {
				kmem_cache_free_bulk(s, i, p);
				return 0;
			}
		}
		return size;
	}

	s = slab_pre_alloc_hook(s, NULL, &objcg, size, gfpflags);
	if (unlikely(!s))
		return 0;

	/*
	 * The caller has interrupts enabled (include/linux/slab.h): no flags
	 * to save (pushf on x86), as SLUB and SLAB do not save them either.
	 */
	lockdep_assert_irqs_enabled();
	local_irq_disable();
	for (i = 0; i < size; i++) {
		void *object = kfence_alloc(s, s->object_size, gfpflags);

		if (unlikely(object))
			goto got;
		object = freelist_pop(s, this_cpu_ptr(s->cpu_slab));
		if (unlikely(!object)) {
			object = alloc_local(s, gfpflags, true);
			if (unlikely(!object))
				goto error;
		}
		wipe_freepointer(s, object);
got:
		p[i] = object;
	}
	local_irq_enable();

	slab_post_alloc_hook(s, objcg, gfpflags, size, p,
			     slab_want_init_on_alloc(gfpflags, s));
	return i;

error:
	local_irq_enable();
	slab_post_alloc_hook(s, objcg, gfpflags, i, p, false);
	kmem_cache_free_bulk(s, i, p);
	return 0;
}
EXPORT_SYMBOL(kmem_cache_alloc_bulk);

/*
 * Draining the queues of every CPU, for shrink, destroy and the shrinker.
 * Two rounds: first every CPU hands its rlist to the owners, then every
 * CPU claims what it was handed and returns it to its pages. In one round
 * a CPU that had already drained could be handed objects afterwards.
 */
static void flush_rlist_this_cpu(void *arg)
{
#ifdef CONFIG_SMP
	struct kmem_cache *s = arg;
	struct kmem_cache_cpu *c = this_cpu_ptr(s->cpu_slab);

	if (c->rlist.nr)
		flush_rlist(s, c);
#endif
}

static void drain_this_cpu(void *arg)
{
	struct kmem_cache *s = arg;
	LIST_HEAD(discard);

#if IS_ENABLED(CONFIG_SLQB_KUNIT_TEST)
	if (unlikely(s == READ_ONCE(slqb_kunit_drain_cache)))
		cpumask_set_cpu(smp_processor_id(), &slqb_kunit_drained);
#endif
	trim_cpu(s, this_cpu_ptr(s->cpu_slab), true, &discard);
	discard_slabs(s, &discard);
}

/*
 * Only CPUs that hold something of @s are interrupted: with many caches
 * (a shrink of each through sysfs) and few busy CPUs, most IPIs would be
 * wasted. The counts are read racily; objects queued after the test are
 * as if queued after the drain.
 */
static bool cpu_has_rlist(int cpu, void *arg)
{
#ifdef CONFIG_SMP
	struct kmem_cache *s = arg;

	return READ_ONCE(per_cpu_ptr(s->cpu_slab, cpu)->rlist.nr);
#else
	return false;
#endif
}

static bool cpu_has_queued(int cpu, void *arg)
{
	struct kmem_cache *s = arg;
	struct kmem_cache_cpu *c = per_cpu_ptr(s->cpu_slab, cpu);

#ifdef CONFIG_SMP
	if (READ_ONCE(c->remote_free.list.nr))
		return true;
#endif
	/* Partial pages: one may be unused (discard_unused()). */
	return READ_ONCE(c->freelist.nr) || READ_ONCE(c->list.nr_partial);
}

static void drain_all_cpus(struct kmem_cache *s)
{
	on_each_cpu_cond(cpu_has_rlist, flush_rlist_this_cpu, s, 1);
	on_each_cpu_cond(cpu_has_queued, drain_this_cpu, s, 1);
}

/*
 * What the shrinker can give back of @s: the objects queued on every CPU,
 * and the empty pages CPUs keep after a flush (slab_keep_empty()), which
 * sit at the tail of their partial lists: a CPU whose last partial page
 * is unused counts one page's objects. An estimate: other CPUs' counts and
 * lists are read racily (a page pointer read so is still a struct page).
 */
static unsigned long shrinkable_objects(struct kmem_cache *s)
{
	unsigned long nr = 0;
	int cpu;

	for_each_online_cpu(cpu) {
		struct kmem_cache_cpu *c = per_cpu_ptr(s->cpu_slab, cpu);
		/* Racy, as above: the owner may be moving its pages. */
		struct list_head *last = data_race(c->list.partial.prev);

		nr += READ_ONCE(c->freelist.nr);
#ifdef CONFIG_SMP
		nr += READ_ONCE(c->rlist.nr) + READ_ONCE(c->remote_free.list.nr);
#endif
		if (last != &c->list.partial) {
			struct slab *slab = list_entry(last, struct slab,
						       slab_list);

			/* A stale page misleads the estimate, nothing else. */
			if (!data_race(slab->inuse))
				nr += s->min_objects;
		}
	}
	return nr;
}

/*
 * Reclaim asks for the count on every pass, and counting reads the queues
 * of every CPU for every cache: remote cache lines by the thousand on a
 * machine of many CPUs. So a count is kept for SLQB_COUNT_INTERVAL and
 * lowered by what scans give back meanwhile; objects queued meanwhile
 * wait that long to be counted (they are few: @hiwater bounds them).
 * slab_mutex guards the three.
 */
#define SLQB_COUNT_INTERVAL	HZ
static unsigned long slqb_shrink_counted;
static unsigned long slqb_shrink_counted_at;
static bool slqb_shrink_count_kept;

static unsigned long __slqb_shrink_count(void)
{
	struct kmem_cache *s;
	unsigned long nr = 0;

	lockdep_assert_held(&slab_mutex);
	if (slqb_shrink_count_kept &&
	    time_before(jiffies, slqb_shrink_counted_at + SLQB_COUNT_INTERVAL))
		return slqb_shrink_counted;
	list_for_each_entry(s, &slab_caches, list)
		nr += shrinkable_objects(s);
	slqb_shrink_counted = nr;
	slqb_shrink_counted_at = jiffies;
	slqb_shrink_count_kept = true;
	return nr;
}

static unsigned long slqb_shrink_count(struct shrinker *shrink,
				       struct shrink_control *sc)
{
	unsigned long nr;

	if (!mutex_trylock(&slab_mutex))
		return 0;
	nr = __slqb_shrink_count();
	mutex_unlock(&slab_mutex);
	return nr ? nr : SHRINK_EMPTY;
}

/* The cache the next scan starts with: its index in slab_caches. */
static unsigned int slqb_shrink_next;

/*
 * Memory is short: caches give back what their CPUs hold, one cache after
 * another, until @nr_to_scan objects have gone back (one cache may give
 * more: *@nr_scanned then says how many). Each cache is drained by its own
 * IPIs, to the CPUs that hold some of it (an idle or isolated CPU with
 * nothing is left alone), so interrupts stay off for one cache's queues at
 * a time. Reclaim asks again and again (drop_caches for all): each scan
 * starts about where the last one stopped (cache creation and destruction
 * shift the index), so that the caches give back in turn, not the first
 * ones each time. Returns the objects given back, 0 if none.
 */
static unsigned long __slqb_shrink_scan(unsigned long nr_to_scan,
					unsigned long *nr_scanned)
{
	unsigned int i, start, nr_caches = 0;
	unsigned long freed = 0;
	struct kmem_cache *s;

	lockdep_assert_held(&slab_mutex);
	list_for_each_entry(s, &slab_caches, list)
		nr_caches++;
	start = slqb_shrink_next < nr_caches ? slqb_shrink_next : 0;
	s = list_first_entry(&slab_caches, struct kmem_cache, list);
	for (i = 0; i < start; i++)
		s = list_next_entry(s, list);

	for (i = 0; i < nr_caches && freed < nr_to_scan; i++) {
		unsigned long nr = shrinkable_objects(s);

		if (nr) {
			drain_all_cpus(s);
			freed += nr;
		}
		s = list_next_entry_circular(s, &slab_caches, list);
	}
	slqb_shrink_next = (start + i) % nr_caches;
	slqb_shrink_counted -= min(freed, slqb_shrink_counted);
	*nr_scanned = max(nr_to_scan, freed);
	return freed;
}

static unsigned long slqb_shrink_scan(struct shrinker *shrink,
				      struct shrink_control *sc)
{
	unsigned long freed;

	if (!mutex_trylock(&slab_mutex))
		return SHRINK_STOP;
	freed = __slqb_shrink_scan(sc->nr_to_scan, &sc->nr_scanned);
	mutex_unlock(&slab_mutex);
	/* A whole round found nothing: this pass of reclaim need not ask on. */
	return freed ? freed : SHRINK_STOP;
}

static struct shrinker slqb_shrinker = {
	.count_objects = slqb_shrink_count,
	.scan_objects = slqb_shrink_scan,
	.seeks = DEFAULT_SEEKS,
};

#if IS_ENABLED(CONFIG_SLQB_KUNIT_TEST)
/*
 * The shrinker's scan, for the tests: as reclaim calls it, but waiting for
 * slab_mutex, which the trim and others hold now and then, rather than
 * giving up.
 */
unsigned long slqb_kunit_shrink_scan(unsigned long nr_to_scan)
{
	unsigned long freed, nr_scanned;

	mutex_lock(&slab_mutex);
	freed = __slqb_shrink_scan(nr_to_scan, &nr_scanned);
	mutex_unlock(&slab_mutex);
	return freed;
}
EXPORT_SYMBOL_IF_KUNIT(slqb_kunit_shrink_scan);

/* The shrinker's count, for SLQB's KUnit suite, waiting for slab_mutex. */
unsigned long slqb_kunit_shrink_count(void)
{
	unsigned long nr;

	mutex_lock(&slab_mutex);
	nr = __slqb_shrink_count();
	mutex_unlock(&slab_mutex);
	return nr;
}
EXPORT_SYMBOL_IF_KUNIT(slqb_kunit_shrink_count);
#endif

/* Every few seconds each CPU gives back a batch of what it holds idle. */
static DEFINE_PER_CPU(struct delayed_work, slqb_trim_work);

static void slqb_trim(struct work_struct *work)
{
	struct kmem_cache *s;

	if (mutex_trylock(&slab_mutex)) {
		list_for_each_entry(s, &slab_caches, list) {
			LIST_HEAD(discard);

			local_irq_disable();
			trim_cpu(s, this_cpu_ptr(s->cpu_slab), false, &discard);
			discard_slabs(s, &discard);
			local_irq_enable();
		}
		mutex_unlock(&slab_mutex);
	}
	schedule_delayed_work_on(smp_processor_id(), to_delayed_work(work),
				 round_jiffies_relative(SLQB_TRIM_INTERVAL));
}

static int slqb_cpu_online(unsigned int cpu)
{
	struct delayed_work *work = per_cpu_ptr(&slqb_trim_work, cpu);

	INIT_DEFERRABLE_WORK(work, slqb_trim);
	schedule_delayed_work_on(cpu, work,
				 round_jiffies_relative(SLQB_TRIM_INTERVAL));
	return 0;
}

static int slqb_cpu_offline(unsigned int cpu)
{
	cancel_delayed_work_sync(per_cpu_ptr(&slqb_trim_work, cpu));
	return 0;
}

#ifdef CONFIG_SMP
/*
 * A dead CPU's pages that hold live objects go to their nodes' lists, so
 * that other CPUs allocate from them (alloc_node_list()) and they go back
 * to the page allocator once empty, even if the CPU never returns. Full
 * pages are on no list but those of debug caches: each goes when an
 * object of it is freed (hand_over()). The dead CPU's remote_free.lock is
 * held.
 */
static void dead_cpu_pages_to_nodes(struct kmem_cache *s,
				    struct kmem_cache_cpu *c)
{
	struct list_head *lists[] = { &c->list.partial, &c->list.full };
	struct slab *slab, *next;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(lists); i++) {
		list_for_each_entry_safe(slab, next, lists[i], slab_list) {
			struct kmem_cache_node *n = s->node[slab_nid(slab)];

			if (unlikely(!n))
				continue;
			spin_lock(&n->list_lock);
			slab_to_node(s, &c->list, n, slab);
			spin_unlock(&n->list_lock);
		}
	}
}

/*
 * CPU hotplug, CPUHP_SLAB_PREPARE. A dead CPU's queues are drained from
 * the CPU that took it down and its pages with live objects go to their
 * nodes' lists; until it returns, its freers put objects of its remaining
 * (full) pages back under remote_free.lock, moving those pages too.
 */
int slab_dead_cpu(unsigned int cpu)
{
	struct kmem_cache *s;

	mutex_lock(&slab_mutex);
	list_for_each_entry(s, &slab_caches, list) {
		struct kmem_cache_cpu *c = per_cpu_ptr(s->cpu_slab, cpu);
		LIST_HEAD(discard);

		local_irq_disable();
		spin_lock(&c->remote_free.lock);
		c->remote_free.dead = true;
		kmlist_splice(s, &c->freelist, &c->remote_free.list);
		WRITE_ONCE(c->remote_free.check, 0);
		flush_free_list(s, c, c->freelist.nr, &discard);
		discard_unused(s, c, &discard);
		dead_cpu_pages_to_nodes(s, c);
		spin_unlock(&c->remote_free.lock);
		if (c->rlist.nr)
			flush_rlist(s, c);
		local_irq_enable();
		discard_slabs(s, &discard);
	}
	mutex_unlock(&slab_mutex);
	return 0;
}

int slab_prepare_cpu(unsigned int cpu)
{
	struct kmem_cache *s;

	mutex_lock(&slab_mutex);
	list_for_each_entry(s, &slab_caches, list) {
		struct kmem_cache_cpu *c = per_cpu_ptr(s->cpu_slab, cpu);

		spin_lock_irq(&c->remote_free.lock);
		c->remote_free.dead = false;
		spin_unlock_irq(&c->remote_free.lock);
	}
	mutex_unlock(&slab_mutex);
	return 0;
}
#endif

/*
 * Cache creation and destruction.
 */

/*
 * The smallest order that holds one object (and at least slqb_min_order):
 * what a slab falls back to when the preferred order cannot be had.
 */
static int slqb_fallback_order(unsigned int size)
{
	unsigned int order = max_t(unsigned int, get_order(size), slqb_min_order);

	return order < MAX_ORDER ? order : -1;
}

/*
 * The smallest order (from slqb_min_order to PAGE_ALLOC_COSTLY_ORDER) that
 * holds @objects objects of @size and wastes little: a quarter of an
 * order-0 page, an eighth of a larger one. -1 if there is none.
 */
static int slqb_order_for(unsigned int size, unsigned int objects)
{
	unsigned int order;

	for (order = slqb_min_order; order <= PAGE_ALLOC_COSTLY_ORDER; order++) {
		unsigned long slab_size = PAGE_SIZE << order;

		if (slab_size < (unsigned long)size * objects)
			continue;
		if ((slab_size % size) * (order ? 8 : 4) <= slab_size)
			return order;
	}
	return -1;
}

/*
 * The preferred order. Objects up to a quarter page get the smallest
 * order that wastes little, order 0 for nearly all: a small cache then
 * costs no more than it holds. Larger objects get an order that holds
 * SLQB_LARGE_OBJECTS of them, or half as many if that order would be
 * costly, and so on: a trip to the page allocator then serves several
 * allocations rather than one or two (measured natively, N allocations
 * of 2 KiB and 4 KiB cost a fifth less with 8 to a slab than with 4).
 * A cache uses it once it is busy (SLQB_BUSY_SLABS), and new_slab() falls
 * back to the minimum order when memory is too fragmented for it.
 */
#define SLQB_LARGE_OBJECTS	8

static int slqb_calculate_order(unsigned int size)
{
	unsigned int objects = SLQB_LARGE_OBJECTS;
	int order = -1;

	if (size > PAGE_SIZE / 4)
		for (; order < 0 && objects > 1; objects /= 2)
			order = slqb_order_for(size, objects);
	if (order < 0)
		order = slqb_order_for(size, 1);
	return order < 0 ? slqb_fallback_order(size) : order;
}

/*
 * Queue lengths: a flush or hand-over moves about two pages' worth of
 * objects (4 to 128), and the freelist holds at most four batches.
 */
static void slqb_tunables(struct kmem_cache *s)
{
	s->freebatch = clamp_t(unsigned int, 2 * PAGE_SIZE / s->size, 4, 128);
	s->hiwater = 4 * s->freebatch;
}

static bool calculate_sizes(struct kmem_cache *s)
{
	unsigned int size = ALIGN(s->object_size, sizeof(void *));
	int order;

	/* Poison would destroy what a ctor or an RCU reader relies on. */
	if (s->ctor || (s->flags & SLAB_TYPESAFE_BY_RCU))
		s->flags &= ~SLAB_POISON;
	size = slqb_debug_layout(s, size, false);

	/*
	 * The free pointer lives inside a free object, away from its edges,
	 * unless the object's contents must survive being free: a ctor's
	 * work, or a reader under SLAB_TYPESAFE_BY_RCU.
	 */
	if (s->ctor || (s->flags & (SLAB_TYPESAFE_BY_RCU | SLAB_POISON))) {
		s->offset = size;
		size += sizeof(void *);
	} else {
		s->offset = ALIGN_DOWN(s->object_size / 2, sizeof(void *));
	}
	size = slqb_debug_layout(s, size, true);
	s->inuse = size;

	kasan_cache_create(s, &size, &s->flags);

	size = ALIGN(size, s->align);
	s->size = size;
	s->reciprocal_size = reciprocal_value(size);

	order = slqb_fallback_order(size);
	if (order < 0)
		return false;
	s->min_order = order;
	s->min_objects = (PAGE_SIZE << order) / size;
	order = max(slqb_calculate_order(size), order);
	s->order = order;
	s->objects = (PAGE_SIZE << order) / size;

	s->allocflags = order ? __GFP_COMP : 0;
	if (s->flags & SLAB_CACHE_DMA)
		s->allocflags |= GFP_DMA;
	if (s->flags & SLAB_CACHE_DMA32)
		s->allocflags |= GFP_DMA32;
	if (s->flags & SLAB_RECLAIM_ACCOUNT)
		s->allocflags |= __GFP_RECLAIMABLE;
	return true;
}

/* Where a cache's node lists live: right after its node pointers. */
static struct kmem_cache_node *cache_node_lists(struct kmem_cache *s)
{
	unsigned long p = (unsigned long)&s->node[nr_node_ids];

	p = ALIGN(p, __alignof__(struct kmem_cache_node));
	return (struct kmem_cache_node *)p;
}

static unsigned int kmem_cache_object_size(void)
{
	return offsetof(struct kmem_cache, node) +
	       nr_node_ids * sizeof(struct kmem_cache_node *) +
	       __alignof__(struct kmem_cache_node) +
	       nr_node_ids * sizeof(struct kmem_cache_node);
}

static void init_list(struct kmem_cache_list *l, int cpu)
{
	INIT_LIST_HEAD(&l->partial);
	INIT_LIST_HEAD(&l->full);
	l->cpu = cpu;
}

/* Give @s the nr_node_ids node lists at @n. */
static void init_node_lists(struct kmem_cache *s, struct kmem_cache_node *n)
{
	int node;

	for (node = 0; node < nr_node_ids; node++, n++) {
		spin_lock_init(&n->list_lock);
		init_list(&n->list, -1);
		s->node[node] = n;
	}
}

int __kmem_cache_create(struct kmem_cache *s, slab_flags_t flags)
{
	int cpu, err;

	s->flags = kmem_cache_flags(s->size, flags, s->name);
#ifdef CONFIG_SLAB_FREELIST_HARDENED
	s->random = get_random_long();
#endif
	if (!calculate_sizes(s))
		return -EINVAL;
	slqb_tunables(s);

	/*
	 * The kmalloc caches' per-CPU structures come from the early per-CPU
	 * area: the same bound as SLUB's.
	 */
	BUILD_BUG_ON(PERCPU_DYNAMIC_EARLY_SIZE <
		     KMALLOC_SHIFT_HIGH * sizeof(struct kmem_cache_cpu));
	s->cpu_slab = alloc_percpu(struct kmem_cache_cpu);
	if (!s->cpu_slab)
		return -ENOMEM;
	for_each_possible_cpu(cpu) {
		struct kmem_cache_cpu *c = per_cpu_ptr(s->cpu_slab, cpu);

		init_list(&c->list, cpu);
#ifdef CONFIG_SMP
		spin_lock_init(&c->remote_free.lock);
		c->remote_free.cache = s;
		init_irq_work(&c->remote_free.claim_work, claim_irq_work);
#endif
	}

	if (s != &boot_kmem_cache)
		init_node_lists(s, cache_node_lists(s));

	/* Caches made before kmalloc works get theirs in kmem_cache_init(). */
	if (slab_state >= UP)
		init_random_seq(s);

	/* A cache without its sysfs directory still works. */
	err = slqb_sysfs_add(s);
	if (err)
		pr_err("SLQB: no /sys/kernel/slab/%s (%d)\n", s->name, err);
	return 0;
}

slab_flags_t kmem_cache_flags(unsigned int object_size, slab_flags_t flags,
			      const char *name)
{
	slab_flags_t debug;

	/* Caches whose users must not have them debugged (SLUB's KUnit). */
	if (flags & SLAB_NO_USER_FLAGS)
		return flags;
	debug = slqb_debug_flags(name);
	/*
	 * kmemleak's own caches: tracking their allocations would have
	 * kmemleak record itself; only slqb_debug= naming them does.
	 */
	if ((flags & SLAB_NOLEAKTRACE) && !slqb_debug_names(name))
		debug &= ~SLAB_STORE_USER;
	return flags | debug;
}

struct kmem_cache *__kmem_cache_alias(const char *name, unsigned int size,
				      unsigned int align, slab_flags_t flags,
				      void (*ctor)(void *))
{
	struct kmem_cache *s = find_mergeable(size, align, flags, name, ctor);

	if (s) {
		s->refcount++;
		/* Object size and usercopy window grow to the larger user. */
		s->object_size = max(s->object_size, size);
		if (slqb_sysfs_alias(s, name))
			pr_err("SLQB: no /sys/kernel/slab/%s link\n", name);
	}
	return s;
}

/**
 * slqb_count - the slabs and pages a cache holds, and its objects
 * @s: the cache
 * @n: where to put the counts
 *
 * For /proc/slabinfo, sysfs and SLQB's KUnit suite. A cache's slabs may
 * be of two orders (a young cache's, a fallback), so its pages are
 * counted apart from its slabs.
 */
void slqb_count(struct kmem_cache *s, struct slqb_counts *n)
{
	struct kmem_cache_node *kn;
	int cpu, node;

	memset(n, 0, sizeof(*n));
	/*
	 * Other CPUs' counters, read without their locks: exact once the
	 * cache is quiet, a snapshot while it is in use (as for SLUB).
	 */
	for_each_possible_cpu(cpu) {
		struct kmem_cache_cpu *c = per_cpu_ptr(s->cpu_slab, cpu);

		n->slabs += READ_ONCE(c->list.nr_slabs);
		n->pages += READ_ONCE(c->list.nr_pages);
		n->objects += READ_ONCE(c->list.nr_objects);
		n->free += READ_ONCE(c->list.nr_free) +
			   READ_ONCE(c->freelist.nr);
#ifdef CONFIG_SMP
		n->free += READ_ONCE(c->rlist.nr) +
			   READ_ONCE(c->remote_free.list.nr);
#endif
	}
	for_each_kmem_cache_node(s, node, kn) {
		n->slabs += READ_ONCE(kn->list.nr_slabs);
		n->pages += READ_ONCE(kn->list.nr_pages);
		n->objects += READ_ONCE(kn->list.nr_objects);
		n->free += READ_ONCE(kn->list.nr_free);
	}
}
EXPORT_SYMBOL_IF_KUNIT(slqb_count);

bool __kmem_cache_empty(struct kmem_cache *s)
{
	return !slqb_count_slabs(s, NULL, NULL);
}

int __kmem_cache_shrink(struct kmem_cache *s)
{
	drain_all_cpus(s);
	return !__kmem_cache_empty(s);
}

#ifdef CONFIG_SLQB_DEBUG
/*
 * Name the objects still allocated in a debug cache being destroyed, and
 * who allocated them. Nobody else uses the cache any more: the lists are
 * read without their locks.
 */
static void report_leaks_list(struct kmem_cache *s, struct kmem_cache_list *l,
			      unsigned int *shown)
{
	struct list_head *lists[] = { &l->partial, &l->full };
	struct slab *slab;
	unsigned int i, j;

	for (i = 0; i < ARRAY_SIZE(lists); i++) {
		list_for_each_entry(slab, lists[i], slab_list) {
			void *base = slab_address(slab);

			for (j = 0; j < slqb_slab_objects(s, slab); j++) {
				void *object = base + j * s->size;

				if (!slqb_debug_object_live(s, object))
					continue;
				if ((*shown)++ < 16)
					slqb_debug_report_leak(s, object);
			}
		}
	}
}

static void report_leaks(struct kmem_cache *s)
{
	struct kmem_cache_node *n;
	unsigned int shown = 0;
	int cpu, node;

	for_each_possible_cpu(cpu)
		report_leaks_list(s, &per_cpu_ptr(s->cpu_slab, cpu)->list,
				  &shown);
	for_each_kmem_cache_node(s, node, n)
		report_leaks_list(s, &n->list, &shown);
	if (shown > 16)
		pr_err("SLQB %s: and %u more\n", s->name, shown - 16);
	add_taint(TAINT_BAD_PAGE, LOCKDEP_NOW_UNRELIABLE);
}
#else
static inline void report_leaks(struct kmem_cache *s)
{
}
#endif

int __kmem_cache_shutdown(struct kmem_cache *s)
{
	unsigned long slabs, free, objects;

	drain_all_cpus(s);
	slabs = slqb_count_slabs(s, &free, &objects);
	if (!slabs)
		return 0;
	pr_err("SLQB %s: %lu objects remain in %lu slabs at destroy\n",
	       s->name, objects - free, slabs);
	if (slqb_debug(s))
		report_leaks(s);
	return 1;
}

void __kmem_cache_release(struct kmem_cache *s)
{
#ifdef CONFIG_SMP
	int cpu;

	/* No kick may still be on its way to a queue about to be freed. */
	for_each_possible_cpu(cpu)
		irq_work_sync(&per_cpu_ptr(s->cpu_slab, cpu)->remote_free.claim_work);
#endif
#ifdef CONFIG_SLAB_FREELIST_RANDOM
	cache_random_seq_destroy(s);
#endif
	free_percpu(s->cpu_slab);
}

/*
 * /proc/slabinfo: limit and batchcount are SLQB's hiwater and freebatch.
 * It gives one order a cache, the order it makes slabs of now, and its
 * slabs counted in slabs of that order: a cache's slabs may be of two
 * orders (a busy cache keeps the minimum-order slabs of its youth), and
 * tools take num_slabs times pagesperslab for its memory (slabtop).
 */
void get_slabinfo(struct kmem_cache *s, struct slabinfo *sinfo)
{
	unsigned int order = slqb_new_order(s);
	struct slqb_counts n;

	slqb_count(s, &n);
	sinfo->num_slabs = DIV_ROUND_UP(n.pages, 1UL << order);
	sinfo->active_slabs = sinfo->num_slabs;
	sinfo->num_objs = n.objects;
	sinfo->active_objs = n.objects > n.free ? n.objects - n.free : 0;
	sinfo->limit = s->hiwater;
	sinfo->batchcount = s->freebatch;
	sinfo->shared = 0;
	sinfo->objects_per_slab = slqb_new_objects(s);
	sinfo->cache_order = order;
}

void slabinfo_show_stats(struct seq_file *m, struct kmem_cache *s)
{
}

/**
 * slqb_set_tunables - set a cache's queue lengths
 * @s: the cache
 * @hiwater: flush the per-CPU freelist when it grows above this
 * @freebatch: objects moved per flush or remote hand-over
 *
 * Called with slab_mutex held, from /proc/slabinfo and sysfs.
 *
 * Return: 0, or -EINVAL (and nothing changed) unless
 * 1 <= @freebatch <= @hiwater <= %SLQB_MAX_HIWATER.
 */
int slqb_set_tunables(struct kmem_cache *s, long hiwater, long freebatch)
{
	if (freebatch < 1 || hiwater < freebatch || hiwater > SLQB_MAX_HIWATER)
		return -EINVAL;
	WRITE_ONCE(s->hiwater, hiwater);
	WRITE_ONCE(s->freebatch, freebatch);
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(slqb_set_tunables);

#define SLABINFO_WRITE_MAX 128
/* "name hiwater freebatch [shared]", as SLAB reads "name limit batchcount shared". */
ssize_t slabinfo_write(struct file *file, const char __user *buffer,
		       size_t count, loff_t *ppos)
{
	char kbuf[SLABINFO_WRITE_MAX + 1], *tmp;
	long hiwater, freebatch, shared = 0;
	struct kmem_cache *s;
	int res;

	if (count > SLABINFO_WRITE_MAX)
		return -EINVAL;
	if (copy_from_user(&kbuf, buffer, count))
		return -EFAULT;
	kbuf[count] = '\0';

	tmp = strchr(kbuf, ' ');
	if (!tmp)
		return -EINVAL;
	*tmp++ = '\0';
	res = sscanf(tmp, "%ld %ld %ld", &hiwater, &freebatch, &shared);
	if (res < 2 || shared < 0)
		return -EINVAL;

	res = -EINVAL;
	mutex_lock(&slab_mutex);
	list_for_each_entry(s, &slab_caches, list) {
		if (!strcmp(s->name, kbuf)) {
			res = slqb_set_tunables(s, hiwater, freebatch);
			break;
		}
	}
	mutex_unlock(&slab_mutex);
	return res ? res : count;
}

#ifdef CONFIG_PRINTK
void __kmem_obj_info(struct kmem_obj_info *kpp, void *object, struct slab *slab)
{
	struct kmem_cache *s = slab->slab_cache;
	void *objp = nearest_obj(s, slab, kasan_reset_tag(object));

	kpp->kp_ptr = object;
	kpp->kp_slab = slab;
	kpp->kp_slab_cache = s;
	kpp->kp_objp = objp;
	kpp->kp_data_offset = (unsigned long)(kasan_reset_tag(object) - objp);
	slqb_debug_obj_info(kpp, s, objp);
}
#endif

#ifdef CONFIG_HARDENED_USERCOPY
/* Is a copy of @n bytes at @ptr inside its object's usercopy window? */
void __check_heap_object(const void *ptr, unsigned long n,
			 const struct slab *slab, bool to_user)
{
	struct kmem_cache *s = slab->slab_cache;
	unsigned long offset;

	ptr = kasan_reset_tag(ptr);
	if (is_kfence_address(ptr))
		offset = ptr - kfence_object_start(ptr);
	else
		offset = (ptr - slab_address(slab)) % s->size;

	if (offset >= s->useroffset &&
	    offset - s->useroffset <= s->usersize &&
	    n <= s->useroffset - offset + s->usersize)
		return;

	usercopy_abort("SLQB object", s->name, to_user, offset, n);
}
#endif

/*
 * Initialisation.
 */

/*
 * The boot cache's node lists, once kmalloc works: before, its node
 * pointers are NULL (its pages all join CPU lists, and its off-node
 * allocations are local).
 */
static void __init boot_cache_node_lists(struct kmem_cache *s)
{
	struct kmem_cache_node *n;

	n = kcalloc(nr_node_ids, sizeof(*n), GFP_NOWAIT);
	/* Without them it works on, as it did before kmalloc worked. */
	if (n)
		init_node_lists(s, n);
}

void __init kmem_cache_init(void)
{
	struct kmem_cache *s;

	kmem_cache = &boot_kmem_cache;
	create_boot_cache(kmem_cache, "kmem_cache", kmem_cache_object_size(),
			  SLAB_HWCACHE_ALIGN, 0, 0);
	list_add(&kmem_cache->list, &slab_caches);
	slab_state = PARTIAL;

	setup_kmalloc_cache_index_table();
	create_kmalloc_caches(0);
	boot_cache_node_lists(kmem_cache);

	list_for_each_entry(s, &slab_caches, list)
		init_random_seq(s);

	pr_info("SLQB: order-0 preferred, %u CPUs, %u nodes\n",
		nr_cpu_ids, nr_node_ids);
}

void __init kmem_cache_init_late(void)
{
	slab_state = FULL;
}

static int __init slqb_init_late(void)
{
	int ret;

	check_event_names();

	ret = cpuhp_setup_state(CPUHP_AP_ONLINE_DYN, "mm/slqb:online",
				slqb_cpu_online, slqb_cpu_offline);
	if (ret < 0)
		return ret;
	return register_shrinker(&slqb_shrinker, "slqb-queues");
}
device_initcall(slqb_init_late);
