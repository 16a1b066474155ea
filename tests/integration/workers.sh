#!/usr/bin/env bash
# nvanalyze -J N (issue 42, stats/workpool.h, stats/trace_join.h): the
# jobs' traces analyzed on N threads give the same md, csv, json and -o
# directory (tables, figure data, scripts, pages) as -J 1, on a QD sweep
# (five traced jobs in one run) and on repeats (three traced runs of it as
# one side beside another); a damaged trace is reported by name, its job
# keeps fio's values and the other jobs are analyzed, under any -J.
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
