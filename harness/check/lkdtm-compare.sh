#!/bin/bash
# slqb_debug against slub_debug on lkdtm's heap and usercopy crash types:
#   lkdtm-compare.sh [LOGDIR]     (make lkdtm-compare [NOBUILD=1])
#   lkdtm-compare.sh --this-check (the test lkdtm-compare-numa2 in tests.list)
# Runs the tests.list entries slub-lkdtm-numa2 (slub-lkdtm, slub_debug=FZPU)
# and slqb-lkdtm-numa2 (slqb-lkdtm, slqb_debug=FZPU) through check.sh
# (building the kernels unless NOBUILD=1), or, given LOGDIR, only reads their
# serial logs (slub-lkdtm-numa2.log, slqb-lkdtm-numa2.log) from there. With
# --this-check (run by check.sh, which exports SLQB_LOGS): reads them from
# the check's own folder, booting with qemu.sh (tests.list's arguments)
# each that this check has not booted, and fails if such a boot fails.
# Prints
#   TYPE | SLUB caught/alive | SLQB caught/alive
# from the guests' '@@LKDTM type= caught= alive= how=' lines (caught=yes:
# the report that should catch the type, and nothing else, see
# guest/tests/lkdtm-types.sh; a type without its line: the guest died on
# it, no/no) and fails when SLQB misses a type that SLUB catches, or dies
# where SLUB survives. The table also goes to LOGDIR/lkdtm-compare.md, and
# as results (harness/results.py) to LOGDIR/lkdtm-compare.jsonl: per type
# and allocator the metrics lkdtm.TYPE.caught and lkdtm.TYPE.alive (1 or 0,
# what the guest saw in their detail), per type a verdict; run with no
# argument (make lkdtm-compare), both go to a record:
# results/DATE-make-lkdtm-compare.md and .jsonl (lib.sh's write_record).
set -euo pipefail
. "$(dirname "$0")/../lib.sh"

TYPES="READ_AFTER_FREE WRITE_AFTER_FREE SLAB_LINEAR_OVERFLOW SLAB_FREE_DOUBLE
SLAB_FREE_CROSS USERCOPY_SLAB_WHITELIST_TO USERCOPY_SLAB_WHITELIST_FROM
USERCOPY_SLAB_SIZE_TO USERCOPY_SLAB_SIZE_FROM SLAB_FREE_PAGE"

if [ "${1:-}" = --this-check ]; then
	[ -n "${SLQB_LOGS:-}" ] || die "--this-check: no SLQB_LOGS (run by check.sh)"
	dir=$SLQB_LOGS
	for t in slub-lkdtm-numa2 slqb-lkdtm-numa2; do
		[ ! -f "$dir/$t.log" ] || continue
		IFS='|' read -r _ _ build topo test _ args < <("$HARNESS/check/check.sh" --list "$t") ||
			die "lkdtm-compare: no test $t in tests.list"
		note "lkdtm-compare: $t not booted by this check: booting it"
		rc=0
		# shellcheck disable=SC2086 # args: kernel arguments, words
		SLQB_LOG_NAME=$t "$HARNESS/boot/qemu.sh" $build $topo $test $args > "$dir/$t.out" 2>&1 || rc=$?
		tail -1 "$dir/$t.out"
		[ "$rc" = 0 ] || { echo "reason: the boot $t failed: $(grep -m1 '^reason: ' "$dir/$t.out" | sed 's/^reason: //')"; exit 1; }
	done
elif [ $# -ge 1 ]; then
	dir=$1
else
	rc=0
	CHECK_DEBUG=1 "$HARNESS/check/check.sh" slub-lkdtm-numa2 slqb-lkdtm-numa2 | tee /dev/stderr > "$LOGS/lkdtm-compare.check" || rc=$?
	dir=$(sed -n 's/^check: .*; reports in \(.*\)\/$/\1/p' "$LOGS/lkdtm-compare.check")
	[ -n "$dir" ] || die "check.sh did not run the tests (status $rc)"
fi
for a in slub slqb; do
	[ -f "$dir/$a-lkdtm-numa2.log" ] || die "no $dir/$a-lkdtm-numa2.log"
done

# field LOG TYPE: "caught/alive how" for a type, from the guest's line; a
# type that was provoked ('lkdtm-types: provoking TYPE'; 'lkdtm-compare:'
# in logs from before the guest test's rename) without a line: the guest
# died on it, which is no catch whatever it printed.
field() {
	local log=$1 t=$2 line
	line=$(tr -d '\r' < "$log" | grep -o "@@LKDTM type=$t .*" | head -1 || true)
	if [ -n "$line" ]; then
		echo "$line" | sed -E 's/.* caught=([a-z]+) alive=([a-z]+) how=([^ ]+).*/\1\/\2 \3/'
	elif tr -d '\r' < "$log" | grep -qE "lkdtm-(types|compare): provoking $t\$"; then
		echo "no/no died"
	else
		echo "-/- not-run"
	fi
}

table=$dir/lkdtm-compare.md jsonl=$dir/lkdtm-compare.jsonl
bad=()
rm -f "$jsonl"
# add_results TYPE ALLOC CAUGHT/ALIVE HOW: the type's two metrics for ALLOC
# (none for a type not run).
add_results() {
	local w v
	for w in caught alive; do
		if [ $w = caught ]; then v=${3%/*}; else v=${3#*/}; fi
		case "$v" in yes) v=1 ;; no) v=0 ;; *) continue ;; esac
		results_add "$jsonl" kind=metric metric="lkdtm.$1.$w" value=$v unit=bool better=higher \
			alloc="$2" build="$2-lkdtm" topology=numa2 detail="saw: $4"
	done
}
{
	echo "| type | SLUB caught/alive | SLQB caught/alive | SLUB saw | SLQB saw |"
	echo "| --- | --- | --- | --- | --- |"
	for t in $TYPES; do
		read -r ub uhow <<<"$(field "$dir/slub-lkdtm-numa2.log" "$t")"
		read -r qb qhow <<<"$(field "$dir/slqb-lkdtm-numa2.log" "$t")"
		echo "| $t | $ub | $qb | $uhow | $qhow |"
		add_results "$t" slub "$ub" "$uhow"
		add_results "$t" slqb "$qb" "$qhow"
		n=${#bad[@]}
		if [ "${ub%/*}" = yes ] && [ "${qb%/*}" != yes ]; then bad+=("$t: SLUB catches it, SLQB does not"); fi
		if [ "${ub#*/}" = yes ] && [ "${qb#*/}" != yes ]; then bad+=("$t: SLUB's guest survives, SLQB's does not"); fi
		if [ "${#bad[@]}" = "$n" ]; then
			results_add "$jsonl" kind=verdict test="lkdtm-compare.$t" result=pass detail="SLUB $ub, SLQB $qb (caught/alive)"
		else
			results_add "$jsonl" kind=verdict test="lkdtm-compare.$t" result=fail detail="$(IFS=';'; echo "${bad[*]:$n}")"
		fi
	done
} > "$table"
cat "$table"
echo "(saw: report = the report that should catch the type (the allocator's, common code's cache_from_obj/virt_to_cache, hardened usercopy's, or lkdtm reading the poison back), crash = an Oops/BUG that is not that report, warning = an unexpected WARNING, other-report = an allocator report of another kind, died = the guest did not live to say)"
echo "table: $table"
if [ $# = 0 ]; then	# make lkdtm-compare, not a check's test nor a re-reading
	write_record make-lkdtm-compare "make lkdtm-compare: slqb_debug against slub_debug on lkdtm's slab crash types" \
		"${NOBUILD:+NOBUILD=1 }harness/check/lkdtm-compare.sh" "$table" "$jsonl"
fi
if [ ${#bad[@]} -gt 0 ]; then
	printf 'lkdtm-compare: FAIL: %s\n' "${bad[@]}"
	echo "reason: ${bad[0]}${bad[1]:+ (and $(( ${#bad[@]} - 1 )) more)}"
	exit 1
fi
echo "lkdtm-compare: PASS: SLQB catches every type SLUB catches, and lives where SLUB does"
