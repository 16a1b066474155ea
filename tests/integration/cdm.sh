#!/usr/bin/env bash
# CrystalDiskMark text exports (analyze/input/cdm.c, issue 40):
#  - every test's MB/s, IOPS and mean latency, and the footer, of each
#    export (the i3/i2 study's four 5.2.1 exports, a constructed 8.x one
#    with [Mix], the real 7.0.0 (UTF-16LE) and 8.0.1/8.0.2 exports of
#    tests/fixtures/cdm, see its SOURCES.md) as an independent reader
#    (tests/py/cdm_values.py) reads them; the same export as UTF-16LE with a
#    BOM and with LF line ends reads the same, and a real UTF-16LE export
#    reads as its UTF-8 text;
#  - every real export's tests are the sections of one jobs/crystaldiskmark
#    file (so a jobs/run of it compares row by row);
#  - a comparison with a fio run shows fio's lat, as CrystalDiskMark measures;
#  - damaged exports (cut at every line, cut inside every line, a digit of
#    each result replaced): a clear error naming the file and line or the
#    tests that remain, never a crash, never a value read as zero.
source "$(dirname "$0")/../lib.sh"
source "$TOP/tests/damaged.sh"
need_nvanalyze || exit 0
S=$TOP/../shared/fixtures/study-outputs
files=("$TOP"/tests/data/cdm/*.txt)
real=("$TOP"/tests/fixtures/cdm/*.txt)
files+=("${real[@]}")
utf8=	# the first real export stored as UTF-8 (the others are UTF-16LE)
for f in "${real[@]}"; do
	head -c 2 "$f" | cmp -s - <(printf '\377\376') || { utf8=$f; break; }
done
if [ -d "$S" ]; then files+=("$S"/cdm-*.txt); else skip study "no $S"; fi

# Provenance: each real file has its SOURCES.md row, blob = git hash-object.
if out=$(pytool lib/sources "$TOP/tests/fixtures/cdm" 2>&1); then
	pass "sources ($out)"
else
	fail sources "$out"
fi

# values NAME FILE: nvanalyze's reading of FILE against the independent reader's
values() {
	if ! "$NVANALYZE" --format json "$2" >"$T/$1.json" 2>"$T/$1.err"; then
		fail "$1" "nvanalyze exited non-zero: $(head -c 300 "$T/$1.err")"
	elif out=$(pytool cdm_values "$2" "$T/$1.json" 2>&1); then
		pass "$1 ($out)"
	else
		fail "$1" "$out"
	fi
}

for f in "${files[@]}"; do
	values "values-$(basename "$f" .txt)" "$f"
done

# The same export in UTF-16LE with a BOM (as CrystalDiskMark 5-7 save it) and with LF.
c8=$TOP/tests/data/cdm/cdm8-nvme-crlf.txt
mkdir -p "$T/u16"
"$PYTHON" -c 'import sys; d=open(sys.argv[1],"rb").read().decode();
open(sys.argv[2],"wb").write(b"\xff\xfe"+d.encode("utf-16-le"));
open(sys.argv[3],"w").write(d.replace("\r\n","\n"))' "$c8" "$T/u16/cdm8-nvme-crlf.txt" "$T/lf.txt"
values values-utf16 "$T/u16/cdm8-nvme-crlf.txt"
values values-lf "$T/lf.txt"
if "$NVANALYZE" --format json "$c8" | sed '/"files"/,/]/d' >"$T/a.json" &&
   "$NVANALYZE" --format json "$T/u16/cdm8-nvme-crlf.txt" | sed '/"files"/,/]/d' >"$T/b.json" &&
   cmp -s "$T/a.json" "$T/b.json"; then
	pass utf16-same-as-utf8
else
	fail utf16-same-as-utf8 \
		"the UTF-16 export reads differently: $(diff "$T/a.json" "$T/b.json" | head -5)"
fi
grep -q '"CrystalDiskMark 8.0.4"' "$T/a.json" && grep -q '"crystaldiskmark"' "$T/a.json" &&
	grep -q 'Profile: Default; Test: 1 GiB (x5)' "$T/a.json" && pass version-format-footer ||
	fail version-format-footer "tool version, format or footer missing from --format json"

# Pasted into Markdown, as users keep them (a blog post or README): prose
# before and after, the export in a ``` fence.  It reads as the export alone
# (the prose after the fence is no footer comment); two exports pasted into
# one post read as one output (--split none) are an error naming the
# second's banner line, never one read (as runs of their own: paste.sh).
md=$utf8
mkdir -p "$T/md"
post=$T/md/$(basename "$md")
{ printf '# A new SSD\n\nTested at 3 MB/s over USB first; the result:\n\n```text\n'
  cat "$md"; printf '```\n\nDate: the next day it read faster.\nIt feels fast.\n'; } >"$post"
if "$NVANALYZE" --format json "$md" | sed '/"files"/,/]/d' >"$T/plain.json" &&
   "$NVANALYZE" --format json "$post" | sed '/"files"/,/]/d' >"$T/post.json" &&
   cmp -s "$T/plain.json" "$T/post.json"; then
	pass markdown-post
else
	fail markdown-post "the export in a Markdown post reads differently: $(
		diff "$T/plain.json" "$T/post.json" | head -5)"
fi
values values-markdown-post "$post"
{ cat "$post"; printf '\nAnd the old one:\n\n```\n'; cat "$md"; printf '```\n'; } >"$T/two.md"
second=$(grep -n 'CrystalDiskMark [0-9]' "$T/two.md" | sed -n '2s/:.*//p')
"$NVANALYZE" --split none --format json "$T/two.md" >/dev/null 2>"$T/two.err"
rc=$?
if [ "$rc" -eq 2 ] && grep -q "two.md:$second: .*second CrystalDiskMark export" "$T/two.err"
then
	pass markdown-two-exports
else
	fail markdown-two-exports \
		"exit $rc, not the error naming line $second: $(cat "$T/two.err")"
fi
if "$NVANALYZE" --format json "$post" 2>/dev/null | grep -q '"crystaldiskmark"'; then
	pass markdown-post-detected
else
	fail markdown-post-detected "a Markdown post with an export is not read as CrystalDiskMark"
fi

# Like with like: beside a fio run, every side shows lat (submission to completion).
out=$("$NVANALYZE" "$c8" "$TOP/tests/data/fio-json/psync-run1.json" 2>&1)
case $out in
*"Latency: lat (total)"*) pass lat-kind-beside-fio;;
*) fail lat-kind-beside-fio "the report does not show lat: $(echo "$out" | grep -m1 Latency)";;
esac

# Each real export's test names are the sections of one jobs/crystaldiskmark file.
for f in "${real[@]}"; do
	name=jobs-cover-$(basename "$f" .txt)
	"$NVANALYZE" --format json "$f" 2>/dev/null | "$PYTHON" -c 'import json, sys
print("\n".join(sorted({r["job"] for r in json.load(sys.stdin)["results"]})))' >"$T/tests"
	by=
	for j in "$TOP"/jobs/crystaldiskmark/*.fio; do
		sed -n 's/^\[\(.*\)\]$/\1/p' "$j" | LC_ALL=C sort >"$T/sections"
		if [ -s "$T/tests" ] &&
			[ -z "$(LC_ALL=C comm -23 "$T/tests" "$T/sections")" ]; then
			by=$(basename "$j")
			break
		fi
	done
	if [ -n "$by" ]; then pass "$name ($by)"; else
		fail "$name" \
			"no jobs/crystaldiskmark file has the sections $(tr '\n' ' ' <"$T/tests")"
	fi
done

# A real UTF-16LE export (CrystalDiskMark 7.0.0, tests/fixtures/cdm) and its
# UTF-8 text with LF read the same; that UTF-8 text (7.0's "Sequential 1MiB"
# rows) is also damaged below, as cutting the UTF-16 bytes at a newline byte
# would split a character.
u16=$TOP/tests/fixtures/cdm/Cilacap__04_20200103114451.txt
mkdir -p "$T/u8"
c7=$T/u8/$(basename "$u16")
iconv -f UTF-16 -t UTF-8 "$u16" | tr -d '\r' >"$c7"
if head -c 2 "$u16" | cmp -s - <(printf '\377\376') &&
   "$NVANALYZE" --format json "$u16" | sed '/"files"/,/]/d' >"$T/r16.json" &&
   "$NVANALYZE" --format json "$c7" | sed '/"files"/,/]/d' >"$T/r8.json" &&
   cmp -s "$T/r16.json" "$T/r8.json" && grep -q '"CrystalDiskMark 7.0.0"' "$T/r8.json"; then
	pass real-utf16-same-as-utf8
else
	fail real-utf16-same-as-utf8 \
		"the real UTF-16 export reads differently: $(diff "$T/r16.json" "$T/r8.json" |
			head -5)"
fi

for f in "$c8" "${files[@]: -1}" "$utf8" "$c7"; do
	damaged "$f" cdm_values 'MB/s \[\|MB/s$' 's/: *\([0-9]\)/: x/'
done

# Row by row with a jobs/run results directory of jobs/crystaldiskmark/: the
# export's 8.x NVMe-profile tests meet nvme-profile.fio's sections by name;
# the export's [Mix] tests and the fio file's fill are "absent" on the other side.
cdm_rows() {
	local t d
	"$NVANALYZE" --no-traces --summary iops --label cdm --label linux "$c8" "$T/res" \
		>"$T/rows.md" 2>"$T/rows.err"
	for t in SEQ1M-Q8T1 SEQ128K-Q32T1 RND4K-Q32T16 RND4K-Q1T1; do
		for d in read write; do
			grep -Eq "^\| $t-$d · $d +\| +IOPS +\| +[0-9,]+ \| +[0-9,]+ \|" \
				"$T/rows.md" ||
				echo -n " $t-$d"
		done
		grep -Eq "^\| $t-mix · mixed +\| +IOPS +\| +[0-9,]+ \| +absent \|" "$T/rows.md" ||
			echo -n " $t-mix"
	done
	grep -Eq "^\| precondition-fill · write +\| +IOPS +\| +absent \| +[0-9,]+ \|" \
		"$T/rows.md" || echo -n " precondition-fill"
}
rows_vs_jobs_run rows-vs-jobs-run cdm_rows CDM_SIZE=16m -- \
	"$TOP/jobs/crystaldiskmark/nvme-profile.fio"
