#!/usr/bin/env bash
# The watch's HTTP output (issue 56) served by the stand-in watcher
# gen_live (the real hooks, synthetic intervals), localhost only:
#  - exposition: /metrics passes `promtool check metrics` (Debian's
#    prometheus package) but for its one deliberate lint, the quantile label
#    on the interval gauge (docs/prometheus.md), and parses strictly
#    (tests/py/lib/promtext.py);
#  - port_in_use: a second server on the same port exits with a clear error
#    before it serves anything;
#  - load: 20 slow clients holding connections, 200 scrapers at once and a
#    flood of 2000 bad requests (tests/py/live_load.py): every scrape
#    answered, every bad request refused, the intervals keep coming, the
#    memory stays under the stated bound;
#  - sigint: Ctrl-C closes the socket (nobody listens after);
#  - hooks_never_wait: no hook call of the whole run waited on a client.
source "$(dirname "$0")/../lib.sh"
need_unit_helper gen_live || exit 0

# start_gen PORT ARGS...: gen_live in the background (GPID), ready when
# this returns 0.
start_gen() {
	local port=$1 out=$T/gen.$1
	shift
	timeout -k 60 300 "$GEN" --listen "127.0.0.1:$port" "$@" >"$out.out" 2>"$out.err" &
	GPID=$!
	wait_line "$GPID" "$out.out" '^listening'
}

port=$(pytool free_port 127.0.0.1)
if ! start_gen "$port" --job plain --job $'q"uote\\back\nline' --intervals 3000 \
	--period-ms 200; then
	fail setup "gen_live did not listen: $(head -c 300 "$T/gen.$port.err")"
	exit 0
fi
sleep 0.5

# ---- exposition ----
curl -sS --max-time 20 "http://127.0.0.1:$port/metrics" >"$T/metrics" 2>"$T/curl.err"
if ! command -v promtool >/dev/null; then
	skip exposition "promtool not installed (make deps installs prometheus)"
else
	promtool check metrics <"$T/metrics" >"$T/promtool.out" 2>&1
	known='^nvengine_interval_latency_seconds non-summary metrics should not have'
	others=$(grep -v "$known \"quantile\" label\$" "$T/promtool.out")
	if [ -n "$others" ]; then
		fail exposition "promtool: $(echo "$others" | head -n 3 | tr '\n' ' ')"
	elif ! why=$("$PYTHON" -c 'import sys; sys.path.insert(0, sys.argv[1])
from lib import promtext
s, t = promtext.parse(open(sys.argv[2]).read())
want = {"nvengine_ios_total": "counter", "nvengine_latency_seconds": "histogram",
        "nvengine_interval_latency_seconds": "gauge"}
bad = [f for f in want if t.get(f) != want[f]]
jobs = {l["fio_job"] for n, l, v, ts in s if n == "nvengine_ios_total"}
assert not bad, "types: %s" % bad
assert jobs == {"plain", "q\"uote\\back\nline"}, jobs
assert all(ts for n, l, v, ts in s if n == "nvengine_interval_latency_seconds")
print(len(s))' "$TOP/tests/py" "$T/metrics" 2>&1); then
		fail exposition "$(echo "$why" | tail -n 1)"
	else
		pass "exposition: promtool and a strict parse, $why samples"
	fi
fi

# ---- a port in use: a clear error before anything ----
"$GEN" --listen "127.0.0.1:$port" >"$T/second.out" 2>"$T/second.err"
rc=$?
if [ $rc = 2 ] && grep -q "cannot listen on port $port: the port is in use" "$T/second.err" &&
	! grep -q listening "$T/second.out"; then
	pass port_in_use
else
	fail port_in_use "exit $rc: $(head -c 300 "$T/second.err")"
fi

# ---- load and security ----
if ! res=$(timeout 180 "$PYTHON" "$TOP/tests/py/live_load.py" "$port" "$GPID" \
	2>"$T/load.err"); then
	fail load "live_load.py failed: $(tail -n 3 "$T/load.err" | tr '\n' ' ')"
else
	why=$("$PYTHON" -c 'import json, sys
r = json.loads(sys.argv[1])
bad = []
if r["scrapes_ok"] != 600: bad.append("%d of 600 scrapes answered" % r["scrapes_ok"])
if r["bad_other"]: bad.append("%d bad requests not refused" % r["bad_other"])
if r["seq_after"] <= r["seq_before"]: bad.append("no interval during the load")
if r["hwm_growth_kib"] > 64 * 1024: bad.append("memory grew %d KiB" % r["hwm_growth_kib"])
print("; ".join(bad) or "ok")' "$res")
	if [ "$why" = ok ]; then
		pass "load: $res"
	else
		fail load "$why: $res"
	fi
fi

# ---- Ctrl-C closes the socket ----
kill -INT "$GPID"
wait "$GPID"
hook=$(awk '/^hook_max_ns/ { print $2 }' "$T/gen.$port.out")
if ! grep -q '^closed' "$T/gen.$port.out"; then
	fail sigint "gen_live did not close: $(head -c 300 "$T/gen.$port.err")"
elif curl -s --max-time 5 "http://127.0.0.1:$port/metrics" >/dev/null 2>&1; then
	fail sigint "the port still answers after Ctrl-C"
else
	pass "sigint: the socket closed"
fi
# The slow clients held their connections through the whole load: a hook
# that waited on a client would have waited for its 10 s idle timeout (the
# bound is that, not a speed: a busy machine's hooks take microseconds).
if [ -z "$hook" ] || [ "$hook" -gt 5000000000 ]; then
	fail hooks_never_wait "the longest hook call took ${hook:-?} ns"
else
	pass "hooks_never_wait: the longest hook call during the load ${hook} ns"
fi
