# A diagnostic, not a test (not in tests.list; it passes whatever the log
# says): where does test_maple_tree spend its time on the debug kernel?
# It loads the module in the background and every 5 minutes prints the
# maple_node cache, MemFree and Slab, and every CPU's stack (sysrq l).
#   SLQB_TIMEOUT=5700 harness/boot/qemu.sh slqb-debug numa2 maple-probe \
#	init_on_alloc=1 init_on_free=1
# Read the log (build/logs/slqb-debug-numa2-maple-probe.log) by hand:
# sysrq's backtraces would trip the log judge, so every line is allowed.
# allow-log: .*
# needs-prog: kmod
# timeout: 5700
. /harness/lib.sh
ko=$(find /lib/modules -name test_maple_tree.ko | head -n 1)
ln -sf /usr/bin/kmod /tmp/insmod
echo 8 > /proc/sys/kernel/printk
(/tmp/insmod "$ko"; echo "@@PROBE insmod done rc=$?") &
pid=$!
n=0
while kill -0 $pid 2>/dev/null; do
	sleep 300
	n=$((n + 1))
	echo "@@PROBE sample $n uptime $(cut -d' ' -f1 /proc/uptime)"
	grep -E '^maple_node' /proc/slabinfo
	grep -E 'MemFree|^Slab' /proc/meminfo
	echo l > /proc/sysrq-trigger
done
dmesg | grep -E 'maple_tree: [0-9]+ of'
pass maple-probe "done"
