# Helpers for guest test scripts (BusyBox sh): . /harness/lib.sh
# A test prints results with pass/fail; any fail makes the boot fail.

HARNESS_FAILS=/tmp/.harness-fails

pass() { local n=$1; shift; echo "@@RESULT $n PASS $*"; }
fail() { local n=$1; shift; echo "@@RESULT $n FAIL $*"; echo "$n" >> "$HARNESS_FAILS"; }

# check NAME COMMAND...: PASS when the command succeeds.
check() { local n=$1; shift; if "$@"; then pass "$n" "$*"; else fail "$n" "$*"; fi; }

# A /proc/meminfo field in kB (meminfo_kb Slab); slab_kb is Slab:.
meminfo_kb() { sed -n "s/^$1: *\([0-9]*\) kB/\1/p" /proc/meminfo; }
slab_kb() { meminfo_kb Slab; }

# shrink_all: every cache the allocator lets us shrink (SLUB's and SLQB's
# /sys/kernel/slab/*/shrink); prints how many.
shrink_all() {
	local f n=0
	for f in /sys/kernel/slab/*/shrink; do
		[ -w "$f" ] || continue
		echo 1 > "$f" 2>/dev/null && n=$((n + 1))
	done
	echo "$n"
}

# settle: give back what can be given back, so that what stays is live
# objects and the slabs they pin. drop_caches and every cache shrunk, in
# rounds until Slab: stops falling (at least two, at most six): dentries
# freed in one round let their inodes go in the next, and how many rounds
# drop_slab() runs by itself depends on what each shrinker reports freed.
# The first round waits 3 s for slabs freed after an RCU grace period.
settle() {
	local i prev cur
	sync
	prev=$(slab_kb)
	for i in 1 2 3 4 5 6; do
		echo 3 > /proc/sys/vm/drop_caches
		shrink_all > /dev/null
		if [ "$i" = 1 ]; then sleep 3; else sleep 1; fi
		cur=$(slab_kb)
		[ "$i" = 1 ] || [ "$cur" -lt "$prev" ] || break
		prev=$cur
	done
}

# The value of a KEY=VALUE argument on the kernel command line.
cmdline_arg() {
	local a
	for a in $(cat /proc/cmdline); do
		case "$a" in "$1="*) echo "${a#"$1"=}"; return 0 ;; esac
	done
	return 1
}

# The kernel's taint as letters (kernel/panic.c's taint_flags, bit 0 first:
# P proprietary module, O out-of-tree module, N test (KUnit), B bad page
# (slab and KASAN reports), W warning, D oops, U set from user space...).
tainted_flags() {
	local v i=0 letters=PFSRMBUDAWCIOELKXTN out=
	v=$(cat /proc/sys/kernel/tainted)
	while [ "$i" -lt ${#letters} ]; do
		[ $(((v >> i) & 1)) = 0 ] || out=$out$(echo "$letters" | cut -c$((i + 1)))
		i=$((i + 1))
	done
	echo "${out:--}"
}

# The topology as the guest kernel sees it, as KEY=VALUE words.
topology() {
# node_cpus: each node's cpulist, in node order, '/' between, 'none' if empty.
	local cpus nodes mem cpu numa=0 n=/sys/devices/system/node i list percpu=
	cpus=$(grep -c '^processor' /proc/cpuinfo)
	if [ -d $n ]; then
		numa=1
		nodes=$(ls -d $n/node[0-9]* | wc -l)
		mem=$(cat $n/has_memory) cpu=$(cat $n/has_cpu)
		for i in $(ls -d $n/node[0-9]* | sed 's/.*node//' | sort -n); do
			list=$(cat "$n/node$i/cpulist")
			percpu=${percpu:+$percpu/}${list:-none}
		done
	else
		nodes=1 mem=0 cpu=0 percpu=$(cat /sys/devices/system/cpu/online)	# no NUMA: one node
	fi
	echo "cpus=$cpus nodes=$nodes mem_nodes=$mem cpu_nodes=$cpu node_cpus=$percpu numa=$numa"
}

# The slab allocator in use: its boot banner, or its own functions' names.
allocator() {
	if dmesg | grep -q 'SLQB' || grep -qE ' slqb_[a-z_]+' /proc/kallsyms; then echo slqb
	elif grep -qE ' ___slab_alloc(\.|$)' /proc/kallsyms; then echo slub
	elif grep -qE ' cache_alloc_refill(\.|$)' /proc/kallsyms; then echo slab
	else echo unknown
	fi
}

# kunit_known MOD CASE LINE KNOWN: judge a failed case against the known
# failures KNOWN (",MOD:CASE@FILE:LINE,..."), from /tmp/ktap.
kunit_known() {
	local mod=$1 name=$2 line=$3 known=$4 entry loc
	case "$known" in
	*",$mod:$name,"*)
		fail "$mod:$name" "$line (harness.kunit_known names it without @FILE:LINE)"
		return ;;
	*",$mod:$name@"*) ;;
	*) fail "$mod:$name" "$line"; return ;;
	esac
	entry=${known#*,"$mod:$name"@}
	loc=${entry%%,*}
	if grep -F "# $name: " /tmp/ktap | grep -q "FAILED at .*[/ ]$loc\$"; then
		pass "$mod:$name" "$line (fails on SLUB too, at $loc)"
	else
		fail "$mod:$name" "$line (not the known failure at $loc: $(grep -F "# $name: " /tmp/ktap | head -n 1))"
	fi
}

# memcg_root: the cgroup2 root (mounted here when it is not), with the
# memory controller enabled for its children, its folder on stdout; fails
# without one.
memcg_root() {
	local root=/sys/fs/cgroup
	# /proc/mounts: "none /sys/fs/cgroup cgroup2 ...", the device first.
	awk -v r="$root" '$2 == r && $3 == "cgroup2" { f = 1 } END { exit !f }' /proc/mounts ||
		mount -t cgroup2 none "$root" 2>/dev/null || return 1
	grep -qw memory "$root/cgroup.controllers" || return 1
	echo +memory > "$root/cgroup.subtree_control" || return 1
	echo "$root"
}

# memcg_child NAME: a child memory cgroup of memcg_root's, its folder on
# stdout; fails without one.
memcg_child() {
	local root
	root=$(memcg_root) || return 1
	mkdir -p "$root/$1" && echo "$root/$1"
}

# kunit_run MODULE: load a KUnit test module and report every case of its
# KTAP output. The cases named in harness.kunit_known=MOD:CASE@FILE:LINE[,...]
# fail on SLUB too (stock 6.1.192) at FILE:LINE: their failure passes, saying
# so, if its "# CASE: ... FAILED at .../FILE:LINE" line is that one; a
# failure anywhere else fails, as does an entry without @FILE:LINE. A skipped
# case of the kernel's own suites passes with its reason; one of SLQB's
# (slqb_*) only if the test declares it in harness.kunit_skip=CASE[,...],
# the cases that cannot run on its topology and kernel: any other skip
# would be a case that silently stopped running. Every case the suite
# announces must show up: it fails when the ring buffer lost some (give
# log_buf_len= then).
kunit_run() {
	local mod=$1 ko st name line cases planned known skips cg
	known=,$(cmdline_arg harness.kunit_known),
	skips=,$(cmdline_arg harness.kunit_skip),
	ko=$(find /lib/modules -name "$mod.ko" | head -n 1)
	[ -n "$ko" ] || { fail "$mod" "module $mod.ko not in the initramfs"; return; }
	dmesg -c > /dev/null
	# From a child memory cgroup, for the cases that need a cgroup to
	# charge (slqb_test_memcg); in the root one if there is none.
	cg=$(memcg_child kunit) || cg=
	# shellcheck disable=SC2016
	sh -c '[ -z "$1" ] || echo $$ > "$1/cgroup.procs"; exec insmod "$2"' \
		sh "$cg" "$ko" || fail "$mod" "insmod $mod failed"
	[ -z "$cg" ] || rmdir "$cg" 2>/dev/null || true
	# The KTAP lines, without timestamps; a case's line is indented, its
	# suite's is not (and only sums up the cases, so it is not reported).
	dmesg | sed -n 's/^\[[^]]*\] //p' > /tmp/ktap
	sed -nE 's/^ {4,}(ok|not ok) [0-9]+ ([^ ]*).*/\1 \2 &/p' /tmp/ktap |
		sed 's/^not ok /not /; s/  */ /g' > /tmp/ktap.cases
	cases=0
	while read -r st name line; do
		case "$st,$mod,$line" in
		ok,slqb_*"# SKIP"*)
			case "$skips" in
			*",$name,"*) pass "$mod:$name" "$line" ;;
			*) fail "$mod:$name" "$line (a skip the test does not declare: harness.kunit_skip=)" ;;
			esac ;;
		ok,*) pass "$mod:$name" "$line" ;;
		not,*) kunit_known "$mod" "$name" "$line" "$known" ;;
		*) fail "$mod:$name" "$line" ;;
		esac
		cases=$((cases + 1))
	done < /tmp/ktap.cases
	planned=$(sed -n 's/.*# Totals: .*total:\([0-9]\{1,\}\).*/\1/p' /tmp/ktap | awk '{ s += $1 } END { print s + 0 }')
	if [ "$cases" = 0 ]; then
		fail "$mod" "no KTAP results in the log"
	elif [ "$cases" -lt "$planned" ]; then
		fail "$mod" "only $cases of the $planned case results are in the log (ring buffer too small? log_buf_len=)"
	fi
	rmmod "$mod" 2>/dev/null || true
}

# --- the allocator's own event counts (counts.sh; bench.sh with harness.count=1) ---
# Counted, not timed: what the allocator did for a workload, per 1000
# allocations, which does not wobble with the host as times do under TCG.
#   SLQB: /proc/vmstat's slqb_* events (always counted).
#   SLUB: the sums of /sys/kernel/slab/*/EVENT (needs CONFIG_SLUB_STATS).
#   Both: slab_pages, from each cache's sysfs statistics (count_slab_pages).
# count_init: the events into COUNT_EVENTS, then count_calibrate; fails,
# printing why on stderr, for another allocator or a SLUB without its
# statistics.
count_init() {
	COUNT_ALLOC=$(allocator)
	case "$COUNT_ALLOC" in
	slqb) COUNT_EVENTS="alloc free remote_free alloc_from_page offnode_alloc offnode_free page_alloc page_free flush_remote_free_cache claim_remote_free_cache flush_free_list page_free_empty" ;;
	slub)
		[ -r /sys/kernel/slab/kmalloc-512/alloc_slab ] || { echo "SLUB without CONFIG_SLUB_STATS" >&2; return 1; }
		# Each a file per cache: the fewer, the less the reads allocate.
		COUNT_EVENTS="alloc_fastpath alloc_slowpath free_slowpath alloc_slab free_slab alloc_from_partial free_add_partial free_remove_partial" ;;
	*) echo "allocator $COUNT_ALLOC: no counts" >&2; return 1 ;;
	esac
	count_calibrate
}

# The snapshots read with the shell's builtins, forking nothing: a fork
# between two snapshots would be counted as the workload's (hundreds of
# objects each). What the reads themselves allocate (a sysfs file opened
# is a few objects) count_calibrate measures, and count_report takes off.
# count_slab_pages: the pages (of 4 KiB) of the slabs made so far, each
# cache's new slabs (SLQB's stat_page_alloc, SLUB's alloc_slab) times
# 2^its order now: SLQB's slabs are order 0 for objects up to 1 KiB where
# SLUB's are up to order 3, so its calls are more and smaller for the
# same memory.
count_slab_pages() {
	local d n o rest sum=0 stat=alloc_slab
	[ "$COUNT_ALLOC" = slub ] || stat=stat_page_alloc
	for d in /sys/kernel/slab/*; do
		# Aliases are links; the first field is the total over CPUs.
		[ -L "$d" ] || [ ! -r "$d/$stat" ] || {
			read -r n rest < "$d/$stat"
			read -r o < "$d/order"
			sum=$((sum + (n << o)))
		}
	done
	echo "$sum"
}

# count_snapshot FILE: EVENT VALUE lines, now.
count_snapshot() {
	local e d k v n rest
	if [ "$COUNT_ALLOC" = slqb ]; then
		while read -r k v; do
			case " $COUNT_EVENTS " in *" ${k#slqb_} "*) [ "$k" = "${k#slqb_}" ] || echo "${k#slqb_} $v" ;; esac
		done < /proc/vmstat
	else
		for e in $COUNT_EVENTS; do
			v=0
			for d in /sys/kernel/slab/*; do
				# The first field is the total over CPUs; aliases are links.
				[ -L "$d" ] || [ ! -r "$d/$e" ] || { read -r n rest < "$d/$e"; v=$((v + n)); }
			done
			echo "$e $v"
		done
	fi > "$1"
	echo "slab_pages $(count_slab_pages)" >> "$1"
}

# count_calibrate: what two snapshots count with nothing between them, into
# /tmp/count-zero (the mean of three), which count_report subtracts; printed
# as count.zero.EVENT (events, not per 1000 allocations): a workload of not
# many more allocations than count.zero.allocs is counted mostly in noise.
count_calibrate() {
	local i
	for i in 1 2 3; do
		count_snapshot /tmp/count-z0
		count_snapshot /tmp/count-z1
		paste /tmp/count-z0 /tmp/count-z1 | awk '{ print $1, $4 - $2 }' > /tmp/count-zero.$i
	done
	# The snapshots list the same events in the same order.
	paste /tmp/count-zero.1 /tmp/count-zero.2 /tmp/count-zero.3 |
		awk '{ print $1, ($2 + $4 + $6) / 3 }' > /tmp/count-zero
	awk '{ printf "@@BENCH metric=count.zero.%s value=%.1f unit=events better=lower\n", $1, $2 }
		$1 == "alloc" || $1 ~ /^alloc_(fast|slow)path$/ { n += $2 }
		END { printf "@@BENCH metric=count.zero.allocs value=%d unit=allocs better=lower\n", n }' /tmp/count-zero
}

# count_report NAME BEFORE AFTER: @@BENCH metric=count.NAME.EVENT lines,
# each event per 1000 allocations between the snapshots, less what the
# snapshots count themselves (count_calibrate), and the allocations
# themselves (SLQB's alloc; SLUB's fast and slow paths) into COUNT_ALLOCS.
# Fails (returns 1) when there were none.
count_report() {
	paste "$2" "$3" /tmp/count-zero | awk '{ d = $4 - $2 - $6; print $1, d < 0 ? 0 : d }' > /tmp/count-delta
	COUNT_ALLOCS=$(awk '$1 == "alloc" || $1 ~ /^alloc_(fast|slow)path$/ { s += $2 } END { printf "%d\n", s }' /tmp/count-delta)
	[ "$COUNT_ALLOCS" -gt 0 ] || return 1
	awk -v w="$1" -v n="$COUNT_ALLOCS" '
		{ printf "@@BENCH metric=count.%s.%s value=%.1f unit=per_1k_allocs better=lower\n", w, $1, $2 * 1000 / n }' /tmp/count-delta
	echo "@@BENCH metric=count.$1.allocs value=$COUNT_ALLOCS unit=allocs better=lower"
}

# count_run NAME COMMAND...: the allocator's events while the command ran,
# as count_report prints them; fails (FAIL count-NAME, returns 1) when the
# command failed or nothing was allocated.
count_run() {
	local name=$1
	shift
	sync
	count_snapshot /tmp/before
	"$@" > /tmp/out 2>&1 || { fail "count-$name" "$* failed: $(tail -n 2 /tmp/out)"; return 1; }
	count_snapshot /tmp/after
	count_report "$name" /tmp/before /tmp/after || { fail "count-$name" "no allocations counted"; return 1; }
}
