# Memory hotplug: a block of memory goes offline once the allocator lets go
# of the slab pages it keeps there with no live object. Offlining refuses
# a block that holds any slab page (isolation takes it for an unmovable
# page, before any memory notifier runs), so what a CPU keeps after a burst
# of frees keeps the block online until the allocator gives it back.
# The memhp topology's node 1 has CPUs 2-3 and no memory but a pc-dimm,
# added offline. CPU 3 goes offline and every process moves to CPUs 0-1
# first, so that CPU 2 alone takes pages of node 1, and slab_memhp
# (harness/modules) creates its cache; then the block goes online (as
# kernel memory) and slab_memhp allocates and frees objects of its cache
# on CPU 2: their pages come from the pc-dimm, and the allocator keeps
# some of them, empty.
# SLQB: CPU 2, idle, gives them back at its periodic trims (a batch of the
# freelist and the kept empty pages each time), with nobody asking; SLUB
# keeps its CPU slab and partial slabs until the cache is shrunk
# (/sys/kernel/slab/slab_memhp/shrink). Then the block must go offline.
# harness.objects=N: the objects of the churn (default 4096).
# needs-module: harness/modules/slab_memhp
# expect-taint: O
# timeout: 400
. /harness/lib.sh

N=$(cmdline_arg harness.objects) || N=4096
MEM=/sys/devices/system/memory
HELD=/sys/module/slab_memhp/parameters/held
alloc=$(allocator)
blocks=
for b in $MEM/memory[0-9]*; do
	[ "$(cat "$b/state")" = offline ] && blocks="$blocks ${b##*/}"
done
echo "memhp: $alloc; offline at boot:${blocks:- none}"
if [ -z "$blocks" ]; then
	fail memhp-dimm "no offline memory block: the topology's pc-dimm is missing (CONFIG_ACPI_HOTPLUG_MEMORY?)"
	exit 0
fi

# Nothing but the churn on node 1's CPUs from here on (kernel threads
# bound to CPU 2 stay: their allocations are few and short-lived).
check memhp-cpu3-offline sh -c 'echo 0 > /sys/devices/system/cpu/cpu3/online'
taskset -p 3 $$ > /dev/null
for p in /proc/[0-9]*; do taskset -p 3 "${p#/proc/}" > /dev/null 2>&1 || true; done
# Let what the CPU hotplug set going on CPU 2 (kworkers, their allocations)
# be done before node 1 has memory.
sleep 5
check memhp-load insmod /lib/modules/extra/slab_memhp.ko cpu=2 node=1 objects="$N"
for b in $blocks; do
	check memhp-online-$b sh -c "echo online_kernel > $MEM/$b/state"
done
check memhp-churn sh -c 'echo 1 > /sys/module/slab_memhp/parameters/churn'
line=$(dmesg | grep '@@MEMHP churn' | tail -n 1)
echo "memhp: ${line#*@@MEMHP }"
on_node=$(echo "$line" | sed -n 's/.* on_node=\([0-9]*\).*/\1/p')
kept=$(echo "$line" | sed -n 's/.* held=\([0-9]*\).*/\1/p')
# What the test rests on: the churn's pages came from the pc-dimm, and the
# allocator kept some of them, empty, after the frees.
check memhp-placed [ "${on_node:-0}" -gt 0 ]
check memhp-kept [ "${kept:-0}" -gt 0 ]
# And while they are kept, the block cannot go offline (SLQB's trim needs
# a few intervals of 2 s to give them all back).
b1=${blocks# }; b1=${b1%% *}
if echo offline > $MEM/$b1/state 2>/dev/null; then
	fail memhp-refused "$b1 went offline while the cache kept $kept of its pages"
	echo online_kernel > $MEM/$b1/state
else
	pass memhp-refused "$b1 not offline while the cache keeps $kept of its pages (a page in the way: $(dmesg | grep -B4 'page dumped because' | grep -o 'flags: .*' | tail -n 1))"
fi

if [ "$alloc" = slqb ]; then
	i=0
	while [ "$(cat $HELD)" != 0 ] && [ $i -lt 40 ]; do sleep 1; i=$((i + 1)); done
	check memhp-trim [ "$(cat $HELD)" = 0 ]
	echo "memhp: SLQB's idle CPU 2 gave back $kept kept pages of node 1 in ${i}s; $(cat $HELD) left"
else
	echo 1 > /sys/kernel/slab/slab_memhp/shrink
	check memhp-shrink [ "$(cat $HELD)" = 0 ]
fi

# Other kernel allocations on CPU 2 (softirqs, kworkers) may hold a page
# of the block too: after a refusal every cache is shrunk before the next
# of a few tries. A refusal says whose page was in the way.
for b in $blocks; do
	i=0
	until echo offline > $MEM/$b/state 2>/dev/null || [ $i -ge 9 ]; do
		for f in /sys/kernel/slab/*/shrink; do echo 1 > "$f"; done 2>/dev/null
		i=$((i + 1)); sleep 2
	done
	echo "memhp: $b $(cat $MEM/$b/state) after $((i + 1)) tries"
	if [ "$(cat $MEM/$b/state)" = offline ]; then
		pass memhp-offline-$b "$b offline"
	else
		fail memhp-offline-$b "$b still online after $((i + 1)) tries; the last page in the way:"
		dmesg | grep -B4 'page dumped because' | tail -n 5
	fi
done
check memhp-unload rmmod slab_memhp
check memhp-cpu3-online sh -c 'echo 1 > /sys/devices/system/cpu/cpu3/online'
