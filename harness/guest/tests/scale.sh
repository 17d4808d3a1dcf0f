# make scale (harness/bench/scale.sh boots this on each allocator and
# topology): what the allocator holds as the machine grows, and what it does
# for a fixed cross-CPU workload, counted rather than timed.
# Memory, at four points: after boot (settled 3 s), right after a fixed slab
# workload on every CPU (slab_scale pattern=work: 7 kmalloc sizes x nobj per
# CPU, half freed by the neighbour CPU), after a trim interval (3 s; SLQB
# trims every 2 s), after drop_caches and every cache's shrink:
#   mem.PHASE.slab, .percpu, .sum (Slab: + Percpu:, kB), .sunreclaim (kB),
#   .cpu_slabs (slabs held by CPUs: SLUB's cpu_slabs, SLQB's C<n>= of slabs),
#   .queued (SLQB: objects on per-CPU freelists, rlists and remote_free
#   queues), .freelist (SLQB: on freelists), .freelist_bound (SLQB: the sum
#   over caches of hiwater x CPUs, what the freelists may hold).
# Queue behaviour (slab_scale pattern=fanout: one CPU's objects freed by all
# others; pattern=fanin: one CPU frees the objects of all others, the
# one-consumer/many-producers pattern), per 1000 objects of the dedicated
# cache slab_scale, from its statistics (SLQB: CONFIG_SLQB_STATS stat_*;
# SLUB: CONFIG_SLUB_STATS):
#   count.P.handoff     SLQB flush_remote_free_cache (a locked splice of a
#                       batch); SLUB free_slowpath (a cmpxchg on another
#                       CPU's page, one per remote free)
#   count.P.claim       SLQB claim_remote_free_cache; SLUB alloc_refill (the
#                       CPU slab's freelist taken back from the page)
#   count.P.kick_ipi    function-call IPIs (/proc/interrupts CAL) during the
#                       run: an upper bound on SLQB's kicks of idle owners
#                       (irq_work on another CPU), which have no statistic
#   count.P.page_alloc, .page_free   slabs from and to the page allocator
#   count.P.raw.EVENT   every statistic of the cache
#   work_ms.PHASE       the slowest CPU's time in each phase of the workload
#                       (alloc, barrier, own_free, next_free; ms, TCG time)
# Lines: @@BENCH metric=... value=... unit=... better=lower (as bench.sh).
# Kernel arguments: harness.nobj=N (work: objects per size and CPU, 2000),
# harness.qobj=N (fanout/fanin: objects, 20000).
# needs-module: harness/modules/slab_scale
# expect-taint: O
# timeout: 900
. /harness/lib.sh

alloc=$(allocator)
nobj=$(cmdline_arg harness.nobj) || nobj=2000
qobj=$(cmdline_arg harness.qobj) || qobj=20000
ko=/lib/modules/extra/slab_scale.ko
ncpus=$(grep -c '^processor' /proc/cpuinfo)
failed=0

out() { echo "@@BENCH metric=$1 value=$2 unit=$3 better=lower"; }
kb() { awk -v k="$1:" '$1 == k { print $2 }' /proc/meminfo; }
# cache_sums FILE...: for each FILE, "FILE SUM", the sum of its first
# field over every cache's folder (aliases are links: skipped), and
# "slabs_cpu SUM", of the C<cpu>= fields of "slabs" (SLQB's: the slabs CPUs
# own). One awk reads every file: a cat per cache and file, six passes a
# phase, took 460 s a phase at 64 vCPUs under TCG.
cache_sums() {
	find /sys/kernel/slab/ -mindepth 1 -maxdepth 1 -type d | awk -v files="$*" '
		BEGIN { nf = split(files, fl, " ") }
		{
			for (i = 1; i <= nf; i++) {
				f = $0 "/" fl[i]
				if ((getline line < f) > 0) {
					m = split(line, w, " ")
					s[fl[i]] += w[1]
					for (j = 2; fl[i] == "slabs" && j <= m; j++)
						if (sub(/^C[0-9]+=/, "", w[j]))
							c += w[j]
				}
				close(f)
			}
		}
		END { for (i = 1; i <= nf; i++) print fl[i], s[fl[i]] + 0; print "slabs_cpu", c + 0 }'
}
mem() {	# mem PHASE
	local slab percpu sums
	slab=$(kb Slab) percpu=$(kb Percpu)
	out "mem.$1.slab" "$slab" kB
	out "mem.$1.percpu" "$percpu" kB
	out "mem.$1.sum" $((slab + percpu)) kB
	out "mem.$1.sunreclaim" "$(kb SUnreclaim)" kB
	case "$alloc" in
	slub)
		sums=$(cache_sums cpu_slabs)
		out "mem.$1.cpu_slabs" "$(sum_of cpu_slabs)" slabs ;;
	slqb)
		sums=$(cache_sums slabs cpu_freelist cpu_rlist remote_free hiwater)
		out "mem.$1.cpu_slabs" "$(sum_of slabs_cpu)" slabs
		out "mem.$1.queued" $(($(sum_of cpu_freelist) + $(sum_of cpu_rlist) + $(sum_of remote_free))) objects
		out "mem.$1.freelist" "$(sum_of cpu_freelist)" objects
		out "mem.$1.freelist_bound" $(($(sum_of hiwater) * ncpus)) objects ;;
	esac
}
# sum_of NAME: NAME's sum in the $sums that mem() just read.
sum_of() { echo "$sums" | awk -v k="$1" '$1 == k { print $2 }'; }
ipis() { awk '$1 == "CAL:" { for (i = 2; i <= NF && $i ~ /^[0-9]+$/; i++) s += $i } END { print s + 0 }' /proc/interrupts; }

sleep 3
mem boot

if insmod $ko pattern=work nobj="$nobj"; then
	rmmod slab_scale
	# The slowest CPU's time in each phase of the workload (ms).
	dmesg | sed -n 's/.*@@SCALE-PHASES //p' | tail -n 1 | tr ' ' '\n' |
		sed -n 's/^\([a-z_]*\)_ms=\([0-9]*\)$/\1 \2/p' |
		while read -r ph ms; do out "work_ms.$ph" "$ms" ms; done
	mem after_work
	sleep 3
	mem after_trim
else
	fail scale-work "insmod slab_scale pattern=work failed"
	failed=1
fi
settle
mem after_shrink

case "$alloc" in
slqb) pfx=stat_ map="handoff=flush_remote_free_cache claim=claim_remote_free_cache page_alloc=page_alloc page_free=page_free" ;;
slub) pfx='' map="handoff=free_slowpath claim=alloc_refill page_alloc=alloc_slab page_free=free_slab" ;;
*) pfx=none map= ;;
esac
raw() {	# the cache's statistics files
	if [ "$alloc" = slqb ]; then (cd "$1" && ls -d stat_*)
	else echo alloc_fastpath alloc_slowpath free_fastpath free_slowpath free_frozen free_add_partial \
		free_remove_partial alloc_from_partial alloc_slab alloc_refill free_slab cpuslab_flush \
		deactivate_remote_frees cmpxchg_double_fail cmpxchg_double_cpu_fail cpu_partial_alloc \
		cpu_partial_free cpu_partial_drain
	fi
}
for p in fanout fanin; do
	[ "$pfx" != none ] || { echo "@@BENCH-SKIP count.$p: no statistics on $alloc"; break; }
	i0=$(ipis)
	if ! insmod $ko pattern=$p nobj="$qobj"; then
		fail "scale-$p" "insmod slab_scale pattern=$p failed"
		failed=1
		continue
	fi
	i1=$(ipis)
	d=/sys/kernel/slab/slab_scale
	n=$(dmesg | sed -n "s/.*@@SCALE-DONE pattern=$p .*objects=\([0-9]*\).*/\1/p" | tail -n 1)
	if [ ! -r "$d/${pfx}alloc_slab" ] && [ ! -r "$d/${pfx}page_alloc" ]; then
		fail "scale-$p" "no statistics in $d (CONFIG_SLUB_STATS / CONFIG_SLQB_STATS off?)"
		failed=1
	elif [ "${n:-0}" -gt 0 ]; then
		for e in $(raw $d); do
			out "count.$p.raw.${e#"$pfx"}" "$(awk -v n="$n" '{ printf "%.1f", $1 * 1000 / n }' "$d/$e")" per_1k_objs
		done
		for m in $map; do
			out "count.$p.${m%%=*}" "$(awk -v n="$n" '{ printf "%.1f", $1 * 1000 / n }' "$d/$pfx${m#*=}")" per_1k_objs
		done
		out "count.$p.kick_ipi" "$(awk -v n="$n" -v d=$((i1 - i0)) 'BEGIN { printf "%.1f", d * 1000 / n }')" per_1k_objs
		out "count.$p.objects" "$n" objects
	else
		fail "scale-$p" "no @@SCALE-DONE line"
		failed=1
	fi
	rmmod slab_scale
done
[ "$failed" = 1 ] || pass scale "$alloc on $ncpus CPUs"
exit 0
