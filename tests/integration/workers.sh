#!/usr/bin/env bash
# nvanalyze -J N (issue 42, stats/workpool.h, stats/trace_join.h): the
# jobs' traces analyzed on N threads give the same md, csv, json and -o
# directory (tables, figure data, scripts, pages) as -J 1, on a QD sweep
# (five traced jobs in one run) and on repeats (three traced runs of it as
# one side beside another); a damaged trace is reported by name, its job
# keeps fio's values and the other jobs are analyzed, under any -J.
# Grouped jobs (numjobs, group_reporting): a job of 4 or 16 thread traces, one
# of them damaged, or paused inside rounds, gives the same output under any
# -J too; one of 64 short thread traces is analysed in bounded memory.
# (many_hosts.sh and sweep.sh run the same check on their fleets and
# sweeps: workers_same in tests/lib.sh.)
source "$(dirname "$0")/../lib.sh"
need_nvanalyze || exit 0
need_engine || exit 0

# sweep R: a run of five stonewalled jobs at QD 1..16, traced into $T/R
sweep() {
	mkdir -p "$T/$1"
	{
		printf '[global]\nfilename=%s\nsize=2M\nrw=randread\nbs=4k\n' "$T/file"
		printf 'nv_trace=%s\n' "$T/$1"
		for qd in 1 2 4 8 16; do printf '[qd%s]\niodepth=%s\nstonewall\n' $qd $qd; done
	} >"$T/$1.fio"
	nvfio --output-format=json+ "$T/$1.fio" >"$T/$1.json" 2>"$T/$1.err" ||
		fail "fio_$1" "$(tail -n 3 "$T/$1.err")"
}
for r in a b c d; do sweep $r; done

workers_same sweep_same_any_J "$T/a.json"
workers_same repeats_same_any_J -l reps "$T/a.json,$T/b.json,$T/c.json" -l one "$T/d.json"

# one damaged trace among the sweep's: named, the others analyzed, exit 2
tr=$(ls "$T"/a/qd4.*.nvt | head -n 1)
cp "$tr" "$T/qd4.good"
pytool flip_bit "$T/qd4.good" "$tr"
for j in 1 4; do
	"$NVANALYZE" -J $j "$T/a.json" >"$T/dmg$j.md" 2>"$T/dmg$j.err"
	rc=$?
	exact=$(grep -c '(exact)' "$T/dmg$j.md")
	if [ $rc -eq 2 ] && grep -q "$tr: damaged: block [0-9]* at offset" "$T/dmg$j.err" &&
		grep -q "its job reported from fio's values only" "$T/dmg$j.err" &&
		grep -q '^### qd16' "$T/dmg$j.md" && [ "$exact" -gt 0 ]; then
		pass "damaged_trace_others_analyzed_J$j"
	else
		fail "damaged_trace_others_analyzed_J$j" \
			"rc $rc, $exact exact: $(head -3 "$T/dmg$j.err")"
	fi
done
"$NVANALYZE" -J 4 -o "$T/dmg.out" "$T/a.json" >/dev/null 2>&1
sed -n '/^\*\*Warnings about the inputs\*\*/,/^## /p' "$T/dmg.out/report.md" 2>/dev/null |
	grep -qF "$tr: damaged" && pass damaged_trace_in_report_warnings ||
	fail damaged_trace_in_report_warnings \
		"not in $T/dmg.out/report.md's warnings about the inputs"
cmp -s "$T/dmg1.md" "$T/dmg4.md" && cmp -s "$T/dmg1.err" "$T/dmg4.err" &&
	pass damaged_trace_same_any_J ||
	fail damaged_trace_same_any_J "$(diff "$T/dmg1.md" "$T/dmg4.md" | head -5)"

# grouped jobs (numjobs, group_reporting: one job of N thread traces, analysed
# apart on the workers and merged, stats/trace_merge.c): nv_nop at QD 16 with
# 10 ms intervals, 4 and 16 threads, the same output for any -J; one thread
# trace damaged: named as a warning, the job analysed from its other traces
# (the figures' data), fio's values in its rows, exit 2, the same for any -J
grouped() {
	mkdir -p "$T/$1"
	nvfio --thread --name="$1" --filename="$T/nop" --size=1M --bs=4k --rw=randread \
		--iodepth=16 --loops=160 --nv_nop=1 --nv_trace="$T/$1" --numjobs="$2" \
		--group_reporting --output-format=json --output="$T/$1.json" >"$T/$1.out" 2>&1 ||
		fail "fio_$1" "$(tail -n 3 "$T/$1.out")"
}
head -c 1M /dev/zero >"$T/nop"
grouped g4 4
grouped g16 16
workers_same grouped_4_threads_same_any_J --interval 0.01 "$T/g4.json"
workers_same grouped_16_threads_same_any_J --interval 0.01 "$T/g16.json"
# a thread whose exact states list many values inside a round pauses there,
# its states are folded into the job's and it goes on (trace_merge.c
# PAUSE_LISTED; NVANALYZE_PAUSE_LISTED=16 pauses it over and over): the same
# output for any -J, and the same results as without pauses, to the last
# digit (the exact states' sums are exact integers, so the order values
# reach them in does not show)
"$NVANALYZE" --interval 0.01 -f json "$T/g4.json" >"$T/g4u.json" 2>&1
export NVANALYZE_PAUSE_LISTED=16
workers_same grouped_4_threads_paused_same_any_J --interval 0.01 "$T/g4.json"
"$NVANALYZE" -J 4 --interval 0.01 -f json "$T/g4.json" >"$T/g4p.json" 2>&1
unset NVANALYZE_PAUSE_LISTED
cmp -s "$T/g4u.json" "$T/g4p.json" && grep -q exact "$T/g4p.json" &&
	pass grouped_paused_same_results ||
	fail grouped_paused_same_results "$(diff "$T/g4u.json" "$T/g4p.json" | head -5)"
# a thread's IOs of the queue-depth class its interval holds reach the job's
# exact state from the interval's counts at its close, the other classes' IO
# by IO, left out of those counts (stats/trace_series.c exact_run; at QD 16
# each of the 160 loops starts with 15 IOs below 16); without the counts
# (NVANALYZE_SERIES_CAP: a list of every latency) every IO goes IO by IO:
# the same output to the last digit
NVANALYZE_SERIES_CAP=1000000 "$NVANALYZE" -J 2 --interval 0.01 -f json "$T/g4.json" \
	>"$T/g4d.json" 2>&1
cmp -s "$T/g4u.json" "$T/g4d.json" && grep -q exact "$T/g4d.json" &&
	pass grouped_held_same_as_direct ||
	fail grouped_held_same_as_direct "$(diff "$T/g4u.json" "$T/g4d.json" | head -5)"
tr=$(ls "$T"/g4/g4.2.nvt)
pytool flip_bit "$tr" "$T/g4.bad"
mv "$T/g4.bad" "$tr"
for j in 1 4; do
	"$NVANALYZE" -J $j --interval 0.01 -f json "$T/g4.json" >"$T/g4.$j.json" 2>/dev/null
	echo "exit $?" >>"$T/g4.$j.json"
	rm -rf "$T/g4.out"	# one path in turn: the messages name it
	"$NVANALYZE" -J $j --interval 0.01 -o "$T/g4.out" "$T/g4.json" >"$T/g4.$j.md" \
		2>"$T/g4.$j.err"
	echo "exit $?" >>"$T/g4.$j.md"
	mv "$T/g4.out" "$T/g4.out$j"
done
cmp -s "$T/g4.1.json" "$T/g4.4.json" && cmp -s "$T/g4.1.md" "$T/g4.4.md" &&
	cmp -s "$T/g4.1.err" "$T/g4.4.err" && diff -r "$T/g4.out1" "$T/g4.out4" >/dev/null &&
	pass grouped_damaged_thread_same_any_J ||
	fail grouped_damaged_thread_same_any_J "$(diff "$T/g4.1.md" "$T/g4.4.md" | head -n 3)"
rc=$(tail -n 1 "$T/g4.4.md")
if [ "$rc" = "exit 2" ] &&
	grep -q "warning: $tr: damaged: .*the rest of this trace is left out" "$T/g4.4.err" &&
	grep -q "some of them are damaged or missing (above); using fio's values" "$T/g4.4.err" &&
	grep -qF "$tr: damaged" "$T/g4.out4/report.md" &&
	[ -s "$T/g4.out4/data/ts_g4_g4.dat" ]; then
	pass grouped_damaged_thread_reported_others_analyzed
else
	fail grouped_damaged_thread_reported_others_analyzed "$rc: $(head -n 3 "$T/g4.4.err")"
fi

# -o with a table that cannot be written (tables.json a directory): the
# tables are written beside the figures under -J 2 or more (publish/outdir.c),
# before them under -J 1; either way the message names the file, exit 2, and
# the figures, report.md and the other tables are written: the same directory
for j in 1 4; do
	mkdir -p "$T/tbl$j/tables.json"
	"$NVANALYZE" -J $j --interval 0.01 -o "$T/tbl$j" "$T/g16.json" >/dev/null \
		2>"$T/tbl$j.err"
	echo "exit $?" >>"$T/tbl$j.err"
done
if grep -qx "nvanalyze: -o: cannot write $T/tbl4/tables.json: Is a directory" "$T/tbl4.err" &&
	[ "$(tail -n 1 "$T/tbl4.err")" = "exit 2" ] && [ -s "$T/tbl4/tables.csv" ] &&
	[ -s "$T/tbl4/report.md" ] && [ -s "$T/tbl4/data/ts_g16_g16.dat" ] &&
	grep -qx "tables.md" "$T/tbl4/nvanalyze-files.txt" &&
	diff <(sed "s|tbl1|tblJ|" "$T/tbl1.err") <(sed "s|tbl4|tblJ|" "$T/tbl4.err") \
		>/dev/null && diff -r "$T/tbl1" "$T/tbl4" >/dev/null; then
	pass tables_unwritable_figures_written_any_J
else
	fail tables_unwritable_figures_written_any_J \
		"$(head -n 2 "$T/tbl4.err"; diff -r "$T/tbl1" "$T/tbl4" | head -n 3)"
fi

# a grouped job of 64 short thread traces (gen_trace, one block each): its
# analysis keeps one decoded block per worker through the first round (the
# others read again), its states' histograms and lists at the pages they use,
# two sets of interval buffers per worker and no block rest held between
# rounds (issue 58): peak RSS under 2x stat's on the same traces (1.6x; 2.5x
# when each thread held its block's rest, 3.7x when each had its own buffers
# too, 10.2x when every thread held its block and 114 KiB histograms: 70 MiB
# against 7)
if [ -x /usr/bin/time ] && [ "$NV_ASAN" = 0 ] && need_unit_helper; then
	mkdir -p "$T/g64"
	for k in $(seq 1 64); do
		"$GEN" -p randread -q 32 -s "$k" -n 20000 "$T/g64/g.$k.nvt" >/dev/null ||
			fail gen_trace_g64 "$GEN"
	done
	cat >"$T/g64.json" <<-EOF
	{"fio version": "fio-3.33", "jobs": [{"jobname": "g", "groupid": 0, "error": 0,
	 "job options": {"rw": "randread", "bs": "4k", "numjobs": "64", "nv_trace": "$T/g64"},
	 "read": {"io_bytes": 5242880000, "total_ios": 1280000, "iops": 1280000,
	 "bw": 5120000, "runtime": 1000}}]}
	EOF
	/usr/bin/time -f "%M" -o "$T/g64.rss" "$NVANALYZE" -J 1 --figures none \
		-o "$T/g64.out" "$T/g64.json" >/dev/null 2>"$T/g64.err"
	st=$?
	/usr/bin/time -f "%M" -o "$T/g64s.rss" "$NVANALYZE" stat "$T"/g64/*.nvt >/dev/null
	a=$(tail -n 1 "$T/g64.rss") b=$(tail -n 1 "$T/g64s.rss")
	[ $st -eq 0 ] && [ "$a" -lt $((2 * b)) ] &&
		pass grouped_64_short_threads_memory ||
		fail grouped_64_short_threads_memory \
			"exit $st, peak $a KiB against stat's $b: $(head -n 2 "$T/g64.err")"
else
	skip grouped_64_short_threads_memory "no /usr/bin/time or gen_trace, or an ASan build"
fi

# the progress line on a terminal counts the jobs of every worker
NVANALYZE_PROGRESS_DELAY=0 pytool progress_pty "$T/tty" "$T/tty.out" "$NVANALYZE" -J 4 "$T/d.json"
st=$?
"$NVANALYZE" -J 4 "$T/d.json" >"$T/d.md" 2>/dev/null
if [ $st -eq 0 ] && tr '\r' '\n' <"$T/tty" | grep -aq \
	'^nvanalyze: jobs [0-4] of 5 done, [1-4] at work: reading qd[0-9]*\.[0-9]*\.nvt, pass' &&
	cmp -s "$T/d.md" "$T/tty.out"; then
	pass progress_counts_all_workers
else
	fail progress_counts_all_workers "exit $st: $(tr '\r' '\n' <"$T/tty" | head -n 3)"
fi

# -J's value checked
"$NVANALYZE" -J 0 "$T/d.json" >/dev/null 2>"$T/j0.err"
[ $? -eq 2 ] && grep -q "^nvanalyze: -J '0': a number of threads from 1 to" "$T/j0.err" &&
	pass bad_J_named || fail bad_J_named "$(cat "$T/j0.err")"
exit 0
