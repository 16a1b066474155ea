#!/bin/bash
# fio's text outputs under its unit and reporting options (issue 60 items
# 9-12), each against fio's own JSON of the same run (gen_textcmp: every
# value within its printed precision, buckets too): unified_rw_reporting=both
# (fio < 3.39 prints "mixed: IOPS=0, BW=0 (0)(0B/1001msec)"), unit_base=1
# (bits), kb_base=1000 (bw samples are KiB/s whatever the label), a
# fractional block size on the options line, and a terse+JSON file whose
# terse lines hold nothing to compare.  fio 2.x's cases: unit tests
# (test_fionormal, test_fioterse) and real fio 2.21 and 2.2.10 output in
# tests/fixtures/fio2 (fio2_real.sh).
. "$(dirname "$0")/../lib.sh"

cd "$TOP" || exit 1
CMP=${UNIT_DIR:-$TOP/build/tests/unit}/gen_textcmp
[ -x "$CMP" ] || { fail setup "no $CMP (run make unit)"; exit 0; }
command -v "$FIO" >/dev/null || { skip all "no fio"; exit 0; }

# run NAME FIO-ARGS...: one run's normal and JSON into NAME.txt, NAME.json.
run() {
	local n=$1
	shift
	(cd "$T" && "$FIO" --name="$n" --ioengine=null --output-format=normal,json \
		--output="$n.out" "$@" >"$T/fio.log" 2>&1) || return 1
	awk '/^\{/{j=1} j{print} /^\}/{j=0}' "$T/$n.out" >"$T/$n.json"
	awk '/^\{/{j=1} !j{print} /^\}/{j=0}' "$T/$n.out" >"$T/$n.txt"
}

# eq BASE WHAT: BASE.txt reads, and equals BASE.json (WHAT: a grep -E the
# text must match, what the case is about); the test is BASE-equals-json.
eq() {
	if "$CMP" "$T/$1.txt" "$T/$1.json" >"$T/$1.cmp" 2>&1 &&
	   grep -Eq 'compared [1-9][0-9]+ \(buckets [1-9][0-9]*\), mismatches 0' "$T/$1.cmp" &&
	   grep -Eq "$2" "$T/$1.txt"; then
		pass "$1-equals-json"
	else
		fail "$1-equals-json" "$(grep -c . "$T/$1.txt") lines: $(head -n 6 "$T/$1.cmp" |
			tr '\n' ' ')"
	fi
}

# Item 9: unified_rw_reporting=both; the mixed direction's IOs, bytes, IOPS
# and bandwidth are the read and write sums over its runtime (the JSON's).
if run unified-both --rw=randrw --bs=4k --size=16m --unified_rw_reporting=both; then
	eq unified-both 'mixed: IOPS=0, BW=0 \(0\)'
	"$NVANALYZE" --format csv "$T/unified-both.txt" >"$T/ub.csv" 2>"$T/ub.err"
	if grep -q '^unified-both,mixed,IOPS,IO/s,[1-9]' "$T/ub.csv" &&
	   grep -q '^unified-both,read,IOPS,' "$T/ub.csv"; then
		pass unified-both-mixed-row
	else
		fail unified-both-mixed-row "$(head -c 300 "$T/ub.err")"
	fi
else
	fail unified-both "fio: $(tail -n 2 "$T/fio.log" | tr '\n' ' ')"
fi

# Item 10: unit_base=1, "BW=1599Mibit/s (1677Mbit/s)"; item 11: kb_base=1000,
# "bw (   kB/s)" holding KiB/s, and its "MiB/s" once divided by 1000.
if run unit-base-bits --rw=randrw --bs=4k --size=64m --unit_base=1 --rate=200m \
	--runtime=1500ms --time_based; then
	eq unit-base-bits 'BW=[0-9.]+[kMG]ibit/s \([0-9.]+[kMG]bit/s\)'
else
	fail unit-base-bits "fio: $(tail -n 2 "$T/fio.log" | tr '\n' ' ')"
fi
# (kb_base first: fio applies it to the options after it)
if run kb-base-1000 --kb_base=1000 --rw=randrw --bs=4k --size=64m --rate=200m \
	--runtime=1500ms --time_based; then
	eq kb-base-1000 'bw \( *kB/s\): min='
else
	fail kb-base-1000 "fio: $(tail -n 2 "$T/fio.log" | tr '\n' ' ')"
fi
# ... and after bs= on the command line: fio's bs is then 4096 ("4096B" on
# the options line), and so is the JSON reading's (its options in order).
if run kb-base-after-bs --rw=randrw --bs=4k --kb_base=1000 --size=16m; then
	eq kb-base-after-bs 'bs=\(R\) 4096B-4096B'
else
	fail kb-base-after-bs "fio: $(tail -n 2 "$T/fio.log" | tr '\n' ' ')"
fi
if run kb-base-1000-mib --kb_base=1000 --unit_base=1 --rw=randrw --bs=4k --size=64m \
	--rate=2000m --runtime=1500ms --time_based; then
	eq kb-base-1000-mib 'bw \( *Mi(B|bit)/s\): min='
else
	fail kb-base-1000-mib "fio: $(tail -n 2 "$T/fio.log" | tr '\n' ' ')"
fi

# Item 12: a fractional block size on the options line, "bs=(R) 12.5KiB"
# (12800 bytes, not 12 KiB): the bs, and the exact IOPS and bytes from it.
if run frac-bs --rw=randrw --bs=12800 --size=16m; then
	eq frac-bs 'bs=\(R\) 12\.5KiB-12\.5KiB'
else
	fail frac-bs "fio: $(tail -n 2 "$T/fio.log" | tr '\n' ' ')"
fi

# Item 12: a terse+JSON file whose terse lines hold nothing to compare (the
# job failed before any IO: its buckets print "-nan%") says so, not "agrees
# (0 values)"; a trim job's terse v3 line (no trim fields) compares its
# buckets.
(cd "$T" && "$FIO" --name=failed --ioengine=psync --rw=read --size=1m --filename="$T/none" \
	--readonly --output-format=terse,json --output=failed.out >"$T/fio.log" 2>&1)
"$NVANALYZE" "$T/failed.out" >/dev/null 2>"$T/failed.err"
rc=$?
if [ "$rc" -eq 0 ] && grep -q '^3;fio-.*;failed;.*-nan%' "$T/failed.out" &&
   grep -q 'the terse output holds no value to compare with the JSON' "$T/failed.err" &&
   ! grep -q '(0 values' "$T/failed.err"; then
	pass terse-json-nothing-to-compare
else
	fail terse-json-nothing-to-compare "exit $rc: $(tr '\n' ' ' <"$T/failed.err")"
fi
if (cd "$T" && "$FIO" --name=trim --ioengine=null --rw=randtrim --size=8m \
	--output-format=terse,json --output=trim.out >"$T/fio.log" 2>&1) &&
   "$NVANALYZE" "$T/trim.out" >/dev/null 2>"$T/trim.err" &&
   grep -Eq 'the terse output agrees with the JSON \([1-9][0-9]* values' "$T/trim.err"; then
	pass terse-v3-trim-compares-buckets
else
	fail terse-v3-trim-compares-buckets "$(tr '\n' ' ' <"$T/trim.err")"
fi

# Item 12: fio 2.x's terse unified_rw_reporting=1 prints the mixed totals as
# read (and zero writes); its JSON says "mixed" (real fio 2.21 output:
# fio2_real.sh).  Here fio 3.33's own mixed fields laid out as 2.x does
# (version 3, read then write) beside that run's JSON; in the terse+JSON
# file the terse read is checked against the JSON's mixed (a changed IOPS
# field is caught).
if (cd "$T" && "$FIO" --name=u1 --ioengine=null --rw=randrw --bs=4k --size=16m \
	--unified_rw_reporting=1 --output-format=terse,json --output=u1.out >"$T/fio.log" 2>&1)
then
	to2x() {	# fio 3's one mixed direction as 2.x's read, then 2.x's zero write
		awk -F';' -v bump="$1" 'BEGIN { OFS = ";" } /^3;/ {
			$8 += bump; out = "3;fio-2.21;" $3 ";" $4 ";" $5
			for (i = 6; i <= 46; i++) out = out ";" $i
			w = "0;0;0;0;0;0;0.000000;0.000000;0;0;0.000000;0.000000"
			for (i = 18; i <= 37; i++) { split($i, a, "="); w = w ";" a[1] "=0" }
			out = out ";" w ";0;0;0.000000;0.000000;0;0;0.000000%;0.000000;0.000000"
			for (i = 47; i <= NF; i++) out = out ";" $i
			print out }' "$T/u1.out"
		awk '/^\{/{j=1} j{print} /^\}/{j=0}' "$T/u1.out"
	}
	to2x 0 >"$T/u2.out"
	to2x 1000 >"$T/u3.out"
	"$NVANALYZE" "$T/u2.out" >/dev/null 2>"$T/u2.err"
	"$NVANALYZE" "$T/u3.out" >/dev/null 2>"$T/u3.err"
	if grep -q '^3;fio-2.21;u1;' "$T/u2.out" &&
	   grep -Eq 'the terse output agrees with the JSON \([1-9][0-9]* values' "$T/u2.err" &&
	   grep -q 'the terse output disagrees with the JSON: u1 mixed iops' "$T/u3.err"; then
		pass terse-2x-unified-read-is-mixed
	else
		fail terse-2x-unified-read-is-mixed "$(cat "$T/u2.err" "$T/u3.err" | tr '\n' ' ')"
	fi
else
	fail terse-2x-unified-read-is-mixed "fio: $(tail -n 2 "$T/fio.log" | tr '\n' ' ')"
fi
