// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of slqb_debug's checks: each makes a fault on purpose
 * (double free, free of a pointer inside an object, red zone overwrite,
 * write after free, a cache destroyed with a live object) and expects
 * exactly one report, after which the cache still works.
 *
 * The reports go to the kernel log with a stack dump, as they would for
 * a real bug; the harness runs this module in a guest test that expects
 * them. The caches with objects set aside are not destroyed (a destroy
 * would report them), except by the test that checks that report.
 */
#include <kunit/test.h>
#include <linux/mm.h>
#include <linux/slab.h>
#include "../mm/slab.h"
#include "../mm/slqb.h"

#define DEBUG_SIZE	64
#define ALL_CHECKS	(SLAB_CONSISTENCY_CHECKS | SLAB_RED_ZONE | \
			 SLAB_POISON | SLAB_STORE_USER)

static struct kmem_cache *debug_cache(struct kunit *test, const char *name,
				      slab_flags_t flags)
{
	struct kmem_cache *s;

	/* KASAN would report the faults first, and differently. */
	if (IS_ENABLED(CONFIG_KASAN))
		kunit_skip(test, "KASAN catches these faults itself");
	s = kmem_cache_create(name, DEBUG_SIZE, 0, flags, NULL);
	KUNIT_ASSERT_NOT_NULL(test, s);
	/* Set after creation, which refuses it (see lib/slqb_kunit.c). */
	s->flags |= SLAB_SKIP_KFENCE;
	/* The flags were kept, so the checks are on for this cache. */
	KUNIT_ASSERT_EQ(test, s->flags & flags, flags);
	return s;
}

/* Allocate, and check that the cache still hands out sound objects. */
static void expect_cache_works(struct kunit *test, struct kmem_cache *s)
{
	long reports = slqb_debug_report_count();
	void *p[8];
	int i;

	for (i = 0; i < ARRAY_SIZE(p); i++) {
		p[i] = kmem_cache_alloc(s, GFP_KERNEL);
		KUNIT_ASSERT_NOT_NULL(test, p[i]);
		memset(p[i], 0x33, DEBUG_SIZE);
	}
	for (i = 0; i < ARRAY_SIZE(p); i++)
		kmem_cache_free(s, p[i]);
	KUNIT_EXPECT_EQ(test, slqb_debug_report_count(), reports);
}

/* Free an object twice in a cache with @flags: one report, cache intact. */
static void expect_double_free_caught(struct kunit *test, const char *name,
				      slab_flags_t flags)
{
	struct kmem_cache *s = debug_cache(test, name, flags);
	long reports = slqb_debug_report_count();
	void *p = kmem_cache_alloc(s, GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, p);
	kmem_cache_free(s, p);
	kmem_cache_free(s, p);
	KUNIT_EXPECT_EQ(test, slqb_debug_report_count(), reports + 1);
	expect_cache_works(test, s);
	kmem_cache_destroy(s);
}

static void slqb_debug_test_double_free(struct kunit *test)
{
	expect_double_free_caught(test, "slqb_dbg_double", ALL_CHECKS);
}

/* Without F, the state word still catches a double free. */
static void slqb_debug_test_double_free_z(struct kunit *test)
{
	expect_double_free_caught(test, "slqb_dbg_double_z", SLAB_RED_ZONE);
}

static void slqb_debug_test_not_object_start(struct kunit *test)
{
	struct kmem_cache *s = debug_cache(test, "slqb_dbg_inside", ALL_CHECKS);
	long reports = slqb_debug_report_count();
	char *p = kmem_cache_alloc(s, GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, p);
	kmem_cache_free(s, p + 8);
	KUNIT_EXPECT_EQ(test, slqb_debug_report_count(), reports + 1);
	/* The object itself is untouched and can still be freed. */
	kmem_cache_free(s, p);
	KUNIT_EXPECT_EQ(test, slqb_debug_report_count(), reports + 1);
	expect_cache_works(test, s);
	kmem_cache_destroy(s);
}

static void slqb_debug_test_redzone(struct kunit *test)
{
	struct kmem_cache *s = debug_cache(test, "slqb_dbg_redzone",
					   ALL_CHECKS);
	long reports = slqb_debug_report_count();
	char *p = kmem_cache_alloc(s, GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, p);
	p[DEBUG_SIZE] = 0x42;		/* one byte past the object */
	kmem_cache_free(s, p);
	KUNIT_EXPECT_EQ(test, slqb_debug_report_count(), reports + 1);
	expect_cache_works(test, s);
	/* p is set aside, still allocated: not destroyed. */
}

static void slqb_debug_test_write_after_free(struct kunit *test)
{
	struct kmem_cache *s = debug_cache(test, "slqb_dbg_uaf", ALL_CHECKS);
	long reports = slqb_debug_report_count();
	char *p, *q;

	/* On one CPU, the next allocation would be the object just freed. */
	migrate_disable();
	p = kmem_cache_alloc(s, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, p);
	kmem_cache_free(s, p);
	p[DEBUG_SIZE / 2] = 0x42;
	q = kmem_cache_alloc(s, GFP_KERNEL);
	migrate_enable();

	KUNIT_ASSERT_NOT_NULL(test, q);
	KUNIT_EXPECT_EQ(test, slqb_debug_report_count(), reports + 1);
	KUNIT_EXPECT_PTR_NE(test, (void *)p, (void *)q);
	kmem_cache_free(s, q);
	expect_cache_works(test, s);
	/* p is set aside: not destroyed. */
}

static void slqb_debug_test_destroy_live(struct kunit *test)
{
	struct kmem_cache *s = debug_cache(test, "slqb_dbg_leak", ALL_CHECKS);
	long reports = slqb_debug_report_count();
	void *p = kmem_cache_alloc(s, GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, p);
	/*
	 * Reports the object and its allocation (kunit-debug.sh expects the
	 * lines); the cache stays, and still works, its object's free too.
	 */
	kmem_cache_destroy(s);
	expect_cache_works(test, s);
	kmem_cache_free(s, p);
	KUNIT_EXPECT_EQ(test, slqb_debug_report_count(), reports);
}

static struct kunit_case slqb_debug_test_cases[] = {
	KUNIT_CASE(slqb_debug_test_double_free),
	KUNIT_CASE(slqb_debug_test_double_free_z),
	KUNIT_CASE(slqb_debug_test_not_object_start),
	KUNIT_CASE(slqb_debug_test_redzone),
	KUNIT_CASE(slqb_debug_test_write_after_free),
	KUNIT_CASE(slqb_debug_test_destroy_live),
	{}
};

static struct kunit_suite slqb_debug_test_suite = {
	.name = "slqb_debug",
	.test_cases = slqb_debug_test_cases,
};

kunit_test_suite(slqb_debug_test_suite);

MODULE_LICENSE("GPL");
