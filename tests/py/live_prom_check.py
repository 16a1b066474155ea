"""live_prom_check.py PROM_URL LOG... : what a real Prometheus stored from
the watch's /metrics against what was served.  Each LOG holds the closed
intervals as JSON lines (host, job, op, index, end_unix_ms, the quantiles
in ns, ios): gen_live's --log, or the post-run series of `nvanalyze -f
json` turned into the same lines.  Checks:
  - every sample Prometheus stored of nvengine_interval_latency_seconds
    (raw samples of the last 30 minutes) sits at the end of an interval of
    the log (its timestamp is end_unix_ms) and equals that interval's
    exact quantile (0.5, 0.99, 0.999, 1), bit for bit as a float64 of
    ns / 10^9; at least 3 intervals stored per host, job and op;
  - /api/v1/query_range of the p99 gauge, from the first stored interval's
    end to the last at the log's interval as step, returns at each step
    exactly the newest stored interval's p99 at or before it;
  - nvengine_ios_total's last value equals the log's IOs per host, job, op.
Prints "ok: N of M intervals stored, ..." or what differs (exit 1)."""
import json
import subprocess
import sys
import os

FIELD = {"0.5": "p50_ns", "0.99": "p99_ns", "0.999": "p99.9_ns", "1": "max_ns"}
HERE = os.path.dirname(os.path.abspath(__file__))


def api(*args):
    out = subprocess.run([sys.executable, os.path.join(HERE, "prom_api.py")] + list(args),
                         check=True, capture_output=True, text=True).stdout
    return json.loads(out)["data"]["result"]


def key(m):
    return (m.get("host"), m.get("fio_job"), m.get("op"))


def main():
    url, logs = sys.argv[1], sys.argv[2:]
    want, ios, ends = {}, {}, {}
    for path in logs:
        with open(path) as f:
            for r in (json.loads(x) for x in f if x.strip()):
                k = (r["host"], r["job"], r["op"])
                want[k + (r["end_unix_ms"],)] = r
                ios[k] = ios.get(k, 0) + r["ios"]
                ends.setdefault(k, []).append(r["end_unix_ms"])
    # each series' interval: the step of its query_range
    step_ms = {k: min((b - a for a, b in zip(sorted(v), sorted(v)[1:])), default=1000)
               for k, v in ends.items()}
    bad, stored = [], {}
    for s in api("query", url, "nvengine_interval_latency_seconds[30m]"):
        m = s["metric"]
        for ts, v in s["values"]:
            ms = round(float(ts) * 1000)
            r = want.get(key(m) + (ms,))
            if r is None:
                bad.append("a sample at %d of %s is at no interval's end" % (ms, key(m)))
                continue
            if float(v) != r[FIELD[m["quantile"]]] / 1e9:
                bad.append("%s %s q%s at interval %d: stored %s, exact %d ns" % (
                    key(m), ms, m["quantile"], r["index"], v, r[FIELD[m["quantile"]]]))
            if m["quantile"] == "0.99":
                stored.setdefault(key(m), {})[ms] = float(v)
    for k in ios:
        if len(stored.get(k, {})) < 3:
            bad.append("%s: %d intervals stored, want 3 or more" % (k, len(stored.get(k, {}))))
    nrange = 0
    for k, samples in stored.items():
        ts = sorted(samples)
        sel = 'nvengine_interval_latency_seconds{quantile="0.99",fio_job=%s,op=%s,host=%s}' % (
            json.dumps(k[1]), json.dumps(k[2]), json.dumps(k[0]))
        res = api("query_range", url, sel, "%.3f" % (ts[0] / 1e3), "%.3f" % (ts[-1] / 1e3),
                  "%.3f" % (step_ms[k] / 1e3))
        for r in res:
            for t, v in r["values"]:
                at = round(float(t) * 1000)
                prev = max(x for x in ts if x <= at)
                nrange += 1
                if float(v) != samples[prev]:
                    bad.append("query_range %s at %d: %s, stored %s at %d" % (
                        k, at, v, samples[prev], prev))
    # the targets are gone (stale): the counter's last value, its maximum
    got = {key(s["metric"]): int(float(s["value"][1])) for s in api(
        "query", url, "max_over_time(nvengine_ios_total[30m])")}
    for k, n in ios.items():
        if got.get(k) != n:
            bad.append("nvengine_ios_total%s: %s, the intervals sum to %d" % (k, got.get(k), n))
    if bad:
        print("; ".join(bad[:6]) + ("; ... %d more" % (len(bad) - 6) if len(bad) > 6 else ""))
        return 1
    nst = sum(len(v) for v in stored.values())
    print("ok: %d of %d intervals stored, each equal; %d query_range points; %d ios_total" % (
        nst, len(want), nrange, len(ios)))
    return 0


sys.exit(main())
