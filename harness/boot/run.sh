#!/bin/bash
# make run / make shell: build a kernel and boot it on numa2.
#   run.sh [-i] [ALLOC [FLAVOUR...]]
# ALLOC defaults to slqb once the tree has it, else slub. Without -i the guest
# shows the allocator in use, /proc/slabinfo, the vmstat and meminfo slab
# counters, CPUs and nodes, then powers off; with -i it leaves you at its shell.
set -euo pipefail
. "$(dirname "$0")/../lib.sh"

mode=(-v) test=show
if [ "${1:-}" = -i ]; then mode=(-i) test=shell; shift; fi
topology=${TOPOLOGY:-numa2}

[ $# -gt 0 ] || set -- "$(default_alloc)"
"$HARNESS/build/build.sh" "$@"
name=$(IFS=-; echo "$*")
exec "$HARNESS/boot/qemu.sh" "${mode[@]}" "$name" "$topology" "$test"
