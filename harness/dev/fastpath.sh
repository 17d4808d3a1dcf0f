#!/bin/bash
# make fastpath: does slqb_debug cost the fast paths anything when it is off?
# Builds slqb-bench (CONFIG_SLQB_DEBUG=y, off at boot: a static key) and
# slqb-bench-nodebug (no CONFIG_SLQB_DEBUG), both under the build lock, and
# for each entry point of the fast paths prints its size and instruction
# count in both, then the instructions that differ (addresses and offsets
# left out). NOBUILD=1 uses the kernels already built.
set -euo pipefail
. "$(dirname "$0")/../lib.sh"

funcs="kmem_cache_alloc kmem_cache_alloc_lru kmem_cache_alloc_node __kmem_cache_alloc_node kmem_cache_free __kmem_cache_free"
for b in slqb-bench slqb-bench-nodebug; do
	[ "$(kernel_plan "$b")" = keep ] || build_kernel "$b" >&2
done

# insns VMLINUX FUNC: the function's instructions, one a line, without
# addresses, encodings, the offsets objdump puts in <func+0x..> and the
# displacements of %rip-relative operands (they move with the code).
insns() {
	objdump -d --no-show-raw-insn --disassemble="$2" "$1" |
		sed -n 's/^ *[0-9a-f]*:\t//p' |
		sed -E 's/[0-9a-f]{16}//g; s/<([^+>]*)\+0x[0-9a-f]+>/<\1+.>/g' |
		sed -E 's/-?0x[0-9a-f]+\(%rip\)/.(%rip)/g; s/# [0-9a-f]+ </# </; s/ +/ /g'
}
# size VMLINUX FUNC: its size in bytes, from the symbol table.
size() { local hex; hex=$(nm -S "$1" | awk -v f="$2" '$4 == f { print $2; exit }'); echo $((16#${hex:-0})); }
on=$(build_dir slqb-bench)/vmlinux off=$(build_dir slqb-bench-nodebug)/vmlinux
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
printf '%-26s %22s %22s\n' function "no SLQB_DEBUG" "SLQB_DEBUG, off"
for f in $funcs; do
	insns "$off" "$f" > "$tmp/off"; insns "$on" "$f" > "$tmp/on"
	printf '%-26s %9s B %4s insns %9s B %4s insns\n' "$f" \
		"$(size "$off" "$f")" "$(wc -l < "$tmp/off")" "$(size "$on" "$f")" "$(wc -l < "$tmp/on")"
	diff "$tmp/off" "$tmp/on" | grep '^[<>]' | sed "s/^/    $f: /" > "$tmp/$f.diff" || true
done
echo
echo "Instructions that differ (< without SLQB_DEBUG, > with it, off):"
cat "$tmp"/*.diff
