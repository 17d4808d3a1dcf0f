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

# memcg_child NAME: a child memory cgroup of the cgroup2 root (mounted
# here when it is not), its folder on stdout; fails without one.
memcg_child() {
	local root=/sys/fs/cgroup
	# /proc/mounts: "none /sys/fs/cgroup cgroup2 ...", the device first.
	awk -v r="$root" '$2 == r && $3 == "cgroup2" { f = 1 } END { exit !f }' /proc/mounts ||
		mount -t cgroup2 none "$root" 2>/dev/null || return 1
	grep -qw memory "$root/cgroup.controllers" || return 1
	echo +memory > "$root/cgroup.subtree_control" || return 1
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
