#!/bin/bash
# Judge a guest's console log:
#   scan-log.sh LOG [-e REGEX]... [-a REGEX]... [-T LETTERS]... [-t LETTERS]...
#   -e REGEX    a report the test expects: must appear, and its lines are allowed
#   -a REGEX    lines that are allowed, but need not appear
#   -T LETTERS  taint flags the test expects (e.g. N: a KUnit suite ran): each
#               must be set at the end, and is allowed
#   -t LETTERS  taint flags that are allowed, but need not be set
# Fails (exit 1) when the guest never reached init, never printed @@SLQB END,
# ended with a non-zero status, reported a FAIL, when the log has a line
# matching log-patterns that is not allowed, or when the kernel's taint at
# the end (guest/init's '@@TAINT N flags=...') has a flag not allowed. Prints the reasons, the first line
# being the headline (a kernel report first, as it is the likely cause), each followed by the offending lines (numbered).
set -euo pipefail
. "$(dirname "$0")/../lib.sh"

log=$1; shift
expects=() allows=() taint_expected='' taint_allowed=''
while [ $# -gt 0 ]; do
	case "$1" in
	-e) expects+=("$2"); allows+=("$2"); shift 2 ;;
	-a) allows+=("$2"); shift 2 ;;
	-T) taint_expected=$taint_expected$2 taint_allowed=$taint_allowed$2; shift 2 ;;
	-t) taint_allowed=$taint_allowed$2; shift 2 ;;
	*) die "scan-log.sh: unknown argument '$1'" ;;
	esac
done
[ -f "$log" ] || die "no log $log"

clean=$(mktemp) details=$(mktemp); trap 'rm -f "$clean" "$details"' EXIT
tr -d '\r' < "$log" > "$clean"
reasons=()
failed() { reasons+=("$1"); }
# quote: numbered offending lines on stdin, kept for after the headlines.
# sed, not head: reading all of its input, it never leaves the writer to
# die of SIGPIPE (under pipefail, a failure of this script).
quote() { sed -n '1,20s/^/    /p' >> "$details"; }

# Kernel reports: lines matching log-patterns, less the allowed ones.
patterns=$(grep -vE '^#|^$' "$HARNESS/check/log-patterns")
allowed=$(printf '%s\n' "${allows[@]+"${allows[@]}"}" | grep -v '^$' || true)
bad=$(grep -nE "$(echo "$patterns" | paste -sd'|')" "$clean" |
	{ if [ -n "$allowed" ]; then grep -vE "$(echo "$allowed" | paste -sd'|')"; else cat; fi; } |
	grep -v '@@RESULT' || true)
if [ -n "$bad" ]; then
	first=${bad%%$'\n'*} first=${first#*:}
	failed "the kernel reported a problem: $first"
	echo "$bad" | quote
fi

if ! grep -q '@@SLQB BEGIN' "$clean"; then
	failed "the guest never reached init (no @@SLQB BEGIN)"
elif ! grep -q '@@SLQB END' "$clean"; then
	failed "the guest never finished its test (no @@SLQB END): it hung, crashed or timed out"
else
	status=$(grep -o '@@SLQB END status=[0-9]*' "$clean" | tail -1 | sed 's/.*=//')
	[ "$status" = 0 ] || failed "the guest test ended with status=$status"
fi
# The taint at the end: each flag set must be declared (qemu.sh's
# expect-taint/allow-taint), each expected one set. Decoded here from the
# number (kernel/panic.c's taint_flags, bit 0 first), not from the guest's
# letters.
if grep -q '@@SLQB END' "$clean"; then
	tline=$(grep -n '@@TAINT ' "$clean" | tail -1 || true)
	tval=$(echo "$tline" | sed -n 's/.*@@TAINT \([0-9]\{1,\}\).*/\1/p')
	if [ -z "$tval" ]; then
		failed "the guest did not print the kernel's taint (no @@TAINT line before @@SLQB END)"
	else
		letters=PFSRMBUDAWCIOELKXTN set='' bad='' missing=''
		for ((i = 0; i < ${#letters}; i++)); do
			(( (tval >> i) & 1 )) || continue
			l=${letters:i:1} set=$set$l
			[[ $taint_allowed == *"$l"* ]] || bad=$bad$l
		done
		(( tval >> ${#letters} == 0 )) || bad="$bad(bits over ${#letters})"
		for ((i = 0; i < ${#taint_expected}; i++)); do
			l=${taint_expected:i:1}
			[[ $set == *"$l"* ]] || missing=$missing$l
		done
		if [ -n "$bad" ]; then
			failed "the kernel is tainted: $bad (taint $tval: ${set:--}; the test declares ${taint_allowed:-none} in '# expect-taint:'/'# allow-taint:')"
			echo "$tline" | quote
		fi
		if [ -n "$missing" ]; then
			failed "an expected taint never appeared: $missing (taint $tval: ${set:--})"
			echo "$tline" | quote
		fi
	fi
fi
if grep -q '@@RESULT [^ ]* FAIL' "$clean"; then
	failed "the guest test reported $(grep -c '@@RESULT [^ ]* FAIL' "$clean") FAIL result(s)"
	grep -n '@@RESULT [^ ]* FAIL' "$clean" | quote
fi

for re in "${expects[@]+"${expects[@]}"}"; do
	grep -qE "$re" "$clean" || failed "an expected report never appeared: /$re/"
done

[ ${#reasons[@]} -eq 0 ] && exit 0
printf 'reason: %s\n' "${reasons[@]}"
cat "$details"
exit 1
