# selftests.sh (test_meminit, test_xarray, test_maple_tree) on a debug
# kernel, where any kernel report fails the boot. Under KASAN, kmemleak
# and init_on_free, test_meminit's cache tests alone took 260 s here
# (SLUB, numa2, a loaded host): hence the longer timeout.
# allow-log: BUG at next_prev_test:1991
# allow-log: Call Trace:
# timeout: 1500
. /harness/tests/selftests.sh
