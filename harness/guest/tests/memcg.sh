# Kernel memory accounting through the allocator (SLAB_ACCOUNT caches):
# files made on tmpfs by a task of a child memory cgroup, on the first CPU,
# charge the cgroup their inodes and dentries; removed from the root cgroup
# on the last CPU (SLQB: remote frees, through the rlist), the charge goes
# back; the cgroup, removed, is freed, not left dying. SLUB's run of the
# same test (slub-memcg-numa2) is the reference.
# harness.nfiles=N: the files (default 20000).
# timeout: 400
. /harness/lib.sh

N=$(cmdline_arg harness.nfiles) || N=20000
cg=$(memcg_child memcg) || { fail memcg "no memory cgroup (cgroup2, +memory)"; exit 0; }
root=${cg%/*}
first=$(cut -d, -f1 /sys/devices/system/cpu/online | cut -d- -f1)
last=$(sed 's/.*[,-]//' /sys/devices/system/cpu/online)

slab_bytes() { sed -n 's/^slab \([0-9]*\)$/\1/p' "$cg/memory.stat"; }
objsize() { awk -v c="$1" '$1 == c { print $4 }' /proc/slabinfo; }
vmstat() { awk -v k="$1" '$1 == k { print $2 }' /proc/vmstat; }
dying() { sed -n 's/^nr_dying_descendants //p' "$root/cgroup.stat"; }

settle
dying0=$(dying)
inode=$(objsize shmem_inode_cache)
dentry=$(objsize dentry)
if [ -z "$inode" ] || [ -z "$dentry" ]; then
	fail memcg "shmem_inode_cache or dentry not in /proc/slabinfo (merged?)"
	exit 0
fi
per=$((inode + dentry))
# The charge is batched a CPU at a time, MEMCG_CHARGE_BATCH (64) pages.
slack=$(( $(nproc) * 64 * 4096 ))
want=$((N * per))
mkdir /tmp/memcg
before=$(slab_bytes)
remote0=$(vmstat slqb_remote_free)
# shellcheck disable=SC2016
sh -c 'echo $$ > "$1/cgroup.procs" && cd /tmp/memcg &&
	seq 1 "$2" | exec taskset -c "$3" xargs touch' sh "$cg" "$N" "$first" ||
	fail memcg-make "touch of $N files failed"
made=$(slab_bytes)
grown=$((made - before))
echo "memcg: $N files: slab $before -> $made bytes (+$grown; inode + dentry $per B each: $want)"
if [ $((grown + slack)) -ge $((want * 9 / 10)) ] &&
	[ "$grown" -le $((want * 3 / 2 + slack)) ]; then
	pass memcg-charge "+$grown bytes for $want of objects"
else
	fail memcg-charge "+$grown bytes charged for $want of objects (slack $slack)"
fi

taskset -c "$last" rm -rf /tmp/memcg
# Inodes go after an RCU grace period; poll, then ask reclaim too. What
# may stay: 2% (a run left 0.5 MB of 20 MB at once) and the charge batches.
i=0
while [ $i -lt 30 ]; do
	now=$(slab_bytes)
	left=$((now - before))
	[ "$left" -le $((grown / 50 + slack)) ] && break
	[ $i = 10 ] && settle
	sleep 1
	i=$((i + 1))
done
echo "memcg: removed on CPU $last: slab $now bytes (+$left over the start) after $i s"
if [ "$left" -le $((grown / 50 + slack)) ]; then
	pass memcg-uncharge "+$left bytes left of +$grown"
else
	fail memcg-uncharge "+$left bytes still charged of +$grown, $i s after the files went"
fi
if [ -n "$remote0" ] && [ "$first" != "$last" ]; then
	remote=$(( $(vmstat slqb_remote_free) - remote0 ))
	if [ "$remote" -ge "$N" ]; then
		pass memcg-remote "$remote remote frees"
	else
		fail memcg-remote "$remote remote frees for $N files removed on another CPU"
	fi
fi

rmdir "$cg" || fail memcg-rmdir "rmdir $cg failed"
i=0
while [ $i -lt 60 ] && [ "$(dying)" -gt "$dying0" ]; do
	[ $((i % 10)) = 5 ] && settle
	sleep 1
	i=$((i + 1))
done
if [ "$(dying)" -le "$dying0" ]; then
	pass memcg-dead "the removed cgroup freed after $i s"
else
	fail memcg-dead "$(dying) dying cgroups ($dying0 before) $i s after rmdir"
fi
