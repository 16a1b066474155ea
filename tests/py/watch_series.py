"""nvanalyze watch's interval lines against the post-run series.

usage: watch_series.py LIVE.jsonl POST.json

Every {"type":"interval"} line of LIVE must equal, field for field, the
entry of the same job, op and index in the post-run JSON's
traces[i].series; and from a job and op's first live line on, every
post-run entry must have been printed live (nothing left out).  Every
{"type":"end"} line's IOs, bytes, errors and exact p50/p99/p99.9/max must
equal the post-run traces[i].operations entry of its job and op.  Prints
"ok N" (the interval lines compared) or the first differences.
"""
import json
import sys


def main():
    live = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
    post = json.load(open(sys.argv[2]))
    ref, ops = {}, {}
    bad, seen, first = [], set(), {}
    for tr in post.get("traces", []):
        for e in tr.get("series") or []:
            ref[(e["job"], e["op"], e["index"])] = e
        for o in tr.get("operations") or []:
            ops[(tr["job"], o["op"])] = o
    for o in live:
        if o.get("type") == "end":
            r = ops.get((o["job"], o["op"]))
            got = [o[k] for k in ("ios", "bytes", "errors", "p50_ns", "p99_ns", "p99.9_ns",
                                  "max_ns")]
            want = r and [r["ios"], r["bytes"], r["errors"]] + \
                [r["latency"][k] for k in ("p50_ns", "p99_ns", "p99.9_ns", "max_ns")]
            if got != want:
                bad.append("end %s %s: live %s, post-run %s" % (o["job"], o["op"], got, want))
        if o.get("type") != "interval":
            continue
        k = (o["job"], o["op"], o["index"])
        if k in seen:
            bad.append("printed twice: %s" % (k,))
        seen.add(k)
        first[k[:2]] = min(first.get(k[:2], k[2]), k[2])
        r = ref.get(k)
        if r is None:
            bad.append("no post-run entry for %s" % (k,))
        elif r != o:
            diff = {f: (o.get(f), r.get(f)) for f in set(o) | set(r) if o.get(f) != r.get(f)}
            bad.append("%s differs (live, post-run): %s" % (k, diff))
    for k in ref:
        if k[:2] in first and k[2] >= first[k[:2]] and k not in seen:
            bad.append("post-run entry %s was never printed live" % (k,))
    if not seen:
        bad.append("no interval lines")
    if not any(k[:2] in first for k in ref):
        bad.append("no post-run series")
    if bad:
        print("\n".join(bad[:10]))
        return 1
    print("ok %d" % len(seen))
    return 0


if __name__ == "__main__":
    sys.exit(main())
