#!/bin/bash
# Harness self-test (host side, tests.list's selftest-results): the unit
# tests of the results format (results.py, by results_test.py): what a line
# must hold, what the shell's KEY=VALUE words become, the markers of a
# console log, make bench's summary. No kernel is built or booted.
set -euo pipefail
. "$(dirname "$0")/../../lib.sh"

out=$(python3 "$HARNESS/results_test.py" 2>&1) || {
	echo "$out"
	echo "reason: results_test.py: $(grep -m1 -E '^(FAIL|ERROR):' <<<"$out" || tail -1 <<<"$out")"
	exit 1
}
echo "$out" | tail -3
