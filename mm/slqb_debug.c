// SPDX-License-Identifier: GPL-2.0
/*
 * SLQB debugging: slqb_debug=[FZPU][,cache,...] and the checks behind it.
 *
 *   F  sanity checks: a freed pointer must be the start of an object of
 *      the cache it is freed to, and an object's state word must say
 *      "allocated" when it is freed and "free" when it is handed out
 *      (double frees, and free-list corruption);
 *   Z  red zones after each object, checked at free and at allocation;
 *   P  poisoning of free objects, checked when they are handed out again,
 *      so a write after free is found at the next allocation;
 *   U  the last allocation and free of each object (caller, CPU, pid,
 *      time), shown in every report and by kmem_dump_obj().
 *
 * A debug cache's object looks like this (the free pointer sits after the
 * red zone when the object is poisoned or must survive being free):
 *
 *   | object | red zone | free pointer | state | alloc track | free track |
 *   0        object_size  ...           debug_offset
 *
 * Every report names the cache and the object, dumps the bytes around the
 * damage, shows the tracks, taints the kernel (TAINT_BAD_PAGE) and sets
 * the object aside: it is never handed out or freed again, so the damage
 * does not spread. The kernel keeps running.
 *
 * Caches without debug flags do not come here at all: slqb_debug() is a
 * static key that stays off unless slqb_debug= or a cache created with
 * debug flags turns it on.
 */

#include <linux/jiffies.h>
#include <linux/kallsyms.h>
#include <linux/kasan.h>
#include <linux/mm.h>
#include <linux/poison.h>
#include <linux/printk.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "slab.h"
#include "slqb.h"

DEFINE_STATIC_KEY_MAYBE(CONFIG_SLQB_DEBUG_ON, slqb_debug_enabled);

/* Reports made since boot; KUnit counts its deliberate faults with it. */
static atomic_long_t slqb_debug_reports = ATOMIC_LONG_INIT(0);

/* What slqb_debug= asked for, and for which caches (NULL: all). */
static slab_flags_t slqb_debug_default =
	IS_ENABLED(CONFIG_SLQB_DEBUG_ON) ? SLQB_DEBUG_FLAGS : 0;
static char *slqb_debug_caches;

/* An object's state word. */
#define SLQB_OBJ_ACTIVE	0xa11c47edUL
#define SLQB_OBJ_FREE	0xf4eeb1e5UL

struct slqb_track {
	unsigned long addr;	/* caller */
	unsigned long when;	/* jiffies */
	int cpu;
	int pid;
};

enum slqb_track_item { TRACK_ALLOC, TRACK_FREE };

struct slqb_debug_meta {
	unsigned long state;
	struct slqb_track track[];	/* with SLAB_STORE_USER only */
};

/**
 * slqb_debug_report_count - how many debug reports have been made
 *
 * Return: the number of objects found damaged or misused since boot.
 */
long slqb_debug_report_count(void)
{
	return atomic_long_read(&slqb_debug_reports);
}
EXPORT_SYMBOL_GPL(slqb_debug_report_count);

static int __init setup_slqb_debug(char *str)
{
	slab_flags_t flags = 0;

	if (*str == '=')
		str++;
	if (*str == '-') {
		slqb_debug_default = 0;
		static_branch_disable(&slqb_debug_enabled);
		return 1;
	}
	for (; *str && *str != ','; str++) {
		switch (tolower(*str)) {
		case 'f':
			flags |= SLAB_CONSISTENCY_CHECKS;
			break;
		case 'z':
			flags |= SLAB_RED_ZONE;
			break;
		case 'p':
			flags |= SLAB_POISON;
			break;
		case 'u':
			flags |= SLAB_STORE_USER;
			break;
		case 'a':
			/* failslab's cache-filter: a target, not a check. */
			flags |= SLAB_FAILSLAB;
			break;
		default:
			pr_err("slqb_debug: unknown option '%c', ignored\n", *str);
		}
	}
	/* "slqb_debug" or "slqb_debug=,cache": everything. */
	slqb_debug_default = flags ? flags : SLQB_DEBUG_FLAGS;
	if (*str == ',' && str[1])
		slqb_debug_caches = str + 1;
	static_branch_enable(&slqb_debug_enabled);
	return 1;
}
__setup("slqb_debug", setup_slqb_debug);

/* Does @name match one of the comma-separated names (a trailing '*' globs)? */
static bool cache_listed(const char *list, const char *name)
{
	while (*list) {
		size_t len = strcspn(list, ",");
		bool glob = len && list[len - 1] == '*';
		size_t cmp = glob ? len - 1 : len;

		if (!strncmp(list, name, cmp) && (glob || !name[cmp]))
			return true;
		list += len;
		if (*list == ',')
			list++;
	}
	return false;
}

/**
 * slqb_debug_flags - the debug flags slqb_debug= gives a cache
 * @name: the cache's name
 *
 * Return: the flags to add to the cache's own.
 */
slab_flags_t slqb_debug_flags(const char *name)
{
	if (!slqb_debug_default)
		return 0;
	if (slqb_debug_caches && !cache_listed(slqb_debug_caches, name))
		return 0;
	return slqb_debug_default;
}

/**
 * slqb_debug_names - does slqb_debug= name this cache in its list?
 * @name: the cache's name
 *
 * Return: true if slqb_debug= lists caches and @name is one of them.
 */
bool slqb_debug_names(const char *name)
{
	return slqb_debug_caches && cache_listed(slqb_debug_caches, name);
}

/**
 * slqb_debug_layout - make room for the red zone and the metadata
 * @s: the cache being created
 * @size: object size so far, aligned to a word
 * @meta: true for the state and tracks, placed after the free pointer;
 *	  false for the red zone, placed right after the object
 *
 * Return: the new size.
 */
unsigned int slqb_debug_layout(struct kmem_cache *s, unsigned int size,
			       bool meta)
{
	if (!(s->flags & SLQB_DEBUG_FLAGS))
		return size;
	if (!meta) {
		/* At least a word of red zone, whatever the object's size. */
		if (s->flags & SLAB_RED_ZONE)
			size += sizeof(void *);
		s->red_end = size;
		return size;
	}
	s->debug_offset = size;
	size += sizeof(struct slqb_debug_meta);
	if (s->flags & SLAB_STORE_USER)
		size += 2 * sizeof(struct slqb_track);
	return size;
}

static struct slqb_debug_meta *meta_of(struct kmem_cache *s, void *object)
{
	return kasan_reset_tag(object) + s->debug_offset;
}

static void set_track(struct kmem_cache *s, void *object,
		      enum slqb_track_item item, unsigned long addr)
{
	struct slqb_track *t;

	if (!(s->flags & SLAB_STORE_USER))
		return;
	t = &meta_of(s, object)->track[item];
	t->addr = addr;
	t->when = jiffies;
	t->cpu = raw_smp_processor_id();
	t->pid = current->pid;
}

static void print_track(struct kmem_cache *s, void *object,
			enum slqb_track_item item)
{
	struct slqb_track *t = &meta_of(s, object)->track[item];

	if (!t->addr)
		return;
	pr_err("%s by %pS on CPU %d pid %d, %lu jiffies ago\n",
	       item == TRACK_ALLOC ? "Allocated" : "Freed", (void *)t->addr,
	       t->cpu, t->pid, jiffies - t->when);
}

/*
 * @bad: the first damaged byte, or NULL; @object: an object start of @s,
 * or (for a bad free) just the pointer, whose tracks mean nothing.
 */
static void report(struct kmem_cache *s, void *object, const char *kind,
		   const u8 *bad, bool is_object)
{
	u8 *p = kasan_reset_tag(object);
	unsigned int offset, start;

	pr_err("=============================================================================\n");
	pr_err("SLQB %s: %s in object 0x%p (size %u)\n", s->name, kind, object,
	       s->object_size);
	if (bad) {
		offset = bad - p;
		pr_err("First bad byte at offset %u: 0x%02x\n", offset, *bad);
		start = offset > 32 ? ALIGN_DOWN(offset - 32, 16) : 0;
		print_hex_dump(KERN_ERR, "Bytes ", DUMP_PREFIX_OFFSET, 16, 1,
			       p + start, min(64U, s->size - start), false);
	}
	if (is_object && (s->flags & SLAB_STORE_USER)) {
		print_track(s, object, TRACK_ALLOC);
		print_track(s, object, TRACK_FREE);
	}
	if (is_object)
		pr_err("SLQB %s: object 0x%p set aside, not reused\n", s->name,
		       object);
	else
		pr_err("SLQB %s: the free of 0x%p was not done\n", s->name,
		       object);
	dump_stack();
	add_taint(TAINT_BAD_PAGE, LOCKDEP_NOW_UNRELIABLE);
	atomic_long_inc(&slqb_debug_reports);
}

/* The first byte in [@from, @to) of @object that is not @value, or NULL. */
static u8 *check_bytes(void *object, unsigned int from, unsigned int to,
		       u8 value)
{
	return memchr_inv(kasan_reset_tag(object) + from, value, to - from);
}

static bool poisoned(struct kmem_cache *s)
{
	return s->flags & SLAB_POISON;
}

static void poison(struct kmem_cache *s, void *object)
{
	u8 *p = kasan_reset_tag(object);

	memset(p, POISON_FREE, s->object_size - 1);
	p[s->object_size - 1] = POISON_END;
}

/* Mark an object free: poisoned, its red zone inactive. */
static void mark_free(struct kmem_cache *s, void *object)
{
	if (poisoned(s))
		poison(s, object);
	if (s->flags & SLAB_RED_ZONE)
		memset(kasan_reset_tag(object) + s->object_size,
		       SLUB_RED_INACTIVE, s->red_end - s->object_size);
	meta_of(s, object)->state = SLQB_OBJ_FREE;
}

/**
 * slqb_debug_init_object - prepare a new slab's object
 * @s: its cache
 * @object: the object, before any constructor has run on it
 */
void slqb_debug_init_object(struct kmem_cache *s, void *object)
{
	kasan_disable_current();
	if (s->flags & SLAB_STORE_USER)
		memset(meta_of(s, object)->track, 0,
		       2 * sizeof(struct slqb_track));
	mark_free(s, object);
	kasan_enable_current();
}

/* An object about to be handed out: sound, or reported and set aside. */
static bool check_alloc(struct kmem_cache *s, void *object, unsigned long addr)
{
	unsigned long state = meta_of(s, object)->state;
	u8 *bad;

	if (state != SLQB_OBJ_FREE) {
		report(s, object, state == SLQB_OBJ_ACTIVE ?
		       "allocated object on a free list (free list corrupted)" :
		       "state word overwritten (free list corrupted)",
		       (u8 *)meta_of(s, object), true);
		return false;
	}
	if (s->flags & SLAB_RED_ZONE) {
		bad = check_bytes(object, s->object_size, s->red_end,
				  SLUB_RED_INACTIVE);
		if (bad) {
			report(s, object, "red zone overwritten while free", bad,
			       true);
			return false;
		}
	}
	if (poisoned(s)) {
		bad = check_bytes(object, 0, s->object_size - 1, POISON_FREE);
		if (!bad)
			bad = check_bytes(object, s->object_size - 1,
					  s->object_size, POISON_END);
		if (bad) {
			report(s, object, "write after free (poison overwritten)",
			       bad, true);
			return false;
		}
	}
	if (s->flags & SLAB_RED_ZONE)
		memset(kasan_reset_tag(object) + s->object_size,
		       SLUB_RED_ACTIVE, s->red_end - s->object_size);
	meta_of(s, object)->state = SLQB_OBJ_ACTIVE;
	set_track(s, object, TRACK_ALLOC, addr);
	return true;
}

/* An object being freed: a good free, or a bad one reported and refused. */
static bool check_free(struct kmem_cache *s, struct slab *slab, void *object,
		       unsigned long addr)
{
	void *base = slab_address(slab);
	unsigned long state;
	u8 *bad;

	if (s->flags & SLAB_CONSISTENCY_CHECKS) {
		if (slab->slab_cache != s) {
			report(s, object, slab->slab_cache ?
			       "free into the wrong cache" :
			       "free of a pointer outside any cache", NULL, false);
			pr_err("SLQB %s: the object belongs to %s\n", s->name,
			       slab->slab_cache ? slab->slab_cache->name : "?");
			return false;
		}
		if ((kasan_reset_tag(object) - base) % s->size ||
		    kasan_reset_tag(object) - base >=
		    s->size * slqb_slab_objects(s, slab)) {
			report(s, object, "free of a pointer that is not an object start",
			       NULL, false);
			return false;
		}
	}
	state = meta_of(s, object)->state;
	if (state != SLQB_OBJ_ACTIVE) {
		if (state == SLQB_OBJ_FREE)
			report(s, object, "double free", NULL, true);
		else
			report(s, object, "state word overwritten",
			       (u8 *)meta_of(s, object), true);
		return false;
	}
	if (s->flags & SLAB_RED_ZONE) {
		bad = check_bytes(object, s->object_size, s->red_end,
				  SLUB_RED_ACTIVE);
		if (bad) {
			report(s, object, "red zone overwritten (write past the object)",
			       bad, true);
			return false;
		}
	}
	set_track(s, object, TRACK_FREE, addr);
	mark_free(s, object);
	return true;
}

/*
 * The checks read and write memory that KASAN considers free or out of
 * bounds (red zones, poison, metadata): like SLUB, they tell KASAN to
 * look away meanwhile.
 */

/**
 * slqb_debug_alloc - check an object about to be handed out
 * @s: its cache
 * @object: the object
 * @addr: the caller
 *
 * Return: true if the object is sound and now marked allocated; false if
 * it was damaged, reported and set aside (the caller takes another).
 */
bool slqb_debug_alloc(struct kmem_cache *s, void *object, unsigned long addr)
{
	bool ok;

	kasan_disable_current();
	ok = check_alloc(s, object, addr);
	kasan_enable_current();
	return ok;
}

/**
 * slqb_debug_free - check an object being freed
 * @s: the cache it is freed to
 * @slab: the slab page of @object
 * @object: the pointer being freed
 * @addr: the caller
 *
 * Return: true if the object may be freed (it is now marked free and
 * poisoned); false if the free was bad, was reported, and must not
 * happen.
 */
bool slqb_debug_free(struct kmem_cache *s, struct slab *slab, void *object,
		     unsigned long addr)
{
	bool ok;

	kasan_disable_current();
	ok = check_free(s, slab, object, addr);
	kasan_enable_current();
	return ok;
}

/**
 * slqb_debug_object_live - is an object of a debug cache allocated?
 * @s: the cache
 * @object: the object
 *
 * Return: true if its state word says allocated.
 */
bool slqb_debug_object_live(struct kmem_cache *s, void *object)
{
	bool live;

	kasan_disable_current();
	live = meta_of(s, object)->state == SLQB_OBJ_ACTIVE;
	kasan_enable_current();
	return live;
}

/**
 * slqb_debug_report_leak - report an object still allocated at destroy
 * @s: the cache being destroyed
 * @object: the object
 */
void slqb_debug_report_leak(struct kmem_cache *s, void *object)
{
	pr_err("SLQB %s: object 0x%p still allocated at destroy\n", s->name,
	       object);
	kasan_disable_current();
	if (s->flags & SLAB_STORE_USER)
		print_track(s, object, TRACK_ALLOC);
	kasan_enable_current();
}

/**
 * slqb_debug_obj_info - fill in what the tracks know for kmem_dump_obj()
 * @kpp: the information being gathered
 * @s: the object's cache
 * @objp: the object's start
 */
void slqb_debug_obj_info(struct kmem_obj_info *kpp, struct kmem_cache *s,
			 void *objp)
{
	struct slqb_track *t;

	if (!slqb_debug(s) || !(s->flags & SLAB_STORE_USER))
		return;
	kasan_disable_current();
	t = meta_of(s, objp)->track;
	kpp->kp_ret = (void *)t[TRACK_ALLOC].addr;
	kpp->kp_stack[0] = (void *)t[TRACK_ALLOC].addr;
	kpp->kp_free_stack[0] = (void *)t[TRACK_FREE].addr;
	kasan_enable_current();
}
