#!/bin/bash
# Install what the harness needs, from Debian bookworm's packages. Idempotent:
# does nothing when everything is there. Needs root (or sudo) to install.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

packages=(
	linux-source-6.1			# the kernel, as a tarball in /usr/src
	build-essential flex bison bc perl kmod patch xz-utils libelf-dev libssl-dev
	ccache util-linux coreutils
	qemu-system-x86 busybox-static cpio gzip	# the guest
	procps rt-tests stress-ng		# programs for guest tests
	python3 python3-matplotlib		# reports
	shellcheck				# linting the harness
)
missing=()
for p in "${packages[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
	note "setup: all ${#packages[@]} packages present"
else
	note "setup: installing ${missing[*]}"
	sudo=
	[ "$(id -u)" = 0 ] || sudo=sudo
	export DEBIAN_FRONTEND=noninteractive
	$sudo apt-get update -qq
	$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
ccache -M "${CCACHE_MAXSIZE:-5G}" >/dev/null
"$HARNESS/check-tools.sh" all
note "setup: ready ($(qemu-system-x86_64 --version | head -1), $(gcc --version | head -1))"
