# Harness self-test: a guest that never finishes must fail the boot (timeout).
# timeout: 20
echo "hang: sleeping forever on purpose"
while :; do sleep 60; done
