#!/bin/bash
# make soak: the soak (the guest test soak-load) on debug kernels, per topology.
#   soak.sh [ALLOC]      environment: SECS (default 600), TOPOS (default
#                        "up smp4 numa2 numa4 fakenuma"), SHORT=1 (60 s on
#                        numa2 and numa4: what make check runs), NOBUILD=1
# Builds ALLOC-debug (and ALLOC-debug-up for the up topology) with build.sh
# (under the build lock), boots the soak on each topology in turn, prints a
# results table and writes it, with the guests' logs, to build/soak/TIME-PID/
# (build/soak/latest: the last run), with results.jsonl (harness/results.py:
# a verdict line per topology, a metric line per number of its @@SOAK
# line), and as a record, results/DATE-make-soak.md and .jsonl (lib.sh's
# write_record). Exits 1 when any topology failed.
set -euo pipefail
. "$(dirname "$0")/../lib.sh"

alloc=${1:-${ALLOC:-}}
[ -n "$alloc" ] || alloc=$(default_alloc)
case " $ALLOCS " in *" $alloc "*) ;; *) die "unknown allocator '$alloc' (valid: $(list "$ALLOCS"))" ;; esac
if [ -n "${SHORT:-}" ]; then
	secs=${SECS:-60} topos=${TOPOS:-numa2 numa4}
else
	secs=${SECS:-600} topos=${TOPOS:-up smp4 numa2 numa4 fakenuma}
fi
[[ $secs =~ ^[0-9]+$ ]] && [ "$secs" -ge 10 ] || die "SECS must be a number of seconds, at least 10 (got '$secs')"
valid=$(topology_names)
for t in $topos; do
	[[ " $valid " == *" $t "* ]] || die "unknown topology '$t' (valid: $(list "$valid"))"
done

out=$BUILD/soak/$(date +%Y%m%d-%H%M%S)-$$
mkdir -p "$out"
ln -sfn "${out##*/}" "$BUILD/soak/latest"

# The builds: ALLOC-debug for SMP topologies, ALLOC-debug-up for up.
build_of() { if [ "$1" = up ]; then echo "$alloc-debug-up"; else echo "$alloc-debug"; fi; }
declare -A built=()
for t in $topos; do
	b=$(build_of "$t")
	[ -z "${built[$b]+x}" ] || continue
	built[$b]=1
	if [ "$(kernel_plan "$b")" = keep ]; then
		note "soak: $b kept (NOBUILD)"
		continue
	fi
	note "soak: building $b (log build/logs/build-$b.log)"
	s=$(date +%s)
	build_kernel "$b" > "$out/build-$b.out" 2>&1 ||
		{ tail -5 "$out/build-$b.out" >&2; die "building $b failed (see $out/build-$b.out)"; }
	note "soak: $b built in $(( $(date +%s) - s ))s"
done

# One boot per topology. The guest's own timeout: the soak, plus the boot,
# the settling and the kmemleak scan, which are slow under KASAN and TCG.
export SLQB_LOGS=$out SLQB_TIMEOUT=${SLQB_TIMEOUT:-$((secs + 900))}
field() { sed -n "s/.* $1=\([^ ]*\).*/\1/p" <<<"$2"; }
table=$out/results.md
{
	echo "| topology | build | result | secs | ops | stress-ng ops | own caches: objects (freed on another CPU) | hotplug cycles | failslab injections | OOM kills | reports | Slab before kB | Slab after kB | Slab change |"
	echo "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |"
} > "$table"
failed=0
for t in $topos; do
	b=$(build_of "$t")
	name=$b-$t
	note "soak: $name, ${secs}s (log $out/$name.log)"
	rc=0 t0=$(date +%s)
	SLQB_LOG_NAME=$name "$HARNESS/boot/qemu.sh" "$b" "$t" soak-load "harness.secs=$secs" \
		> "$out/$name.out" 2>&1 || rc=$?
	line=$(tr -d '\r' < "$out/$name.log" | grep -m1 '^@@SOAK ' || true)
	if [ "$rc" = 0 ]; then result=PASS; else result=FAIL; failed=$((failed + 1)); fi
	# The kernel reports as the harness saw them (log-patterns), whether or
	# not the guest lived to count them.
	reason=$(grep -m1 '^reason: ' "$out/$name.out" | sed 's/^reason: //' || true)
	if [ -n "$line" ]; then
		printf '| %s | %s | %s | %s | %s | %s | %s (%s) | %s | %s | %s | %s | %s | %s | %s%% |\n' "$t" "$b" "$result" \
			"$(field secs "$line")" "$(field ops "$line")" "$(field stressng_ops "$line")" \
			"$(field own_allocs "$line")" "$(field own_cross_cpu "$line")" \
			"$(field hotplug "$line")" "$(field failslab "$line")" "$(field oom_kills "$line")" \
			"$(field reports "$line")" "$(field slab_before "$line")" "$(field slab_after "$line")" \
			"$(field slab_pct "$line")" >> "$table"
	else
		printf '| %s | %s | %s | no summary: %s | | | | | | | | | | |\n' "$t" "$b" "$result" "${reason:-see the log}" >> "$table"
	fi
	results_log "$out/results.jsonl" "$out/$name.log" build="$b"
	results_add "$out/results.jsonl" kind=verdict test="$name" result="${result,,}" seconds="$(( $(date +%s) - t0 ))" \
		detail="$reason" build="$b" alloc="$alloc" topology="$t"
	echo "$result $name: ${line:-no @@SOAK line}" | tee -a "$out/summary.txt"
	[ "$result" = PASS ] || { echo "  $reason" | tee -a "$out/summary.txt"; sed -n '/^reason: /,/^--- tail/p' "$out/$name.out" | head -30 | sed 's/^/  /'; }
done

echo
cat "$table"
echo
echo "soak: $(( $(echo "$topos" | wc -w) - failed )) passed, $failed failed; ${secs}s per topology; results in $out/"
write_record make-soak "make soak: $alloc's debug kernels, ${secs}s a topology" \
	"SECS=$secs TOPOS=\"$topos\" harness/check/soak.sh $alloc" "$table" "$out/results.jsonl"
[ "$failed" = 0 ]
