# Harness self-test: a kernel left tainted fails the boot, with no report on
# the console. Writing to /proc/sys/kernel/tainted ORs flags in: U (64,
# TAINT_USER, set from user space), which no test declares.
echo 64 > /proc/sys/kernel/tainted
echo "taint: the kernel's taint is now $(cat /proc/sys/kernel/tainted)"
