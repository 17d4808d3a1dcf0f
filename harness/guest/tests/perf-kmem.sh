# perf kmem, a real client of the kmem tracepoints (Debian's linux-perf is
# the tree's version): `perf kmem record` over a small workload, then
# `perf kmem stat --caller --slab` must report on the allocator what it
# reports on SLUB: allocations and bytes requested and allocated, per call
# site with the callers' names, fragmentation and cross-CPU allocations.
# Needs a kernel with tracepoints and perf events (the debug flavour).
# needs-prog: perf
# timeout: 600
. /harness/lib.sh

T=/tmp/perf-kmem
mkdir -p "$T"
grep -q " /sys/kernel/tracing " /proc/mounts || mount -t tracefs tracefs /sys/kernel/tracing
# Call sites by name: perf reads /proc/kallsyms, which shows addresses to
# root only when kptr_restrict allows it.
echo 0 > /proc/sys/kernel/kptr_restrict

# The workload: a shell forking, executing, piping and reading files.
work='i=0; while [ $i -lt 20 ]; do ls -lR /proc/self/ > /dev/null 2>&1; i=$((i + 1)); done'
if perf kmem record -o "$T/perf.data" -- sh -c "$work" > "$T/record.out" 2>&1; then
	pass perf-kmem-record "$(grep -o 'Captured and wrote.*' "$T/record.out" | head -1)"
else
	fail perf-kmem-record "status $?: $(tail -3 "$T/record.out" | tr '\n' ' ')"
	exit 0
fi
perf kmem --caller --slab -i "$T/perf.data" stat > "$T/stat.out" 2> "$T/stat.err" ||
	fail perf-kmem-stat "status $?: $(tail -3 "$T/stat.err" | tr '\n' ' ')"
# The first call sites and the summary, for the log.
{ head -8 "$T/stat.out"; sed -n '/^SUMMARY/,$p' "$T/stat.out"; } | sed 's/^/perf-kmem: /'

# summary NAME: the number after "NAME:" in the summary, without commas.
summary() { sed -n "s/^$1: *\([0-9,]*\).*/\1/p" "$T/stat.out" | tr -d , | head -1; }
req=$(summary 'Total bytes requested')
alloc=$(summary 'Total bytes allocated')
check perf-kmem-requested [ "${req:-0}" -gt 0 ]
check perf-kmem-allocated [ "${alloc:-0}" -ge "${req:-1}" ]
check perf-kmem-fragmentation grep -q '^Internal fragmentation: [0-9.]*%' "$T/stat.out"
check perf-kmem-cross-cpu grep -q '^Cross CPU allocations: [0-9,]*/[0-9,]*' "$T/stat.out"
# Call sites: rows "name+off | total/per | req/per | hits | ...", by name.
sites=$(grep -cE '^ *[a-z_][a-zA-Z0-9_.]*\+[0-9a-f]+ +\|' "$T/stat.out")
check perf-kmem-callsites [ "${sites:-0}" -ge 5 ]
exit 0
