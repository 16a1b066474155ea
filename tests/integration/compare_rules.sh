# The comparison's rules (issue 60, items 1-7; docs/analysis.md), each on
# fio JSON of tests/data with the numbers it is about set by hand
# (tests/py/fio_set.py): a claim on a level no run reports, the cost of
# repeats, the claim metrics' latency kinds, the one about-equal rule of
# every output, interval bounds near -100%, labels that follow the printed
# number, report.html's colours of repeat verdicts.  Each test is named
# after its item (i60-N-...).
. "$(dirname "$0")/../lib.sh"
need_nvanalyze || exit 0

D=$TOP/tests/data/fio-json
U1=$D/uring-run1.json P1=$D/psync-run1.json

# set OUT PATH=VALUE...: uring-run1.json with values set (fio_set.py)
set_vals() {
	local out=$1; shift
	pytool fio_set "$U1" "$T/$out" "$@" || fail "setup-$out" "fio_set.py failed"
}
# rd FILE.json IOPS [BW_BYTES]: randread's read IOPS (and bandwidth) set
rd() {
	local a=("jobs/jobname=randread/read/iops=$2")
	[ -z "${3:-}" ] || a+=("jobs/jobname=randread/read/bw_bytes=$3")
	set_vals "$1" "${a[@]}"
}
jget() {	# jget FILE PATH: a value of nvanalyze's JSON (json_get.py's dots)
	pytool json_get "$@"
}
# rc_is NAME WANT CMD...: CMD's exit status is WANT (stderr kept in $T/NAME.err)
rc_is() {
	local name=$1 want=$2 rc; shift 2
	"$@" >"$T/$name.out" 2>"$T/$name.err"
	rc=$?
	if [ "$rc" -eq "$want" ]; then
		pass "$name"
	else
		fail "$name" "exit $rc, want $want: $(head -c 300 "$T/$name.err")"
	fi
}

# ---- 1: a claim on a percentile no run reports is an error (exit 2) -------
# fio's default percentile_list has no p25 and no p99.999: nothing to judge.
rc_is i60-1-change-claim-level-no-run 2 "$NVANALYZE" --claim 'p25:-10%' "$U1" "$P1"
grep -q "no run reports p25" "$T/i60-1-change-claim-level-no-run.err" ||
	fail i60-1-change-claim-message "$(cat "$T/i60-1-change-claim-level-no-run.err")"
rc_is i60-1-change-claim-p99.999-no-run 2 "$NVANALYZE" --claim 'p99.999:-10%' "$U1" "$P1"
rc_is i60-1-abs-claim-level-no-run 2 "$NVANALYZE" --claim 'p25<=1s' "$U1" "$P1"
# a level fio reports (99.5 is in its default list) is judged as before
rc_is i60-1-claim-level-reported 0 "$NVANALYZE" -j randread --claim 'p99.5<=1000s' "$U1" "$P1"

# ---- 2: the cost of repeats is the price over the IOPS shown -------------
# 100k/300k/200k against 190k/200k/210k IOPS, $1/h each: 200,000 both, so
# $0.005 per 1k IOPS both, +0.0%; the price once per run (n=3)
rd c1.json 100000; rd c2.json 300000; rd c3.json 200000
rd c4.json 190000; rd c5.json 200000; rd c6.json 210000
"$NVANALYZE" -f json -j randread -d read -l a -l b --price a=1 --price b=1 \
	"$T/c1.json,$T/c2.json,$T/c3.json" "$T/c4.json,$T/c5.json,$T/c6.json" \
	>"$T/cost.json" 2>"$T/cost.err"
R=results.0
got="$(jget "$T/cost.json" $R.sides.a.cost_usd_per_hour_per_1k_iops) \
$(jget "$T/cost.json" $R.sides.b.cost_usd_per_hour_per_1k_iops) \
$(jget "$T/cost.json" $R.changes.a.cost_usd_per_hour_per_1k_iops_change_pct)"
if $PYTHON -c 'import sys; a, b, c = map(float, sys.argv[1:])
sys.exit(not (abs(a - 0.005) < 1e-12 and abs(b - 0.005) < 1e-12 and abs(c) < 1e-9))' \
	$got; then
	pass i60-2-cost-is-price-over-iops-shown
else
	fail i60-2-cost-is-price-over-iops-shown "cost a, b, change: $got (want 0.005 0.005 0)"
fi
got="$(jget "$T/cost.json" $R.sides.a.price_usd_per_hour_n) \
$(jget "$T/cost.json" $R.sides.a.cost_usd_per_hour_per_1k_iops_n)"
[ "$got" = "3 3" ] && pass i60-2-price-n-runs || fail i60-2-price-n-runs "price, cost n: $got"
"$NVANALYZE" -f text -j randread -d read -l a -l b --price a=1 --price b=1 \
	"$T/c1.json,$T/c2.json,$T/c3.json" "$T/c4.json,$T/c5.json,$T/c6.json" \
	>"$T/cost.txt" 2>&1
if grep -q '^price .*(n=1)' "$T/cost.txt"; then
	fail i60-2-price-cell-text "$(grep '^price' "$T/cost.txt")"
else
	pass i60-2-price-cell-text
fi

# ---- 3: claim metrics name their latency kind as the JSON keys do --------
# uring-run1 randread: clat mean 43,717.858398 ns, lat mean 62,319.106445 ns
claim_measured() {	# claim_measured ARGS...: the claims' measured values (CSV)
	"$NVANALYZE" -f csv -j randread -d read "$@" "$U1" 2>"$T/cm.err" |
		awk -F, '/^job,direction,run,baseline,claim/ { on = 1; next }
			 on && NF { print $6 }'
}
got=$(claim_measured --lat lat --claim 'lat_mean<=1s')
[ "$got" = 62319.106445 ] && pass i60-3-lat-mean-is-total ||
	fail i60-3-lat-mean-is-total "measured '$got', want 62319.106445 (fio's lat_ns mean)"
got=$(claim_measured --claim 'clat_mean<=1s')
[ "$got" = 43717.858398 ] && pass i60-3-clat-mean-accepted ||
	fail i60-3-clat-mean-accepted "measured '$got': $(head -c 200 "$T/cm.err")"
got=$(claim_measured --claim 'clat_p99<=1s' --claim 'mean<=1s' | tr '\n' ' ')
[ "$got" = "84480 43717.858398 " ] && pass i60-3-clat-pct-and-bare-mean ||
	fail i60-3-clat-pct-and-bare-mean "measured '$got'"
# the tables show clat: a claim on lat_mean cannot be judged there (exit 2)
rc_is i60-3-lat-mean-under-clat 2 "$NVANALYZE" -j randread -d read --claim 'lat_mean<=1s' "$U1"
grep -q -- '--lat lat' "$T/i60-3-lat-mean-under-clat.err" ||
	fail i60-3-lat-mean-message "$(cat "$T/i60-3-lat-mean-under-clat.err")"

# --sla takes the claim grammar: the same names, the same refusal
pytool sweep_synth "$T/sweep.json" "q1/rw=randread;bs=4k;iodepth=1/1000/100" \
	"q2/rw=randread;bs=4k;iodepth=2/2000/200" || fail setup-sweep "sweep_synth.py failed"
rc_is i60-3-sla-clat-p99 0 "$NVANALYZE" --sla 'clat_p99<=1ms' "$T/sweep.json"
rc_is i60-3-sla-lat-p99-under-clat 2 "$NVANALYZE" --sla 'lat_p99<=1ms' "$T/sweep.json"

# ---- 4: one about-equal rule for md, text, JSON, figures and claims ------
rd ae-a.json 102460; rd ae-b.json 100000	# +2.46%
rd ae-c.json 97600	# -2.4% against ae-b
"$NVANALYZE" -j randread -d read --figures none -o "$T/ae" "$T/ae-a.json" "$T/ae-b.json" \
	>"$T/ae.md" 2>"$T/ae.err"
"$NVANALYZE" -f text -j randread -d read "$T/ae-a.json" "$T/ae-b.json" >"$T/ae.txt" 2>&1
"$NVANALYZE" -f json -j randread -d read "$T/ae-a.json" "$T/ae-b.json" >"$T/ae.json" 2>&1
why=
grep -q '^| IOPS .*+2.5% (about equal)' "$T/ae.md" || why="$why md;"
grep -q '^IOPS .*+2.5% (about equal)' "$T/ae.txt" || why="$why text;"
v=$(jget "$T/ae.json" results.0.changes.ae-a.iops_verdict)
[ "$v" = "about equal" ] || why="$why json verdict '$v';"
grep -q '+2.5% (about equal)".*textcolor rgb "#404040"' "$T/ae/bars_randread_read.gp" ||
	why="$why figure colour: $(grep -o '+2.5%.*textcolor rgb "#[0-9a-f]*"' \
		"$T/ae/bars_randread_read.gp" | head -n 1);"
[ -z "$why" ] && pass i60-4-about-equal-every-output || fail i60-4-about-equal-every-output "$why"
rc_is i60-4-claim-not-worse-about-equal 0 "$NVANALYZE" -j randread -d read \
	--claim 'iops:0%' "$T/ae-c.json" "$T/ae-b.json"
rc_is i60-4-claim-not-worse-same-below-0 1 "$NVANALYZE" -j randread -d read \
	--same-below 0 --claim 'iops:0%' "$T/ae-c.json" "$T/ae-b.json"

# ---- 6: the label follows the printed number -----------------------------
# 412.264 against 433.957 MB/s is -4.9988%, printed -5.0%: worse, not about
# equal (the threshold is 5%); --same-below 0: a change printed +0.0% is none
rd r1.json 100000 412264000; rd r2.json 100000 433957000
"$NVANALYZE" -f text -j randread -d read "$T/r1.json" "$T/r2.json" >"$T/r.txt" 2>&1
got=$(awk '/^bandwidth/ { sub(/.*MB\/s +/, ""); print; exit }' "$T/r.txt")
[ "$got" = "-5.0% (worse)" ] && pass i60-6-label-follows-printed ||
	fail i60-6-label-follows-printed "'$got', want '-5.0% (worse)'"
rd z1.json 100020; rd z2.json 100000
"$NVANALYZE" -f text --same-below 0 -j randread -d read "$T/z1.json" "$T/z2.json" \
	>"$T/z.txt" 2>&1
got=$(awk '/^IOPS/ { print $NF; exit }' "$T/z.txt")
[ "$got" = "+0.0%" ] && pass i60-6-same-below-0-zero ||
	fail i60-6-same-below-0-zero "IOPS change '$(grep '^IOPS' "$T/z.txt")'"
# the cost column: one fixed format, never an exponent ($6.02e-05 beside
# $0.000117): $0.00602/h at 100,000 IOPS is $0.0000602 per 1k IOPS
rd k1.json 100000; rd k2.json 51453
"$NVANALYZE" -f text -j randread -d read --price 1=0.00602 --price 2=0.00602 \
	"$T/k1.json" "$T/k2.json" >"$T/k.txt" 2>&1
got=$(grep '^cost per 1k IOPS' "$T/k.txt")
case $got in
*'$0.0000602'*'$0.000117'*) pass i60-6-cost-one-format;;
*) fail i60-6-cost-one-format "'$got'";;
esac

# ---- 5: interval bounds near -100% print in order ------------------------
# 2, 2.2, 2.4 against 10,000, 10,050, 9,950 IOPS: [-99.98%, -99.97%]
i=0
for v in 2 2.2 2.4 10000 10050 9950; do i=$((i + 1)); rd "n$i.json" "$v"; done
"$NVANALYZE" -f text -j randread -d read "$T/n1.json,$T/n2.json,$T/n3.json" \
	"$T/n4.json,$T/n5.json,$T/n6.json" >"$T/n.txt" 2>&1
got=$(grep -o '^IOPS .*\[.*\]' "$T/n.txt" | sed 's/.*\[//; s/\]//')
if $PYTHON -c 'import sys; lo, hi = (float(x.strip(" %")) for x in sys.argv[1].split(","));
sys.exit(not (-100 < lo <= hi))' "$got" 2>/dev/null; then
	pass "i60-5-bounds-in-order ($got)"
else
	fail i60-5-bounds-in-order "'$got'"
fi

# ---- 7: report.html colours the verdicts of repeats ----------------------
# "-100.0% (worse) [-99.98%, -99.97%] n=3+3" is a worse cell, as
# "-12.4% (worse)" of single runs is; "~ within noise" is neither
"$NVANALYZE" -j randread -d read --figures none -o "$T/html" "$T/n1.json,$T/n2.json,$T/n3.json" \
	"$T/n4.json,$T/n5.json,$T/n6.json" >/dev/null 2>&1
if grep -q '<td class="r worse">-100.0% (worse) \[.*\] n=3+3</td>' "$T/html/report.html" &&
   ! grep -q '<td class="r [a-z]*">[^<]*within noise' "$T/html/report.html"; then
	pass i60-7-html-repeat-verdicts
else
	fail i60-7-html-repeat-verdicts "$(grep -o '<td[^>]*>[^<]*n=3+3</td>' \
		"$T/html/report.html" | head -n 3 | tr '\n' ' ')"
fi
# one rule of byte units: kB/s is 10^3, KiB/s 2^10, KB/s (1024 to fio 2.x,
# 1000 to CrystalDiskMark) is refused; uring-run1 randread: 64,776,895 B/s
rc_is i60-7-claim-KB-refused 2 "$NVANALYZE" -j randread -d read --claim 'bw>=63000KB/s' "$U1"
grep -q "ambiguous" "$T/i60-7-claim-KB-refused.err" ||
	fail i60-7-claim-KB-message "$(cat "$T/i60-7-claim-KB-refused.err")"
rc_is i60-7-claim-kB-si 1 "$NVANALYZE" -j randread -d read --claim 'bw>=64777kB/s' "$U1"
rc_is i60-7-claim-KiB-binary 0 "$NVANALYZE" -j randread -d read --claim 'bw>=63258KiB/s' "$U1"
