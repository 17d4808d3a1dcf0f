# test_meminit and test_xarray (kernel-test-modules.sh) on a debug kernel, where any
# kernel report fails the boot. Under KASAN, kmemleak and init_on_free,
# test_meminit's cache tests alone took 260 s here (SLUB, numa2, a loaded
# host): hence the longer timeout. test_maple_tree takes over an hour
# there: it is debug-maple.sh.
# timeout: 1500
# shellcheck disable=SC2034 # read by kernel-test-modules.sh
TEST_MODULES="test_meminit test_xarray"
. /harness/tests/kernel-test-modules.sh
