#!/usr/bin/env bash
# The time series of a job's traces (analyze/stats/trace_series.c, issue
# 42): each interval's p50/p99/p99.9/max per operation, found from the
# interval's bucket counts and a selection within a bucket, equal the
# nearest rank over the interval's IOs (tests/py/trace_series_exact.py) on
# three mixed-operation traces merged by completion time, at two
# intervals, under -J 1 and -J 2.
source "$(dirname "$0")/../lib.sh"
: "${UNIT_DIR:=$TOP/build/tests/unit}"
GEN=$UNIT_DIR/gen_trace
if [ ! -x "$NVANALYZE" ] || [ ! -x "$GEN" ]; then
	skip all "build first: make all unit"
	exit 0
fi
for s in 1 2 3; do
	"$GEN" -p mixed -n 20000 -q $((s * 5)) -s $s "$T/s$s.nvt" >/dev/null ||
		fail gen "gen_trace failed"
done
cat >"$T/j.json" <<JSON
{"fio version": "fio-3.33", "jobs": [{"jobname": "mix", "groupid": 0, "error": 0,
 "job options": {"rw": "randrw", "bs": "4k", "iodepth": "4"},
 "read": {"io_bytes": 0, "total_ios": 1, "iops": 1.0, "bw_bytes": 1,
  "clat_ns": {"min": 1, "max": 2, "mean": 1.5, "stddev": 0.1, "N": 1}},
 "write": {"io_bytes": 0, "total_ios": 1, "iops": 1.0, "bw_bytes": 1,
  "clat_ns": {"min": 1, "max": 2, "mean": 1.5, "stddev": 0.1, "N": 1}}}]}
JSON
for iv in 0.005 0.05; do
	for j in 1 2; do
		rm -rf "$T/o"
		"$NVANALYZE" -J $j -o "$T/o" --interval $iv --trace "$T/s1.nvt,$T/s2.nvt,$T/s3.nvt" \
			"$T/j.json" >/dev/null 2>"$T/err" || fail "series_${iv}_J$j" "$(cat "$T/err")"
		out=$(pytool trace_series_exact "$NVANALYZE" "$T"/o/data/ts_mix_*.dat $iv \
			"$T/s1.nvt" "$T/s2.nvt" "$T/s3.nvt")
		case $out in
		"ok "[1-9]*) pass "series_exact_${iv}_J$j";;
		*) fail "series_exact_${iv}_J$j" "$out";;
		esac
	done
done
