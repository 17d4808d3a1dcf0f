# Helpers for guest test scripts (BusyBox sh): . /harness/lib.sh
# A test prints results with pass/fail; any fail makes the boot fail.

HARNESS_FAILS=/tmp/.harness-fails

pass() { local n=$1; shift; echo "@@RESULT $n PASS $*"; }
fail() { local n=$1; shift; echo "@@RESULT $n FAIL $*"; echo "$n" >> "$HARNESS_FAILS"; }

# check NAME COMMAND...: PASS when the command succeeds.
check() { local n=$1; shift; if "$@"; then pass "$n" "$*"; else fail "$n" "$*"; fi; }

# The value of a KEY=VALUE argument on the kernel command line.
cmdline_arg() {
	local a
	for a in $(cat /proc/cmdline); do
		case "$a" in "$1="*) echo "${a#"$1"=}"; return 0 ;; esac
	done
	return 1
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
