# Harness self-test: an SLQB report on the console must fail the boot by
# itself, without a stack trace or a taint (log-patterns' SLQB lines). Logs
# the headline of mm/slqb.c's report_double_free through /dev/kmsg, so any
# kernel can provoke it.
echo "SLQB kmalloc-64: double free of object 0x0000000000000000 (harness self-test, not a real one)" > /dev/kmsg
sleep 1
