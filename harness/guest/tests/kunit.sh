# Loads the KUnit test modules named by harness.kunit=MOD[,MOD...] and
# reports every case (kunit_run in lib.sh). The host runs kunit.py parse on
# the console log too (check.sh). A suite run taints the kernel N.
# expect-taint: N
. /harness/lib.sh

# harness.movable=1 (the memhp topology): the memory blocks offline at
# boot (node 1's pc-dimm) go online as movable memory first, so that the
# suites run with a node whose CPUs have memory but none a slab page can
# come from (N_MEMORY, not N_NORMAL_MEMORY).
movable_node() {
	local b mem=/sys/devices/system/memory node=/sys/devices/system/node
	for b in $mem/memory[0-9]*; do
		[ "$(cat "$b/state")" = offline ] || continue
		echo online_movable > "$b/state" || { fail kunit-movable "${b##*/} did not go online as movable"; return 1; }
	done
	echo "memory: $(cat $node/has_memory), normal: $(cat $node/has_normal_memory)"
	if [ "$(cat $node/has_memory)" = "$(cat $node/has_normal_memory)" ]; then
		fail kunit-movable "every node with memory has normal memory"
		return 1
	fi
	pass kunit-movable "a node with movable memory only"
}

mods=$(cmdline_arg harness.kunit) || { fail kunit "no harness.kunit= on the command line"; exit 1; }
[ "$(cmdline_arg harness.movable)" != 1 ] || movable_node || exit 0
for mod in $(echo "$mods" | tr ',' ' '); do
	kunit_run "$mod"
done
