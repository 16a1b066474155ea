#!/usr/bin/env bash
# nvanalyze watch --listen at the run's end (issue 56): the endpoint serves
# the run's final state --linger seconds more, so that Prometheus' scrape
# after the last footer still gets the last interval and the final counters;
# Ctrl-C ends the linger at once; --linger 0 ends with the watch; --linger
# without --listen is a usage error.  A finished 2 s traced nv_nop run is
# watched from its start (the traces complete: the watch reads to the end at
# once, then lingers).  Loops bounded in count, localhost only.
. "$(dirname "$0")/../lib.sh"

NV=$NVANALYZE
if ! "$NV" watch --help 2>&1 | grep -q -- '--listen'; then
	skip linger "nvanalyze has no 'watch --listen' (built without libmicrohttpd)"
	exit 0
fi

# ---- --linger without --listen, or not a number: exit 2, said ----
"$NV" watch --linger 3 "$T" >/dev/null 2>"$T/e1"
rc1=$?
"$NV" watch --listen 127.0.0.1:1 --linger soon "$T" >/dev/null 2>"$T/e2"
rc2=$?
if [ $rc1 = 2 ] && grep -q -- '--linger goes with --listen' "$T/e1" &&
	[ $rc2 = 2 ] && grep -q -- "--linger needs a number of seconds" "$T/e2"; then
	pass usage
else
	fail usage "rc $rc1/$rc2: $(cat "$T/e1" "$T/e2" | head -c 300)"
fi

need_engine linger || exit 0
nop_jobfile "$T/run.fio" 2 "a|iodepth=4|rate_iops=1000" "b|iodepth=2|rate_iops=300"
"$FIO" "$T/run.fio" --output-format=json --output="$T/fio.json" >"$T/fio.out" 2>&1 ||
	{ fail linger "fio: $(tail -n 3 "$T/fio.out" | tr '\n' ' ')"; exit 0; }
total=$(pytool lib/fiojson sum "$T/fio.json" 'jobs/*/read/total_ios' 'jobs/*/write/total_ios')
total=${total%.*}

# ios_sum PORT: the sum of nvengine_ios_total{op!="all"} served, or nothing.
ios_sum() {
	curl -s --max-time 10 "http://127.0.0.1:$1/metrics" 2>/dev/null |
		awk '/^nvengine_ios_total\{/ && !/op="all"/ { s += $NF; n++ }
			END { if (n) printf "%d\n", s }'
}

# hist_count PORT: the sum of the histogram's nvengine_latency_seconds_count
# {op!="all"} served (its buckets summed), or nothing.
hist_count() {
	curl -s --max-time 10 "http://127.0.0.1:$1/metrics" 2>/dev/null |
		awk '/^nvengine_latency_seconds_count\{/ && !/op="all"/ { s += $NF; n++ }
			END { if (n) printf "%d\n", s }'
}

# gone PID TRIES: 0 once PID has exited (reaped), within TRIES x 0.1 s.
gone() {
	local i=0
	while [ $i -lt "$2" ]; do
		kill -0 "$1" 2>/dev/null || return 0
		sleep 0.1
		i=$((i + 1))
	done
	return 1
}

# ---- the run ended: the final state still served, Ctrl-C ends it ----
port=$(pytool free_port 127.0.0.1)
"$NV" watch --format jsonl --listen "127.0.0.1:$port" --linger 600 "$T/tr" \
	>"$T/w1.jsonl" 2>"$T/w1.err" &
wpid=$!
i=0
while [ $i -lt 300 ] && ! grep -q 'served 600 s more' "$T/w1.err"; do
	kill -0 "$wpid" 2>/dev/null || break
	sleep 0.2
	i=$((i + 1))
done
got=$(ios_sum "$port")
if ! grep -q 'served 600 s more' "$T/w1.err"; then
	fail linger "the watch did not say it lingers: $(head -c 300 "$T/w1.err")"
elif [ "$got" != "$total" ]; then
	fail linger "after the run's end /metrics says ${got:-nothing}, fio counted $total"
else
	pass "linger: after the last footer /metrics still serves $got IOs = fio's count"
fi
got=$(hist_count "$port")
if [ "$got" = "$total" ]; then
	pass "linger_histogram: the latency histogram's buckets hold $got IOs = fio's count"
else
	fail linger_histogram "the histogram holds ${got:-nothing} IOs, fio counted $total"
fi
kill -INT "$wpid" 2>/dev/null
if gone "$wpid" 300; then	# 30 s of a 600 s linger
	wait "$wpid"
	rc=$?
	if [ $rc = 0 ] && [ -z "$(ios_sum "$port")" ]; then
		pass "ctrl_c: Ctrl-C ends the linger at once (exit 0), the port closed"
	else
		fail ctrl_c "exit $rc, or the port still answers after the end"
	fi
else
	fail ctrl_c "the watch still runs 30 s after Ctrl-C during its 600 s linger"
	kill -KILL "$wpid" 2>/dev/null
fi

# ---- --linger 0: the endpoint ends with the watch ----
port=$(pytool free_port 127.0.0.1)
"$NV" watch --format jsonl --listen "127.0.0.1:$port" --linger 0 "$T/tr" \
	>"$T/w2.jsonl" 2>"$T/w2.err" &
wpid=$!
if gone "$wpid" 600; then
	wait "$wpid"
	rc=$?
	if [ $rc = 0 ] && ! grep -q 'more for the last scrape' "$T/w2.err"; then
		pass "linger_0: --linger 0 ends with the last footer (exit 0)"
	else
		fail linger_0 "exit $rc: $(head -c 300 "$T/w2.err")"
	fi
else
	fail linger_0 "the watch with --linger 0 still runs after 60 s"
	kill -KILL "$wpid" 2>/dev/null
fi
