// SPDX-License-Identifier: GPL-2.0
/*
 * slab_memhp: what a slab cache keeps of memory that is to go offline
 * (harness side, not part of the kernel series; allocator-agnostic, loaded
 * by guest/tests/memhp.sh on SLQB's and SLUB's kernels alike).
 *
 * Offlining refuses a memory block that holds any slab page: isolating
 * the range (start_isolate_page_range(), before any memory notifier runs)
 * takes a slab page for an unmovable one. So the pages an allocator keeps
 * with no live object (queued objects, per-CPU slabs, empty pages kept for
 * the next burst) keep the block online until the allocator lets them go.
 *
 * Loading creates the cache (before the test onlines the memory: nothing
 * of the cache's own, such as SLUB's node structures, is to land there).
 * Writing 1 to the parameter 'churn' has a kthread bound to CPU @cpu
 * allocate @objects objects of the cache and free them all again, on that
 * CPU; it prints
 *   @@MEMHP churn cpu=C objects=N pages=P on_node=Q held=H
 * P: the pages the objects were on; Q: those of node @node (the memory
 * the test will offline); H: those of node @node still slab pages of the
 * cache. Reading the parameter 'held' counts H again.
 */
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/kthread.h>
#include <linux/completion.h>
#include <linux/mm.h>
#include <linux/vmalloc.h>
#include "slab.h"

static unsigned int cpu = 2;
module_param(cpu, uint, 0444);
MODULE_PARM_DESC(cpu, "the CPU that allocates and frees");
static int node = 1;
module_param(node, int, 0444);
MODULE_PARM_DESC(node, "the node whose memory is to go offline");
static unsigned int objects = 4096;
module_param(objects, uint, 0444);
MODULE_PARM_DESC(objects, "objects allocated, then freed");

#define OBJ_SIZE	256

static struct kmem_cache *cache;
static void **objs;
static unsigned long *pfns;	/* the churn's pages of @node, each once */
static unsigned int nr_pfns;
static DECLARE_COMPLETION(churned);

/* The churn's pages of @node still slab pages of the cache. */
static unsigned int count_held(void)
{
	unsigned int j, n = 0;

	for (j = 0; j < nr_pfns; j++) {
		struct page *page = pfn_to_online_page(pfns[j]);
		struct folio *folio;

		if (!page)
			continue;
		folio = page_folio(page);
		if (folio_test_slab(folio) &&
		    folio_slab(folio)->slab_cache == cache)
			n++;
	}
	return n;
}

static int held_get(char *buf, const struct kernel_param *kp)
{
	return sysfs_emit(buf, "%u\n", count_held());
}

static const struct kernel_param_ops held_ops = {
	.get = held_get,
};
module_param_cb(held, &held_ops, NULL, 0444);
MODULE_PARM_DESC(held, "read: the churn's pages of @node the cache still has");

/* On @cpu only: its allocations are the ones the test measures. */
static int churn_on_cpu(void *unused)
{
	unsigned int i, j, n, pages = 0;

	for (n = 0; n < objects; n++) {
		objs[n] = kmem_cache_alloc(cache, GFP_KERNEL);
		if (!objs[n])
			break;
	}
	for (i = 0; i < n; i++) {
		unsigned long pfn = page_to_pfn(virt_to_head_page(objs[i]));

		/* Distinct pages, counted by first object: one per run. */
		if (i && virt_to_head_page(objs[i]) ==
			 virt_to_head_page(objs[i - 1]))
			continue;
		pages++;
		if (pfn_to_nid(pfn) != node)
			continue;
		for (j = 0; j < nr_pfns && pfns[j] != pfn; j++)
			;
		if (j == nr_pfns)
			pfns[nr_pfns++] = pfn;
	}
	for (i = 0; i < n; i++)
		kmem_cache_free(cache, objs[i]);
	pr_info("@@MEMHP churn cpu=%u objects=%u pages=%u on_node=%u held=%u\n",
		cpu, n, pages, nr_pfns, count_held());
	kthread_complete_and_exit(&churned, 0);
}

static int churn_set(const char *val, const struct kernel_param *kp)
{
	struct task_struct *t;

	if (!sysfs_streq(val, "1"))
		return -EINVAL;
	if (!cpu_online(cpu))
		return -ENODEV;
	nr_pfns = 0;
	reinit_completion(&churned);
	t = kthread_create(churn_on_cpu, NULL, "slab_memhp");
	if (IS_ERR(t))
		return PTR_ERR(t);
	kthread_bind(t, cpu);
	wake_up_process(t);
	wait_for_completion(&churned);
	return 0;
}

static const struct kernel_param_ops churn_ops = {
	.set = churn_set,
};
module_param_cb(churn, &churn_ops, NULL, 0200);
MODULE_PARM_DESC(churn, "write 1: allocate and free @objects on @cpu");

static int __init slab_memhp_init(void)
{
	if (cpu >= nr_cpu_ids || !objects || node < 0 ||
	    node >= nr_node_ids || !node_possible(node))
		return -EINVAL;
	/* Here, not on @cpu: nothing of the test's own but the cache there. */
	objs = vmalloc(array_size(objects, sizeof(*objs)));
	pfns = vcalloc(objects, sizeof(*pfns));
	/* A usercopy window keeps the cache from being merged. */
	cache = kmem_cache_create_usercopy("slab_memhp", OBJ_SIZE, 0, 0, 0,
					   OBJ_SIZE, NULL);
	if (!objs || !pfns || !cache) {
		kmem_cache_destroy(cache);
		vfree(pfns);
		vfree(objs);
		return -ENOMEM;
	}
	return 0;
}

static void __exit slab_memhp_exit(void)
{
	kmem_cache_destroy(cache);
	vfree(pfns);
	vfree(objs);
}

module_init(slab_memhp_init);
module_exit(slab_memhp_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("harness: what a slab cache keeps of memory to go offline");
