# Harness self-test: a report the test declares must not fail the boot.
# expect-log: BUG: KASAN: harness self-test report
sh /harness/tests/report.sh
