#!/bin/bash
# Author or revise one patch of the series against the pristine tree:
#   harness/dev/edit-patch.sh NAME.patch FILE...   prepares build/edit/NAME/{a,b}
#   (edit the files under b/, then)
#   harness/dev/edit-patch.sh --save NAME.patch    writes patches/NAME.patch
# The patch's existing hunks are applied to b/ first, so re-editing works.
set -euo pipefail
. "$(dirname "$0")/../lib.sh"

if [ "${1:-}" = "--save" ]; then
	name=$2; dir=$BUILD/edit/${name%.patch}
	[ -d "$dir" ] || die "no $dir: prepare it first"
	out=$REPO/patches/$name
	# Keep the mail header (subject, message, New-files:) of an existing patch.
	hdr=$(mktemp)
	[ -f "$out" ] && sed -n '/^--- a\//q;p' "$out" > "$hdr"
	{ cat "$hdr"; (cd "$dir" && diff -Nrup a b | sed -e 's|^--- a/\([^\t]*\)\t.*|--- a/\1|' -e 's|^+++ b/\([^\t]*\)\t.*|+++ b/\1|' | grep -v '^diff -Nrup'); } > "$out.new" || true
	mv "$out.new" "$out"; rm -f "$hdr"
	grep -qx "$name" "$REPO/patches/series" || echo "$name" >> "$REPO/patches/series"
	note "wrote patches/$name ($(grep -c '^@@' "$REPO/patches/$name") hunks)"
	exit 0
fi

name=$1; shift
dir=$BUILD/edit/${name%.patch}
rm -rf "$dir"; mkdir -p "$dir/a" "$dir/b"
# Files of earlier patches in the series come patched: a/ is the tree this
# patch applies to.
[ -f "$PRISTINE/.unpacked" ] || "$HARNESS/build/compose.sh" >/dev/null
files=("$@")
[ -f "$REPO/patches/$name" ] && mapfile -t -O "${#files[@]}" files < <(sed -n 's|^+++ b/||p' "$REPO/patches/$name")
for f in $(printf '%s\n' "${files[@]}" | sort -u); do
	mkdir -p "$dir/a/$(dirname "$f")" "$dir/b/$(dirname "$f")"
	src=$PRISTINE/$f
	[ -f "$src" ] || continue
	cp "$src" "$dir/a/$f"
	cp "$src" "$dir/b/$f"
done
# Apply the earlier patches of the series to both sides, this one to b/.
while read -r p; do
	case "$p" in ''|'#'*) continue ;; esac
	[ "$p" = "$name" ] && break
	for side in a b; do
		(cd "$dir/$side" && patch -p1 -s -N -f --no-backup-if-mismatch -r - -i "$REPO/patches/$p" >/dev/null 2>&1 </dev/null) || true
	done
done < "$REPO/patches/series"
if [ -f "$REPO/patches/$name" ]; then
	(cd "$dir/b" && patch -p1 -s --no-backup-if-mismatch < "$REPO/patches/$name")
fi
echo "$dir/b"
