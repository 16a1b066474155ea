#!/usr/bin/env bash
# Build the Debian package nvengine_VERSION_ARCH.deb in the repository root
# with dpkg-deb (no network, no debian/ source tree): `make deb` runs it
# after `make all`.
#
#   O=build [DEB_DIR=DIR] tools/deb.sh     (DEB_DIR: where the .deb goes)
#
# The layout: make install with PREFIX=/usr (nvanalyze in /usr/bin, the
# engine in /usr/lib/nvengine/, style.gp in /usr/share/nvanalyze/plots/,
# the man pages, the job files in /usr/share/nvengine/jobs/ with jobs/run
# as /usr/bin/nvengine-run, a link: it finds the engine from there), and
# the docs in /usr/share/doc/nvengine/.  The binaries are stripped.  Depends:
# dpkg-shlibdeps on the binaries (the build machine's package names), and
# fio at exactly the version the engine was built against (it loads into
# no other).  The version: tools/version.sh (as nvanalyze --version).
# The packaging files are in packaging/deb/.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
O=${O:-build}
FIO=${FIO:-fio}

die() { echo "deb: $*" >&2; exit 1; }

for t in dpkg-deb dpkg-shlibdeps; do
	command -v "$t" >/dev/null ||
		die "$t is missing: run 'make deps' (apt-get install dpkg-dev)"
done
analyzer=$O/nvanalyze engine=$O/libnvengine.so
[ "$O" != build ] || { analyzer=nvanalyze; engine=libnvengine.so; }
[ -x "$analyzer" ] && [ -f "$engine" ] || die "no $analyzer or $engine: run 'make' first"

version=$(tools/version.sh)
arch=$(dpkg --print-architecture)
# fio: the Debian package of the binary the engine was built for
# (tools/fio-src.sh checked that the source matches it)
fio_bin=$(readlink -f "$(command -v "$FIO")") || die "$FIO: no such fio binary"
fio_pkg=$(dpkg -S "$fio_bin" 2>/dev/null | sed -n '1s/:.*//p')
[ -n "$fio_pkg" ] || die "$fio_bin is not from a Debian package: the package must depend on the
  fio the engine was built for; build with Debian's fio (make FIO=fio)"
fio_ver=$(dpkg-query -W -f='${Version}' "$fio_pkg")
# the maintainer: DEBFULLNAME/DEBEMAIL, else git's user, else the commit's author
maint=${DEBFULLNAME:-$(git config user.name 2>/dev/null ||
	git log -1 --format=%an 2>/dev/null || echo nvengine)}
email=${DEBEMAIL:-$(git config user.email 2>/dev/null ||
	git log -1 --format=%ae 2>/dev/null || echo nvengine@localhost)}

case $O in	# the staging root as an absolute path, whichever O make was given
/*) work=$O/deb;;
*) work=$top/$O/deb;;
esac
root=$work/root
rm -rf "$work"
mkdir -p "$root/DEBIAN"
make -s O="$O" DESTDIR="$root" PREFIX=/usr install >/dev/null

# docs, changelog, copyright
doc=$root/usr/share/doc/nvengine
install -D -m 0644 README.md "$doc/README.md"
install -m 0644 docs/*.md docs/*.png "$doc/"
# the years of the commits (or this year without git)
years=$(git log --format=%cd --date=format:%Y 2>/dev/null | sort -u | sed -n '1p;$p' | uniq |
	paste -sd- -)
sed "s|@YEARS@|${years:-$(date +%Y)}|" packaging/deb/copyright >"$doc/copyright"
chmod 0644 "$doc/copyright"
date=$(git log -1 --format=%cD 2>/dev/null || date -R)
{
	echo "nvengine ($version) unstable; urgency=medium"
	echo
	echo "  * Built from $(git rev-parse --short=12 HEAD 2>/dev/null ||
		echo 'a tree without git')."
	echo
	echo " -- $maint <$email>  $date"
} | gzip -9n >"$doc/changelog.gz"
gzip -9n "$doc/README.md"
gzip -9n "$root"/usr/share/man/man*/*

strip --remove-section=.comment --remove-section=.note "$root/usr/bin/nvanalyze"
strip --remove-section=.comment --remove-section=.note --strip-unneeded \
	"$root/usr/lib/nvengine/libnvengine.so" "$root/usr/lib/nvanalyze/libnvpngfast.so"
chmod 0644 "$root/usr/lib/nvengine/libnvengine.so" "$root/usr/lib/nvanalyze/libnvpngfast.so"

# Depends: the libraries' packages (dpkg-shlibdeps wants a debian/control)
mkdir -p "$work/src/debian"
printf 'Source: nvengine\n\nPackage: nvengine\nArchitecture: any\n' >"$work/src/debian/control"
shlibs=$(cd "$work/src" && dpkg-shlibdeps -O "$root/usr/bin/nvanalyze" \
	"$root/usr/lib/nvengine/libnvengine.so" "$root/usr/lib/nvanalyze/libnvpngfast.so" |
	sed -n 's/^shlibs:Depends=//p')
[ -n "$shlibs" ] || die "dpkg-shlibdeps found no libraries"
depends="$shlibs, $fio_pkg (= $fio_ver)"

(cd "$root" && find usr -type f -exec md5sum {} + | LC_ALL=C sort -k 2) >"$root/DEBIAN/md5sums"
chmod 0644 "$root/DEBIAN/md5sums"
size=$(du -sk --exclude=DEBIAN "$root" | cut -f1)
sed -e "s|@VERSION@|$version|" -e "s|@ARCH@|$arch|" -e "s|@MAINTAINER@|$maint <$email>|" \
    -e "s|@SIZE@|$size|" -e "s|@DEPENDS@|$depends|" packaging/deb/control.in \
    >"$root/DEBIAN/control"

find "$root" -type d -exec chmod 0755 {} +
out=${DEB_DIR:-.}
mkdir -p "$out"
deb=$out/nvengine_${version}_$arch.deb
deb=${deb#./}
rm -f "$out"/nvengine_*_"$arch".deb
dpkg-deb --root-owner-group -Zxz --build "$root" "$deb" >/dev/null
echo "deb: $deb (Depends: $depends)"
