#!/bin/bash
# fio's latency buckets (issue 59 items 1 and 2, analyze/input/fioladder.h):
# every fio reader fills fio's one ladder (a printed bucket's lower edge is
# the rung below it, not the bucket printed before it), terse output's
# lat_2us ... lat_>=2000ms fields are read, and a comparison lines runs'
# buckets up by edge, whatever the order of the runs.  The oracle is fio's
# JSON of the same run: normal and terse readings equal it bucket for bucket
# within the printed 0.01% (gen_textcmp), for a committed run with gaps in
# its ladder (tests/fixtures/fio-buckets) and for three runs of the real fio
# made here (randrw with rate limits, a write job with fsync, numjobs=2
# without group_reporting).
. "$(dirname "$0")/../lib.sh"

cd "$TOP" || exit 1
CMP=${UNIT_DIR:-$TOP/build/tests/unit}/gen_textcmp
[ -x "$CMP" ] || { fail setup "no $CMP (run make unit)"; exit 0; }
S=../shared/fixtures/study-outputs
F=tests/fixtures/fio-buckets

# Item 1: the I8g/I4g study's texts, both orders.  i8g prints "100=0.01%,
# 250=68.81%", i4g "250=4.39%, 500=7.08%": [100 us, 250 us) is 68.81%
# against 4.39%, and [50 us, 100 us) is i8g's 0.01%.
for order in "i8g i4g" "i4g i8g"; do
	set -- $order
	"$NVANALYZE" "$S/$1-randread-128k.txt" "$S/$2-randread-128k.txt" >"$T/$1$2.md" 2>&1
	"$NVANALYZE" --format json "$S/$1-randread-128k.txt" "$S/$2-randread-128k.txt" \
		>"$T/$1$2.json" 2>/dev/null
	pytool fio_buckets_check rows "$T/$1$2.json" | sed 's/-randread-128k//' |
		sort >"$T/$1$2.rows"
	if [ "$1" = i8g ]; then a=68.81% b=4.39%; else a=4.39% b=68.81%; fi
	if grep -Eq "^\| \[100 us, 250 us\) +\| +$a +\| +$b \|" "$T/$1$2.md" &&
	   grep -Eq '^\| \[50.0 us, 100 us\) ' "$T/$1$2.md" &&
	   grep -q '^i8g 100000 250000 68.81$' "$T/$1$2.rows" &&
	   grep -q '^i4g 100000 250000 4.39$' "$T/$1$2.rows" &&
	   grep -q '^i4g 250000 500000 7.08$' "$T/$1$2.rows" &&
	   grep -q '^i4g 500000 750000 88.50$' "$T/$1$2.rows" &&
	   grep -q '^i8g 50000 100000 0.01$' "$T/$1$2.rows" &&
	   grep -q '^i4g 1e+06 2e+06 0.01$' "$T/$1$2.rows"; then
		pass "study-buckets-by-edge-$1-$2"
	else
		fail "study-buckets-by-edge-$1-$2" \
			"$(grep -A 9 'latency buckets' "$T/$1$2.md" | tr '\n' ' ')"
	fi
done
if cmp -s "$T/i8gi4g.rows" "$T/i4gi8g.rows"; then
	pass study-buckets-order-free
else
	fail study-buckets-order-free "$(diff "$T/i8gi4g.rows" "$T/i4gi8g.rows" | head -n 4)"
fi

# Items 1 and 2 on one fio run with gaps in its ladder (README.md there):
# the normal and terse readings equal the JSON's bucket for bucket.
fio_split "$F/gaps.out" "$T/gaps"
if grep -q 'lat (usec).*50=4.69%, 250=4.69%' "$T/gaps.txt"; then	# [50, 100 us) empty
	textcmp_eq gaps-normal-buckets-equal-json "$T/gaps.txt" "$T/gaps.json"
	textcmp_eq gaps-terse-buckets-equal-json "$T/gaps.terse" "$T/gaps.json"
else
	fail gaps-fixture "no gap in $F/gaps.out's ladder"
fi
# ... in a comparison too: each reading beside the JSON's, the same rows.
for fmt in txt terse; do
	"$NVANALYZE" --format json "$T/gaps.$fmt" "$T/gaps.json" >"$T/g.$fmt.json" 2>/dev/null
	# terse's first bucket holds fio's 11 first ones, each rounded up alone
	tol=0.006; [ "$fmt" = terse ] && tol=0.11
	if pytool fio_buckets_check same "$T/g.$fmt.json" $tol >"$T/g.$fmt.chk" 2>&1; then
		pass "gaps-$fmt-beside-json-same-rows"
	else
		fail "gaps-$fmt-beside-json-same-rows" "$(cat "$T/g.$fmt.chk")"
	fi
done
# Item 2: terse buckets read (they were dropped: no fio_latency_buckets).
"$NVANALYZE" --format json "$T/gaps.terse" >"$T/terse.json" 2>/dev/null
pytool fio_buckets_check rows "$T/terse.json" >"$T/terse.rows"
if grep -q '^gaps 2000 4000 69.92$' "$T/terse.rows" &&
   grep -q '^gaps 50000 100000 0.00$' "$T/terse.rows" &&
   grep -q '^gaps 5e+07 1e+08 3.52$' "$T/terse.rows" &&
   [ "$(wc -l <"$T/terse.rows")" = 22 ]; then
	pass terse-buckets-read
else
	fail terse-buckets-read "$(tr '\n' ' ' <"$T/terse.rows" | head -c 300)"
fi
# ... and the comparison can fail: one changed share is caught.
sed 's/250=4.69%/250=5.69%/' "$T/gaps.txt" >"$T/gaps2.txt"
awk -F';' 'BEGIN { OFS=";" } { $(NF - 25) = "9.99%"; print }' "$T/gaps.terse" >"$T/gaps2.terse"
if ! "$CMP" "$T/gaps2.txt" "$T/gaps.json" >"$T/g2.cmp" 2>&1 &&
   grep -q 'gaps bucket \[100000, 250000) ns: text 5.69%' "$T/g2.cmp" &&
   ! "$CMP" "$T/gaps2.terse" "$T/gaps.json" >"$T/g3.cmp" 2>&1 &&
   grep -q 'gaps bucket .* text 9.99%' "$T/g3.cmp"; then
	pass changed-bucket-caught
else
	fail changed-bucket-caught "$(cat "$T/g2.cmp" "$T/g3.cmp" | tr '\n' ' ' | head -c 300)"
fi
# A bucket edge off fio's ladder is an error naming the line.
sed 's/250=4.69%/300=4.69%/' "$T/gaps.txt" >"$T/gaps3.txt"
"$NVANALYZE" "$T/gaps3.txt" >/dev/null 2>"$T/g3.err"
rc=$?
line=$(grep -n '300=4.69%' "$T/gaps3.txt" | cut -d: -f1)
if [ "$rc" -eq 2 ] && grep -q "gaps3.txt:$line: a latency bucket edge that is not on fio's" \
	"$T/g3.err"; then
	pass bucket-edge-off-ladder
else
	fail bucket-edge-off-ladder "exit $rc: $(head -c 300 "$T/g3.err")"
fi

# The acceptance's three shapes, made by the real fio here on files in $T.
command -v "$FIO" >/dev/null || { skip fio-shapes "no fio"; exit 0; }
shape() {	# NAME FIO-ARGS...: one run, normal,terse,json, split
	local n=$1
	shift
	(cd "$T" && "$FIO" --name="$n" --filename="$T/$n.dat" --output-format=normal,terse,json \
		--output="$n.out" "$@" >"$T/fio.log" 2>&1) || return 1
	rm -f "$T/$n.dat"
	fio_split "$T/$n.out" "$T/$n"
}
if shape rrate --ioengine=psync --rw=randrw --bs=4k --size=4m --rate_iops=1500,700 \
	--runtime=1500ms --time_based; then
	textcmp_eq randrw-rate-normal-buckets-equal-json "$T/rrate.txt" "$T/rrate.json"
	textcmp_eq randrw-rate-terse-buckets-equal-json "$T/rrate.terse" "$T/rrate.json"
else
	fail randrw-rate "fio: $(tail -n 2 "$T/fio.log" | tr '\n' ' ')"
fi
if shape wsync --ioengine=sync --rw=write --bssplit=4k/70:64k/20:1m/10 --size=16m --fsync=8; then
	textcmp_eq write-fsync-normal-buckets-equal-json "$T/wsync.txt" "$T/wsync.json"
	textcmp_eq write-fsync-terse-buckets-equal-json "$T/wsync.terse" "$T/wsync.json"
else
	fail write-fsync "fio: $(tail -n 2 "$T/fio.log" | tr '\n' ' ')"
fi
if shape two --ioengine=psync --rw=randread --bs=4k --size=4m --numjobs=2; then
	if [ "$(grep -c ': (groupid=' "$T/two.txt")" = 2 ] && [ "$(wc -l <"$T/two.terse")" = 2 ]
	then
		textcmp_eq numjobs2-normal-buckets-equal-json "$T/two.txt" "$T/two.json"
		textcmp_eq numjobs2-terse-buckets-equal-json "$T/two.terse" "$T/two.json"
	else
		fail numjobs2 "not two job entries"
	fi
else
	fail numjobs2 "fio: $(tail -n 2 "$T/fio.log" | tr '\n' ' ')"
fi
