#!/usr/bin/env bash
# nvanalyze watch (issue 55): a run's traces followed while fio writes them.
# - A traced run of two jobs (solo: randrw with a 6 s pause; grp: 4 threads
#   grouped, randrw, each starting at a random time in the first 4 s, so the
#   job's rate changes midway) watched with --format jsonl: every interval
#   line equals the post-run traces[i].series entry of the same job, op and
#   index, field for field (tests/py/watch_series.py); the watch exits 0 by
#   itself after fio ends; the pause is said as a stall.
# - 64 job threads of one job, equal to the post-run series too.
# - A generated trace written in two halves: read to its footer and equal to
#   its post-run series; and the faults, each with its line and exit status:
#   the trace truncated, deleted, replaced or damaged while watched, fio
#   killed (no footer), the trace's disk full, --idle-timeout, Ctrl-C (the
#   totals so far).
# No timing is asserted: the waits below only bound a hang (300 s).
. "$(dirname "$0")/../lib.sh"
need_engine || exit 0
need_unit_helper || exit 0

# start NAME ARGS...: nvanalyze watch ARGS in the background, its stdout in
# $T/NAME.out and stderr in $T/NAME.err; its pid in WPID, NAME in WNAME.
start() {
	WNAME=$1
	shift
	"$NVANALYZE" watch "$@" >"$T/$WNAME.out" 2>"$T/$WNAME.err" &
	WPID=$!
}
# wait_for FILE PATTERN: until a line of FILE matches PATTERN (1 after 300 s).
wait_for() {
	local i
	for ((i = 0; i < 3000; i++)); do
		grep -q -- "$2" "$1" 2>/dev/null && return 0
		sleep 0.1
	done
	return 1
}
# wait_count FILE PATTERN N: until N lines of FILE match PATTERN (1 after 300 s).
wait_count() {
	local i
	for ((i = 0; i < 3000; i++)); do
		[ "$(grep -c -- "$2" "$1" 2>/dev/null)" -ge "$3" ] && return 0
		sleep 0.1
	done
	return 1
}
# finish NAME WANT_RC [PATTERN]: the watch started last ends by itself with
# WANT_RC and its stderr matches PATTERN: PASS NAME, else FAIL with why.
finish() {
	local name=$1 want=$2 pat=${3:-} i rc
	for ((i = 0; i < 3000; i++)); do
		kill -0 "$WPID" 2>/dev/null || break
		sleep 0.1
	done
	kill -0 "$WPID" 2>/dev/null && kill "$WPID"
	wait "$WPID"
	rc=$?
	if [ "$rc" = "$want" ] && { [ -z "$pat" ] || grep -q -- "$pat" "$T/$WNAME.err"; }; then
		pass "$name"
	else
		fail "$name" "exit $rc (want $want), stderr: $(head -c 600 "$T/$WNAME.err")"
	fi
}
# same_series NAME LIVE POST: every interval line of LIVE equals POST's series.
same_series() {
	local out
	out=$(pytool watch_series "$2" "$3")
	case $out in
	"ok "[1-9]*) pass "$1";;
	*) fail "$1" "$out";;
	esac
}

head -c 1M /dev/zero >"$T/nop"
mkdir "$T/tr"
cat >"$T/run.fio" <<EOF
[global]
ioengine=external:$NVENGINE_SO
nv_nop=1
nv_trace=$T/tr
filename=$T/nop
size=1M
bs=4k
rw=randrw
time_based
thread
[solo]
iodepth=8
rate_iops=2000
thinktime=6s
thinktime_iotime=5s
runtime=16
[grp]
new_group
numjobs=4
group_reporting
iodepth=4
rate_iops=250
startdelay=0-4
runtime=12
EOF
start main --format jsonl "$T/tr"
if "$FIO" "$T/run.fio" --output-format=json --output="$T/run.json" >"$T/fio.out" 2>&1; then
	finish watch_exits_0_after_fio 0
	"$NVANALYZE" -f json "$T/run.json" >"$T/post.json" 2>"$T/post.err" ||
		fail post_run "$(cat "$T/post.err")"
	same_series live_intervals_equal_post_run_series "$T/main.out" "$T/post.json"
	for j in solo grp; do
		check "end_line_$j" grep -q \
			"\"type\":\"end\",\"job\":\"$j\",\"op\":\"all\",\"complete\":true" \
			"$T/main.out"
	done
	check grp_job_line_four_threads grep -q \
		'"type":"job","job":"grp","host":"[^"]*","threads":4' "$T/main.out"
	check pause_said_as_stall grep -q \
		'"job":"solo",.*"kind":"stall","text":"no trace data for 5 s' "$T/main.out"
else
	fail fio "$(tail -n 5 "$T/fio.out")"
	kill "$WPID"
fi

# 64 job threads of one job: combined as the post-run analysis combines them.
mkdir "$T/t64"
start many --format jsonl "$T/t64"
if "$FIO" --thread --ioengine="external:$NVENGINE_SO" --name=many --numjobs=64 \
	--group_reporting --filename="$T/nop" --size=1M --bs=4k --rw=randrw --rate_iops=50 \
	--iodepth=2 --runtime=3 --time_based --nv_nop=1 --nv_trace="$T/t64" \
	--output-format=json --output="$T/t64.json" >"$T/t64.fio.out" 2>&1; then
	finish many_threads_exit_0 0
	"$NVANALYZE" -f json "$T/t64.json" >"$T/t64.post" 2>/dev/null
	same_series many_threads_equal_post_run "$T/many.out" "$T/t64.post"
	check many_threads_64 grep -q '"type":"job","job":"many","host":"[^"]*","threads":64' \
		"$T/many.out"
else
	fail many_threads "$(tail -n 5 "$T/t64.fio.out")"
	kill "$WPID"
fi

# A trace still being written: the first half of a generated one (2000
# records a block, no footer), the rest appended later.
"$GEN" -n 200000 -b 2000 -s 1 "$T/g.nvt" >/dev/null || fail gen "gen_trace failed"
half=$(($(stat -c %s "$T/g.nvt") / 2))
part() {	# part DIR: DIR/gen.0.nvt, the first half
	mkdir -p "$1"
	head -c "$half" "$T/g.nvt" >"$1/gen.0.nvt"
}
rest() {	# rest: the second half on stdout
	tail -c +$((half + 1)) "$T/g.nvt"
}
iv=(--format jsonl --interval 0.01)

part "$T/whole"
start whole "${iv[@]}" "$T/whole"
wait_for "$T/whole.out" '"type":"interval"'
rest >>"$T/whole/gen.0.nvt"
finish appended_rest_read_to_the_footer 0
cat >"$T/gen.json" <<EOF
{"fio version": "fio-3.33", "jobs": [{"jobname": "gen", "groupid": 0, "error": 0,
 "job options": {"rw": "randrw", "bs": "4k", "iodepth": "4"},
 "read": {"io_bytes": 0, "total_ios": 1, "iops": 1.0, "bw_bytes": 1,
  "clat_ns": {"min": 1, "max": 2, "mean": 1.5, "stddev": 0.1, "N": 1}}}]}
EOF
"$NVANALYZE" -f json --interval 0.01 --trace "$T/whole/gen.0.nvt" "$T/gen.json" \
	>"$T/whole.json" 2>"$T/whole.json.err" || fail post_run_gen "$(cat "$T/whole.json.err")"
same_series growing_trace_equals_post_run "$T/whole.out" "$T/whole.json"

part "$T/trunc"
start truncated "${iv[@]}" "$T/trunc"
wait_for "$T/truncated.out" '"type":"interval"'
: >"$T/trunc/gen.0.nvt"
finish truncated 1 'gen.0.nvt was truncated while watched'

part "$T/del"
exec 3>>"$T/del/gen.0.nvt"
start deleted "${iv[@]}" "$T/del"
wait_for "$T/deleted.out" '"type":"interval"'
rm "$T/del/gen.0.nvt"
wait_for "$T/deleted.err" 'deleted while watched'
rest >&3
exec 3>&-
finish deleted_read_on 0 'gen.0.nvt was deleted while watched: reading on from the open file'

part "$T/repl"
start replaced "${iv[@]}" "$T/repl"
wait_for "$T/replaced.out" '"type":"interval"'
cp "$T/g.nvt" "$T/repl/new" && mv "$T/repl/new" "$T/repl/gen.0.nvt"
finish replaced 1 'gen.0.nvt was replaced while watched: the old file ends at its last'
check replaced_new_one_read grep -q '"type":"end","job":"gen","op":"all","complete":true' \
	"$T/replaced.out"

part "$T/dmg"
start damaged "${iv[@]}" "$T/dmg"
wait_for "$T/damaged.out" '"type":"interval"'
rest >"$T/rest"
pytool flip_bit "$T/rest" "$T/rest.bad" $((half / 2))
cat "$T/rest.bad" >>"$T/dmg/gen.0.nvt"
finish damaged 1 'damaged: .*it ends at its last good block'

part "$T/idle"
start idle "${iv[@]}" --idle-timeout 1 "$T/idle"
finish idle_timeout 1 'no trace grew for 1 s (--idle-timeout): the writers are gone'

part "$T/int"
start interrupted "${iv[@]}" "$T/int"
wait_for "$T/interrupted.out" '"type":"interval"'
kill -INT "$WPID"
finish ctrl_c_totals 0 'stopped (a signal): the totals so far'
check ctrl_c_end_lines grep -q '"type":"end","job":"gen","op":"all","complete":false' \
	"$T/interrupted.out"

# fio killed: its trace never gets a footer and the writer's pid is gone.
mkdir "$T/kill"
start killed --format jsonl "$T/kill"
"$FIO" --ioengine="external:$NVENGINE_SO" --thread --name=k --filename="$T/nop" \
	--size=1M --bs=4k --rw=randread --rate_iops=500 --runtime=300 --time_based --nv_nop=1 \
	--nv_trace="$T/kill" >"$T/kill.fio.out" 2>&1 &
fpid=$!
wait_for "$T/killed.out" '"type":"interval"'
kill -KILL "$fpid"
wait "$fpid" 2>/dev/null
finish fio_killed 1 "k.1.nvt has no footer and its writer (pid $fpid) is gone"

# --from-now: a finished trace's intervals all ended before the start: none
# shown, the totals still; --follow: after the first job, the next one, and
# the first one's file written again (a new run) as a third.
start fromnow "${iv[@]}" --from-now "$T/whole"
finish from_now_exits_0 0
if ! grep -q '"type":"interval"' "$T/fromnow.out" &&
	grep -q '"type":"end","job":"gen","op":"all","complete":true' "$T/fromnow.out"; then
	pass from_now_leaves_out_the_past
else
	fail from_now_leaves_out_the_past "$(head -c 400 "$T/fromnow.out")"
fi
mkdir "$T/fol"
cp "$T/g.nvt" "$T/fol/gen.0.nvt"
start follow "${iv[@]}" --follow --idle-timeout 3 "$T/fol"
wait_for "$T/follow.out" '"type":"end","job":"gen","op":"all"'
cp "$T/g.nvt" "$T/fol/next.1.nvt"
wait_count "$T/follow.out" '"type":"end","job":"gen","op":"all"' 2
cat "$T/g.nvt" >"$T/fol/gen.0.nvt"	# the same file written again: a new job
finish follow_then_idle 0 'no trace grew for 3 s'
if [ "$(grep -c '"type":"end","job":"gen","op":"all"' "$T/follow.out")" = 3 ]; then
	pass follow_read_the_next_job
else
	fail follow_read_the_next_job "$(grep '"type":"end"' "$T/follow.out")"
fi

# jobs/run --live: the watch's lines on stderr beside the progress.
NVDEV=$T/nop NVDIRECT=0 RUNTIME=3 SIZE=1M "$TOP/jobs/run" --live -o "$T/res" \
	"$TOP/jobs/randread.fio" -- --nv_nop=1 --rate_iops=2000 >"$T/live.out" 2>"$T/live.err"
rc=$?
if [ $rc = 0 ] && grep -q ' read #1 1-2 s: ' "$T/live.err" &&
	grep -q ' read total over ' "$T/live.err" && grep -q '^jobs/run: ' "$T/live.err"; then
	pass jobs_run_live
else
	fail jobs_run_live "exit $rc: $(tail -n 5 "$T/live.err")"
fi

# jobs/run --live --sweep: after each point the curve so far, its rows, the
# knee rule's answer and the text plot, before the next point starts.
NVDEV=$T/nop NVDIRECT=0 RUNTIME=1 SIZE=1M "$TOP/jobs/run" --live --sweep iodepth=1,4,16 \
	-o "$T/sw" "$TOP/jobs/randread.fio" -- --nv_nop=1 --rate_iops=2000 \
	>"$T/sw.out" 2>"$T/sw.err"
rc=$?
two=$(grep -n 'iodepth sweep, 2 points' "$T/sw.err" | head -n 1 | cut -d: -f1)
third=$(grep -n 'point iodepth=16 ->' "$T/sw.err" | head -n 1 | cut -d: -f1)
if [ $rc = 0 ] && [ -n "$two" ] && [ -n "$third" ] && [ "$two" -lt "$third" ] &&
	grep -q 'iodepth sweep, 3 points' "$T/sw.err" &&
	grep -Eq '^\| 16 +\| ' "$T/sw.err" && grep -Eq '(Knee|No knee) \(sw\)' "$T/sw.err" &&
	grep -q '^clat p99 against IOPS (K: the knee):' "$T/sw.err"; then
	pass jobs_run_live_sweep_curve_as_points_complete
else
	fail jobs_run_live_sweep_curve_as_points_complete "exit $rc: $(tail -n 12 "$T/sw.err")"
fi

# A file named like a trace that is none: said once, left alone.
mkdir "$T/foreign"
echo "not a trace" >"$T/foreign/x.1.nvt"
start foreign --format jsonl --idle-timeout 1 "$T/foreign"
finish foreign_file_said 0 'x.1.nvt: not an nvtrace file (bad magic): left out'

# jobs/run --live --search: the bracket so far after each point.
NVDEV=$T/nop NVDIRECT=0 RUNTIME=1 SIZE=1M "$TOP/jobs/run" --live --search 'iops>=1' \
	--sweep iodepth=1..2 -o "$T/ss" "$TOP/jobs/randread.fio" -- --nv_nop=1 \
	--rate_iops=2000 >"$T/ss.out" 2>"$T/ss.err"
rc=$?
one=$(grep -n "search 'iops>=1' so far: iodepth=1 meets it" "$T/ss.err" | head -n 1 | cut -d: -f1)
second=$(grep -n 'point iodepth=2 ->' "$T/ss.err" | head -n 1 | cut -d: -f1)
if [ $rc = 0 ] && [ -n "$one" ] && [ -n "$second" ] && [ "$one" -lt "$second" ] &&
	grep -q "so far: iodepth=2 meets it" "$T/ss.err"; then
	pass jobs_run_live_search_bracket
else
	fail jobs_run_live_search_bracket "exit $rc: $(grep -E 'search|point' "$T/ss.err")"
fi

# The trace's disk full: the writer stops, the job fails, fio ends; the
# watch says why the trace has no footer.  (A 256 KiB tmpfs: needs mount.)
mkdir "$T/full"
if mount -t tmpfs -o size=256k tmpfs "$T/full" 2>/dev/null; then
	start full --format jsonl "$T/full"
	"$FIO" --thread --ioengine="external:$NVENGINE_SO" --name=df --filename="$T/nop" \
		--size=1M --bs=4k --rw=randread --rate_iops=20000 --runtime=60 --time_based \
		--nv_nop=1 --nv_trace="$T/full" >"$T/full.fio.out" 2>&1
	finish trace_disk_full 1 \
		"df.1.nvt has no footer and its writer .* is gone: its file system is full"
	umount "$T/full"
else
	skip trace_disk_full "cannot mount a small tmpfs (not root?)"
fi
