#!/bin/bash
# Build the guest initramfs (newc cpio, gzip):
#   mkinitramfs.sh OUT.cpio.gz [-m MODROOT] [-k MODULE.ko]... [PROGRAM...]
# BusyBox (static), guest/init as /init, guest/lib.sh and guest/tests/ under
# /harness, the kernel modules staged by 'make modules_install' under MODROOT,
# out-of-tree modules (-k) in /lib/modules/extra/,
# and host PROGRAMs (names or paths) with the shared libraries ldd lists,
# but for two names built here (harness/README.md, # needs-prog:).
set -euo pipefail
. "$(dirname "$0")/../lib.sh"

[ $# -ge 1 ] || die "usage: mkinitramfs.sh OUT.cpio.gz [-m MODROOT] [-k MODULE.ko]... [PROGRAM...]"
out=$1; shift
modroot="" kos=()
while [ $# -ge 2 ]; do
	case "$1" in -m) modroot=$2 ;; -k) kos+=("$2") ;; *) break ;; esac
	shift 2
done

stage=$(mktemp -d "$BUILD/initramfs.XXXXXX")
trap 'rm -rf "$stage"' EXIT

mkdir -p "$stage"/{bin,sbin,usr/bin,usr/sbin,dev,proc,sys,tmp,run,root,etc,harness}
cp /bin/busybox "$stage/bin/busybox"
ln -s busybox "$stage/bin/sh"
mknod -m 600 "$stage/dev/console" c 5 1
mknod -m 666 "$stage/dev/null" c 1 3
install -m 755 "$HARNESS/guest/init" "$stage/init"
cp "$HARNESS/guest/lib.sh" "$stage/harness/lib.sh"
cp -r "$HARNESS/guest/tests" "$stage/harness/tests"
echo "root:x:0:0:root:/root:/bin/sh" > "$stage/etc/passwd"
echo "root:x:0:" > "$stage/etc/group"

if [ -n "$modroot" ] && [ -d "$modroot/lib/modules" ]; then
	mkdir -p "$stage/lib"
	cp -a "$modroot/lib/modules" "$stage/lib/"
	rm -f "$stage"/lib/modules/*/build "$stage"/lib/modules/*/source
fi

if [ ${#kos[@]} -gt 0 ]; then
	mkdir -p "$stage/lib/modules/extra"
	cp "${kos[@]}" "$stage/lib/modules/extra/"
fi

# copy_with_libs PATH: the file at its own path, and what the loader needs.
copy_with_libs() {
	local f=$1 lib
	mkdir -p "$stage$(dirname "$f")"
	cp -L "$f" "$stage$f"
	# A static binary has none: ldd says so and exits 1.
	for lib in $(ldd "$f" 2>/dev/null | grep -oE '/[^ ]+' || true); do
		[ -e "$stage$lib" ] && continue
		mkdir -p "$stage$(dirname "$lib")"
		cp -L "$lib" "$stage$lib"
	done
}
for p in "$@"; do
	if [ "$p" = slqbinfo ]; then	# the series' tools/slqbinfo, built static
		make -s -C "$REPO/tools/slqbinfo" OUTPUT="$stage/usr/bin/" LDFLAGS=-static ||
			die "building tools/slqbinfo for the initramfs failed"
		continue
	fi
	if [ "$p" = test_kmem ]; then	# tools/testing/selftests/cgroup of the tree
		k=$SRC/tools/testing/selftests/cgroup
		mkdir -p "$stage/usr/bin"
		gcc -O2 -Wall -static -o "$stage/usr/bin/test_kmem" "$k/test_kmem.c" \
			"$k/cgroup_util.c" "$HARNESS/build/stdout-lines.c" -lpthread ||
			die "building the selftest test_kmem for the initramfs failed"
		continue
	fi
	path=$p
	[[ $p == /* ]] || path=$(command -v "$p") ||
		die "no program '$p' on the host for the initramfs (install its package; 'make setup' has the usual ones)"
	copy_with_libs "$path"
done

mkdir -p "$(dirname "$out")"
(cd "$stage" && find . -mindepth 1 | LC_ALL=C sort | cpio -o -H newc -R 0:0 --quiet) | gzip -6 > "$out.tmp"
mv "$out.tmp" "$out"
