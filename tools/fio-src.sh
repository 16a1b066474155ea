#!/usr/bin/env bash
# Provide a configured fio source tree that matches the fio binary.
#
#   tools/fio-src.sh DEST          fetch Debian's fio source into DEST and configure it
#   tools/fio-src.sh --check DIR   only check that DIR matches `$FIO --version`
#
# FIO is the fio binary that will load the engine (default: fio on PATH; the
# Makefile passes its FIO=).  Fetching needs that fio to be Debian's package.
#
# The engine is compiled against fio's internal headers (struct thread_data,
# struct io_u, ...).  Those must be the headers of the fio that will load the
# engine, configured the way that fio was built, or fio crashes.  On Debian the
# matching source is the `fio` source package of the installed version; it is
# configured with the command line in its debian/rules.
set -euo pipefail

die() { echo "fio-src: $*" >&2; exit 1; }

FIO=${FIO:-fio}

installed_version() {
	command -v "$FIO" >/dev/null ||
		die "$FIO: no such fio binary (run 'make deps', install fio or set FIO=PATH)"
	"$FIO" --version | sed -n 's/^\(fio-[0-9][0-9.]*\).*/\1/p'
}

source_version() {
	# DEF_VER in FIO-VERSION-GEN is the release the tree was cut from.
	sed -n 's/^DEF_VER=\(fio-[0-9][0-9.]*\).*/\1/p' "$1/FIO-VERSION-GEN"
}

check_tree() {
	local dir=$1 want have
	[ -f "$dir/FIO-VERSION-GEN" ] || die "$dir is not a fio source tree (no FIO-VERSION-GEN)"
	want=$(installed_version)
	have=$(source_version "$dir")
	if [ "$want" != "$have" ]; then
		die "version mismatch: fio $(command -v "$FIO") is $want" \
			"but the source in $dir is $have.
  The engine must be built against the source of the fio that loads it.
  Use a $want source tree (make FIO_SRC=/path/to/$want) or the $have binary" \
			"(make FIO=/path/to/fio)."
	fi
	[ -f "$dir/config-host.h" ] ||
		die "$dir is not configured (no config-host.h):" \
			"run ./configure in it the way your fio was built"
}

ensure_deb_src() {
	# apt needs a deb-src entry to fetch sources; add one for the suites the
	# system already uses when there is none.
	if grep -rqsE '^(deb-src|Types:.*deb-src)' /etc/apt/sources.list \
		/etc/apt/sources.list.d/; then
		return 0
	fi
	local f=/etc/apt/sources.list.d/nvengine-deb-src.sources
	echo "fio-src: adding deb-src entries ($f)"
	if [ -f /etc/apt/sources.list.d/debian.sources ]; then
		sed 's/^Types: deb$/Types: deb-src/' /etc/apt/sources.list.d/debian.sources > "$f"
	elif [ -f /etc/apt/sources.list ]; then
		sed -n 's/^deb /deb-src /p' /etc/apt/sources.list \
			> /etc/apt/sources.list.d/nvengine-deb-src.list
	else
		die "no apt sources found; fetch the fio source yourself and use make FIO_SRC=DIR"
	fi
	apt-get update -qq
}

fetch_and_configure() {
	local dest=$1 ver tmp cfg
	[ "$(command -v "$FIO")" = "$(command -v fio)" ] ||
		die "FIO=$FIO is not the fio on PATH;" \
			"give its configured source tree with make FIO_SRC=DIR"
	ver=$(dpkg-query -W -f='${Version}' fio 2>/dev/null) ||
		die "fio is not a Debian package here;" \
			"use make FIO_SRC=DIR with a configured $(installed_version) tree"
	[ "$(id -u)" -eq 0 ] ||
		die "fetching the fio source needs root for apt (or use make FIO_SRC=DIR)"
	ensure_deb_src
	tmp=$(mktemp -d "${dest%/*}/fio-dl.XXXXXX")
	echo "fio-src: fetching Debian source fio=$ver"
	(cd "$tmp" && apt-get source -qq --download-only "fio=$ver" >/dev/null 2>&1) ||
		(apt-get update -qq && cd "$tmp" &&
			apt-get source -qq --download-only "fio=$ver" >/dev/null) ||
		die "apt-get source fio=$ver failed"
	(cd "$tmp" && dpkg-source -q -x ./*.dsc src >/dev/null 2>&1) ||
		die "dpkg-source -x failed in $tmp"
	# The configure line of debian/rules, e.g.
	#   ./configure --disable-native --prefix=/usr --enable-gfio --enable-libnbd
	cfg=$(sed -n 's/^[[:space:]]*\.\/configure \(.*\)$/\1/p' "$tmp/src/debian/rules" |
		head -n1)
	[ -n "$cfg" ] || cfg="--disable-native --prefix=/usr"
	echo "fio-src: ./configure $cfg"
	# shellcheck disable=SC2086
	if ! (cd "$tmp/src" && ./configure $cfg >configure.out 2>&1); then
		# gfio (GTK front end) and libnbd (an engine) need their -dev
		# packages; neither changes the structures an engine shares with fio.
		cfg=$(echo "$cfg" | sed 's/--enable-gfio//; s/--enable-libnbd//')
		echo "fio-src: retrying without gfio/libnbd (GUI and nbd engine only):" \
			"./configure $cfg"
		# shellcheck disable=SC2086
		(cd "$tmp/src" && ./configure $cfg >configure.out 2>&1) ||
			die "configure failed, see $tmp/src/configure.out"
	fi
	rm -rf "$dest"
	mv "$tmp/src" "$dest"
	rm -rf "$tmp"
}

if [ "${1:-}" = "--check" ]; then
	check_tree "$2"
	exit 0
fi
dest=${1:?usage: fio-src.sh DEST | --check DIR}
mkdir -p "$(dirname "$dest")"
if [ -f "$dest/config-host.h" ] && [ "$(source_version "$dest")" = "$(installed_version)" ]; then
	exit 0
fi
fetch_and_configure "$dest"
check_tree "$dest"
echo "fio-src: $(source_version "$dest") source ready in $dest"
