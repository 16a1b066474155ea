#!/usr/bin/env bash
# The change of repeated runs (analyze/stats/repeats.c, docs/analysis.md)
# against an independent computation (tests/py/ratio_interval.py: its own t
# quantile, its own reading of the fio JSON files):
#  - every row of --format text of the stored repeats (tests/data) and of
#    repeats made here with fio's null engine (a side whose thinktime goes
#    from 0 to 100 us: IOPS spread over three orders of magnitude; sides of
#    3 and of 5 runs): change, both bounds to the printed 0.1%, no bound at
#    or below -100%, the verdict read from the interval, n per side;
#  - --aggregate mean, median, best: the change compares those, named in the
#    legend; a bad value is refused;
#  - 2 runs on a side: no interval, the reason in the cell; fewer than 5: a
#    warning, none with 5 and 5.
source "$(dirname "$0")/../lib.sh"
REF=$TOP/tests/py/ratio_interval.py
need_nvanalyze || exit 0
out=$(python3 "$REF" selftest 2>&1) && pass t-quantile-reference ||
	fail t-quantile-reference "$out"

# ref NAME [--aggregate HOW] SIDE_A SIDE_B: nvanalyze -f text, then the reference check.
ref() {
	local name=$1 agg=()
	shift
	[ "$1" != --aggregate ] || { agg=(--aggregate "$2"); shift 2; }
	if ! "$NVANALYZE" -f text "${agg[@]}" "$1" "$2" >"$T/$name.txt" 2>"$T/$name.err"; then
		fail "$name" "nvanalyze: $(head -n 2 "$T/$name.err")"
		return
	fi
	out=$(python3 "$REF" check "${agg[@]}" "$T/$name.txt" "$1" "$2" 2>&1) &&
		pass "$name: ${out##*$'\n'}" ||
		fail "$name" "$(echo "$out" | tail -n 4 | tr '\n' ' ')"
}

D=$TOP/tests/data/fio-json
U=$D/uring-run1.json,$D/uring-run2.json,$D/uring-run3.json
P=$D/psync-run1.json,$D/psync-run2.json,$D/psync-run3.json
ref stored-mean "$U" "$P"
ref stored-median --aggregate median "$U" "$P"
ref stored-best --aggregate best "$U" "$P"
ref stored-two-runs "$D/uring-run1.json,$D/uring-run2.json" "$P"
grep -q 'n=2+3, no interval: < 3 runs' "$T/stored-two-runs.txt" && pass two-runs-reason ||
	fail two-runs-reason "$(grep IOPS "$T/stored-two-runs.txt")"
grep -q "Repeated runs: each side's best (the highest IOPS and MB/s, the lowest latency)" \
	"$T/stored-best.txt" && pass aggregate-named ||
		fail aggregate-named "$(sed -n 6p "$T/stored-best.txt")"
out=$("$NVANALYZE" --aggregate average "$U" "$P" 2>&1)
[ $? -eq 2 ] && grep -q "aggregate 'average': use mean, median, best, min or max" <<<"$out" &&
	pass aggregate-bad || fail aggregate-bad "$out"

if ! command -v "$FIO" >/dev/null; then
	skip fio-repeats "no fio"
	exit 0
fi
# nullrun FILE THINKTIME_US: a random read and a sequential write job on fio's null engine.
nullrun() {
	"$FIO" --ioengine=null --size=64M --bs=4k --number_ios=2000 --thinktime="$2" \
		--name=rr --rw=randread --name=wr --rw=write \
		--output-format=json --output="$1" >/dev/null 2>"$1.err" ||
			fail "fio $1" "$(tail -n 2 "$1.err")"
}
list() { local IFS=,; echo "$*"; }
a=() b=() c=() d=()
for t in 0 20 100; do nullrun "$T/a$t.json" $t; a+=("$T/a$t.json"); done
for i in 1 2 3; do nullrun "$T/b$i.json" 10; b+=("$T/b$i.json"); done
for i in 1 2 3 4 5; do
	nullrun "$T/c$i.json" 2
	nullrun "$T/d$i.json" 10
	c+=("$T/c$i.json")
	d+=("$T/d$i.json")
done
ref fio-wide-spread "$(list "${a[@]}")" "$(list "${b[@]}")"
ref fio-five-runs "$(list "${c[@]}")" "$(list "${d[@]}")"
ref fio-five-best --aggregate best "$(list "${c[@]}")" "$(list "${d[@]}")"
grep -q '^Warning: fewer than 5 runs on a side (a: 3, b: 3)' "$T/fio-wide-spread.txt" &&
	! grep -q '^Warning' "$T/fio-five-runs.txt" && pass few-runs-warning ||
	fail few-runs-warning "$(grep -h '^Warning' "$T"/fio-*.txt | head -n 2)"
# The wide side really is wide, and its lowest bound still above -100%.
lo=$("$NVANALYZE" -f json "$(list "${a[@]}")" "$(list "${b[@]}")" 2>/dev/null |
	pytool report_json ci-low 2>&1)
awk -v x="$lo" 'BEGIN { exit !(x ~ /^-?[0-9.e+-]+$/ && x > -100 && x < -90) }' &&
	pass wide-spread-above-minus-100 || fail wide-spread-above-minus-100 "lowest bound '$lo'"
rm -rf "$T"
