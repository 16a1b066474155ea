#!/usr/bin/env bash
# The style rule on line length: every line of the tracked source files
# (git ls-files: the extensions in EXTS, and scripts without one whose
# first line names sh, bash or python) is under 100 columns, at most 99,
# a tab counted as 8 columns and every other byte as one.  The first 10
# offenders and their total are named.  Outside a git checkout (a release
# tarball) there is no list of tracked files: skipped.
. "$(dirname "$0")/../lib.sh"
cd "$TOP" || exit 1

EXTS="c h sh py"
MAX=99

if ! git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
	skip lines_under_100_columns "not a git checkout: no list of tracked files"
	exit 0
fi

pats=()
for e in $EXTS; do pats+=("*.$e"); done
files=()
while IFS= read -r -d '' f; do
	[ -f "$f" ] && files+=("$f")
done < <(git ls-files -z -- "${pats[@]}")
while IFS= read -r -d '' f; do	# jobs/run, tests/run, .ci/run ...
	case "$f" in *.*) continue;; esac
	[ -f "$f" ] && head -n 1 "$f" | grep -Eq '^#!.*(sh|bash|python3?)$' && files+=("$f")
done < <(git ls-files -z)

if [ ${#files[@]} -eq 0 ]; then
	fail lines_under_100_columns "no tracked files with the extensions '$EXTS'"
	exit 0
fi

# "FILE:LINE: N columns" per long line; LC_ALL=C: bytes, whichever awk.
long=$(printf '%s\0' "${files[@]}" | LC_ALL=C xargs -0 awk -v max="$MAX" '{
	l = $0
	gsub(/\t/, "        ", l)
	if (length(l) > max)
		print FILENAME ":" FNR ": " length(l) " columns"
}')
if [ -z "$long" ]; then
	pass lines_under_100_columns
else
	n=$(wc -l <<<"$long")
	fail lines_under_100_columns \
		"$(head -n 10 <<<"$long" | paste -sd ';' - | sed 's/;/; /g') ($n in all)"
fi
