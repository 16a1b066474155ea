#!/usr/bin/env bash
# The time series of a job's traces (analyze/stats/trace_series.c, issue
# 42): each interval's p50/p99/p99.9/max per operation, found from the
# interval's bucket counts and a selection within a bucket, equal the
# nearest rank over the interval's IOs (tests/py/trace_series_exact.py) on
# three mixed-operation traces merged by completion time, at two
# intervals, under -J 1 and -J 2.
source "$(dirname "$0")/../lib.sh"
need_unit_helper || exit 0
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
		"$NVANALYZE" -J $j -o "$T/o" --interval $iv \
			--trace "$T/s1.nvt,$T/s2.nvt,$T/s3.nvt" "$T/j.json" \
			>/dev/null 2>"$T/err" || fail "series_${iv}_J$j" "$(cat "$T/err")"
		out=$(pytool trace_series_exact "$NVANALYZE" "$T"/o/data/ts_mix_*.dat $iv \
			"$T/s1.nvt" "$T/s2.nvt" "$T/s3.nvt")
		case $out in
		"ok "[1-9]*) pass "series_exact_${iv}_J$j";;
		*) fail "series_exact_${iv}_J$j" "$out";;
		esac
	done
done
# Past the cap (NVANALYZE_SERIES_CAP, tests only): an interval holding more
# values keeps its counts only and its p50/p99/p99.9 come from a second
# merged read of the traces (tan_series_pass).  Every output equals the
# uncapped run's but the pass count (one more read), which must show.
norm() {
	sed -E 's/[0-9]+ pass(es)?\b/N passes/; s/"passes": [0-9]+/"passes": N/; s#/o[0-9]+/#/oX/#'
}
# same_as NAME BASE_OUT BASE_DIR OUT DIR TRACE...: OUT and DIR's outputs
# equal the base's but the pass count, and DIR's series the nearest rank.
same_as() {
	local name=$1 bout=$2 bdir=$3 out=$4 dir=$5 d f g r
	shift 5
	d=$(diff <(norm <"$bout") <(norm <"$out"))
	for f in tables.md tables.json report.md data/ts_mix_*.dat; do
		for g in "$bdir"/$f; do
			d+=$(diff <(norm <"$g") <(norm <"$dir/${g#"$bdir"/}"))
		done
	done
	if [ -n "$d" ]; then
		fail "${name}_same" "$d"
	else
		pass "${name}_same"
	fi
	r=$(pytool trace_series_exact "$NVANALYZE" "$dir"/data/ts_mix_*.dat 0.005 "$@")
	case $r in
	"ok "[1-9]*) pass "${name}_exact";;
	*) fail "${name}_exact" "$r";;
	esac
}
# The reads a run took (its -v output): the first "N pass(es)".
passes() { grep -oE '[0-9]+ pass(es)?\b' "$1" | head -1 | cut -d' ' -f1; }
rm -rf "$T/o0"
"$NVANALYZE" -v -o "$T/o0" --interval 0.005 --trace "$T/s1.nvt,$T/s2.nvt,$T/s3.nvt" \
	"$T/j.json" >"$T/out0" 2>&1 || fail series_cap_base "$(cat "$T/out0")"
for cap in 1 300; do
	for j in 1 2; do
		rm -rf "$T/o$cap"
		NVANALYZE_SERIES_CAP=$cap "$NVANALYZE" -J $j -v -o "$T/o$cap" --interval 0.005 \
			--trace "$T/s1.nvt,$T/s2.nvt,$T/s3.nvt" "$T/j.json" >"$T/out$cap" 2>&1 ||
			fail "series_cap${cap}_J$j" "$(cat "$T/out$cap")"
		b=$(passes "$T/out0") c=$(passes "$T/out$cap")
		[ "$c" -gt "$b" ] 2>/dev/null ||
			fail "series_cap${cap}_J${j}_spilled" "passes: $b uncapped, $c capped"
		same_as "series_cap${cap}_J$j" "$T/out0" "$T/o0" "$T/out$cap" "$T/o$cap" \
			"$T/s1.nvt" "$T/s2.nvt" "$T/s3.nvt"
	done
done
# Long tails (10% of the IOs up to 6 ms longer: latencies past both limits
# of stats/trace_interval.c), each interval's points against the nearest
# rank; then the list capped (NVANALYZE_SERIES_LIST, per-ns counts kept):
# at 5 the list fills, the limit rises to 2.1 ms, fills again past it and
# the interval spills to the second read.  Outputs equal the default's but
# the pass count, which must grow.
for s in 1 2 3; do
	"$GEN" -p mixed -n 20000 -q $((s * 5)) -s $s -t 6000000:100 "$T/t$s.nvt" >/dev/null ||
		fail gen_tail "gen_trace failed"
done
TT="$T/t1.nvt,$T/t2.nvt,$T/t3.nvt"
rm -rf "$T/o77"
"$NVANALYZE" -v -o "$T/o77" --interval 0.005 --trace "$TT" "$T/j.json" >"$T/outt" 2>&1 ||
	fail series_tail "$(cat "$T/outt")"
out=$(pytool trace_series_exact "$NVANALYZE" "$T"/o77/data/ts_mix_*.dat 0.005 \
	"$T/t1.nvt" "$T/t2.nvt" "$T/t3.nvt")
case $out in
"ok "[1-9]*) pass series_tail_exact;;
*) fail series_tail_exact "$out";;
esac
for list in 5 40; do
	rm -rf "$T/o$list"
	NVANALYZE_SERIES_LIST=$list "$NVANALYZE" -v -o "$T/o$list" --interval 0.005 --trace "$TT" \
		"$T/j.json" >"$T/outl$list" 2>&1 || fail "series_list$list" "$(cat "$T/outl$list")"
	b=$(passes "$T/outt") c=$(passes "$T/outl$list")
	# 5 spills; 40 (the limit raised, nothing past 2.1 ms to list) reads once
	[ "$list" != 5 ] || [ "$c" -gt "$b" ] 2>/dev/null ||
		fail "series_list${list}_spilled" "passes: $b default, $c with list $list"
	same_as "series_list$list" "$T/outt" "$T/o77" "$T/outl$list" "$T/o$list" \
		"$T/t1.nvt" "$T/t2.nvt" "$T/t3.nvt"
done
# An interval's IOs reach their queue-depth class's exact state at its close,
# from its per-ns counts and list (tan_ibuf_exact), while all of an
# operation's IOs in it are of one class: at QD 1 every interval, long tails
# included.  Without the counts (NVANALYZE_SERIES_CAP) they are fed IO by IO:
# every output, the totals' mean and stdev to the last digit, equal.
for s in 1 2 3; do
	"$GEN" -p mixed -n 20000 -q 1 -s $s -t 6000000:100 "$T/d$s.nvt" >/dev/null ||
		fail gen_qd1 "gen_trace failed"
done
rm -rf "$T/o91"
"$NVANALYZE" -v -o "$T/o91" --interval 0.005 --trace "$T/d1.nvt,$T/d2.nvt,$T/d3.nvt" \
	"$T/j.json" >"$T/outd" 2>&1 || fail series_qd1 "$(cat "$T/outd")"
rm -rf "$T/o92"
NVANALYZE_SERIES_CAP=100000 "$NVANALYZE" -v -o "$T/o92" --interval 0.005 \
	--trace "$T/d1.nvt,$T/d2.nvt,$T/d3.nvt" "$T/j.json" >"$T/outdc" 2>&1 ||
	fail series_qd1_direct "$(cat "$T/outdc")"
same_as series_qd1_direct "$T/outd" "$T/o91" "$T/outdc" "$T/o92" \
	"$T/d1.nvt" "$T/d2.nvt" "$T/d3.nvt"
# The spike shading of lat_* (analyze/figures/gnuplot.c): 2 M IOs at 1.5 M
# IOs/s make some 240 episodes, many closer than the shortest span drawn
# (the run's 1/400): drawn as their union, in order, every episode inside
# one (tests/py/lat_spans_check.py).
"$GEN" -p randread -n 2000000 -q 32 "$T/r.nvt" >/dev/null || fail gen_rr "gen_trace failed"
cat >"$T/r.json" <<JSON
{"fio version": "fio-3.33", "jobs": [{"jobname": "rr", "groupid": 0, "error": 0,
 "job options": {"rw": "randread", "bs": "4k", "iodepth": "32"},
 "read": {"io_bytes": 8192000000, "total_ios": 2000000, "iops": 1500000.0, "bw_bytes": 1,
  "clat_ns": {"min": 1, "max": 2, "mean": 1.5, "stddev": 0.1, "N": 1}}}]}
JSON
rm -rf "$T/or"
"$NVANALYZE" -o "$T/or" --trace "$T/r.nvt" "$T/r.json" >/dev/null 2>"$T/err" ||
	fail lat_spans "$(cat "$T/err")"
out=$(pytool lat_spans_check "$T/or")
case $out in
"ok "*" spans, "*" episodes")
	set -- $out
	if [ "$2" -gt 0 ] && [ "$2" -lt "$4" ]; then
		pass lat_spans_union
	else
		fail lat_spans_union "$out: want fewer spans than episodes, more than 0"
	fi;;
*) fail lat_spans_union "$out";;
esac
