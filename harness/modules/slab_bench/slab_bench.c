// SPDX-License-Identifier: GPL-2.0
/*
 * slab_bench: slab allocator microbenchmarks for the SLQB harness (harness
 * side, not part of the kernel series). Allocator-agnostic: built against the
 * SLQB, SLUB and SLAB kernels alike, loaded by guest/tests/bench.sh, or built
 * in (UML) where it runs at boot, before init.
 *
 * Every result is one console line:
 *   @@BENCH metric=NAME value=V unit=U better=lower|higher
 * Times are cycles from get_cycles() (on UML, where get_cycles() is 0: the
 * host's TSC read with rdtsc on x86_64, else ns from ktime_get_ns()), per
 * operation, after a warm-up round; of `reps` timed rounds the fastest is kept.
 * Built in (harness/bench/uml.sh), it runs as a late initcall, before init.
 *
 * Parameters: nobj (N, default 10000), reps (3), quick (N 5000, 2 rounds),
 * only=GROUP[,GROUP] (floor,kmalloc,cache,bulk,remote,handoff,allcpu,
 * footprint,shrink).
 */
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/kthread.h>
#include <linux/vmalloc.h>
#include <linux/sort.h>
#include <linux/bsearch.h>
#include <linux/timex.h>
#include <linux/ktime.h>
#include <linux/cpumask.h>
#include <linux/topology.h>
#include <linux/completion.h>
#include <linux/mm.h>
#include <linux/string.h>
#include <linux/swap.h>
#include <linux/sched.h>
#include "slab.h"	/* mm/slab.h: struct slab, folio_slab() for footprint */

static bool quick;
module_param(quick, bool, 0444);
static unsigned int nobj = 10000;
module_param(nobj, uint, 0444);
static unsigned int reps = 3;
module_param(reps, uint, 0444);
static char *only = "";
module_param(only, charp, 0444);

static const unsigned int sizes[] = { 8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096, 8192 };
static const unsigned int few_sizes[] = { 64, 256, 1024 };

static bool use_ns;	/* no cycle counter here: time in ns */
static const char *tunit = "cycles";
static const char *tclock = "get_cycles";
static unsigned int errors;

/* The cycle counter: get_cycles(), or on UML (where it is 0) the TSC. */
static inline u64 cycles(void)
{
#if defined(CONFIG_UML) && defined(__x86_64__)
	u32 lo, hi;

	asm volatile("rdtsc" : "=a" (lo), "=d" (hi));
	return ((u64)hi << 32) | lo;
#else
	return get_cycles();
#endif
}

static u64 now(void)
{
	return use_ns ? ktime_get_ns() : cycles();
}

/* Print num/den with one decimal. */
static void report(const char *metric, u64 num, u64 den, const char *unit, bool higher)
{
	u64 v = den ? div64_u64(num * 10, den) : 0;

	pr_info("@@BENCH metric=%s value=%llu.%llu unit=%s better=%s\n",
		metric, v / 10, v % 10, unit, higher ? "higher" : "lower");
}

static bool enabled(const char *group)
{
	const char *p = only;
	size_t len = strlen(group);

	if (!only || !*only)
		return true;
	while (p && *p) {
		if (!strncmp(p, group, len) && (p[len] == ',' || p[len] == '\0'))
			return true;
		p = strchr(p, ',');
		if (p)
			p++;
	}
	return false;
}

/* --- running work on a chosen CPU --- */

struct job {
	int (*fn)(void *arg);
	void *arg;
	int cpu;
	struct completion done;
	int ret;
};

static int job_thread(void *data)
{
	struct job *j = data;

	j->ret = j->fn(j->arg);
	complete(&j->done);
	return 0;
}

static int job_start(struct job *j, int cpu, int (*fn)(void *), void *arg)
{
	struct task_struct *t;

	j->fn = fn;
	j->arg = arg;
	j->cpu = cpu;
	j->ret = 0;
	init_completion(&j->done);
	t = kthread_create_on_node(job_thread, j, cpu_to_node(cpu), "slab_bench/%d", cpu);
	if (IS_ERR(t))
		return PTR_ERR(t);
	kthread_bind(t, cpu);
	wake_up_process(t);
	return 0;
}

static int run_on(int cpu, int (*fn)(void *), void *arg)
{
	struct job j;
	int ret = job_start(&j, cpu, fn, arg);

	if (ret)
		return ret;
	wait_for_completion(&j.done);
	return j.ret;
}

/* All threads of a test start together. */
static void barrier_wait(atomic_t *b, int n)
{
	atomic_inc(b);
	while (atomic_read(b) < n)
		cpu_relax();
}

/* --- single-CPU tests --- */

static void **ptrs;	/* nobj pointers */

static struct kmem_cache *bench_cache(unsigned int size)
{
	char name[32];

	snprintf(name, sizeof(name), "slab_bench_%u", size);
	/* A usercopy region makes the cache unmergeable: our objects only. */
	return kmem_cache_create_usercopy(name, size, 0, 0, 0, size, NULL);
}

static int alloc_n(struct kmem_cache *s, unsigned int size, void **p, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++) {
		p[i] = s ? kmem_cache_alloc(s, GFP_KERNEL) : kmalloc(size, GFP_KERNEL);
		if (!p[i]) {
			while (i--)
				s ? kmem_cache_free(s, p[i]) : kfree(p[i]);
			return -ENOMEM;
		}
	}
	return 0;
}

static void free_n(struct kmem_cache *s, void **p, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		s ? kmem_cache_free(s, p[i]) : kfree(p[i]);
}

struct single_arg {
	struct kmem_cache *s;
	unsigned int size;
	u64 alloc, free, pair;	/* best totals over the rounds */
	unsigned int order;	/* of the last object's slab, at the end */
};

/* N allocations, then N frees; best of reps after a warm-up round. */
static int single_n(void *data)
{
	struct single_arg *a = data;
	unsigned int r;
	u64 t0, t1, t2;

	a->alloc = U64_MAX;
	a->free = U64_MAX;
	for (r = 0; r <= reps; r++) {
		t0 = now();
		if (alloc_n(a->s, a->size, ptrs, nobj))
			return -ENOMEM;
		t1 = now();
		/* The order the cache has come to use: objects per new slab. */
		a->order = folio_order(virt_to_folio(ptrs[nobj - 1]));
		free_n(a->s, ptrs, nobj);
		t2 = now();
		if (r == 0)
			continue;	/* warm-up */
		a->alloc = min(a->alloc, t1 - t0);
		a->free = min(a->free, t2 - t1);
	}
	return 0;
}

/* N alloc/free pairs of one object. */
static int single_pair(void *data)
{
	struct single_arg *a = data;
	unsigned int r, i;
	u64 t0;
	void *p;

	a->pair = U64_MAX;
	for (r = 0; r <= reps; r++) {
		t0 = now();
		for (i = 0; i < nobj; i++) {
			p = a->s ? kmem_cache_alloc(a->s, GFP_KERNEL) :
				   kmalloc(a->size, GFP_KERNEL);
			if (!p)
				return -ENOMEM;
			/* Keep the compiler from pairing them away. */
			OPTIMIZER_HIDE_VAR(p);
			a->s ? kmem_cache_free(a->s, p) : kfree(p);
		}
		if (r)
			a->pair = min(a->pair, now() - t0);
	}
	return 0;
}

/*
 * What every pair costs whatever the allocator, on this machine: the loop
 * and two interrupt-disabled sections (an allocation's and a free's; on
 * UML, where they are calls that mask signals, SLUB's this_cpu_cmpxchg
 * falls back to the same). The report subtracts it from the pairs, to
 * show what the allocators' own code costs.
 */
static int floor_pair(void *data)
{
	u64 *best = data, t0;
	unsigned long flags;
	unsigned int r, i;
	void *p = best;

	*best = U64_MAX;
	for (r = 0; r <= reps; r++) {
		t0 = now();
		for (i = 0; i < nobj; i++) {
			local_irq_save(flags);
			OPTIMIZER_HIDE_VAR(p);
			local_irq_restore(flags);
			local_irq_save(flags);
			OPTIMIZER_HIDE_VAR(p);
			local_irq_restore(flags);
		}
		if (r)
			*best = min(*best, now() - t0);
	}
	return 0;
}

static void bench_floor(void)
{
	u64 best;

	if (!run_on(cpumask_first(cpu_online_mask), floor_pair, &best))
		report("floor.irqs_pair", best, nobj, tunit, false);
}

static void bench_single(const char *group, bool cache)
{
	struct single_arg a;
	char m[64];
	unsigned int i;
	int ret;

	for (i = 0; i < ARRAY_SIZE(sizes); i++) {
		a.size = sizes[i];
		a.s = cache ? bench_cache(sizes[i]) : NULL;
		if (cache && !a.s) {
			errors++;
			continue;
		}
		ret = run_on(cpumask_first(cpu_online_mask), single_n, &a);
		if (!ret) {
			snprintf(m, sizeof(m), "%s_n.alloc.%u", group, a.size);
			report(m, a.alloc, nobj, tunit, false);
			snprintf(m, sizeof(m), "%s_n.free.%u", group, a.size);
			report(m, a.free, nobj, tunit, false);
			snprintf(m, sizeof(m), "%s_n.order.%u", group, a.size);
			report(m, a.order, 1, "order", false);
		}
		ret = ret ?: run_on(cpumask_first(cpu_online_mask), single_pair, &a);
		if (!ret) {
			snprintf(m, sizeof(m), "%s_pair.%u", group, a.size);
			report(m, a.pair, nobj, tunit, false);
		} else {
			pr_err("slab_bench: %s size %u failed: %d\n", group, a.size, ret);
			errors++;
		}
		kmem_cache_destroy(a.s);	/* NULL: kmalloc */
	}
}

/* --- bulk --- */

struct bulk_arg {
	struct kmem_cache *s;
	unsigned int batch;
	u64 best;		/* alternating alloc and free of one batch */
	u64 alloc, free;	/* the two apart, see bulk_split_fn() */
};

static int bulk_fn(void *data)
{
	struct bulk_arg *a = data;
	unsigned int r, i, loops = max(nobj / a->batch, 1u);
	u64 t0;

	a->best = U64_MAX;
	for (r = 0; r <= reps; r++) {
		t0 = now();
		for (i = 0; i < loops; i++) {
			if (kmem_cache_alloc_bulk(a->s, GFP_KERNEL, a->batch, ptrs) != a->batch)
				return -ENOMEM;
			kmem_cache_free_bulk(a->s, a->batch, ptrs);
		}
		if (r)
			a->best = min(a->best, now() - t0);
	}
	a->best = div64_u64(a->best * nobj, (u64)loops * a->batch);	/* per nobj objects */
	return 0;
}

/*
 * Bulk allocation and bulk free timed apart: BULK_SET objects are
 * allocated in batches, then freed in the same batches, each phase timed
 * as a whole (so the clock's own cost is spread over BULK_SET objects).
 */
#define BULK_SET 256

static int bulk_split_fn(void *data)
{
	struct bulk_arg *a = data;
	unsigned int calls = max(BULK_SET / a->batch, 1u);
	unsigned int set = calls * a->batch;
	unsigned int loops = max(nobj / set, 1u);
	unsigned int r, i, k;
	u64 ta, tf, t0, t1;

	if (set > nobj)
		return -EINVAL;
	a->alloc = U64_MAX;
	a->free = U64_MAX;
	for (r = 0; r <= reps; r++) {
		ta = 0;
		tf = 0;
		for (i = 0; i < loops; i++) {
			t0 = now();
			for (k = 0; k < calls; k++)
				if (kmem_cache_alloc_bulk(a->s, GFP_KERNEL, a->batch,
							  ptrs + k * a->batch) != a->batch)
					return -ENOMEM;
			t1 = now();
			for (k = 0; k < calls; k++)
				kmem_cache_free_bulk(a->s, a->batch, ptrs + k * a->batch);
			ta += t1 - t0;
			tf += now() - t1;
		}
		if (r) {
			a->alloc = min(a->alloc, ta);
			a->free = min(a->free, tf);
		}
	}
	/* per nobj objects */
	a->alloc = div64_u64(a->alloc * nobj, (u64)loops * set);
	a->free = div64_u64(a->free * nobj, (u64)loops * set);
	return 0;
}

static void bench_bulk(void)
{
	static const unsigned int bsizes[] = { 64, 512 };
	struct bulk_arg a;
	unsigned int i, b;
	char m[64];

	for (i = 0; i < ARRAY_SIZE(bsizes); i++) {
		a.s = bench_cache(bsizes[i]);
		if (!a.s) {
			errors++;
			continue;
		}
		for (b = 1; b <= 256; b *= 2) {
			a.batch = b;
			if (run_on(cpumask_first(cpu_online_mask), bulk_fn, &a)) {
				errors++;
				continue;
			}
			snprintf(m, sizeof(m), "bulk.%u.b%u", bsizes[i], b);
			report(m, a.best, nobj, tunit, false);	/* per object, alloc + free */
			if (run_on(cpumask_first(cpu_online_mask), bulk_split_fn, &a)) {
				errors++;
				continue;
			}
			snprintf(m, sizeof(m), "bulk_alloc.%u.b%u", bsizes[i], b);
			report(m, a.alloc, nobj, tunit, false);
			snprintf(m, sizeof(m), "bulk_free.%u.b%u", bsizes[i], b);
			report(m, a.free, nobj, tunit, false);
		}
		kmem_cache_destroy(a.s);
	}
}

/* --- remote free pipeline: CPU A allocates, CPU B frees --- */

#define RING 512

struct pipe {
	unsigned int size, total;
	void *ring[RING];
	unsigned int head ____cacheline_aligned;	/* written by the producer */
	unsigned int tail ____cacheline_aligned;	/* written by the consumer */
	atomic_t start;
	u64 prod_cycles, cons_cycles;
	int err;
};

static int producer(void *data)
{
	struct pipe *p = data;
	unsigned int i, spins = 0;
	u64 t0;
	void *o;

	barrier_wait(&p->start, 2);
	t0 = now();
	for (i = 0; i < p->total; i++) {
		o = kmalloc(p->size, GFP_KERNEL);
		if (!o) {
			p->err = -ENOMEM;
			o = ZERO_SIZE_PTR;	/* the consumer must still see total objects */
		}
		/* Pairs with the consumer's release: its slot is free again. */
		while (i - smp_load_acquire(&p->tail) >= RING) {
			cpu_relax();
			if (!(++spins & 1023))
				cond_resched();
		}
		p->ring[i % RING] = o;
		/* Publishes the slot written above to the consumer. */
		smp_store_release(&p->head, i + 1);
	}
	p->prod_cycles = now() - t0;
	return 0;
}

static int consumer(void *data)
{
	struct pipe *p = data;
	unsigned int i, spins = 0;
	u64 t0;

	barrier_wait(&p->start, 2);
	t0 = now();
	for (i = 0; i < p->total; i++) {
		/* Pairs with the producer's release: the slot is written. */
		while (smp_load_acquire(&p->head) == i) {
			cpu_relax();
			if (!(++spins & 1023))
				cond_resched();
		}
		kfree(p->ring[i % RING]);
		/* Hands the slot read above back to the producer. */
		smp_store_release(&p->tail, i + 1);
	}
	p->cons_cycles = now() - t0;
	return 0;
}

static int pipeline(struct pipe *p, int a, int b, unsigned int size, unsigned int total)
{
	struct job ja, jb;
	int ret;

	memset(p, 0, sizeof(*p));
	p->size = size;
	p->total = total;
	ret = job_start(&jb, b, consumer, p);
	if (ret)
		return ret;
	ret = job_start(&ja, a, producer, p);
	if (ret) {
		atomic_inc(&p->start);		/* let the consumer run dry */
		p->total = 0;
		wait_for_completion(&jb.done);
		return ret;
	}
	wait_for_completion(&ja.done);
	wait_for_completion(&jb.done);
	return p->err;
}

static int cpu_same_node(int a)
{
	int c;

	for_each_cpu_and(c, cpumask_of_node(cpu_to_node(a)), cpu_online_mask)
		if (c != a)
			return c;
	return -1;
}

static int cpu_other_node(int a)
{
	int c;

	for_each_online_cpu(c)
		if (cpu_to_node(c) != cpu_to_node(a))
			return c;
	return -1;
}

/*
 * partner - the CPU that frees what CPU @a allocates: one on @a's node
 * (@k = 0) or on another node (@k = 1); -1, said, where there is none.
 */
static int partner(int a, int k, const char *bench, const char **where)
{
	int b = k ? cpu_other_node(a) : cpu_same_node(a);

	*where = k ? "other_node" : "same_node";
	if (b < 0)
		pr_info("@@BENCH-SKIP %s_%s: no such CPU\n", bench, *where);
	return b;
}

/*
 * on_each_partner - call @fn(a, b, where, @arg) with a, the first online CPU,
 * and b, each partner() of it: on a's node, then on another (@bench names
 * the skip where there is none); stop at @fn's first error and return it.
 */
static int on_each_partner(const char *bench,
			   int (*fn)(int a, int b, const char *where, void *arg),
			   void *arg)
{
	int a = cpumask_first(cpu_online_mask), b, k, ret;
	const char *where;

	for (k = 0; k < 2; k++) {
		b = partner(a, k, bench, &where);
		if (b < 0)
			continue;
		ret = fn(a, b, where, arg);
		if (ret)
			return ret;
	}
	return 0;
}

/* bench_remote() for one partner: each size through the pipe @data, A to B. */
static int remote_rows(int a, int b, const char *where, void *data)
{
	struct pipe *p = data;
	unsigned int i, r, total = 4 * nobj;
	u64 best;
	char m[64];

	for (i = 0; i < ARRAY_SIZE(few_sizes); i++) {
		best = U64_MAX;
		if (pipeline(p, a, b, few_sizes[i], total / 4)) {	/* warm-up */
			errors++;
			continue;
		}
		for (r = 0; r < reps; r++) {
			if (pipeline(p, a, b, few_sizes[i], total)) {
				errors++;
				break;
			}
			best = min(best, max(p->prod_cycles, p->cons_cycles));
		}
		if (best == U64_MAX)
			continue;
		snprintf(m, sizeof(m), "remote_%s.%u", where, few_sizes[i]);
		report(m, best, total, tunit, false);	/* per object through the pipe */
	}
	return 0;
}

static void bench_remote(void)
{
	struct pipe *p = kzalloc(sizeof(*p), GFP_KERNEL);

	if (!p) {
		errors++;
		return;
	}
	on_each_partner("remote", remote_rows, p);
	kfree(p);
}

/* --- hand-off: A allocates N, B frees them, A allocates N again --- */

static int cmp_ptr(const void *x, const void *y)
{
	unsigned long a = *(unsigned long *)x, b = *(unsigned long *)y;

	return a < b ? -1 : a > b;
}

struct handoff {
	unsigned int size;
	void **p;
	u64 t;
	void **second;	/* the second allocation's objects */
};

static int ho_alloc(void *data)
{
	struct handoff *h = data;
	u64 t0 = now();
	int ret = alloc_n(NULL, h->size, h->p, nobj);

	h->t = now() - t0;
	return ret;
}

static int ho_free(void *data)
{
	struct handoff *h = data;
	u64 t0 = now();

	free_n(NULL, h->p, nobj);
	h->t = now() - t0;
	return 0;
}

/* bench_handoff() for one partner; an error ends the bench. */
static int handoff_rows(int a, int b, const char *where, void *data)
{
	struct handoff *h = data;
	void **second = h->second;
	unsigned int i, reused;
	u64 t1, t2, t3;
	char m[64];
	int ret;

	/* Warm-up, as in the timed round. */
	h->p = ptrs;
	ret = run_on(a, ho_alloc, h);
	ret = ret ?: run_on(b, ho_free, h);
	ret = ret ?: run_on(a, ho_alloc, h);
	if (ret)
		return ret;
	t1 = h->t;
	run_on(b, ho_free, h);
	t2 = h->t;
	h->p = second;
	ret = run_on(a, ho_alloc, h);
	if (ret)
		return ret;
	t3 = h->t;
	sort(ptrs, nobj, sizeof(void *), cmp_ptr, NULL);
	for (i = 0, reused = 0; i < nobj; i++)
		if (bsearch(&second[i], ptrs, nobj, sizeof(void *), cmp_ptr))
			reused++;
	run_on(a, ho_free, h);
	h->p = ptrs;
	snprintf(m, sizeof(m), "handoff_%s.alloc1.256", where);
	report(m, t1, nobj, tunit, false);
	snprintf(m, sizeof(m), "handoff_%s.remote_free.256", where);
	report(m, t2, nobj, tunit, false);
	snprintf(m, sizeof(m), "handoff_%s.alloc2.256", where);
	report(m, t3, nobj, tunit, false);
	snprintf(m, sizeof(m), "handoff_%s.reused.256", where);
	report(m, (u64)reused * 100, nobj, "%", true);
	return 0;
}

static void bench_handoff(void)
{
	struct handoff h = { .size = 256, .p = ptrs };

	h.second = vmalloc(array_size(nobj, sizeof(void *)));
	if (!h.second) {
		errors++;
		return;
	}
	if (on_each_partner("handoff", handoff_rows, &h))
		errors++;
	vfree(h.second);
}

/* --- every CPU at once --- */

struct allcpu {
	unsigned int size;
	atomic_t *start;
	int n;
	void **p;
	u64 nt, pt;
};

static int allcpu_fn(void *data)
{
	struct allcpu *c = data;
	unsigned int i;
	u64 t0;
	void *o;

	if (alloc_n(NULL, c->size, c->p, nobj))	/* warm-up */
		return -ENOMEM;
	free_n(NULL, c->p, nobj);
	barrier_wait(c->start, c->n);
	t0 = now();
	if (alloc_n(NULL, c->size, c->p, nobj))
		return -ENOMEM;
	free_n(NULL, c->p, nobj);
	c->nt = now() - t0;
	t0 = now();
	for (i = 0; i < nobj; i++) {
		o = kmalloc(c->size, GFP_KERNEL);
		if (!o)
			return -ENOMEM;
		OPTIMIZER_HIDE_VAR(o);
		kfree(o);
	}
	c->pt = now() - t0;
	return 0;
}

static void bench_allcpu(void)
{
	int n = num_online_cpus(), i, cpu;
	struct allcpu *c = kcalloc(n, sizeof(*c), GFP_KERNEL);
	struct job *j = kcalloc(n, sizeof(*j), GFP_KERNEL);
	atomic_t start;
	unsigned int s;
	u64 nt, pt;
	bool bad;
	char m[64];

	if (!c || !j)
		goto out;
	for (i = 0; i < n; i++) {
		c[i].p = vmalloc(array_size(nobj, sizeof(void *)));
		if (!c[i].p)
			goto out;
	}
	for (s = 0; s < ARRAY_SIZE(few_sizes); s++) {
		atomic_set(&start, 0);
		i = 0;
		for_each_online_cpu(cpu) {
			if (i == n)
				break;
			c[i].size = few_sizes[s];
			c[i].start = &start;
			c[i].n = n;
			if (job_start(&j[i], cpu, allcpu_fn, &c[i])) {
				c[i].n = -1;
				atomic_inc(&start);	/* the others must not wait for it */
			}
			i++;
		}
		nt = 0;
		pt = 0;
		bad = false;
		while (i--) {
			if (c[i].n < 0) {
				bad = true;
				continue;
			}
			wait_for_completion(&j[i].done);
			bad |= j[i].ret != 0;
			nt += c[i].nt;
			pt += c[i].pt;
		}
		if (bad) {
			errors++;
			continue;
		}
		snprintf(m, sizeof(m), "allcpu_n.%u", few_sizes[s]);
		report(m, nt, (u64)nobj * n, tunit, false);	/* alloc + free, mean per CPU */
		snprintf(m, sizeof(m), "allcpu_pair.%u", few_sizes[s]);
		report(m, pt, (u64)nobj * n, tunit, false);
	}
out:
	if (c)
		for (i = 0; i < n; i++)
			vfree(c[i].p);
	kfree(c);
	kfree(j);
	if (!c || !j)
		errors++;
}

/* --- footprint: the slabs that hold N live objects, and what stays after --- */

static int cmp_folio(const void *x, const void *y)
{
	return cmp_ptr(x, y);
}

/* Bytes of the distinct slabs in f[0..n) that are still slabs of s. */
static u64 slab_bytes(struct kmem_cache *s, struct folio **f, unsigned int n)
{
	unsigned int i;
	u64 bytes = 0;

	for (i = 0; i < n; i++) {
		struct folio *folio = f[i];	/* folio_slab() expands 'folio' */

		if (folio_test_slab(folio) && folio_slab(folio)->slab_cache == s)
			bytes += folio_size(folio);
	}
	return bytes;
}

static void bench_footprint(void)
{
	struct folio **f = vmalloc(array_size(nobj, sizeof(*f)));
	unsigned int i, k, n, order;
	struct kmem_cache *s;
	u64 bytes;
	char m[64];

	if (!f) {
		errors++;
		return;
	}
	for (k = 0; k < ARRAY_SIZE(sizes); k++) {
		s = bench_cache(sizes[k]);
		if (!s || alloc_n(s, sizes[k], ptrs, nobj)) {
			errors++;
			kmem_cache_destroy(s);
			continue;
		}
		for (i = 0; i < nobj; i++)
			f[i] = virt_to_folio(ptrs[i]);
		sort(f, nobj, sizeof(*f), cmp_folio, NULL);
		for (i = 1, n = 1; i < nobj; i++)
			if (f[i] != f[n - 1])
				f[n++] = f[i];
		order = folio_order(f[0]);
		bytes = slab_bytes(s, f, n);
		free_n(s, ptrs, nobj);
		snprintf(m, sizeof(m), "footprint.bytes_per_obj.%u", sizes[k]);
		report(m, bytes, nobj, "B", false);
		snprintf(m, sizeof(m), "footprint.order.%u", sizes[k]);
		report(m, order, 1, "order", false);
		snprintf(m, sizeof(m), "footprint.kept_after_free.%u", sizes[k]);
		report(m, slab_bytes(s, f, n) * 100, bytes, "%", false);
		kmem_cache_shrink(s);
		snprintf(m, sizeof(m), "footprint.kept_after_shrink.%u", sizes[k]);
		report(m, slab_bytes(s, f, n) * 100, bytes, "%", false);
		kmem_cache_destroy(s);
	}
	vfree(f);
}

/*
 * What a shrink costs with a cache's queues as full as a burst leaves them:
 * N allocations and N frees on the CPU, then kmem_cache_shrink(), timed,
 * per call; the fastest of the rounds. SLQB gives back what a CPU holds of
 * a cache in one interrupts-off section (an IPI; on a UP kernel, a call
 * with interrupts disabled), and so does its shrinker, a cache at a time:
 * on UP this time bounds the longest such section. SLUB flushes its CPU
 * slabs from per-CPU work and then sorts its node partial lists.
 */
struct shrink_arg {
	struct kmem_cache *s;
	unsigned int size;
	u64 best;
};

static int shrink_fn(void *data)
{
	struct shrink_arg *a = data;
	unsigned int r;
	u64 t0;

	a->best = U64_MAX;
	for (r = 0; r <= reps; r++) {
		if (alloc_n(a->s, a->size, ptrs, nobj))
			return -ENOMEM;
		free_n(a->s, ptrs, nobj);
		t0 = now();
		kmem_cache_shrink(a->s);
		if (r)
			a->best = min(a->best, now() - t0);
	}
	return 0;
}

static void bench_shrink(void)
{
	struct shrink_arg a;
	unsigned int i;
	char m[64];

	for (i = 0; i < ARRAY_SIZE(few_sizes); i++) {
		a.size = few_sizes[i];
		a.s = bench_cache(a.size);
		if (!a.s || run_on(cpumask_first(cpu_online_mask), shrink_fn, &a)) {
			errors++;
		} else {
			snprintf(m, sizeof(m), "shrink.%u", a.size);
			report(m, a.best, 1, tunit, false);
		}
		kmem_cache_destroy(a.s);
	}
}

/*
 * UML's physical memory is a host file mapped into the process: the first
 * touch of each of its pages is a host page fault, which zeroes the page
 * (measured with perf on the host: 17% of a kmalloc run's samples, on the
 * first write of a new slab). That cost is the host's, not the allocator's,
 * and it falls on whichever allocator first touches a page: so the free
 * pages are touched once, before anything is timed.
 */
static void __init prefault_free_pages(void)
{
#ifdef CONFIG_UML
	LIST_HEAD(pages);
	struct page *page, *next;
	unsigned long n = 0;

	/* 16 MiB stay untouched, for whoever allocates meanwhile (kthreadd). */
	while (nr_free_pages() > 4096 &&
	       (page = alloc_page(GFP_KERNEL | __GFP_NORETRY | __GFP_NOWARN))) {
		clear_page(page_address(page));
		list_add(&page->lru, &pages);
		n++;
	}
	list_for_each_entry_safe(page, next, &pages, lru)
		__free_page(page);
	pr_info("@@BENCH-INFO prefaulted=%lu pages\n", n);
#endif
}

static int __init slab_bench_init(void)
{
	u64 t0 = ktime_get_ns();

	if (quick) {
		nobj = min(nobj, 5000u);
		reps = 2;
	}
	nobj = max(nobj, 16u);
	prefault_free_pages();
	reps = max(reps, 1u);
	use_ns = cycles() == 0;
	tunit = use_ns ? "ns" : "cycles";
	tclock = use_ns ? "ktime_get_ns" : IS_ENABLED(CONFIG_UML) ? "rdtsc" : "get_cycles";
	ptrs = vmalloc(array_size(nobj, sizeof(void *)));
	if (!ptrs)
		return -ENOMEM;
	pr_info("@@BENCH-INFO n=%u reps=%u quick=%d cpus=%u nodes=%u unit=%s clock=%s only=%s\n",
		nobj, reps, quick, num_online_cpus(), num_online_nodes(), tunit, tclock, only);

	if (enabled("floor"))
		bench_floor();
	if (enabled("kmalloc"))
		bench_single("kmalloc", false);
	if (enabled("cache"))
		bench_single("cache", true);
	if (enabled("bulk"))
		bench_bulk();
	if (enabled("remote") && num_online_cpus() > 1)
		bench_remote();
	if (enabled("handoff") && num_online_cpus() > 1)
		bench_handoff();
	if (enabled("allcpu"))
		bench_allcpu();
	if (enabled("footprint"))
		bench_footprint();
	if (enabled("shrink"))
		bench_shrink();

	vfree(ptrs);
	pr_info("@@BENCH-DONE errors=%u secs=%llu\n", errors,
		div_u64(ktime_get_ns() - t0, NSEC_PER_SEC));
	/* Stays loaded, holding nothing (a failing init would run twice: BusyBox insmod). */
	return 0;
}

#ifdef MODULE
module_init(slab_bench_init);
#else
late_initcall(slab_bench_init);	/* built in: after the kernel's own setup, before init */
#endif

static void __exit slab_bench_exit(void)
{
}
module_exit(slab_bench_exit);

MODULE_DESCRIPTION("slab allocator microbenchmarks (SLQB harness)");
MODULE_LICENSE("GPL");
