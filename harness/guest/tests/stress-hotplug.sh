# About a minute of slab-heavy work on every CPU (directory walks, pipes,
# fork/exec, tmpfs file churn) while CPUs go offline and online and
# drop_caches runs; then Slab:, less live objects, must come back near
# where it started.
. /harness/lib.sh

secs=$(cmdline_arg harness.secs) || secs=45
# per cache: NAME, live objects in kB (active objects times object size),
# and the kB of its slabs (slabs times pages per slab)
cache_kb() { awk 'NR > 2 { printf "%s %d %d\n", $1, $2 * $4 / 1024, $15 * $6 * 4 }' /proc/slabinfo; }

churn() {	# one worker: loops until the stop file appears
	local i=0 d=/tmp/churn.$1
	mkdir -p "$d"
	while [ ! -e /tmp/stop ]; do
		find /sys /proc/sys > /dev/null 2>&1
		dd if=/dev/zero bs=4k count=256 2>/dev/null | cat > /dev/null
		for f in 1 2 3 4 5 6 7 8; do echo "$i $f" > "$d/f$f"; done
		rm -f "$d"/f*
		sh -c 'cat /proc/self/stat' > /dev/null
		i=$((i + 1))
	done
	echo "$i" > "$d.done"
}

# Warm up once, so that lazily created caches exist before the baseline.
find /sys /proc/sys > /dev/null 2>&1
settle
before=$(slab_kb)
cache_kb > /tmp/caches.before
echo "Slab before: $before kB"

ncpu=$(grep -c '^processor' /proc/cpuinfo)
# harness.stress_break=idle (harness self-test): the workers are told to
# stop before they start, so that none does a round.
if [ "$(cmdline_arg harness.stress_break)" = idle ]; then touch /tmp/stop; fi
for w in $(seq 1 $((ncpu * 2))); do churn "$w" & done

cycles=0 end=$(( $(cut -d. -f1 /proc/uptime) + secs ))
while [ "$(cut -d. -f1 /proc/uptime)" -lt "$end" ]; do
	for c in /sys/devices/system/cpu/cpu[1-9]*; do
		[ -w "$c/online" ] || continue
		echo 0 > "$c/online" && echo 1 > "$c/online" && cycles=$((cycles + 1))
	done
	echo 3 > /proc/sys/vm/drop_caches
	sleep 1
done
touch /tmp/stop
wait
ops=$(cat /tmp/churn.*.done | awk '{ s += $1 } END { print s }')
# Every worker must have done a round: a stress that did nothing proves nothing.
idle=$(cat /tmp/churn.*.done | awk '$1 == 0 { n++ } END { print n + 0 }')
rm -rf /tmp/churn.* /tmp/stop
if [ "$ncpu" -gt 1 ]; then
	check hotplug-cycles [ "$cycles" -gt 0 ]
fi
if [ "$idle" -eq 0 ]; then
	pass churn "$ops rounds on $ncpu CPUs, $cycles CPU offline/online cycles"
else
	fail churn "$idle of $((ncpu * 2)) workers did no round ($ops rounds in all, $cycles CPU offline/online cycles)"
fi

settle
after=$(slab_kb)
echo "Slab after: $after kB (before: $before kB)"
# Where it grew, per cache (the six largest growths in slab pages): live
# objects (active objects times object size, from /proc/slabinfo) and the
# pages of their slabs.
cache_kb > /tmp/caches.after
echo "caches grown most (cache: live kB before -> after, slab kB before -> after):"
awk 'NR == FNR { l[$1] = $2; p[$1] = $3; next }
	{ printf "%d %s: live %d -> %d, slabs %d -> %d\n", $3 - p[$1], $1, l[$1], $2, p[$1], $3 }' \
	/tmp/caches.before /tmp/caches.after | sort -n -r | head -n 6 | cut -d' ' -f2-
# The verdict is on what the allocator holds beyond live objects: Slab:
# less the live objects' kB. Live objects may grow for reasons of their
# own: inodes and dentries that drop_caches cannot evict grew by up to
# 700 kB in one run (SLQB, numa4), so a bound on Slab: alone (a quarter)
# failed a sound run, and SLUB's passed or failed by the same luck. After
# the settle (drop_caches, then every cache shrunk) that overhead may grow
# by a sixth of the starting Slab: at most (about 900 kB), and Slab: by a
# quarter. It grows anyway, on every allocator: the live inodes and
# dentries end up spread over more pages than before (fragmentation).
# Seen on numa4 (2026-12-03): SLQB 1018 -> 1636 kB beyond live objects
# (inode_cache: live 160 kB both times, slabs 176 -> 416 kB), SLUB 439 ->
# 896 kB (inode_cache slabs 208 -> 752 kB); in the checks of 2026-12-07,
# SLQB +45 to +318 kB and Slab: +1.5% to +5.4% on smp4 and numa4. A page
# pinned per cache and hotplug cycle (24 to 39 cycles a run) would be
# megabytes. Without the shrink, SLUB kept up to 90% more Slab: here in
# its per-CPU partial slabs, which is caching, not loss.
live_before=$(awk '{ s += $2 } END { print s + 0 }' /tmp/caches.before)
live_after=$(awk '{ s += $2 } END { print s + 0 }' /tmp/caches.after)
over_before=$((before - live_before)) over_after=$((after - live_after))
msg="Slab $before kB -> $after kB; beyond live objects $over_before kB -> $over_after kB"
if [ $((over_after * 6)) -le $((over_before * 6 + before)) ] && [ $((after * 4)) -le $((before * 5)) ]; then
	pass slab-returns "$msg"
else
	fail slab-returns "$msg"
	sort -k3 -n -r /proc/slabinfo 2>/dev/null | head -n 10
fi
