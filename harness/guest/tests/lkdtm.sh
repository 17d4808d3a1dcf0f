# Provokes a crash type of LKDTM (debug flavour: CONFIG_LKDTM=m), named by
# harness.lkdtm=TYPE on the kernel command line, e.g. WRITE_AFTER_FREE (the
# types are in /sys/kernel/debug/provoke-crash/DIRECT's source, lkdtm/core.c).
# Registered as expected to fail: proves a real report fails the boot.
. /harness/lib.sh

type=$(cmdline_arg harness.lkdtm) || { fail lkdtm "no harness.lkdtm= on the command line"; exit 1; }
modprobe lkdtm || { fail lkdtm "modprobe lkdtm failed"; exit 1; }
echo "lkdtm: provoking $type"
echo "$type" > /sys/kernel/debug/provoke-crash/DIRECT ||
	{ fail lkdtm "lkdtm refused $type"; exit 1; }
pass lkdtm "$type provoked"
