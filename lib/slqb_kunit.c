// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of the SLQB allocator's behaviour: LIFO reuse, flushing
 * past the watermark, remote frees finding their owner, shrinking,
 * off-node and memoryless-node allocation, the emergency reserves, bulk
 * paths, typesafe-by-RCU and constructor caches, CPU hotplug, and the
 * event counters.
 *
 * The tests read SLQB's lists to count pages and queued objects, so they
 * include mm/slab.h, and count through slqb_count_slabs() (mm/slqb.h).
 * They create their own caches, unmergeable and with SLAB_SKIP_KFENCE, so
 * that every object counted is the test's and comes from SLQB.
 */
#include <kunit/test.h>
#include <linux/cpu.h>
#include <linux/delay.h>
#include <linux/kthread.h>
#include <linux/memcontrol.h>
#include <linux/mm.h>
#include <linux/nodemask.h>
#include <linux/slab.h>
#include <linux/swap.h>
#include <linux/vmstat.h>
#include <linux/workqueue.h>
#include "../mm/slab.h"
#include "../mm/slqb.h"

#define TEST_SIZE	128

/*
 * Live objects as SLQB's lists see them. KASAN's quarantine holds freed
 * objects back from SLQB; shrinking the cache empties it for this cache.
 */
static unsigned long cache_live(struct kmem_cache *s)
{
	unsigned long free, objects;

	if (IS_ENABLED(CONFIG_KASAN_GENERIC))
		kmem_cache_shrink(s);
	slqb_count_slabs(s, &free, &objects);
	return objects - free;
}

static struct kmem_cache *sized_cache(struct kunit *test, const char *name,
				      unsigned int size, slab_flags_t flags,
				      void (*ctor)(void *))
{
	struct kmem_cache *s;

	/* A usercopy window keeps the cache from being merged with another. */
	s = kmem_cache_create_usercopy(name, size, 0, flags, 0, size, ctor);
	KUNIT_ASSERT_NOT_NULL(test, s);
	/*
	 * Not a flag kmem_cache_create() takes (it refuses the cache): set
	 * afterwards, as SLUB's skip_kfence sysfs file does, before any use.
	 */
	s->flags |= SLAB_SKIP_KFENCE;
	return s;
}

static struct kmem_cache *test_cache(struct kunit *test, const char *name,
				     slab_flags_t flags, void (*ctor)(void *))
{
	return sized_cache(test, name, TEST_SIZE, flags, ctor);
}

/* A quarantine (generic KASAN) keeps freed objects from coming back. */
static void skip_if_quarantine(struct kunit *test)
{
	if (IS_ENABLED(CONFIG_KASAN_GENERIC))
		kunit_skip(test, "KASAN's quarantine delays reuse");
}

struct batch {
	struct kmem_cache *s;
	void **objs;
	int n;
	int node;
};

static long alloc_batch(void *arg)
{
	struct batch *b = arg;
	int i;

	for (i = 0; i < b->n; i++) {
		b->objs[i] = kmem_cache_alloc_node(b->s, GFP_KERNEL, b->node);
		if (!b->objs[i])
			return -ENOMEM;
		memset(b->objs[i], 0x5a, TEST_SIZE);
	}
	return 0;
}

static long free_batch(void *arg)
{
	struct batch *b = arg;
	int i;

	for (i = 0; i < b->n; i++)
		kmem_cache_free(b->s, b->objs[i]);
	return 0;
}

/*
 * One statistic of @s, on @cpu, or over all CPUs if @cpu is negative; 0
 * without CONFIG_SLQB_STATS (callers check IS_ENABLED() first).
 */
static unsigned long cache_stat(struct kmem_cache *s, enum slqb_stat_item si,
				int cpu)
{
	unsigned long sum = 0;
#ifdef CONFIG_SLQB_STATS
	int i;

	if (cpu >= 0)
		return READ_ONCE(per_cpu_ptr(s->cpu_slab, cpu)->stat[si]);
	for_each_possible_cpu(i)
		sum += READ_ONCE(per_cpu_ptr(s->cpu_slab, i)->stat[si]);
#endif
	return sum;
}

/*
 * No page of @s is left: by SLQB's own count, and, with statistics, by
 * the pages it took from the page allocator and gave back (counted once
 * __free_pages() has returned, where nr_slabs drops before).
 */
static void expect_no_slabs(struct kunit *test, struct kmem_cache *s)
{
	struct slqb_counts n;

	slqb_count(s, &n);
	KUNIT_EXPECT_EQ(test, n.slabs, 0UL);
	KUNIT_EXPECT_EQ(test, n.pages, 0UL);
	if (!IS_ENABLED(CONFIG_SLQB_STATS))
		return;
	/* Such a cache's pages are freed after a grace period. */
	if (s->flags & SLAB_TYPESAFE_BY_RCU)
		rcu_barrier();
	KUNIT_EXPECT_EQ(test, cache_stat(s, SLQB_STAT_PAGE_FREE, -1),
			cache_stat(s, SLQB_STAT_PAGE_ALLOC, -1));
}

static struct batch *new_batch(struct kunit *test, struct kmem_cache *s, int n)
{
	struct batch *b = kunit_kzalloc(test, sizeof(*b), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, b);
	b->objs = kunit_kcalloc(test, n, sizeof(void *), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, b->objs);
	b->s = s;
	b->n = n;
	b->node = NUMA_NO_NODE;
	return b;
}

/* Two different online CPUs, or skip. */
static void two_cpus(struct kunit *test, int *a, int *b)
{
	*a = cpumask_first(cpu_online_mask);
	*b = cpumask_next(*a, cpu_online_mask);
	if (*b >= nr_cpu_ids)
		kunit_skip(test, "needs two online CPUs");
}

static void slqb_test_lifo_reuse(struct kunit *test)
{
	struct kmem_cache *s = test_cache(test, "slqb_test_lifo", 0, NULL);
	void *a, *b;

	skip_if_quarantine(test);
	migrate_disable();
	a = kmem_cache_alloc(s, GFP_KERNEL);
	kmem_cache_free(s, a);
	b = kmem_cache_alloc(s, GFP_KERNEL);
	migrate_enable();
	KUNIT_EXPECT_PTR_EQ(test, a, b);
	kmem_cache_free(s, b);
	kmem_cache_destroy(s);
}

/* What a CPU's list holds, read on that CPU with interrupts disabled. */
struct cpu_pages {
	struct kmem_cache *s;
	unsigned long empty;	/* pages of no object, on the partial list */
	unsigned long slabs;	/* all pages of the CPU's list */
	unsigned long queued;	/* objects on the CPU's freelist */
	struct slab *an_empty;	/* one of the empty pages, or NULL */
};

/*
 * Is @slab still a page of @s? Read from the page itself, not from SLQB's
 * counts: a page given back has lost PG_slab, or belongs to another cache
 * now.
 */
static bool slab_of(struct kmem_cache *s, struct slab *slab)
{
	return folio_test_slab(slab_folio(slab)) && slab->slab_cache == s;
}

static long read_cpu_pages(void *arg)
{
	struct cpu_pages *p = arg;
	struct kmem_cache_cpu *c;
	struct slab *slab;

	local_irq_disable();
	c = this_cpu_ptr(p->s->cpu_slab);
	p->empty = 0;
	p->an_empty = NULL;
	list_for_each_entry(slab, &c->list.partial, slab_list) {
		if (slab->inuse)
			continue;
		p->empty++;
		p->an_empty = slab;
	}
	p->slabs = c->list.nr_slabs;
	p->queued = c->freelist.nr;
	local_irq_enable();
	return 0;
}

/*
 * Free a batch and read the CPU's list in one go, on that CPU: no trim
 * can run in between (a work item that does not sleep is not interleaved
 * with another on its CPU's workqueue).
 */
struct free_and_read {
	struct batch *b;
	struct cpu_pages *p;
};

static long free_batch_read_pages(void *arg)
{
	struct free_and_read *fr = arg;

	free_batch(fr->b);
	return read_cpu_pages(fr->p);
}

/* Run on a CPU, which wakes it: a deferrable timer of an idle CPU waits. */
static long wake_cpu(void *arg)
{
	return 0;
}

#ifdef CONFIG_SMP
struct cpu_queues {
	struct kmem_cache *s;
	unsigned long remote;	/* on the CPU's remote_free queue */
	unsigned long held;	/* on its freelist */
};

/*
 * Read on the CPU itself, between its interrupts-off sections: a claim
 * takes the remote queue and flushes what went past hiwater in one, which
 * another CPU reading racily may see half done (the queue taken, the
 * freelist not yet flushed).
 */
static long read_cpu_queues(void *arg)
{
	struct cpu_queues *q = arg;
	struct kmem_cache_cpu *c;

	local_irq_disable();
	c = this_cpu_ptr(q->s->cpu_slab);
	q->remote = READ_ONCE(c->remote_free.list.nr);
	q->held = c->freelist.nr;
	local_irq_enable();
	return 0;
}
#endif

/*
 * A hiwater set anew (as /proc/slabinfo and sysfs set it) bounds the
 * freelist: frees past it flush a batch, leaving hiwater - freebatch + 1
 * to hiwater objects queued, where the default hiwater would queue them
 * all.
 */
static void slqb_test_new_hiwater(struct kunit *test)
{
	struct kmem_cache *s = test_cache(test, "slqb_test_hiwater", 0, NULL);
	int cpu = cpumask_first(cpu_online_mask);
	struct batch *b = new_batch(test, s, 100);
	struct cpu_pages p = { .s = s };
	struct free_and_read fr = { .b = b, .p = &p };

	skip_if_quarantine(test);
	KUNIT_ASSERT_GT(test, s->hiwater, 100U);
	KUNIT_ASSERT_EQ(test, slqb_set_tunables(s, 16, 4), 0);
	KUNIT_ASSERT_EQ(test, work_on_cpu(cpu, alloc_batch, b), 0);
	KUNIT_ASSERT_EQ(test, work_on_cpu(cpu, free_batch_read_pages, &fr), 0);
	KUNIT_EXPECT_LE(test, p.queued, 16UL);
	KUNIT_EXPECT_GE(test, p.queued, 13UL);
	KUNIT_EXPECT_EQ(test, cache_live(s), 0UL);
	kmem_cache_destroy(s);
}

/* Holds an RCU read-side section open on its CPU until stopped. */
static int hold_rcu_reader(void *arg)
{
	struct completion *started = arg;

	rcu_read_lock();
	complete(started);
	while (!kthread_should_stop())
		cpu_relax();
	rcu_read_unlock();
	return 0;
}

/*
 * A SLAB_TYPESAFE_BY_RCU cache's emptied page leaves the cache at once
 * but goes back to the page allocator only after a grace period: a
 * reader on another CPU, inside rcu_read_lock(), may still be looking
 * at its objects. Such a reader holds the grace period open here.
 */
static void slqb_test_rcu_page_waits(struct kunit *test)
{
	struct kmem_cache *s = test_cache(test, "slqb_test_rcu_wait",
					  SLAB_TYPESAFE_BY_RCU, NULL);
	DECLARE_COMPLETION_ONSTACK(started);
	struct task_struct *reader;
	struct slab *slab;
	void *object;
	int a, b;

	two_cpus(test, &a, &b);
	object = kmem_cache_alloc(s, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, object);
	slab = virt_to_slab(object);
	reader = kthread_create_on_cpu(hold_rcu_reader, &started, b,
				       "slqb_rcu_reader/%u");
	KUNIT_ASSERT_FALSE(test, IS_ERR(reader));
	wake_up_process(reader);
	wait_for_completion(&started);

	kmem_cache_free(s, object);
	kmem_cache_shrink(s);
	/* Not expect_no_slabs(): its rcu_barrier() would wait for reader. */
	KUNIT_EXPECT_EQ(test, slqb_count_slabs(s, NULL, NULL), 0UL);
	KUNIT_EXPECT_TRUE(test, slab_of(s, slab));

	kthread_stop(reader);
	rcu_barrier();
	KUNIT_EXPECT_FALSE(test, slab_of(s, slab));
	kmem_cache_destroy(s);
}

/*
 * Past hiwater the freelist goes back to its pages. Pages that empties
 * stay with the CPU for the allocations that follow a burst of frees, as
 * long as its pages' free objects number at most hiwater; the periodic
 * trim gives them back. Every other page holds a queued object.
 */
static void slqb_test_flush_watermark(struct kunit *test)
{
	struct kmem_cache *s = test_cache(test, "slqb_test_flush", 0, NULL);
	struct batch *b = new_batch(test, s, 3 * s->hiwater);
	int cpu = cpumask_first(cpu_online_mask);
	struct cpu_pages p = { .s = s };
	struct free_and_read fr = { .b = b, .p = &p };
	unsigned long slabs_full;
	struct slab *first, *kept;
	int i;

	KUNIT_ASSERT_EQ(test, work_on_cpu(cpu, alloc_batch, b), 0);
	first = virt_to_slab(b->objs[0]);
	slabs_full = slqb_count_slabs(s, NULL, NULL);
	KUNIT_EXPECT_GE(test, slabs_full * s->objects, (unsigned long)b->n);
	KUNIT_EXPECT_EQ(test, cache_live(s), (unsigned long)b->n);

	KUNIT_ASSERT_EQ(test, work_on_cpu(cpu, free_batch_read_pages, &fr), 0);
	KUNIT_EXPECT_EQ(test, cache_live(s), 0UL);
	if (!IS_ENABLED(CONFIG_KASAN_GENERIC)) {
		KUNIT_EXPECT_LE(test, p.queued, (unsigned long)s->hiwater);
		/* The flush emptied pages, and the CPU kept some, not all. */
		KUNIT_EXPECT_GE(test, p.empty, 1UL);
		KUNIT_EXPECT_LE(test, p.empty * s->objects,
				(unsigned long)s->hiwater);
		/* Each other page holds at least one queued object. */
		KUNIT_EXPECT_LE(test, p.slabs - p.empty, p.queued);
		KUNIT_EXPECT_LT(test, p.slabs, slabs_full);
		kept = p.an_empty;

		/* The trim gives the empty pages back within a few intervals. */
		for (i = 0; i < 80 && p.empty; i++) {
			msleep(100);
			work_on_cpu(cpu, wake_cpu, NULL);
			work_on_cpu(cpu, read_cpu_pages, &p);
		}
		KUNIT_EXPECT_EQ(test, p.empty, 0UL);
		KUNIT_EXPECT_LE(test, p.slabs, p.queued);
		if (kept)
			KUNIT_EXPECT_FALSE(test, slab_of(s, kept));
	}
	kmem_cache_shrink(s);
	expect_no_slabs(test, s);
	/* Given back to the page allocator, not only uncounted. */
	KUNIT_EXPECT_FALSE(test, slab_of(s, first));
	kmem_cache_destroy(s);
}

/* An online CPU of another node than @cpu's, or -1. */
static int cpu_of_another_node(int cpu)
{
	int other;

	for_each_online_cpu(other)
		if (cpu_to_node(other) != cpu_to_node(cpu))
			return other;
	return -1;
}

/*
 * Allocate on CPU A, free on CPU B: the objects reach A's remote queue,
 * nothing is lost, A's next allocations take them back instead of new
 * pages, and the pages go back once all is free. Between CPUs of one
 * node, then of two nodes if there are two.
 */
static void remote_free_between(struct kunit *test, int a, int c)
{
	struct kmem_cache *s = test_cache(test, "slqb_test_remote", 0, NULL);
	struct batch *b = new_batch(test, s, 8 * s->objects);
	unsigned long slabs;

	kunit_info(test, "CPU %d (node %d) frees what CPU %d (node %d) allocated\n",
		   c, cpu_to_node(c), a, cpu_to_node(a));
	KUNIT_ASSERT_EQ(test, work_on_cpu(a, alloc_batch, b), 0);
	slabs = slqb_count_slabs(s, NULL, NULL);
	KUNIT_ASSERT_EQ(test, work_on_cpu(c, free_batch, b), 0);
	/* Before cache_live(), whose shrink (under KASAN) frees the pages. */
	KUNIT_EXPECT_EQ(test, slqb_count_slabs(s, NULL, NULL), slabs);
	KUNIT_EXPECT_EQ(test, cache_live(s), 0UL);

	if (!IS_ENABLED(CONFIG_KASAN_GENERIC)) {
		/* All but an unflushed rlist came back: at most one new page. */
		KUNIT_ASSERT_EQ(test, work_on_cpu(a, alloc_batch, b), 0);
		KUNIT_EXPECT_LE(test, slqb_count_slabs(s, NULL, NULL), slabs + 1);
		KUNIT_ASSERT_EQ(test, work_on_cpu(c, free_batch, b), 0);
	}
	kmem_cache_shrink(s);
	expect_no_slabs(test, s);
	KUNIT_EXPECT_EQ(test, cache_live(s), 0UL);
	kmem_cache_destroy(s);
}

static void slqb_test_remote_free(struct kunit *test)
{
	int a, c;

	two_cpus(test, &a, &c);
	remote_free_between(test, a, c);
	c = cpu_of_another_node(a);
	if (c >= 0)
		remote_free_between(test, a, c);
}

static void slqb_test_shrink(struct kunit *test)
{
	struct kmem_cache *s = test_cache(test, "slqb_test_shrink", 0, NULL);
	struct batch *b = new_batch(test, s, 2 * s->objects + 1);
	void *keep;

	KUNIT_ASSERT_EQ(test, alloc_batch(b), 0);
	keep = kmem_cache_alloc(s, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, keep);
	free_batch(b);
	kmem_cache_shrink(s);
	/* Only the page of the object still in use remains. */
	KUNIT_EXPECT_EQ(test, slqb_count_slabs(s, NULL, NULL), 1UL);
	KUNIT_EXPECT_EQ(test, cache_live(s), 1UL);
	kmem_cache_free(s, keep);
	kmem_cache_shrink(s);
	expect_no_slabs(test, s);
	kmem_cache_destroy(s);
}

static long alloc_then_free(void *arg)
{
	long ret = alloc_batch(arg);

	if (!ret)
		free_batch(arg);
	return ret;
}

/*
 * A drain interrupts only the CPUs that hold something of the cache
 * (on_each_cpu_cond()): with many caches and few busy CPUs most IPIs
 * would be wasted, and idle, isolated and nohz_full CPUs woken for
 * nothing. One CPU holds the cache's objects and pages: a shrink, and a
 * shrinker scan, drain there and nowhere else.
 */
static void check_drained_on(struct kunit *test, int cpu, const char *by)
{
	KUNIT_EXPECT_TRUE_MSG(test,
			      cpumask_subset(&slqb_kunit_drained, cpumask_of(cpu)),
			      "%s drained on CPUs %*pbl; CPU %d alone held objects",
			      by, cpumask_pr_args(&slqb_kunit_drained), cpu);
	/* KASAN's quarantine may keep every object: nothing queued then. */
	if (!IS_ENABLED(CONFIG_KASAN_GENERIC))
		KUNIT_EXPECT_TRUE_MSG(test,
				      cpumask_test_cpu(cpu, &slqb_kunit_drained),
				      "%s did not drain CPU %d, which held objects",
				      by, cpu);
}

static void slqb_test_drain_targets(struct kunit *test)
{
	struct kmem_cache *s = test_cache(test, "slqb_test_drain", 0, NULL);
	struct batch *b = new_batch(test, s, s->hiwater / 2);
	int a = cpumask_last(cpu_online_mask);

	KUNIT_ASSERT_EQ(test, work_on_cpu(a, alloc_then_free, b), 0);
	cpumask_clear(&slqb_kunit_drained);
	WRITE_ONCE(slqb_kunit_drain_cache, s);
	kmem_cache_shrink(s);
	check_drained_on(test, a, "kmem_cache_shrink()");

	KUNIT_ASSERT_EQ(test, work_on_cpu(a, alloc_then_free, b), 0);
	cpumask_clear(&slqb_kunit_drained);
	slqb_kunit_shrink_scan(ULONG_MAX);
	check_drained_on(test, a, "the shrinker");
	WRITE_ONCE(slqb_kunit_drain_cache, NULL);

	kmem_cache_shrink(s);
	expect_no_slabs(test, s);
	kmem_cache_destroy(s);
}

static long alloc_batch_read_pages(void *arg)
{
	struct free_and_read *ar = arg;
	long ret = alloc_batch(ar->b);

	return ret ? ret : read_cpu_pages(ar->p);
}

static unsigned long queued_on(struct kmem_cache *s, int cpu)
{
	return READ_ONCE(per_cpu_ptr(s->cpu_slab, cpu)->freelist.nr);
}

struct reclaimer {
	struct batch *b;
	struct completion ready;
	unsigned long credited;	/* its reclaim_state's count, at the end */
};

/*
 * A task in reclaim (current->reclaim_state set) on its CPU, with the
 * cache's objects it freed queued there, busy with interrupts enabled
 * until stopped.
 */
static int reclaiming_task(void *arg)
{
	struct reclaimer *r = arg;
	struct reclaim_state rs = { };

	if (!alloc_batch(r->b))
		free_batch(r->b);
	current->reclaim_state = &rs;
	complete(&r->ready);
	while (!kthread_should_stop())
		cpu_relax();
	current->reclaim_state = NULL;
	r->credited = rs.reclaimed_slab;
	return 0;
}

static long shrink_cache(void *arg)
{
	kmem_cache_shrink(arg);
	return 0;
}

/*
 * A task's reclaim_state counts the slab pages it frees itself (reclaim
 * credits them to its progress), not those an interrupt frees on its CPU
 * meanwhile: a drain's IPI from kmem_cache_shrink() on another CPU frees
 * the pages of the objects queued under a task in reclaim, which must be
 * credited none of them.
 */
static void slqb_test_reclaim_credit(struct kunit *test)
{
	struct kmem_cache *s = test_cache(test, "slqb_test_credit", 0, NULL);
	struct reclaimer r = { .b = new_batch(test, s, s->hiwater) };
	struct task_struct *t;
	int a, b;

	two_cpus(test, &a, &b);
	skip_if_quarantine(test);
	init_completion(&r.ready);
	t = kthread_create_on_cpu(reclaiming_task, &r, a, "slqb_reclaim/%u");
	KUNIT_ASSERT_FALSE(test, IS_ERR(t));
	wake_up_process(t);
	wait_for_completion(&r.ready);
	KUNIT_EXPECT_GT(test, queued_on(s, a), 0UL);

	work_on_cpu(b, shrink_cache, s);
	/* The drain gave every page back: on a, under the task in reclaim. */
	KUNIT_EXPECT_EQ(test, slqb_count_slabs(s, NULL, NULL), 0UL);
	kthread_stop(t);
	KUNIT_EXPECT_EQ_MSG(test, r.credited, 0UL,
			    "pages an IPI freed were credited to the task it interrupted");
	kmem_cache_destroy(s);
}

/*
 * The shrinker gives back what reclaim asks for, a cache at a time: asked
 * for one object it drains one cache's queues, not every cache's; asked
 * for all, it drains them all. Two caches queue hiwater - 1 objects each
 * on one CPU (the trim takes a batch an interval: it would need several).
 * Then empty pages a CPU keeps after a burst of frees, with nothing queued
 * (the queued objects allocated again): the shrinker gives them back too.
 */
static void slqb_test_shrinker_scan(struct kunit *test)
{
	int cpu = cpumask_first(cpu_online_mask);
	struct kmem_cache *s1, *s2;
	struct batch *b1, *b2, *burst, *back, *held;
	struct cpu_pages p = { };
	struct free_and_read ar = { .p = &p };
	unsigned long start, counted, recounted, freed;

	skip_if_quarantine(test);
	s1 = test_cache(test, "slqb_test_scan1", 0, NULL);
	s2 = test_cache(test, "slqb_test_scan2", 0, NULL);
	b1 = new_batch(test, s1, s1->hiwater - 1);
	b2 = new_batch(test, s2, s2->hiwater - 1);
	KUNIT_ASSERT_EQ(test, work_on_cpu(cpu, alloc_then_free, b1), 0);
	KUNIT_ASSERT_EQ(test, work_on_cpu(cpu, alloc_then_free, b2), 0);
	KUNIT_ASSERT_GT(test, queued_on(s1, cpu), 0UL);
	KUNIT_ASSERT_GT(test, queued_on(s2, cpu), 0UL);

	/*
	 * The count is kept a while (not walked again, when two come
	 * within a second of each other) and lowered by what scans give
	 * back.
	 */
	start = jiffies;
	counted = slqb_kunit_shrink_count();
	KUNIT_EXPECT_GE(test, counted, queued_on(s1, cpu) + queued_on(s2, cpu));
	held = new_batch(test, s2, queued_on(s2, cpu));
	KUNIT_ASSERT_EQ(test, work_on_cpu(cpu, alloc_batch, held), 0);
	recounted = slqb_kunit_shrink_count();
	KUNIT_ASSERT_EQ(test, work_on_cpu(cpu, free_batch, held), 0);
	if (time_before(jiffies, start + HZ))
		KUNIT_EXPECT_EQ_MSG(test, recounted, counted,
				    "the count was walked again (%d queued objects taken)",
				    held->n);

	freed = slqb_kunit_shrink_scan(1);
	KUNIT_EXPECT_GE(test, freed, 1UL);
	KUNIT_EXPECT_GT(test, queued_on(s1, cpu) + queued_on(s2, cpu), 0UL);
	if (time_before(jiffies, start + HZ))
		KUNIT_EXPECT_EQ(test, slqb_kunit_shrink_count(),
				counted > freed ? counted - freed : 0UL);

	KUNIT_EXPECT_GE(test, slqb_kunit_shrink_scan(ULONG_MAX), 1UL);
	KUNIT_EXPECT_EQ(test, queued_on(s1, cpu), 0UL);
	KUNIT_EXPECT_EQ(test, queued_on(s2, cpu), 0UL);

	burst = new_batch(test, s1, 3 * s1->hiwater);
	KUNIT_ASSERT_EQ(test, work_on_cpu(cpu, alloc_then_free, burst), 0);
	back = new_batch(test, s1, queued_on(s1, cpu));
	ar.b = back;
	p.s = s1;
	KUNIT_ASSERT_EQ(test, work_on_cpu(cpu, alloc_batch_read_pages, &ar), 0);
	KUNIT_ASSERT_EQ(test, queued_on(s1, cpu), 0UL);
	KUNIT_ASSERT_GE(test, p.empty, 1UL);
	KUNIT_EXPECT_GE(test, slqb_kunit_shrink_scan(ULONG_MAX), 1UL);
	KUNIT_ASSERT_EQ(test, work_on_cpu(cpu, read_cpu_pages, &p), 0);
	KUNIT_EXPECT_EQ(test, p.empty, 0UL);

	KUNIT_ASSERT_EQ(test, work_on_cpu(cpu, free_batch, back), 0);
	kmem_cache_shrink(s1);
	kmem_cache_shrink(s2);
	expect_no_slabs(test, s1);
	expect_no_slabs(test, s2);
	kmem_cache_destroy(s1);
	kmem_cache_destroy(s2);
}

static int node_with_memory_besides(int node)
{
	int n;

	for_each_node_state(n, N_NORMAL_MEMORY)
		if (n != node)
			return n;
	return NUMA_NO_NODE;
}

static void slqb_test_offnode(struct kunit *test)
{
	struct kmem_cache *s = test_cache(test, "slqb_test_offnode", 0, NULL);
	struct batch *b = new_batch(test, s, 2 * s->objects);
	int cpu = cpumask_first(cpu_online_mask);
	int i;

	b->node = node_with_memory_besides(cpu_to_mem(cpu));
	if (b->node == NUMA_NO_NODE) {
		kmem_cache_destroy(s);
		kunit_skip(test, "needs a second node with normal memory");
	}
	KUNIT_ASSERT_EQ(test, work_on_cpu(cpu, alloc_batch, b), 0);
	for (i = 0; i < b->n; i++)
		KUNIT_EXPECT_EQ(test, page_to_nid(virt_to_page(b->objs[i])),
				b->node);
	KUNIT_EXPECT_EQ(test, cache_live(s), (unsigned long)b->n);
	KUNIT_ASSERT_EQ(test, work_on_cpu(cpu, free_batch, b), 0);
	/* (Under KASAN, cache_live() first takes them out of quarantine.) */
	KUNIT_EXPECT_EQ(test, cache_live(s), 0UL);
	/* Node lists keep no queues: their pages are gone already. */
	expect_no_slabs(test, s);
	/* Each allocation and each free was one off the CPU's node. */
	if (IS_ENABLED(CONFIG_SLQB_STATS)) {
		KUNIT_EXPECT_EQ(test, cache_stat(s, SLQB_STAT_OFFNODE_ALLOC, -1),
				(unsigned long)b->n);
		KUNIT_EXPECT_EQ(test, cache_stat(s, SLQB_STAT_OFFNODE_FREE, -1),
				(unsigned long)b->n);
	}
	kmem_cache_destroy(s);
}

struct placement {
	struct kmem_cache *s;
	int node;
	bool any;	/* asked for no node (NUMA_NO_NODE): @node is the CPU's */
	int wrong;	/* objects not on @node */
	int failed;	/* allocations that failed */
};

static long alloc_thisnode(void *arg)
{
	struct placement *pl = arg;
	void *objs[64];
	int i;

	for (i = 0; i < ARRAY_SIZE(objs); i++) {
		objs[i] = kmem_cache_alloc_node(pl->s, GFP_KERNEL | __GFP_THISNODE,
						pl->any ? NUMA_NO_NODE : pl->node);
		if (!objs[i])
			pl->failed++;
		else if (page_to_nid(virt_to_page(objs[i])) != pl->node)
			pl->wrong++;
	}
	for (i = 0; i < ARRAY_SIZE(objs); i++)
		if (objs[i])
			kmem_cache_free(pl->s, objs[i]);
	return 0;
}

/* Every object was where it was asked for; the cache's pages all go. */
static void placement_done(struct kunit *test, struct placement *pl)
{
	KUNIT_EXPECT_EQ(test, pl->wrong, 0);
	KUNIT_EXPECT_EQ(test, pl->failed, 0);
	kmem_cache_shrink(pl->s);
	expect_no_slabs(test, pl->s);
	kmem_cache_destroy(pl->s);
}

/*
 * __GFP_THISNODE places: from every online CPU, kmalloc_node() for every
 * node with normal memory (a slab page can come from no other), the
 * CPU's own (numa_mem_id()) included when it has some, returns only
 * objects of that node.
 */
static void slqb_test_thisnode(struct kunit *test)
{
	struct kmem_cache *s = test_cache(test, "slqb_test_thisnode", 0, NULL);
	struct placement pl = { .s = s };
	int cpu, node;

	for_each_online_cpu(cpu) {
		for_each_node_state(node, N_NORMAL_MEMORY) {
			pl.node = node;
			work_on_cpu(cpu, alloc_thisnode, &pl);
		}
	}
	placement_done(test, &pl);
}

static long fill_and_free_local(void *arg)
{
	struct placement *pl = arg;
	void *objs[16];
	int i;

	for (i = 0; i < ARRAY_SIZE(objs); i++)
		objs[i] = kmem_cache_alloc(pl->s, GFP_KERNEL);
	for (i = 0; i < ARRAY_SIZE(objs); i++) {
		if (!objs[i])
			pl->failed++;
		else if (page_to_nid(virt_to_page(objs[i])) == pl->node)
			pl->wrong++;	/* here: the fallback page was not taken */
		if (objs[i])
			kmem_cache_free(pl->s, objs[i]);
	}
	return 0;
}

/*
 * A CPU whose own list holds a page of another node (the page allocator
 * fell back) and whose freelist holds its objects: a __GFP_THISNODE
 * request for the CPU's own node must not take them, nor one for no node
 * in particular (NUMA_NO_NODE), which means the CPU's own.
 */
static void slqb_test_thisnode_fallback(struct kunit *test)
{
	struct kmem_cache *s = test_cache(test, "slqb_test_thisfb", 0, NULL);
	int cpu = cpumask_first(cpu_online_mask);
	int local = cpu_to_mem(cpu);
	struct placement pl = { .s = s, .node = local };

	skip_if_quarantine(test);
	WRITE_ONCE(slqb_kunit_foreign_node, node_with_memory_besides(local));
	if (slqb_kunit_foreign_node == NUMA_NO_NODE) {
		kmem_cache_destroy(s);
		kunit_skip(test, "needs a second node with normal memory");
	}
	for (pl.any = false; ; pl.any = true) {
		WRITE_ONCE(slqb_kunit_foreign_cache, s);
		/* The CPU's freelist now holds objects of the other node's. */
		work_on_cpu(cpu, fill_and_free_local, &pl);
		WRITE_ONCE(slqb_kunit_foreign_cache, NULL);
		KUNIT_ASSERT_EQ(test, pl.wrong, 0);
		KUNIT_ASSERT_EQ(test, pl.failed, 0);
		KUNIT_ASSERT_GT(test, per_cpu_ptr(s->cpu_slab, cpu)->freelist.nr,
				0UL);

		work_on_cpu(cpu, alloc_thisnode, &pl);
		KUNIT_EXPECT_EQ_MSG(test, pl.wrong, 0, "asked for %s",
				    pl.any ? "no node" : "the CPU's node");
		if (pl.any || pl.wrong)
			break;
	}
	placement_done(test, &pl);
}

static long alloc_thisnode_local(void *arg)
{
	struct placement *pl = arg;
	void *p = kmem_cache_alloc(pl->s, GFP_KERNEL), *q = NULL;

	pl->node = numa_mem_id();
	if (p && node_state(pl->node, N_NORMAL_MEMORY) &&
	    page_to_nid(virt_to_page(p)) == pl->node) {
		kmem_cache_free(pl->s, p);
		q = kmem_cache_alloc_node(pl->s, GFP_KERNEL | __GFP_THISNODE,
					  pl->node);
		pl->wrong += q != p;
		p = q;
	}
	if (p)
		kmem_cache_free(pl->s, p);
	else
		pl->failed++;
	return 0;
}

/*
 * A __GFP_THISNODE request for the CPU's own node, with an object of that
 * node queued on the CPU, takes it as a plain allocation would (the last
 * one freed), not a node list's: without the node's lock. On every CPU
 * whose node has normal memory (the others, and any whose first object
 * came from elsewhere, have nothing to check).
 */
static void slqb_test_thisnode_local(struct kunit *test)
{
	struct kmem_cache *s = test_cache(test, "slqb_test_thisloc", 0, NULL);
	struct placement pl = { .s = s };
	int cpu;

	skip_if_quarantine(test);
	for_each_online_cpu(cpu)
		work_on_cpu(cpu, alloc_thisnode_local, &pl);
	KUNIT_EXPECT_EQ_MSG(test, pl.wrong, 0,
			    "__GFP_THISNODE for the CPU's node skipped the object it had queued");
	KUNIT_EXPECT_EQ(test, pl.failed, 0);
	if (IS_ENABLED(CONFIG_SLQB_STATS))
		KUNIT_EXPECT_EQ(test, cache_stat(s, SLQB_STAT_OFFNODE_ALLOC, -1),
				0UL);
	kmem_cache_shrink(s);
	expect_no_slabs(test, s);
	kmem_cache_destroy(s);
}

/*
 * A node without memory a slab page can come from: none at all, or only
 * ZONE_MOVABLE's (a node whose memory was onlined movable).
 */
static int memoryless_node(void)
{
	int node;

	for_each_online_node(node)
		if (!node_state(node, N_NORMAL_MEMORY))
			return node;
	return NUMA_NO_NODE;
}

/*
 * A CPU on a node without memory: its objects come from elsewhere, its
 * frees come home, and it does not grow one page per object (2009).
 */
static void slqb_test_memoryless_node(struct kunit *test)
{
	struct kmem_cache *s = test_cache(test, "slqb_test_memless", 0, NULL);
	struct batch *b = new_batch(test, s, 4 * s->objects);
	int node = memoryless_node();
	void *p;
	int cpu;

	if (node == NUMA_NO_NODE) {
		kmem_cache_destroy(s);
		kunit_skip(test, "needs a node without normal memory");
	}
	/* No page can come from that node itself. */
	p = kmem_cache_alloc_node(s, GFP_KERNEL | __GFP_THISNODE, node);
	KUNIT_EXPECT_NULL(test, p);
	if (p)
		kmem_cache_free(s, p);
	/* kmalloc_node() for it without __GFP_THISNODE still succeeds. */
	p = kmem_cache_alloc_node(s, GFP_KERNEL, node);
	KUNIT_EXPECT_NOT_NULL(test, p);
	if (p)
		kmem_cache_free(s, p);

	cpu = cpumask_first_and(cpumask_of_node(node), cpu_online_mask);
	if (cpu < nr_cpu_ids) {
		int round;

		for (round = 0; round < 3; round++) {
			KUNIT_ASSERT_EQ(test, work_on_cpu(cpu, alloc_batch, b), 0);
			KUNIT_ASSERT_EQ(test, work_on_cpu(cpu, free_batch, b), 0);
		}
		KUNIT_EXPECT_LE(test, slqb_count_slabs(s, NULL, NULL),
				DIV_ROUND_UP((unsigned long)b->n, s->objects) + 1);
	}
	kmem_cache_shrink(s);
	expect_no_slabs(test, s);
	kmem_cache_destroy(s);
}

struct fallback {
	struct batch *b;
	int node;
	unsigned long queued, partial;	/* before the allocation */
	void *p;
};

static long fallback_alloc(void *arg)
{
	struct fallback *f = arg;
	struct kmem_cache_cpu *c = this_cpu_ptr(f->b->s->cpu_slab);
	long ret = alloc_batch(f->b);

	if (ret)
		return ret;
	/* Past hiwater: objects stay queued, others go back to their pages. */
	free_batch(f->b);
	f->queued = READ_ONCE(c->freelist.nr);
	f->partial = READ_ONCE(c->list.nr_partial);
	f->p = kmem_cache_alloc_node(f->b->s, GFP_KERNEL, f->node);
	return f->p ? 0 : -ENOMEM;
}

/*
 * An allocation for a node without memory falls back to the CPU's own
 * list, which holds queued objects and partial pages: the queued objects
 * must stay queued, not be replaced by a partial page's (they would be
 * lost, and counted in use for ever).
 */
static void slqb_test_node_fallback(struct kunit *test)
{
	struct kmem_cache *s = test_cache(test, "slqb_test_fallback", 0, NULL);
	struct fallback f = { .node = memoryless_node() };

	if (f.node == NUMA_NO_NODE || IS_ENABLED(CONFIG_KASAN_GENERIC)) {
		kmem_cache_destroy(s);
		kunit_skip(test, f.node == NUMA_NO_NODE ?
			   "needs a node without normal memory" :
			   "KASAN's quarantine keeps the freelist empty");
	}
	f.b = new_batch(test, s, 3 * s->hiwater);
	KUNIT_ASSERT_EQ(test, work_on_cpu(cpumask_first(cpu_online_mask),
					  fallback_alloc, &f), 0);
	/* The case this is about: both were there. */
	KUNIT_EXPECT_GT(test, f.queued, 0UL);
	KUNIT_EXPECT_GT(test, f.partial, 0UL);
	kmem_cache_free(s, f.p);
	KUNIT_EXPECT_EQ(test, cache_live(s), 0UL);
	kmem_cache_shrink(s);
	expect_no_slabs(test, s);
	kmem_cache_destroy(s);
}

struct reserves {
	struct batch *b;	/* plain allocations, then one more */
	void *r1, *r2;		/* the entitled ones */
	bool same_page;		/* r2 came from r1's page */
	int node;		/* new pages' node; NUMA_NO_NODE: the CPU's */
	int nid;		/* r1's node */
	int here;		/* the CPU's node, if it has normal memory */
	void *mine[2];		/* entitled, for @here: thisnode, then not */
};

/*
 * On one CPU (work_on_cpu()): two entitled allocations; two more that ask
 * for this CPU's node, with and without __GFP_THISNODE, which must get
 * objects of that node whatever reserve page its list holds; then plain
 * ones past the watermark, then the second entitled object freed and one
 * more plain allocation, which must not get it.
 */
static long alloc_reserves(void *arg)
{
	struct reserves *r = arg;
	struct kmem_cache *s = r->b->s;
	int i, n = r->b->n - 1;

	WRITE_ONCE(slqb_kunit_reserve_cache, s);
	if (r->node != NUMA_NO_NODE) {
		WRITE_ONCE(slqb_kunit_foreign_node, r->node);
		WRITE_ONCE(slqb_kunit_foreign_cache, s);
	}
	r->r1 = kmem_cache_alloc(s, GFP_KERNEL | __GFP_MEMALLOC);
	r->r2 = kmem_cache_alloc(s, GFP_KERNEL | __GFP_MEMALLOC);
	r->same_page = r->r1 && r->r2 &&
		       virt_to_slab(r->r1) == virt_to_slab(r->r2);
	r->here = numa_mem_id();
	if (!node_state(r->here, N_NORMAL_MEMORY))
		r->here = NUMA_NO_NODE;
	for (i = 0; i < ARRAY_SIZE(r->mine); i++)
		r->mine[i] = r->here == NUMA_NO_NODE ? NULL :
			     kmem_cache_alloc_node(s, GFP_KERNEL | __GFP_MEMALLOC |
						   (i ? 0 : __GFP_THISNODE),
						   r->here);
	for (i = 0; i < n; i++)
		r->b->objs[i] = kmem_cache_alloc(s, GFP_KERNEL);
	if (r->r2)
		kmem_cache_free(s, r->r2);
	r->b->objs[n] = kmem_cache_alloc(s, GFP_KERNEL);
	WRITE_ONCE(slqb_kunit_foreign_cache, NULL);
	WRITE_ONCE(slqb_kunit_reserve_cache, NULL);
	return 0;
}

/* alloc_reserves() on @cpu, its new pages from @r->node, and the checks. */
static void check_reserves(struct kunit *test, struct reserves *r, int cpu)
{
	struct kmem_cache *s = r->b->s;
	unsigned int plain_reserve = 0;
	int i;

	KUNIT_ASSERT_EQ(test, work_on_cpu(cpu, alloc_reserves, r), 0);
	KUNIT_ASSERT_NOT_NULL(test, r->r1);
	KUNIT_ASSERT_NOT_NULL(test, r->r2);
	KUNIT_EXPECT_TRUE(test, slab_test_pfmemalloc(virt_to_slab(r->r1)));
	KUNIT_EXPECT_TRUE_MSG(test, r->same_page,
			      "CPU %d took a second reserve page%s", cpu,
			      r->node == NUMA_NO_NODE ? "" :
			      " (its new pages from another node)");
	r->nid = page_to_nid(virt_to_page(r->r1));
	for (i = 0; i < ARRAY_SIZE(r->mine); i++) {
		if (r->here == NUMA_NO_NODE)
			break;
		KUNIT_ASSERT_NOT_NULL(test, r->mine[i]);
		KUNIT_EXPECT_EQ_MSG(test, page_to_nid(virt_to_page(r->mine[i])),
				    r->here,
				    "CPU %d: an entitled allocation for node %d%s got another node's object",
				    cpu, r->here, i ? "" : " (__GFP_THISNODE)");
		/*
		 * The reserve page of this node is on the list they look at
		 * (the first pass's, on a CPU of a node with memory): one of
		 * them taking a reserve page must take that one.
		 */
		if (r->node == NUMA_NO_NODE && r->nid == r->here &&
		    slab_test_pfmemalloc(virt_to_slab(r->mine[i])))
			KUNIT_EXPECT_PTR_EQ_MSG(test, virt_to_slab(r->mine[i]),
						virt_to_slab(r->r1),
						"CPU %d: an entitled allocation for node %d%s took a second reserve page",
						cpu, r->here, i ? "" : " (__GFP_THISNODE)");
		kmem_cache_free(s, r->mine[i]);
	}
	for (i = 0; i < r->b->n; i++) {
		KUNIT_ASSERT_NOT_NULL(test, r->b->objs[i]);
		if (slab_test_pfmemalloc(virt_to_slab(r->b->objs[i])))
			plain_reserve++;
	}
	KUNIT_EXPECT_EQ_MSG(test, plain_reserve, 0U,
			    "CPU %d: plain GFP_KERNEL allocations got reserve objects",
			    cpu);
	kmem_cache_free(s, r->r1);
	for (i = 0; i < r->b->n; i++)
		kmem_cache_free(s, r->b->objs[i]);
	/* The next run starts with no objects queued, as this one did. */
	kmem_cache_shrink(s);
}

/*
 * The emergency reserves: objects of a page from the reserves go only to
 * callers entitled to them, freed ones included, and an entitled caller
 * uses the reserve page it has before it takes another. The suite makes
 * the test cache's new pages for entitled callers seem to come from the
 * reserves, as the page allocator's would when it gives them. On every
 * CPU: one on a node without memory gets its pages, the reserve page
 * among them, from another node, and must look for that page on the node
 * list it went to, not its own node's. Then, where there is a second node
 * with normal memory, the same with every CPU's new pages from another
 * node than the first run's, as when its own is short: the reserve page
 * then sits on a list of another node than its own.
 */
static void slqb_test_reserves(struct kunit *test)
{
	struct kmem_cache *s = test_cache(test, "slqb_test_reserves", 0, NULL);
	struct reserves r = { .b = new_batch(test, s, 2 * s->hiwater + 1) };
	int cpu;

	for_each_online_cpu(cpu) {
		r.node = NUMA_NO_NODE;
		check_reserves(test, &r, cpu);
		r.node = node_with_memory_besides(r.nid);
		if (r.node != NUMA_NO_NODE)
			check_reserves(test, &r, cpu);
	}
	KUNIT_EXPECT_EQ(test, cache_live(s), 0UL);
	kmem_cache_shrink(s);
	expect_no_slabs(test, s);
	kmem_cache_destroy(s);
}

/*
 * slqb_debug= reaches every cache but those created with
 * SLAB_NO_USER_FLAGS, and does not track kmemleak's own caches
 * (SLAB_NOLEAKTRACE) unless it names them, as with slub_debug=. Booted
 * with slqb_debug (slqb-checks-numa2) this checks it; else it skips.
 */
static void slqb_test_debug_flags(struct kunit *test)
{
	struct kmem_cache *plain, *nouser, *noleak;

	plain = test_cache(test, "slqb_test_flags", 0, NULL);
	if (!(plain->flags & SLAB_STORE_USER)) {
		kmem_cache_destroy(plain);
		kunit_skip(test, "needs slqb_debug= with U for every cache");
	}
	nouser = test_cache(test, "slqb_test_flags_nouser",
			    SLAB_NO_USER_FLAGS, NULL);
	noleak = test_cache(test, "slqb_test_flags_noleak", SLAB_NOLEAKTRACE,
			    NULL);
	KUNIT_EXPECT_EQ(test, nouser->flags & SLQB_DEBUG_FLAGS, 0U);
	KUNIT_EXPECT_EQ(test, noleak->flags & SLAB_STORE_USER, 0U);
	/* Its other checks stay. */
	KUNIT_EXPECT_EQ(test, noleak->flags & SLQB_DEBUG_FLAGS,
			plain->flags & SLQB_DEBUG_FLAGS & ~SLAB_STORE_USER);
	kmem_cache_destroy(noleak);
	kmem_cache_destroy(nouser);
	kmem_cache_destroy(plain);
}

static void slqb_test_bulk(struct kunit *test)
{
	struct kmem_cache *s = test_cache(test, "slqb_test_bulk", 0, NULL);
	static const size_t sizes[] = { 1, 2, 16, 63, 256 };
	struct kmem_cache *s2;
	void **p = kunit_kcalloc(test, 256, sizeof(void *), GFP_KERNEL);
	size_t i, j, k;

	KUNIT_ASSERT_NOT_NULL(test, p);
	for (k = 0; k < ARRAY_SIZE(sizes); k++) {
		size_t n = sizes[k];

		KUNIT_ASSERT_EQ(test, kmem_cache_alloc_bulk(s, GFP_KERNEL, n, p),
				(int)n);
		for (i = 0; i < n; i++) {
			KUNIT_EXPECT_NOT_NULL(test, p[i]);
			memset(p[i], 0xa5, TEST_SIZE);
			for (j = 0; j < i; j++)
				KUNIT_EXPECT_PTR_NE(test, p[i], p[j]);
		}
		KUNIT_EXPECT_EQ(test, cache_live(s), (unsigned long)n);
		kmem_cache_free_bulk(s, n, p);
		KUNIT_EXPECT_EQ(test, cache_live(s), 0UL);
	}

	/*
	 * kfree_bulk() of the objects of two caches, in runs of three of
	 * each: a page is looked up only where the page changes, and every
	 * object must still go back to its own cache.
	 */
	s2 = test_cache(test, "slqb_test_bulk2", 0, NULL);
	for (i = 0; i < 64; i++) {
		p[i] = kmem_cache_alloc((i / 3) & 1 ? s2 : s, GFP_KERNEL);
		KUNIT_ASSERT_NOT_NULL(test, p[i]);
	}
	KUNIT_EXPECT_EQ(test, cache_live(s) + cache_live(s2), 64UL);
	kfree_bulk(64, p);
	KUNIT_EXPECT_EQ(test, cache_live(s), 0UL);
	KUNIT_EXPECT_EQ(test, cache_live(s2), 0UL);
	kmem_cache_shrink(s2);
	expect_no_slabs(test, s2);
	kmem_cache_destroy(s2);

	kmem_cache_shrink(s);
	expect_no_slabs(test, s);
	kmem_cache_destroy(s);

	/* kfree_bulk(): any kmalloc size, large ones included. */
	for (i = 0; i < 64; i++) {
		p[i] = kmalloc(8 << (i % 12), GFP_KERNEL);
		KUNIT_ASSERT_NOT_NULL(test, p[i]);
	}
	kfree_bulk(64, p);
}

struct bulk_run {
	struct kmem_cache *s;
	void **p;
	size_t n;
};

static long bulk_alloc_free(void *arg)
{
	struct bulk_run *r = arg;

	if (kmem_cache_alloc_bulk(r->s, GFP_KERNEL, r->n, r->p) != r->n)
		return -ENOMEM;
	kmem_cache_free_bulk(r->s, r->n, r->p);
	return 0;
}

/*
 * A bulk free of three times hiwater on one CPU: the freelist takes what
 * fits under hiwater, the rest goes straight back to the pages, and no
 * page is left that holds neither a queued object nor is one the CPU
 * keeps (slab_keep_empty()).
 */
static void slqb_test_bulk_past_hiwater(struct kunit *test)
{
	struct kmem_cache *s = test_cache(test, "slqb_test_bulkhw", 0, NULL);
	int cpu = cpumask_first(cpu_online_mask);
	struct bulk_run r = { .s = s, .n = 3 * s->hiwater };
	struct cpu_pages pages = { .s = s };

	skip_if_quarantine(test);
	r.p = kunit_kcalloc(test, r.n, sizeof(void *), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, r.p);
	KUNIT_ASSERT_EQ(test, work_on_cpu(cpu, bulk_alloc_free, &r), 0);
	KUNIT_EXPECT_EQ(test, cache_live(s), 0UL);
	work_on_cpu(cpu, read_cpu_pages, &pages);
	KUNIT_EXPECT_GT(test, pages.queued, 0UL);
	KUNIT_EXPECT_LE(test, pages.queued, (unsigned long)s->hiwater);
	KUNIT_EXPECT_LE(test, pages.empty * s->objects,
			(unsigned long)s->hiwater);
	KUNIT_EXPECT_LE(test, pages.slabs - pages.empty, pages.queued);
	/* And the cache still serves as many again, and takes them back. */
	KUNIT_ASSERT_EQ(test, work_on_cpu(cpu, bulk_alloc_free, &r), 0);
	KUNIT_EXPECT_EQ(test, cache_live(s), 0UL);
	kmem_cache_shrink(s);
	expect_no_slabs(test, s);
	kmem_cache_destroy(s);
}

static long bulk_free_only(void *arg)
{
	struct bulk_run *r = arg;

	kmem_cache_free_bulk(r->s, r->n, r->p);
	return 0;
}

/*
 * A bulk free past hiwater links each run of objects of one page into
 * that page at once: runs of 1 to 8 objects, taken from both ends of the
 * allocation order, another CPU's objects between them. Every page's
 * count must come out right: nothing is left live, and a shrink gives
 * every page back.
 */
static void slqb_test_bulk_runs(struct kunit *test)
{
	struct kmem_cache *s = test_cache(test, "slqb_test_bulkruns", 0, NULL);
	int a = cpumask_first(cpu_online_mask);
	int b = cpumask_next(a, cpu_online_mask);
	size_t n = 3 * s->hiwater, i, k = 0, lo = 0, hi = n;
	struct batch *own = new_batch(test, s, n);
	struct batch *other = new_batch(test, s, n / 4);
	struct bulk_run r = { .s = s };

	r.p = kunit_kcalloc(test, n + n / 4, sizeof(void *), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, r.p);
	KUNIT_ASSERT_EQ(test, work_on_cpu(a, alloc_batch, own), 0);
	if (b < nr_cpu_ids)
		KUNIT_ASSERT_EQ(test, work_on_cpu(b, alloc_batch, other), 0);
	else
		other->n = 0;
	for (i = 0; lo < hi; i++) {
		size_t len = 1 + i % 8;

		while (len-- && lo < hi)
			r.p[k++] = i & 1 ? own->objs[--hi] : own->objs[lo++];
		if (i < other->n)
			r.p[k++] = other->objs[i];
	}
	for (; i < other->n; i++)
		r.p[k++] = other->objs[i];
	r.n = k;
	KUNIT_ASSERT_EQ(test, r.n, n + other->n);
	KUNIT_ASSERT_EQ(test, work_on_cpu(a, bulk_free_only, &r), 0);
	KUNIT_EXPECT_EQ(test, cache_live(s), 0UL);
	kmem_cache_shrink(s);
	expect_no_slabs(test, s);
	kmem_cache_destroy(s);
}

#define PATTERN 0xab

static void pattern_ctor(void *object)
{
	memset(object, PATTERN, TEST_SIZE);
}

static bool has_pattern(const u8 *p)
{
	int i;

	for (i = 0; i < TEST_SIZE; i++)
		if (p[i] != PATTERN)
			return false;
	return true;
}

/* The free pointer stays out of objects whose contents must survive. */
static void slqb_test_ctor_and_rcu(struct kunit *test)
{
	struct kmem_cache *s;
	u8 *p;

	s = test_cache(test, "slqb_test_ctor", 0, pattern_ctor);
	p = kmem_cache_alloc(s, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, p);
	KUNIT_EXPECT_TRUE(test, has_pattern(p));
	kmem_cache_free(s, p);
	p = kmem_cache_alloc(s, GFP_KERNEL);
	KUNIT_EXPECT_TRUE(test, has_pattern(p));
	kmem_cache_free(s, p);
	kmem_cache_destroy(s);

	s = test_cache(test, "slqb_test_rcu", SLAB_TYPESAFE_BY_RCU, NULL);
	p = kmem_cache_alloc(s, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, p);
	memset(p, PATTERN, TEST_SIZE);
	rcu_read_lock();
	kmem_cache_free(s, p);
	KUNIT_EXPECT_TRUE(test, has_pattern(p));
	rcu_read_unlock();
	kmem_cache_destroy(s);
}

/*
 * A page allocated while the freelist was empty, which an interrupt (a
 * remote-free claim) or a migration refilled meanwhile, joins the CPU's
 * list unused. It must be given back like any empty page: by
 * kmem_cache_shrink() and before destroy (the slab_scale module's fanin
 * left such pages, and kmem_cache_destroy() warned). The constructor,
 * which runs while the page is being made with interrupts enabled, plays
 * the interrupt: it frees an object of the cache onto this CPU's freelist.
 */
static struct kmem_cache *refill_cache;
static void *refill_object;

static void refill_ctor(void *object)
{
	void *held = xchg(&refill_object, NULL);

	if (held)
		kmem_cache_free(refill_cache, held);
}

static void slqb_test_unused_page(struct kunit *test)
{
	struct kmem_cache *s = test_cache(test, "slqb_test_unused", 0,
					  refill_ctor);
	unsigned int i, n = s->objects;
	void **objs = kunit_kcalloc(test, n, sizeof(void *), GFP_KERNEL);
	void *last;

	KUNIT_ASSERT_NOT_NULL(test, objs);
	skip_if_quarantine(test);
	refill_cache = s;
	migrate_disable();
	/* A page's worth: the freelist is empty, no page is partial. */
	for (i = 0; i < n; i++)
		objs[i] = kmem_cache_alloc(s, GFP_KERNEL);
	/* The next allocation needs a page; making it frees objs[0]. */
	WRITE_ONCE(refill_object, objs[0]);
	last = kmem_cache_alloc(s, GFP_KERNEL);
	migrate_enable();

	KUNIT_EXPECT_NULL(test, READ_ONCE(refill_object));
	KUNIT_EXPECT_PTR_EQ(test, last, objs[0]);
	objs[0] = last;
	for (i = 0; i < n; i++)
		kmem_cache_free(s, objs[i]);
	kmem_cache_shrink(s);
	expect_no_slabs(test, s);
	kmem_cache_destroy(s);
}

/*
 * A CPU dies with objects on its queues and others still live: the queues
 * are drained, later frees of its objects still reach their pages, and
 * everything can be given back.
 */
static void slqb_test_cpu_hotplug(struct kunit *test)
{
	struct kmem_cache *s;
	struct batch *b, half;
	int a, c;

	if (!IS_ENABLED(CONFIG_HOTPLUG_CPU))
		kunit_skip(test, "needs CPU hotplug");
	two_cpus(test, &a, &c);
	s = test_cache(test, "slqb_test_hotplug", 0, NULL);
	b = new_batch(test, s, 4 * s->objects);
	KUNIT_ASSERT_EQ(test, work_on_cpu(c, alloc_batch, b), 0);
	half = *b;
	half.n = b->n / 2;
	KUNIT_ASSERT_EQ(test, work_on_cpu(c, free_batch, &half), 0);

	KUNIT_ASSERT_EQ(test, remove_cpu(c), 0);
	KUNIT_EXPECT_EQ(test, cache_live(s), (unsigned long)(b->n - half.n));
	half.objs = b->objs + half.n;
	half.n = b->n - half.n;
	free_batch(&half);
	KUNIT_EXPECT_EQ(test, cache_live(s), 0UL);
	kmem_cache_shrink(s);
	expect_no_slabs(test, s);
	KUNIT_EXPECT_EQ(test, add_cpu(c), 0);

	/* Back online, the CPU allocates and frees as before. */
	KUNIT_ASSERT_EQ(test, work_on_cpu(c, alloc_batch, b), 0);
	KUNIT_ASSERT_EQ(test, work_on_cpu(c, free_batch, b), 0);
	kmem_cache_shrink(s);
	expect_no_slabs(test, s);
	kmem_cache_destroy(s);
}

/* The pages on @s's node lists. */
static unsigned long node_list_slabs(struct kmem_cache *s)
{
	struct kmem_cache_node *n;
	unsigned long slabs = 0;
	int node;

	for_each_kmem_cache_node(s, node, n)
		slabs += READ_ONCE(n->list.nr_slabs);
	return slabs;
}

/* The pages that @b's objects fill, no other object on them. */
static unsigned long full_slabs(struct kmem_cache *s, struct batch *b)
{
	struct slab *last = NULL;
	unsigned long slabs = 0;
	int i;

	for (i = 0; i < b->n; i++) {
		struct slab *slab = virt_to_slab(b->objs[i]);

		if (slab != last && slab->inuse == slqb_slab_objects(s, slab))
			slabs++;
		last = slab;
	}
	return slabs;
}

/*
 * A CPU that goes offline leaves its pages that hold live objects to their
 * nodes' lists: another CPU of the node allocates from them rather than
 * from new pages, and they go back once empty, the CPU still offline.
 * Its half-used pages move when it dies; its full ones when a free first
 * reaches them (hand_over() finds their CPU dead), a debug cache's with
 * the rest. What the node lists
 * hold goes back as it empties: no shrink is needed.
 */
static void slqb_test_dead_cpu_pages(struct kunit *test)
{
	struct kmem_cache *s;
	struct batch *b, *full, *odd, *more, *rest;
	unsigned long slabs, on_cpu;
	bool listed;
	int a, c, i;

	if (!IS_ENABLED(CONFIG_HOTPLUG_CPU))
		kunit_skip(test, "needs CPU hotplug");
	two_cpus(test, &a, &c);
	skip_if_quarantine(test);
	/* a takes from c's node's list: a CPU of the same memory node. */
	for_each_online_cpu(a)
		if (a != c && cpu_to_mem(a) == cpu_to_mem(c))
			break;
	if (a >= nr_cpu_ids)
		kunit_skip(test, "needs two CPUs of one node");

	s = test_cache(test, "slqb_test_dead_pages", 0, NULL);
	b = new_batch(test, s, 4 * s->objects);
	full = new_batch(test, s, 2 * s->objects);
	odd = new_batch(test, s, b->n / 2);
	more = new_batch(test, s, odd->n + full->n / 2);
	rest = new_batch(test, s, b->n + full->n);
	KUNIT_ASSERT_EQ(test, work_on_cpu(c, alloc_batch, b), 0);
	KUNIT_ASSERT_EQ(test, work_on_cpu(c, alloc_batch, full), 0);
	slabs = slqb_count_slabs(s, NULL, NULL);
	/* Every other object of b freed on c: its pages half used. */
	for (i = 0; i < odd->n; i++)
		odd->objs[i] = b->objs[2 * i];
	KUNIT_ASSERT_EQ(test, work_on_cpu(c, free_batch, odd), 0);

	/*
	 * Its full pages stay its own until a free reaches them, but for a
	 * debug cache's, which are listed (slab_take()) and move with the
	 * rest.
	 */
	listed = !list_empty(&per_cpu_ptr(s->cpu_slab, c)->list.full);
	KUNIT_ASSERT_EQ(test, remove_cpu(c), 0);
	on_cpu = listed ? 0 : full_slabs(s, full);
	KUNIT_EXPECT_GE(test, full_slabs(s, full), 1UL);
	KUNIT_EXPECT_EQ(test, per_cpu_ptr(s->cpu_slab, c)->list.nr_slabs, on_cpu);
	KUNIT_EXPECT_EQ_MSG(test, node_list_slabs(s), slabs - on_cpu,
			    "c's half-used pages did not all move to the node lists");

	/*
	 * Every other object of the full pages freed on a: the frees go by
	 * a's rlist to hand_over() (the shrink hands the rest over), which
	 * moves each page to its node's list.
	 */
	rest->n = 0;
	for (i = 0; i < full->n; i++) {
		if (i % 2)
			rest->objs[rest->n++] = full->objs[i];
		else
			odd->objs[i / 2] = full->objs[i];
	}
	odd->n = (full->n + 1) / 2;
	KUNIT_ASSERT_EQ(test, work_on_cpu(a, free_batch, odd), 0);
	kmem_cache_shrink(s);
	KUNIT_EXPECT_EQ(test, per_cpu_ptr(s->cpu_slab, c)->list.nr_slabs, 0UL);
	KUNIT_EXPECT_EQ_MSG(test, node_list_slabs(s), slabs,
			    "c's full pages did not move to the node lists once freed into");

	/* As many objects as were freed: a finds room for all of them. */
	more->n = b->n / 2 + odd->n;
	KUNIT_ASSERT_EQ(test, work_on_cpu(a, alloc_batch, more), 0);
	KUNIT_EXPECT_EQ(test, slqb_count_slabs(s, NULL, NULL), slabs);

	for (i = 0; i < b->n / 2; i++)
		rest->objs[rest->n++] = b->objs[2 * i + 1];
	KUNIT_ASSERT_EQ(test, work_on_cpu(a, free_batch, rest), 0);
	KUNIT_ASSERT_EQ(test, work_on_cpu(a, free_batch, more), 0);
	KUNIT_EXPECT_EQ(test, cache_live(s), 0UL);
	/* Node lists keep no queues: their pages went back as they emptied. */
	KUNIT_EXPECT_EQ_MSG(test, node_list_slabs(s), 0UL,
			    "node lists kept empty pages of the dead CPU");
	kmem_cache_shrink(s);
	expect_no_slabs(test, s);
	KUNIT_EXPECT_EQ(test, add_cpu(c), 0);
	kmem_cache_destroy(s);
}

/*
 * Frees into the pages of a CPU that does not allocate must not pile up
 * on its remote queue: past hiwater it is kicked, claims them and gives
 * back what is above hiwater (the 2009 pinning problem). What stays is
 * at most hiwater on its freelist and hiwater on its remote queue, each.
 */
static void slqb_test_idle_owner(struct kunit *test)
{
	struct kmem_cache *s = test_cache(test, "slqb_test_idle", 0, NULL);
	struct batch *b;
	struct kmem_cache_cpu *owner;
	unsigned long held, queued = 0;
	int a, c, i;

	two_cpus(test, &a, &c);
	skip_if_quarantine(test);
	b = new_batch(test, s, 4 * s->hiwater);
	KUNIT_ASSERT_EQ(test, work_on_cpu(a, alloc_batch, b), 0);
	KUNIT_ASSERT_EQ(test, work_on_cpu(c, free_batch, b), 0);

	owner = per_cpu_ptr(s->cpu_slab, a);
	for (i = 0; i < 50; i++) {
		msleep(20);
		held = READ_ONCE(owner->freelist.nr);
#ifdef CONFIG_SMP
		queued = READ_ONCE(owner->remote_free.list.nr);
#endif
		if (held <= s->hiwater && queued <= s->hiwater)
			break;
	}
	/* Without the kick, all 4 * hiwater would still be queued. */
	KUNIT_EXPECT_LE(test, held, (unsigned long)s->hiwater);
	KUNIT_EXPECT_LE(test, queued, (unsigned long)s->hiwater);
	kmem_cache_shrink(s);
	expect_no_slabs(test, s);
	kmem_cache_destroy(s);
}

#ifdef CONFIG_SMP
/*
 * The periodic trim claims an idle owner's remote queue; what that takes
 * its freelist past hiwater goes back to the pages in the same trim, so
 * the freelist stays within hiwater (it used to flush one batch, leaving
 * up to twice hiwater queued until later trims).
 */
static void slqb_test_trim_bound(struct kunit *test)
{
	struct kmem_cache *s = test_cache(test, "slqb_test_trim", 0, NULL);
	struct batch *own, *far;
	struct kmem_cache_cpu *owner;
	struct cpu_queues q = { .s = s };
	unsigned long held;
	int a, c, i;

	two_cpus(test, &a, &c);
	skip_if_quarantine(test);
	own = new_batch(test, s, 2 * s->hiwater);
	far = new_batch(test, s, s->hiwater);
	KUNIT_ASSERT_EQ(test, work_on_cpu(a, alloc_batch, own), 0);
	KUNIT_ASSERT_EQ(test, work_on_cpu(a, alloc_batch, far), 0);
	/* A full freelist on a, and a remote queue not past the kick. */
	KUNIT_ASSERT_EQ(test, work_on_cpu(a, free_batch, own), 0);
	KUNIT_ASSERT_EQ(test, work_on_cpu(c, free_batch, far), 0);
	owner = per_cpu_ptr(s->cpu_slab, a);
	held = READ_ONCE(owner->freelist.nr);
	KUNIT_EXPECT_LE(test, held, (unsigned long)s->hiwater);

	/*
	 * The trim is deferrable: wake a every 100 ms so that it runs, for
	 * at most three trim intervals, until the queue has been claimed.
	 */
	for (i = 0; i < 60 && READ_ONCE(owner->remote_free.list.nr); i++) {
		msleep(100);
		work_on_cpu(a, wake_cpu, NULL);
	}
	KUNIT_ASSERT_EQ(test, work_on_cpu(a, read_cpu_queues, &q), 0);
	KUNIT_EXPECT_EQ(test, q.remote, 0UL);
	KUNIT_EXPECT_LE(test, q.held, (unsigned long)s->hiwater);
	kmem_cache_shrink(s);
	expect_no_slabs(test, s);
	kmem_cache_destroy(s);
}

/*
 * A CPU that goes idle with a cache queued. The trim is deferrable work:
 * on a NO_HZ_IDLE kernel (slqb-preempt) an idle CPU's tick stops and the
 * trim's timer waits for the next wakeup, so only the stated bound and
 * the shrinker limit what the CPU holds. Left idle for three trim
 * intervals (no work queued on it), it holds at most hiwater on its
 * freelist and at most hiwater on its remote queue, whether its trim ran
 * or not; a shrinker scan, which reaches it by IPI while it is idle,
 * leaves it nothing.
 */
static long shrink_all(void *arg)
{
	unsigned long *freed = arg;

	*freed = slqb_kunit_shrink_scan(ULONG_MAX);
	return 0;
}

static void slqb_test_idle_cpu(struct kunit *test)
{
	struct kmem_cache *s = test_cache(test, "slqb_test_idle_cpu", 0, NULL);
	struct batch *own, *far;
	struct cpu_queues q = { .s = s };
	unsigned long freed;
	int a, c;

	/* The last CPU: the least likely to run the test's own work. */
	c = cpumask_first(cpu_online_mask);
	a = cpumask_last(cpu_online_mask);
	if (a == c)
		kunit_skip(test, "needs two online CPUs");
	skip_if_quarantine(test);
	own = new_batch(test, s, 2 * s->hiwater);
	far = new_batch(test, s, s->hiwater / 2);
	KUNIT_ASSERT_EQ(test, work_on_cpu(a, alloc_batch, own), 0);
	KUNIT_ASSERT_EQ(test, work_on_cpu(a, alloc_batch, far), 0);
	KUNIT_ASSERT_EQ(test, work_on_cpu(a, free_batch, own), 0);
	KUNIT_ASSERT_EQ(test, work_on_cpu(c, free_batch, far), 0);

	msleep(jiffies_to_msecs(3 * SLQB_TRIM_INTERVAL));
	KUNIT_ASSERT_EQ(test, work_on_cpu(a, read_cpu_queues, &q), 0);
	kunit_info(test, "CPU %d after %u ms idle: %lu held, %lu on its remote queue (%s; hiwater %u)\n",
		   a, jiffies_to_msecs(3 * SLQB_TRIM_INTERVAL), q.held, q.remote,
		   IS_ENABLED(CONFIG_NO_HZ_IDLE) ? "NO_HZ_IDLE" : "periodic tick",
		   s->hiwater);
	KUNIT_EXPECT_LE(test, q.held, (unsigned long)s->hiwater);
	KUNIT_EXPECT_LE(test, q.remote, (unsigned long)s->hiwater);

	/* Queue them again, and let the shrinker take them. */
	if (!q.held && !q.remote) {
		KUNIT_ASSERT_EQ(test, work_on_cpu(a, alloc_batch, far), 0);
		KUNIT_ASSERT_EQ(test, work_on_cpu(c, free_batch, far), 0);
		KUNIT_ASSERT_EQ(test, work_on_cpu(a, alloc_batch, own), 0);
		KUNIT_ASSERT_EQ(test, work_on_cpu(a, free_batch, own), 0);
	}
	/* From c, so that a stays idle (the test's own thread may run on a). */
	KUNIT_ASSERT_EQ(test, work_on_cpu(c, shrink_all, &freed), 0);
	KUNIT_EXPECT_GE(test, freed, 1UL);
	KUNIT_ASSERT_EQ(test, work_on_cpu(a, read_cpu_queues, &q), 0);
	KUNIT_EXPECT_EQ(test, q.held, 0UL);
	KUNIT_EXPECT_EQ(test, q.remote, 0UL);
	kmem_cache_shrink(s);
	expect_no_slabs(test, s);
	kmem_cache_destroy(s);
}
#else
static void slqb_test_trim_bound(struct kunit *test)
{
	kunit_skip(test, "needs CONFIG_SMP");
}

static void slqb_test_idle_cpu(struct kunit *test)
{
	kunit_skip(test, "needs CONFIG_SMP");
}
#endif

#ifdef CONFIG_SLQB_STATS
/* Objects on @cpu's rlist of @s: frees waiting to be handed over. */
static unsigned long rlist_nr(struct kmem_cache *s, int cpu)
{
#ifdef CONFIG_SMP
	return READ_ONCE(per_cpu_ptr(s->cpu_slab, cpu)->rlist.nr);
#else
	return 0;
#endif
}

static unsigned long vm_event(enum vm_event_item item)
{
	unsigned long *events;
	unsigned long val;

	events = kcalloc(NR_VM_EVENT_ITEMS, sizeof(*events), GFP_KERNEL);
	if (!events)
		return 0;
	all_vm_events(events);
	val = events[item];
	kfree(events);
	return val;
}

/*
 * The counters tell what happened: N objects allocated on CPU A and freed
 * on CPU B are N allocations on A, N frees and N remote frees on B, as
 * many new pages as they fill, and as many pages freed once the cache is
 * shrunk. /proc/vmstat's counters, which other caches share, grow by at
 * least as much.
 */
static void slqb_test_counters(struct kunit *test)
{
	struct kmem_cache *s = test_cache(test, "slqb_test_counters", 0, NULL);
	struct batch *b = new_batch(test, s, 4 * s->objects);
	unsigned long n = b->n, vm_alloc, vm_remote;
	int a, c;

	two_cpus(test, &a, &c);
	vm_alloc = vm_event(SLQB_ALLOC);
	vm_remote = vm_event(SLQB_REMOTE_FREE);

	KUNIT_ASSERT_EQ(test, work_on_cpu(a, alloc_batch, b), 0);
	KUNIT_EXPECT_EQ(test, cache_stat(s, SLQB_STAT_ALLOC, a), n);
	KUNIT_EXPECT_EQ(test, cache_stat(s, SLQB_STAT_ALLOC, -1), n);
	KUNIT_EXPECT_EQ(test, cache_stat(s, SLQB_STAT_PAGE_ALLOC, -1), 4UL);
	KUNIT_EXPECT_EQ(test, cache_stat(s, SLQB_STAT_ALLOC_FROM_PAGE, -1), n);
	/* Each new page went whole to the empty freelist; none off-node. */
	KUNIT_EXPECT_EQ(test, cache_stat(s, SLQB_STAT_PAGE_ALLOC_FULL, -1), 4UL);
	KUNIT_EXPECT_EQ(test, cache_stat(s, SLQB_STAT_PAGE_ALLOC_PARTIAL, -1),
			0UL);
	KUNIT_EXPECT_EQ(test, cache_stat(s, SLQB_STAT_OFFNODE_ALLOC, -1), 0UL);

	KUNIT_ASSERT_EQ(test, work_on_cpu(c, free_batch, b), 0);
	if (!IS_ENABLED(CONFIG_KASAN_GENERIC)) {
		/* (The quarantine frees later, on whichever CPU.) */
		unsigned long left = rlist_nr(s, c);
		unsigned long flushes = n / s->freebatch;

		KUNIT_EXPECT_EQ(test, cache_stat(s, SLQB_STAT_FREE, c), n);
		KUNIT_EXPECT_EQ(test, cache_stat(s, SLQB_STAT_REMOTE_FREE, c),
				n);
		KUNIT_EXPECT_GE(test, vm_event(SLQB_REMOTE_FREE) - vm_remote, n);
		/*
		 * One hand-off for each full rlist, all to one owner; what is
		 * left waits on the rlist, unless the trim handed it over.
		 */
		if (!left && n % s->freebatch)
			flushes++;
		else
			KUNIT_EXPECT_EQ(test, left, n % s->freebatch);
		KUNIT_EXPECT_EQ(test,
				cache_stat(s, SLQB_STAT_FLUSH_REMOTE_FREE_CACHE, c),
				flushes);
		KUNIT_EXPECT_EQ(test, cache_stat(s, SLQB_STAT_OFFNODE_FREE, c),
				0UL);
	}
	KUNIT_EXPECT_GE(test, vm_event(SLQB_ALLOC) - vm_alloc, n);

	kmem_cache_shrink(s);
	expect_no_slabs(test, s);
	KUNIT_EXPECT_EQ(test, cache_stat(s, SLQB_STAT_FREE, -1), n);
	KUNIT_EXPECT_EQ(test, cache_stat(s, SLQB_STAT_PAGE_FREE, -1), 4UL);
	/*
	 * Each page was emptied once; every object went back to its page,
	 * all but the one that emptied it counted as a partial free (a page
	 * kept after emptying counts all of its run, and is emptied later).
	 */
	KUNIT_EXPECT_EQ(test, cache_stat(s, SLQB_STAT_PAGE_FREE_EMPTY, -1), 4UL);
	KUNIT_EXPECT_GE(test, cache_stat(s, SLQB_STAT_PAGE_FREE_PARTIAL, -1),
			n - 4);
	KUNIT_EXPECT_LE(test, cache_stat(s, SLQB_STAT_PAGE_FREE_PARTIAL, -1), n);
	/*
	 * The owner took its objects back from its queue at least once (the
	 * shrink's drain, or a trim before it), and at most once for each
	 * hand-off (a trim between two hand-offs claims the first alone).
	 * Each claim is followed by a flush of the freelist it filled, by
	 * the drain or in the same trim. The freeing CPU never held an object
	 * of its own: no claim, no flush there.
	 */
	if (!IS_ENABLED(CONFIG_KASAN_GENERIC)) {
		unsigned long claims =
			cache_stat(s, SLQB_STAT_CLAIM_REMOTE_FREE_CACHE, a);

		KUNIT_EXPECT_GE(test, claims, 1UL);
		KUNIT_EXPECT_LE(test, claims, DIV_ROUND_UP(n, s->freebatch));
		KUNIT_EXPECT_GE(test, cache_stat(s, SLQB_STAT_FLUSH_FREE_LIST, a),
				1UL);
		KUNIT_EXPECT_EQ(test,
				cache_stat(s, SLQB_STAT_CLAIM_REMOTE_FREE_CACHE, c),
				0UL);
		KUNIT_EXPECT_EQ(test, cache_stat(s, SLQB_STAT_FLUSH_FREE_LIST, c),
				0UL);
	}
	kmem_cache_destroy(s);
}
#else
static void slqb_test_counters(struct kunit *test)
{
	kunit_skip(test, "needs CONFIG_SLQB_STATS");
}
#endif

/*
 * A cache of large objects starts on its minimum order and moves to its
 * preferred order once it has needed SLQB_BUSY_SLABS slabs' worth of
 * objects of that order: allocated one after another on one CPU, the
 * objects before the mark lie in slabs of the minimum order, those after
 * it in slabs of the preferred order, and slqb_new_order(), which
 * /proc/slabinfo and sysfs report, says which order the cache makes now.
 */
static void slqb_test_busy_order(struct kunit *test)
{
	struct kmem_cache *s;
	struct batch *b;
	unsigned int young, preferred;
	struct slqb_counts n;
	unsigned long pages;
	int i;

	s = sized_cache(test, "slqb_test_busy", 2048, 0, NULL);
	if (s->order == s->min_order) {
		kmem_cache_destroy(s);
		kunit_skip(test, "one order only (slqb_min_order=?)");
	}
	KUNIT_EXPECT_EQ(test, slqb_new_order(s), s->min_order);
	/* Whole slabs of the minimum order, until they reach the mark. */
	young = roundup(SLQB_BUSY_SLABS * s->objects, s->min_objects);
	b = new_batch(test, s, young + 2 * s->objects);
	KUNIT_ASSERT_EQ(test, work_on_cpu(cpumask_first(cpu_online_mask),
					  alloc_batch, b), 0);
	for (i = 0; i < young; i++)
		KUNIT_EXPECT_EQ(test, folio_order(virt_to_folio(b->objs[i])),
				s->min_order);
	/*
	 * Then the preferred order, asked for without reclaim: it may fall
	 * back to the minimum in a fragmented guest, but not every time.
	 */
	for (preferred = 0; i < b->n; i++) {
		unsigned int order = folio_order(virt_to_folio(b->objs[i]));

		if (order == s->order)
			preferred++;
		else
			KUNIT_EXPECT_EQ(test, order, s->min_order);
	}
	KUNIT_EXPECT_GT(test, preferred, 0U);
	KUNIT_EXPECT_EQ(test, slqb_new_order(s), s->order);
	/* The cache counts the pages of both orders (slabinfo shows them). */
	for (pages = 0, i = 0; i < b->n; i++)
		if (!i || virt_to_folio(b->objs[i]) !=
			  virt_to_folio(b->objs[i - 1]))
			pages += folio_nr_pages(virt_to_folio(b->objs[i]));
	slqb_count(s, &n);
	KUNIT_EXPECT_EQ(test, n.pages, pages);
	KUNIT_ASSERT_EQ(test, work_on_cpu(cpumask_first(cpu_online_mask),
					  free_batch, b), 0);
	kmem_cache_shrink(s);
	expect_no_slabs(test, s);
	kmem_cache_destroy(s);
}

#ifdef CONFIG_MEMCG_KMEM
/*
 * The memory cgroup of the task that loaded the suite (the guest's kunit
 * test loads it from a child cgroup), or NULL in the root one, which is
 * never charged.
 */
static struct mem_cgroup *suite_memcg;

static int slqb_suite_init(struct kunit_suite *suite)
{
	struct mem_cgroup *memcg = get_mem_cgroup_from_mm(current->mm);

	/* The root has no parent (root_mem_cgroup is not exported). */
	if (memcg && !memcg->css.parent) {
		css_put(&memcg->css);
		memcg = NULL;
	}
	suite_memcg = memcg;
	return 0;
}

static void slqb_suite_exit(struct kunit_suite *suite)
{
	if (suite_memcg)
		css_put(&suite_memcg->css);
	suite_memcg = NULL;
}

static long alloc_batch_charged(void *arg)
{
	struct mem_cgroup *old = set_active_memcg(suite_memcg);
	long ret = alloc_batch(arg);

	set_active_memcg(old);
	return ret;
}

/* Objects of @b whose slab still records a cgroup for them, and how many. */
struct batch_charges {
	struct batch *b;
	struct obj_cgroup *objcg;	/* the cgroup they must record */
	int charged;			/* objects recording @objcg */
	int other;			/* objects recording another one */
	int seen;			/* objects whose page is still a slab */
};

/*
 * Read on the CPU that owns the batch's pages, interrupts off: only it
 * frees them, so a page read here is not given back under the reader.
 */
static long read_charges(void *arg)
{
	struct batch_charges *bc = arg;
	struct kmem_cache *s = bc->b->s;
	int i;

	bc->charged = 0;
	bc->other = 0;
	bc->seen = 0;
	local_irq_disable();
	for (i = 0; i < bc->b->n; i++) {
		struct slab *slab = virt_to_slab(bc->b->objs[i]);
		struct obj_cgroup *objcg;

		if (!slab || !slab_of(s, slab) || !slab_objcgs(slab))
			continue;
		bc->seen++;
		objcg = slab_objcgs(slab)[obj_to_index(s, slab,
						       bc->b->objs[i])];
		if (objcg == bc->objcg)
			bc->charged++;
		else if (objcg)
			bc->other++;
	}
	local_irq_enable();
	return 0;
}

static unsigned long memcg_pages(void)
{
	return page_counter_read(&suite_memcg->memory);
}

/*
 * Objects of a SLAB_ACCOUNT cache are charged to the allocating cgroup
 * when allocated and uncharged when freed: by the freeing CPU at the
 * free, whether the object then waits on that CPU's freelist or, freed
 * on another CPU, on its rlist or its owner's remote_free queue. Exact
 * per object (the slab's cgroup vector); in pages, the cgroup's counter
 * rises and falls by the batch's size within the charge batching's
 * slack (MEMCG_CHARGE_BATCH pages a CPU).
 */
static void slqb_test_memcg(struct kunit *test)
{
	struct batch_charges bc = {};
	unsigned long before, slack, want;
	struct kmem_cache *s;
	struct batch *b;
	int a, r;

	if (!suite_memcg)
		kunit_skip(test, "loaded from the root memory cgroup");
	if (!memcg_kmem_enabled())
		kunit_skip(test, "kernel memory accounting is off");
	/* Objects of 1 KiB: a batch of twice the slack in a small array. */
	s = sized_cache(test, "slqb_test_memcg", 1024, SLAB_ACCOUNT, NULL);
	a = cpumask_first(cpu_online_mask);
	r = cpumask_next(a, cpu_online_mask);
	slack = (MEMCG_CHARGE_BATCH + 1) * num_online_cpus();
	/* Leave some on a queue: not a whole number of batches. */
	b = new_batch(test, s, 2 * slack * (PAGE_SIZE / s->size) +
			       s->freebatch / 2);
	want = b->n * s->size / PAGE_SIZE;
	rcu_read_lock();
	bc.objcg = rcu_dereference(suite_memcg->objcg);
	rcu_read_unlock();
	bc.b = b;

	before = memcg_pages();
	KUNIT_ASSERT_EQ(test, work_on_cpu(a, alloc_batch_charged, b), 0);
	KUNIT_EXPECT_GE(test, memcg_pages() + slack, before + want);
	KUNIT_ASSERT_EQ(test, work_on_cpu(a, read_charges, &bc), 0);
	KUNIT_EXPECT_EQ(test, bc.seen, b->n);
	KUNIT_EXPECT_EQ(test, bc.charged, b->n);

	/* Freed on another CPU when there is one: the rlist's way. */
	KUNIT_ASSERT_EQ(test, work_on_cpu(r < nr_cpu_ids ? r : a,
					  free_batch, b), 0);
	KUNIT_ASSERT_EQ(test, work_on_cpu(a, read_charges, &bc), 0);
	KUNIT_EXPECT_GT(test, bc.seen, 0);
	KUNIT_EXPECT_EQ(test, bc.charged, 0);
	KUNIT_EXPECT_EQ(test, bc.other, 0);
	KUNIT_EXPECT_LE(test, memcg_pages(), before + slack);

	kmem_cache_shrink(s);
	expect_no_slabs(test, s);
	kmem_cache_destroy(s);
}
#else
static void slqb_test_memcg(struct kunit *test)
{
	kunit_skip(test, "no CONFIG_MEMCG_KMEM");
}
#endif

static struct kunit_case slqb_test_cases[] = {
	KUNIT_CASE(slqb_test_lifo_reuse),
	KUNIT_CASE(slqb_test_flush_watermark),
	KUNIT_CASE(slqb_test_remote_free),
	KUNIT_CASE(slqb_test_shrink),
	KUNIT_CASE(slqb_test_shrinker_scan),
	KUNIT_CASE(slqb_test_drain_targets),
	KUNIT_CASE(slqb_test_offnode),
	KUNIT_CASE(slqb_test_thisnode),
	KUNIT_CASE(slqb_test_thisnode_fallback),
	KUNIT_CASE(slqb_test_thisnode_local),
	KUNIT_CASE(slqb_test_memoryless_node),
	KUNIT_CASE(slqb_test_node_fallback),
	KUNIT_CASE(slqb_test_reserves),
	KUNIT_CASE(slqb_test_debug_flags),
	KUNIT_CASE(slqb_test_bulk),
	KUNIT_CASE(slqb_test_bulk_past_hiwater),
	KUNIT_CASE(slqb_test_bulk_runs),
	KUNIT_CASE(slqb_test_new_hiwater),
	KUNIT_CASE(slqb_test_rcu_page_waits),
	KUNIT_CASE(slqb_test_ctor_and_rcu),
	KUNIT_CASE(slqb_test_unused_page),
	KUNIT_CASE(slqb_test_cpu_hotplug),
	KUNIT_CASE(slqb_test_counters),
	KUNIT_CASE(slqb_test_idle_owner),
	KUNIT_CASE(slqb_test_dead_cpu_pages),
	KUNIT_CASE(slqb_test_trim_bound),
	KUNIT_CASE(slqb_test_idle_cpu),
	KUNIT_CASE(slqb_test_busy_order),
	KUNIT_CASE(slqb_test_memcg),
	KUNIT_CASE(slqb_test_reclaim_credit),
	{}
};

static struct kunit_suite slqb_test_suite = {
	.name = "slqb",
#ifdef CONFIG_MEMCG_KMEM
	.suite_init = slqb_suite_init,
	.suite_exit = slqb_suite_exit,
#endif
	.test_cases = slqb_test_cases,
};

kunit_test_suite(slqb_test_suite);

MODULE_LICENSE("GPL");
MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);
