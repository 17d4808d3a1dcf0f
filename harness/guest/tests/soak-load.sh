# The soak's load and its checks, in the guest (issue 8; booted by make
# soak, harness/check/soak.sh, and by tests.list's *-soak-* tests), for the
# debug kernels (lockdep, KASAN, KFENCE, kmemleak, DEBUG_VM,
# DEBUG_OBJECTS_FREE, FAILSLAB). For harness.secs=SECS (default
# 60): stress-ng's slab stressors, hackbench, loopback TCP (BusyBox httpd and
# wget) and tmpfs file churn on every CPU, while CPUs go offline and online,
# drop_caches runs, every cache is shrunk (/sys/kernel/slab/*/shrink, when
# the allocator has it) and failslab fails the stressors' slab allocations at
# a low probability. The last third adds memory pressure: a hog touching
# most of the free memory, with an OOM score of 1000 (if the OOM killer
# fires, it must pick the hog). After: a kmemleak scan, every stressor ended
# without a signal, and Slab: after drop_caches and shrink is held to
# harness.slabpct= percent (default 10) above where it started.
# Options on the kernel command line: harness.secs=N, harness.slabpct=N,
# harness.failslab=PROBABILITY,INTERVAL (default 1,10: 0.1%; 0 turns it off),
# harness.hog=0 (no memory-pressure phase), harness.shrink=0 (no shrinking
# during the run), harness.grace=SECS (how late stress-ng may end, 300),
# harness.lkdtm=TYPE (provoke an LKDTM crash type in the middle of the soak,
# to prove the soak fails), harness.soak_break=WHAT[,WHAT...] (break, in the
# middle of the soak, what an assertion below watches, to prove that it
# fails: own-fail makes slab_soak's kthreads failslab targets, stress-ng
# kills a stressor with SIGSEGV (as soon as there is one), hackbench gives its worker a limit of 8
# open files, http stops httpd, kmsg kills the /dev/kmsg reader).
# Beside them, the module slab_soak (harness/modules/slab_soak) churns caches of
# its own, handing objects from thread to thread, so across CPUs and nodes;
# at the end every object must be back: its caches, shrunk, hold no object
# and no slab in /proc/slabinfo, no object was found overwritten, and no
# allocation failed (its kthreads are not failslab targets, and GFP_KERNEL
# allocations of at most 1 KiB do not fail under pressure: a failure is the
# allocator's).
# Asserted of the workers: stress-ng's exit status is 0 (3, a stressor that
# could not start for want of memory, and 2, stressors that failed on an
# ENOMEM of their own, pass only when failslab injected failures), no stressor died on a signal, no hackbench run and no loopback
# HTTP fetch failed; and the /dev/kmsg reader that counts the stack dumps
# was still alive at the end (else what it missed went uncounted).
# One machine-readable line sums it up:
#   @@SOAK alloc= topo= cpus= nodes= secs= ops= stressng_ops= hackbench=
#   http= churn= hotplug= drops= shrinks= failslab= oom_kills= reports=
#   own_allocs= own_cross_cpu= slab_before= slab_after= slab_pct=
# needs-prog: stress-ng hackbench
# needs-module: harness/modules/slab_soak
# expect-taint: O
# timeout: 1200
# boot-timeout: 180
# The memory-pressure phase may make the OOM killer print its report, with a
# stack dump: allowed here; the test itself fails on a 'Call Trace:' that is
# not part of an OOM report (every other report has a headline the harness
# fails on: BUG:, WARNING:, INFO:, unreferenced object, ...).
# allow-log: Call Trace:
# failslab fails the slab allocations of its targets' page faults too: a
# stack that cannot grow (anon_vma_prepare() in expand_stack()) makes the
# kernel send SIGSEGV, which it logs as a user segfault (seen once in a
# 10-minute soak on smp4, at the stack pointer, in BusyBox run by stress-ng's
# exec stressor). What the soak checks of the stressors is that none died of
# a signal stress-ng did not expect (below). The dynamic loader of a
# stress-ng that a failslab target exec'd may fault so too (seen once on
# numa2: a read at 0 in ld-linux-x86-64.so.2 at 148 s, stress-ng's exit
# status 0, no report from KASAN or the soak's own caches).
# allow-log: segfault at [0-9a-f]+ ip [0-9a-f]+ sp [0-9a-f]+ error [0-9a-f]+ in (busybox|stress-ng|ld-linux-x86-64\.so\.2)
# Another CPU's console line (CPU hotplug's) may cut that line before its
# " in ...": then the task's name must be stress-ng's and the line end
# there (seen once on numa2, a cold make check: "stress-ng[362]: segfault
# at ee12cca90 ... error 4", then "smpboot: CPU 1 is now offline").
# allow-log: stress-ng\[[0-9]+\]: segfault at [0-9a-f]+ ip [0-9a-f]+ sp [0-9a-f]+ error [0-9a-f]+$
. /harness/lib.sh

secs=$(cmdline_arg harness.secs) || secs=60
slabpct=$(cmdline_arg harness.slabpct) || slabpct=10
fs=$(cmdline_arg harness.failslab) || fs=1,10
hog=$(cmdline_arg harness.hog) || hog=1
shrink=$(cmdline_arg harness.shrink) || shrink=1
# How late stress-ng may end (its own end, taken when it exits; the loop
# below notices only between rounds of hotplug, which took 40-300 s under
# KASAN and lockdep on a loaded 2-core TCG host).
grace=$(cmdline_arg harness.grace) || grace=300
lkdtm=$(cmdline_arg harness.lkdtm) || lkdtm=
brk=$(cmdline_arg harness.soak_break) || brk=
brk=" $(echo "$brk" | tr ',' ' ') "
alloc=$(cmdline_arg harness.alloc) || alloc=$(allocator)
topo=$(cmdline_arg harness.topology) || topo=unknown	# qemu.sh names it
ncpu=$(grep -c '^processor' /proc/cpuinfo)
nodes=$(ls -d /sys/devices/system/node/node[0-9]* 2>/dev/null | wc -l)
[ "$nodes" -gt 0 ] || nodes=1
FI=/sys/kernel/debug/failslab
W=/tmp/soak
mkdir -p $W
now() { cut -d. -f1 /proc/uptime; }
nprocs() { set -- /proc/[0-9]*; echo $#; }
avail_kb() { meminfo_kb MemAvailable; }

# The kernel's messages from here on, kept apart from the console: the ring
# buffer may wrap during a long soak.
cat /dev/kmsg > $W/kmsg 2>/dev/null &
kmsg_pid=$!
ip link set lo up 2>/dev/null || ifconfig lo 127.0.0.1 up

# --- the workers ---
churn_round() {	# tmpfs files, directory walks, pipes, fork/exec
	local d=$1 i=$2 f
	find /sys/devices/system /proc/sys > /dev/null 2>&1
	mkdir -p "$d/a/b/c"
	for f in 1 2 3 4 5 6 7 8; do echo "$i $f" > "$d/a/b/c/f$f"; ln -s "f$f" "$d/a/b/c/l$f"; done
	dd if=/dev/zero bs=4k count=64 2>/dev/null | cat > "$d/a/blob"
	mv "$d/a" "$d/z" && rm -rf "$d/z"
	sh -c 'cat /proc/self/status' > /dev/null
}
# Each round runs in a child that failslab may fail: BusyBox sh exits when
# it cannot fork, so a worker that was itself a target died at its first
# injected failure (10-minute soaks did no churn at all). The round counts
# when it gets through; "$i $failed" go to the .done file.
churn() {
	local i=0 failed=0 d=$W/churn.$1
	mkdir -p "$d"
	while [ ! -e $W/stop ]; do
		if (
			[ ! -d $FI ] || echo 1 > /proc/self/make-it-fail
			churn_round "$d" "$i"
		) 2>/dev/null; then
			i=$((i + 1))
		else
			failed=$((failed + 1)); rm -rf "$d/a" "$d/z"
		fi
	done
	echo "$i $failed" > "$d.done"
}
bench() {	# hackbench rounds, pipes and sockets in turn
	local ok=0 bad=0 sig=0 rc pipe=
	while [ ! -e $W/stop ]; do
		rc=0
		# harness.soak_break=hackbench: 8 open files, too few for it
		if [ -e $W/break-hackbench ]; then
			(ulimit -n 8; exec hackbench $pipe -g 2 -f 8 -l 50 -s 256) > $W/hb.last 2>&1 || rc=$?
		else
			hackbench $pipe -g 2 -f 8 -l 50 -s 256 > $W/hb.last 2>&1 || rc=$?
		fi
		if [ "$rc" = 0 ]; then ok=$((ok + 1))
		elif [ "$rc" -gt 128 ]; then sig=$((sig + 1)); echo "soak: hackbench ended on signal $((rc - 128))"
		else
			bad=$((bad + 1))
			[ "$bad" -gt 3 ] || echo "soak: hackbench $pipe failed (status $rc): $(tail -2 $W/hb.last | tr '\n' ' ')"
		fi
		if [ -z "$pipe" ]; then pipe=--pipe; else pipe=; fi
	done
	echo "$ok $bad $sig" > $W/bench.done
}
http() {	# loopback TCP: BusyBox httpd forks a child per connection
	local i=0 bad=0
	while [ ! -e $W/stop ]; do
		if wget -q -O /dev/null http://127.0.0.1:8080/blob 2> $W/http.$1.err; then i=$((i + 1))
		else
			bad=$((bad + 1))
			[ "$bad" -gt 3 ] || echo "soak: http fetch failed: $(tail -1 $W/http.$1.err)"
		fi
	done
	echo "$i $bad" > "$W/http.$1.done"
}

# --- failslab: a low probability, only for the stressors (task-filter) ---
fs_times=1000000000
# The task filter goes on first and the probability last: until the filter
# is on, failslab fails anyone's allocations, the soak's own kthreads' too
# (allocating since insmod): the probability set first once failed 8 of
# slab_soak's in CI on numa4, and 22-24 per cache with a 2 s pause put
# before the filter.
failslab_on() {
	[ "$fs" != 0 ] && [ -d $FI ] || return 0
	echo Y > $FI/task-filter
	[ "$(cat $FI/task-filter)" = Y ] || { echo "soak: failslab's task-filter did not turn on"; exit 1; }
	echo "${fs#*,}" > $FI/interval
	echo $fs_times > $FI/times
	echo 0 > $FI/space
	echo 0 > $FI/verbose
	echo N > $FI/ignore-gfp-wait
	echo "${fs%,*}" > $FI/probability
}
failslab_off() {
	[ -d $FI ] || return 0
	echo 0 > $FI/probability
	cat $FI/times
}

# Warm up: every worker and stressor once, and a CPU offline/online cycle,
# so that what the first use creates for good (lazily made caches, sysfs
# nodes, hash tables, per-CPU data) exists before the baseline.
mkdir -p $W/www && dd if=/dev/zero of=$W/www/blob bs=1k count=16 2>/dev/null
grep -q '^nobody:' /etc/passwd || echo 'nobody:x:65534:65534:nobody:/tmp:/bin/sh' >> /etc/passwd
grep -q '^nogroup:' /etc/group || echo 'nogroup:x:65534:' >> /etc/group
mkdir -p $W/sng && chmod 777 $W/sng
stressors="sock sockpair udp epoll fork clone exec pipe dentry dir open inode-flags eventfd sigfd timerfd msg mq"	# sigfd: signalfd
sargs=
for s in $stressors; do sargs="$sargs --$s 1"; done
sng() {	# sng SECS ARGS...: stress-ng as an unprivileged user (its exec stressor refuses root)
	local t=$1; shift
	(cd $W/sng && exec timeout -s INT $((t + grace)) su -s /bin/sh -c "exec stress-ng $* -t ${t}s --temp-path $W/sng" nobody)
}
# shellcheck disable=SC2086 # sargs: words
sng 3 $sargs --clone-max 16 > $W/warmup.out 2>&1 || { echo "soak: the warm-up stress-ng failed:"; sed 's/WARNING:/warning:/' $W/warmup.out; }
httpd -f -p 127.0.0.1:8080 -h $W/www & sleep 1
wget -q -O /dev/null http://127.0.0.1:8080/blob
kill $! 2>/dev/null; wait $! 2>/dev/null
hackbench -g 1 -f 2 -l 10 > /dev/null 2>&1; hackbench --pipe -g 1 -f 2 -l 10 > /dev/null 2>&1
for c in /sys/devices/system/cpu/cpu[1-9]*; do
	[ -w "$c/online" ] && echo 0 > "$c/online" && echo 1 > "$c/online"
done
find /sys/devices/system /proc/sys > /dev/null 2>&1
rm -rf $W/sng/* $W/warmup.out
settle
before=$(slab_kb)
echo "soak: $alloc on $topo, $ncpu CPUs, $nodes nodes, ${secs}s; Slab before: $before kB"
SOAKMOD=/lib/modules/extra/slab_soak.ko
check own-caches-load insmod $SOAKMOD

# stress-ng's slab stressors, one instance each (under TCG and KASAN, 17
# of them and their children are plenty for 4 CPUs), with their process
# counts kept modest (clone keeps up to 8192 threads alive by default).
sargs="$sargs --clone-max 64 --fork-max 8 --dentries 512"
# kmemleak's scan thread stays off while the soak runs (kmemleak scans once
# the soak is over, below). In the stall diagnosed (README, Soak) all four
# vCPUs were queued on kmemleak's lock, SLUB's debug kernel alike; the scan
# takes that lock for each pointer it looks up, and its first automatic run
# (a minute after boot) falls inside the soak.
[ ! -e /sys/kernel/debug/kmemleak ] || echo scan=off > /sys/kernel/debug/kmemleak
failslab_on
start=$(now)
# shellcheck disable=SC2086 # sargs: words
(
	rc=0
	sng "$secs" $sargs --metrics-brief --yaml $W/sng/out.yaml > $W/sng.out 2>&1 || rc=$?
	now > $W/sng.end
	exit $rc
) &
sng_pid=$!
(
	for w in $(seq 1 $(( (ncpu + 1) / 2 ))); do churn "$w" & done
	wait
) &
workers=$!
bench &
workers="$workers $!"
httpd -f -p 127.0.0.1:8080 -h $W/www &
httpd_pid=$!
sleep 1
http 1 & workers="$workers $!"

# failslab's targets among stress-ng: its workers (and what they fork), but
# for the dir and dentry stressors (comm is cut to 15 characters:
# stress-ng-dentr). These two lose track of their own directories when a
# failure is injected, and report what follows as failures of their own
# without the ENOMEM (mkdir and open of entries in a directory of another
# name: ENOENT; rmdir: ENOTEMPTY), which the stress-ng-status check below
# cannot tell from a real error: seen on up, dir, 2026-12-08. They still
# load the dentry and inode caches. Not the stress-ng that runs them (from
# the start, failslab failed the dynamic loader's mmap of stress-ng
# itself). Workers forked later inherit it.
# No command substitution per process: under TCG and KASAN a fork for each
# of hundreds of processes made a round of this loop take seconds.
make_fail() {	# the workers are named stress-ng-STRESSOR (the hog: stress-ng-vm)
	local p comm
	[ -d $FI ] || return 0
	for p in /proc/[0-9]*; do
		comm=
		read -r comm 2>/dev/null < "$p/comm"
		case "$comm" in
		stress-ng-vm | stress-ng-dir | stress-ng-dentr*) ;;
		stress-ng-*) echo 1 > "$p/make-it-fail" 2>/dev/null ;;
		esac
	done
}

# The CPU offline/online loop, drop_caches and shrink, until stress-ng ends;
# the memory hog for the last third, LKDTM in the middle if asked.
# The hog runs until the soak's end, and at least hog_min seconds: with
# rounds of hotplug slower than the soak is long, it could start late, or
# (with stress-ng already done) never; the other workers go on meanwhile.
hog_min=20
start_hog() {
	local kb left=$((start + secs - $(now)))
	[ "$left" -ge "$hog_min" ] || left=$hog_min
	kb=$(( $(avail_kb) - 48 * 1024 ))
	[ "$kb" -gt 65536 ] || kb=65536
	echo "soak: memory pressure: a hog of $((kb / 1024)) MiB (MemAvailable $(( $(avail_kb) / 1024 )) MiB) for ${left}s"
	(
		echo 1000 > /proc/self/oom_score_adj
		exec stress-ng --vm 1 --vm-bytes "${kb}k" --vm-keep -t "$((left + 2))s"
	) > $W/hog.out 2>&1 &
	hog_pid=$!
}
# harness.soak_break=...: break what the assertions watch (see the top).
soak_break() {
	local p comm
	echo "soak: breaking on purpose:$brk"
	for p in /proc/[0-9]*; do
		comm=
		read -r comm 2>/dev/null < "$p/comm"
		case "$brk,$comm" in
		*" own-fail "*,slab_soak/*) echo 1 > "$p/make-it-fail" ;;
		esac
	done
	case "$brk" in *" hackbench "*) touch $W/break-hackbench ;; esac
	case "$brk" in *" http "*) kill $httpd_pid ;; esac
	case "$brk" in *" kmsg "*) kill $kmsg_pid ;; esac
}
# harness.soak_break=stress-ng, at once: stressors can end long before
# half-way. A stressor killed so is not reported as a signal: stress-ng
# exits 2 (its bogo-ops counter is found corrupted), on the host too.
break_stressng() {
	local p comm i=0
	while [ $i -lt 60 ]; do
		for p in /proc/[0-9]*; do
			comm=
			read -r comm 2>/dev/null < "$p/comm"
			case "$comm" in
			stress-ng-vm) ;;
			stress-ng-*) echo "soak: breaking on purpose: SIGSEGV to $comm"; kill -SEGV "${p#/proc/}"; return ;;
			esac
		done
		sleep 1; i=$((i + 1))
	done
}
case "$brk" in *" stress-ng "*) break_stressng ;; esac
cycles=0 drops=0 drop_max=0 shrinks=0 hog_pid='' round=0
hog_at=$((start + secs - secs / 3))
lkdtm_at=$((start + secs / 2))
while kill -0 $sng_pid 2>/dev/null; do
	for c in /sys/devices/system/cpu/cpu[1-9]*; do
		[ -w "$c/online" ] || continue
		echo 0 > "$c/online" && echo 1 > "$c/online" && cycles=$((cycles + 1))
	done
	round=$((round + 1))
	[ "$round" -gt 5 ] || make_fail	# the workers exist after a few seconds
	[ $((round % 10)) != 0 ] || echo "soak: $(( $(now) - start ))s: $cycles hotplug cycles, $drops drop_caches, $shrinks shrinks, $(nprocs) processes, MemAvailable $(( $(avail_kb) / 1024 )) MiB, Slab $(slab_kb) kB"
	[ "$round" -gt 3 ] || echo "soak: round $round: hotplug done, $(( $(now) - start ))s"
	case $((round % 3)) in
	0)	# how long reclaim of everything takes under the load: the
		# shrinker's cost (a shrinker that drained a cache per IPI
		# round once made one take minutes)
		t=$(now); echo 3 > /proc/sys/vm/drop_caches; drops=$((drops + 1))
		t=$(( $(now) - t )); [ "$t" -le "$drop_max" ] || drop_max=$t ;;
	1) [ "$shrink" = 0 ] || shrinks=$((shrinks + $(shrink_all))) ;;
	esac
	[ "$round" -gt 3 ] || echo "soak: round $round: drop/shrink done, $(( $(now) - start ))s"
	t=$(now)
	if [ "$hog" != 0 ] && [ -z "$hog_pid" ] && [ "$t" -ge "$hog_at" ]; then
		start_hog
	fi
	if [ "$brk" != "  " ] && [ "$t" -ge "$lkdtm_at" ]; then
		soak_break; brk="  "
	fi
	if [ -n "$lkdtm" ] && [ "$t" -ge "$lkdtm_at" ]; then
		echo "soak: lkdtm: provoking $lkdtm"
		modprobe lkdtm && echo "$lkdtm" > /sys/kernel/debug/provoke-crash/DIRECT
		lkdtm=
	fi
	# stress-ng times itself (alarm()); if it is late, stop it (the
	# verdict is taken below, from when it ended).
	if [ "$t" -gt $((start + secs + grace)) ] && [ -z "${late:-}" ]; then
		echo "soak: stress-ng still running ${grace}s after its time: interrupting it"
		killall -INT stress-ng; late=1
	fi
	[ "$t" -le $((start + secs + grace + 60)) ] || killall -KILL stress-ng
	sleep 1
done
sng_rc=0
wait $sng_pid || sng_rc=$?
sng_late=$(( $(cat $W/sng.end) - start - secs ))
if [ "$sng_late" -gt "$grace" ]; then
	fail stress-ng-ends "stress-ng ended ${sng_late}s after its time (allowed: ${grace}s)"
fi
[ "$(( $(now) - start ))" -ge "$secs" ] || fail stress-ng-time "stress-ng ended after $(( $(now) - start ))s, before its ${secs}s"
[ "$hog" = 0 ] || [ -n "$hog_pid" ] || start_hog
[ -z "$hog_pid" ] || wait "$hog_pid" || true
injected=na
[ ! -d $FI ] || injected=$(( fs_times - $(failslab_off) ))
touch $W/stop
# shellcheck disable=SC2086 # workers: pids
wait $workers
kill $httpd_pid 2>/dev/null
wait $httpd_pid 2>/dev/null
elapsed=$(( $(now) - start ))

# --- the soak's own caches: every object back, every slab given back ---
own_allocs=0 own_cross=0
if [ -d /sys/module/slab_soak ]; then
	echo 0 > /sys/module/slab_soak/parameters/run	# stop, free every object
	settle
	dmesg | sed -n 's/.*\(@@SOAKMOD .*\)/\1/p' > $W/own
	cat $W/own
	while read -r _ cache allocs frees cross failed bad; do
		cache=${cache#cache=} allocs=${allocs#allocs=} frees=${frees#frees=}
		cross=${cross#cross_cpu=} failed=${failed#failed=} bad=${bad#bad=}
		own_allocs=$((own_allocs + allocs)) own_cross=$((own_cross + cross))
		# slabinfo: name active_objs num_objs ... : slabdata active_slabs num_slabs
		# shellcheck disable=SC2046 # the line's fields, split on purpose
		set -- $(grep "^$cache " /proc/slabinfo)
		if [ $# -lt 15 ]; then
			fail "own-$cache" "no line in /proc/slabinfo"
		elif [ "$allocs" != "$frees" ] || [ "$bad" != 0 ]; then
			fail "own-$cache" "allocs=$allocs frees=$frees overwritten=$bad"
		elif [ "$failed" != 0 ]; then
			fail "own-$cache" "failed=$failed allocations failed (its kthreads are no failslab targets: the allocator's failures)"
		elif [ ! -w "/sys/kernel/slab/$cache/shrink" ]; then
			pass "own-$cache" "allocs=$allocs cross_cpu=$cross; slabinfo $2 objects in ${15} slabs (no shrink: not checked)"
		elif [ "$2" != 0 ] || [ "${15}" != 0 ]; then
			fail "own-$cache" "after a shrink, /proc/slabinfo still counts $2 active objects, ${15} slabs"
		else
			pass "own-$cache" "allocs=$allocs cross_cpu=$cross failed=$failed; after a shrink 0 objects, 0 slabs"
		fi
	done < $W/own
	[ -s $W/own ] || fail own-caches "slab_soak printed no @@SOAKMOD line"
	if [ "$ncpu" -gt 1 ]; then check own-cross-cpu-frees [ "$own_cross" -gt 0 ]; fi
	check own-caches-unload rmmod slab_soak
fi

# --- what the workers did ---
# stress-ng's lines may say WARNING: the harness fails a boot on that word.
sed 's/WARNING:/warning:/; s/^/  | /' $W/sng.out
echo "stress-ng exit status $sng_rc"
stressng_ops=$(awk '/bogo-ops:/ { s += $2 } END { print s + 0 }' $W/sng/out.yaml 2>/dev/null)
[ -n "$stressng_ops" ] || stressng_ops=0
churn_ops=$(cat $W/churn.*.done 2>/dev/null | awk '{ s += $1 } END { print s + 0 }')
churn_failed=$(cat $W/churn.*.done 2>/dev/null | awk '{ s += $2 } END { print s + 0 }')
read -r hb_ok hb_bad hb_sig < $W/bench.done
http_ok=$(cat $W/http.*.done | awk '{ s += $1 } END { print s + 0 }')
http_bad=$(cat $W/http.*.done | awk '{ s += $2 } END { print s + 0 }')
ops=$((stressng_ops + churn_ops + hb_ok + http_ok))
echo "soak: ${elapsed}s: stress-ng $stressng_ops bogo ops, churn $churn_ops rounds ($churn_failed cut short by failslab), hackbench $hb_ok runs ($hb_bad failed, $hb_sig on a signal), http $http_ok fetches ($http_bad failed), $cycles CPU offline/online cycles, $drops drop_caches (the longest ${drop_max}s), $shrinks cache shrinks, failslab injections $injected"

# Stressors must end normally: a failure that failslab's ENOMEM explains is
# fine, a stressor killed by a signal (not the OOM killer) is not.
crashes=$(grep -E 'terminated on signal|unexpected signal|killed by SIGSEGV|core dump' $W/sng.out || true)
if [ -n "$crashes" ]; then
	fail stressors "stress-ng workers died on a signal: $(echo "$crashes" | head -3 | tr '\n' ';')"
else
	pass stressors "stress-ng $stressng_ops bogo ops (exit status $sng_rc), no worker died on a signal"
fi
[ "$stressng_ops" -gt 0 ] || fail stressng-ops "stress-ng reported no bogo ops (see its output above)"
# stress-ng's status: 0; 3 (a stressor could not start for want of a
# resource, e.g. ENOMEM) only when failslab injected failures; 2 (a stressor
# failed) only when failslab injected failures and enomem_failures below
# explains it; anything else (1 an error, 5 a signal, 6 an early exit, 7 bogo
# ops not trustworthy, 124 interrupted by timeout) fails.
# Some stressors count an injected ENOMEM as a failure of their own: the
# dentry stressor's open() (seen in two 10-minute runs on numa2, each time
# ending stress-ng with status 2), msgsnd(), mq_send(). Status 2 is theirs
# only if every stressor that stress-ng says ended with an error printed a
# failure with errno 12 (ENOMEM) or 105 (ENOBUFS: a socket's allocation),
# in any of its processes (sockpair's writer is a child of its own),
# and stress-ng printed no other error (a stressor killed by a signal, as
# harness.soak_break=stress-ng does, ends it with status 2 too, without an
# ENOMEM). Prints what is not explained so; nothing when all is.
enomem_failures() {
	awk '
	/stress-ng: fail: +\[[0-9]+\] [a-z-]+:? .*errno=(12|105) / {
		name = $4; sub(/:$/, "", name); nomem[name] = 1; next }
	/stress-ng: error: .* terminated with an error, exit status=2 \(stressor failed\)/ {
		name = $0; sub(/^.*process \[[0-9]+\] \(/, "", name); sub(/\).*/, "", name)
		failed[name] = $0; n++; next }
	/stress-ng: error:/ { print; bad = 1 }
	END {
		for (f in failed) if (!(f in nomem)) { print failed[f] " (no ENOMEM of its own)"; bad = 1 }
		if (!n && !bad) print "no stressor said it ended with an error"
	}' "$1"
}
case "$sng_rc,$injected" in
0,*) pass stress-ng-status "exit status 0" ;;
3,na|3,0|2,na|2,0) fail stress-ng-status "exit status $sng_rc, and failslab injected nothing" ;;
3,*) pass stress-ng-status "exit status 3 (no resource), failslab injected $injected failures" ;;
2,*)
	why=$(enomem_failures $W/sng.out)
	if [ -z "$why" ]; then
		pass stress-ng-status "exit status 2: each stressor that failed had an ENOMEM (failslab injected $injected failures): $(grep -c 'terminated with an error' $W/sng.out) of them"
	else
		fail stress-ng-status "exit status 2, not explained by failslab's ENOMEM: $(echo "$why" | head -3 | tr '\n' ';')"
	fi ;;
*) fail stress-ng-status "exit status $sng_rc (see its output above)" ;;
esac
check hackbench-no-signal [ "$hb_sig" = 0 ]
check hackbench-no-failure [ "$hb_bad" = 0 ]
check http-no-failure [ "$http_bad" = 0 ]
check hackbench-ran [ "$hb_ok" -gt 0 ]
check http-ran [ "$http_ok" -gt 0 ]
check churn-ran [ "$churn_ops" -gt 0 ]
if [ "$ncpu" -gt 1 ]; then check hotplug-cycles [ "$cycles" -gt 0 ]; fi

# --- reports: kmemleak scan, OOM kills, stack dumps outside OOM reports ---
if [ -e /sys/kernel/debug/kmemleak ]; then
	echo scan > /sys/kernel/debug/kmemleak
	sleep 6
	echo scan > /sys/kernel/debug/kmemleak
	cat /sys/kernel/debug/kmemleak > $W/leaks
	cat $W/leaks	# to the console, where 'unreferenced object' fails the boot
fi
sleep 1
# The reader must have lived to the end: a dead one (killed, or its read
# failed when the ring buffer overran it) leaves later reports uncounted.
if kill -0 $kmsg_pid 2>/dev/null; then
	kill $kmsg_pid
	wait $kmsg_pid 2>/dev/null
	pass kmsg-reader "the /dev/kmsg reader read to the end ($(wc -l < $W/kmsg) lines)"
else
	rc=0; wait $kmsg_pid 2>/dev/null || rc=$?
	fail kmsg-reader "the /dev/kmsg reader died (status $rc) after $(wc -l < $W/kmsg) lines: stack dumps and reports after that went uncounted"
fi
oom=$(grep -c 'invoked oom-killer' $W/kmsg)
killed=$(sed -n 's/.*Out of memory.*Killed process [0-9]* (\([^)]*\)).*/\1/p' $W/kmsg | sort | uniq -c | tr -s ' \n' ' ')
oom_kills=$(grep -c 'Killed process' $W/kmsg)
traces=$(grep -c 'Call Trace:' $W/kmsg)
reports=$(grep -cE 'BUG:|WARNING:|INFO: |Oops|general protection|unreferenced object|possible (circular|recursive) locking|inconsistent lock state|Kernel panic' $W/kmsg)
leaks=$(grep -c 'unreferenced object' $W/leaks 2>/dev/null) || leaks=0
reports=$((reports + leaks))
if [ "$traces" -gt "$oom" ]; then
	fail stack-dumps "$traces Call Trace: in the log, only $oom of them OOM reports"
	reports=$((reports + traces - oom))
fi
if [ "$oom_kills" -gt 0 ]; then
	# the hog runs as root with oom_score_adj 1000; stress-ng's stressors as 65534
	others=$(grep 'Out of memory.*Killed process' $W/kmsg | grep -vE 'UID:0 .*oom_score_adj:1000' || true)
	if [ -n "$others" ] || [ -z "$hog_pid" ]; then
		fail oom-victim "the OOM killer killed: $killed"
	else
		pass oom-victim "$oom_kills OOM kills, all the hog: $killed"
	fi
fi
check no-reports [ "$reports" = 0 ]

# --- Slab: back where it started ---
settle
after=$(slab_kb)
pct=$(awk -v b="$before" -v a="$after" 'BEGIN { printf "%.1f", (a - b) * 100 / b }')
held=$(awk 'NR > 2 { f += ($3 - $2) * $4 } END { print int(f / 1024) }' /proc/slabinfo)
echo "soak: Slab: before $before kB, after $after kB ($pct%), free objects held in slabs $held kB"
if awk -v p="$pct" -v m="$slabpct" 'BEGIN { exit !(p <= m) }'; then
	pass slab-returns "Slab $before kB -> $after kB ($pct%, limit $slabpct%)"
else
	fail slab-returns "Slab $before kB -> $after kB ($pct%, limit $slabpct%)"
	sort -k3 -n -r /proc/slabinfo 2>/dev/null | head -n 15
fi

echo "@@SOAK alloc=$alloc topo=$topo cpus=$ncpu nodes=$nodes secs=$elapsed ops=$ops stressng_ops=$stressng_ops hackbench=$hb_ok http=$http_ok churn=$churn_ops hotplug=$cycles drops=$drops shrinks=$shrinks failslab=$injected oom_kills=$oom_kills reports=$reports own_allocs=$own_allocs own_cross_cpu=$own_cross slab_before=$before slab_after=$after slab_pct=$pct"
