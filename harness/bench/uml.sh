#!/bin/bash
# Native single-CPU microbenchmark: slab_bench built into user-mode Linux
# (ARCH=um, uniprocessor) for each allocator, run at boot, compared.
#   uml.sh [-r ROUNDS] [-a "ALLOCS"] [-n NOBJ] [-R REPS] [-o ONLY] [-q] [-B]
#   -r ROUNDS  interleaved rounds (A B C, B C A, ...; default 9: a boot
#              takes about a second)
#   -a ALLOCS  allocators (default "slqb slub slab"; SLUB is the reference)
#   -n NOBJ    slab_bench.nobj (N, default 10000); -R REPS slab_bench.reps
#              (timed repetitions, the fastest kept; default 10: a boot's
#              whole benchmark takes well under a second natively)
#   -o ONLY    slab_bench.only=
#              (default: every group; remote and hand-off need 2 CPUs: skipped)
#   -q         slab_bench.quick (N 5000, 2 timed repetitions)
#   -B         do not build: use build/out/um-ALLOC as it is (-b: only build)
# Why UML: TCG guests distort the cost of atomics and model no caches; in UML
# the kernel's code runs natively as a host process. UML 6.1's first user
# process dies on CPUs with a large XSAVE area ("ptrace set fp regs failed,
# errno = 14"), so slab_bench is built in (a late initcall) and runs before
# init; the kernel then panics for want of a root/init and is ended.
# Build: build/linux is composed (compose.sh) and copied with hard links to build/linux-um (re-made each
# time, under the build lock, as the composed tree can change), where
# mm/Makefile is REPLACED (never edited: hard links) by one that also builds
# mm/slab_bench.c, a copy of harness/modules/slab_bench/slab_bench.c. The
# kernels are built with ccache into build/out/um-ALLOC from tinyconfig +
# harness/bench/uml.config + CONFIG_ALLOC=y; their merged configs are diffed
# and must differ in allocator symbols only.
# Results: build/bench/uml-TIME/ (logs/, results.jsonl, config-diff.txt,
# info.txt; build/bench/uml-latest links to it) and two tables (report.py,
# native targets), both printed: table.txt, each allocator's median over the
# rounds, and table-best.txt, its best round. The host's noise here only ever
# slows a run down, and in phases (whole stretches of a boot ~1.5x slower, on
# every allocator alike), so the best round is the steadier comparison.
set -euo pipefail
. "$(dirname "$0")/../lib.sh"
command="harness/bench/uml.sh $*"

rounds=9 allocs="slqb slub slab" nobj=10000 reps=10 only="" quick=0 nobuild=0 buildonly=0
while getopts "r:a:n:R:o:qBb" opt; do
	case $opt in
	r) rounds=$OPTARG ;;
	a) allocs=$OPTARG ;;
	n) nobj=$OPTARG ;;
	R) reps=$OPTARG ;;
	o) only=$OPTARG ;;
	q) quick=1 ;;
	B) nobuild=1 ;;
	b) buildonly=1 ;;
	*) die "usage: uml.sh [-r ROUNDS] [-a ALLOCS] [-n NOBJ] [-R REPS] [-o ONLY] [-q] [-B]" ;;
	esac
done
read -r -a kernels <<< "$allocs"
[ "${#kernels[@]}" -gt 0 ] || die "no allocator given"
for a in "${kernels[@]}"; do
	case " $ALLOCS " in *" $a "*) ;; *) die "unknown allocator '$a' (valid: $(list "$ALLOCS"))" ;; esac
done

UMLSRC=$BUILD/linux-um
FRAG=$HARNESS/bench/uml.config
BENCHSRC=$HARNESS/modules/slab_bench/slab_bench.c
kmake() {
	local out=$1; shift
	kmake_tree "$UMLSRC" "$out" ARCH=um SUBARCH=x86_64 "$@"	# the last ARCH= wins
}

# The composed tree, hard-linked, plus slab_bench built into mm/. Run under
# this clone's build lock (compose.sh rewrites build/linux under it).
make_tree() {
	"$HARNESS/build/compose.sh"	# as build.sh: the series and new files as they are now
	rm -rf "$UMLSRC.new"
	cp -al "$SRC" "$UMLSRC.new"
	rm "$UMLSRC.new/mm/Makefile"
	{ cat "$SRC/mm/Makefile"; printf '\n# harness/bench/uml.sh: the microbenchmark, built in\nobj-y += slab_bench.o\n'; } \
		> "$UMLSRC.new/mm/Makefile"
	cp -p "$BENCHSRC" "$UMLSRC.new/mm/slab_bench.c"
	rm -rf "$UMLSRC"
	mv "$UMLSRC.new" "$UMLSRC"
}

build_one() {
	local a=$1 out=$OUTS/um-$1 log=$LOGS/build-um-$1.log start
	local sym stamp
	sym=$(echo "$a" | tr '[:lower:]' '[:upper:]')
	mkdir -p "$out" "$LOGS"
	start=$(date +%s)
	: > "$log"
	# As build.sh: the config is remade only when the fragment, the composed
	# tree's patches or the series' Kconfig files changed (make is incremental).
	stamp=$(config_stamp "$sym" "$FRAG")
	if [ ! -f "$out/.config" ] || [ "$(cat "$out/.config-stamp" 2>/dev/null)" != "$stamp" ]; then
		note "configuring um-$a (ARCH=um tinyconfig + uml.config + CONFIG_$sym=y)"
		rm -f "$out/.config-stamp"
		printf 'CONFIG_%s=y\n' "$sym" > "$out/alloc.config"
		{
			kmake "$out" tinyconfig &&
			"$UMLSRC/scripts/kconfig/merge_config.sh" -m -O "$out" "$out/.config" "$FRAG" "$out/alloc.config" &&
			kmake "$out" olddefconfig
		} >> "$log" 2>&1 || { tail -30 "$log" >&2; die "configuring um-$a failed (log: $log)"; }
		"$HARNESS/build/verify-config.sh" "$out/.config" "$a" "$FRAG" "$out/alloc.config" 2>&1 | tee -a "$log" >&2
		[ "${PIPESTATUS[0]}" = 0 ] || die "config of um-$a is not what the fragments ask for (log: $log)"
		echo "$stamp" > "$out/.config-stamp"
	fi
	note "building um-$a: make ARCH=um -j${JOBS:-2} linux (log: $log)"
	if ! kmake "$out" -j"${JOBS:-2}" linux >> "$log" 2>&1; then
		grep -E 'error:|Error [0-9]' "$log" | head -20 >&2 || true
		tail -20 "$log" >&2
		die "building um-$a failed (log: $log)"
	fi
	note "um-$a built in $(( $(date +%s) - start ))s: $out/linux"
}

if [ "$nobuild" = 0 ]; then
	if [ -z "${SLQB_HOLDS_BUILD_LOCK:-}" ]; then
		# One kernel build at a time on this machine: the lock is held for the
		# copy and all the builds (the copy must not change under them).
		with_build_lock "$0" -b -a "${kernels[*]}"
	else
		"$HARNESS/check-tools.sh" build
		# The build lock may be another clone's (SLQB_BUILD_LOCK): this
		# clone's own then keeps compose.sh off build/linux during the copy.
		if [ -n "${SLQB_BUILD_LOCK:-}" ] && [ "$SLQB_BUILD_LOCK" != "$BUILD/.build.lock" ]; then
			exec 8> "$BUILD/.build.lock"
			flock 8
			make_tree
			exec 8>&-
		else
			make_tree
		fi
		for a in "${kernels[@]}"; do build_one "$a"; done
	fi
fi
[ "$buildonly" = 0 ] || exit 0
for a in "${kernels[@]}"; do
	[ -x "$OUTS/um-$a/linux" ] || die "no UML kernel um-$a ($OUTS/um-$a/linux): run without -B"
done

stamp=uml-$(date -u +%Y%m%d-%H%M%S)
res=$BUILD/bench/$stamp
mkdir -p "$res/logs"
ln -sfn "$stamp" "$BUILD/bench/uml-latest"

# Only the allocator differs (and what Kconfig derives from the choice).
args=()
for a in "${kernels[@]}"; do args+=("um-$a=$OUTS/um-$a/.config"); done
only_allocator_differs "$res/config-diff.txt" "${args[@]}" ||
	die "the UML kernels' configs differ beyond the allocator (see $res/config-diff.txt)"
note "configs: only the allocator differs ($(grep -c '^[<>]' "$res/config-diff.txt" || true) symbol lines: $res/config-diff.txt)"

{
	echo "date: $(date -u '+%Y-%m-%d %H:%M UTC')"
	echo "host: $(uname -r), $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //'), $(nproc) CPUs"
	echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
	echo "rounds=$rounds nobj=$nobj reps=$reps quick=$quick only=${only:-all}"
	for a in "${kernels[@]}"; do
		echo "kernel um-$a: built $(stat -c %y "$OUTS/um-$a/linux" | cut -d. -f1), $(grep -E '^CONFIG_(SLAB|SLUB|SLQB)[A-Z_]*=' "$OUTS/um-$a/.config" | sed 's/^CONFIG_//' | xargs)"
	done
} > "$res/info.txt"
cat "$res/info.txt" >&2

# One boot: the kernel runs slab_bench at boot, prints @@BENCH lines, then
# panics (no init). Its exit ends the run; the timeout is a backstop.
params=(mem=384M "slab_bench.nobj=$nobj" "slab_bench.reps=$reps")
[ "$quick" = 0 ] || params+=(slab_bench.quick=1)
[ -z "$only" ] || params+=("slab_bench.only=$only")
boot() {
	local a=$1 log=$2 tmp
	tmp=$(mktemp -d "$res/run.XXXXXX")
	(
		cd "$tmp"
		ulimit -c 0
		# UML's memory is a file in TMPDIR: tmpfs, never a disk.
		[ ! -d /dev/shm ] || export TMPDIR=/dev/shm
		timeout -k 5 "${UML_TIMEOUT:-900}" "$OUTS/um-$a/linux" "${params[@]}" "uml_dir=$tmp" \
			< /dev/null > "$log" 2>&1 || true
	)
	rm -rf "$tmp"
	grep -q '@@BENCH-DONE' "$log"
}

# Each boot's @@BENCH lines and its verdict go to results.jsonl
# (harness/results.py).
n=${#kernels[@]} failed=0
for ((r = 1; r <= rounds; r++)); do
	for ((i = 0; i < n; i++)); do
		a=${kernels[$(( (i + r - 1) % n ))]}
		log=$res/logs/$a.r$r.log
		t0=$(date +%s)
		keys=(alloc="$a" build="um-$a" round="$r")
		if ! boot "$a" "$log"; then
			echo "round $r: um-$a did not finish the benchmark (log: $log):" >&2
			tail -15 "$log" >&2
			failed=1
			results_add "$res/results.jsonl" kind=verdict test="$a.r$r" result=fail seconds=$(( $(date +%s) - t0 )) \
				detail="did not finish the benchmark" "${keys[@]}"
			continue
		fi
		errs=$(sed -n 's/.*@@BENCH-DONE errors=\([0-9]*\).*/\1/p' "$log" | tail -1)
		[ "$errs" = 0 ] || { echo "round $r: um-$a: slab_bench reported $errs error(s) (log: $log)" >&2; failed=1; }
		results_log "$res/results.jsonl" "$log" "${keys[@]}"
		results_add "$res/results.jsonl" kind=verdict test="$a.r$r" result="$([ "$errs" = 0 ] && echo pass || echo fail)" \
			seconds=$(( $(date +%s) - t0 )) detail="slab_bench: $errs error(s)" "${keys[@]}"
		note "round $r/$rounds: um-$a done in $(( $(date +%s) - t0 ))s ($(grep -c '@@BENCH metric=' "$log") results)"
	done
done
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)" >> "$res/info.txt"

"$HARNESS/bench/report.py" "$res" native
echo
echo "=== the same, each allocator's best round (table-best.txt) ==="
"$HARNESS/bench/report.py" "$res" native best
note "results: $res"
[ "$failed" = 0 ] || die "some boots failed or reported errors (see above)"
write_record make-bench-uml "make bench-uml: SLQB, SLUB, SLAB natively (UML, UP)" \
	"$command" "$res/info.txt" "$res/table-best.txt" "$res/table.txt" "$res/results.jsonl" \
	"$res/ratios-best.png"
