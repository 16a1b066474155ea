#!/usr/bin/env bash
# nvanalyze's outputs around the traces (docs/analysis.md):
#  - the findings (throughput, warm-up, spikes) in --format json and in -o's
#    tables.json; CSV numbers in one plain format;
#  - -j/-d select the trace sections and figures too;
#  - the last, partial interval is left out of the rate data; the
#    exceedance curve reaches the largest IO;
#  - -o creates missing parents, and into an existing directory removes the
#    figures of the earlier report it does not write again, never a file it
#    did not write;
#  - DIR/report.html: one self-contained page (no external reference), with
#    as many figures shown as report.md has figures: by default each its
#    PNG (the only file rendered) as a data: URI, with --figures svg each
#    its SVG inline; rendered by headless Chromium into a PNG that is not
#    blank and shows the figures;
#  - report.html reads like a study (tests/py/report_html_study.py): the
#    summary table and its figure (summary.png only, embedded)
#    first, then the claims, then the per-job sections; every link of the
#    contents reaches an id; a print style; printed to PDF by Chromium,
#    pdftotext (poppler-utils; SKIP without it) reads summary, claims, per
#    job in that order over several pages, and shut <details> print open.
source "$(dirname "$0")/../lib.sh"
need_engine && need_nvanalyze || exit 0

# two traced runs of one job name: a random read, and a mixed one
head -c 32M /dev/zero >"$T/file"
mkdir -p "$T/ta" "$T/tb"
nvfio --name=job --filename="$T/file" --size=32M --rw=randread --bs=4k --iodepth=8 \
	--runtime=3 --time_based --nv_trace="$T/ta" --output-format=json+ \
	>"$T/a.json" 2>"$T/a.err" ||
	fail fio_a "$(tail -n 3 "$T/a.err")"
nvfio --name=job --filename="$T/file" --size=32M --rw=randrw --rwmixread=70 --bs=4k --iodepth=4 \
	--runtime=3 --time_based --nv_trace="$T/tb" --output-format=json+ \
	>"$T/b.json" 2>"$T/b.err" ||
	fail fio_b "$(tail -n 3 "$T/b.err")"

# ---- findings in --format json (numbers and text), CSV numbers ----
"$NVANALYZE" --format json --interval 0.25 "$T/a.json" "$T/b.json" >"$T/ab.json" 2>"$T/ab.err"
out=$(pytool report_findings_json "$T/ab.json")
[ "$out" = ok ] && pass json_findings || fail json_findings "$out $(head -c 300 "$T/ab.err")"
"$NVANALYZE" --format csv "$T/a.json" "$T/b.json" >"$T/ab.csv" 2>/dev/null
if grep -q '[0-9]e[-+][0-9]' "$T/ab.csv" ||
	! grep -q '^job,read,clat p99,ns,[0-9.]*,[0-9.]*,' "$T/ab.csv"; then
	fail csv_one_number_format "$(grep -m 3 '[0-9]e[-+]' "$T/ab.csv")"
else
	pass csv_one_number_format
fi

# ---- tracing's disturbance in each job's trace section, every format ----
# (the waits as run a's footer has them; JSON: report_findings_json above)
waits=$("$NVANALYZE" stat "$T"/ta/*.nvt 2>/dev/null | sed -n 's/^  writer.io_waits = //p')
re="Tracing: IO loop held by tracing [0-9.]*% of [0-9.]* s\(, [0-9]* traces' time summed\)\? "
re="${re}($waits waits\?), trace ring "
re="${re}high-water [0-9]* of [0-9]* chunks, writer [0-9]* ns CPU per record"
for fmt in md text; do
	"$NVANALYZE" --format $fmt "$T/a.json" >"$T/dist.$fmt" 2>&1
	if [ -n "$waits" ] && grep -q "^$re\.$" "$T/dist.$fmt"; then
		pass "tracing_disturbance_$fmt"
	else
		fail "tracing_disturbance_$fmt" "waits=$waits: $(grep -m1 Tracing "$T/dist.$fmt")"
	fi
done
"$NVANALYZE" --format csv "$T/a.json" >"$T/dist.csv" 2>&1
if [ -n "$waits" ] && grep -q "^job,a,tracing IO-loop waits,count,$waits$" "$T/dist.csv" &&
   grep -q '^job,a,trace ring high-water,chunks,[0-9]*$' "$T/dist.csv" &&
   grep -q '^job,a,trace writer CPU per record,ns,[0-9.]*$' "$T/dist.csv"; then
	pass tracing_disturbance_csv
else
	fail tracing_disturbance_csv "waits=$waits: $(grep -c '^job,a,trac' "$T/dist.csv") rows"
fi

# ---- -j / -d: trace sections and figures follow the selection ----
"$NVANALYZE" -d write "$T/a.json" "$T/b.json" >"$T/dw.md" 2>&1
if grep -q "### job · b: from the traces" "$T/dw.md" &&
   ! grep -q "### job · a: from the traces" "$T/dw.md" &&
   grep -q "^| write " "$T/dw.md" &&
   ! grep -q "^| read \|^| all \|read latency spikes" "$T/dw.md"; then
	pass dir_selects_trace_sections
else
	fail dir_selects_trace_sections \
		"$(grep -n "from the traces\|^| read\|^| all" "$T/dw.md" | head -5)"
fi
"$NVANALYZE" -j 'nomatch*' -j job "$T/a.json" >"$T/j1.md" 2>&1
"$NVANALYZE" -j 'latency*' "$T/a.json" >"$T/j2.md" 2>&1
if grep -q "from the traces" "$T/j1.md" && ! grep -q "from the traces" "$T/j2.md"; then
	pass job_selects_trace_sections
else
	fail job_selects_trace_sections "$(grep -c "from the traces" "$T/j1.md" "$T/j2.md")"
fi
if ! command -v gnuplot >/dev/null; then
	skip outdir "gnuplot not installed"
	exit 0
fi

# ---- -o: parents created, figures, partial interval, exceedance ----
"$NVANALYZE" -o "$T/deep/er/out" "$T/a.json" "$T/b.json" >/dev/null 2>"$T/o.err"
[ -f "$T/deep/er/out/report.md" ] && [ -f "$T/deep/er/out/report.html" ] &&
	pass outdir_creates_parents || fail outdir_creates_parents "$(cat "$T/o.err")"
O=$T/deep/er/out
out=$(pytool report_series_check "$NVANALYZE" "$O" "$T/ta")
[ "$out" = ok ] && pass series_partial_exceedance_max_tables_json ||
	fail series_partial_exceedance_max_tables_json "$out"

# ---- -o into the same directory: stale figures go, other files stay ----
echo mine >"$O/notes.txt"
echo mine >"$O/lat_job_a_write.png"	# a name nvanalyze could write, but did not
n_before=$(ls "$O"/lat_job_b_read.* 2>/dev/null | wc -l)
"$NVANALYZE" -o "$O" -d write "$T/a.json" "$T/b.json" >/dev/null 2>"$T/o2.err"
if [ "$n_before" -gt 0 ] && [ ! -e "$O/lat_job_b_read.png" ] && [ ! -e "$O/lat_job_b_read.gp" ] &&
   [ ! -e "$O/cdf_job_read.png" ] && [ -e "$O/lat_job_b_write.png" ] && [ -e "$O/notes.txt" ] &&
   [ -e "$O/lat_job_a_write.png" ] && grep -qx "lat_job_b_write.png" "$O/nvanalyze-files.txt"; then
	pass outdir_removes_stale_keeps_others
else
	fail outdir_removes_stale_keeps_others "$(ls "$O" | tr '\n' ' ') $(cat "$T/o2.err")"
fi
ls "$O"/lat_*_read.gp "$O"/*_read.gp 2>/dev/null | grep -q . &&
	fail dir_selects_figures "$(ls "$O"/*read*.gp)" || pass dir_selects_figures

# ---- report.html: self-contained, every figure inline, rendered ----
"$NVANALYZE" -o "$T/h" --claim 'iops:+0%' --claim 'p99<=10s' "$T/a.json" "$T/b.json" \
	>/dev/null 2>"$T/h.err"
H=$T/h/report.html
nmd=$(grep -c '^!\[' "$T/h/report.md")
nsvg=$(grep -c '<svg' "$H")
nimg=$(grep -o '<img alt="[^"]*" src="data:image/png;base64,' "$H" | wc -l)
[ "$nmd" -gt 0 ] && [ "$nmd" -eq "$nimg" ] && [ "$nsvg" = 0 ] &&
	pass "html_inline_figures ($nimg PNG)" ||
	fail html_inline_figures "report.md $nmd figures, report.html $nimg PNG, $nsvg <svg>"
"$NVANALYZE" -o "$T/hs" --figures svg --claim 'iops:+0%' "$T/a.json" "$T/b.json" \
	>/dev/null 2>"$T/hs.err"
HS=$T/hs/report.html
nmds=$(grep -c '^!\[.*\.svg)$' "$T/hs/report.md")
nsvgs=$(grep -c '<svg' "$HS")
[ "$nmds" = "$nmd" ] && [ "$nsvgs" = "$nmd" ] && ! grep -q '<img' "$HS" &&
	[ -z "$(pytool report_html_refs "$HS")" ] && pass "html_inline_svg_asked ($nsvgs)" ||
	fail html_inline_svg_asked "report.md $nmds SVG links, report.html $nsvgs <svg> of $nmd"
ext=$(pytool report_html_refs "$H")
[ -z "$ext" ] && grep -q '<table>' "$H" && pass html_self_contained ||
	fail html_self_contained "$ext"
grep -q "Tracing: IO loop held by tracing [0-9.]*% of .* writer [0-9]* ns CPU per record" "$H" &&
	pass tracing_disturbance_html || fail tracing_disturbance_html "$(grep -c Tracing "$H")"
CHROMIUM=$(command -v chromium || command -v chromium-browser || true)
if [ -z "$CHROMIUM" ]; then
	fail html_chromium_renders "chromium not installed (make deps installs it)"
	exit 0
fi
# a profile of its own; no sandbox (root in CI); the page's DOM and a PNG
export HOME=$T/home
mkdir -p "$HOME"
cr() {
	timeout 120 "$CHROMIUM" --headless --no-sandbox --disable-gpu --hide-scrollbars \
		--user-data-dir="$T/profile" --no-first-run --disable-extensions "$@" \
		2>>"$T/chromium.log"
}
cr --dump-dom "file://$H" >"$T/dom.html"
cr --screenshot="$T/shot.png" --window-size=1200,6000 "file://$H" >/dev/null
out=$(pytool png_page_check "$T/shot.png" "$T/dom.html" "$nmd")
[ $? -eq 0 ] && pass "html_chromium_renders ($out)" ||
	fail html_chromium_renders "$out $(tail -n 3 "$T/chromium.log" | tr '\n' ' ')"
cr --dump-dom "file://$HS" >"$T/doms.html"
cr --screenshot="$T/shots.png" --window-size=1200,6000 "file://$HS" >/dev/null
out=$(pytool png_page_check "$T/shots.png" "$T/doms.html" "$nmd")
[ $? -eq 0 ] && pass "html_chromium_renders_svg ($out)" ||
	fail html_chromium_renders_svg "$out $(tail -n 3 "$T/chromium.log" | tr '\n' ' ')"

# ---- report.html reads like a study ----
[ -s "$T/h/summary.png" ] && [ ! -e "$T/h/summary.svg" ] &&
	grep -q '^!\[Summary' "$T/h/report.md" &&
	pass html_summary_figure_files ||
	fail html_summary_figure_files "$(ls "$T/h" | tr '\n' ' ')"
out=$(pytool report_html_study "$T/dom.html")
[ "$out" = ok ] && pass html_study_order_contents_print ||
	fail html_study_order_contents_print "$out"
if ! command -v pdftotext >/dev/null; then
	skip html_pdf_text "pdftotext not installed: apt-get install poppler-utils"
	exit 0
fi
sed 's/<details open /<details /' "$H" >"$T/h/shut.html"
cr --no-pdf-header-footer --print-to-pdf="$T/open.pdf" "file://$H" >/dev/null
cr --no-pdf-header-footer --print-to-pdf="$T/shut.pdf" "file://$T/h/shut.html" >/dev/null
pdftotext "$T/open.pdf" "$T/open.txt" 2>>"$T/chromium.log"
pdftotext "$T/shut.pdf" "$T/shut.txt" 2>>"$T/chromium.log"
out=$(pytool report_html_study --pdf "$T/open.txt" "$T/shut.txt" 2>&1)
[ "$out" = ok ] && pass html_pdf_text ||
	fail html_pdf_text "$out $(tail -n 3 "$T/chromium.log" | tr '\n' ' ')"
