// SPDX-License-Identifier: GPL-2.0
/*
 * slab_soak: the soak's own slab caches (harness side, not part of the kernel
 * series). Allocator-agnostic: loaded by guest/tests/soak-load.sh on SLQB's
 * and SLUB's debug kernels alike.
 *
 * While it runs, one unbound kthread per online CPU (they migrate, and CPUs
 * come and go under them) allocates objects from three caches of its own and
 * hands them to the others through a shared ring, so that most objects are
 * freed by another thread, often on another CPU and node: remote frees under
 * CPU hotplug. A quarter of the allocations ask for a node (every online
 * node in turn, memoryless ones included), a quarter go through the bulk
 * interface. Each object carries a cookie that is checked when it is freed
 * (an object handed out twice, or written by someone else, is reported).
 *
 * The caches are unmergeable (a usercopy window, SLAB_TYPESAFE_BY_RCU, a
 * constructor), so /proc/slabinfo's lines are theirs alone. The soak stops
 * the threads with "echo 0 > /sys/module/slab_soak/parameters/run": every
 * object is freed and each cache prints
 *   @@SOAKMOD cache=NAME allocs=N frees=N cross_cpu=N failed=N bad=N
 * Then the soak shrinks the caches and checks that /proc/slabinfo counts no
 * object and no slab in them (nothing lost in a queue, every page given
 * back); unloading destroys them.
 */
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/kthread.h>
#include <linux/spinlock.h>
#include <linux/atomic.h>
#include <linux/nodemask.h>
#include <linux/cpumask.h>
#include <linux/delay.h>
#include <linux/sched.h>

#define SOAK_MAGIC	0x50a4c0de5a5a5a5aUL
#define SOAK_CTOR	0xc7047c70c7047c70UL
#define SOAK_BATCH	16
#define SOAK_RING	2048

struct soak_cache {
	const char *name;
	unsigned int size;
	bool ctor;		/* made with soak_ctor() */
	struct kmem_cache *s;
	atomic_long_t allocs, frees, cross_cpu, failed, bad;
};

/*
 * An object's head: words 0-1 are the cookie while the soak owns it (the
 * constructed cache keeps word 0 for the constructor's pattern); word 2 is
 * the CPU that allocated it.
 */
struct soak_obj {
	unsigned long ctor;
	unsigned long cookie;
	unsigned long cpu;
};

static void soak_ctor(void *p)
{
	((struct soak_obj *)p)->ctor = SOAK_CTOR;
}

static struct soak_cache caches[] = {
	{ .name = "slab_soak_64", .size = 64 },
	{ .name = "slab_soak_256_rcu", .size = 256 },
	{ .name = "slab_soak_1k_ctor", .size = 1024, .ctor = true },
};

/* The ring of objects in flight between the threads. */
struct soak_item {
	struct soak_cache *c;
	struct soak_obj *p;
};

static DEFINE_SPINLOCK(ring_lock);
static struct soak_item ring[SOAK_RING];
static unsigned int ring_head, ring_len;
static struct task_struct **threads;
static unsigned int nthreads;
static bool running;
static DEFINE_MUTEX(run_lock);

static unsigned int delay_us = 200;
module_param(delay_us, uint, 0644);
MODULE_PARM_DESC(delay_us, "pause between a thread's rounds (us)");

static unsigned long cookie(struct soak_cache *c, struct soak_obj *p)
{
	return SOAK_MAGIC ^ (unsigned long)p ^ (c - caches);
}

static void soak_take(struct soak_cache *c, struct soak_obj *p)
{
	if (c->ctor && p->ctor != SOAK_CTOR) {
		atomic_long_inc(&c->bad);
		pr_err("slab_soak: %s: object %p not constructed (%lx)\n", c->name, p, p->ctor);
	}
	p->cookie = cookie(c, p);
	p->cpu = raw_smp_processor_id();
	atomic_long_inc(&c->allocs);
}

/* Check the cookie and undo it: the constructed state is what is freed. */
static void soak_give(struct soak_cache *c, struct soak_obj *p)
{
	if (p->cookie != cookie(c, p) || (c->ctor && p->ctor != SOAK_CTOR)) {
		atomic_long_inc(&c->bad);
		pr_err("slab_soak: %s: object %p overwritten while in use (%lx %lx)\n",
		       c->name, p, p->ctor, p->cookie);
	}
	if (p->cpu != raw_smp_processor_id())
		atomic_long_inc(&c->cross_cpu);
	p->cookie = 0;
	atomic_long_inc(&c->frees);
}

static void soak_free(struct soak_cache *c, struct soak_obj *p)
{
	soak_give(c, p);
	kmem_cache_free(c->s, p);
}

/* Pass an object to the others; if the ring is full, free it here. */
static void ring_put(struct soak_cache *c, struct soak_obj *p)
{
	unsigned long flags;
	bool full;

	spin_lock_irqsave(&ring_lock, flags);
	full = ring_len == SOAK_RING;
	if (!full) {
		ring[(ring_head + ring_len) % SOAK_RING] = (struct soak_item){ c, p };
		ring_len++;
	}
	spin_unlock_irqrestore(&ring_lock, flags);
	if (full)
		soak_free(c, p);
}

static bool ring_get(struct soak_item *it)
{
	unsigned long flags;
	bool got;

	spin_lock_irqsave(&ring_lock, flags);
	got = ring_len > 0;
	if (got) {
		*it = ring[ring_head];
		ring_head = (ring_head + 1) % SOAK_RING;
		ring_len--;
	}
	spin_unlock_irqrestore(&ring_lock, flags);
	return got;
}

static void soak_round(unsigned long n)
{
	struct soak_cache *c = &caches[n % ARRAY_SIZE(caches)];
	void *objs[SOAK_BATCH], *bulk[ARRAY_SIZE(caches)][SOAK_BATCH];
	unsigned int nr[ARRAY_SIZE(caches)];
	struct soak_item it;
	int i, got = 0;

	switch ((n / ARRAY_SIZE(caches)) % 4) {
	case 0:		/* bulk */
		got = kmem_cache_alloc_bulk(c->s, GFP_KERNEL, SOAK_BATCH, objs);
		break;
	case 1: {	/* every online node in turn */
		int nid = first_online_node, k = n % num_online_nodes();

		while (k--)
			nid = next_online_node(nid);
		if (nid >= MAX_NUMNODES)
			nid = NUMA_NO_NODE;
		for (got = 0; got < SOAK_BATCH; got++) {
			objs[got] = kmem_cache_alloc_node(c->s, GFP_KERNEL, nid);
			if (!objs[got])
				break;
		}
		break;
	}
	default:
		for (got = 0; got < SOAK_BATCH; got++) {
			objs[got] = kmem_cache_alloc(c->s, GFP_KERNEL);
			if (!objs[got])
				break;
		}
	}
	if (got < SOAK_BATCH)
		atomic_long_add(SOAK_BATCH - got, &c->failed);
	for (i = 0; i < got; i++) {
		soak_take(c, objs[i]);
		ring_put(c, objs[i]);
	}

	/*
	 * Free what the others passed, one by one, or every other round
	 * through the bulk interface, a call per cache.
	 */
	if (!(n & 1)) {
		for (i = 0; i < SOAK_BATCH && ring_get(&it); i++)
			soak_free(it.c, it.p);
		return;
	}
	for (i = 0; i < ARRAY_SIZE(caches); i++)
		nr[i] = 0;
	for (got = 0; got < SOAK_BATCH && ring_get(&it); got++) {
		i = it.c - caches;
		soak_give(it.c, it.p);
		bulk[i][nr[i]++] = it.p;
	}
	for (i = 0; i < ARRAY_SIZE(caches); i++)
		if (nr[i])
			kmem_cache_free_bulk(caches[i].s, nr[i], bulk[i]);
}

static int soak_thread(void *arg)
{
	unsigned long n = (unsigned long)arg;

	while (!kthread_should_stop()) {
		soak_round(n);
		n += 7;
		if (delay_us)
			usleep_range(delay_us, 2 * delay_us);
		cond_resched();
	}
	return 0;
}

static void soak_stop(void)
{
	struct soak_item it;
	unsigned int i;

	for (i = 0; i < nthreads; i++)
		kthread_stop(threads[i]);
	kfree(threads);
	threads = NULL;
	nthreads = 0;
	while (ring_get(&it))
		soak_free(it.c, it.p);
	for (i = 0; i < ARRAY_SIZE(caches); i++) {
		struct soak_cache *c = &caches[i];

		pr_info("@@SOAKMOD cache=%s allocs=%ld frees=%ld cross_cpu=%ld failed=%ld bad=%ld\n",
			c->name, atomic_long_read(&c->allocs), atomic_long_read(&c->frees),
			atomic_long_read(&c->cross_cpu), atomic_long_read(&c->failed),
			atomic_long_read(&c->bad));
	}
}

static int soak_start(void)
{
	unsigned int i, n = num_online_cpus();
	struct task_struct *t;

	threads = kcalloc(n, sizeof(*threads), GFP_KERNEL);
	if (!threads)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		t = kthread_run(soak_thread, (void *)(unsigned long)i, "slab_soak/%u", i);
		if (IS_ERR(t)) {
			soak_stop();
			return PTR_ERR(t);
		}
		threads[nthreads++] = t;
	}
	return 0;
}

/* run: 1 while the threads run; writing 0 stops them and frees everything. */
static int run_set(const char *val, const struct kernel_param *kp)
{
	bool on;
	int ret = kstrtobool(val, &on);

	if (ret)
		return ret;
	mutex_lock(&run_lock);
	if (on && !running)
		ret = soak_start();
	else if (!on && running)
		soak_stop();
	if (!ret)
		running = on;
	mutex_unlock(&run_lock);
	return ret;
}

static int run_get(char *buf, const struct kernel_param *kp)
{
	return sysfs_emit(buf, "%d\n", running);
}

static const struct kernel_param_ops run_ops = {
	.set = run_set,
	.get = run_get,
};
module_param_cb(run, &run_ops, NULL, 0644);
MODULE_PARM_DESC(run, "1: the threads run (at load); 0: stop them, free every object");

static int __init slab_soak_init(void)
{
	unsigned int i;
	int ret;

	for (i = 0; i < ARRAY_SIZE(caches); i++) {
		struct soak_cache *c = &caches[i];

		if (i == 0)
			c->s = kmem_cache_create_usercopy(c->name, c->size, 0, 0, 0,
							  c->size, NULL);
		else if (i == 1)
			c->s = kmem_cache_create(c->name, c->size, 0,
						 SLAB_TYPESAFE_BY_RCU, NULL);
		else
			c->s = kmem_cache_create(c->name, c->size, 0, 0, soak_ctor);
		if (!c->s) {
			ret = -ENOMEM;
			goto fail;
		}
	}
	mutex_lock(&run_lock);
	ret = soak_start();
	running = !ret;
	mutex_unlock(&run_lock);
	if (!ret)
		return 0;
fail:
	while (i--)
		kmem_cache_destroy(caches[i].s);
	return ret;
}

static void __exit slab_soak_exit(void)
{
	unsigned int i;

	mutex_lock(&run_lock);
	if (running)
		soak_stop();
	running = false;
	mutex_unlock(&run_lock);
	for (i = 0; i < ARRAY_SIZE(caches); i++)
		kmem_cache_destroy(caches[i].s);
}

module_init(slab_soak_init);
module_exit(slab_soak_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Slab soak: remote frees across CPUs and nodes in caches of its own");
