# Shared shell helpers for the harness. Sourced, never run.
# shellcheck shell=bash

HARNESS=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO=$(cd "$HARNESS/.." && pwd)
BUILD=${SLQB_BUILD:-$REPO/build}
TARBALL=${SLQB_TARBALL:-/usr/src/linux-source-6.1.tar.xz}
SRC=$BUILD/linux			# the composed tree
PRISTINE=$BUILD/pristine		# the tarball, unpacked once

die() { echo "error: $*" >&2; exit 1; }
# set -e ends a script at a failing command: say which, never silently.
trap 'echo "error: ${0##*/}: line $LINENO failed (status $?)" >&2' ERR
note() { echo "==> $*" >&2; }

# The kernel version of a tree, e.g. 6.1.192.
kernel_version() {
	make -s -C "${1:-$SRC}" kernelversion 2>/dev/null
}

# The new kernel files of the series: everything at an in-tree path in the repo.
new_kernel_files() {
	(cd "$REPO" && git ls-files --cached --others --exclude-standard -- \
		mm include lib tools Documentation MAINTAINERS 2>/dev/null) |
	while read -r f; do [ -f "$REPO/$f" ] && echo "$f"; done
}

# Serialise kernel builds: two at once do not fit on this machine.
# Re-entrant: a command run under the lock may call it again. SLQB_BUILD_LOCK
# names another lock file (a second clone sharing the first one's lock).
with_build_lock() {
	local lock=${SLQB_BUILD_LOCK:-$BUILD/.build.lock}
	mkdir -p "$BUILD"
	if [ -n "${SLQB_HOLDS_BUILD_LOCK:-}" ]; then "$@"; return; fi
	flock -n "$lock" true ||
		note "waiting for the build lock ($lock): another kernel build is running"
	SLQB_HOLDS_BUILD_LOCK=1 flock "$lock" "$@"
}

# --- kernel builds (build.sh, qemu.sh) ---
# Kernel builds go through ccache (a 5 GB cache, with hits across clones in
# other folders) unless SLQB_CCACHE=0: .ci/run sets it, as CI's machine
# starts with an empty cache and throws it away. Every miss costs: kernel/
# and mm/ of the slqb config built in 125 s through an empty ccache, 100 s
# with gcc alone (three runs each, -j2, this machine kind).
export CCACHE_MAXSIZE=${CCACHE_MAXSIZE:-5G}
export CCACHE_BASEDIR=${CCACHE_BASEDIR:-$REPO}
if [ "${SLQB_CCACHE:-1}" = 0 ]; then KCC=gcc; else KCC="ccache gcc"; fi
# kmake_tree TREE OUT ARGS...: make ARGS in the kernel tree TREE, into OUT.
kmake_tree() {
	local tree=$1 out=$2
	shift 2
	make -C "$tree" O="$out" ARCH=x86_64 CC="$KCC" HOSTCC="$KCC" "$@"
}
CONFIGS=$HARNESS/build/configs
OUTS=$BUILD/out				# one O= folder per build name
LOGS=$BUILD/logs
ALLOCS="slqb slub slab"			# allocators a build can select
# The extra fragments a build can add: every configs/*.config but base's
# and the allocators'.
FLAVOURS=$(cd "$CONFIGS" && for f in *.config; do f=${f%.config}; [[ " base $ALLOCS " == *" $f "* ]] || echo "$f"; done | tr '\n' ' ')
FLAVOURS=${FLAVOURS% }

# "a b c" -> "a, b, c"
list() { local l="$*"; echo "${l// /, }"; }
# in_list WORD LIST: is WORD one of LIST's words?
in_list() { [[ " $2 " == *" $1 "* ]]; }

# The output folder of a build name such as slub or slab-debug-up.
build_dir() { echo "$OUTS/$1"; }

# --- a kernel to boot: build it, unless NOBUILD=1 (check.sh, soak.sh,
# bench/run.sh, bench/scale.sh, dev/fastpath.sh; bench/smoke.sh through
# run.sh) ---
# kernel_plan NAME [skip]: what to do about the build NAME before booting
# it, as a word: 'build' (build_kernel NAME; build.sh is incremental), unless
# NOBUILD=1; then 'keep' when it is built (boot it as it is), else 'build'
# all the same, or 'skip' if the caller asked for that (bench/scale.sh).
# The caller says what it does, in its own words.
kernel_plan() {
	if [ -z "${NOBUILD:-}" ]; then echo build
	elif [ -f "$(build_dir "$1")/arch/x86/boot/bzImage" ]; then echo keep
	elif [ "${2:-}" = skip ]; then echo skip
	else echo build; fi
}
# build_kernel NAME: build.sh for a build name (slqb-debug-up: build.sh slqb
# debug up), under the build lock.
# shellcheck disable=SC2086 # the name's words are build.sh's arguments
build_kernel() { "$HARNESS/build/build.sh" ${1//-/ }; }

# Each line on stdin without its leading and trailing spaces (the fields of
# tests.list and topologies).
trim() { sed 's/^ *//; s/ *$//'; }

# --- topologies (boot/topologies: name | kernel | QEMU arguments | ...) ---
TOPOLOGIES=$HARNESS/boot/topologies
# topology_kinds: 'NAME KIND' a line, in the file's order; KIND is the
# kernel the topology needs, up or smp.
topology_kinds() {
	grep -vE '^#|^ *$' "$TOPOLOGIES" | awk -F'|' '{ gsub(/ /, "", $1); gsub(/ /, "", $2); print $1, $2 }'
}
# topology_names: the topologies' names, as words.
topology_names() { topology_kinds | cut -d' ' -f1 | xargs; }
# topology_line NAME: the topology's line; fails if there is none.
topology_line() { grep -E "^$1 +\|" "$TOPOLOGIES"; }

# The allocator to use when none is named: slqb once the tree has it, else slub.
default_alloc() {
	with_build_lock "$HARNESS/build/compose.sh"
	if grep -q '^config SLQB' "$SRC/mm/Kconfig"; then echo slqb
	else note "SLQB is not in the tree yet: using SLUB"; echo slub; fi
}

# config_stamp WORD FILE...: what a build's config is made from (the
# fragments, a word naming them, the composed tree's patches and the
# series' Kconfig files), as one hash; the config is remade when it changes.
config_stamp() {
	local word=$1; shift
	(cat "$@"; echo "$word"; cat "$SRC/.series-stamp"
		new_kernel_files | { grep Kconfig || true; } | while read -r f; do cat "$REPO/$f"; done) |
		sha1sum | cut -d' ' -f1
}

# only_allocator_differs DIFFS NAME=CONFIG...: diffs each config against the
# first, symbol by symbol, into the file DIFFS, and fails (naming them) if a
# symbol differs that is not the allocators' own or what Kconfig derives
# from the choice (SLUB selects HAVE_ALIGNED_STRUCT_PAGE; SLUB_DEBUG selects
# STACKDEPOT, hence STACKTRACE, which the unwinder choice follows). Options
# common to the allocators (SLAB_FREELIST_*, SLAB_MERGE_DEFAULT...) must
# match. A symbol set to n and one absent (dependencies unmet) are both off.
only_allocator_differs() {
	local diffs=$1 ref=${2%%=*} refc=${2#*=} a d others bad=0 allowed
	allowed='^CONFIG_((SLAB|SLUB|SLQB|SLOB|DEBUG_SLAB|HAVE_ALIGNED_STRUCT_PAGE|STACKDEPOT|STACKTRACE|HAVE_RELIABLE_STACKTRACE|UNWINDER_ORC|UNWINDER_GUESS)|(SLUB|SLQB|STACKTRACE)_[A-Z0-9_]+)='
	shift 2
	: > "$diffs"
	for a in "$@"; do
		d=$(diff <(grep -E '^CONFIG_' "$refc" | sort) <(grep -E '^CONFIG_' "${a#*=}" | sort) || true)
		printf '### %s -> %s\n%s\n' "$ref" "${a%%=*}" "$d" >> "$diffs"
		others=$(echo "$d" | sed -n 's/^[<>] //p' | grep -vE "$allowed" || true)
		if [ -n "$others" ]; then
			echo "config: $ref and ${a%%=*} differ beyond the allocator:" >&2
			echo "$others" | sed 's/^/    /' >&2
			bad=1
		fi
	done
	[ "$bad" = 0 ]
}

# new_run_dir KIND: a new folder build/KIND/TIME for a run's results, with
# build/KIND/latest pointing to it; prints its path.
new_run_dir() {
	local stamp dir
	stamp=$(date +%Y%m%d-%H%M%S)
	dir=$BUILD/$1/$stamp
	mkdir -p "$dir"
	ln -sfn "$stamp" "$BUILD/$1/latest"
	echo "$dir"
}

# --- results: one format, JSON lines (results.py; README: Results) ---
# results_add FILE KEY=VALUE...: one line of a run's results (FILE, its
# results.jsonl), e.g. kind=verdict test=NAME result=pass seconds=12.
results_add() { python3 "$HARNESS/results.py" add "$@"; }
# results_log FILE LOG KEY=VALUE...: a metric line per @@BENCH line (and
# per numeric field of an @@SOAK line) of the console log LOG, each with
# the KEY=VALUEs (alloc=, round=, ...).
results_log() { python3 "$HARNESS/results.py" log "$@"; }

# --- results records (make check, make bench, make bench-uml, make scale,
# make soak, make lkdtm-compare) ---
# write_record NAME TITLE COMMAND FILE...: a dated Markdown record of a
# result, results/DATE-NAME.md (SLQB_RESULTS names another folder): when, on
# what machine, by which command, at which commit, then each FILE in a code
# block; the run's results.jsonl is copied beside it as DATE-NAME.jsonl, a
# chart (.png, if there is one) as DATE-NAME.png, shown in the record. The
# records are committed by hand when a result is worth keeping; a committed
# one is never overwritten (a second run that day writes DATE-HHMM-NAME).
write_record() {
	local name=$1 title=$2 command=$3 out f
	shift 3
	out=${SLQB_RESULTS:-$REPO/results}/$(date -u +%F)-$name
	if git -C "$REPO" ls-files --error-unmatch "$out.md" > /dev/null 2>&1; then
		out=${out%/*}/$(date -u +%F-%H%M)-$name
	fi
	mkdir -p "${out%/*}"
	{
		echo "# $title"
		echo
		echo "- date: $(date -u '+%Y-%m-%d %H:%M UTC')"
		echo "- machine: $(nproc) CPUs ($(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //')), $(free -g | awk '/^Mem:/ { print $2 }') GiB, $(. /etc/os-release && echo "$PRETTY_NAME"), $(qemu-system-x86_64 --version | head -n 1 | sed 's/ (.*//')"
		echo "- command: \`$command\`"
		echo "- tree: $(git -C "$REPO" describe --always --dirty) ($(git -C "$REPO" log -1 --format=%s | cut -c1-72))"
		for f in "$@"; do
			case "$f" in
			*.jsonl) continue ;;
			*.png)	# a chart, if the run could draw one
				if [ -f "$f" ]; then printf '\n![%s](%s.png)\n' "${f##*/}" "${out##*/}"; fi
				continue ;;
			esac
			printf '\n```\n'
			cat "$f"
			printf '```\n'
		done
	} > "$out.md"
	for f in "$@"; do
		case "$f" in
		*.jsonl) cp "$f" "$out.jsonl" ;;
		*.png) if [ -f "$f" ]; then cp "$f" "$out.png"; fi ;;
		esac
	done
	note "record: $out.md"
}
