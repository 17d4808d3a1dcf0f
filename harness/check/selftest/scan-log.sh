#!/bin/bash
# Harness self-test (host side, tests.list's selftest-scan-log): a log with
# more kernel report lines than a pipe holds (KASAN's suites print that
# many) must be judged like any other: failed, with the report as its
# headline. scan-log.sh used to cut its list of offending lines with
# `echo | head` under pipefail, so that once the list outgrew the pipe
# (64 KiB) echo died of SIGPIPE and the script itself failed ("line 44
# failed (status 141)"), hiding the verdict. No kernel is built or booted.
set -euo pipefail
. "$(dirname "$0")/../../lib.sh"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
{
	echo "@@SLQB BEGIN selftest-scan-log"
	for i in $(seq 3000); do
		echo "[    1.000000] BUG: KASAN: harness self-test report line $i, padded to make the list longer than a pipe"
	done
	echo "@@TAINT 0 flags=-"
	echo "@@SLQB END status=0"
} > "$tmp/console.log"
rc=0
"$HARNESS/check/scan-log.sh" "$tmp/console.log" > "$tmp/out" 2>&1 || rc=$?
head -3 "$tmp/out" | sed 's/^/scan-log.sh: /'
[ "$rc" = 1 ] || { echo "reason: scan-log.sh exited with status $rc, not 1 (a verdict of failure)"; exit 1; }
grep -q 'error: ' "$tmp/out" && { echo "reason: scan-log.sh itself failed: $(grep -m1 'error: ' "$tmp/out")"; exit 1; }
grep -q 'the kernel reported a problem: .*BUG: KASAN: harness self-test report line 1,' "$tmp/out" ||
	{ echo "reason: the verdict does not name the first report line"; exit 1; }
echo "3000 report lines: judged failed, the first one the headline"
