#!/bin/bash
# Build an out-of-tree module against a kernel build: modules/build.sh BUILD DIR
#   BUILD  a build name (build/out/BUILD, made by build.sh), e.g. slqb, slub
#   DIR    the module's source folder (Kbuild + .c), e.g. harness/modules/slab_bench
# The sources are copied to build/extmod/BUILD/NAME (one copy per kernel: the
# same module is built against several) and made there with the kernel's own
# make (incremental). Prints the path of the .ko. Small: no build lock, but one
# make per copy at a time (flock).
set -euo pipefail
. "$(dirname "$0")/../lib.sh"

[ $# -eq 2 ] || die "usage: modules/build.sh BUILD DIR"
build=$1 src=$(cd "$2" && pwd)
name=${src##*/}
out=$(build_dir "$build")
[ -f "$out/Module.symvers" ] || die "no kernel built as '$build' with modules ($out): harness/build/build.sh $(echo "$build" | tr '-' ' ')"
dst=$BUILD/extmod/$build/$name
mkdir -p "$dst"
log=$dst/build.log
# The composed tree can be missing for a while (being composed again, or a
# series that does not apply): a .ko already built against this very kernel
# build (newer than its Module.symvers) is used then, with a warning.
ko=$(ls "$dst"/*.ko 2>/dev/null | head -1 || true)
if [ ! -f "$SRC/Makefile" ] && [ -n "$ko" ] && [ "$ko" -nt "$out/Module.symvers" ]; then
	note "no composed tree ($SRC): using $ko as built before"
	echo "$ko"
	exit 0
fi
(
	flock 9
	# Only changed sources are copied: make then rebuilds only what it must.
	for f in "$src"/*; do cmp -s "$f" "$dst/${f##*/}" || cp "$f" "$dst/"; done
	make -C "$out" M="$dst" modules >"$log" 2>&1 ||
		{ tail -20 "$log" >&2; die "building module $name against $build failed (log: $log)"; }
) 9>"$dst.lock"
ko=$(ls "$dst"/*.ko)
echo "$ko"
