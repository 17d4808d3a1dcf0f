# test_maple_tree (kernel-test-modules.sh) on a debug kernel, where any kernel report
# fails the boot. Under TCG with KASAN, lockdep, kmemleak and init_on_free
# it runs over 100 times slower than on the non-debug kernel (48-59 s there):
# 6341 s for its one pass on slqb-debug-fpunwind (kmod's insmod:
# kernel-test-modules.sh says why), hence the timeout.
# allow-log: BUG at next_prev_test:1991
# allow-log: Call Trace:
# needs-prog: kmod
# timeout: 9000
# shellcheck disable=SC2034 # read by kernel-test-modules.sh
TEST_MODULES=test_maple_tree
. /harness/tests/kernel-test-modules.sh
