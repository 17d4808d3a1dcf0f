#!/bin/bash
# Compose a kernel tree: Debian's linux-source-6.1 tarball, then the series'
# patches to existing files (patches/series, in order), then the series' new
# files at their in-tree paths. Incremental: the tarball is unpacked once into
# build/pristine; the composed tree build/linux is hard-linked from it and is
# only re-made when patches/ changes. New files are copied when they differ,
# so an edit to mm/slqb.c rebuilds just that object.
set -euo pipefail
. "$(dirname "$0")/../lib.sh"

# Re-composing replaces the tree under a running build: take the build lock
# (build.sh already holds it when it calls us; with_build_lock marks the
# holder, so setting SLQB_HOLDS_BUILD_LOCK here would skip the lock).
if [ -z "${SLQB_HOLDS_BUILD_LOCK:-}" ]; then
	with_build_lock "$0" "$@"
	exit
fi

[ -f "$TARBALL" ] || die "no $TARBALL: run 'make setup' (apt-get install linux-source-6.1)"

if [ ! -f "$PRISTINE/.unpacked" ]; then
	note "unpacking $TARBALL"
	rm -rf "$PRISTINE" && mkdir -p "$PRISTINE"
	tar -C "$PRISTINE" --strip-components=1 -xf "$TARBALL"
	touch "$PRISTINE/.unpacked"
fi

# shellcheck disable=SC2046 # the patch names are words
stamp=$(cd "$REPO/patches" && cat series $(grep -v '^#' series) 2>/dev/null | sha1sum | cut -d' ' -f1)
if [ ! -f "$SRC/.series-stamp" ] || [ "$(cat "$SRC/.series-stamp")" != "$stamp" ]; then
	note "composing $SRC from pristine + patches/series"
	rm -rf "$SRC"
	cp -al "$PRISTINE" "$SRC"
	rm -f "$SRC/.unpacked"
	while read -r p; do
		case "$p" in ''|'#'*) continue ;; esac
		# patch(1) replaces files by rename, so hard links to pristine stay intact.
		if ! patch -d "$SRC" -p1 -s -N --no-backup-if-mismatch < "$REPO/patches/$p" >/tmp/compose.$$ 2>&1; then
			cat /tmp/compose.$$ >&2; rm -f /tmp/compose.$$
			die "patch does not apply: patches/$p"
		fi
	done < "$REPO/patches/series"
	rm -f /tmp/compose.$$
	echo "$stamp" > "$SRC/.series-stamp"
fi

# New files: copy only when changed, so make sees a real change only.
new_kernel_files | while read -r f; do
	if ! cmp -s "$REPO/$f" "$SRC/$f"; then
		mkdir -p "$(dirname "$SRC/$f")"
		rm -f "$SRC/$f"		# never write through a hard link into pristine
		cp "$REPO/$f" "$SRC/$f"
	fi
done
note "composed Linux $(kernel_version) in $SRC"
