# Benchmarks (make bench: harness/bench/run.sh boots this on each kernel).
# Memory first (Slab:/SUnreclaim: after boot, at the peak of a tmpfs churn,
# after drop_caches and shrink; slab orders from /proc/slabinfo), then the
# slab_bench module's microbenchmarks, then macro benchmarks (hackbench,
# fork/exec, tmpfs create/stat/unlink, loopback TCP/UDP request/response with
# client and server on CPUs of one node and of two). Results are lines
#   @@BENCH metric=NAME value=V unit=U better=lower|higher
# Kernel arguments: harness.quick=1 (short runs), harness.bench=mem,micro,macro
# (the parts, default all), harness.only=GROUP,... (the module's groups),
# harness.count=1 (counted, not timed: each workload of micro and macro, the
# module once per group, between two snapshots of the allocator's event
# counts, printing count.WORKLOAD.EVENT lines per 1000 allocations instead
# of times: guest/lib.sh's count_*; the allocator must count, so SLUB needs
# CONFIG_SLUB_STATS).
# slqb-benchtool is built by run.sh (harness/bench/benchtool.c) into
# build/bench/bin, which it puts on PATH.
# needs-module: harness/modules/slab_bench
# Only the micro part loads the module (a failed insmod fails it there), so
# its taint is allowed, not expected: harness.bench=mem boots pass too.
# allow-taint: O
# needs-prog: hackbench slqb-benchtool
# timeout: 1200
. /harness/lib.sh

quick=$(cmdline_arg harness.quick) || quick=0
parts=$(cmdline_arg harness.bench) || parts=mem,micro,macro
only=$(cmdline_arg harness.only) || only=
count=$(cmdline_arg harness.count) || count=0
if [ "$quick" = 1 ]; then secs=1 hb="-g 2 -l 50" files=5000; else secs=3 hb="-g 4 -l 100" files=20000; fi
# Host programs keep their host path in the initramfs: put slqb-benchtool's on PATH.
tool=$(find / -xdev -name slqb-benchtool -type f 2>/dev/null | head -1)
[ -z "$tool" ] || PATH=$PATH:${tool%/*}
want() { case ",$parts," in *",$1,"*) return 0 ;; esac; return 1; }
bench() {	# bench METRIC VALUE UNIT lower|higher
	case "$2" in
	[0-9]*) echo "@@BENCH metric=$1 value=$2 unit=$3 better=$4" ;;
	*) fail "$1" "no value"; failed=1 ;;
	esac
}
mem() {	# mem WHEN: Slab: and SUnreclaim: now
	bench "mem.$1.slab" "$(meminfo_kb Slab)" kB lower
	bench "mem.$1.sunreclaim" "$(meminfo_kb SUnreclaim)" kB lower
}
# The CPUs of node N (cpulist expanded), or of the machine without NUMA.
node_cpus() {
	local l
	l=$(cat "/sys/devices/system/node/node$1/cpulist" 2>/dev/null) || l=$(cat /sys/devices/system/cpu/online)
	echo "$l" | tr ',' '\n' | awk -F- 'NF { e = $2 == "" ? $1 : $2; for (i = $1; i <= e; i++) print i }'
}
failed=0

# counted NAME COMMAND...: the allocator's events while the command ran.
counted() { count_run "$@" || failed=1; }
# workload METRIC UNIT lower|higher COMMAND...: the command prints the
# value; with harness.count=1 its counts instead.
workload() {
	local m=$1 u=$2 b=$3 v
	shift 3
	if [ "$count" = 1 ]; then counted "$m" "$@"; return; fi
	v=$("$@") || { fail "$m" "$1 failed"; failed=1; return; }
	bench "$m" "$v" "$u" "$b"
}
hackbench_time() {	# its Time: line's seconds
	local t
	t=$(hackbench "$@" 2>&1 | sed -n 's/^Time: *//p')
	[ -n "$t" ] && echo "$t"
}
ko=/lib/modules/extra/slab_bench.ko
# One group of the module, loaded and unloaded (counted mode).
micro_group() { insmod $ko quick=1 only="$1" && rmmod slab_bench; }
if [ "$count" = 1 ]; then
	count_init 2> /tmp/count-why || { fail bench-count "$(cat /tmp/count-why)"; exit 0; }
	parts=$(echo ",$parts," | sed 's/,mem,/,/; s/^,//; s/,$//')
fi

if want mem; then
	mem boot
	mkdir -p /tmp/peak
	n=$(slqb-benchtool mkfiles /tmp/peak "$files") || failed=1
	find /sys /proc/sys > /dev/null 2>&1
	mem peak
	rm -rf /tmp/peak
	settle
	mem after_shrink
	# Pages per slab of every cache (raw record), and the caches of objects
	# up to 1 KiB whose slabs are above order 0.
	if [ -r /proc/slabinfo ]; then
		awk 'NR > 2 { print "@@SLABINFO " $1 " objsize=" $4 " objperslab=" $5 " pagesperslab=" $6 }' /proc/slabinfo
		bench mem.caches_le1k_order_gt0 "$(awk 'NR > 2 && $4 <= 1024 && $6 > 1' /proc/slabinfo | wc -l)" caches lower
		bench mem.caches_order_gt0 "$(awk 'NR > 2 && $6 > 1' /proc/slabinfo | wc -l)" caches lower
		bench mem.caches "$(awk 'NR > 2' /proc/slabinfo | wc -l)" caches lower
	fi
	pass bench-mem "$n files at the peak"
fi

if want micro && [ "$count" = 1 ]; then
	# Not cache and bulk: they destroy their caches, and SLUB's counts
	# with them, before the module is unloaded.
	for g in $(echo "${only:-kmalloc,remote,handoff,allcpu}" | tr ',' ' '); do
		counted "micro.$g" micro_group "$g"
	done
	[ "$failed" = 1 ] || pass bench-micro "counted"
elif want micro; then
	args="quick=$([ "$quick" = 1 ] && echo 1 || echo 0)"
	[ -z "$only" ] || args="$args only=$only"
	# shellcheck disable=SC2086 # args are words
	if insmod $ko $args; then
		errs=$(dmesg | sed -n 's/.*@@BENCH-DONE errors=\([0-9]*\).*/\1/p' | tail -1)
		check bench-micro [ "${errs:-x}" = 0 ]
		rmmod slab_bench
	else
		fail bench-micro "insmod $ko failed"
	fi
fi

if want macro; then
	for mode in "" -p -T; do
		name=hackbench$(echo "$mode" | sed 's/^-p/.pipe/; s/^-T/.threads/; s/^$/.socket/')
		# shellcheck disable=SC2086 # hb and mode are words
		workload "$name" s lower hackbench_time $hb $mode
	done
	workload forkexec ops/s higher slqb-benchtool forkexec $secs
	mkdir -p /tmp/files
	workload tmpfs_files ops/s higher slqb-benchtool files /tmp/files $secs
	rm -rf /tmp/files
	ip link set lo up 2>/dev/null || ifconfig lo 127.0.0.1 up
	a=$(node_cpus 0 | head -1)
	same=$(node_cpus 0 | sed -n 2p)
	other=$(node_cpus 1 2>/dev/null | head -1)
	for mode in tcp_rr tcp_crr udp_rr; do
		for where in same_node other_node; do
			if [ "$where" = same_node ]; then b=$same; else b=$other; fi
			[ -n "$b" ] || { echo "@@BENCH-SKIP $mode.$where: no such CPU"; continue; }
			workload "$mode.$where" trans/s higher slqb-benchtool $mode "$a" "$b" $secs
		done
	done
	[ "$failed" = 1 ] || pass bench-macro "hackbench, fork/exec, tmpfs, loopback$([ "$count" = 1 ] && echo ", counted")"
fi
exit 0
