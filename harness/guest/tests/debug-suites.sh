# The kernel's own checker suites on a debug kernel: KASAN KUnit, KFENCE
# KUnit and overflow KUnit, every case reported, then the allocator's own
# suite (harness.kunit= names that one, if any). The KASAN and KFENCE suites
# provoke their reports on purpose; each of their cases also fails on a
# report it did not ask for (kasan_test_exit and kfence's test_exit check
# that none is pending), so allowing the report lines here hides nothing.
# The other test modules run in their own boot (debug-meminit-xarray, debug-maple), where any
# report fails the boot.
# Stock 6.1.192 quirks, the same on SLUB: kasan_test's
# kmalloc_memmove_negative_size really moves the memory, over the object's
# KASAN metadata, so its report's 'Allocated by' stack id is garbage and
# stackdepot warns; kasan_global_oob_right fails on SLUB too, as GCC 12
# makes no redzones after globals here (harness.kunit_known= in tests.list).
# overflow_allocation_test registers its device with no owner (patch 0010):
# KUnit runs a module's suites before the module's sysfs directory exists.
# allow-log: WARNING: CPU: [0-9]+ PID: [0-9]+ at [./]*linux/lib/stackdepot.c:[0-9]+ stack_depot_print
# allow-log: BUG: KASAN: 
# allow-log: BUG: KFENCE: 
# allow-log: Call Trace:
# The suites taint the kernel N, the KASAN and KFENCE reports B, the
# stackdepot warning (when it comes) W.
# expect-taint: BN
# allow-taint: W
# timeout: 1200
. /harness/lib.sh

kfence=/sys/module/kfence/parameters
interval=$(cat $kfence/sample_interval)
# KASAN's cases expect KASAN's report: KFENCE, sampling an allocation of
# theirs now and then, would report first (on SLUB kmalloc_uaf_memset and
# kmalloc_oob_memset_16 failed so). It sleeps while they run.
echo 0 > $kfence/sample_interval
kunit_run kasan_test
# KFENCE's cases each wait for an allocation of their own to be sampled;
# past 75% pool use KFENCE skips allocations from call sites it already
# holds, which after a debug boot and the KASAN suite failed some cases on
# SLUB ("failed to allocate from KFENCE"). Sampling on, skipping off.
echo "$interval" > $kfence/sample_interval
echo 100 > $kfence/skip_covered_thresh
kunit_run kfence_test
kunit_run overflow_kunit
mods=$(cmdline_arg harness.kunit) || mods=
for mod in $(echo "$mods" | tr ',' ' '); do
	kunit_run "$mod"
done
