#!/bin/sh
# Print nvengine's version, the one `nvanalyze --version` and the Debian
# package (tools/deb.sh) carry.
#
#   tools/version.sh
#
# From `git describe --tags` when a tag names a release: v1.2 -> 1.2, and
# 3 commits after it -> 1.2+git3.SHA.  A clone without tags (or a shallow
# one) gives 0.0~gitDATE.SHA, DATE being the commit's date (so the same
# commit always gives the same version, and a later tagged 0.x sorts after
# it).  A tree without git: the VERSION file at the top if there is one,
# else 0.0~unknown.  A tree with uncommitted changes to tracked files gets
# +dirty.  Always a valid Debian version (starts with a digit; [0-9A-Za-z.+~]).
set -u
top=$(cd "$(dirname "$0")/.." && pwd)

if ! git -C "$top" rev-parse --git-dir >/dev/null 2>&1; then
	if [ -f "$top/VERSION" ]; then
		tr -cd '0-9A-Za-z.+~' <"$top/VERSION"
		echo
	else
		echo 0.0~unknown
	fi
	exit 0
fi
dirty=
git -C "$top" diff --quiet HEAD -- 2>/dev/null || dirty=+dirty
if d=$(git -C "$top" describe --tags --match 'v[0-9]*' --long 2>/dev/null); then
	# v1.2-3-gabcdef0: tag, commits since, abbreviated commit
	sha=${d##*-g}
	rest=${d%-g*}
	n=${rest##*-}
	tag=${rest%-*}
	v=$(printf '%s' "${tag#v}" | tr -c '0-9A-Za-z.+~\n' '.')
	if [ "$n" -eq 0 ]; then
		echo "$v$dirty"
	else
		echo "$v+git$n.$sha$dirty"
	fi
	exit 0
fi
date=$(git -C "$top" log -1 --format=%cd --date=format:%Y%m%d 2>/dev/null)
sha=$(git -C "$top" rev-parse --short=7 HEAD 2>/dev/null)
if [ -n "$date" ] && [ -n "$sha" ]; then
	echo "0.0~git$date.$sha$dirty"
else
	echo 0.0~unknown
fi
