# Harness self-test: a declared report that never appears must fail the boot.
# expect-log: BUG: KASAN: harness self-test report
exit 0
