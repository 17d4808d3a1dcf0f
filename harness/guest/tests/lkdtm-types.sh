# lkdtm's heap and usercopy crash types, one after the other in one boot,
# against the allocator's own checks (lkdtm flavour: no KASAN nor KFENCE;
# booted with slqb_debug=FZPU or slub_debug=FZPU). Each type is provoked by
# a child shell, so that an oops kills only that shell; after each, one line
#   @@LKDTM type=TYPE caught=yes|no alive=yes|no how=WORD[+WORD...] child=STATUS
# from the kernel log since the type was provoked. caught=yes only when the
# report that should catch this type is there and nothing else went wrong:
#   READ_AFTER_FREE                lkdtm read the poison back: "Memory
#                                  correctly poisoned (6b6b6b6b)" (no
#                                  allocator can see a read; P poisons)
#   WRITE_AFTER_FREE               the allocator's poison report: SLQB's
#                                  "write after free (poison overwritten) in
#                                  object", SLUB's "BUG kmalloc-1k (...):
#                                  Poison overwritten"
#   SLAB_LINEAR_OVERFLOW           the red zone report: SLQB's "red zone
#                                  overwritten ... in object", SLUB's "Right
#                                  Redzone overwritten"
#   SLAB_FREE_DOUBLE               the double free report in lkdtm's cache:
#                                  SLQB's "double free in object", SLUB's
#                                  "Object already free" or "Slab has N
#                                  allocated objects but M are to be freed"
#   SLAB_FREE_CROSS                common code's cache_from_obj() "Wrong slab
#                                  cache. lkdtm-heap-b but object is from
#                                  lkdtm-heap-a" (SLAB_FREELIST_HARDENED), or
#                                  SLQB's "free into the wrong cache"
#   SLAB_FREE_PAGE                 common code's virt_to_cache() "Object is
#                                  not a Slab page!", or SLQB's "free of a
#                                  pointer outside any cache"
#   USERCOPY_SLAB_{WHITELIST,SIZE}_{TO,FROM}  hardened usercopy's report
#                                  naming the allocator's object ("exposure
#                                  ... from SLQB object 'lkdtm-usercopy'"
#                                  for _TO, "overwrite ... to" for _FROM;
#                                  'kmalloc-...' for the SIZE types)
# Anything else in the type's log lines makes it caught=no: an Oops, a
# "BUG: " (a NULL dereference...), a general protection fault, a "kernel
# BUG at" other than usercopy's own BUG() (the usercopy types' expected
# end: their child shell dies), a WARNING other than common code's in
# mm/slab.h for the two types it catches, or another allocator report.
# how= names what was seen: report (the expected one), crash, warning,
# other-report (an allocator report of another kind), or none; child= the
# child's exit status (or "hung" when it had not ended after 60 s; the test
# then goes on). alive=yes: this shell goes on and can still start programs
# that allocate. harness/check/lkdtm-compare.sh boots this on both allocators and
# compares.
#
# harness.lkdtm_types=T1,T2,... runs only these (default: all, least
# destructive first); harness.lkdtm_must=T1,T2,... makes the test FAIL when
# one of them is not caught, or the guest is not alive after it (tests.list
# names all ten). harness.lkdtm_swap=T=OTHER provokes lkdtm's OTHER where T
# is due, judged as T (the harness self-test selftest-lkdtm-crash: a crash
# in place of the expected report must fail).
#
# The reports this provokes on purpose (the usercopy types: their report,
# then usercopy's BUG(); SLAB_FREE_CROSS and SLAB_FREE_PAGE: common code's
# warning in mm/slab.h):
# expect-log: usercopy: Kernel memory exposure attempt detected
# expect-log: usercopy: Kernel memory overwrite attempt detected
# allow-log: Call Trace:
# allow-log: kernel BUG at [^ ]*mm/usercopy\.c:[0-9]+!
# allow-log: WARNING: CPU: [0-9]+ PID: [0-9]+ at [^ ]*mm/slab\.h:[0-9]+ 
# SLUB's reports (slub_debug=FZPU: mm/slub.c's slab_bug() headline), for
# the write after free and the overflow in kmalloc-1k, the double free in
# lkdtm's cache; and the lines of its report that follow:
# allow-log: BUG (kmalloc-1k|lkdtm-heap-double_free) \((Not tainted|Tainted: [^)]*)\): (Poison overwritten|Right Redzone overwritten|Object already free|Slab has [0-9]+ allocated objects but [0-9]+ are to be freed)
# SLQB's reports (slqb_debug=FZPU: the headline, then the object set aside
# or the free not done, and for a cross-cache free the cache it belongs to):
# allow-log: SLQB kmalloc-1k: (write after free \(poison overwritten\)|red zone overwritten[^)]*\)) in object 0x[^ ]+ \(size [0-9]+\)
# allow-log: SLQB lkdtm-heap-double_free: double free in object 0x[^ ]+ \(size [0-9]+\)
# allow-log: SLQB lkdtm-heap-b: free into the wrong cache in object 0x[^ ]+ \(size [0-9]+\)
# allow-log: SLQB [^ ]+: free of a pointer outside any cache in object 0x[^ ]+ \(size [0-9]+\)
# allow-log: SLQB (kmalloc-1k|lkdtm-heap-double_free): object 0x[^ ]+ set aside, not reused
# allow-log: SLQB [^ ]+: the free of 0x[^ ]+ was not done
# allow-log: SLQB lkdtm-heap-b: the object belongs to lkdtm-heap-a
# The taints of the reports (B), the warnings (W) and the usercopy oopses
# (D):
# allow-taint: BDW
# timeout: 600
. /harness/lib.sh

ALL="READ_AFTER_FREE WRITE_AFTER_FREE SLAB_LINEAR_OVERFLOW SLAB_FREE_DOUBLE
SLAB_FREE_CROSS USERCOPY_SLAB_WHITELIST_TO USERCOPY_SLAB_WHITELIST_FROM
USERCOPY_SLAB_SIZE_TO USERCOPY_SLAB_SIZE_FROM SLAB_FREE_PAGE"
types=$ALL must='' swap=''
if v=$(cmdline_arg harness.lkdtm_types); then types=$(echo "$v" | tr ',' ' '); fi
if v=$(cmdline_arg harness.lkdtm_must); then must=$(echo "$v" | tr ',' ' '); fi
if v=$(cmdline_arg harness.lkdtm_swap); then swap=$v; fi

DIRECT=/sys/kernel/debug/provoke-crash/DIRECT
modprobe lkdtm || { fail lkdtm-types "modprobe lkdtm failed"; exit 1; }
[ -w $DIRECT ] || { fail lkdtm-types "no $DIRECT"; exit 1; }
alloc=$(allocator)
echo "lkdtm-types: allocator $alloc, cmdline: $(cat /proc/cmdline)"
case "$alloc" in
slqb) A=SLQB ;;
slub) A=SLUB ;;
*) fail lkdtm-types "allocator $alloc: only SLQB and SLUB have the reports this test requires"; exit 1 ;;
esac

# expected TYPE: the report that must catch TYPE (an extended regex).
# slub: mm/slub.c slab_bug()'s 'BUG <cache> (<taint>): <what>'.
B='\((Not tainted|Tainted: [^)]*)\): '
expected() {
	case "$A,$1" in
	*,READ_AFTER_FREE) echo 'lkdtm: Memory correctly poisoned \(6b6b6b6b\)' ;;
	SLQB,WRITE_AFTER_FREE) echo 'SLQB kmalloc-1k: write after free \(poison overwritten\) in object 0x' ;;
	SLUB,WRITE_AFTER_FREE) echo "BUG kmalloc-1k ${B}Poison overwritten" ;;
	SLQB,SLAB_LINEAR_OVERFLOW) echo 'SLQB kmalloc-1k: red zone overwritten[^)]*\) in object 0x' ;;
	SLUB,SLAB_LINEAR_OVERFLOW) echo "BUG kmalloc-1k ${B}Right Redzone overwritten" ;;
	SLQB,SLAB_FREE_DOUBLE) echo 'SLQB lkdtm-heap-double_free: double free in object 0x' ;;
	SLUB,SLAB_FREE_DOUBLE) echo "BUG lkdtm-heap-double_free ${B}(Object already free|Slab has [0-9]+ allocated objects but [0-9]+ are to be freed)" ;;
	SLQB,SLAB_FREE_CROSS) echo 'cache_from_obj: Wrong slab cache\. lkdtm-heap-b but object is from lkdtm-heap-a|SLQB lkdtm-heap-b: free into the wrong cache in object 0x' ;;
	SLUB,SLAB_FREE_CROSS) echo 'cache_from_obj: Wrong slab cache\. lkdtm-heap-b but object is from lkdtm-heap-a' ;;
	SLQB,SLAB_FREE_PAGE) echo 'virt_to_cache: Object is not a Slab page!|SLQB [^ ]+: free of a pointer outside any cache in object 0x' ;;
	SLUB,SLAB_FREE_PAGE) echo 'virt_to_cache: Object is not a Slab page!' ;;
	*,USERCOPY_SLAB_WHITELIST_TO) echo "usercopy: Kernel memory exposure attempt detected from $A object 'lkdtm-usercopy'" ;;
	*,USERCOPY_SLAB_WHITELIST_FROM) echo "usercopy: Kernel memory overwrite attempt detected to $A object 'lkdtm-usercopy'" ;;
	*,USERCOPY_SLAB_SIZE_TO) echo "usercopy: Kernel memory exposure attempt detected from $A object 'kmalloc-" ;;
	*,USERCOPY_SLAB_SIZE_FROM) echo "usercopy: Kernel memory overwrite attempt detected to $A object 'kmalloc-" ;;
	*) echo '' ;;
	esac
}

# judge TYPE: the words of how= for the new kernel log lines (on stdin).
judge() {
	local t=$1 ok_bug=0 ok_warn=0
	case "$t" in USERCOPY_*) ok_bug=1 ;; esac
	case "$t" in SLAB_FREE_CROSS|SLAB_FREE_PAGE) ok_warn=1 ;; esac
	# the regex through the environment: awk -v would take its backslashes
	# as string escapes
	RE=$(expected "$t") awk -v ok_bug=$ok_bug -v ok_warn=$ok_warn '
	ENVIRON["RE"] != "" && $0 ~ ENVIRON["RE"] { r = 1; next }
	# usercopy: its BUG() is the expected end of the copy
	ok_bug && (/kernel BUG at [^ ]*mm\/usercopy\.c:[0-9]+!/ || /invalid opcode: 0000 \[#[0-9]+\]/) { next }
	/Oops|kernel BUG at|BUG: |general protection fault|invalid opcode|Unable to handle/ { c = 1 }
	/WARNING:/ { if (!(ok_warn && /WARNING: CPU: [0-9]+ PID: [0-9]+ at [^ ]*mm\/slab\.h:[0-9]+ /)) w = 1 }
	/SLQB [^ ]+: .* in object 0x/ || /BUG [^ ]+ \((Not tainted|Tainted: [^)]*)\): / { o = 1 }
	/usercopy: Kernel memory (exposure|overwrite) attempt/ { o = 1 }
	END {
		s = (r ? " report" : "") (c ? " crash" : "") (w ? " warning" : "") (o ? " other-report" : "")
		sub(/^ /, "", s); gsub(/ /, "+", s); print s
	}'
}

missed=
for t in $types; do
	dmesg -c > /dev/null
	p=$t
	case "$swap" in "$t="*) p=${swap#"$t"=}; echo "lkdtm-types: provoking $p in place of $t (harness.lkdtm_swap)" ;; esac
	echo "lkdtm-types: provoking $t"
	sh -c "echo $p > $DIRECT" &
	pid=$!
	i=0
	while kill -0 $pid 2>/dev/null && [ $i -lt 60 ]; do sleep 1; i=$((i + 1)); done
	if kill -0 $pid 2>/dev/null; then child=hung
	else wait $pid; child=$?
	fi
	sleep 1		# a report from another context (RCU, a worker) may follow
	how=$(dmesg | judge "$t")
	# caught: the expected report, and nothing else went wrong
	case "$how" in report) caught=yes ;; *) caught=no ;; esac
	# alive: this shell goes on, and can still start programs that allocate.
	alive=no; /bin/true && ls -R /proc/self /sys/kernel/mm > /dev/null 2>&1 && alive=yes
	echo "@@LKDTM type=$t caught=$caught alive=$alive how=${how:-none} child=$child"
	case " $must " in *" $t "*)
		[ $caught = yes ] || missed="$missed $t(caught=no,how=${how:-none})"
		[ $alive = yes ] || missed="$missed $t(alive=no)" ;;
	esac
done

if [ -n "$missed" ]; then
	fail lkdtm-types "not caught by the report that should catch it, or the guest died:$missed"
else
	pass lkdtm-types "$(echo $types | wc -w) types provoked, each caught by its expected report, the guest alive after each"
fi
