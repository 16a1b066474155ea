#!/bin/bash
# Several fio outputs in one file (issue 40, analyze/input/multiout.h), made
# by the real fio (ioengine=null): --status-interval snapshots of one run
# (the last is read, a note says so) in fio normal output, in concatenated
# JSON and in both at once; runs appended to one log with >> (repeats of one
# run, read exactly as the same runs given as comma-separated files), each
# format checked against the JSON of the same runs.
. "$(dirname "$0")/../lib.sh"

cd "$TOP" || exit 1
command -v "$FIO" >/dev/null || { skip multi-output "no fio"; exit 0; }

cat >"$T/jobs.fio" <<'JOBS'
[global]
ioengine=null
size=64g
bs=4k
time_based
runtime=2300ms
[randread]
rw=randread
[mixed]
rw=randrw
bs=64k
JOBS

# Run fio once: normal and JSON of every interval into $1.out, then split
# into $1.txt (the normal dumps) and $1.json (the JSON objects).
fio_run() {
	if ! (cd "$T" && "$FIO" --status-interval=1 --output-format=normal,json jobs.fio \
		>"$1.out" 2>"$1.err"); then
		fail "fio-run-$(basename "$1")" "$(tail -n 3 "$1.err" | tr '\n' ' ')"
		return 1
	fi
	awk '/^\{/{j=1} j{print} /^\}/{j=0}' "$1.out" >"$1.json"
	awk '/^\{/{j=1} !j{print} /^\}/{j=0}' "$1.out" >"$1.txt"
}

mkdir -p "$T/one" "$T/sep"
for i in 1 2 3; do fio_run "$T/sep/r-$i" || exit 0; done

# nvanalyze --format json of a normal and a JSON reading compared by
# tests/py/multi_output_check.py compare: IOPS, bandwidth (mean, stdev, n)
# and runtime per job and direction within 1% (a stdev 5%): fio computes
# each output of a dump a moment apart, so they differ a little.

# One run's snapshots: the last read, said so; the normal reading equals
# the JSON's (the same dumps) within the printed precision.
S=$T/sep/r-1
for f in "$S.txt" "$S.json" "$S.out"; do
	n=$(grep -c '"fio version"\|err= .*pid=' "$f")
	"$NVANALYZE" --format csv "$f" >"$f.csv" 2>"$f.stderr"
	jobs=$(grep -v '^job,\|^$' "$f.csv" | cut -d, -f1 | sort -u | tr '\n' ' ')
	if [ "$n" -ge 3 ] && [ "$jobs" = "mixed randread " ] &&
	   grep -q 'status-interval snapshots of one fio run.*the last is read' "$f.stderr"; then
		pass "snapshots-last-$(basename "$f")"
	else
		fail "snapshots-last-$(basename "$f")" "outputs $n, jobs $jobs: $(cat "$f.stderr")"
	fi
done
"$NVANALYZE" --format json "$S.txt" >"$S.txt.js" 2>/dev/null
"$NVANALYZE" --format json "$S.json" >"$S.json.js" 2>/dev/null
pytool multi_output_check compare "$S.txt.js" "$S.json.js" >"$T/snap.out" 2>&1
# the runtime read is the last snapshot's, longer than any before it
before=$(grep -o '"job_runtime" : [0-9]*' "$S.json" | head -n -2 | grep -o '[0-9]*$' |
	sort -n | tail -n 1)
last=$(pytool multi_output_check min-runtime-ms "$S.txt.js")
if grep -Eq 'compared [1-9][0-9]+, mismatches 0, rows 3' "$T/snap.out" &&
   [ "$last" -gt "$before" ]; then
	pass snapshots-normal-equals-json
else
	fail snapshots-normal-equals-json \
		"runtime $last ms (before: $before): $(tr '\n' ' ' <"$T/snap.out")"
fi

# Three runs appended to one log: repeats, the same as r-1,r-2,r-3.
for ext in txt json; do
	cat "$T"/sep/r-[123].$ext >"$T/one/r.$ext"
	"$NVANALYZE" --format json "$T/one/r.$ext" >"$T/one.$ext.js" 2>"$T/one.$ext.err"
	"$NVANALYZE" --format json "$T/sep/r-1.$ext,$T/sep/r-2.$ext,$T/sep/r-3.$ext" \
		>"$T/sep.$ext.js" 2>/dev/null
	sed -i -e "s#$T/one/r\.$ext#F#g" -e "s#$T/sep/r-[123]\.$ext#F#g" \
		"$T/one.$ext.js" "$T/sep.$ext.js"
	# Only the one file says where each run starts in it ("lines": [1, N, M]).
	lines=$("$PYTHON" -c 'import json, sys
print(json.load(open(sys.argv[1]))["sides"][0].get("lines"))' "$T/one.$ext.js")
	sed -i '/"lines": \[/,/\]/d' "$T/one.$ext.js"
	if grep -q '"runs": 3' "$T/one.$ext.js" && cmp -s "$T/one.$ext.js" "$T/sep.$ext.js" &&
	   [[ $lines == "[1, "[0-9]*", "[0-9]*"]" ]] &&
	   grep -q '3 runs of the same fio jobs in one file.*repeats' "$T/one.$ext.err"; then
		pass "appended-runs-are-repeats-$ext"
	else
		fail "appended-runs-are-repeats-$ext" \
			"lines $lines; $(diff "$T/one.$ext.js" "$T/sep.$ext.js" | head -n 6 |
				tr '\n' ' ')"
	fi
done

pytool multi_output_check compare "$T/one.txt.js" "$T/one.json.js" >"$T/rep.out" 2>&1
if grep -Eq 'compared [1-9][0-9]+, mismatches 0, rows 3' "$T/rep.out"; then
	pass appended-normal-equals-json
else
	fail appended-normal-equals-json "$(tr '\n' ' ' <"$T/rep.out")"
fi

# Issue 60 item 8: terse lines of --status-interval snapshots, and of runs
# appended to one file, read as the JSON of the same runs is: the last
# snapshot of one run (one job each, not "randread #1" ... "#3"), and
# repeats; fio's JSON of the same dumps is the oracle (within 1%, as above).
tfio_run() {	# BASE: --status-interval terse (v5: IOPS samples),json into BASE.terse, .tj
	(cd "$T" && "$FIO" --status-interval=1 --output-format=terse,json --terse-version=5 \
		jobs.fio >"$1.out" 2>"$1.err") || return 1
	grep -E '^[2-5];fio-' "$1.out" >"$1.terse"
	awk '/^\{/{j=1} j{print} /^\}/{j=0}' "$1.out" >"$1.tj"
}
tj_cmp() {	# BASE: BASE.terse and BASE.tj read, compared into BASE.cmp
	"$NVANALYZE" --format json "$1.terse" >"$1.terse.js" 2>"$1.err"
	"$NVANALYZE" --format json "$1.tj" >"$1.tj.js" 2>/dev/null
	pytool multi_output_check compare "$1.terse.js" "$1.tj.js" >"$1.cmp" 2>&1
}
if tfio_run "$T/t1" && tfio_run "$T/t2"; then
	"$NVANALYZE" --format csv "$T/t1.terse" >"$T/t1.csv" 2>"$T/t1.stderr"
	tj_cmp "$T/t1"
	jobs=$(grep -v '^job,\|^$' "$T/t1.csv" | cut -d, -f1 | sort -u | tr '\n' ' ')
	if [ "$(grep -c '^5;fio-.*;randread;' "$T/t1.terse")" -ge 3 ] &&
	   [ "$jobs" = "mixed randread " ] &&
	   grep -q 'status-interval snapshots of one fio run.*the last is read' "$T/t1.stderr" &&
	   grep -Eq 'compared [1-9][0-9]+, mismatches 0, rows 3' "$T/t1.cmp"; then
		pass terse-status-interval-last-snapshot
	else
		fail terse-status-interval-last-snapshot \
			"jobs $jobs: $(cat "$T/t1.stderr" "$T/t1.cmp" | tr '\n' ' ')"
	fi
	# the last snapshot of each run, appended: two repeats, as in the JSON
	tail -n 2 "$T/t1.terse" >"$T/tapp.terse"
	tail -n 2 "$T/t2.terse" >>"$T/tapp.terse"
	last='/^\{/{b=""} {b=b $0 "\n"} END{printf "%s", b}'	# the last JSON object
	awk "$last" "$T/t1.tj" >"$T/tapp.tj"
	awk "$last" "$T/t2.tj" >>"$T/tapp.tj"
	tj_cmp "$T/tapp"
	if grep -q '"runs": 2' "$T/tapp.terse.js" &&
	   grep -q '2 runs of the same fio jobs in one file.*repeats' "$T/tapp.err" &&
	   grep -Eq 'compared [1-9][0-9]+, mismatches 0, rows 3' "$T/tapp.cmp"; then
		pass terse-appended-runs-are-repeats
	else
		fail terse-appended-runs-are-repeats \
			"$(cat "$T/tapp.err" "$T/tapp.cmp" | tr '\n' ' ')"
	fi
else
	fail terse-status-interval "fio: $(tail -n 2 "$T/t1.err" | tr '\n' ' ')"
fi
# One job's snapshots (one name: the issue's "si #1" ... "si #4"), and one
# output of numjobs=2 without group_reporting (one name, twice, ending
# together: no snapshot), time_based or not, which stays two jobs.
(cd "$T" && "$FIO" --name=si --ioengine=null --size=64g --time_based --runtime=2300ms \
	--status-interval=1 --output-format=terse >"$T/si.terse" 2>/dev/null)
"$NVANALYZE" --format csv "$T/si.terse" >"$T/si.csv" 2>"$T/si.err"
if [ "$(grep -c '^3;fio-.*;si;' "$T/si.terse")" -ge 3 ] &&
   [ "$(grep -c '^si,read,IOPS' "$T/si.csv")" -ge 1 ] && ! grep -q '^si #' "$T/si.csv" &&
   grep -q 'status-interval snapshots of one fio run' "$T/si.err"; then
	pass terse-one-job-snapshots
else
	fail terse-one-job-snapshots "$(head -n 3 "$T/si.csv" "$T/si.err" | tr '\n' ' ')"
fi
for tb in "" "--time_based --runtime=700ms"; do
	# shellcheck disable=SC2086
	(cd "$T" && "$FIO" --name=two --ioengine=null --size=16m --numjobs=2 $tb \
		--output-format=terse >"$T/two.terse" 2>/dev/null)
	"$NVANALYZE" --format csv "$T/two.terse" >"$T/two.csv" 2>"$T/two.err"
	n=terse-numjobs-one-output${tb:+-time-based}
	if grep -q '^two #1,read,IOPS' "$T/two.csv" && grep -q '^two #2,read,IOPS' "$T/two.csv" &&
	   ! grep -q 'repeats\|snapshots' "$T/two.err"; then
		pass "$n"
	else
		fail "$n" "$(head -n 4 "$T/two.csv" "$T/two.err" | tr '\n' ' ')"
	fi
done

# Runs of different jobs in one log are not repeats: read as one file, as
# before (every job kept).
sed 's/^\[randread\]/[other]/' "$T/jobs.fio" >"$T/jobs2.fio"
(cd "$T" && "$FIO" --output-format=normal jobs2.fio >"$T/diff.txt" 2>/dev/null)
cat "$T/sep/r-1.txt" >>"$T/diff.txt"
"$NVANALYZE" --format csv "$T/diff.txt" >"$T/diff.csv" 2>"$T/diff.err"
if grep -q '^other,read,' "$T/diff.csv" && grep -q '^randread[ #0-9]*,read,' "$T/diff.csv" &&
   ! grep -q 'repeats' "$T/diff.err"; then
	pass different-jobs-one-run
else
	fail different-jobs-one-run "$(head -n 4 "$T/diff.csv" "$T/diff.err" | tr '\n' ' ')"
fi
