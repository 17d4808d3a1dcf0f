#!/bin/bash
# make configs: SLQB compiled (mm/ and lib/: compiled, not linked or booted)
# in the configurations the harness's kernels do not cover, each the slqb
# kernel's (tinyconfig + base + slqb) with the lines of its row below, and
# one with all of them off at once. A warning fails a configuration as an
# error does, and so does a line the configuration did not take.
#   configs.sh [NAME...]   (default: every row; build/out/cfg-NAME, its log
#                           build/logs/configs-NAME.log)
# Under the build lock; with ccache, as build.sh. Prints 'reason: ...' when
# it fails (a host test of tests.list).
set -euo pipefail
. "$(dirname "$0")/../lib.sh"

# NAME | config lines, ';' between them
rows="
nonuma   | # CONFIG_NUMA is not set
up       | # CONFIG_SMP is not set
nosysfs  | # CONFIG_SYSFS is not set
nomemcg  | # CONFIG_MEMCG is not set
nostats  | # CONFIG_SLQB_STATS is not set
nodebug  | # CONFIG_SLQB_DEBUG is not set
preempt  | CONFIG_PREEMPT=y
minimal  | # CONFIG_NUMA is not set; # CONFIG_SMP is not set; # CONFIG_SYSFS is not set; # CONFIG_MEMCG is not set; # CONFIG_SLQB_STATS is not set; # CONFIG_SLQB_DEBUG is not set
"
names=$(echo "$rows" | awk -F'|' 'NF > 1 { gsub(/ /, "", $1); print $1 }' | xargs)
# shellcheck disable=SC2086 # names is a list of words
[ $# -gt 0 ] || set -- $names
for n in "$@"; do
	case " $names " in *" $n "*) ;; *) die "unknown configuration '$n' (valid: $(list "$names"))" ;; esac
done

if [ -z "${SLQB_HOLDS_BUILD_LOCK:-}" ]; then
	with_build_lock "$0" "$@"
	exit
fi
"$HARNESS/check-tools.sh" build
"$HARNESS/build/compose.sh"
grep -q '^config SLQB$' "$SRC/mm/Kconfig" || die "the composed tree has no SLQB"
mkdir -p "$LOGS"
kmake() { kmake_tree "$SRC" "$out" "$@"; }

failed=()
for n in "$@"; do
	lines=$(echo "$rows" | awk -F'|' -v n="$n" '{ k = $1; gsub(/ /, "", k) } k == n { print $2 }' |
		tr ';' '\n' | sed 's/^ *//; s/ *$//')
	out=$(build_dir "cfg-$n") log=$LOGS/configs-$n.log
	mkdir -p "$out"
	echo "$lines" > "$out/extra.config"
	start=$(date +%s)
	note "configs: $n ($(echo "$lines" | xargs)): make mm/ lib/ (log: $log)"
	rc=0
	{
		kmake tinyconfig &&
		"$SRC/scripts/kconfig/merge_config.sh" -m -O "$out" "$out/.config" \
			"$CONFIGS/base.config" "$CONFIGS/slqb.config" "$out/extra.config" &&
		kmake olddefconfig &&
		kmake -j"${JOBS:-2}" mm/ lib/
	} > "$log" 2>&1 || rc=$?
	why=""
	while read -r l; do
		sym=$(echo "$l" | sed -n 's/^# \(CONFIG_[A-Z0-9_]*\) is not set$/\1/p')
		if [ -n "$sym" ]; then
			! grep -q "^$sym=" "$out/.config" || why="$why $sym is set;"
		else
			grep -qx "$l" "$out/.config" || why="$why '$l' not taken;"
		fi
	done <<< "$lines"
	grep -q '^CONFIG_SLQB=y' "$out/.config" || why="$why CONFIG_SLQB is not set;"
	[ "$rc" = 0 ] || why="$why make failed ($(grep -m1 -E 'error:|Error [0-9]' "$log" || tail -1 "$log"));"
	# The compiler's warnings (file:line:col: warning:), not kconfig's
	# notes on the fragments' overrides.
	warnings=$(grep -cE ':[0-9]+:[0-9]+: warning:' "$log" || true)
	[ "$warnings" = 0 ] || why="$why $warnings warning(s) ($(grep -m1 -E ':[0-9]+:[0-9]+: warning:' "$log"));"
	if [ -n "$why" ]; then
		echo "FAIL configs $n:$why (log: $log)"
		failed+=("$n")
	else
		echo "PASS configs $n ($(( $(date +%s) - start ))s)"
	fi
done
if [ ${#failed[@]} -gt 0 ]; then
	echo "reason: ${#failed[@]} of $# configuration(s) failed: ${failed[*]}"
	exit 1
fi
echo "all $# configuration(s) compile mm/ and lib/ without a warning"
