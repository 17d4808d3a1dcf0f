#!/bin/bash
# Verify a merged kernel .config against the fragments it was made from:
# exactly one slab allocator is =y and it is the requested one, and every
# symbol the fragments ask for survived olddefconfig with its value.
# Usage: verify-config.sh .config ALLOC FRAGMENT...
set -euo pipefail
. "$(dirname "$0")/../lib.sh"

[ $# -ge 3 ] || die "usage: verify-config.sh .config ALLOC FRAGMENT..."
config=$1 alloc=$2; shift 2
[ -f "$config" ] || die "no $config"

chosen=$(grep -E '^CONFIG_(SLAB|SLUB|SLOB|SLQB)=y$' "$config" | sed 's/^CONFIG_//; s/=y$//' | tr '[:upper:]\n' '[:lower:] ' | sed 's/ $//' || true)
want=$(echo "$alloc" | tr '[:lower:]' '[:upper:]')
bad=0
if [ "$chosen" != "$alloc" ]; then
	echo "config: allocator is '${chosen:-none}', wanted exactly '$alloc' (CONFIG_$want=y)" >&2
	bad=1
fi

# Later fragments override earlier ones, as in merge_config.sh.
awk '
function val(line) {
	if (line ~ /^# CONFIG_[A-Za-z0-9_]+ is not set/) return "n"
	sub(/^[^=]*=/, "", line); return line
}
function sym(line) {
	if (line ~ /^# CONFIG_/) { split(line, w, " "); return w[2] }
	sub(/=.*/, "", line); return line
}
FNR == NR { if ($0 ~ /^CONFIG_|^# CONFIG_.* is not set/) have[sym($0)] = val($0); next }
/^CONFIG_[A-Za-z0-9_]+=|^# CONFIG_[A-Za-z0-9_]+ is not set/ {
	s = sym($0); want[s] = val($0); from[s] = FILENAME; order[s] = ++n
}
END {
	for (s in want) {
		got = (s in have) ? have[s] : "n"
		if (got != want[s]) {
			f = from[s]; sub(/.*\//, "", f)
			printf "%d\t%s=%s requested by %s, got %s\n", order[s], s, want[s], f, \
				(s in have) ? s "=" got : "nothing (unknown symbol or unmet dependency)"
		}
	}
}' "$config" "$@" | sort -n | cut -f2- > "$config.lost"

if [ -s "$config.lost" ]; then
	echo "config: $(wc -l < "$config.lost") requested symbol(s) did not survive olddefconfig:" >&2
	sed 's/^/  /' "$config.lost" >&2
	bad=1
fi
rm -f "$config.lost"
[ "$bad" = 0 ] || exit 1
echo "config: allocator $alloc, all $(cat "$@" | grep -cE '^CONFIG_|^# CONFIG_.* is not set') requested symbols present" >&2
