#!/usr/bin/env bash
# Install the Debian packages nvengine needs.  Idempotent: does nothing when
# every package is already installed.  Needs root (or sudo) to install.
#
#   tools/deps.sh --check   install nothing: name what is missing and the
#                           command that installs it (make check runs this);
#                           exit 1 if the build or the suite needs it, 0 if
#                           only the emulated-NVMe tests do (they skip)
set -euo pipefail

PKGS=(fio liburing-dev zlib1g-dev libzstd-dev libjansson-dev libexpat1-dev libpng-dev
      gnuplot-nox gcc make pkg-config dpkg-dev xz-utils ca-certificates python3 python3-zstandard
      lintian man-db valgrind libmicrohttpd-dev prometheus)
# The live tests: nvanalyze watch's terminal view in tmux (capture-pane), its
# HTTP endpoint scraped by curl beside a real Prometheus.
LIVE_PKGS=(tmux curl)
# The emulated-NVMe tests (tests/vm) need these; they are installed here too so
# that `make check` on a fresh machine runs them instead of skipping.
VM_PKGS=(qemu-system-x86 busybox-static cpio e2fsprogs util-linux)
# The many-host test (tests/integration/many_hosts.sh) starts an OpenSSH
# server on a localhost port; without it that test skips.
HOSTS_PKGS=(openssh-server openssh-client)
# The HTML report's test renders report.html in a real browser (headless)
# and prints it to PDF, whose text pdftotext (poppler-utils) reads; the
# suite needs both.
REPORT_PKGS=(chromium poppler-utils)
# make fuzz (libFuzzer targets; CI runs fuzz_names) builds with clang; make
# check does not need it, so --check does not ask for it.
FUZZ_PKGS=(clang)

# missing_of PKG...: the packages of the list that are not installed.
missing_of() {
	local p
	for p in "$@"; do
		[ -n "$p" ] || continue
		dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" ||
			echo "$p"
	done
}

if [ "${1:-}" = "--check" ]; then
	if ! command -v dpkg-query >/dev/null; then
		echo "deps: no dpkg-query: cannot check the Debian packages" \
			"(see README, Requirements)" >&2
		exit 0
	fi
	pkgs=("${PKGS[@]}" "${REPORT_PKGS[@]}" "${LIVE_PKGS[@]}")
	# a fio of one's own (make FIO=PATH) stands in for Debian's
	if [ "${FIO:-fio}" != fio ] && command -v "$FIO" >/dev/null; then
		pkgs=("${pkgs[@]/#fio/}")
	fi
	mapfile -t need < <(missing_of "${pkgs[@]}")
	mapfile -t vm < <(missing_of "${VM_PKGS[@]}")
	mapfile -t hosts < <(missing_of "${HOSTS_PKGS[@]}")
	if [ ${#hosts[@]} -gt 0 ]; then
		echo "deps: the many-host test (tests/integration/many_hosts.sh) will skip" \
		     "without: ${hosts[*]}; run 'make deps' (as root) to install them" >&2
	fi
	if [ ${#vm[@]} -gt 0 ]; then
		echo "deps: the emulated-NVMe tests (tests/vm) will skip without: ${vm[*]};" \
		     "run 'make deps' (as root) to install them" >&2
	fi
	if [ ${#need[@]} -gt 0 ]; then
		echo "deps: missing packages the build and the tests need: ${need[*]};" \
		     "run 'make deps' (as root), or: apt-get install ${need[*]}" >&2
		exit 1
	fi
	exit 0
fi

mapfile -t missing < <(missing_of "${PKGS[@]}" "${REPORT_PKGS[@]}" "${VM_PKGS[@]}" \
			       "${HOSTS_PKGS[@]}" "${FUZZ_PKGS[@]}" "${LIVE_PKGS[@]}")
if [ ${#missing[@]} -eq 0 ]; then
	exit 0
fi
SUDO=
if [ "$(id -u)" -ne 0 ]; then
	command -v sudo >/dev/null ||
		{ echo "deps: need root to install: ${missing[*]}" >&2; exit 1; }
	SUDO=sudo
fi
echo "deps: installing ${missing[*]}"
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends \
	"${missing[@]}" >/dev/null
