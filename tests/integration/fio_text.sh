#!/bin/bash
# fio's text outputs read as runs (issue 40): one fio run (ioengine=null)
# with --output-format=normal,terse,json; the normal output's reading must
# equal the JSON reading within the printed precision, field by field
# (gen_textcmp); a changed value must be caught; damaged texts (cut at
# every line, a unit garbled) give an error naming file and line, or a
# reading, never a crash.
. "$(dirname "$0")/../lib.sh"

cd "$TOP" || exit 1
CMP=${UNIT_DIR:-$TOP/build/tests/unit}/gen_textcmp
[ -x "$CMP" ] || { fail setup "no $CMP (run make unit)"; exit 0; }
command -v "$FIO" >/dev/null || { skip consistency "no fio"; exit 0; }

# randrw with numjobs=2 (per-job entries), randtrim, and a second group with
# group_reporting and lat_percentiles; a percentile_list.
cat >"$T/jobs.fio" <<'JOBS'
[global]
ioengine=null
size=64m
bs=4k
percentile_list=10:50:90:99:99.9:99.99
[rw]
rw=randrw
numjobs=2
[trimjob]
rw=randtrim
[grp]
new_group
stonewall
rw=randread
numjobs=2
group_reporting
lat_percentiles=1
JOBS
if ! (cd "$T" && "$FIO" --output-format=normal,terse,json --output=all.out jobs.fio \
	>"$T/fio.log" 2>&1); then
	fail fio-run "$(tail -n 3 "$T/fio.log" | tr '\n' ' ')"
	exit 0
fi
# fio writes terse, then JSON, then normal: split them.
awk '/^\{/{j=1} j{print} /^\}/{j=0}' "$T/all.out" >"$T/run.json"
awk '/^\{/{j=1} /^[0-9];fio-/{next} !j{print} /^\}/{j=0}' "$T/all.out" >"$T/run.txt"

if "$CMP" "$T/run.txt" "$T/run.json" >"$T/cmp.out" 2>&1 &&
   grep -q 'text format fio-normal' "$T/cmp.out" &&
   grep -Eq 'compared [1-9][0-9]{2,}, mismatches 0' "$T/cmp.out"; then
	pass normal-equals-json
else
	fail normal-equals-json "$(head -n 8 "$T/cmp.out" | tr '\n' ' ')"
fi

# The comparison can fail: one changed mean is a mismatch.
sed '0,/clat (nsec): min=[0-9]*, max=[0-9]*, avg=/s//&9/' "$T/run.txt" >"$T/changed.txt"
if ! "$CMP" "$T/changed.txt" "$T/run.json" >"$T/cmp2.out" 2>&1 &&
   grep -q 'clat mean: text' "$T/cmp2.out"; then
	pass changed-value-caught
else
	fail changed-value-caught "$(head -n 4 "$T/cmp2.out" | tr '\n' ' ')"
fi

# Cut at every line: each prefix reads or is refused with exit 2, no crash.
n=$(wc -l <"$T/run.txt")
bad=
for i in $(seq 1 "$n"); do
	head -n "$i" "$T/run.txt" >"$T/cut.txt"
	"$NVANALYZE" "$T/cut.txt" >/dev/null 2>"$T/cut.err"
	rc=$?
	if [ "$rc" -ne 0 ] && { [ "$rc" -ne 2 ] || ! grep -q "cut.txt" "$T/cut.err"; }; then
		bad="line $i: exit $rc: $(head -c 200 "$T/cut.err")"
		break
	fi
done
[ -z "$bad" ] && pass cut-every-line || fail cut-every-line "$bad"

# A garbled unit: the error names the file and the line.
sed '0,/clat (nsec)/s//clat (xsec)/' "$T/run.txt" >"$T/garbled.txt"
"$NVANALYZE" "$T/garbled.txt" >/dev/null 2>"$T/garbled.err"
rc=$?
line=$(grep -n 'clat (xsec)' "$T/garbled.txt" | head -n 1 | cut -d: -f1)
if [ "$rc" -eq 2 ] && grep -q "garbled.txt:$line: a latency unit" "$T/garbled.err"; then
	pass garbled-unit
else
	fail garbled-unit "exit $rc: $(head -c 300 "$T/garbled.err")"
fi

# A number garbled: named, not read as zero.
sed '0,/IOPS=[0-9]/s//IOPS=x/' "$T/run.txt" >"$T/garbled2.txt"
"$NVANALYZE" "$T/garbled2.txt" >/dev/null 2>"$T/garbled2.err"
rc=$?
if [ "$rc" -eq 2 ] && grep -q "garbled2.txt:[0-9]*: IOPS= is not a number" "$T/garbled2.err"; then
	pass garbled-number
else
	fail garbled-number "exit $rc: $(head -c 300 "$T/garbled2.err")"
fi
