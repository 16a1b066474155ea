#!/usr/bin/env bash
# The watch's /metrics scraped by a real Prometheus (issue 56): Debian's
# prometheus on a free localhost port, a TSDB of its own, a 1 s scrape
# (tests/lib.sh prom_start), then its API read back (tests/py/
# live_prom_check.py): every interval it stored holds exactly the exact
# quantiles of that interval at the interval's end, query_range returns
# them, nvengine_ios_total the IOs served.
#  - fleet: two stand-in watchers (gen_live, hosts h1 and h2, one job named
#    with a quote, a backslash and a newline) listed in a file_sd target
#    list, each host's series under its own label;
#  - watch: the same for a real traced fio run watched by `nvanalyze watch
#    --listen` against the post-run series (traces[i].series of `nvanalyze
#    -f json`) and fio's IO count; skipped while nvanalyze has no watch
#    --listen (the watcher of issue 55 is merged separately).
source "$(dirname "$0")/../lib.sh"
need_unit_helper gen_live || exit 0
PROM_TEST=fleet
ports=()
for h in h1 h2; do
	ports+=("$(pytool free_port 127.0.0.1)")
done
printf '[{"targets": ["127.0.0.1:%s", "127.0.0.1:%s"], "labels": {"fleet": "test"}}]\n' \
	"${ports[@]}" >"$T/targets.json"
if prom_start --file-sd "$T/targets.json"; then
	i=0
	pids=()
	for h in h1 h2; do
		timeout -k 60 120 "$GEN" --listen "127.0.0.1:${ports[$i]}" --host "$h" \
			--job "j$h" --job $'q"uote\\back\nline' --intervals 12 --period-ms 1000 \
			--hold-ms 4000 \
			--log "$T/$h.log" >"$T/$h.out" 2>"$T/$h.err" &
		pids+=($!)
		i=$((i + 1))
	done
	for p in "${pids[@]}"; do
		wait "$p"
	done
	if ! grep -q '^closed' "$T/h1.out" || ! grep -q '^closed' "$T/h2.out"; then
		fail fleet "a stand-in watcher failed: $(head -c 300 "$T/h1.err" "$T/h2.err")"
	elif why=$(pytool live_prom_check "$PROM_URL" "$T/h1.log" "$T/h2.log"); then
		pass "fleet: 2 hosts x 2 jobs x 2 ops from file_sd: $why"
	else
		fail fleet "$why"
	fi
	prom_stop
fi

# ---- a real traced run watched with --listen ----
# A 20 s traced run of two jobs (nv_nop, randrw, rates changed midway by a
# thinktime pause) watched with --follow (it serves until Ctrl-C, so that
# the last intervals are scraped), then Ctrl-C; Prometheus' store against
# the post-run series and fio's IO count.
if ! "$NVANALYZE" watch --help 2>&1 | grep -q -- '--listen'; then
	skip watch "nvanalyze has no 'watch --listen' yet (issue 55's watcher; this test" \
		"runs once it is merged)"
	exit 0
fi
need_engine watch || exit 0
PROM_TEST=watch
port=$(pytool free_port 127.0.0.1)
prom_start "127.0.0.1:$port" || exit 0
nop_jobfile "$T/run.fio" 20 "a|iodepth=8|rate_iops=2000|thinktime=4s|thinktime_iotime=8s" \
	"b|iodepth=4|rate_iops=500"
"$NVANALYZE" watch --follow --format jsonl --listen "127.0.0.1:$port" "$T/tr" \
	>"$T/watch.jsonl" 2>"$T/watch.err" &
wpid=$!
"$FIO" "$T/run.fio" --output-format=json --output="$T/fio.json" >"$T/fio.out" 2>&1
rc=$?
sleep 4	# the last intervals closed and scraped
kill -INT "$wpid" 2>/dev/null
wait "$wpid"
if [ $rc -ne 0 ]; then
	fail watch "fio exited $rc: $(tail -n 3 "$T/fio.out" | tr '\n' ' ')"
	exit 0
fi
"$NVANALYZE" -f json "$T/fio.json" >"$T/post.json" 2>"$T/post.err" ||
	fail watch "post-run: $(head -c 300 "$T/post.err")"
if ! pytool live_series_log "$T/post.json" "$(hostname)" "$T/watch.jsonl" >"$T/post.log"; then
	fail watch "no post-run series to compare with"
elif why=$(pytool live_prom_check "$PROM_URL" "$T/post.log"); then
	total=$(pytool lib/fiojson sum "$T/fio.json" 'jobs/*/read/total_ios' \
		'jobs/*/write/total_ios')
	got=$(prom_query 'sum(max_over_time(nvengine_ios_total{op!="all"}[30m]))' |
		"$PYTHON" -c 'import json, sys
r = json.load(sys.stdin)["data"]["result"]
print(int(float(r[0]["value"][1])) if r else "none")')
	if [ "$got" = "${total%.*}" ]; then
		pass "watch: $why; nvengine_ios_total $got = fio's IO count"
	else
		fail watch "nvengine_ios_total $got, fio's IO count $total"
	fi
else
	fail watch "$why"
fi
prom_stop
