# Counted, not timed: what the allocator did for a fixed workload, per 1000
# allocations. hackbench (sockets, then pipes: 4 groups, 200 loops, 512-byte
# messages) is the producer/consumer pattern of pipes, sockets and
# networking, where most frees are remote. The counting is guest/lib.sh's
# (count_init, count_run).
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

count_init 2> /tmp/count-why || { fail counts "$(cat /tmp/count-why)"; exit 0; }

run() {	# run NAME COMMAND...
	local name=$1
	count_run "$@" || return
	pass "counts-$name" "$COUNT_ALLOCS allocations"
	judge "$name" "$COUNT_ALLOCS"
}

judge() {	# judge WORKLOAD ALLOCS: against harness.slub_ref
	local name=$1 allocs=$2 ref event
	ref=$(cmdline_arg harness.slub_ref | tr ',' '\n' | sed -n "s/^$name://p")
	[ -n "$ref" ] || return 0
	if [ "$COUNT_ALLOC" = slqb ]; then event=flush_remote_free_cache; else event=free_slowpath; fi
	awk -v e="$event" -v n="$allocs" -v r="$ref" -v a="$COUNT_ALLOC" '
		$1 == e { v = $2 * 1000 / n }
		END {
			if (a == "slqb") { ok = v < r; what = "SLQB hand-offs below SLUB free_slowpath" }
			else { ok = v >= 0.75 * r && v <= 1.25 * r; what = "SLUB free_slowpath within 25% of its reference" }
			printf "%s %s: %.1f per 1k allocations, reference %s\n", ok ? "ok" : "not-ok", what, v, r
		}' /tmp/count-delta > /tmp/judged
	if grep -q '^ok' /tmp/judged; then pass "counts-$name-vs-slub" "$(cut -d' ' -f2- /tmp/judged)"
	else fail "counts-$name-vs-slub" "$(cut -d' ' -f2- /tmp/judged)"; fi
}

run hackbench.socket hackbench -g 4 -f 10 -l 200 -s 512
run hackbench.pipe hackbench -p -g 4 -f 10 -l 200 -s 512
exit 0
