# Asserts that the guest sees the topology the host gave it: the host passes
# the expected facts as harness.topo=KEY=VALUE;KEY=VALUE... on the kernel command line.
. /harness/lib.sh

want=$(cmdline_arg harness.topo) || { fail topology "no harness.topo= on the command line"; exit 1; }
have=" $(topology) "
for kv in $(echo "$want" | tr ';' ' '); do
	case "$have" in
	*" $kv "*) pass "topo-${kv%%=*}" "$kv" ;;
	*) fail "topo-${kv%%=*}" "want $kv, have:$have" ;;
	esac
done
for n in /sys/devices/system/node/node[0-9]*; do
	[ -d "$n" ] || continue
	echo "node ${n##*node}: cpus $(cat "$n/cpulist") $(grep MemTotal "$n/meminfo" | sed 's/.*MemTotal: *//')"
done
want=$(cmdline_arg harness.alloc) || want=unknown
have=$(allocator)
if [ "$have" = "$want" ]; then pass allocator "$have"; else fail allocator "want $want, have $have"; fi
