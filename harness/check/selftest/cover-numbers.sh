#!/bin/bash
# Harness self-test (host side, tests.list's selftest-cover-numbers): the
# cover letter's numbers come from the records (dev/cover_numbers.py, run
# by make series). On two records of a fixture, the older a JSON summary
# (as records were before results.jsonl), the newer JSON lines
# (results.py's format), it must read the
# newer by its date line (not by file name: a day's first record has no
# time in its name), give a ratio range over a glob from the best rounds or the
# medians, a value and a count; and it must fail, naming the placeholder,
# when a record holds no such metric. No kernel is built or booted.
set -euo pipefail
. "$(dirname "$0")/../../lib.sh"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
record() {	# record NAME DATE SLQB-VALUES SLUB-VALUES
	printf '# make bench\n\n- date: %s\n' "$2" > "$tmp/$1.md"
	cat > "$tmp/$1.json" <<JSON
{"stat": "median", "rounds": 3, "allocators": ["slqb", "slub"], "metrics": {
 "pair.8": {"unit": "cycles", "better": "lower", "slqb": {"values": $3}, "slub": {"values": $4}},
 "pair.64": {"unit": "cycles", "better": "lower", "slqb": {"values": [9, 9, 9]}, "slub": {"values": [10, 10, 10]}},
 "rate": {"unit": "ops/s", "better": "higher", "slqb": {"values": [30, 10, 20]}, "slub": {"values": [20, 20, 20]}}},
 "counts_per_1k_allocs": {"hackbench.socket": {"slqb": {"page_alloc": 22.04}}}}
JSON
}
# record_jsonl NAME DATE SLQB-VALUES SLUB-VALUES: the same as JSON lines.
record_jsonl() {
	local f=$tmp/$1.jsonl r a m v
	printf '# make bench\n\n- date: %s\n' "$2" > "$tmp/$1.md"
	for r in 1 2 3; do
		for a in slqb slub; do
			for m in pair.8 pair.64 rate; do
				case $a.$m in
				slqb.pair.8) v=$(cut -d' ' -f$r <<<"$3") ;;
				slub.pair.8) v=$(cut -d' ' -f$r <<<"$4") ;;
				*.pair.64) v=$([ $a = slqb ] && echo 9 || echo 10) ;;
				slqb.rate) v=$(cut -d' ' -f$r <<<"30 10 20") ;;
				slub.rate) v=20 ;;
				esac
				printf '{"run": "t", "kind": "metric", "metric": "%s", "value": %s, "unit": "u", "better": "%s", "alloc": "%s", "round": %d}\n' \
					$m "$v" "$([ $m = rate ] && echo higher || echo lower)" $a $r >> "$f"
			done
		done
	done
	results_add "$f" kind=metric alloc=slqb unit=per_1k_allocs metric=count.hackbench.socket.page_alloc value=22.04
}
# The day's first record has no time in its name, and sorts last by name.
record 2026-01-02-make-bench "2026-01-02 08:00 UTC" "[20, 20, 20]" "[10, 10, 10]"
record_jsonl 2026-01-02-0900-make-bench "2026-01-02 09:00 UTC" "8 4 6" "10 10 10"
want="2026-01-02 09:00 UTC 3: 0.60-0.90x 0.40-0.90x 1.50x 6 22.0"
got=$(echo "{{make-bench:date}} {{make-bench:rounds}}: {{make-bench:median:pair.*}} {{make-bench:best:pair.*}} {{make-bench:best:rate}} {{make-bench:value:pair.8:slqb}} {{make-bench:count:hackbench.socket:page_alloc:slqb}}" |
	python3 "$HARNESS/dev/cover_numbers.py" "$tmp")
echo "filled: $got"
[ "$got" = "$want" ] || { echo "reason: cover_numbers.py gave '$got', not '$want'"; exit 1; }
rc=0
echo "{{make-bench:median:no.such}}" | python3 "$HARNESS/dev/cover_numbers.py" "$tmp" > "$tmp/out" 2>&1 || rc=$?
[ "$rc" = 1 ] || { echo "reason: a placeholder no record holds gave status $rc, not 1"; exit 1; }
grep -q '{{make-bench:median:no.such}}' "$tmp/out" || { echo "reason: the failure does not name the placeholder: $(cat "$tmp/out")"; exit 1; }
echo "a missing metric: status 1, named"
