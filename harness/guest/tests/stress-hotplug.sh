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

# harness.stress_break=frag (harness self-test): what slab-returns exists
# to catch, slabs holding more beyond live objects after the run than
# before, made without a bug. During the run, 32000 empty files on tmpfs,
# file i in directory i % 4, then three of the four directories removed:
# 8000 files stay (live inodes and dentries), and the 24000 objects freed
# of each cache lie scattered over the pages the live ones keep (a
# shmem_inode_cache object is 712 bytes, 5 a page, and any 5 files made in
# a row hold one that stays; a dentry 192 bytes, 21 a page). No allocator
# can give those pages back. Seen (SLQB, smp4, 2026-12-07): beyond live
# objects 1104 -> 25770 kB, shmem_inode_cache live 6249 kB in 26316 kB of
# slabs, dentry 1721 kB in 6376 kB: 26 times the limit below.
frag() {
	local i=0
	mkdir -p /tmp/frag/0 /tmp/frag/1 /tmp/frag/2 /tmp/frag/3
	while [ "$i" -lt 32000 ]; do
		: > "/tmp/frag/$((i % 4))/f$i"
		i=$((i + 1))
	done
	rm -rf /tmp/frag/1 /tmp/frag/2 /tmp/frag/3
	echo "frag: $i files made on tmpfs, $(ls /tmp/frag/0 | wc -l) stay"
}

ncpu=$(grep -c '^processor' /proc/cpuinfo)
brk=$(cmdline_arg harness.stress_break) || brk=
# harness.stress_break=idle (harness self-test): the workers are told to
# stop before they start, so that none does a round.
if [ "$brk" = idle ]; then touch /tmp/stop; fi
for w in $(seq 1 $((ncpu * 2))); do churn "$w" & done
if [ "$brk" = frag ]; then frag; fi

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
# quarter; a failure names the bound it broke. It grows anyway, on every
# allocator: the live inodes and dentries end up spread over more pages
# than before (fragmentation). Seen on numa4 (2026-12-03): SLQB 1018 ->
# 1636 kB beyond live objects (inode_cache: live 160 kB both times, slabs
# 176 -> 416 kB), SLUB 439 -> 896 kB (inode_cache slabs 208 -> 752 kB); in
# the checks of 2026-12-07, SLQB +59 to +392 kB and Slab: +2.0% to +7.4% on
# smp4 and numa4 (13 runs, 18 to 39 hotplug cycles). The bounds stay: the
# sound +618 kB is two thirds of the sixth, a tighter one would fail on
# that luck. A page pinned per cache and hotplug cycle would be megabytes
# over all caches; a dozen caches at 18 cycles (864 kB) would pass.
# Without the shrink, SLUB kept up to 90% more Slab: here in its per-CPU
# partial slabs, which is caching, not loss. selftest-stress-frag (above:
# harness.stress_break=frag) shows that an overhead grown by megabytes
# fails.
live_before=$(awk '{ s += $2 } END { print s + 0 }' /tmp/caches.before)
live_after=$(awk '{ s += $2 } END { print s + 0 }' /tmp/caches.after)
over_before=$((before - live_before)) over_after=$((after - live_after))
msg="Slab $before kB -> $after kB; beyond live objects $over_before kB -> $over_after kB"
grew_over=$((over_after - over_before)) grew_slab=$((after - before)) why=
if [ "$grew_over" -gt $((before / 6)) ]; then
	why="beyond live objects +$grew_over kB (limit +$((before / 6)) kB)"
fi
if [ "$grew_slab" -gt $((before / 4)) ]; then
	why="${why:+$why, }Slab: +$grew_slab kB (limit +$((before / 4)) kB)"
fi
if [ -z "$why" ]; then
	pass slab-returns "$msg"
else
	fail slab-returns "$msg; over the limits: $why"
	sort -k3 -n -r /proc/slabinfo 2>/dev/null | head -n 10
fi
