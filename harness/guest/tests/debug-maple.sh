# test_maple_tree (selftests.sh) on a debug kernel, where any kernel report
# fails the boot. Under TCG with KASAN, lockdep, kmemleak and init_on_free
# it runs for over an hour: its last part duplicates trees of up to 100,000
# entries thousands of times, with an rcu_barrier() after each.
# allow-log: BUG at next_prev_test:1991
# allow-log: Call Trace:
# timeout: 7200
# shellcheck disable=SC2034 # read by selftests.sh
SELFTESTS=test_maple_tree
. /harness/tests/selftests.sh
