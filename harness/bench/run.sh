#!/bin/bash
# make bench: SLQB, SLUB and SLAB side by side, from one composed tree.
#   run.sh [-r ROUNDS] [-t TOPOLOGY] [-q] [-a "slqb slub slab"] [-f FLAVOUR] [-p PARTS] [-b] [-C] [-o DIR]
#   -r ROUNDS    boots per kernel, interleaved: A B C, B C A, C A B, ... (default 3)
#   -t TOPOLOGY  a line of harness/boot/topologies (default numa2)
#   -q           quick: short runs in the guest (module N=5000, 1 s macro runs)
#   -a ALLOCS    the kernels (default "slqb slub slab"; the ratios are to slub)
#   -f FLAVOUR   the builds used are ALLOC-FLAVOUR (default bench: harness/build/configs/
#                bench.config turns the allocators' statistics off); -f '' uses
#                the plain builds (build/out/ALLOC)
#   -p PARTS     what the guest runs: mem,micro,macro (default all)
#   -b           run harness/build/build.sh on every kernel first (incremental),
#                unless NOBUILD=1; without it only a kernel not built yet is
#                built (lib.sh's kernel_plan, as with NOBUILD=1)
#   -C           no counted boots (below)
#   -o DIR       write the results to DIR (default build/bench/TIME, with
#                build/bench/latest pointing there; -o leaves latest alone)
# Kernels are build/out/ALLOC-FLAVOUR (built by harness/build/build.sh under the build lock
# when missing). Their merged configs are diffed: only the allocator and what
# Kconfig derives from it may differ, else the run stops. Each boot runs the
# guest test 'bench' (harness/guest/tests/bench.sh). Results go to
# build/bench/TIME/: results.jsonl (harness/results.py: a metric line per
# @@BENCH line of every boot, a verdict line per boot), table.txt,
# summary.md, ratios.png, config-diff.txt, logs/, and build/bench/latest
# points there.
# Counted, not timed: after the timed rounds, one boot each of SLQB's and
# SLUB's plain builds (build/out/ALLOC, make check's, whose statistics are
# on: the counts need SLUB's) runs the workloads of the micro and macro
# parts again (micro quick), each between two snapshots of the allocator's event
# counts (guest test bench with harness.count=1). Their lines go to
# results.jsonl without a round, and the report sets page-allocator calls, locks and hand-offs
# per 1000 allocations side by side.
set -euo pipefail
. "$(dirname "$0")/../lib.sh"
command="harness/bench/run.sh $*"

rounds=3 topo=numa2 quick=0 allocs="slqb slub slab" parts=mem,micro,macro rebuild="" flavour=bench res="" count=1
while getopts "r:t:qa:f:p:bCo:" o; do
	case "$o" in
	r) rounds=$OPTARG ;;
	t) topo=$OPTARG ;;
	q) quick=1 ;;
	a) allocs=$OPTARG ;;
	f) flavour=$OPTARG ;;
	p) parts=$OPTARG ;;
	b) rebuild=1 ;;
	C) count=0 ;;
	o) res=$OPTARG ;;
	*) die "usage: run.sh [-r ROUNDS] [-t TOPOLOGY] [-q] [-a ALLOCS] [-f FLAVOUR] [-p PARTS] [-b] [-C] [-o DIR]" ;;
	esac
done
[[ $rounds =~ ^[1-9][0-9]*$ ]] || die "rounds must be a positive number, not '$rounds'"
read -r -a names <<<"$allocs"
[ ${#names[@]} -ge 1 ] || die "no allocator to run"
"$HARNESS/check-tools.sh" boot

# The kernels (build names): built when missing, or with -b (unless
# NOBUILD=1) always (incremental).
# need_kernel BUILD
need_kernel() {
	local nobuild=${NOBUILD:-}
	[ -n "$rebuild" ] || nobuild=1
	if [ "$(NOBUILD=$nobuild kernel_plan "$1")" = build ]; then
		note "building $1 (harness/build/build.sh ${1//-/ }; log build/logs/build-$1.log)"
		build_kernel "$1"
	fi
}
kernels=() counted=()
for a in "${names[@]}"; do
	kernels+=("$a${flavour:+-$flavour}")
	need_kernel "$a${flavour:+-$flavour}"
done
if [ "$count" = 1 ]; then
	for a in "${names[@]}"; do
		case "$a" in slqb | slub) counted+=("$a"); need_kernel "$a" ;; esac
	done
fi

[ -n "$res" ] || res=$(new_run_dir bench)
mkdir -p "$res/logs"

# Only the allocator differs (lib.sh: only_allocator_differs).
args=()
for k in "${kernels[@]}"; do args+=("$k=$(build_dir "$k")/.config"); done
only_allocator_differs "$res/config-diff.txt" "${args[@]}" ||
	die "the kernels' configs differ beyond the allocator (see $res/config-diff.txt); rebuild them with -b"
n=$(grep -c '^[<>]' "$res/config-diff.txt" || true)
note "configs: only the allocator differs ($n symbol lines, all allocator or derived: $res/config-diff.txt)"

# The guest's tool (a host program copied into the initramfs, so built here)
# and the module for each kernel (qemu.sh builds it too; here it fails early).
mkdir -p "$BUILD/bench/bin"
gcc -O2 -Wall -o "$BUILD/bench/bin/slqb-benchtool" "$HARNESS/bench/benchtool.c"
export PATH=$BUILD/bench/bin:$PATH
for k in "${kernels[@]}" "${counted[@]}"; do
	"$HARNESS/modules/build.sh" "$k" "$HARNESS/modules/slab_bench" > /dev/null
done

kernel_info() {	# kernel_info BUILD SUFFIX: its line of info.txt
	local d
	d=$(build_dir "$1")
	echo "kernel $1$2: Linux $(cat "$d/kernelversion" 2>/dev/null), built $(stat -c %y "$d/arch/x86/boot/bzImage" | cut -d. -f1), $(grep -E '^CONFIG_(SLAB|SLUB|SLQB)[A-Z_]*=' "$d/.config" | sed 's/^CONFIG_//' | xargs)"
}
{
	echo "date: $(date -u '+%Y-%m-%d %H:%M UTC')"
	echo "command: harness/bench/run.sh -r $rounds -t $topo$([ "$quick" = 1 ] && echo " -q") -a '$allocs' -f '$flavour' -p $parts$([ "$count" = 1 ] || echo " -C")"
	echo "host: $(uname -srm), $(nproc) CPUs, $(sed -n 's/^model name[^:]*: //p' /proc/cpuinfo | head -1)"
	echo "load at start: $(cut -d' ' -f1-3 /proc/loadavg) (other work on the host makes the results noisier)"
	echo "qemu: $(qemu-system-x86_64 --version | head -1), accel $("$HARNESS/boot/kvm-probe.sh" "$(build_dir "${kernels[0]}")/arch/x86/boot/bzImage")"
	for a in "${kernels[@]}"; do kernel_info "$a" ""; done
	for a in "${counted[@]}"; do kernel_info "$a" " (counted)"; done
} > "$res/info.txt"
cat "$res/info.txt" >&2
if grep '^kernel [^ ]*:' "$res/info.txt" | grep -qE '_STATS=y'; then
	note "warning: an allocator counts its events per cache (a *_STATS option is on): the comparison is not fair"
fi

# boot OUT LOG BUILD KEY=VALUE... -- ARG...: boot the guest test bench on
# BUILD (qemu.sh, with SLQB_LOGS and SLQB_LOG_NAME from the caller), its
# report to OUT; every @@BENCH line of its console LOG, even of a failed
# boot, and its verdict go to results.jsonl with the KEY=VALUEs. Sets
# verdict (PASS, or FAIL and why) and counts a failure.
boot() {
	local out=$1 log=$2 k=$3 keys=() why t0 name word
	shift 3
	while [ "$1" != -- ]; do keys+=("$1"); shift; done
	shift
	t0=$(date +%s)
	if "$HARNESS/boot/qemu.sh" "$k" "$topo" bench "$@" > "$out" 2>&1; then
		verdict=PASS why=
	else
		why=$(grep '^result:' "$out" | sed 's/^result: //')
		verdict="FAIL ($why)"
		failed=$((failed + 1))
	fi
	[ ! -f "$log" ] || results_log "$res/results.jsonl" "$log" "${keys[@]}"
	name=${log##*/} word=${verdict%% *}
	results_add "$res/results.jsonl" kind=verdict test="${name%.log}" result="${word,,}" \
		seconds=$(( $(date +%s) - t0 )) detail="$why" "${keys[@]}"
}
total=$((rounds * ${#kernels[@]})) nboot=0 failed=0 start=$(date +%s)
args=(harness.bench="$parts")
[ "$quick" = 1 ] && args+=(harness.quick=1)
for ((r = 1; r <= rounds; r++)); do
	for ((i = 0; i < ${#kernels[@]}; i++)); do
		k=${kernels[$(((i + r - 1) % ${#kernels[@]}))]}	# rotate: A B C, B C A, ...
		a=${k%%-*}	# the allocator
		nboot=$((nboot + 1))
		b=$(date +%s)
		printf '[%d/%d] round %d/%d: %s on %s ... ' "$nboot" "$total" "$r" "$rounds" "$k" "$topo" >&2
		log=$res/logs/r$r-$a.log
		SLQB_LOGS=$res/logs SLQB_LOG_NAME=r$r-$a boot "$res/logs/r$r-$a.out" "$log" "$k" \
			alloc="$a" build="$k" topology="$topo" round="$r" -- "${args[@]}"
		got=$(tr -d '\r' < "$log" | grep -c '@@BENCH metric=' || true)
		elapsed=$(( $(date +%s) - start ))
		printf '%s, %d results, %ds (elapsed %dm%02ds, about %dm left)\n' "$verdict" "$got" "$(( $(date +%s) - b ))" \
			$((elapsed / 60)) $((elapsed % 60)) $(( elapsed * (total - nboot) / nboot / 60 )) >&2
	done
done

# The counted boots: their lines have no round (their times are not a fair
# comparison: the statistics are on); the report reads their count.* lines.
for a in "${counted[@]}"; do
	printf 'counted: %s on %s ... ' "$a" "$topo" >&2
	b=$(date +%s)
	SLQB_LOGS=$res/logs SLQB_LOG_NAME=count-$a boot "$res/logs/count-$a.out" "$res/logs/count-$a.log" "$a" \
		alloc="$a" build="$a" topology="$topo" -- harness.bench="$parts" harness.quick=$quick harness.count=1
	printf '%s, %d counts, %ds\n' "$verdict" "$(tr -d '\r' < "$res/logs/count-$a.log" | grep -c '@@BENCH metric=count\.' || true)" \
		$(( $(date +%s) - b )) >&2
done

echo "load at end: $(cut -d' ' -f1-3 /proc/loadavg)" | tee -a "$res/info.txt" >&2
py=python3	# Debian's, which has python3-matplotlib (not a pyenv's)
[ ! -x /usr/bin/python3 ] || py=/usr/bin/python3
"$py" "$HARNESS/bench/report.py" "$res" | tee "$res/report.out"
echo "results: $res (table.txt, results.jsonl, ratios.png, logs/)"
[ "$failed" = 0 ] || die "$failed of $((total + ${#counted[@]})) boots failed (their logs: $res/logs/)"
write_record make-bench "make bench: SLQB, SLUB, SLAB under QEMU (TCG: indicative)" \
	"$command" "$res/info.txt" "$res/table.txt" "$res/results.jsonl" "$res/ratios.png"
