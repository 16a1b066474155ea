#!/usr/bin/env bash
# CDF figures of many curves (gnuplot.h's NV_GP_CURVES_KEYED): hosts side by
# side, each with its own tail (gen_trace -t: host h has h IOs in 1000 up to
# h x 0.3 ms slower).
#  - 12 hosts: every curve thin and grey with one key entry ("each of the 12
#    curves"), then the fastest, median and slowest by p99.9 (nines_*) and
#    by p50 (cdf_*) drawn again in colour and named with the value; the
#    captions say so; the figures render;
#  - 12 hosts' bar charts (bars_*, summary): every bar grey under one key
#    entry, the baseline's dark, and per cluster only the lowest, the
#    highest and the baseline's bar labelled, with the host's name;
#  - 8 hosts: a key entry and a line type per host, as before;
#  - two fleets of 12 and 8 hosts (nvanalyze A B, each host a repeat): a
#    key entry per side, however many runs.
source "$(dirname "$0")/../lib.sh"
need_unit_helper || exit 0

# layout DIR N: jobs/run --host's layout of N hosts, one randread job each
layout() {
	local dir=$1 n=$2 h name
	mkdir -p "$dir"
	awk -v n="$n" 'BEGIN {
		printf "{\"fio version\": \"fio-3.33\", \"client_stats\": ["
		for (h = 1; h <= n; h++)
			printf "%s{\"jobname\": \"randread\", \"groupid\": 0, \"error\": 0, " \
				"\"job options\": {\"rw\": \"randread\", \"bs\": \"4k\", " \
				"\"nv_trace\": \"/tmp/nvengine-run.x/traces/suite\"}, \"read\": " \
				"{\"io_bytes\": 409600000, \"total_ios\": 100000, \"iops\": %d, " \
				"\"bw\": 400000, \"runtime\": 1000}, \"hostname\": \"host%03d\"}",
				(h > 1 ? ", " : ""), 100000 + h, h
		print "]}"
	}' >"$dir/suite.json"
	for h in $(seq 1 "$n"); do
		name=$(printf 'host%03d' "$h")
		mkdir -p "$dir/$name/traces/suite"
		"$GEN" -p randread -q 8 -s "$h" -n 100000 -t "$((h * 300000)):$h" \
			"$dir/$name/traces/suite/randread.1.nvt" >/dev/null || return 1
	done
}

layout "$T/H12" 12 && layout "$T/H8" 8 || { fail layout "gen_trace failed"; exit 1; }
if ! PATH=/nonexistent "$NVANALYZE" -o "$T/o12" "$T/H12" >"$T/o12.out" 2>&1 ||
   ! PATH=/nonexistent "$NVANALYZE" -o "$T/o8" "$T/H8" >"$T/o8.out" 2>&1; then
	fail run "nvanalyze -o failed: $(tail -n 3 "$T/o12.out" "$T/o8.out")"
	exit 1
fi

# picked FIGURE: the colour curves' titles, one a line
picked() { grep -o 'lt [0-9]* title "[^"]*"' "$1" | sed 's/^lt [0-9]* title //'; }

N=$T/o12/nines_randread_read.gp C=$T/o12/cdf_randread_read.gp
grey=$(grep -c 'lc rgb "#c0c0c0" lw 0.5' "$N")
want='"fastest p99.9 (%s us): host001"
"median p99.9 (%s us): host006"
"slowest p99.9 (%s us): host012"'
got=$(picked "$N" | sed 's/([0-9.e+]* us)/(%s us)/')
if [ "$grey" = 12 ] && grep -q 'title "each of the 12 curves"' "$N" && [ "$got" = "$want" ] &&
   [ "$(grep -c '^    .* title ' "$N")" = 4 ]; then
	pass many_curves_grey_three_named
else
	fail many_curves_grey_three_named "grey $grey of 12, titles: $(picked "$N" | tr '\n' ' ')"
fi

# the named values are the curves' own, in order: fastest <= median <= slowest
vals=$(picked "$N" | sed 's/.*(\([0-9.e+]*\) us).*/\1/' | tr '\n' ' ')
if echo "$vals" | awk '{ exit !(NF == 3 && $1 + 0 < $2 + 0 && $2 + 0 < $3 + 0) }'; then
	pass many_curves_values_ordered
else
	fail many_curves_values_ordered "p99.9 values: $vals"
fi

if picked "$C" | grep -q '^"fastest p50 ' && [ "$(grep -c 'lc rgb "#c0c0c0"' "$C")" = 12 ]; then
	pass many_curves_cdf_by_p50
else
	fail many_curves_cdf_by_p50 "$(picked "$C" | tr '\n' ' ')"
fi

note='; 12 curves, each in grey: the fastest, the median and the slowest by p99.9'
if grep -q "Exceedance.*$note" "$T/o12/report.md"; then
	pass many_curves_caption
else
	fail many_curves_caption "$(grep -i exceedance "$T/o12/report.md")"
fi

B=$T/o12/bars_randread_read.gp S=$T/o12/summary.gp
# labels of cluster 4 (latency p99.9: x from 3.5 to 4.5) of the bars
p999=$(grep '^set label' "$B" |
	awk '{ split($0, a, " at "); split(a[2], xy, ","); if (xy[1] > 3.5) print }')
if [ "$(grep -c '^set label' "$B")" -le 15 ] &&
   [ "$(echo "$p999" | grep -c .)" = 2 ] && echo "$p999" | grep -q '"host001: ' &&
   echo "$p999" | grep -q '"host012: ' &&
   grep -q 'lc rgb "#b0b0b0" title "each of the 11 other sides"' "$B" &&
   grep -q 'lc rgb "#303030" title "host012 (baseline)"' "$B" &&
   [ "$(grep -c 'notitle' "$B")" = 10 ] && grep -q 'fill solid 0.85 noborder' "$B" &&
   grep -q 'each of the 11 other sides' "$S" && [ "$(grep -c '^set label' "$S")" -le 3 ] &&
   grep -q 'Headline metrics relative to host012, each side a grey bar' "$T/o12/report.md"; then
	pass many_sides_bars
else
	fail many_sides_bars "$(grep -c '^set label' "$B") labels; p99.9 cluster: $p999"
fi

N8=$T/o8/nines_randread_read.gp
if [ "$(grep -c ' title "host00[1-8]" ' "$N8")" = 8 ] && ! grep -q 'c0c0c0\|each of' "$N8" &&
   grep -q 'lt 8 title "host008"' "$N8" &&
   grep -q 'using 9 lt 8 title "host008 (baseline)"' "$T/o8/bars_randread_read.gp" &&
   [ "$(grep -c '^set label' "$T/o8/bars_randread_read.gp")" = 40 ]; then
	pass eight_curves_keyed
else
	fail eight_curves_keyed "$(grep -c '^    .* title ' "$N8") titles"
fi

if PATH=/nonexistent "$NVANALYZE" -o "$T/o2" "$T/H12" "$T/H8" >"$T/o2.out" 2>&1 &&
   [ "$(grep -c '^    .* title ' "$T/o2/nines_randread_read.gp")" = 2 ] &&
   ! grep -q 'c0c0c0' "$T/o2/nines_randread_read.gp"; then
	pass two_fleets_keyed
else
	fail two_fleets_keyed \
		"$(tail -n 2 "$T/o2.out"; grep '^    ' "$T/o2/nines_randread_read.gp")"
fi

if command -v gnuplot >/dev/null; then
	(cd "$T/o12" &&
		for f in nines_randread_read cdf_randread_read bars_randread_read summary; do
			gnuplot "$f.gp" && [ -s "$f.png" ] || echo "$f.gp: no PNG"
		done) >"$T/render.out" 2>&1
	if [ ! -s "$T/render.out" ]; then
		pass many_curves_render
	else
		fail many_curves_render "$(head -n 3 "$T/render.out")"
	fi
else
	skip many_curves_render "gnuplot not installed: run 'make deps'"
fi
