#!/bin/bash
# Build every prefix of the series: bisect.sh [--ends]
#
# Uses the git repository series.sh makes (build/series/linux: the pristine
# tarball, then one commit per patch). Each commit is checked out and built
# out of tree into build/series/out/bisect-ALLOC (incrementally, with ccache) with the
# SLQB config once the series has CONFIG_SLQB, and with SLUB before; the
# last commit is built with SLUB too, to show nothing else broke. A prefix
# that does not build stops the run, naming its patch. --ends builds only
# the first and the last prefix (what CI can afford); --only N,M builds just
# those prefixes and appends to the results.
# Results: build/logs/bisect.txt, a line per build.
set -euo pipefail
. "$(dirname "$0")/../lib.sh"

ends=""
only=""
case "${1:-}" in
--ends) ends=1 ;;
--only) only=" ${2//,/ } " ;;	# e.g. --only 3,4: those prefixes, results appended
esac

if [ -z "${SLQB_HOLDS_BUILD_LOCK:-}" ]; then
	with_build_lock "$0" "$@"
	exit
fi

"$HARNESS/dev/series.sh" >/dev/null
git_dir=$BUILD/series/linux
g() { git -C "$git_dir" "$@"; }
mapfile -t commits < <(g rev-list --reverse pristine..slqb)
[ "${#commits[@]}" -gt 0 ] || die "no series commits in $git_dir"

mkdir -p "$LOGS"
results=$LOGS/bisect.txt
[ -n "$only" ] || : > "$results"

# build_prefix N ALLOC: check out commit N (1-based) and build it with ALLOC.
build_prefix() {
	# build/series/out/X beside build/series/linux, as build/out/X is beside
	# build/linux: the same relative paths, so ccache hits across the two.
	local n=$1 alloc=$2 commit=${commits[$(($1 - 1))]} out=$BUILD/series/out/bisect-$2
	local subject log start
	subject=$(g log -1 --format=%s "$commit")
	log=$LOGS/bisect-$n-$alloc.log
	g checkout -q -f "$commit"
	mkdir -p "$out"
	kmake() { kmake_tree "$git_dir" "$out" "$@"; }
	note "prefix $n/${#commits[@]} ($subject), $alloc"
	start=$(date +%s)
	if ! { kmake tinyconfig &&
	       "$git_dir/scripts/kconfig/merge_config.sh" -m -O "$out" "$out/.config" \
		       "$CONFIGS/base.config" "$CONFIGS/$alloc.config" &&
	       kmake olddefconfig &&
	       grep -q "^CONFIG_${alloc^^}=y" "$out/.config" &&
	       kmake -j"$(nproc)" bzImage modules; } > "$log" 2>&1; then
		echo "FAIL prefix $n ($subject) with $alloc: see $log" | tee -a "$results"
		tail -20 "$log" >&2
		die "prefix $n does not build: $subject"
	fi
	echo "PASS prefix $n ($subject) with $alloc, $(($(date +%s) - start)) s" | tee -a "$results"
}

# The first prefix in which the series offers CONFIG_SLQB.
# (grep reads all of it: with -q, git show could die of SIGPIPE, and pipefail.)
has_slqb() { g show "${commits[$(($1 - 1))]}:mm/Kconfig" | grep '^config SLQB$' > /dev/null; }

last=${#commits[@]}
for n in $(seq 1 "$last"); do
	[ -z "$ends" ] || [ "$n" = 1 ] || [ "$n" = "$last" ] || continue
	[ -z "$only" ] || [[ "$only" == *" $n "* ]] || continue
	if has_slqb "$n"; then build_prefix "$n" slqb; else build_prefix "$n" slub; fi
done
[ -n "$only" ] || build_prefix "$last" slub
g checkout -q -f slqb
note "every prefix builds ($results)"
