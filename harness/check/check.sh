#!/bin/bash
# Run the tests of tests.list: check.sh [GLOB...]   (default: all)
#   check.sh --list [GLOB...]  (make check LIST=1 [TESTS=...]) only prints
#   the tests, a line each with its fields as check.sh reads them,
#   name|needs|build|topology|test|expect|args: nothing is built or booted.
# Levels: by default the tests on the slqb, slqb-up and slqb-debug kernels
# (three builds); CHECK_FULL=1 (make check FULL=1) adds the tests that need
# 'full' (the other kernels, SLUB's reference boots); CHECK_DEBUG=1 (make check DEBUG=1) those that
# need debug kernels; CHECK_LONG=1 (make check LONG=1) those that take over
# an hour. A test needing slqb FAILS when the series adds SLQB but the
# composed tree lacks it (a stale tree, e.g. with NOBUILD=1).
# Builds the kernels the selected tests need (build.sh is incremental; with
# NOBUILD=1 a kernel already built is not rebuilt), boots each test with
# qemu.sh, prints 'PASS name [Ns]', 'FAIL name: reason [Ns]' or 'SKIP name:
# why' per test (N: the test's seconds) and closes with 'N passed, N failed[,
# N skipped]', after a line with the seconds spent building and booting.
# Exits 1 on any FAIL.
# Each run keeps its reports in build/logs/check/TIME-PID/ (NAME.out, the
# guests' serial logs, times, summary, and results.jsonl: a verdict line a
# test, harness/results.py), build/logs/check/latest pointing to the last:
# two runs at once (two people on one machine) do not clobber each other.
set -euo pipefail
. "$(dirname "$0")/../lib.sh"

list_only=
if [ "${1:-}" = --list ]; then list_only=1; shift; fi
globs=("$@") named=${1:-}
[ ${#globs[@]} -gt 0 ] || globs=('*')

# shellcheck disable=SC2053 # the globs are globs
selected() { local g; for g in "${globs[@]}"; do [[ $1 == $g ]] && return 0; done; return 1; }

# registry: the tests of tests.list, a line each, its seven fields
# trimmed: name|needs|build|topology|test|expect|args. A line is a matrix:
# it stands for each of its builds (words) on each of its topologies
# (words), builds first, '{alloc}' (the build's allocator) and '{topo}'
# replaced in every field. What a line need not say is derived: a build on
# an up topology is its up flavour (slqb on up: slqb-up), and a slqb build
# needs slqb. Dies, naming the line, on an unknown allocator, flavour,
# topology, guest test or host script, on an up build on an SMP topology,
# and on a name that comes twice.
registry() {
	local n name name1 needs builds topos test expect args b f t alloc rest build need rec
	local -a flavours
	local -A kind=() seen=()
	while read -r t rest; do kind[$t]=$rest; done < <(topology_kinds)
	while IFS='|' read -r n name needs builds topos test expect args; do
		[ -n "$builds" ] && [ -n "$topos" ] || die "tests.list:$n: no build or no topology ('-': none)"
		case "$test" in
		host:*) [ -x "$HARNESS/${test#host:}" ] || die "tests.list:$n: no host script harness/${test#host:}" ;;
		*) [ -f "$HARNESS/guest/tests/$test.sh" ] || die "tests.list:$n: no guest test guest/tests/$test.sh" ;;
		esac
		for b in $builds; do
			alloc='' flavours=()
			if [ "$b" != - ]; then
				alloc=${b%%-*} rest=${b#"$alloc"}
				in_list "$alloc" "$ALLOCS" || die "tests.list:$n: unknown allocator '$alloc' in '$b' (valid: $(list "$ALLOCS"))"
				IFS=- read -r -a flavours <<<"${rest#-}"
				for f in "${flavours[@]}"; do
					in_list "$f" "$FLAVOURS" || die "tests.list:$n: unknown flavour '$f' in '$b' (valid: $(list "$FLAVOURS"))"
				done
			fi
			need=$needs
			[ "$alloc" != slqb ] || in_list slqb "$needs" || need="${needs:+$needs }slqb"
			for t in $topos; do
				[ "$t" = - ] || [ -n "${kind[$t]:-}" ] ||
					die "tests.list:$n: unknown topology '$t' (valid: $(list "$(topology_names)"))"
				build=$b
				if [ "$b" != - ] && [ "$t" != - ]; then
					if in_list up "${flavours[*]}"; then
						[ "${kind[$t]}" = up ] || die "tests.list:$n: the up build '$b' on '$t', an SMP topology"
					elif [ "${kind[$t]}" = up ]; then
						build=$b-up
					fi
				fi
				rec="$name|$need|$build|$t|$test|$expect|$args"
				rec=${rec//\{alloc\}/$alloc} rec=${rec//\{topo\}/$t}
				name1=${rec%%|*}
				[ -z "${seen[$name1]:-}" ] || die "tests.list:$n: test '$name1' again (first at line ${seen[$name1]}; a line of several builds or topologies names its tests with {alloc} or {topo})"
				seen[$name1]=$n
				echo "$rec"
			done
		done
	done < <(awk -F'|' -v OFS='|' '{ for (i = 1; i <= 7; i++) gsub(/^ +| +$/, "", $i) }
		$1 != "" && $1 !~ /^#/ { print NR, $0 }' "$HARNESS/check/tests.list")
}
all=$(registry) || exit 1
tests=()
while read -r t; do
	if selected "${t%%|*}"; then tests+=("$t"); fi
done <<<"$all"
[ ${#tests[@]} -gt 0 ] || die "no test matches '${globs[*]}' (tests: $(list "$(cut -d'|' -f1 <<<"$all" | xargs)"))"
if [ -n "$list_only" ]; then printf '%s\n' "${tests[@]}"; exit 0; fi

results=$LOGS/check/$(date +%Y%m%d-%H%M%S)-$$
mkdir -p "$results"
ln -sfn "${results##*/}" "$LOGS/check/latest"
export SLQB_LOGS=$results		# qemu.sh keeps the serial logs there
start=$(date +%s)

"$HARNESS/check-tools.sh" all
# The tree decides whether SLQB tests run: compose it first (under the build
# lock, as a build in progress reads it), unless NOBUILD says not to touch it.
[ -n "${NOBUILD:-}" ] || with_build_lock "$HARNESS/build/compose.sh"
have_slqb=
grep -q '^config SLQB' "$SRC/mm/Kconfig" 2>/dev/null && have_slqb=1
# Does the series add SLQB? Then a tree without it is stale, not early.
series_slqb=
while read -r p; do
	case "$p" in ''|'#'*) continue ;; esac
	! grep -q '^+config SLQB$' "$REPO/patches/$p" 2>/dev/null || { series_slqb=$p; break; }
done < <(cat "$REPO/patches/series" 2>/dev/null)

# kunit_summary LOG: kunit.py parse's count of the KUnit suites that the
# guest loaded as modules, if any (into the test's .out file). Their KTAP
# comes after the boot's own empty plan ('1..0'), each suite numbered 1:
# it is handed over with a top-level header and plan of its own, the suites
# numbered in turn, and without the reports' lines in between. kunit.py
# exits 1 when a case failed: the guest's verdict decides, not this.
kunit_summary() {
	local n
	[ -f "$1" ] || return 0	# a host-side test has no console log
	n=$(tr -d '\r' < "$1" 2>/dev/null | grep -c '^\[[^]]*\]     # Subtest:') || return 0
	{
		printf 'KTAP version 1\n1..%s\n' "$n"
		tr -d '\r' < "$1" | sed -n '/^\[[^]]*\]     KTAP version 1/,$p' | sed -n 's/^\[[^]]*\] //p' |
			grep -E '^ *(KTAP version|# |[0-9]+\.\.[0-9]+$|(not )?ok [0-9]+ )' |
			awk '/^(not )?ok [0-9]+ / { sub(/ok [0-9]+ /, "ok " ++suite " ") } { print }'
	} | python3 "$SRC/tools/testing/kunit/kunit.py" parse 2>&1 |
		sed -n 's/^\[[0-9:]*\] \(Testing complete\.\)/kunit.py parse: \1/p' || true
}

passed=0 failed=0 skipped=0
secs=	# of the test just run, if it ran: shown after its verdict
say() {	# a line of the check's output, kept for its record
	echo "$*"
	echo "$*" >> "$results/summary"
}
report() {	# report PASS|FAIL|SKIP name [reason]
	case "$1" in
	PASS) passed=$((passed + 1)); say "PASS $2${3:+: $3}${secs:+ [${secs}s]}" ;;
	FAIL) failed=$((failed + 1)); say "FAIL $2: $3${secs:+ [${secs}s]}" ;;
	SKIP) skipped=$((skipped + 1)); say "SKIP $2: $3" ;;
	esac
	# The run's results (results.jsonl): a verdict line a test, with its
	# kernel and topology.
	local ctx=() why=${3:-}
	[ "${build:--}" = - ] || ctx+=(build="$build" alloc="${build%%-*}")
	[ "${topo:--}" = - ] || ctx+=(topology="$topo")
	results_add "$results/results.jsonl" kind=verdict test="$2" result="${1,,}" seconds="$secs" \
		detail="${why//$'\n'/ }" ${ctx[@]+"${ctx[@]}"}
}
# unmet NEEDS: why a test with these needs does not run, if it does not:
# 'SKIP reason' (a level not asked for; SLQB not in the series yet) or
# 'FAIL reason' (SLQB in the series but not in the tree; an unknown need).
unmet() {
	local need
	for need in $1; do
		case "$need" in
		slqb) ;;
		full) [ -n "${CHECK_FULL:-}" ] || { echo "SKIP only with FULL=1 (make check FULL=1: the other kernels, SLUB's references)"; return; } ;;
		debug) [ -n "${CHECK_DEBUG:-}" ] || { echo "SKIP debug kernels are built only with DEBUG=1 (make check DEBUG=1)"; return; } ;;
		long) [ -n "${CHECK_LONG:-}" ] || { echo "SKIP runs over an hour: only with LONG=1 (make check DEBUG=1 LONG=1)"; return; } ;;
		*) echo "FAIL unknown need '$need' in tests.list"; return ;;
		esac
	done
	case " $1 " in *" slqb "*) ;; *) return ;; esac
	[ -z "$have_slqb" ] || return 0
	if [ -n "$series_slqb" ]; then
		echo "FAIL SLQB is not in the composed tree ($SRC/mm/Kconfig has no 'config SLQB'), but the series adds it ($series_slqb): the tree is stale (compose it: make compose, or run without NOBUILD)"
	else
		echo "SKIP SLQB is not in the tree yet (no 'config SLQB' in mm/Kconfig)"
	fi
}

# Build each kernel the runnable tests need, once.
declare -A build_failed=()
build_secs=0 run_secs=0
for t in "${tests[@]}"; do
	IFS='|' read -r name needs build _ <<<"$t"
	[ -z "$(unmet "$needs")" ] || continue
	[ "$build" != - ] || continue	# a host test without a kernel
	[ -z "${build_failed[$build]+x}" ] || continue
	build_failed[$build]=
	if [ "$(kernel_plan "$build")" = keep ]; then
		echo "build $build: kept (NOBUILD)"
		continue
	fi
	echo "build $build: building (log build/logs/build-$build.log)"
	b=$(date +%s)
	rc=0
	build_kernel "$build" > "$results/build-$build.out" 2>&1 || rc=$?
	b=$(( $(date +%s) - b )) build_secs=$((build_secs + b))
	if [ "$rc" = 0 ]; then
		say "build $build: Linux $(cat "$(build_dir "$build")/kernelversion") in ${b}s"
	else
		build_failed[$build]=$(grep -E '^error:' "$results/build-$build.out" | tail -1 | sed 's/^error: //')
		say "build $build: FAILED in ${b}s: ${build_failed[$build]} (see $results/build-$build.out)"
	fi
done

for t in "${tests[@]}"; do
	IFS='|' read -r name needs build topo test expect args <<<"$t"
	secs=
	why=$(unmet "$needs")
	if [ -n "$why" ]; then report "${why%% *}" "$name" "${why#* }"; continue; fi
	if [ -n "${build_failed[$build]:-}" ]; then report FAIL "$name" "build $build failed: ${build_failed[$build]}"; continue; fi
	out=$results/$name.out
	t0=$(date +%s)
	rc=0
	# shellcheck disable=SC2086 # args are kernel arguments (or a host script's), words
	case "$test" in
	host:*) "$HARNESS/${test#host:}" $args > "$out" 2>&1 || rc=$? ;;
	*) SLQB_LOG_NAME=$name "$HARNESS/boot/qemu.sh" "$build" "$topo" "$test" $args > "$out" 2>&1 || rc=$? ;;
	esac
	secs=$(( $(date +%s) - t0 )) run_secs=$((run_secs + secs))
	echo "$name ${secs}s" >> "$results/times"
	reason=$(grep -m1 -E '^reason: |^error: ' "$out" 2>/dev/null | sed -E 's/^(reason|error): //' || true)
	ks=$(kunit_summary "$results/$name.log")
	[ -z "$ks" ] || echo "$ks" >> "$out"
	case "$expect" in
	pass)
		if [ "$rc" = 0 ]; then report PASS "$name" "${ks#kunit.py parse: Testing complete. }"
		else report FAIL "$name" "${reason:-qemu.sh failed (status $rc)}${ks:+; $ks} (see $out)"; fi ;;
	fail:*)
		re=${expect#fail:}
		if [ "$rc" = 0 ]; then
			report FAIL "$name" "the boot passed, but must fail with /$re/ (see $out)"
		elif grep -qE -- "$re" "$out"; then
			report PASS "$name"
		else
			report FAIL "$name" "the boot failed, but not with /$re/: ${reason:-status $rc} (see $out)"
		fi ;;
	*) report FAIL "$name" "unknown expect '$expect' in tests.list" ;;
	esac
	# A failure shows why right here (CI keeps only this output): the
	# offending lines scan-log.sh quoted, between the reasons and the tail.
	# A host script's failure shows its last lines instead.
	if [ "$rc" != 0 ] && [ "$expect" = pass ]; then
		case "$test" in
		host:*) tail -n 8 "$out" | sed 's/^/    /' ;;
		*) sed -n '/^reason: /,/^--- tail of /p' "$out" | grep '^    ' | head -n 12 || true ;;
		esac
	fi
done

total=$(( $(date +%s) - start ))
say "check: ${build_secs}s building kernels, ${run_secs}s booting and running tests, ${total}s in all; reports in $results/"
summary="$passed passed, $failed failed"
[ "$skipped" = 0 ] || summary="$summary, $skipped skipped"
echo "$summary" >> "$results/summary"
# A whole check (no test named) leaves a dated record in results/, the
# summary and its results.jsonl.
if [ -z "$named" ]; then
	write_record make-check "make check" \
		"make check${CHECK_FULL:+ FULL=1}${CHECK_DEBUG:+ DEBUG=1}${CHECK_LONG:+ LONG=1}" \
		"$results/summary" "$results/results.jsonl"
fi
echo "$summary"
[ "$failed" = 0 ] || exit 1	# after the summary, which must be the last line
