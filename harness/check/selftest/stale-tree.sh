#!/bin/bash
# Harness self-test (host side, tests.list's selftest-stale-tree): a check is
# never green without SLQB. When the series adds SLQB (a '+config SLQB' in
# patches/) but the composed tree lacks it (a stale tree, kept by NOBUILD=1),
# check.sh must FAIL the tests that need slqb, not skip them. Runs check.sh
# on a fake build folder whose linux/mm/Kconfig has no SLQB, with NOBUILD=1
# and one slqb test: no kernel is built or booted. [GLOB] names that test
# (default slqb-up). Passes on status 0; says why it failed on 'reason: '.
set -euo pipefail
. "$(dirname "$0")/../../lib.sh"

test=${1:-slqb-up}
grep -q '^+config SLQB$' "$REPO"/patches/*.patch ||
	die "no patch in $REPO/patches adds 'config SLQB': nothing to test"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/linux/mm"
printf 'config SLUB\n\tbool "SLUB"\n' > "$tmp/linux/mm/Kconfig"

rc=0
env -u CHECK_FULL -u CHECK_DEBUG -u CHECK_LONG -u SLQB_LOGS \
	SLQB_BUILD="$tmp" SLQB_BUILD_LOCK="$tmp/.build.lock" NOBUILD=1 \
	"$HARNESS/check/check.sh" "$test" > "$tmp/out" 2>&1 || rc=$?
sed 's/^/check.sh: /' "$tmp/out"
verdict=$(grep -E "^(PASS|FAIL|SKIP) ${test}[: ]" "$tmp/out" || true)
last=$(tail -n 1 "$tmp/out")
why=
if [ "$rc" != 1 ]; then
	why="check.sh exited with status $rc on a stale tree, not 1"
elif ! echo "$verdict" | grep -q "^FAIL $test: SLQB is not in the composed tree"; then
	why="check.sh did not FAIL $test on a stale tree: '${verdict:-no verdict line}'"
elif [ "$last" != "0 passed, 1 failed" ]; then
	why="check.sh's last line is '$last', not '0 passed, 1 failed'"
elif grep -q '^build ' "$tmp/out"; then
	why="check.sh went on to build a kernel for a test it fails"
fi
if [ -n "$why" ]; then
	echo "reason: $why"
	exit 1
fi
echo "ok: on a stale tree check.sh fails $test ($verdict)"
