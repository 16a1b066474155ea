"""live_series_log.py POST_JSON HOST [WATCH_JSONL]: the post-run series of
`nvanalyze -f json` (traces[i].series: one object per interval, job, op,
index, start_s, end_s, ios, p50_ns, p99_ns, p99.9_ns, max_ns) as the JSON
lines tests/py/live_prom_check.py compares Prometheus with: each with HOST
and end_unix_ms, the job's time 0 on the wall clock (its "start_unix_ms",
in the trace's entry or in the watch's {"type":"job"} line of WATCH_JSONL)
plus end_s.  Exit 1 naming the job when neither gives the wall clock."""
import json
import sys


def main():
    with open(sys.argv[1]) as f:
        doc = json.load(f)
    host = sys.argv[2]
    t0 = {}
    if len(sys.argv) > 3:
        with open(sys.argv[3]) as f:
            for line in f:
                o = json.loads(line) if line.strip().startswith("{") else {}
                if o.get("type") == "job" and o.get("start_unix_ms"):
                    t0[o["job"]] = o["start_unix_ms"]
    for tr in doc.get("traces", []):
        for s in tr.get("series", []):
            job = s.get("job", tr.get("job"))
            start = tr.get("start_unix_ms", t0.get(job))
            if not start:
                print("live_series_log: no wall clock (start_unix_ms) for job %r" % job,
                      file=sys.stderr)
                return 1
            row = {k: s[k] for k in ("op", "index", "ios", "p50_ns", "p99_ns", "p99.9_ns",
                                     "max_ns")}
            row.update(job=job, host=host, end_unix_ms=start + int(s["end_s"] * 1000 + 0.5))
            print(json.dumps(row))
    return 0


sys.exit(main())
