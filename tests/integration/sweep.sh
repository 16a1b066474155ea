#!/usr/bin/env bash
# Load curves (issue 27, docs/analysis.md "Load curves"):
#  - a QD sweep written by hand (stonewalled sections at iodepth 1 to 16 on
#    a file, traced by the engine): one table row per point, exact values
#    marked, and -o's curve data file holds every point with values equal
#    to fio's JSON (IOPS) and to Python over the traces (p50, p99, p99.9);
#    the curve figures render;
#  - a 2-parameter sweep (bs x iodepth, null engine) gives the matrix and
#    its heat map;
#  - a QD sweep (1, 4, 16) on a loop device throttled to 2000 read IOPS
#    (cgroup v1 blkio.throttle, root only): IOPS capped at every depth,
#    the knee at iodepth=4.  blk-throttle hands out the budget in 100 ms
#    slices: IOs beyond it wait for the next slice, about QD in every 200
#    IOs (QD / (2000 x 0.1)); at QD 1 that is 0.5% (p99 stays fast), at QD 4
#    2% (p99 is a ~100 ms wait) while the IOPS stay at the cap;
#  - made-up runs with known answers: the knee at the expected depth (also
#    with --knee-p99 moving it), --sla's best and first failing point,
#    "cannot tell" where repeats straddle the bound, "absent" for a point
#    one run lacks; rounds (NAME@round=K) reach steady state at round 5.
source "$(dirname "$0")/../lib.sh"
if [ ! -x "$NVANALYZE" ]; then
	skip all "build first: make all unit"
	exit 0
fi

# ---- made-up runs: knee, SLA, cannot tell, absent ----
O="rw=randread;bs=4k"
synth() { pytool sweep_synth "$@"; }
synth s1.json "q1/$O;iodepth=1/1000/100" "q2/$O;iodepth=2/2000/200" \
	"q4/$O;iodepth=4/3000/900" "q8/$O;iodepth=8/3100/3000"
synth s2.json "q1/$O;iodepth=1/1000/100" "q2/$O;iodepth=2/2000/200" \
	"q4/$O;iodepth=4/3000/1100" "q8/$O;iodepth=8/3100/3000"
synth s3.json "q1/$O;iodepth=1/1000/100" "q2/$O;iodepth=2/2000/200" \
	"q4/$O;iodepth=4/3000/1000" "q8/$O;iodepth=8/3100/3000"
synth h.json "q1/$O;iodepth=1/900/120" "q2/$O;iodepth=2/1500/500" "q4/$O;iodepth=4/1600/2000"
"$NVANALYZE" --sla 'p99<=1ms' -l one s1.json -l reps s1.json,s2.json,s3.json -l half h.json \
	>sla.md 2>sla.err
rc=$?
[ $rc -eq 0 ] && pass sla_runs || fail sla_runs "rc $rc: $(cat sla.err)"
best='iodepth=4: 3,000 IOPS, clat p99 900 us' first='iodepth=8: 3,100 IOPS, clat p99 3.00 ms'
grep -q "^| one  | *$best | *$first | *- |\$" sla.md &&
	pass sla_best_and_first_failing ||
		fail sla_best_and_first_failing "$(grep '^| one ' sla.md)"
grep '^| reps ' sla.md | grep -q 'iodepth=2: 2,000.*iodepth=8: 3,100.*iodepth=4: 3,000.*straddles the bound' &&
	pass sla_cannot_tell_with_repeats ||
		fail sla_cannot_tell_with_repeats "$(grep '^| reps ' sla.md)"
grep -q '^| half | *iodepth=2: 1,500 IOPS, clat p99 500 us | *iodepth=4: 1,600 IOPS' sla.md &&
	pass sla_other_run || fail sla_other_run "$(grep '^| half ' sla.md)"
grep -q '^| 8  *| absent | *absent | *absent | *absent | *absent |$' sla.md &&
	pass absent_point || fail absent_point "$(grep '^| 8 ' sla.md)"
grep -q '^\*\*Knee (one): iodepth=8\*\*: clat p99 3.33x' sla.md &&
	grep -q '^\*\*Knee (half): iodepth=4\*\*: clat p99 4.00x' sla.md &&
	pass knee_at_expected_depth || fail knee_at_expected_depth "$(grep -i knee sla.md)"
"$NVANALYZE" --knee-p99 3.5 -l one s1.json -l half h.json 2>/dev/null >knee.md
grep -q '^No knee (one)' knee.md && grep -q '^\*\*Knee (half): iodepth=4' knee.md &&
	pass knee_threshold_option || fail knee_threshold_option "$(grep -i knee knee.md)"
"$NVANALYZE" --sla 'p99.9<=1ms' --sla 'iops>=1000' s1.json >sla2.md 2>&1
grep -c '^### SLA' sla2.md | grep -qx 2 && grep -q 'iodepth=2: 2,000 IOPS, clat p99.9 400 us' sla2.md &&
	pass sla_any_metric || fail sla_any_metric "$(grep -A4 SLA sla2.md | head -12)"

# the same answers in --format json (load_curves)
"$NVANALYZE" --format json --sla 'p99<=1ms' -l one s1.json -l reps s1.json,s2.json,s3.json \
	-l half h.json 2>/dev/null | "$PYTHON" -c '
import json, sys
c = json.load(sys.stdin)["load_curves"]
a, k = c["sla"][0]["runs"], c["sweeps"][0]["knee"]
assert a["one"] == {"best": "iodepth=4", "first_not_met": "iodepth=8", "first_cannot_tell": None}, a
assert a["reps"]["first_cannot_tell"] == "iodepth=4", a
assert k["one"]["point"] == "iodepth=8" and k["half"]["point"] == "iodepth=4", k
assert c["sweeps"][0]["points"][3]["runs"]["half"] is None
' 2>json.err && pass json_load_curves || fail json_load_curves "$(tail -n 2 json.err)"

# the curve figure with repeats: error bars from the intervals, every run's points in the data
"$NVANALYZE" -o reps -l reps s1.json,s2.json,s3.json -l half h.json >/dev/null 2>reps.err
grep -q 'with xyerrorbars' reps/curve_p99_q_read.gp && grep -q '^# run half' reps/data/curve_q_read.dat &&
	[ "$(grep -c '^[0-9]' reps/data/curve_q_read.dat)" = 7 ] &&
	grep -q '^# iodepth=8 absent' reps/data/curve_q_read.dat &&
	awk '$1 == 4 && !seen++ { exit !($9 < 1000 && $10 > 1000) }' reps/data/curve_q_read.dat &&
	pass curve_error_bars_with_repeats ||
		fail curve_error_bars_with_repeats "$(cat reps.err; cat reps/data/curve_q_read.dat)"

# a suite's qd1 and qd64-j4 jobs: a two-parameter line (a curve, no matrix)
synth suite.json "lat-4k-qd1/rw=randread;bs=4k;iodepth=1;numjobs=1/9000/300" \
	"randread-4k-qd64-j4/rw=randread;bs=4k;iodepth=64;numjobs=4;group_reporting=1/400000/2000"
"$NVANALYZE" -o suite suite.json >suite.md 2>&1
grep -q '^### randread · read: numjobs x iodepth sweep, 2 points' suite.md &&
	! grep -q '(rows) and' suite.md && [ ! -e suite/data/matrix_randread_read_suite.dat ] &&
	grep -q '^numjobs=4,iodepth=64 400000 ' suite/data/curve_randread_read.dat &&
	pass suite_line_not_matrix || fail suite_line_not_matrix "$(grep -A3 sweep suite.md)"

# ---- rounds: falling to a plateau from round 5 (9 rounds) ----
args=()
for kv in 1:400 2:300 3:200 4:150 5:100 6:101 7:99 8:100 9:102; do
	args+=("pre@round=${kv%%:*}/rw=randwrite;bs=4k/${kv#*:}/100")
done
synth rounds.json "${args[@]}"
"$NVANALYZE" rounds.json >rounds.md 2>&1
grep -q 'rounds.*: \*\*steady state from round 5\*\* (rounds 5-9:' rounds.md &&
	grep -q "the run's IOPS: 100, the mean of rounds 5-9" rounds.md &&
	pass rounds_steady_from_5 || fail rounds_steady_from_5 "$(grep -i steady rounds.md)"
"$NVANALYZE" --steady-range 0.5 rounds.json 2>&1 | grep -q 'steady state not reached (9 rounds' &&
	pass rounds_not_reached || fail rounds_not_reached "range 0.5% still reached"
grep -q '^### q' rounds.md && fail rounds_not_a_sweep "rounds taken for a sweep" ||
	pass rounds_not_a_sweep

# ---- 2-parameter sweep: the matrix ----
if ! command -v "$FIO" >/dev/null || [ ! -f "$NVENGINE_SO" ]; then
	skip engine_sweep "fio or $NVENGINE_SO missing: run 'make deps' and 'make'"
	exit 0
fi
cat >m.fio <<'JOB'
[global]
ioengine=null
size=8m
rw=randread
JOB
for bs in 4k 64k; do for qd in 1 4 16; do
	printf '[m-%s-%s]\nbs=%s\niodepth=%s\nstonewall\n' "$bs" "$qd" "$bs" "$qd" >>m.fio
done; done
"$FIO" --output-format=json m.fio >m.json 2>m.err || fail fio_matrix "$(tail -n 3 m.err)"
"$NVANALYZE" -o mout m.json >m.md 2>m.err
grep -q '^| bs \\ iodepth *| *1 | *4 | *16 |$' m.md &&
	[ "$(grep -A4 '^| bs \\' m.md | grep -c '^| [46]')" = 2 ] &&
	pass matrix_table || fail matrix_table "$(grep -A4 'bs \\' m.md)"
[ -s mout/data/matrix_m_read_m.dat ] && [ "$(grep -vc '^#' mout/data/matrix_m_read_m.dat)" = 6 ] &&
	pass matrix_figure_data || fail matrix_figure_data "$(ls mout/data)"

# ---- QD sweep on a file, traced ----
mkdir -p tr
cat >qd.fio <<JOB
[global]
filename=$T/file
size=16M
rw=randread
bs=4k
runtime=1
time_based
nv_trace=$T/tr
clocksource=clock_gettime
nv_trace_clock=clock_gettime
JOB
for qd in 1 2 4 8 16; do printf '[qd%s]\niodepth=%s\nstonewall\n' $qd $qd >>qd.fio; done
nvfio --output-format=json+ qd.fio >qd.json 2>qd.err || fail fio_sweep "$(tail -n 3 qd.err)"
"$NVANALYZE" -l file -o out qd.json >qd.md 2>qd.err
rc=$?
[ $rc -eq 0 ] && pass sweep_report || fail sweep_report "rc $rc: $(cat qd.err)"
sed -n '/^### qd · read: iodepth sweep, 5 points/,/^No knee\|^\*\*Knee/p' qd.md >qdtable.md
[ "$(grep -c '^| [0-9].*(exact) | .*(exact) | .*(exact) |$' qdtable.md)" = 5 ] &&
	pass sweep_table_exact || fail sweep_table_exact "$(grep -A10 'iodepth sweep' qd.md)"
pytool sweep_check out/data/curve_qd_read.dat qd.json tr file >check.out 2>&1 &&
	pass curve_data_equals_fio_and_traces ||
		fail curve_data_equals_fio_and_traces "$(grep -v '^ok' check.out | head -5 | tr '\n' ' ')"
if command -v gnuplot >/dev/null; then
	for k in p99 p50 p999; do [ -s "out/curve_${k}_qd_read.png" ] ||
		fail "curve_${k}_png" "missing"; done
	[ ! -s out/gnuplot.log ] && pass curve_figures_rendered ||
		fail curve_figures_rendered "$(head -3 out/gnuplot.log)"
else
	skip curve_figures_rendered "gnuplot not installed"
fi
[ "$(grep -m1 -n '^!\[\|^## ' out/report.md)" = \
  "$(grep -m1 -n '^## Load curve figures' out/report.md)" ] &&
	grep -q '^!\[Load curve of qd · read: clat p99 against IOPS\](curve_p99_qd_read.png)' out/report.md &&
	pass report_opens_with_curve ||
		fail report_opens_with_curve "$(grep -n '^## ' out/report.md | head -3)"
grep -o '<h2>[^<]*' out/report.html | head -1 | grep -qx '<h2>Load curve figures' &&
	pass html_opens_with_curve ||
		fail html_opens_with_curve "$(grep -o '<h2>[^<]*' out/report.html | head -2)"

# ---- QD sweep on a throttled loop device: the knee where IOPS stop growing ----
cg=/sys/fs/cgroup/blkio/nvtest-sweep.$$
if [ "$(id -u)" -ne 0 ] || ! command -v losetup >/dev/null ||
   [ ! -e /sys/fs/cgroup/blkio/blkio.throttle.read_iops_device ]; then
	skip throttled_knee "needs root, losetup and cgroup v1 blkio throttling"
elif ! truncate -s 64M loopimg || ! loopdev=$(losetup -f --show loopimg 2>/dev/null) ||
     ! mkdir "$cg" 2>/dev/null; then
	skip throttled_knee "no free loop device or no cgroup"
	[ -n "${loopdev:-}" ] && losetup -d "$loopdev"
else
	mkdir -p thrtr
	printf '[global]\nfilename=%s\ndirect=1\nrw=randread\nbs=4k\nruntime=2\ntime_based\nnv_trace=%s\n' \
		"$loopdev" "$T/thrtr" >thr.fio
	for qd in 1 4 16; do printf '[thr%s]\niodepth=%s\nstonewall\n' $qd $qd >>thr.fio; done
	echo "$(stat -L -c '%t:%T' "$loopdev" | { IFS=: read -r ma mi; echo $((16#$ma)):$((16#$mi)); }) 2000" \
		>"$cg/blkio.throttle.read_iops_device"
	(echo $BASHPID >"$cg/tasks" && exec "$FIO" --ioengine="external:$NVENGINE_SO" \
		--output-format=json thr.fio) >thr.json 2>thr.err ||
			fail fio_throttled "$(tail -n 3 thr.err)"
	rmdir "$cg"
	losetup -d "$loopdev"
	"$NVANALYZE" -l thr thr.json >thr.md 2>&1
	rows=$(sed -n '/^### thr · read: iodepth sweep, 3 points/,/Knee\|No knee/p' thr.md |
		awk -F'|' '/^\| [0-9]/ { gsub(/[ ,]/, "", $3); print $3 }')
	[ "$(echo "$rows" | wc -l)" = 3 ] && [ "$(echo "$rows" | awk '$1 > 2200' | wc -l)" = 0 ] &&
		pass throttled_iops_capped || fail throttled_iops_capped "IOPS $(echo $rows)"
	grep -q '^\*\*Knee (thr): iodepth=4\*\*' thr.md && pass throttled_knee_at_qd4 ||
		fail throttled_knee_at_qd4 "$(grep -A8 'iodepth sweep' thr.md | tr '\n' ' ')"
fi
