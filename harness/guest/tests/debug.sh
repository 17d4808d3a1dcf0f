# The debug flavour's checkers are on, and a kmemleak scan finds nothing.
# A report on the console (KASAN, KFENCE, lockdep, kmemleak's 'unreferenced
# object' from the scan below) fails the boot by itself.
. /harness/lib.sh

has_log() { dmesg | grep -q "$1"; }
check kasan has_log 'KernelAddressSanitizer initialized'
check kfence has_log 'kfence: initialized'
check lockdep test -e /proc/lockdep
check failslab test -d /sys/kernel/debug/failslab
check kmemleak test -e /sys/kernel/debug/kmemleak
if [ -e /sys/kernel/debug/kmemleak ]; then
	echo scan > /sys/kernel/debug/kmemleak
	cat /sys/kernel/debug/kmemleak	# leaks, if any, go to the console
fi
