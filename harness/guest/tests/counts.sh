# Counted, not timed: what the allocator did for a fixed workload, per 1000
# allocations. hackbench (sockets, then pipes: 4 groups, 200 loops, 512-byte
# messages) is the producer/consumer pattern of pipes, sockets and
# networking, where most frees are remote. Counts do not wobble with the
# host as times do under TCG, so they show what timing cannot.
#   SLQB: /proc/vmstat's slqb_* events (always counted).
#   SLUB: the sum of /sys/kernel/slab/*/<stat> (needs CONFIG_SLUB_STATS).
#   Both: slab_pages, from each cache's sysfs statistics (below).
# Lines: @@BENCH metric=count.WORKLOAD.EVENT value=PER_1000_ALLOCS ...
# SLQB's page_alloc, SLUB's alloc_slab: pages from the page allocator;
# SLQB's flush_remote_free_cache (a locked hand-off of a batch), SLUB's
# free_slowpath (a cmpxchg on a page that is not the CPU's).
# harness.slub_ref=WORKLOAD:N,... is SLUB's free_slowpath per 1000
# allocations for each workload, as recorded on this tree (tests.list):
# SLQB's hand-offs must stay below it (remote frees travel in batches, not
# one by one), and SLUB's own run (make check FULL=1) must be within 25%
# of it, or the reference is out of date.
# needs-prog: hackbench
. /harness/lib.sh

alloc=$(allocator)
case "$alloc" in
slqb) events="alloc free remote_free alloc_from_page page_alloc page_free flush_remote_free_cache claim_remote_free_cache flush_free_list page_free_empty" ;;
slub)
	[ -r /sys/kernel/slab/kmalloc-512/alloc_slab ] || { fail counts "SLUB without CONFIG_SLUB_STATS"; exit 0; }
	events="alloc_fastpath alloc_slowpath free_fastpath free_slowpath alloc_slab free_slab alloc_refill cpu_partial_alloc cpu_partial_free free_add_partial free_remove_partial" ;;
*) fail counts "allocator $alloc: no counts"; exit 0 ;;
esac

# slab_pages: the pages (of 4 KiB) those slabs were made of, each cache's
# new slabs (SLQB's stat_page_alloc, SLUB's alloc_slab) times 2^its order:
# SLQB's slabs are order 0 for objects up to 1 KiB where SLUB's are up to
# order 3, so its calls are more and smaller for the same memory.
slab_pages() {
	local d stat=alloc_slab
	[ "$alloc" = slub ] || stat=stat_page_alloc
	for d in /sys/kernel/slab/*; do
		# Aliases are links; the first field is the total over CPUs.
		[ -L "$d" ] || [ ! -r "$d/$stat" ] || echo "$(cut -d' ' -f1 "$d/$stat") $((1 << $(cat "$d/order")))"
	done | awk '{ s += $1 * $2 } END { print s + 0 }'	# (BusyBox awk has no ^)
}

snapshot() {	# snapshot FILE: EVENT VALUE lines
	local e
	for e in $events; do
		if [ "$alloc" = slqb ]; then
			echo "$e $(sed -n "s/^slqb_$e //p" /proc/vmstat)"
		else
			# The first field is the total over CPUs; aliases are links.
			echo "$e $(find /sys/kernel/slab/ -mindepth 1 -maxdepth 1 -type d -exec cat {}/"$e" \; 2>/dev/null |
				awk '{ s += $1 } END { print s + 0 }')"
		fi
	done > "$1"
	echo "slab_pages $(slab_pages)" >> "$1"
}

run() {	# run NAME COMMAND...
	local name=$1 allocs
	shift
	sync
	snapshot /tmp/before
	"$@" > /tmp/out 2>&1 || { fail "counts-$name" "$* failed: $(tail -n 2 /tmp/out)"; return; }
	snapshot /tmp/after
	# Allocations: SLQB's alloc; SLUB's fast and slow paths together.
	allocs=$(paste /tmp/before /tmp/after | awk '$1 == "alloc" || $1 ~ /^alloc_(fast|slow)path$/ { s += $4 - $2 } END { print s + 0 }')
	[ "$allocs" -gt 0 ] || { fail "counts-$name" "no allocations counted"; return; }
	paste /tmp/before /tmp/after | awk -v w="$name" -v n="$allocs" '
		{ printf "@@BENCH metric=count.%s.%s value=%.1f unit=per_1k_allocs better=lower\n", w, $1, ($4 - $2) * 1000 / n }'
	echo "@@BENCH metric=count.$name.allocs value=$allocs unit=allocs better=lower"
	pass "counts-$name" "$allocs allocations"
	judge "$name" "$allocs"
}

judge() {	# judge WORKLOAD ALLOCS: against harness.slub_ref
	local name=$1 allocs=$2 ref event
	ref=$(cmdline_arg harness.slub_ref | tr ',' '\n' | sed -n "s/^$name://p")
	[ -n "$ref" ] || return 0
	if [ "$alloc" = slqb ]; then event=flush_remote_free_cache; else event=free_slowpath; fi
	paste /tmp/before /tmp/after | awk -v e="$event" -v n="$allocs" -v r="$ref" -v a="$alloc" '
		$1 == e { v = ($4 - $2) * 1000 / n }
		END {
			if (a == "slqb") { ok = v < r; what = "SLQB hand-offs below SLUB free_slowpath" }
			else { ok = v >= 0.75 * r && v <= 1.25 * r; what = "SLUB free_slowpath within 25% of its reference" }
			printf "%s %s: %.1f per 1k allocations, reference %s\n", ok ? "ok" : "not-ok", what, v, r
		}' > /tmp/judged
	if grep -q '^ok' /tmp/judged; then pass "counts-$name-vs-slub" "$(cut -d' ' -f2- /tmp/judged)"
	else fail "counts-$name-vs-slub" "$(cut -d' ' -f2- /tmp/judged)"; fi
}

run hackbench.socket hackbench -g 4 -f 10 -l 200 -s 512
run hackbench.pipe hackbench -p -g 4 -f 10 -l 200 -s 512
exit 0
