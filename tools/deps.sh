#!/usr/bin/env bash
# Install the Debian packages nvengine needs.  Idempotent: does nothing when
# every package is already installed.  Needs root (or sudo) to install.
set -euo pipefail

PKGS=(fio liburing-dev zlib1g-dev libjansson-dev gnuplot-nox gcc make pkg-config
      dpkg-dev xz-utils ca-certificates)
# The emulated-NVMe tests (tests/vm) need these; they are installed here too so
# that `make check` on a fresh machine runs them instead of skipping.
VM_PKGS=(qemu-system-x86 busybox-static cpio e2fsprogs util-linux)

missing=()
for p in "${PKGS[@]}" "${VM_PKGS[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
	exit 0
fi
SUDO=
if [ "$(id -u)" -ne 0 ]; then
	command -v sudo >/dev/null || { echo "deps: need root to install: ${missing[*]}" >&2; exit 1; }
	SUDO=sudo
fi
echo "deps: installing ${missing[*]}"
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
