# What make run shows: the allocator in use, slabinfo, vmstat and meminfo
# slab counters (with SLQB: slqbinfo's totals and the slqb_* events), CPUs
# and nodes.
# needs-prog: slqbinfo
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
if [ "$(allocator)" = slqb ]; then
	section "slqbinfo -T (tools/slqbinfo)"
	slqbinfo -T 2>&1 || echo "(slqbinfo failed: status $?)"
	section "slqbinfo -S -N 10: the largest caches"
	slqbinfo -S -N 10 2>&1 || echo "(slqbinfo failed: status $?)"
	section "/proc/vmstat slqb_* events"
	grep '^slqb_' /proc/vmstat || echo "(no slqb_* lines in /proc/vmstat)"
	section "/proc/vmstat slab lines"
	grep -E 'slab' /proc/vmstat
else
	section "/proc/vmstat slab lines"
	grep -E 'slab|slqb' /proc/vmstat
fi
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
