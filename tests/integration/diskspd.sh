#!/usr/bin/env bash
# diskspd text reports (analyze/input/diskspd.c, issue 40):
#  - each direction's IOPS, MiB/s, mean latency and -L percentiles of a
#    2.0-layout report (CPU | Usage, IopsStdDev, no -L) and a 2.2-layout one
#    (Core | CPU, AvgLat/LatStdDev, the %-ile table) as an independent reader
#    (tests/py/diskspd_values.py) reads them, under jobs/diskspd/'s names,
#    and the real reports of tests/fixtures/diskspd (SOURCES.md: diskspd
#    2.0.21 and 2.2.0, the CPU table in four layouts, two without a command
#    line: named from their first target's input parameters; one of five
#    targets, whose per-target %-ile tables are not the totals);
#    IOPS, MB/s, bytes, runtime, mean/stdev/min/max latency, every
#    percentile level and the CPU split (tests/py/diskspd_values.py);
#  - CPU, IOs and runtime as printed; lat (submission to completion) shown;
#  - damaged reports (cut at and inside every line, a number of each total:
#    row garbled): an error naming the file and line, never a crash;
#  - the report row by row with a jobs/run results directory of jobs/diskspd/.
source "$(dirname "$0")/../lib.sh"
source "$TOP/tests/damaged.sh"
if [ ! -x "$NVANALYZE" ]; then
	skip all "build first: make all"
	exit 0
fi
D=$TOP/tests/data/diskspd
# Provenance: each real file has its SOURCES.md row, blob = git hash-object.
if out=$(pytool lib/sources "$TOP/tests/fixtures/diskspd" 2>&1); then
	pass "sources ($out)"
else
	fail sources "$out"
fi
for f in "$D"/*.txt "$TOP"/tests/fixtures/diskspd/*.txt; do
	name=values-$(basename "$f" .txt)
	if ! "$NVANALYZE" --format json "$f" >"$T/$name.json" 2>"$T/$name.err"; then
		fail "$name" "nvanalyze exited non-zero: $(head -c 300 "$T/$name.err")"
	elif out=$(pytool diskspd_values "$f" "$T/$name.json" 2>&1); then
		pass "$name ($out)"
	else
		fail "$name" "$out"
	fi
done

# diskspd 2.2 heads the per-target %-ile tables "Latency distribution: PATH"
# and the totals' "Total latency distribution:" (ResultParser.cpp): the
# five-target report in that spelling reads the same totals, with a note.
w8=$TOP/tests/fixtures/diskspd/VirtualClient__Write8k.txt
sed -e 's/^\([A-Z]:\\diskspd-test.dat\)\r*$/Latency distribution: \1/' \
	-e 's/^total:\r*$/Total latency distribution:/' "$w8" >"$T/w8-22.txt"
if ! "$NVANALYZE" --format json "$T/w8-22.txt" >"$T/w8-22.json" 2>"$T/w8-22.err"; then
	fail values-22-target-tables "nvanalyze exited non-zero: $(head -c 300 "$T/w8-22.err")"
elif ! grep -q 'Latency distribution: I:' "$T/w8-22.txt" ||
	! grep -q 'per-target latency percentiles left out' "$T/w8-22.err"; then
	fail values-22-target-tables "no 2.2 headings made, or no note: $(head -c 300 "$T/w8-22.err")"
elif out=$(pytool diskspd_values "$T/w8-22.txt" "$T/w8-22.json" 2>&1); then
	pass "values-22-target-tables ($out)"
else
	fail values-22-target-tables "$out"
fi

out=$("$NVANALYZE" --format text "$D/diskspd22-randrw-L.txt" 2>&1)
for want in 'Latency: lat \(total\)' "randrw-4k-t4-qd32-w30 · read" "CPU user +4.5%" \
	"CPU system +34.50%" "runtime +10.0 s" "IO total +5.73 GB" "lat p99.9 +1.45 ms"; do
	if ! grep -Eq "$want" <<<"$out"; then
		fail report-fields "no '$want' in the report"
		out=
		break
	fi
done
[ -n "$out" ] && pass report-fields

for f in "$D"/*.txt "$TOP"/tests/fixtures/diskspd/*.txt; do
	damaged "$f" diskspd_values '^total: *[0-9]' 's/| *\([0-9]\)\([0-9.]*\) *|/| \1x\2 |/'
done

# Row by row with a jobs/run results directory of jobs/diskspd/: the report's
# test meets randrw-4k-t4-qd32-w30.fio's section by name, read and write;
# randread-4k-t4-qd32, run on the fio side only, is "absent" on the other.
diskspd_rows() {
	local d
	"$NVANALYZE" --no-traces --summary iops --label diskspd --label linux \
		"$D/diskspd22-randrw-L.txt" "$T/res" >"$T/rows.md" 2>"$T/rows.err"
	for d in read write; do
		grep -Eq "^\| randrw-4k-t4-qd32-w30 · $d +\| +IOPS +\| +[0-9,]+ \| +[0-9,]+ \|" \
			"$T/rows.md" || echo -n " randrw-$d"
	done
	grep -Eq "^\| randread-4k-t4-qd32 · read +\| +IOPS +\| +absent \| +[0-9,]+ \|" \
		"$T/rows.md" || echo -n " randread"
	grep -q 'Latency: lat (total)' "$T/rows.md" || echo -n " lat-kind"
}
rows_vs_jobs_run rows-vs-jobs-run diskspd_rows -- "$TOP/jobs/diskspd/randrw-4k-t4-qd32-w30.fio" \
	"$TOP/jobs/diskspd/randread-4k-t4-qd32.fio"
