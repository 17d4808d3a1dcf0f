#!/bin/bash
# Build a kernel: build.sh [ALLOC] [FLAVOUR...]
#   ALLOC: slqb, slub or slab (default: slqb once the tree has it, else slub);
#   FLAVOUR: one of FLAVOURS in lib.sh, a fragment configs/FLAVOUR.config.
# Composes the tree, makes the config (tinyconfig + base + ALLOC + flavours,
# verified), then builds bzImage and modules with ccache into build/out/NAME,
# NAME being ALLOC[-FLAVOUR...]. Runs under the build lock: one build at a time.
set -euo pipefail
. "$(dirname "$0")/../lib.sh"

if [ $# -eq 0 ] || [[ " $FLAVOURS " == *" $1 "* ]]; then set -- "$(default_alloc)" "$@"; fi
alloc=$1; shift
case " $ALLOCS " in *" $alloc "*) ;; *) die "unknown allocator '$alloc' (valid: $(list "$ALLOCS"))" ;; esac
name=$alloc
for f in "$@"; do
	case " $FLAVOURS " in *" $f "*) ;; *) die "unknown flavour '$f' (valid: $(list "$FLAVOURS"))" ;; esac
	name=$name-$f
done

# One kernel build at a time on this machine, ours or anyone's.
if [ -z "${SLQB_HOLDS_BUILD_LOCK:-}" ]; then
	with_build_lock "$0" "$alloc" "$@"
	exit
fi

"$HARNESS/check-tools.sh" build
"$HARNESS/build/compose.sh"

out=$(build_dir "$name")
mkdir -p "$out" "$LOGS"
log=$LOGS/build-$name.log
version=$(kernel_version)
fragments=("$CONFIGS/base.config" "$CONFIGS/$alloc.config")
for f in "$@"; do fragments+=("$CONFIGS/$f.config"); done

kmake() { kmake_tree "$SRC" "$out" "$@"; }

echo "build $name: Linux $version, fragments: ${fragments[*]##*/}" | tee "$log" >&2
start=$(date +%s)

# The config is remade only when the fragments, the composed tree's patches
# or the series' new Kconfig files changed; make always runs (incremental).
stamp=$(config_stamp "${fragments[*]##*/}" "${fragments[@]}")
if [ ! -f "$out/.config" ] || [ "$(cat "$out/.config-stamp" 2>/dev/null)" != "$stamp" ]; then
	note "configuring $name (tinyconfig + ${fragments[*]##*/})"
	rm -f "$out/.config-stamp"
	{
		kmake tinyconfig &&
		"$SRC/scripts/kconfig/merge_config.sh" -m -O "$out" "$out/.config" "${fragments[@]}" &&
		kmake olddefconfig
	} >>"$log" 2>&1 || { tail -30 "$log" >&2; die "configuring $name failed (log: $log)"; }
	"$HARNESS/build/verify-config.sh" "$out/.config" "$alloc" "${fragments[@]}" 2>&1 | tee -a "$log" >&2
	[ "${PIPESTATUS[0]}" = 0 ] || die "config of $name is not what the fragments ask for (log: $log)"
	echo "$stamp" > "$out/.config-stamp"
fi

targets=(bzImage)
grep -q '^CONFIG_MODULES=y' "$out/.config" && targets+=(modules)
note "building $name: Linux $version, make -j${JOBS:-2} ${targets[*]} (log: $log)"
if ! kmake -j"${JOBS:-2}" "${targets[@]}" >>"$log" 2>&1; then
	grep -E 'error:|Error [0-9]' "$log" | head -20 >&2 || true
	tail -20 "$log" >&2
	die "building $name failed (Linux $version, log: $log)"
fi

# Modules, staged for the initramfs (swapped in whole: a boot may be reading).
rm -rf "$out/modroot.new"
if [[ " ${targets[*]} " == *" modules "* ]]; then
	kmake INSTALL_MOD_PATH="$out/modroot.new" INSTALL_MOD_STRIP=1 modules_install >>"$log" 2>&1 ||
		{ tail -20 "$log" >&2; die "modules_install of $name failed (log: $log)"; }
fi
rm -rf "$out/modroot"
[ ! -d "$out/modroot.new" ] || mv "$out/modroot.new" "$out/modroot"
echo "$version" > "$out/kernelversion"
echo "build $name: Linux $version done in $(( $(date +%s) - start ))s: $out/arch/x86/boot/bzImage" | tee -a "$log" >&2
