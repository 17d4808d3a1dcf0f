#!/bin/bash
# The benchmark's smoke in make check (tests.list: bench-run-smoke): one
# quick round of make bench, end to end, on the bench kernels, each rebuilt
# first (incremental): the plain builds would not do, as SLUB's and SLAB's
# have freelist hardening, which SLQB has not and make bench refuses.
# NOBUILD=1: the bench kernels as they are (built only when missing: run.sh
# -b leaves them to lib.sh's kernel_plan).
#   smoke.sh [ALLOCS]   (default "slqb slub slab")
# It checks what make bench promises, not the numbers: every boot passed,
# each allocator gave the same set of metrics (memory, module, macro), the
# counted boots counted each workload, and the table, results.jsonl and
# the chart were written. Results go to
# build/bench/smoke/ (build/bench/latest is left to real runs).
set -euo pipefail
. "$(dirname "$0")/../lib.sh"

allocs=${1:-slqb slub slab}
res=$BUILD/bench/smoke
rm -rf "$res"
rc=0
SLQB_RESULTS=$res/record "$HARNESS/bench/run.sh" -r 1 -q -b -t numa2 -a "$allocs" -o "$res" || rc=$?
bad() { echo "reason: $*"; exit 1; }
[ "$rc" = 0 ] || bad "harness/bench/run.sh failed (status $rc; logs in $res/logs/)"

for f in table.txt results.jsonl summary.md ratios.png config-diff.txt info.txt; do
	[ -s "$res/$f" ] || bad "make bench wrote no $f"
done
# The same metrics from every allocator, and enough of them: a part of the
# guest test that stopped printing shows here, not only in the numbers.
# results FIELD,... KEY=VALUE...: fields of results.jsonl's lines (results.py).
results() { python3 "$HARNESS/results.py" get "$res/results.jsonl" "$@"; }
read -r -a names <<<"$allocs"
first=""
for a in "${names[@]}"; do
	m=$(results metric kind=metric alloc="$a" round=1 | sort)
	n=$(echo "$m" | grep -c . || true)
	for part in mem. kmalloc_pair. bulk. hackbench. tcp_rr.; do
		echo "$m" | grep -q "^$part" || bad "$a gave no $part* metric"
	done
	if [ -z "$first" ]; then first=$m
	elif [ "$m" != "$first" ]; then bad "$a gave other metrics than ${names[0]}: $(diff <(echo "$first") <(echo "$m") | grep '^[<>]' | head -3 | xargs)"
	fi
	echo "$a: $n metrics"
done
[ -z "$(results test kind=verdict result=fail)" ] && [ -n "$(results test kind=verdict result=pass)" ] ||
	bad "results.jsonl has no boot's verdict, or a failed one"
grep -q "^kmalloc_pair.64 " "$res/table.txt" || bad "table.txt has no kmalloc_pair.64 row"
# The counted boots (SLQB's and SLUB's plain builds): each workload counted.
for a in slqb slub; do
	case " $allocs " in *" $a "*) ;; *) continue ;; esac
	for w in micro.kmalloc micro.remote hackbench.socket tcp_rr.other_node; do
		results metric kind=metric alloc="$a" build="$a" | grep -qx "count\.$w\.allocs" ||
			bad "the counted boot of $a gave no count.$w.* (results.jsonl)"
	done
done
grep -qE "^hackbench\.socket( \*)? +\| +[0-9]+ / [0-9]+ +\| +[0-9.]+ / [0-9.]+ " "$res/table.txt" ||
	bad "table.txt has no counted hackbench.socket row for SLQB and SLUB"
echo "result: PASS (one quick round of make bench: $(results metric kind=metric round=1 | wc -l) results; $res/)"
