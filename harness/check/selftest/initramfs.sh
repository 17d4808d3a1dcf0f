#!/bin/bash
# Harness self-test (host side, tests.list's selftest-initramfs): a guest
# test's needs-prog may name a static binary as well as a dynamic one.
# mkinitramfs.sh copies each PROGRAM with the libraries ldd lists; ldd
# exits 1 on a static binary, which under pipefail used to end the
# initramfs build with status 1 and no message. Builds an initramfs with
# a static program (BusyBox) and a dynamic one (env), and checks that both
# and the C library are in it. No kernel is built or booted.
set -euo pipefail
. "$(dirname "$0")/../../lib.sh"

static=$(command -v busybox)
dynamic=$(command -v env)
! ldd "$static" >/dev/null 2>&1 || die "$static is not static: nothing to test"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

rc=0
"$HARNESS/build/mkinitramfs.sh" "$tmp/test.cpio.gz" "$static" "$dynamic" > "$tmp/out" 2>&1 || rc=$?
sed 's/^/mkinitramfs.sh: /' "$tmp/out"
[ "$rc" = 0 ] || { echo "reason: mkinitramfs.sh exited with status $rc"; exit 1; }
zcat "$tmp/test.cpio.gz" | cpio -t 2>/dev/null > "$tmp/list"
for f in "${static#/}" "${dynamic#/}"; do
	grep -qx "$f" "$tmp/list" || { echo "reason: $f is not in the initramfs"; exit 1; }
done
grep -qE '/libc\.so\.6$' "$tmp/list" || { echo "reason: the C library of $dynamic is not in the initramfs"; exit 1; }
echo "the initramfs holds $static (static), $dynamic and its C library"
