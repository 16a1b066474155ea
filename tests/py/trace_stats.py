"""Exact statistics over a dump CSV, in the row format of `nvanalyze stat`
(trace_cli.sh compares the two):

    trace_stats.py DUMP.csv

prints per operation, then "all" when there are several:
    op ios errors iops MB/s min p50 p90 p95 p99 p99.9 p99.99 max mean stdev
"""
import sys

from lib import tracecsv

ORDER = ["read", "write", "trim", "flush", "zeroes", "uncor", "verify"]


def main(path):
    rows = tracecsv.rows(path)
    first = min(int(r["submit_ns"]) for r in rows)
    last = max(int(r["complete_ns"]) for r in rows)
    span = (last - first) / 1e9
    groups = {}
    for r in rows:
        groups.setdefault(r["op"], []).append(r)
    names = [o for o in ORDER if o in groups] + (["all"] if len(groups) != 1 else [])
    for name in names:
        g = rows if name == "all" else groups[name]
        lat = sorted(int(r["lat_ns"]) for r in g)
        n = len(lat)
        mean, sd = tracecsv.mean_sd(lat)
        errs = sum(1 for r in g if r["status"] != "0")
        byts = sum(int(r["length"]) for r in g)
        pct = [tracecsv.percentile(lat, p) for p in (50, 90, 95, 99, 99.9, 99.99)]
        print(name, n, errs, "%.1f" % (n / span), "%.3f" % (byts / span / 1e6), lat[0],
              *pct, lat[-1], "%.1f" % mean, "%.1f" % sd)


if __name__ == "__main__":
    main(sys.argv[1])
