# What make run shows: the allocator in use, slabinfo, vmstat and meminfo
# slab counters, CPUs and nodes.
. /harness/lib.sh

section() { echo; echo "===== $* ====="; }
section "kernel"
uname -a
cat /proc/cmdline
section "allocator: $(allocator) (the kernel was built with $(cmdline_arg harness.alloc || echo '?'))"
dmesg | grep -iE 'slqb|slub|slab' | grep -v 'ommand line' | head -10 || true
if [ -d /sys/kernel/slab ]; then echo "/sys/kernel/slab: $(ls /sys/kernel/slab | wc -l) entries"
else echo "/sys/kernel/slab: absent"; fi
echo "/proc/slabinfo: $(head -1 /proc/slabinfo 2>/dev/null || echo absent), $(($(wc -l < /proc/slabinfo) - 2)) caches"
section "/proc/slabinfo (head -20)"
head -20 /proc/slabinfo 2>/dev/null || echo "(no /proc/slabinfo)"
section "/proc/vmstat slab lines"
grep -E 'slab|slqb' /proc/vmstat
section "/proc/meminfo Slab lines"
grep -E 'Slab|SReclaimable|SUnreclaim' /proc/meminfo
section "CPUs and nodes"
echo "$(grep -c ^processor /proc/cpuinfo) CPUs online: $(cat /sys/devices/system/cpu/online)"
for n in /sys/devices/system/node/node[0-9]*; do
	[ -d "$n" ] || continue
	echo "node ${n##*node}: cpus $(cat "$n/cpulist"), $(grep MemTotal "$n/meminfo" | sed 's/.*MemTotal: *//')"
done
echo "@@TOPO $(topology)"
pass show "allocator=$(allocator) $(topology)"
