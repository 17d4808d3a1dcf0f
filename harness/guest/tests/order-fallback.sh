# Order fallback: a cache whose preferred order is above 0 (task_struct:
# order 3, 11 objects of 2816 B on the slqb kernel) must still grow when
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
echo 100 > $F/probability
echo $TIMES > $F/times

grep -E '^task_struct ' /proc/slabinfo
mkfifo /tmp/hold
: > /tmp/alive
# The FIFO has a writer (fd 3, read-write: its open does not wait), so the
# children's opens do not wait either; each says it lives and blocks
# reading (no exec, nothing more to allocate) until fd 3 closes.
exec 3<> /tmp/hold
sh -c '
	echo 1 > /proc/self/make-it-fail
	i=0
	while [ $i -lt '"$N"' ]; do
		{ echo $i >> /tmp/alive; read -r x < /tmp/hold; } 3>&- &
		i=$((i + 1))
	done
' 3>&- > /tmp/forks 2>&1
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
