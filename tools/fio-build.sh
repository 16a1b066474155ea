#!/usr/bin/env bash
# Build a fio release from Debian's source package, cached under build/fio.
#
#   tools/fio-build.sh [--print] DEBVERSION [SUITE]
#
# Fetches the upstream tarball of the Debian source package fio=DEBVERSION
# (e.g. 3.41-2) from SUITE (default sid) with `apt-get source --tar-only
# --download-only` through tools/apt-suite.sh (private lists; /etc/apt is not
# touched), unpacks it into build/fio/VERSION, configures it the way Debian
# does (--disable-native --prefix=/usr; the GTK front end and the nbd engine
# are left out: neither changes what an engine shares with fio) and builds
# the fio binary in place.  The result is a configured tree for
# `make FIO_SRC=build/fio/VERSION FIO=build/fio/VERSION/fio`.  Done once: a
# later call finds build/fio/VERSION/.built and only prints the path.
# --print prints the tree's path without building anything.
set -euo pipefail

die() { echo "fio-build: $*" >&2; exit 1; }

print=0
if [ "${1:-}" = "--print" ]; then
	print=1
	shift
fi
debver=${1:?usage: fio-build.sh [--print] DEBVERSION [SUITE]}
suite=${2:-sid}
ver=${debver%-*}
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cache=${NV_FIO_BUILD:-$top/build/fio}
tree=$cache/$ver
if [ $print -eq 1 ]; then
	echo "$tree"
	exit 0
fi
[ -f "$tree/.built" ] && [ -x "$tree/fio" ] && { echo "$tree"; exit 0; }

mkdir -p "$cache"
exec 9>"$cache/.lock"
flock 9
[ -f "$tree/.built" ] && [ -x "$tree/fio" ] && { echo "$tree"; exit 0; }
tarball=$cache/fio_$ver.orig.tar.gz
if ! [ -s "$tarball" ]; then
	dl=$(mktemp -d "$cache/dl.XXXXXX")
	chmod 777 "$dl" # apt's _apt user downloads into it
	echo "fio-build: fetching the fio=$debver source tarball from $suite" >&2
	(cd "$dl" && "$top/tools/apt-suite.sh" --src "$suite" apt-get source -qq --tar-only \
		--download-only "fio=$debver") >"$cache/fetch.log" 2>&1 ||
		die "apt-get source fio=$debver from $suite failed:" \
			"$(tail -n 2 "$cache/fetch.log")"
	mv "$dl"/fio_*.orig.tar.* "$tarball" 2>/dev/null ||
		die "no fio_*.orig.tar.* in the download (see $cache/fetch.log)"
	rm -rf "$dl"
fi
rm -rf "$tree" "$tree.tmp"
mkdir -p "$tree.tmp"
tar -xf "$tarball" -C "$tree.tmp" --strip-components=1 || die "cannot unpack $tarball"
grep -q "^DEF_VER=fio-$ver\$" "$tree.tmp/FIO-VERSION-GEN" ||
	die "$tarball is not fio-$ver: $(grep '^DEF_VER=' "$tree.tmp/FIO-VERSION-GEN")"
echo "fio-build: configuring and building fio-$ver in $tree (a few minutes)" >&2
(cd "$tree.tmp" && ./configure --disable-native --prefix=/usr) >"$cache/build-$ver.log" 2>&1 ||
	die "configure failed, see $cache/build-$ver.log"
jobs=$(nproc 2>/dev/null || echo 2)
(cd "$tree.tmp" && nice make -j"$jobs" fio) >>"$cache/build-$ver.log" 2>&1 ||
	die "make failed, see $cache/build-$ver.log"
# The binary's own version string comes from FIO-VERSION-GEN: outside a git
# checkout it is DEF_VER, the same string tools/fio-src.sh compares.
mv "$tree.tmp" "$tree"
touch "$tree/.built"
echo "fio-build: $("$tree/fio" --version) ready in $tree" >&2
echo "$tree"
