# failslab's cache-filter: only the caches marked as its targets fail, by
# slqb_debug=A,CACHE on the command line or by /sys/kernel/slab/CACHE/failslab,
# as with SLUB. The target here is shmem_inode_cache (a file made in a tmpfs
# mount); the task filter keeps the failures to one shell. Boot with
# slqb_debug=A,shmem_inode_cache (or slub_debug=A,shmem_inode_cache).
. /harness/lib.sh

F=/sys/kernel/debug/failslab
C=/sys/kernel/slab/shmem_inode_cache/failslab
grep -q ' /sys/kernel/debug ' /proc/mounts || mount -t debugfs none /sys/kernel/debug
if [ ! -d $F ]; then
	fail failslab "no $F: the kernel needs CONFIG_FAILSLAB"
	exit 0
fi
if [ ! -f $C ]; then
	fail failslab "no $C"
	exit 0
fi
check failslab-cmdline [ "$(cat $C)" = 1 ]
echo Y > $F/cache-filter
echo Y > $F/task-filter
echo N > $F/ignore-gfp-wait
echo 0 > $F/verbose
echo 1 > $F/interval
echo 100 > $F/probability
echo -1 > $F/times
mkdir -p /mnt/failslab
mount -t tmpfs none /mnt/failslab

# attempt NAME: in a shell that failslab may fail, make a file on the tmpfs
# (shmem_inode_cache) and read a /proc file (other caches only).
attempt() {
	sh -c '
		echo 1 > /proc/self/make-it-fail
		if touch /mnt/failslab/'"$1"' 2> /dev/null; then echo made=1; else echo made=0; fi
		if cat /proc/version > /dev/null; then echo read=1; else echo read=0; fi
	'
}

out=$(attempt on-cmdline)
echo "target (slqb_debug=A): $out"
check failslab-target-fails [ "$out" = "$(printf 'made=0\nread=1')" ]
echo 0 > $C
out=$(attempt off)
echo "not a target: $out"
check failslab-untargeted-works [ "$out" = "$(printf 'made=1\nread=1')" ]
echo 1 > $C
out=$(attempt on-sysfs)
echo "target (sysfs): $out"
check failslab-sysfs-target-fails [ "$out" = "$(printf 'made=0\nread=1')" ]
echo 0 > $C
echo 0 > $F/probability
umount /mnt/failslab
