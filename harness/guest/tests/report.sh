# Harness self-test: a kernel report on the console must fail the boot. Logs
# a KASAN-like line through /dev/kmsg, so any kernel can provoke it.
echo "BUG: KASAN: harness self-test report (not a real one)" > /dev/kmsg
sleep 1
