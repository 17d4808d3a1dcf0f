#!/bin/bash
# slqb_debug against slub_debug on lkdtm's heap and usercopy crash types:
#   lkdtm-compare.sh [LOGDIR]     (make lkdtm-compare [NOBUILD=1])
# Runs the tests.list entries slub-lkdtm-numa2 (slub-lkdtm, slub_debug=FZPU)
# and slqb-lkdtm-numa2 (slqb-lkdtm, slqb_debug=FZPU) through check.sh
# (building the kernels unless NOBUILD=1), or, given LOGDIR, only reads their
# serial logs (slub-lkdtm-numa2.log, slqb-lkdtm-numa2.log) from there. Prints
#   TYPE | SLUB caught/alive | SLQB caught/alive
# from the guests' '@@LKDTM type= caught= alive= how=' lines (a type without
# its line: the guest died on it, alive=no) and fails when SLQB misses a type
# that SLUB catches, or dies where SLUB survives. The table also goes to
# LOGDIR/lkdtm-compare.md.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

TYPES="READ_AFTER_FREE WRITE_AFTER_FREE SLAB_LINEAR_OVERFLOW SLAB_FREE_DOUBLE
SLAB_FREE_CROSS USERCOPY_SLAB_WHITELIST_TO USERCOPY_SLAB_WHITELIST_FROM
USERCOPY_SLAB_SIZE_TO USERCOPY_SLAB_SIZE_FROM SLAB_FREE_PAGE"

if [ $# -ge 1 ]; then
	dir=$1
else
	rc=0
	CHECK_DEBUG=1 "$HARNESS/check.sh" slub-lkdtm-numa2 slqb-lkdtm-numa2 | tee /dev/stderr > "$LOGS/lkdtm-compare.check" || rc=$?
	dir=$(sed -n 's/^check: .*; reports in \(.*\)\/$/\1/p' "$LOGS/lkdtm-compare.check")
	[ -n "$dir" ] || die "check.sh did not run the tests (status $rc)"
fi
for a in slub slqb; do
	[ -f "$dir/$a-lkdtm-numa2.log" ] || die "no $dir/$a-lkdtm-numa2.log"
done

# field LOG TYPE: "caught/alive how" for a type, from the guest's line; a
# type that was provoked without a line: the guest died, what it printed
# after 'provoking TYPE' says whether something was caught.
field() {
	local log=$1 t=$2 line
	line=$(tr -d '\r' < "$log" | grep -o "@@LKDTM type=$t .*" | head -1 || true)
	if [ -n "$line" ]; then
		echo "$line" | sed -E 's/.* caught=([a-z]+) alive=([a-z]+) how=([^ ]+).*/\1\/\2 \3/'
	elif tr -d '\r' < "$log" | grep -q "lkdtm-compare: provoking $t\$"; then
		if tr -d '\r' < "$log" | sed -n "/lkdtm-compare: provoking $t\$/,\$p" |
			grep -qE 'SLQB [^ ]+: .* in object|BUG [^ ]+ \(|Wrong slab cache|not a Slab page|usercopy: Kernel memory|Oops|kernel BUG at|BUG: |WARNING:'
		then echo "yes/no died"
		else echo "no/no died"
		fi
	else
		echo "-/- not-run"
	fi
}

table=$dir/lkdtm-compare.md
bad=()
{
	echo "| type | SLUB caught/alive | SLQB caught/alive | SLUB saw | SLQB saw |"
	echo "| --- | --- | --- | --- | --- |"
	for t in $TYPES; do
		read -r ub uhow <<<"$(field "$dir/slub-lkdtm-numa2.log" "$t")"
		read -r qb qhow <<<"$(field "$dir/slqb-lkdtm-numa2.log" "$t")"
		echo "| $t | $ub | $qb | $uhow | $qhow |"
		if [ "${ub%/*}" = yes ] && [ "${qb%/*}" != yes ]; then bad+=("$t: SLUB catches it, SLQB does not"); fi
		if [ "${ub#*/}" = yes ] && [ "${qb#*/}" != yes ]; then bad+=("$t: SLUB's guest survives, SLQB's does not"); fi
	done
} > "$table"
cat "$table"
echo "(saw: allocator = the allocator's report, common = mm/slab.h's cache_from_obj/virt_to_cache warning, usercopy = hardened usercopy's, oops = an Oops/BUG, warning = a WARNING, poisoned = lkdtm read the poison back)"
echo "table: $table"
if [ ${#bad[@]} -gt 0 ]; then
	printf 'lkdtm-compare: FAIL: %s\n' "${bad[@]}"
	exit 1
fi
echo "lkdtm-compare: PASS: SLQB catches every type SLUB catches, and lives where SLUB does"
