// SPDX-License-Identifier: GPL-2.0
/*
 * slab_scale: fixed slab workloads for make scale (harness/bench/scale.sh,
 * guest test guest/tests/scale.sh; harness side, not part of the kernel
 * series). Allocator-agnostic: built against SLQB, SLUB and SLAB kernels.
 * Nothing is timed: the guest counts what the allocator did (its statistics)
 * and what memory it holds afterwards.
 *
 * pattern=work     every online CPU at once allocates nobj kmalloc objects of
 *                  each of a few sizes, frees half of them itself and half
 *                  of its neighbour's (CPU order): local and remote frees in
 *                  the shared kmalloc caches, all freed at the end.
 * pattern=fanout   many CPUs free one CPU's objects: the first online CPU
 *                  allocates nobj objects of the cache "slab_scale" and
 *                  hands them round-robin, through one ring each, to every
 *                  other online CPU, which frees them.
 * pattern=fanin    one CPU frees the objects of many owners (one consumer,
 *                  many producers: a network receive queue): every other
 *                  online CPU allocates its share of nobj objects and hands
 *                  them through its ring to the first CPU, which frees them.
 * For fanout and fanin the cache "slab_scale" (size bytes, unmergeable) lives
 * until the module is removed, so its statistics can be read in between
 * (/sys/kernel/slab/slab_scale/). One line at the end:
 *   @@SCALE-DONE pattern=P cpus=N objects=N errors=N
 */
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/kthread.h>
#include <linux/vmalloc.h>
#include <linux/cpumask.h>
#include <linux/topology.h>
#include <linux/completion.h>
#include <linux/sched.h>
#include <linux/string.h>
#include <linux/delay.h>
#include <linux/wait.h>
#include <linux/ktime.h>

static char *pattern = "work";
module_param(pattern, charp, 0444);
static unsigned int nobj = 2000;
module_param(nobj, uint, 0444);
static unsigned int size = 256;
module_param(size, uint, 0444);

static const unsigned int work_sizes[] = { 32, 64, 192, 256, 512, 1024, 2048 };
#define NSIZES ARRAY_SIZE(work_sizes)
#define RING 256

static struct kmem_cache *cache;
static atomic_t errors = ATOMIC_INIT(0);

/* A single-producer, single-consumer ring of objects. */
struct ring {
	void *slot[RING];
	unsigned int head ____cacheline_aligned;	/* written by the producer */
	unsigned int tail ____cacheline_aligned;	/* written by the consumer */
};

/*
 * Waiting on a ring: spin a little, then sleep. Nothing here is timed, and
 * under TCG a spinning vCPU takes the host's time from the others (RCU
 * stalls at 8 vCPUs on 2 host cores).
 */
static void ring_wait(unsigned int *spins)
{
	if (++*spins > 64)
		usleep_range(20, 100);
	else
		cpu_relax();
}

static void ring_put(struct ring *r, unsigned int i, void *o)
{
	unsigned int spins = 0;

	/* Pairs with ring_get()'s release: the slot is free again. */
	while (i - smp_load_acquire(&r->tail) >= RING)
		ring_wait(&spins);
	r->slot[i % RING] = o;
	smp_store_release(&r->head, i + 1);
}

static void *ring_get(struct ring *r, unsigned int i)
{
	unsigned int spins = 0;
	void *o;

	/* Pairs with ring_put()'s release: the slot is written. */
	while (smp_load_acquire(&r->head) == i)
		ring_wait(&spins);
	o = r->slot[i % RING];
	smp_store_release(&r->tail, i + 1);
	return o;
}

/* One thread per CPU; all start together. */
/* pattern=work's phases, each worker's end of each (ktime_get_ns()). */
enum { PH_START, PH_ALLOC, PH_BARRIER, PH_OWN_FREE, PH_NEXT_FREE, NR_PH };

struct worker {
	int cpu, idx;
	struct completion done;
	u64 t[NR_PH];
};

static struct worker *workers;
static int nworkers;
static struct ring *rings;	/* one per CPU other than the first */
static void ***work_ptrs;	/* pattern=work: per worker, NSIZES * nobj */
static atomic_t work_phase;
static bool abort_run;		/* a thread could not be made: the others just end */
static DECLARE_COMPLETION(go);	/* every thread is made */
static DECLARE_WAIT_QUEUE_HEAD(phase_wait);

/* Sleeps until every thread has reached it (@count counts them). */
static void phase_barrier(atomic_t *count)
{
	if (atomic_inc_return(count) == READ_ONCE(nworkers))
		wake_up_all(&phase_wait);
	else
		wait_event(phase_wait, atomic_read(count) >= READ_ONCE(nworkers));
}

/*
 * Every so many objects, let the CPU's other tasks run: the kernel is not
 * preemptible, and a bound thread that never yields starves RCU's kthread
 * on its CPU (stall reports under TCG).
 */
static inline void yield_every(unsigned int n)
{
	if (!(n & 63))
		cond_resched();
}

static void *alloc_obj(void)
{
	void *o = kmem_cache_alloc(cache, GFP_KERNEL);

	if (!o)
		atomic_inc(&errors);
	return o;
}

static void free_obj(void *o)
{
	if (o)
		kmem_cache_free(cache, o);
}

static int worker_fn(void *data)
{
	struct worker *w = data;
	int k = nworkers - 1, i, s;	/* k: the CPUs other than the first */
	unsigned int n, share = nobj / max(k, 1);

	wait_for_completion(&go);
	if (READ_ONCE(abort_run)) {
		complete(&w->done);
		return 0;
	}
	if (!strcmp(pattern, "work")) {
		void **p = work_ptrs[w->idx], **q = work_ptrs[(w->idx + 1) % nworkers];

		w->t[PH_START] = ktime_get_ns();
		for (s = 0; s < NSIZES; s++)
			for (n = 0; n < nobj; n++) {
				yield_every(n);
				p[s * nobj + n] = kmalloc(work_sizes[s], GFP_KERNEL);
				if (!p[s * nobj + n])
					atomic_inc(&errors);
			}
		/* Everyone has allocated before anyone frees a neighbour's. */
		w->t[PH_ALLOC] = ktime_get_ns();
		phase_barrier(&work_phase);
		w->t[PH_BARRIER] = ktime_get_ns();
		for (n = 0; n < NSIZES * nobj; n += 2) {
			yield_every(n >> 1);
			kfree(p[n]);
		}
		w->t[PH_OWN_FREE] = ktime_get_ns();
		for (n = 1; n < NSIZES * nobj; n += 2) {
			yield_every(n >> 1);
			kfree(q[n]);
		}
		w->t[PH_NEXT_FREE] = ktime_get_ns();
	} else if (!strcmp(pattern, "fanout")) {
		if (w->idx == 0) {
			for (n = 0; n < share * k; n++) {
				yield_every(n);
				ring_put(&rings[n % k], n / k, alloc_obj());
			}
		} else {
			for (n = 0; n < share; n++) {
				yield_every(n);
				free_obj(ring_get(&rings[w->idx - 1], n));
			}
		}
	} else {	/* fanin */
		if (w->idx == 0) {
			for (n = 0; n < share * k; n++) {
				i = n % k;
				yield_every(n);
				free_obj(ring_get(&rings[i], n / k));
			}
		} else {
			for (n = 0; n < share; n++) {
				yield_every(n);
				ring_put(&rings[w->idx - 1], n, alloc_obj());
			}
		}
	}
	complete(&w->done);
	return 0;
}

static int __init slab_scale_init(void)
{
	struct task_struct *t;
	int cpu, i, ret = 0;
	unsigned int objects;

	if (strcmp(pattern, "work") && strcmp(pattern, "fanout") && strcmp(pattern, "fanin")) {
		pr_err("slab_scale: pattern must be work, fanout or fanin\n");
		return -EINVAL;
	}
	nworkers = num_online_cpus();
	if (nworkers < 2)
		return -ENODEV;
	workers = kcalloc(nworkers, sizeof(*workers), GFP_KERNEL);
	rings = vzalloc(array_size(nworkers, sizeof(*rings)));
	work_ptrs = kcalloc(nworkers, sizeof(*work_ptrs), GFP_KERNEL);
	if (!workers || !rings || !work_ptrs) {
		ret = -ENOMEM;
		goto out;
	}
	if (!strcmp(pattern, "work")) {
		for (i = 0; i < nworkers; i++) {
			work_ptrs[i] = vzalloc(array_size(NSIZES * nobj, sizeof(void *)));
			if (!work_ptrs[i]) {
				ret = -ENOMEM;
				goto out;
			}
		}
		objects = NSIZES * nobj * nworkers;
	} else {
		/* A usercopy region makes the cache unmergeable: our objects only. */
		cache = kmem_cache_create_usercopy("slab_scale", size, 0, 0, 0, size, NULL);
		if (!cache) {
			ret = -ENOMEM;
			goto out;
		}
		objects = nobj / (nworkers - 1) * (nworkers - 1);
	}
	i = 0;
	for_each_online_cpu(cpu) {
		if (i == nworkers)
			break;
		workers[i].cpu = cpu;
		workers[i].idx = i;
		init_completion(&workers[i].done);
		t = kthread_create_on_node(worker_fn, &workers[i], cpu_to_node(cpu),
					   "slab_scale/%d", cpu);
		if (IS_ERR(t)) {
			/* The others must not wait for it, and cannot run without it. */
			pr_err("slab_scale: no thread on CPU %d\n", cpu);
			ret = PTR_ERR(t);
			WRITE_ONCE(abort_run, true);
			nworkers = i;
			break;
		}
		kthread_bind(t, cpu);
		wake_up_process(t);
		i++;
	}
	complete_all(&go);
	while (i--)
		wait_for_completion(&workers[i].done);
	if (ret)
		goto out;
	if (!strcmp(pattern, "work")) {
		/* The slowest worker's time in each phase, in ms. */
		u64 worst[NR_PH] = { };
		int ph;

		for (i = 0; i < nworkers; i++)
			for (ph = PH_ALLOC; ph < NR_PH; ph++)
				worst[ph] = max(worst[ph], workers[i].t[ph] - workers[i].t[ph - 1]);
		pr_info("@@SCALE-PHASES alloc_ms=%llu barrier_ms=%llu own_free_ms=%llu next_free_ms=%llu\n",
			worst[PH_ALLOC] / NSEC_PER_MSEC, worst[PH_BARRIER] / NSEC_PER_MSEC,
			worst[PH_OWN_FREE] / NSEC_PER_MSEC, worst[PH_NEXT_FREE] / NSEC_PER_MSEC);
	}
	pr_info("@@SCALE-DONE pattern=%s cpus=%d objects=%u errors=%d\n",
		pattern, nworkers, objects, atomic_read(&errors));
out:
	if (work_ptrs)
		for (i = 0; i < num_online_cpus(); i++)
			vfree(work_ptrs[i]);
	kfree(work_ptrs);
	vfree(rings);
	kfree(workers);
	if (ret && cache) {
		kmem_cache_destroy(cache);
		cache = NULL;
	}
	return ret;
}

static void __exit slab_scale_exit(void)
{
	kmem_cache_destroy(cache);
}

module_init(slab_scale_init);
module_exit(slab_scale_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Fixed slab workloads for the SLQB harness's make scale");
