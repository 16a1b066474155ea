"""fio's latency buckets in nvanalyze's JSON report, for
tests/integration/fio_buckets.sh.

    fio_buckets_check.py rows REPORT     print "LABEL FROM_NS TO_NS SHARE" a row
    fio_buckets_check.py same REPORT TOL every side has the same rows (edges)
                                         and shares within TOL (%)

REPORT is `nvanalyze --format json` of two or more runs of one fio job; the
rows are each result's "fio_latency_buckets" per side (TO_NS "inf" for the
last).  `same` exits 1 naming the first difference, 2 when a side has no
buckets or no non-zero share.
"""
import json
import sys


def sides(path):
    """{label: [(from_ns, to_ns, share)]} of the report's first result."""
    with open(path) as f:
        rep = json.load(f)
    res = rep["results"][0]["sides"]
    out = {}
    for label, side in res.items():
        rows = side.get("fio_latency_buckets") or []
        out[label] = [(r["from_ns"], r["to_ns"], r["share_pct"]) for r in rows]
    return out


def main():
    if len(sys.argv) < 3 or sys.argv[1] not in ("rows", "same"):
        sys.exit("usage: fio_buckets_check.py rows|same REPORT [TOL]")
    s = sides(sys.argv[2])
    if sys.argv[1] == "rows":
        for label, rows in s.items():
            for lo, hi, pct in rows:
                print("%s %g %s %.2f" % (label, lo, "inf" if hi is None else "%g" % hi,
                                         pct or 0))
        return
    tol = float(sys.argv[3])
    labels = list(s)
    for label in labels:
        if not any(pct for _, _, pct in s[label]):
            print("%s: no bucket with a share" % label)
            sys.exit(2)
    ref = s[labels[0]]
    for label in labels[1:]:
        rows = s[label]
        if [r[:2] for r in rows] != [r[:2] for r in ref]:
            print("%s: rows %s, %s: rows %s" % (labels[0], [r[:2] for r in ref], label,
                                                [r[:2] for r in rows]))
            sys.exit(1)
        for a, b in zip(ref, rows):
            if abs((a[2] or 0) - (b[2] or 0)) > tol:
                print("[%g, %s) ns: %s %.4f, %s %.4f" % (a[0], a[1], labels[0], a[2] or 0,
                                                        label, b[2] or 0))
                sys.exit(1)
    print("same %d rows" % len(ref))


if __name__ == "__main__":
    main()
