# Order fallback: a cache whose preferred order is above 0 (task_struct:
# order 3, 11 objects of 2816 B on the slqb kernel, once busy, as it was at
# boot in the runs seen, and is made here if not) must still grow when
# pages of that order cannot be had. fail_page_alloc (CONFIG_FAIL_PAGE_ALLOC)
# refuses every page of order 3 or more asked for by one task, reclaim or
# not (its kernel stacks, order 2, still come); that task then forks
# children that stay alive, so task_struct needs new slabs. Each fork must
# succeed, on pages of the cache's minimum order, and the injection must
# really have refused some (its `times` counts down). With slqb_min_order=3
# on the command line both orders are 3, no fallback is left, and this
# fails (selftest-order-fallback): that is what it guards.
# harness.forks=N: the children (default 64).
. /harness/lib.sh

N=$(cmdline_arg harness.forks) || N=64
F=/sys/kernel/debug/fail_page_alloc
grep -q ' /sys/kernel/debug ' /proc/mounts || mount -t debugfs none /sys/kernel/debug
if [ ! -d $F ]; then
	fail order-fallback "no $F: the kernel needs CONFIG_FAIL_PAGE_ALLOC"
	exit 0
fi
TIMES=1000000
echo Y > $F/task-filter
echo N > $F/ignore-gfp-wait
echo N > $F/ignore-gfp-highmem
echo 3 > $F/min-order
echo 0 > $F/verbose
echo 1 > $F/interval
echo 0 > $F/probability
echo $TIMES > $F/times

mkfifo /tmp/hold
# spawn FAIL: N children that each say they live (/tmp/alive) and block
# reading the FIFO (no exec, nothing more to allocate) until fd 3, its
# writer, closes; their errors in /tmp/forks. FAIL=1: the spawning task's
# page allocations go through fail_page_alloc. The FIFO has a writer (fd
# 3, read-write: its open does not wait), so the children's do not wait.
spawn() {
	: > /tmp/alive
	exec 3<> /tmp/hold
	sh -c '
		[ "$1" = 1 ] && echo 1 > /proc/self/make-it-fail
		i=0
		while [ $i -lt "$2" ]; do
			{ echo $i >> /tmp/alive; read -r x < /tmp/hold; } 3>&- &
			i=$((i + 1))
		done
	' sh "$1" "$N" 3>&- > /tmp/forks 2>&1
}
# pages a slab task_struct makes now (SLQB: its minimum order until busy).
task_pages() { awk '$1 == "task_struct" { print $6 }' /proc/slabinfo; }

# A cache makes slabs of its preferred order only once busy: if it is not
# yet, N children first (no injection), else nothing here would fall back.
grep -E '^task_struct ' /proc/slabinfo
if [ "$(task_pages)" -lt 8 ]; then
	spawn 0
	exec 3>&-
	sleep 1
	grep -E '^task_struct ' /proc/slabinfo
fi
if [ "$(task_pages)" -lt 8 ]; then
	fail order-fallback "task_struct makes slabs of $(task_pages) pages, not of order 3: nothing to fall back from"
	exit 0
fi

echo 100 > $F/probability
spawn 1
echo 0 > $F/probability
refused=$((TIMES - $(cat $F/times)))
sleep 2
forked=$(wc -l < /tmp/alive)
grep -E '^task_struct ' /proc/slabinfo
cat /tmp/forks
exec 3>&-	# the children read EOF and exit
sleep 1

echo "fail_page_alloc refused $refused pages of order >= 3; $forked of $N children ran"
check order-fallback-injected [ "$refused" -gt 0 ]
if [ -s /tmp/forks ] || [ "$forked" != "$N" ]; then
	fail order-fallback "only $forked of $N forks succeeded: $(head -n 1 /tmp/forks)"
else
	pass order-fallback "$N forks succeeded with order >= 3 refused ($refused refusals)"
fi
