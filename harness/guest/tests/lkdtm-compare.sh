# lkdtm's heap and usercopy crash types, one after the other in one boot,
# against the allocator's own checks (lkdtm flavour: no KASAN nor KFENCE;
# booted with slqb_debug=FZPU or slub_debug=FZPU). Each type is provoked by
# a child shell, so that an oops kills only that shell; after each, one line
#   @@LKDTM type=TYPE caught=yes|no alive=yes how=WORD[+WORD...] child=STATUS
# from the kernel log since the type was provoked. caught=yes: a report of
# the allocator (SLQB's "SLQB <cache>: <what> in object", SLUB's
# "BUG <cache> (...): <what>"), of common slab code (cache_from_obj()'s
# "Wrong slab cache", virt_to_cache()'s "not a Slab page" warnings),
# hardened usercopy's report, or an Oops/BUG/WARNING; for READ_AFTER_FREE,
# which no allocator can see, lkdtm's own "Memory correctly poisoned" (the
# poison of P was read back). how= names what was seen (allocator, common,
# usercopy, oops, warning, poisoned; or none), child= the child's exit status
# (or "hung" when it had not ended after 60 s; the test then goes on).
# harness/lkdtm-compare.sh boots this on both allocators and compares.
#
# harness.lkdtm_types=T1,T2,... runs only these (default: all, least
# destructive first); harness.lkdtm_must=T1,T2,... makes the test FAIL when
# one of them is not caught (tests.list names what SLUB catches).
#
# The reports this provokes on purpose (any of them may appear):
# expect-log: usercopy: Kernel memory exposure attempt detected
# expect-log: usercopy: Kernel memory overwrite attempt detected
# allow-log: Call Trace:
# allow-log: kernel BUG at .*mm/usercopy\.c
# allow-log: BUG [^ ]+ \(.*\): 
# allow-log: BUG: kernel NULL pointer dereference
# allow-log: Oops: 0000
# allow-log: WARNING: .* (cache_from_obj|virt_to_cache|kmem_cache_free|__kmem_cache_free|kfree)
# allow-log: WARNING: .* mm/slab.h
# SLQB's reports (slqb_debug=FZPU: the headline, then the object set aside
# or the free not done, and for a cross-cache free the cache it belongs to),
# as SLUB's 'BUG <cache> (...): ' above.
# allow-log: SLQB [^ ]+: .+ in object 0x[^ ]+ \(size [0-9]+\)
# allow-log: SLQB [^ ]+: object 0x[^ ]+ set aside, not reused
# allow-log: SLQB [^ ]+: the free of 0x[^ ]+ was not done
# allow-log: SLQB [^ ]+: the object belongs to 
# allow-log: SLQB [^ ]+: double free of object 0x
# The taints of the reports (B), warnings (W) and oopses (D):
# allow-taint: BDW
# timeout: 600
. /harness/lib.sh

ALL="READ_AFTER_FREE WRITE_AFTER_FREE SLAB_LINEAR_OVERFLOW SLAB_FREE_DOUBLE
SLAB_FREE_CROSS USERCOPY_SLAB_WHITELIST_TO USERCOPY_SLAB_WHITELIST_FROM
USERCOPY_SLAB_SIZE_TO USERCOPY_SLAB_SIZE_FROM SLAB_FREE_PAGE"
types=$ALL must=
if v=$(cmdline_arg harness.lkdtm_types); then types=$(echo "$v" | tr ',' ' '); fi
if v=$(cmdline_arg harness.lkdtm_must); then must=$(echo "$v" | tr ',' ' '); fi

DIRECT=/sys/kernel/debug/provoke-crash/DIRECT
modprobe lkdtm || { fail lkdtm-compare "modprobe lkdtm failed"; exit 1; }
[ -w $DIRECT ] || { fail lkdtm-compare "no $DIRECT"; exit 1; }
echo "lkdtm-compare: allocator $(allocator), cmdline: $(cat /proc/cmdline)"

# What the new kernel log lines (on stdin) show: the words of how= .
judge() {
	awk '
	/SLQB [^ ]+: .* in object 0x/ || /BUG [^ ]+ \(.*\): / { a = 1 }
	/Wrong slab cache/ || /Object is not a Slab page/ { c = 1 }
	/usercopy: Kernel memory (exposure|overwrite) attempt/ { u = 1 }
	/Oops|kernel BUG at|BUG: |general protection fault/ { o = 1 }
	/WARNING:/ { w = 1 }
	/Memory correctly poisoned/ { p = 1 }
	END {
		s = (a ? " allocator" : "") (c ? " common" : "") (u ? " usercopy" : "") \
		    (o ? " oops" : "") \
		    (w ? " warning" : "") (p ? " poisoned" : "")
		sub(/^ /, "", s); gsub(/ /, "+", s); print s
	}'
}

missed=
for t in $types; do
	dmesg -c > /dev/null
	echo "lkdtm-compare: provoking $t"
	sh -c "echo $t > $DIRECT" &
	pid=$!
	i=0
	while kill -0 $pid 2>/dev/null && [ $i -lt 60 ]; do sleep 1; i=$((i + 1)); done
	if kill -0 $pid 2>/dev/null; then child=hung
	else wait $pid; child=$?
	fi
	sleep 1		# a report from another context (RCU, a worker) may follow
	how=$(dmesg | judge)
	case " $(echo "$how" | tr '+' ' ') " in
	*" allocator "*|*" common "*|*" usercopy "*|*" oops "*|*" warning "*) caught=yes ;;
	*" poisoned "*) if [ "$t" = READ_AFTER_FREE ]; then caught=yes; else caught=no; fi ;;
	*) caught=no ;;
	esac
	# alive: this shell goes on, and can still start programs that allocate.
	alive=no; /bin/true && ls -R /proc/self /sys/kernel/mm > /dev/null 2>&1 && alive=yes
	echo "@@LKDTM type=$t caught=$caught alive=$alive how=${how:-none} child=$child"
	case " $must " in *" $t "*) [ $caught = yes ] || missed="$missed $t" ;; esac
done

if [ -n "$missed" ]; then
	fail lkdtm-compare "not caught:$missed"
else
	pass lkdtm-compare "$(echo $types | wc -w) types provoked, the guest is alive"
fi
