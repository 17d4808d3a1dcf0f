#!/bin/bash
# Harness self-test (host side, tests.list's selftest-qemu-crash): QEMU
# dying of a signal is not a verdict on the kernel. qemu.sh boots once more
# when QEMU itself crashes (a cold make check lost a test to a SIGSEGV of
# QEMU 7.5 s into a boot), and only once: a QEMU that crashes every time
# still fails the boot. A stub qemu-system-x86_64 first in PATH crashes on
# its first N calls, then runs the real one. Boots the slqb-up kernel (must
# be built: the test's build field) on up with the 'true' test, twice.
set -euo pipefail
. "$(dirname "$0")/../../lib.sh"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
real=$(command -v qemu-system-x86_64) || die "no qemu-system-x86_64"
mkdir "$tmp/bin"
cat > "$tmp/bin/qemu-system-x86_64" <<STUB
#!/bin/bash
n=\$(cat "$tmp/calls" 2>/dev/null || echo 0)
echo \$((n + 1)) > "$tmp/calls"
[ "\$n" -ge "\$(cat "$tmp/crashes")" ] || kill -SEGV \$\$
exec "$real" "\$@"
STUB
chmod +x "$tmp/bin/qemu-system-x86_64"

# boot CRASHES: qemu.sh's status and output, with the stub crashing that often
boot() {
	echo "$1" > "$tmp/crashes"
	rm -f "$tmp/calls"
	rc=0
	PATH="$tmp/bin:$PATH" SLQB_LOGS="$tmp" SLQB_LOG_NAME="crash$1" \
		"$HARNESS/boot/qemu.sh" slqb-up up true > "$tmp/out$1" 2>&1 || rc=$?
	sed "s/^/qemu.sh (QEMU crashing $1 time(s)): /" "$tmp/out$1" | grep -E 'result:|@@HOST|reason:'
}
boot 1
[ "$rc" = 0 ] || { echo "reason: a boot whose QEMU crashed once failed (status $rc): not booted again"; exit 1; }
[ "$(cat "$tmp/calls")" = 2 ] || { echo "reason: QEMU was started $(cat "$tmp/calls") time(s), not 2"; exit 1; }
[ -f "$tmp/crash1.log.qemu-crash" ] || { echo "reason: the crashed boot's log was not kept"; exit 1; }
boot 2
[ "$rc" = 1 ] || { echo "reason: a boot whose QEMU crashed twice did not fail (status $rc)"; exit 1; }
grep -q '^result: FAIL .*QEMU exited with status 139' "$tmp/out2" ||
	{ echo "reason: a QEMU crashing twice is not reported as QEMU's status 139"; exit 1; }
[ "$(cat "$tmp/calls")" = 2 ] || { echo "reason: QEMU was started $(cat "$tmp/calls") time(s), not 2 (one retry only)"; exit 1; }
echo "QEMU crashing once: booted again and passed; crashing twice: failed with its status"
