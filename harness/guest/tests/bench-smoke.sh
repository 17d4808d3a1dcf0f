# Smoke of the benchmarks (make check): the slab_bench module loads, runs a
# quick round of two of its groups and prints its @@BENCH lines.
# needs-module: harness/modules/slab_bench
# expect-taint: O
# timeout: 240
. /harness/lib.sh

ko=/lib/modules/extra/slab_bench.ko
only=$(cmdline_arg harness.only) || only=kmalloc,remote
check module-present [ -f $ko ]
check module-loads insmod $ko quick=1 only="$only"
lines=$(dmesg | grep -c '@@BENCH metric=')
done=$(dmesg | sed -n 's/.*@@BENCH-DONE errors=\([0-9]*\).*/\1/p')
check bench-lines [ "$lines" -ge 10 ]
check bench-no-errors [ "${done:-x}" = 0 ]
pass bench-smoke "$lines result lines"
rmmod slab_bench
