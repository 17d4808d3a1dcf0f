// SPDX-License-Identifier: GPL-2.0
/*
 * SLQB's view under /sys/kernel/slab/<cache>/: sizes and counts, the
 * per-CPU queues, the tunables, a shrink trigger and, with
 * CONFIG_SLQB_STATS, the per-cache event counts with their per-CPU
 * breakdown. The files are described in
 * Documentation/ABI/testing/sysfs-kernel-slab.
 *
 * Counts of other CPUs' lists are read without their locks, so they are
 * exact when the cache is quiet and a snapshot while it is in use.
 *
 * Every cache gets a kobject, whose release frees the cache: caches made
 * before this file's initcall are added by it, later ones by
 * __kmem_cache_create(). A merged cache's other names are symlinks to
 * its directory.
 */

#include <linux/kobject.h>
#include <linux/mm.h>
#include <linux/slab.h>
#include <linux/sysfs.h>

#include "slab.h"
#include "slqb.h"

/* The kset of /sys/kernel/slab; NULL until slqb_sysfs_init() has run. */
static struct kset *slab_kset;

/* Merged names seen before slqb_sysfs_init(), linked by it. */
struct early_alias {
	struct kmem_cache *s;
	const char *name;
	struct early_alias *next;
};

static struct early_alias *early_aliases;

#define to_cache(k) container_of(k, struct kmem_cache, kobj)

struct slqb_attribute {
	struct attribute attr;
	ssize_t (*show)(struct kmem_cache *s, char *buf);
	ssize_t (*store)(struct kmem_cache *s, const char *buf, size_t len);
};

#define to_slqb_attr(a) container_of(a, struct slqb_attribute, attr)

#define SLQB_ATTR_RO(_name)						\
	static struct slqb_attribute _name##_attr = __ATTR_RO(_name)

#define SLQB_ATTR_RW(_name)						\
	static struct slqb_attribute _name##_attr = __ATTR_RW_MODE(_name, 0600)

#define SLQB_ATTR_WO(_name)						\
	static struct slqb_attribute _name##_attr = __ATTR_WO(_name)

/* Plain values. */
#define SLQB_SHOW_UINT(_name, _expr)					\
static ssize_t _name##_show(struct kmem_cache *s, char *buf)		\
{									\
	return sysfs_emit(buf, "%u\n", (unsigned int)(_expr));		\
}									\
SLQB_ATTR_RO(_name)

SLQB_SHOW_UINT(object_size, s->object_size);
SLQB_SHOW_UINT(slab_size, s->size);
SLQB_SHOW_UINT(align, s->align);
SLQB_SHOW_UINT(objs_per_slab, slqb_new_objects(s));
SLQB_SHOW_UINT(order, slqb_new_order(s));
SLQB_SHOW_UINT(aliases, s->refcount > 0 ? s->refcount - 1 : 0);
SLQB_SHOW_UINT(reclaim_account, !!(s->flags & SLAB_RECLAIM_ACCOUNT));
SLQB_SHOW_UINT(hwcache_align, !!(s->flags & SLAB_HWCACHE_ALIGN));
SLQB_SHOW_UINT(destroy_by_rcu, !!(s->flags & SLAB_TYPESAFE_BY_RCU));
SLQB_SHOW_UINT(poison, !!(s->flags & SLAB_POISON));
SLQB_SHOW_UINT(red_zone, !!(s->flags & SLAB_RED_ZONE));
SLQB_SHOW_UINT(store_user, !!(s->flags & SLAB_STORE_USER));
SLQB_SHOW_UINT(sanity_checks, !!(s->flags & SLAB_CONSISTENCY_CHECKS));

static ssize_t ctor_show(struct kmem_cache *s, char *buf)
{
	if (!s->ctor)
		return 0;
	return sysfs_emit(buf, "%pS\n", s->ctor);
}
SLQB_ATTR_RO(ctor);

/*
 * Counts over the lists of a cache: "TOTAL C<cpu>=n ... N<node>=n", the
 * per-CPU lists and then the node lists, leaving out zeros.
 */
enum list_count {
	COUNT_SLABS,		/* pages owned */
	COUNT_PAGES,		/* base pages of those */
	COUNT_PARTIAL,		/* pages with free objects of their own */
	COUNT_FREE,		/* free objects anywhere */
	COUNT_FREELIST,		/* objects on per-CPU freelists */
	COUNT_RLIST,		/* objects gathered for other CPUs */
	COUNT_REMOTE_FREE,	/* objects waiting on remote_free queues */
};

static unsigned long list_count(struct kmem_cache_list *l, enum list_count what)
{
	switch (what) {
	case COUNT_SLABS:
		return READ_ONCE(l->nr_slabs);
	case COUNT_PAGES:
		return READ_ONCE(l->nr_pages);
	case COUNT_PARTIAL:
		return READ_ONCE(l->nr_partial);
	case COUNT_FREE:
		return READ_ONCE(l->nr_free);
	default:
		return 0;
	}
}

static unsigned long cpu_count(struct kmem_cache_cpu *c, enum list_count what)
{
	unsigned long nr = list_count(&c->list, what);

	switch (what) {
	case COUNT_FREE:
		nr += READ_ONCE(c->freelist.nr);
#ifdef CONFIG_SMP
		nr += READ_ONCE(c->rlist.nr) +
		      READ_ONCE(c->remote_free.list.nr);
#endif
		break;
	case COUNT_FREELIST:
		nr = READ_ONCE(c->freelist.nr);
		break;
#ifdef CONFIG_SMP
	case COUNT_RLIST:
		nr = READ_ONCE(c->rlist.nr);
		break;
	case COUNT_REMOTE_FREE:
		nr = READ_ONCE(c->remote_free.list.nr);
		break;
#endif
	default:
		break;
	}
	return nr;
}

static unsigned long cache_count(struct kmem_cache *s, enum list_count what)
{
	struct kmem_cache_node *n;
	unsigned long nr = 0;
	int cpu, node;

	for_each_possible_cpu(cpu)
		nr += cpu_count(per_cpu_ptr(s->cpu_slab, cpu), what);
	for_each_kmem_cache_node(s, node, n)
		nr += list_count(&n->list, what);
	return nr;
}

static ssize_t show_count(struct kmem_cache *s, char *buf,
			  enum list_count what)
{
	struct kmem_cache_node *n;
	unsigned long nr;
	int len, cpu, node;

	len = sysfs_emit(buf, "%lu", cache_count(s, what));
	for_each_possible_cpu(cpu) {
		nr = cpu_count(per_cpu_ptr(s->cpu_slab, cpu), what);
		if (nr)
			len += sysfs_emit_at(buf, len, " C%d=%lu", cpu, nr);
	}
	for_each_kmem_cache_node(s, node, n) {
		nr = list_count(&n->list, what);
		if (nr)
			len += sysfs_emit_at(buf, len, " N%d=%lu", node, nr);
	}
	return len + sysfs_emit_at(buf, len, "\n");
}

#define SLQB_SHOW_COUNT(_name, _what)					\
static ssize_t _name##_show(struct kmem_cache *s, char *buf)		\
{									\
	return show_count(s, buf, _what);				\
}									\
SLQB_ATTR_RO(_name)

SLQB_SHOW_COUNT(slabs, COUNT_SLABS);
SLQB_SHOW_COUNT(pages, COUNT_PAGES);
SLQB_SHOW_COUNT(partial, COUNT_PARTIAL);
SLQB_SHOW_COUNT(cpu_freelist, COUNT_FREELIST);
SLQB_SHOW_COUNT(cpu_rlist, COUNT_RLIST);
SLQB_SHOW_COUNT(remote_free, COUNT_REMOTE_FREE);

static ssize_t total_objects_show(struct kmem_cache *s, char *buf)
{
	unsigned long objects;

	slqb_count_slabs(s, NULL, &objects);
	return sysfs_emit(buf, "%lu\n", objects);
}
SLQB_ATTR_RO(total_objects);

static ssize_t objects_show(struct kmem_cache *s, char *buf)
{
	unsigned long free, total;

	slqb_count_slabs(s, &free, &total);

	return sysfs_emit(buf, "%lu\n", total > free ? total - free : 0);
}
SLQB_ATTR_RO(objects);

/* Tunables, set under slab_mutex as /proc/slabinfo sets them. */
static ssize_t set_tunable(struct kmem_cache *s, const char *buf, size_t len,
			   bool hiwater)
{
	long val;
	int err;

	err = kstrtol(buf, 10, &val);
	if (err)
		return err;
	mutex_lock(&slab_mutex);
	if (hiwater)
		err = slqb_set_tunables(s, val, s->freebatch);
	else
		err = slqb_set_tunables(s, s->hiwater, val);
	mutex_unlock(&slab_mutex);
	return err ? err : len;
}

static ssize_t hiwater_show(struct kmem_cache *s, char *buf)
{
	return sysfs_emit(buf, "%u\n", READ_ONCE(s->hiwater));
}

static ssize_t hiwater_store(struct kmem_cache *s, const char *buf,
			     size_t len)
{
	return set_tunable(s, buf, len, true);
}
SLQB_ATTR_RW(hiwater);

static ssize_t freebatch_show(struct kmem_cache *s, char *buf)
{
	return sysfs_emit(buf, "%u\n", READ_ONCE(s->freebatch));
}

static ssize_t freebatch_store(struct kmem_cache *s, const char *buf,
			       size_t len)
{
	return set_tunable(s, buf, len, false);
}
SLQB_ATTR_RW(freebatch);

static ssize_t shrink_store(struct kmem_cache *s, const char *buf, size_t len)
{
	if (!sysfs_streq(buf, "1"))
		return -EINVAL;
	kmem_cache_shrink(s);
	return len;
}
SLQB_ATTR_WO(shrink);

#ifdef CONFIG_FAILSLAB
/* failslab's cache-filter target, as SLUB's file of the same name. */
static ssize_t failslab_show(struct kmem_cache *s, char *buf)
{
	return sysfs_emit(buf, "%d\n", !!(s->flags & SLAB_FAILSLAB));
}

static ssize_t failslab_store(struct kmem_cache *s, const char *buf,
			      size_t len)
{
	bool on;

	/* Aliases would share the setting without having asked for it. */
	if (s->refcount > 1)
		return -EINVAL;
	if (kstrtobool(buf, &on))
		return -EINVAL;
	if (on)
		WRITE_ONCE(s->flags, s->flags | SLAB_FAILSLAB);
	else
		WRITE_ONCE(s->flags, s->flags & ~SLAB_FAILSLAB);
	return len;
}
SLQB_ATTR_RW(failslab);
#endif

#ifdef CONFIG_SLQB_STATS
static ssize_t show_stat(struct kmem_cache *s, char *buf,
			 enum slqb_stat_item si)
{
	unsigned long sum = 0, nr;
	int len, cpu;

	for_each_possible_cpu(cpu)
		sum += READ_ONCE(per_cpu_ptr(s->cpu_slab, cpu)->stat[si]);
	len = sysfs_emit(buf, "%lu", sum);
	for_each_possible_cpu(cpu) {
		nr = READ_ONCE(per_cpu_ptr(s->cpu_slab, cpu)->stat[si]);
		if (nr)
			len += sysfs_emit_at(buf, len, " C%d=%lu", cpu, nr);
	}
	return len + sysfs_emit_at(buf, len, "\n");
}

/* Writing 0 clears a statistic on every CPU; nothing else is accepted. */
static ssize_t clear_stat(struct kmem_cache *s, const char *buf, size_t len,
			  enum slqb_stat_item si)
{
	int cpu;

	if (!sysfs_streq(buf, "0"))
		return -EINVAL;
	for_each_possible_cpu(cpu)
		WRITE_ONCE(per_cpu_ptr(s->cpu_slab, cpu)->stat[si], 0);
	return len;
}

/*
 * One file for each event, "stat_" and its name (slqb_stat_names[], the
 * /proc/vmstat name without "slqb_"). The attributes are filled in by
 * slqb_sysfs_init(), before any cache gets its directory.
 */
static char stat_file_names[NR_SLQB_STAT_ITEMS][40];
static struct attribute stat_attrs[NR_SLQB_STAT_ITEMS];
static struct attribute *stat_attr_ptrs[NR_SLQB_STAT_ITEMS + 1];

static const struct attribute_group slqb_stat_group = {
	.attrs = stat_attr_ptrs,
};

static void __init init_stat_attrs(void)
{
	int i;

	for (i = 0; i < NR_SLQB_STAT_ITEMS; i++) {
		snprintf(stat_file_names[i], sizeof(stat_file_names[i]),
			 "stat_%s", slqb_stat_names[i]);
		stat_attrs[i].name = stat_file_names[i];
		stat_attrs[i].mode = 0600;
		stat_attr_ptrs[i] = &stat_attrs[i];
	}
}

/* Which statistic @attr is, or -1. */
static int stat_item(const struct attribute *attr)
{
	if (attr < stat_attrs || attr >= stat_attrs + NR_SLQB_STAT_ITEMS)
		return -1;
	return attr - stat_attrs;
}
#else
static inline void init_stat_attrs(void)
{
}

static inline int stat_item(const struct attribute *attr)
{
	return -1;
}

static inline ssize_t show_stat(struct kmem_cache *s, char *buf, int si)
{
	return -EIO;
}

static inline ssize_t clear_stat(struct kmem_cache *s, const char *buf,
				 size_t len, int si)
{
	return -EIO;
}
#endif /* CONFIG_SLQB_STATS */

static struct attribute *slqb_attrs[] = {
	&object_size_attr.attr,
	&slab_size_attr.attr,
	&align_attr.attr,
	&objs_per_slab_attr.attr,
	&order_attr.attr,
	&objects_attr.attr,
	&total_objects_attr.attr,
	&slabs_attr.attr,
	&pages_attr.attr,
	&partial_attr.attr,
	&cpu_freelist_attr.attr,
	&cpu_rlist_attr.attr,
	&remote_free_attr.attr,
	&aliases_attr.attr,
	&ctor_attr.attr,
	&reclaim_account_attr.attr,
	&hwcache_align_attr.attr,
	&destroy_by_rcu_attr.attr,
	&poison_attr.attr,
	&red_zone_attr.attr,
	&store_user_attr.attr,
	&sanity_checks_attr.attr,
	&hiwater_attr.attr,
	&freebatch_attr.attr,
	&shrink_attr.attr,
#ifdef CONFIG_FAILSLAB
	&failslab_attr.attr,
#endif
	NULL
};

static const struct attribute_group slqb_attr_group = {
	.attrs = slqb_attrs,
};

static const struct attribute_group *slqb_attr_groups[] = {
	&slqb_attr_group,
#ifdef CONFIG_SLQB_STATS
	&slqb_stat_group,
#endif
	NULL
};

static ssize_t slqb_attr_show(struct kobject *kobj, struct attribute *attr,
			      char *buf)
{
	int si = stat_item(attr);
	struct slqb_attribute *a;

	if (si >= 0)
		return show_stat(to_cache(kobj), buf, si);
	a = to_slqb_attr(attr);
	return a->show ? a->show(to_cache(kobj), buf) : -EIO;
}

static ssize_t slqb_attr_store(struct kobject *kobj, struct attribute *attr,
			       const char *buf, size_t len)
{
	int si = stat_item(attr);
	struct slqb_attribute *a;

	if (si >= 0)
		return clear_stat(to_cache(kobj), buf, len, si);
	a = to_slqb_attr(attr);
	return a->store ? a->store(to_cache(kobj), buf, len) : -EIO;
}

static const struct sysfs_ops slqb_sysfs_ops = {
	.show = slqb_attr_show,
	.store = slqb_attr_store,
};

/* The last reference to a destroyed cache is gone: free it. */
static void slqb_kobj_release(struct kobject *kobj)
{
	slab_kmem_cache_release(to_cache(kobj));
}

static struct kobj_type slqb_ktype = {
	.sysfs_ops = &slqb_sysfs_ops,
	.release = slqb_kobj_release,
};

/**
 * slqb_sysfs_add - give a cache its directory under /sys/kernel/slab
 * @s: the cache, just created; slab_mutex is held
 *
 * Before slqb_sysfs_init() this does nothing: the initcall adds every
 * cache made so far. A name already taken (two caches may share one, or
 * a destroyed cache's directory may still be going away) gets a ":<n>"
 * suffix rather than the kernel warning sysfs gives for a duplicate.
 *
 * Return: 0, or a negative errno from the kobject core; the cache is
 * usable either way.
 */
int slqb_sysfs_add(struct kmem_cache *s)
{
	static unsigned int dup_seq;
	struct kobject *old;
	int err;

	if (!slab_kset)
		return 0;

	/* A merged name of a destroyed cache may still be a link here. */
	sysfs_remove_link(&slab_kset->kobj, s->name);
	s->kobj.kset = slab_kset;
	old = kset_find_obj(slab_kset, s->name);
	if (old) {
		kobject_put(old);
		err = kobject_init_and_add(&s->kobj, &slqb_ktype, NULL, "%s:%u",
					   s->name, ++dup_seq);
	} else {
		err = kobject_init_and_add(&s->kobj, &slqb_ktype, NULL, "%s",
					   s->name);
	}
	/*
	 * On failure the kobject stays initialised, outside sysfs: the
	 * cache works without its directory, and its release at destroy
	 * still frees it.
	 */
	if (err)
		return err;
	err = sysfs_create_groups(&s->kobj, slqb_attr_groups);
	if (err) {
		kobject_del(&s->kobj);
		return err;
	}
	kobject_uevent(&s->kobj, KOBJ_ADD);
	return 0;
}

/**
 * slqb_sysfs_alias - link a merged cache's other name to its directory
 * @s: the cache @name was merged into; slab_mutex is held
 * @name: the name the caller asked for
 *
 * Return: 0, or a negative errno (the merge stands; only the link is
 * missing).
 */
int slqb_sysfs_alias(struct kmem_cache *s, const char *name)
{
	struct early_alias *al;

	if (slab_kset) {
		if (!s->kobj.state_in_sysfs)
			return 0;
		sysfs_remove_link(&slab_kset->kobj, name);
		return sysfs_create_link(&slab_kset->kobj, &s->kobj, name);
	}
	al = kmalloc(sizeof(*al), GFP_KERNEL);
	if (!al)
		return -ENOMEM;
	al->s = s;
	al->name = name;
	al->next = early_aliases;
	early_aliases = al;
	return 0;
}

/* Called by common code before the cache is freed: remove its files. */
void sysfs_slab_unlink(struct kmem_cache *s)
{
	if (s->kobj.state_in_sysfs)
		kobject_del(&s->kobj);
}

/* Drop the cache's reference: its release frees it. */
void sysfs_slab_release(struct kmem_cache *s)
{
	if (s->kobj.state_initialized)
		kobject_put(&s->kobj);
	else
		slab_kmem_cache_release(s);
}

static int __init slqb_sysfs_init(void)
{
	struct early_alias *al;
	struct kmem_cache *s;
	int err;

	init_stat_attrs();
	mutex_lock(&slab_mutex);
	slab_kset = kset_create_and_add("slab", NULL, kernel_kobj);
	if (!slab_kset) {
		mutex_unlock(&slab_mutex);
		pr_err("SLQB: cannot create /sys/kernel/slab\n");
		return -ENOMEM;
	}
	list_for_each_entry(s, &slab_caches, list) {
		err = slqb_sysfs_add(s);
		if (err)
			pr_err("SLQB: no /sys/kernel/slab/%s (%d)\n",
			       s->name, err);
	}
	while (early_aliases) {
		al = early_aliases;
		early_aliases = al->next;
		err = slqb_sysfs_alias(al->s, al->name);
		if (err)
			pr_err("SLQB: no /sys/kernel/slab/%s link (%d)\n",
			       al->name, err);
		kfree(al);
	}
	mutex_unlock(&slab_mutex);
	return 0;
}
device_initcall(slqb_sysfs_init);
