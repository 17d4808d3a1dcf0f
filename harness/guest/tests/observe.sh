# Observability: tools/slqbinfo in each of its modes, first against a fixture
# tree (exact numbers), then against the kernel's /sys/kernel/slab (its numbers
# must agree with sysfs); Debian procps slabtop -o and vmstat -m against
# /proc/slabinfo; bad tunables written through sysfs and /proc/slabinfo are
# refused and change nothing, good ones take effect. The allocator checks that
# only SLQB has (tunables, slqb_* counters) are skipped on SLUB/SLAB, so the
# rest runs on any kernel.
# On the host, `sh harness/guest/tests/observe.sh` runs the fixture part only
# (SLQBINFO=path/to/slqbinfo, default tools/slqbinfo/slqbinfo).
# needs-prog: slqbinfo slabtop vmstat
# timeout: 400
if [ -f /harness/lib.sh ]; then
	. /harness/lib.sh
	guest=1
	SQ=${SLQBINFO:-/usr/bin/slqbinfo}
	T=/tmp/observe
else
	. "$(dirname "$0")/../lib.sh"
	guest=
	SQ=${SLQBINFO:-$(dirname "$0")/../../../tools/slqbinfo/slqbinfo}
	T=$(mktemp -d)
	HARNESS_FAILS=$T/fails
fi
rm -rf "$T"
mkdir -p "$T"

# sq ARGS...: run slqbinfo; stdout in $T/out, stderr in $T/err, status in $rc.
sq() {
	rc=0
	"$SQ" "$@" > "$T/out" 2> "$T/err" || rc=$?
}
# data LINE-NAME: the fields of the first output line whose first word is NAME.
data() { awk -v n="$1" '$1 == n { $1 = ""; sub(/^ /, ""); print; exit }' "$T/out"; }
# first: the first word of the first data line (after the header).
first() { awk 'NR == 2 { print $1; exit }' "$T/out"; }
# expect NAME WANT GOT: pass when equal, else fail with both.
expect() {
	if [ "$2" = "$3" ]; then pass "$1" "$3"
	else fail "$1" "want '$2', got '$3' (rc=$rc, stderr: $(head -2 "$T/err" | tr '\n' ' '))"; fi
}
refused() {	# NAME: the last sq must have failed with one line on stderr
	if [ "$rc" != 0 ] && [ "$(wc -l < "$T/err")" -ge 1 ]; then pass "$1" "rc=$rc: $(head -1 "$T/err")"
	else fail "$1" "rc=$rc, stderr: $(cat "$T/err")"; fi
}

[ -x "$SQ" ] || { fail slqbinfo "no slqbinfo binary at $SQ"; exit 1; }

# --- the fixture: two caches, an empty one, an alias, statistics (one of
# them a name slqbinfo has never heard of), /proc/vmstat ---
mkfixture() {
	fx=$1
	rm -rf "$fx"
	mkdir -p "$fx/slab/kmalloc-64" "$fx/slab/big-cache" "$fx/slab/zero-cache" "$fx/proc"
	c=$fx/slab/kmalloc-64
	for kv in object_size=64 slab_size=64 align=64 objs_per_slab=64 order=0 \
		objects=100 total_objects=128 "slabs=2 N0=1 N1=1" "partial=1 C1=1" \
		"cpu_freelist=10 C0=6 C2=4" cpu_rlist=0 "remote_free=3 C3=3" \
		hiwater=1024 freebatch=256 shrink= aliases=1 ctor= hwcache_align=1 \
		reclaim_account=0 poison=0 red_zone=0 store_user=0 sanity_checks=0 \
		destroy_by_rcu=0 "stat_alloc=1000 C0=600 C1=400" \
		"stat_free=900 C0=500 C2=400" "stat_remote_free=300 C2=300" \
		"stat_offnode_alloc=100 C1=100" "stat_page_alloc=2 C0=2" \
		stat_alloc_from_page=0 stat_offnode_free=0 \
		stat_flush_remote_free_cache=0 stat_claim_remote_free_cache=0 \
		stat_flush_free_list=0 stat_page_free_partial=0 \
		stat_page_free_empty=0 stat_page_alloc_partial=0 \
		stat_page_alloc_full=0 stat_page_free=0 "stat_new_event=7 C0=7"; do
		echo "${kv#*=}" > "$c/${kv%%=*}"
	done
	c=$fx/slab/big-cache
	for kv in object_size=4096 slab_size=4096 align=8 objs_per_slab=8 order=3 \
		objects=16 total_objects=16 "slabs=2 N1=2" partial=0 cpu_freelist=0 \
		cpu_rlist=0 remote_free=0 hiwater=16 freebatch=4 shrink= aliases=0 \
		ctor=foo_ctor "stat_alloc=50 C3=50" "stat_free=34 C3=34"; do
		echo "${kv#*=}" > "$c/${kv%%=*}"
	done
	c=$fx/slab/zero-cache
	for kv in object_size=32 slab_size=32 align=8 objs_per_slab=128 order=0 \
		objects=0 total_objects=0 slabs=0 partial=0 hiwater=512 freebatch=128; do
		echo "${kv#*=}" > "$c/${kv%%=*}"
	done
	ln -s kmalloc-64 "$fx/slab/foo-64"
	printf 'nr_free_pages 1000\nslqb_alloc 5000\nslqb_free 4000\nslqb_remote_free 1000\nslqb_new_event 3\n' > "$fx/proc/vmstat"
}

F=$T/fx
mkfixture "$F"
export SLQBINFO_PROC="$F/proc"
sq -k "$F/slab"
expect fx-list "64 100 128 2 1 0 64 8.0K 21.9% 1024 256" "$(data kmalloc-64)"
expect fx-list-big "4096 16 16 2 0 3 8 64K 0.0% 16 4" "$(data big-cache)"
expect fx-list-by-name big-cache "$(first)"
expect fx-list-no-empty "3 " "$(wc -l < "$T/out") $(data zero-cache)"
sq -k "$F/slab" -l
expect fx-list-l "0 big-cache 3" "$rc $(first) $(wc -l < "$T/out")"
sq -k "$F/slab" -z
expect fx-list-zero "32 0 0 0 0 0 128 0 0.0% 512 128" "$(data zero-cache)"
sq -k "$F/slab" -S
expect fx-sort-size big-cache "$(first)"
sq -k "$F/slab" -A
expect fx-sort-activity kmalloc-64 "$(first)"
sq -k "$F/slab" -L
expect fx-sort-loss kmalloc-64 "$(first)"
sq -k "$F/slab" -S -L
expect fx-sort-exclusive 2 "$rc"
sq -k "$F/slab" -N 1
expect fx-lines 2 "$(wc -l < "$T/out")"
sq -k "$F/slab" -a
expect fx-aliases "kmalloc-64" "$(data foo-64)"
export SLQBINFO_SYSFS="$F/slab"
sq -z big
unset SLQBINFO_SYSFS
expect fx-env-regex "0 big-cache" "$(wc -l < "$T/err") $(first)"

sq -k "$F/slab" -n
expect fx-numa-header "Kind Total CPUs N0 N1" "$(data Name)"
expect fx-numa-slabs "2 0 1 1" "$(awk '$1 == "kmalloc-64" && $2 == "slabs" { print $3, $4, $5, $6 }' "$T/out")"
expect fx-numa-partial "1 1 0 0" "$(awk '$1 == "kmalloc-64" && $2 == "partial" { print $3, $4, $5, $6 }' "$T/out")"
expect fx-numa-big "2 0 0 2" "$(awk '$1 == "big-cache" && $2 == "slabs" { print $3, $4, $5, $6 }' "$T/out")"
expect fx-numa-no-empty "5 0" "$(wc -l < "$T/out") $(grep -c zero-cache "$T/out")"
sq -k "$F/slab" -n -z
expect fx-numa-zero "0 0" "$(awk '$1 == "zero-cache" && $2 == "slabs" { print $3, $4 }' "$T/out")"

sq -k "$F/slab" -r foo-64	# an alias names its cache
expect fx-report-alias "kmalloc-64:" "$(awk 'NR == 1 { print $1 }' "$T/out")"
expect fx-report-hiwater 1024 "$(data hiwater)"
expect fx-report-lists "C0 C1 C2 C3 N0 N1" "$(data Lists | cut -d' ' -f2-)"
expect fx-report-slabs "2 0 0 0 0 1 1" "$(data slabs)"
expect fx-report-freelist "10 6 0 4 0 0 0" "$(data cpu_freelist)"
expect fx-report-remote "3 0 0 0 3 0 0" "$(data remote_free)"
expect fx-report-stats "C0 C1 C2" "$(data Statistics | cut -d' ' -f2-)"
expect fx-report-alloc "1000 600 400 0" "$(data stat_alloc)"
expect fx-report-free "900 500 0 400" "$(data stat_free)"
expect fx-report-newstat "7 7 0 0" "$(data stat_new_event)"
expect fx-report-ratio "33.3% of frees" "$(grep -m1 '^  remote ' "$T/out" | sed 's/^  remote *//')"
expect fx-report-flags "hwcache_align" "$(data flags)"
sq -k "$F/slab" -r	# no REGEX: every cache, the empty one too
expect fx-report-all "0 big-cache: kmalloc-64: zero-cache:" "$rc $(grep -o '^[^ ]*: ' "$T/out" | tr -d '\n' | sed 's/ $//')"

sq -k "$F/slab" -T
expect fx-totals "Slab caches: 3 (2 with slabs), 1 aliases, SLQB" "$(sed -n 1p "$T/out")"
expect fx-totals-objects "116 of 144 13" "$(sed -n 's/^Objects: \([0-9]*\) in use of \([0-9]*\) ([^)]*), \([0-9]*\) in per-CPU.*/\1 of \2 \3/p' "$T/out")"
expect fx-totals-slabs "Slabs: 4, 1 partial (25.0%)" "$(grep '^Slabs:' "$T/out")"
expect fx-totals-alloc 1050 "$(data alloc)"
expect fx-totals-newstat 7 "$(data new_event)"

sq -k "$F/slab" -D -I 0
expect fx-activity "1000 900 - - 33.3% 10.0% 2 0 -" "$(data kmalloc-64)"
expect fx-activity-all "1050 934 - - 32.1% 9.5% 2 0" "$(data '(all)')"
expect fx-activity-vmstat "5000 -" "$(data slqb_alloc)"
expect fx-activity-vmstat-new "3 -" "$(data slqb_new_event)"
sq -k "$F/slab" -I 1
expect fx-activity-rate "0 0 0 0" "$(data '(all)' | cut -d' ' -f1-4)"

sq -k "$F/slab" -c kmalloc-64 hiwater=64 freebatch=32
expect fx-tune "0 64 32" "$rc $(cat "$F/slab/kmalloc-64/hiwater") $(cat "$F/slab/kmalloc-64/freebatch")"
for bad in freebatch=0 hiwater=-1 hiwater=abc hiwater= hiwater=16 freebatch=65 bogus=3; do
	sq -k "$F/slab" -c kmalloc-64 "$bad"
	refused "fx-tune-refused:$bad"
	expect "fx-tune-unchanged:$bad" "64 32" "$(cat "$F/slab/kmalloc-64/hiwater") $(cat "$F/slab/kmalloc-64/freebatch")"
done
sq -k "$F/slab" -c kmalloc-64
refused fx-tune-nothing
sq -k "$F/slab" -c nosuch hiwater=8
refused fx-tune-nosuch
sq -k "$F/slab" -s kmalloc
expect fx-shrink "0 1" "$rc $(cat "$F/slab/kmalloc-64/shrink")"

sq -k "$T/nonexistent"
refused fx-no-sysfs
sq -k "$F/slab" nomatch
refused fx-no-match
sq -k "$F/slab" -Q
expect fx-bad-option 2 "$rc"
# slabinfo's letters SLQB has nothing for (three were slqbinfo's before): refused
for o in -d -i -t -v; do
	sq -k "$F/slab" $o 1
	expect "fx-slabinfo-only:$o" "2 1" "$rc $(grep -c "slabinfo's $o" "$T/err")"
done
sq -h
missing=
for o in -l -a -n -r -T -D -I -s -c -S -A -L -z -N -k -p -h; do
	grep -q -- "^  $o, --" "$T/out" || missing="$missing $o"
done
expect fx-help "0 " "$rc $missing"

rm -f "$F"/slab/*/stat_*	# a kernel without CONFIG_SLQB_STATS
for args in "-r kmalloc-64" -T "-D -I 0" -A; do
	# shellcheck disable=SC2086 # args are words
	sq -k "$F/slab" $args
	expect "fx-nostats:$args" "0 1 1" "$rc $(grep -c 'CONFIG_SLQB_STATS' "$T/err") $(grep -c -m1 . "$T/out")"
done
sq -k "$F/slab" -r kmalloc-64
expect fx-nostats-report "64 10 6 0 4 0 0 0" "$(data hiwater) $(data cpu_freelist)"
unset SLQBINFO_PROC

if [ -z "$guest" ]; then
	n=0
	[ ! -s "$HARNESS_FAILS" ] || n=$(wc -l < "$HARNESS_FAILS")
	echo "observe (fixture only, on the host): $n failed"
	rm -rf "$T"
	[ "$n" = 0 ]
	exit
fi

# --- the kernel's sysfs ---
alloc=$(allocator)
if [ "$alloc" = slqb ]; then slqb=1; else slqb=; fi
S=/sys/kernel/slab
if [ -d $S ]; then
	have_sysfs=1
	echo "observe: allocator $alloc, $(ls $S | wc -l) entries in $S"
else
	have_sysfs=
	fail sysfs "no $S: slqbinfo's checks against sysfs skipped"
fi

if [ -n "$have_sysfs" ]; then
	t0=$(date +%s) runs=0
	for args in "" -l -S -A -L -z -a -n "-n -z" "-N 5" -T '-r ^kmalloc-64$' \
		"-D -I 1" "-D -I 0" "-I 2 kmalloc"; do
		runs=$((runs + 1))
		# shellcheck disable=SC2086 # args are words
		sq $args
		if [ "$rc" = 0 ] && [ -s "$T/out" ]; then
			pass "mode:${args:-list}" "$(wc -l < "$T/out") lines$([ -s "$T/err" ] && echo ", stderr: $(head -1 "$T/err")")"
		else
			fail "mode:${args:-list}" "rc=$rc, $(wc -l < "$T/out") lines, stderr: $(head -2 "$T/err")"
		fi
	done
	echo "observe: slqbinfo's $runs runs took $(($(date +%s) - t0)) s"
	sq -k /sys/kernel/nonexistent
	refused no-sysfs
	sq nosuchcache
	refused no-match

	# First field of a sysfs file, or '-'.
	f1() { if [ -r "$S/$1/$2" ]; then cut -d' ' -f1 < "$S/$1/$2"; else echo -; fi; }
	# sysfs_row NAME: the list's columns from sysfs into $row, without a fork
	# (a fork allocates from the very caches being compared).
	sysfs_row() {
		row=
		for a in object_size objects total_objects slabs partial order objs_per_slab; do
			v=-
			[ ! -r "$S/$1/$a" ] || read -r v _ < "$S/$1/$a"
			row="${row:+$row }$v"
		done
	}
	# The list's numbers against sysfs, for caches that hold still while read.
	compared=0 moving=""
	# (not task_struct, mm_struct, radix_tree_node, ...: running slqbinfo
	# allocates from them)
	for name in kmalloc-64 kmalloc-128 kmalloc-256 kmalloc-512 kmalloc-1k \
		kmalloc-2k kmalloc-4k kmem_cache kmem_cache_node shmem_inode_cache; do
		[ -d "$S/$name" ] && [ ! -L "$S/$name" ] || continue
		[ -r "$S/$name/objects" ] || continue
		ok=
		for try in 1 2 3; do
			sysfs_row "$name"
			before=$row
			sq -z "^$name\$"	# -z: an empty cache too
			sysfs_row "$name"
			after=$row
			[ "$before" = "$after" ] || continue
			got=$(data "$name" | cut -d' ' -f1-7)
			if [ "$got" = "$after" ]; then pass "agree:$name" "$got (try $try)"
			else fail "agree:$name" "slqbinfo '$got', sysfs '$after'"; fi
			ok=1 compared=$((compared + 1))
			break
		done
		[ -n "$ok" ] || moving="$moving $name"
	done
	if [ "$compared" -ge 3 ]; then pass agree "$compared caches compared${moving:+, moving:$moving}"
	else fail agree "only $compared caches held still (moving:$moving)"; fi

	caches=0 aliases=0
	for e in "$S"/*; do
		if [ -L "$e" ]; then aliases=$((aliases + 1))
		elif [ -d "$e" ]; then caches=$((caches + 1)); fi
	done
	sq -T
	expect totals-caches "$caches $aliases" "$(sed -n 's/^Slab caches: \([0-9]*\) .*, \([0-9]*\) aliases.*/\1 \2/p' "$T/out")"
	sq -a
	expect aliases-listed "$aliases" "$(($(wc -l < "$T/out") - 1))"

	sq -r '^kmalloc-64$'
	expect report-object_size "$(f1 kmalloc-64 object_size)" "$(data object_size)"
	expect report-order "$(f1 kmalloc-64 order)" "$(data order | cut -d' ' -f1)"
	if [ -r $S/kmalloc-64/stat_alloc ]; then
		expect report-stats "0 1" "$(grep -c CONFIG_SLQB_STATS "$T/err") $(grep -c '^  Statistics' "$T/out")"
	elif [ -n "$slqb" ]; then
		expect report-nostats "1" "$(grep -c CONFIG_SLQB_STATS "$T/err")"
	fi

	sq -n -z '^kmalloc-64$'
	expect numa-rows "slabs partial" "$(awk '$1 == "kmalloc-64" { printf "%s%s", s, $2; s = " " }' "$T/out")"

	# Activity while something allocates: slqb_* events must move.
	"$SQ" -D -I 2 > "$T/act" 2>&1 &
	act=$!
	ls -lR /sys /proc/sys > /dev/null 2>&1
	wait $act
	rc=$?
	mv "$T/act" "$T/out"
	if [ -n "$slqb" ]; then
		# shellcheck disable=SC2046 # the fields
		set -- $(data slqb_alloc)
		if [ "$rc" = 0 ] && [ "${1:-0}" -gt 0 ]; then pass activity-vmstat "slqb_alloc +$1 in 2 s"
		else fail activity-vmstat "rc=$rc, slqb_alloc '$*': $(tail -20 "$T/out" | tr '\n' '|')"; fi
		if [ -r $S/kmalloc-64/stat_alloc ]; then
			# shellcheck disable=SC2046 # the fields
			set -- $(data '(all)')
			if [ "${1:-0}" -gt 0 ]; then pass activity-stats "allocs $1 frees $2"
			else fail activity-stats "(all): '$*'"; fi
		fi
	else
		expect activity-no-slqb-counters 1 "$(grep -c 'no slqb_\* counters' "$T/out")"
	fi

	sq -s '^kmalloc-64$'
	expect shrink "0 slabs" "$rc $(data kmalloc-64 | cut -d' ' -f1)"
fi

# --- procps: slabtop -o and vmstat -m read /proc/slabinfo ---
slabinfo_caches=$(($(wc -l < /proc/slabinfo) - 2))
vm=$(command -v vmstat)
if [ "$vm" = /usr/bin/vmstat ] && /usr/bin/vmstat -V 2>&1 | grep -q procps; then
	pass procps-vmstat "$(/usr/bin/vmstat -V 2>&1 | head -1)"
else
	fail procps-vmstat "vmstat is '$vm': $(vmstat -V 2>&1 | head -1)"
fi
size64=$(awk '$1 == "kmalloc-64" { print $4 }' /proc/slabinfo)
rc=0
slabtop -o > "$T/out" 2> "$T/err" || rc=$?
n=$(awk '/^ *[0-9]+ +[0-9]+ +[0-9]+%/' "$T/out" | wc -l)
sed -n '1,12p' "$T/out"
if [ "$rc" = 0 ] && grep -q 'Active / Total Caches' "$T/out" && [ "$n" -ge 10 ] &&
	awk '$NF == "kmalloc-64" { f = 1 } END { exit !f }' "$T/out"; then
	pass slabtop "$n caches listed, kmalloc-64 among them; $(grep 'Active / Total Caches' "$T/out" | sed 's/  */ /g')"
else
	fail slabtop "rc=$rc, $n cache lines, stderr: $(head -2 "$T/err")"
fi
rc=0
/usr/bin/vmstat -m > "$T/out" 2> "$T/err" || rc=$?
sed -n '1,6p' "$T/out"
# The caches of /proc/slabinfo that vmstat -m does not list.
missing=$(awk 'NR == FNR { if (FNR > 2) want[$1] = 1; next } { seen[$1] = 1 }
	END { for (n in want) if (!(n in seen)) printf " %s", n }' /proc/slabinfo "$T/out")
if [ "$rc" = 0 ] && [ -z "$missing" ] &&
	[ "$(awk '$1 == "kmalloc-64" { print $4 }' "$T/out")" = "$size64" ]; then
	pass vmstat-m "all $slabinfo_caches caches of /proc/slabinfo listed, kmalloc-64 size $size64"
else
	fail vmstat-m "rc=$rc, not listed:${missing:- none}, kmalloc-64 '$(grep -w kmalloc-64 "$T/out")', stderr: $(head -2 "$T/err")"
fi
expect slabinfo-version "slabinfo - version: 2.1" "$(head -1 /proc/slabinfo)"

# SLQB's slabs may be of two orders (a busy cache keeps the minimum-order
# slabs of its youth): /proc/slabinfo counts them in slabs of the order it
# shows, so that num_slabs x pagesperslab is the pages sysfs counts,
# rounded up to a slab. At least one cache must have slabs of two orders
# (task_struct: busy by now), or this compares nothing of the kind.
if [ -n "$slqb" ]; then
	compared=0 mixed='' bad=''
	for d in "$S"/*/; do
		name=${d%/} name=${name##*/}
		[ -L "$S/$name" ] && continue
		p0=$(cut -d' ' -f1 "$d/pages") || continue
		# num_slabs and pagesperslab
		line=$(awk -v c="$name" '$1 == c { print $15, $6 }' /proc/slabinfo)
		num=${line% *} pps=${line#* }
		slabs=$(cut -d' ' -f1 "$d/slabs") order=$(cat "$d/order")
		[ "$(cut -d' ' -f1 "$d/pages")" = "$p0" ] && [ -n "$line" ] || continue
		compared=$((compared + 1))
		[ "$p0" = $((slabs << order)) ] || mixed="$mixed $name($slabs slabs, $p0 pages)"
		over=$((num * pps - p0))
		[ "$over" -ge 0 ] && [ "$over" -lt "$pps" ] || bad="$bad $name($num x $pps for $p0 pages)"
	done
	if [ -z "$bad" ] && [ -n "$mixed" ]; then
		pass slabinfo-pages "$compared caches; of two orders:$mixed"
	else
		fail slabinfo-pages "$compared caches; wrong:${bad:- none}; of two orders:${mixed:- none}"
	fi
fi

if [ -z "$slqb" ]; then
	pass tunables "skipped: $alloc has no SLQB tunables"
	exit 0
fi

# --- tunables: bad values refused and nothing changes; good ones take effect ---
C=kmalloc-64
D=$S/$C
slabinfo_tun() { awk -v n=$C '$1 == n { print $9, $10 }' /proc/slabinfo; }
# hiwater and freebatch: from sysfs, else from /proc/slabinfo's tunables columns
if [ -n "$have_sysfs" ]; then
	tun() { echo "$(cat $D/hiwater) $(cat $D/freebatch)"; }
	orig=$(tun)
	expect slabinfo-tunables "$orig" "$(slabinfo_tun)"
else
	tun() { slabinfo_tun; }
	orig=$(tun)
fi
# shellcheck disable=SC2086 # the fields
set -- $orig
hw0=$1 fb0=$2
hw1=$((hw0 + 8)) fb1=$(((fb0 + 1) / 2))
echo "observe: $C hiwater $hw0 freebatch $fb0; good values $hw1 $fb1"

# write VALUE FILE: status 0 when the write succeeded. BusyBox's echo, not
# its printf, reports a failed write ("sh: write error: Invalid argument").
write() { echo "$1" > "$2"; }

if [ -n "$have_sysfs" ]; then
	for f in hiwater freebatch; do
		for v in 0 -1 abc "" 1x 99999999999999999999; do
			if write "$v" "$D/$f" 2> "$T/werr"; then
				fail "sysfs-refused:$f=$v" "the write succeeded: now $(tun)"
			else
				pass "sysfs-refused:$f=$v" "$(tr '\n' ' ' < "$T/werr")"
			fi
			expect "sysfs-unchanged:$f=$v" "$orig" "$(tun)"
		done
	done
	for case in "freebatch $((hw0 + 1))" "hiwater $((fb0 - 1))"; do
		# shellcheck disable=SC2086 # the fields
		set -- $case
		[ "$2" -ge 1 ] || continue
		if write "$2" "$D/$1" 2> "$T/werr"; then fail "sysfs-refused:$1=$2" "accepted (was $orig)"
		else pass "sysfs-refused:$1=$2" "$(tr '\n' ' ' < "$T/werr")"; fi
		expect "sysfs-unchanged:$1=$2" "$orig" "$(tun)"
	done
	write 0 $D/hiwater 2> "$T/werr"
	expect sysfs-einval "write error: Invalid argument" "$(sed 's/^.*: write error/write error/' "$T/werr")"

	write $hw1 $D/hiwater 2> "$T/werr" && write $fb1 $D/freebatch 2>> "$T/werr"
	expect sysfs-good "$hw1 $fb1" "$(tun)"
	expect sysfs-good-slabinfo "$hw1 $fb1" "$(slabinfo_tun)"
	write "$hw0" $D/hiwater && write "$fb0" $D/freebatch
	expect sysfs-restored "$orig" "$(tun)"
fi

for line in "$C 0 0 0" "$C -1 -1 0" "$C abc 8 0" "$C 8 16 0" "$C 0 8 0" \
	"$C 8 0 0" "$C 8" "nosuchcache 16 8 0"; do
	if write "$line" /proc/slabinfo 2> "$T/werr"; then
		fail "slabinfo-refused:$line" "accepted: now $(tun)"
	else
		pass "slabinfo-refused:$line" "$(tr '\n' ' ' < "$T/werr")"
	fi
	expect "slabinfo-unchanged:$line" "$orig" "$(tun)"
done
if write "$C $hw1 $fb1 0" /proc/slabinfo 2> "$T/werr"; then
	expect slabinfo-good "$hw1 $fb1 $hw1 $fb1" "$(tun) $(slabinfo_tun)"
else
	fail slabinfo-good "refused: $(cat "$T/werr")"
fi
write "$C $hw0 $fb0 0" /proc/slabinfo
expect slabinfo-restored "$orig" "$(tun)"

if [ -n "$have_sysfs" ]; then	# the same through slqbinfo -c
	sq -c $C hiwater=$hw1 freebatch=$fb1
	expect slqbinfo-tune "0 $hw1 $fb1" "$rc $(tun)"
	sq -c $C freebatch=$((hw1 + 1))
	refused slqbinfo-tune-refused
	expect slqbinfo-tune-unchanged "$hw1 $fb1" "$(tun)"
	sq -c $C hiwater=$hw0 freebatch=$fb0
	expect slqbinfo-tune-restored "0 $orig" "$rc $(tun)"
fi
exit 0
