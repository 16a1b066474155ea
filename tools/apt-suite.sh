#!/usr/bin/env bash
# Run apt-get or apt-cache against one Debian suite with private package lists.
#
#   tools/apt-suite.sh [--src] SUITE apt-get|apt-cache ARGS...
#
# The suite's lists live in $NV_APT_DIR/SUITE[-src] (default build/apt): the
# host's /etc/apt is never changed, so adding sid's sources or trixie's
# kernels cannot make `apt-get install` on the host pick another release.
# --src gives a deb-src entry (apt-get source), else a deb entry (apt-get
# download, apt-cache depends).  The mirror is the one the host's own Debian
# entry names (NV_DEBIAN_MIRROR overrides it).  The lists are fetched on
# first use and again after a day, or when an apt command fails.
set -euo pipefail

die() { echo "apt-suite: $*" >&2; exit 1; }

type=deb
if [ "${1:-}" = "--src" ]; then
	type=deb-src
	shift
fi
[ $# -ge 2 ] || die "usage: apt-suite.sh [--src] SUITE apt-get|apt-cache ARGS..."
suite=$1 tool=$2
shift 2
case $tool in apt-get|apt-cache) ;; *) die "$tool: only apt-get or apt-cache";; esac
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
base=${NV_APT_DIR:-$top/build/apt}
dir=$base/$suite${type#deb}
keyring=/usr/share/keyrings/debian-archive-keyring.gpg

# host_mirror: the first URI of the host's Debian (not security) entry.
host_mirror() {
	local f
	for f in /etc/apt/sources.list.d/*.sources; do
		[ -f "$f" ] || continue
		awk '/^URIs:/ && $2 !~ /security/ {print $2; exit}' "$f"
	done | head -n 1
	[ -f /etc/apt/sources.list ] &&
		awk '$1 == "deb" && $2 !~ /security/ && $0 ~ /main/ {print $2; exit}' \
			/etc/apt/sources.list
	true
}

mirror=${NV_DEBIAN_MIRROR:-$(host_mirror | head -n 1)}
[ -n "$mirror" ] || die "no Debian entry in /etc/apt to take the mirror from; set NV_DEBIAN_MIRROR"
[ -f "$keyring" ] || die "$keyring missing (apt-get install debian-archive-keyring)"

mkdir -p "$dir/lists/partial" "$dir/cache/archives/partial" "$dir/parts" "$dir/prefs"
echo "$type [signed-by=$keyring] $mirror $suite main" >"$dir/sources.list.new"
cmp -s "$dir/sources.list.new" "$dir/sources.list" 2>/dev/null || rm -f "$dir/updated"
mv "$dir/sources.list.new" "$dir/sources.list"
opts=(-o "Dir::Etc::sourcelist=$dir/sources.list" -o "Dir::Etc::sourceparts=$dir/parts"
      -o "Dir::Etc::preferencesparts=$dir/prefs" -o "Dir::State::Lists=$dir/lists"
      -o "Dir::Cache=$dir/cache" -o "Dir::State::status=/dev/null")

update() {
	apt-get "${opts[@]}" update -qq >"$dir/update.log" 2>&1 ||
		die "apt-get update for $suite ($type $mirror) failed:" \
			"$(tail -n 2 "$dir/update.log")"
	touch "$dir/updated"
}

if ! [ -f "$dir/updated" ] || [ -n "$(find "$dir/updated" -mmin +1440)" ]; then
	update
fi
# One retry after a fresh update: the lists may name a version the mirror
# has replaced since.
"$tool" "${opts[@]}" "$@" && exit 0
update
exec "$tool" "${opts[@]}" "$@"
