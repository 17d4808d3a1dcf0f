# Harness self-test: a guest test that exits 1 must make the boot fail.
echo "exit1: exiting with status 1 on purpose"
exit 1
