#!/bin/bash
# Printed ranges of values read from fio's text outputs (docs/analysis.md,
# "within the printed precision"): fio truncates terse latencies and
# min=/max= ([v, v + 1 unit)) and rounds normal-output percentiles up
# ((v - 1 unit, v]), so two printed values are "about equal (within the
# printed precision)" only when those ranges meet.  Two real fio 3.33 runs
# (tests/data/fio-text/README.md), each --output-format=normal,terse,json
# in one file: the terse and normal readings' verdicts must not say "within
# the printed precision" where their printed ranges are apart, and a claim
# there is judged as on the JSON of the same runs.
. "$(dirname "$0")/../lib.sh"
need_nvanalyze || exit 0

D=$TOP/tests/data/fio-text
for s in a b; do
	f=$D/randrw-fsync-$s.out
	grep '^3;' "$f" >"$T/$s.terse"
	awk '/^\{/{j=1} j{print} /^\}/{j=0}' "$f" >"$T/$s.json"
	awk '/^\{/{j=1} !j && !/^3;/{print} /^\}/{j=0}' "$f" >"$T/$s.txt"
done

# randrw write p50: terse 6 against 4 us ([6, 7) and [4, 5)), JSON 6.30
# against 4.70 us: +34% worse, the claim "no change" is not met (exit 1).
for f in json terse txt; do
	"$NVANALYZE" -f text --claim 'randrw:p50:0%' -j randrw -d write \
		"$T/a.$f" "$T/b.$f" >"$T/p50-$f.out" 2>"$T/p50-$f.err"
	rc=$?
	if [ "$rc" -eq 1 ] && grep -q 'randrw:p50:0%.*(worse)  *not met' "$T/p50-$f.out"; then
		pass "p50-claim-$f-as-json"
	else
		fail "p50-claim-$f-as-json" "exit $rc, want 1: $(grep 'p50' "$T/p50-$f.out" |
			tr '\n' ' ')"
	fi
done
grep -q 'clat p50 .*6.00 us.*4.00 us.*+50.0% (worse)' "$T/p50-terse.out" &&
	pass terse-truncated-apart ||
	fail terse-truncated-apart "$(grep 'clat p50' "$T/p50-terse.out")"

# Equal printed values, or ranges that meet (terse min 2 and 2 us), stay
# about equal: the format cannot tell them apart.
"$NVANALYZE" -f text -j randrw -d write "$T/a.terse" "$T/b.terse" >"$T/min.out" 2>&1
grep -q 'clat min .*2.00 us.*2.00 us.*about equal (within the printed precision)' \
	"$T/min.out" && pass terse-equal-within || fail terse-equal-within \
	"$(grep 'clat min' "$T/min.out")"
