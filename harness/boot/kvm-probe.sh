#!/bin/bash
# Does KVM work here? kvm-probe.sh BZIMAGE -> prints 'kvm' or 'tcg'.
# /dev/kvm can be a software hypervisor that needs minutes to decompress a
# kernel: boot with KVM for a few seconds and look for the kernel's first line.
# The verdict is cached in build/kvm.verdict (delete it to probe again);
# SLQB_ACCEL=kvm|tcg overrides.
set -euo pipefail
. "$(dirname "$0")/../lib.sh"

if [ -n "${SLQB_ACCEL:-}" ]; then echo "$SLQB_ACCEL"; exit 0; fi
verdict=$BUILD/kvm.verdict
if [ -s "$verdict" ]; then cat "$verdict"; exit 0; fi

if [ $# -ne 1 ] || [ ! -f "$1" ]; then die "usage: kvm-probe.sh BZIMAGE"; fi
result=tcg
if [ -r /dev/kvm ] && [ -w /dev/kvm ]; then
	log=$(mktemp)
	timeout -k 2 "${SLQB_KVM_PROBE_SECONDS:-10}" qemu-system-x86_64 -accel kvm -cpu host \
		-m 256M -display none -monitor none -no-reboot -serial "file:$log" \
		-kernel "$1" -append "console=ttyS0 panic=-1" </dev/null >/dev/null 2>&1 || true
	grep -q 'Linux version' "$log" && result=kvm
	rm -f "$log"
fi
mkdir -p "$BUILD"
echo "$result" > "$verdict"
note "KVM probe: $([ $result = kvm ] && echo 'KVM works' || echo 'KVM unusable, using TCG') (cached in $verdict)"
echo "$result"
