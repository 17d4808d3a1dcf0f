#!/bin/bash
# make scale: SLQB, SLUB and SLAB side by side as the machine grows, from 4
# to 64 CPUs: memory after boot, after a fixed slab workload on
# every CPU, after a trim interval and after drop_caches + shrink (Slab:,
# Percpu:, their sum, slabs and objects held per CPU), its growth per added
# CPU and per added node, and the counted queue behaviour of one CPU's
# objects freed by many (fanout) and of many CPUs' objects freed by one
# (fanin: one consumer, many producers).
#   scale.sh [-a ALLOCS] [-t TOPOLOGIES] [-f FLAVOUR] [-o DIR]
#   -a ALLOCS      the allocators (default "slqb slub slab")
#   -t TOPOLOGIES  lines of harness/boot/topologies, smallest first (default
#                  "smp4 numa2 numa4 smp8 numa2-8 numa4-16 numa4-16m numa8-32
#                  numa8-64")
#   -f FLAVOUR     the builds used are ALLOC-FLAVOUR (default none: the plain
#                  builds, whose statistics the counts need)
#   -o DIR         the results' folder (default build/scale/TIME, with
#                  build/scale/latest pointing there)
# Each kernel is built first (harness/build/build.sh: incremental), unless
# NOBUILD=1: then a kernel built is booted as it is, one not built skipped
# (lib.sh's kernel_plan). A topology with more CPUs than the kernel's CONFIG_NR_CPUS, or
# more nodes than its CONFIG_NODES_SHIFT allows, is skipped, saying so.
# Each boot runs the guest test 'scale' (harness/guest/tests/scale.sh) with
# a timeout of 300 s + 30 s per CPU (SLQB_TIMEOUT overrides) and reaches
# init within 120 s + 5 s per CPU (SLQB_BOOT_TIMEOUT). Results in DIR:
# results.jsonl (harness/results.py: each boot's @@BENCH lines and verdict,
# with its topology, cpus, nodes and alloc), table.txt, scale.png,
# info.txt, logs/; then a dated record (results/,
# lib.sh's write_record). SCALE_NOBJ and SCALE_QOBJ set the guest's
# harness.nobj= and harness.qobj= (objects per size and CPU of the workload,
# 2000; objects of fanout and fanin, 20000).
set -euo pipefail
. "$(dirname "$0")/../lib.sh"
command="harness/bench/scale.sh $*"

allocs="slqb slub slab" flavour="" res=""
topos="smp4 numa2 numa4 smp8 numa2-8 numa4-16 numa4-16m numa8-32 numa8-64"
while getopts "a:t:f:o:" o; do
	case "$o" in
	a) allocs=$OPTARG ;;
	t) topos=$OPTARG ;;
	f) flavour=$OPTARG ;;
	o) res=$OPTARG ;;
	*) die "usage: scale.sh [-a ALLOCS] [-t TOPOLOGIES] [-f FLAVOUR] [-o DIR]" ;;
	esac
done
"$HARNESS/check-tools.sh" boot

# topo_field TOPOLOGY KEY: KEY's value in the topology's last field.
topo_field() {
	topology_line "$1" | awk -F'|' '{ print $NF }' | tr ' ' '\n' | sed -n "s/^$2=//p"
}
# config_value BUILD SYMBOL: the value of CONFIG_SYMBOL in the build's .config.
config_value() { sed -n "s/^CONFIG_$2=//p" "$(build_dir "$1")/.config"; }

for t in $topos; do
	[ -n "$(topo_field "$t" cpus)" ] || die "unknown topology '$t' (harness/boot/topologies)"
done

[ -n "$res" ] || res=$(new_run_dir scale)
mkdir -p "$res/logs"

# The kernels: built unless NOBUILD=1, which skips those not built.
kernels=()
for a in $allocs; do
	k=$a${flavour:+-$flavour}
	case $(kernel_plan "$k" skip) in
	skip)
		echo "skip $k: not built (NOBUILD=1; harness/build/build.sh ${k//-/ })" | tee -a "$res/skipped.txt" >&2
		continue ;;
	build)
		note "building $k (harness/build/build.sh ${k//-/ }; log build/logs/build-$k.log)"
		build_kernel "$k" ;;
	esac
	kernels+=("$k")
done
[ ${#kernels[@]} -ge 1 ] || die "no kernel to boot"

{
	echo "date: $(date -u '+%Y-%m-%d %H:%M UTC')"
	echo "command: $command"
	echo "host: $(uname -srm), $(nproc) CPUs, $(sed -n 's/^model name[^:]*: //p' /proc/cpuinfo | head -1)"
	echo "load at start: $(cut -d' ' -f1-3 /proc/loadavg)"
	echo "qemu: $(qemu-system-x86_64 --version | head -1), accel $("$HARNESS/boot/kvm-probe.sh" "$(build_dir "${kernels[0]}")/arch/x86/boot/bzImage")"
	for k in "${kernels[@]}"; do
		echo "kernel $k: Linux $(cat "$(build_dir "$k")/kernelversion" 2>/dev/null), built $(stat -c %y "$(build_dir "$k")/arch/x86/boot/bzImage" | cut -d. -f1), NR_CPUS=$(config_value "$k" NR_CPUS) NODES_SHIFT=$(config_value "$k" NODES_SHIFT), $(grep -E '^CONFIG_(SLAB|SLUB|SLQB)[A-Z_]*=' "$(build_dir "$k")/.config" | sed 's/^CONFIG_//' | xargs)"
	done
} > "$res/info.txt"
cat "$res/info.txt" >&2

# Boots have a seeded CRNG (qemu.sh): without one, SLQB's allocation
# phase took 7.7 s on 8 CPUs and 55 s on 16 (36 ms and 81 ms for SLUB).
args=()
[ -z "${SCALE_NOBJ:-}" ] || args+=(harness.nobj="$SCALE_NOBJ")
[ -z "${SCALE_QOBJ:-}" ] || args+=(harness.qobj="$SCALE_QOBJ")
failed=0 nboot=0 start=$(date +%s)
for t in $topos; do
	cpus=$(topo_field "$t" cpus) nodes=$(topo_field "$t" nodes)
	for k in "${kernels[@]}"; do
		a=${k%%-*}
		nr=$(config_value "$k" NR_CPUS) shift=$(config_value "$k" NODES_SHIFT)
		if [ "$cpus" -gt "${nr:-1}" ]; then
			echo "skip $k on $t: $cpus CPUs > CONFIG_NR_CPUS=${nr:-1} ($(build_dir "$k")/.config)" | tee -a "$res/skipped.txt" >&2
			continue
		fi
		if [ "$nodes" -gt $((1 << ${shift:-0})) ]; then
			echo "skip $k on $t: $nodes nodes > 2^CONFIG_NODES_SHIFT=$((1 << ${shift:-0}))" | tee -a "$res/skipped.txt" >&2
			continue
		fi
		nboot=$((nboot + 1))
		b=$(date +%s)
		printf '[%d] %s on %s (%d CPUs, %d nodes) ... ' "$nboot" "$k" "$t" "$cpus" "$nodes" >&2
		why=
		if SLQB_LOGS=$res/logs SLQB_LOG_NAME=$t-$a SLQB_TIMEOUT=${SLQB_TIMEOUT:-$((300 + 30 * cpus))} \
			SLQB_BOOT_TIMEOUT=${SLQB_BOOT_TIMEOUT:-$((120 + 5 * cpus))} \
			"$HARNESS/boot/qemu.sh" "$k" "$t" scale ${args[@]+"${args[@]}"} > "$res/logs/$t-$a.out" 2>&1; then
			verdict=PASS
		else
			why=$(grep '^result:' "$res/logs/$t-$a.out" | sed 's/^result: //')
			verdict="FAIL ($why)"
			failed=$((failed + 1))
		fi
		secs=$(( $(date +%s) - b ))
		log=$res/logs/$t-$a.log
		# Every @@BENCH line, even of a failed boot; the seconds to init
		# (the guest's clock) and of the whole boot (the host's).
		keys=(alloc="$a" build="$k" topology="$t" cpus="$cpus" nodes="$nodes")
		init=$(tr -d '\r' < "$log" | sed -n 's/^\[ *\([0-9.]*\)\] Run \/init .*/\1/p' | head -1)
		results_log "$res/results.jsonl" "$log" "${keys[@]}"
		[ -z "$init" ] || results_add "$res/results.jsonl" kind=metric metric=boot.init value="$init" unit=s "${keys[@]}"
		results_add "$res/results.jsonl" kind=metric metric=boot.wall value="$secs" unit=s "${keys[@]}"
		word=${verdict%% *}
		results_add "$res/results.jsonl" kind=verdict test="$t-$a" result="${word,,}" seconds="$secs" \
			detail="$why" "${keys[@]}"
		printf '%s, %ds (init at %ss)\n' "$verdict" "$secs" "$init" >&2
	done
done
echo "boots: $nboot in $(( $(date +%s) - start ))s; load at end: $(cut -d' ' -f1-3 /proc/loadavg)" | tee -a "$res/info.txt" >&2
[ "$nboot" -gt 0 ] || die "nothing booted (every topology skipped: see $res/skipped.txt)"
[ ! -f "$res/skipped.txt" ] || { echo "skipped:"; sed 's/^/  /' "$res/skipped.txt"; } >> "$res/info.txt"

py=python3	# Debian's, which has python3-matplotlib (not a pyenv's)
[ ! -x /usr/bin/python3 ] || py=/usr/bin/python3
"$py" "$HARNESS/bench/scale_report.py" "$res" | tee "$res/report.out"
echo "results: $res (table.txt, results.jsonl, scale.png, logs/)"
# A failed boot's numbers are kept (a kernel warning at the end does not
# undo them): the record says which boots failed and why, and the run fails.
grep -h '^result: FAIL' "$res"/logs/*.out 2>/dev/null | sed 's/^result: /failed boot: /' >> "$res/info.txt" || true
write_record make-scale "make scale: SLQB, SLUB, SLAB from 4 to 64 CPUs (TCG)" \
	"$command" "$res/info.txt" "$res/table.txt" "$res/results.jsonl" "$res/scale.png"
[ "$failed" = 0 ] || die "$failed of $nboot boots failed (their logs: $res/logs/)"
