#!/usr/bin/env bash
# --percentiles (issue 31, docs/analysis.md "Percentile levels"):
#  - PerfKitBenchmarker's sample fio 2.1.4 result: every level fio reported
#    for every job and direction with IOs (17 levels x 5 jobs) equals
#    `--percentiles fio --format json`, both under fio's own key and as the
#    table row of that level, read independently with Python's json module;
#  - a traced fio run on a file: `--percentiles 25,75,99.5` gives for each
#    level the nearest rank over every IO of the trace, computed in Python
#    from the trace itself (tests/py/lib/nvtrace_reader.py); without traces the
#    level fio lacks (p25, p75) prints '-' with a note, never a value;
#  - a fio value above the job's max is marked in Markdown (a dagger and its
#    footnote; so does report.html), JSON (KEY_above_max) and CSV (a
#    "fio_above_max" flag row).
source "$(dirname "$0")/../lib.sh"
need_nvanalyze || exit 0

# ---- every level fio reported, as fio keys it ----
pk=$TOP/../shared/fixtures/fio-json/PerfKitBenchmarker__fio-parser-sample-result.json
if [ -f "$pk" ]; then
	"$NVANALYZE" --percentiles fio --format json "$pk" >"$T/pk.json" 2>"$T/pk.err" ||
		fail perfkit_run "$(cat "$T/pk.err")"
	out=$(pytool percentiles_fio "$pk" "$T/pk.json" \
		PerfKitBenchmarker__fio-parser-sample-result 2>&1)
	[ $? -eq 0 ] && [ "$out" = "ok 85 levels" ] && pass perfkit_every_fio_level ||
		fail perfkit_every_fio_level "$(echo "$out" | head -5 | tr '\n' ' ')"
	# p99.9 of sequential_write is 872 ms, its max 870 ms: marked, explained
	"$NVANALYZE" -j sequential_write "$pk" >"$T/pk.md" 2>&1
	grep -q "^| clat p99.9 .* 872 ms † |" "$T/pk.md" &&
		grep -q "^† above the job's max" "$T/pk.md" &&
		pass above_max_marked || fail above_max_marked "$(grep -E 'p99.9 |†' "$T/pk.md")"
	pytool percentiles_json_marks "$T/pk.json" sequential_write write above clat_p99.9_ns \
		clat_p99_ns >/dev/null &&
		pass above_max_json || fail above_max_json "no clat_p99.9_ns_above_max"
	# CSV: a "... fio_above_max" flag row under each such value, none elsewhere
	"$NVANALYZE" --percentiles fio --format csv "$pk" >"$T/pk.csv" 2>"$T/pk.err" &&
		out=$(pytool percentiles_csv_above "$pk" "$T/pk.csv" 2>&1) &&
		[ "$out" = "ok 8 flagged, 162 not" ] && pass above_max_csv ||
		fail above_max_csv "$(echo "$out" | head -5 | tr '\n' ' ')"
	# report.html (nvanalyze -o): the cell marked, its footnote under the table
	"$NVANALYZE" -o "$T/pkdir" "$pk" >/dev/null 2>"$T/pkdir.err"
	h=$T/pkdir/report.html
	[ -f "$h" ] && grep -q '<td>clat p99.9</td><td class="r">872 ms †</td>' "$h" &&
		grep -q "^<p>† above the job's max: fio reports a percentile as" "$h" &&
		! grep -q '<td>clat p99</td><td class="r">[^<]*†' "$h" &&
		pass above_max_html ||
		fail above_max_html "$(grep -E 'p99.9<|†' "$h" 2>&1 | head -3
					 tail -2 "$T/pkdir.err")"
else
	skip perfkit_every_fio_level "no $pk"
fi

# ---- a level fio did not report, no traces: '-' and a note ----
d=$TOP/tests/data/fio-json/uring-run1.json
"$NVANALYZE" --percentiles 25,50 -j randread -d read "$d" >"$T/nt.md" 2>&1
grep -q "^| clat p25 *| *- |" "$T/nt.md" && grep -q "^p25 \`-\`: fio did not report" "$T/nt.md" &&
	pass missing_level_dash_and_note ||
	fail missing_level_dash_and_note "$(grep p25 "$T/nt.md")"
"$NVANALYZE" --percentiles 25,50 -j randread -d read --format json "$d" >"$T/nt.json" 2>"$T/nt.err"
grep -q "fio did not report clat p25" "$T/nt.err" &&
	pytool percentiles_json_marks "$T/nt.json" randread read null clat_p25_ns >/dev/null &&
	pass missing_level_json_null || fail missing_level_json_null "$(cat "$T/nt.err")"

# ---- traces: any level exact ----
need_engine traced_levels_exact || exit 0
mkdir -p "$T/tr"
nvfio --name=job --filename="$T/file" --size=16M --rw=randrw --rwmixread=60 --bs=4k --iodepth=4 \
	--number_ios=3000 --nv_trace="$T/tr" --output-format=json >"$T/a.json" 2>"$T/a.err" ||
	fail fio_traced "$(tail -n 3 "$T/a.err")"
"$NVANALYZE" --percentiles 25,75,99.5 --format json "$T/a.json" >"$T/ex.json" 2>"$T/ex.err" ||
	fail traced_run "$(cat "$T/ex.err")"
pytool percentiles_exact "$T/ex.json" job a 25,75,99.5 "$T"/tr/job.*.nvt >"$T/ex.out" 2>&1
[ $? -eq 0 ] && grep -q "ok write clat_p99.5_ns" "$T/ex.out" && pass traced_levels_exact ||
	fail traced_levels_exact "$(grep -v '^ok' "$T/ex.out" | head -5 | tr '\n' ' ')"
"$NVANALYZE" --percentiles 25,75,99.5 "$T/a.json" >"$T/ex.md" 2>&1
grep -q "^| clat p25 .*(exact) |" "$T/ex.md" && ! grep -q "fio did not report" "$T/ex.md" &&
	pass traced_levels_markdown || fail traced_levels_markdown "$(grep 'clat p' "$T/ex.md")"
