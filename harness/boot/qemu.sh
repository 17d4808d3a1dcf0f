#!/bin/bash
# Boot a built kernel under QEMU and judge the boot:
#   qemu.sh [-i] [-v] BUILD TOPOLOGY TEST [KERNEL-ARG...]
#   BUILD     a build name (build/out/BUILD, made by build.sh), e.g. slub, slab-up
#   TOPOLOGY  a line of harness/boot/topologies, e.g. numa2
#   TEST      a guest test, harness/guest/tests/TEST.sh
#   -i        interactive: the console on this terminal, no timeout (Ctrl-A x quits)
#   -v        show the console as it goes (else only the verdict)
# Reads the guest test's declarations (# needs-prog:, # timeout: ...) and the
# SLQB_* variables: both are in harness/README.md.
# The serial log is kept in build/logs/BUILD-TOPOLOGY-TEST.log ($SLQB_LOGS and
# $SLQB_LOG_NAME, if set, change the folder and the name). Exits 0 when the
# boot passes; else quotes the offending lines and the tail of the log.
set -euo pipefail
. "$(dirname "$0")/../lib.sh"

interactive="" verbose=""
while [ $# -gt 0 ]; do
	case "$1" in
	-i) interactive=1; shift ;;
	-v) verbose=1; shift ;;
	*) break ;;
	esac
done
usage="usage: qemu.sh [-i] [-v] BUILD TOPOLOGY TEST [KERNEL-ARG...]"
[ $# -ge 3 ] || die "$usage"
build=$1 topo=$2 test=$3; shift 3

topologies=$(topology_names)
tests=$(cd "$HARNESS/guest/tests" && ls -- *.sh | sed 's/\.sh$//' | xargs)
builds=$( (cd "$OUTS" 2>/dev/null && ls -d -- */arch/x86/boot/bzImage) 2>/dev/null | cut -d/ -f1 | xargs)

line=$(topology_line "$topo" || true)
[ -n "$line" ] || die "unknown topology '$topo' (valid: $(list "$topologies"))"
script=$HARNESS/guest/tests/$test.sh
[ -f "$script" ] || die "unknown guest test '$test' (valid: $(list "$tests"))"
out=$(build_dir "$build")
kernel=$out/arch/x86/boot/bzImage
[ -f "$kernel" ] || die "no kernel built as '$build' (built: $(list "${builds:-none}"); build one with harness/build/build.sh ALLOC [FLAVOUR...])"
"$HARNESS/check-tools.sh" boot

IFS='|' read -r _ kind qemu_args kernel_args expect <<<"$line"
kind=$(echo "$kind" | trim) expect=$(echo "$expect" | trim)
if grep -q '^CONFIG_SMP=y' "$out/.config"; then smp=smp; else smp=up; fi
[ "$kind" = "$smp" ] || die "topology '$topo' needs an $kind kernel, '$build' is $smp (use $([ "$kind" = up ] && echo "$build-up" || echo "a build without -up"))"
alloc=$(grep -E '^CONFIG_(SLAB|SLUB|SLOB|SLQB)=y' "$out/.config" | sed 's/CONFIG_//; s/=y//' | tr '[:upper:]' '[:lower:]' | head -1)
version=$(cat "$out/kernelversion" 2>/dev/null || kernel_version)

# What the test script declares.
declared() { sed -n "s/^# $1: *//p" "$script"; }
progs=$(declared needs-prog | xargs)
kos=()
for m in $(declared needs-module); do
	kos+=(-k "$("$HARNESS/modules/build.sh" "$build" "$REPO/$m")")
done
timeout=$(declared timeout | tail -1)
timeout=${SLQB_TIMEOUT:-${timeout:-300}}
boot_timeout=$(declared boot-timeout | tail -1)	# to reach init: a few s, ~30 s with KASAN
boot_timeout=${SLQB_BOOT_TIMEOUT:-${boot_timeout:-120}}
scan=()
while read -r re; do [ -n "$re" ] && scan+=(-e "$re"); done < <(declared expect-log; echo "${SLQB_EXPECT_LOG:-}")
while read -r re; do [ -n "$re" ] && scan+=(-a "$re"); done < <(declared allow-log; echo "${SLQB_ALLOW_LOG:-}")
for l in $(declared expect-taint); do scan+=(-T "$l"); done
for l in $(declared allow-taint); do scan+=(-t "$l"); done

logs=${SLQB_LOGS:-$LOGS}
mkdir -p "$logs" "$BUILD/initramfs"
name=${SLQB_LOG_NAME:-$build-$topo-$test}	# check.sh names it after the test
log=$logs/$name.log
initrd=$BUILD/initramfs/$name.$$.cpio.gz	# per boot: boots may run at once
trap 'rm -f "$initrd"' EXIT
# shellcheck disable=SC2086 # progs is a list of words
"$HARNESS/build/mkinitramfs.sh" "$initrd" -m "$out/modroot" ${kos[@]+"${kos[@]}"} $progs

accel=$("$HARNESS/boot/kvm-probe.sh" "$kernel")
# Under TCG the default CPU model (qemu64) has no RDRAND, so nothing seeds
# the guest's CRNG before init: each get_random_u32() then takes one global
# lock, and SLAB_FREELIST_RANDOM asks for one per new slab (SLQB's boots
# paid seconds for it at 8 CPUs, a minute at 16). RDRAND, trusted, seeds it
# at once, for every allocator alike.
if [ "$accel" = kvm ]; then
	accel_args=(-accel kvm) rng_arg=""
else
	# shellcheck disable=SC2054 # tcg,thread=multi is one argument
	accel_args=(-accel tcg,thread=multi -cpu qemu64,+rdrand) rng_arg=random.trust_cpu=on
fi
append="console=ttyS0 panic=-1 $rng_arg $(echo "$kernel_args" | trim) harness.test=$test harness.alloc=$alloc harness.topology=$topo harness.topo=$(echo "$expect" | tr ' ' ';') $*"

# shellcheck disable=SC2206 # the topology's QEMU arguments and SLQB_QEMU_ARGS are words
cmd=(qemu-system-x86_64 "${accel_args[@]}" $qemu_args ${SLQB_QEMU_ARGS:-} -nographic -no-reboot
	-kernel "$kernel" -initrd "$initrd" -append "$append")
note "boot $build (Linux $version, $alloc) on $topo: test $test, $accel, log $log"

log_head() {
	echo "@@HOST Linux $version build=$build topology=$topo test=$test accel=$accel timeout=${timeout}s" > "$log"
	echo "@@HOST kernel command line: $append" >> "$log"
}
# boot: one boot without a terminal, its serial log in $log; sets rc.
boot() {
	local pid watchdog tailer
	rc=0
	timeout -k 10 "$timeout" "${cmd[@]}" -monitor none \
		-chardev "file,id=con,path=$log,append=on" -serial chardev:con </dev/null >"$log.qemu" 2>&1 &
	pid=$!
	# Boot watchdog: a kernel that hangs before init is given up on early.
	(
		for ((i = 0; i < boot_timeout; i++)); do
			sleep 1
			kill -0 $pid 2>/dev/null || exit 0
			! grep -q '@@SLQB BEGIN' "$log" || exit 0
		done
		printf '\n@@HOST boot watchdog: init not reached after %ss, QEMU killed\n' "$boot_timeout" >> "$log"
		kill $pid	# timeout(1) passes the signal on to QEMU
	) &
	watchdog=$!
	tailer=
	if [ -n "$verbose" ]; then tail -n +1 -f --pid=$pid "$log" & tailer=$!; fi
	wait $pid || rc=$?
	kill $watchdog 2>/dev/null || true
	[ -z "$tailer" ] || { sleep 0.3; kill $tailer 2>/dev/null || true; }
	cat "$log.qemu" >&2
	[ -s "$log.qemu" ] || rm -f "$log.qemu"
}

start=$(date +%s)
log_head
rc=0
if [ -n "$interactive" ]; then
	"${cmd[@]}" -chardev "stdio,id=con,mux=on,signal=off,logfile=$log,logappend=on" \
		-serial chardev:con -mon chardev=con || rc=$?
	exit $rc
fi
boot
# QEMU itself crashing (SIGSEGV, SIGABRT, SIGBUS: seen once, 7.5 s into a
# TCG boot, and not again on the same kernel) says nothing of the kernel:
# that boot is kept aside and the test booted once more. The guest's own
# end (panic, reboot, power-off) and timeout(1)'s kill are not retried.
case "$rc" in
134|135|139)
	mv "$log" "$log.qemu-crash"
	echo "@@HOST QEMU died of signal $((rc - 128)) (log kept in $log.qemu-crash): booting once more" >&2
	log_head
	boot ;;
esac
secs=$(( $(date +%s) - start ))

ok=1
verdict=$("$HARNESS/check/scan-log.sh" "$log" ${scan[@]+"${scan[@]}"}) || ok=
if grep -q '^@@HOST boot watchdog' "$log"; then
	ok="" verdict="reason: the kernel did not reach init within ${boot_timeout}s (QEMU killed)
$verdict"
fi
case "$rc" in
0) ;;
124|137) ok="" verdict="reason: timed out after ${timeout}s (QEMU killed)
$verdict" ;;
*) ok="" verdict="reason: QEMU exited with status $rc
$verdict" ;;
esac
if [ -n "$ok" ]; then
	echo "result: PASS $name (${secs}s, Linux $version, $alloc, $accel)"
	exit 0
fi
echo "$verdict"
echo "--- tail of $log:"
tail -25 "$log" | tr -d '\r' | sed 's/^/    /'
headline=${verdict%%$'\n'*}
echo "result: FAIL $name: ${headline#reason: } (${secs}s, log $log)"
exit 1
