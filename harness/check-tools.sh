#!/bin/bash
# Check that the host tools the harness uses are there. Prints one line naming
# the Debian package to install for the first one missing, and fails.
# Usage: check-tools.sh [build|boot|all]   (default all)
set -euo pipefail
. "$(dirname "$0")/lib.sh"

# tool package  (a path for files that are not commands)
build_tools="gcc:build-essential make:make flex:flex bison:bison bc:bc
	perl:perl ccache:ccache xz:xz-utils patch:patch flock:util-linux
	depmod:kmod /usr/include/libelf.h:libelf-dev /usr/include/openssl/ssl.h:libssl-dev
	$TARBALL:linux-source-6.1"
boot_tools="qemu-system-x86_64:qemu-system-x86 /bin/busybox:busybox-static
	cpio:cpio gzip:gzip timeout:coreutils"

case "${1:-all}" in
build) want=$build_tools ;;
boot) want=$boot_tools ;;
all) want="$build_tools $boot_tools" ;;
*) die "check-tools.sh: unknown kind '$1' (valid: build, boot, all)" ;;
esac

for pair in $want; do
	tool=${pair%%:*} pkg=${pair#*:}
	case "$tool" in
	/*) [ -e "$tool" ] ;;
	*) command -v "$tool" >/dev/null ;;
	esac || die "missing $tool: install it with 'apt-get install $pkg' (or run 'make setup')"
done
# busybox must be static: it runs in the guest with no libc.
if [ "${1:-all}" != build ] && ldd /bin/busybox >/dev/null 2>&1; then
	die "/bin/busybox is not static: install it with 'apt-get install busybox-static'"
fi
