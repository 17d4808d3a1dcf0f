# The kernel's own checker suites on a debug kernel: KASAN KUnit, KFENCE
# KUnit and overflow KUnit, every case reported (harness.kunit= names the
# modules). The KASAN and KFENCE suites provoke their reports on purpose;
# each of their cases also fails on a report it did not ask for
# (kasan_test_exit and kfence's test_exit check that none is pending), so
# allowing the report lines here hides nothing. The other test modules run
# in their own boot (debug-selftests), where any report fails the boot.
# allow-log: BUG: KASAN: 
# allow-log: BUG: KFENCE: 
# allow-log: Call Trace:
# timeout: 1200
. /harness/tests/kunit.sh
