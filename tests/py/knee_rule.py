#!/usr/bin/env python3
"""The knee rule of docs/analysis.md, written again from the document, on
the points of nvanalyze's JSON (`--format json`, load_curves):

    knee_rule.py JSON RUN SWEEP

prints "knee V" (V the swept value of the first point whose p99 is more than
2x the previous present point's while its IOPS grew by less than 10% over
that point's) or "none".  Exit 1 when the sweep or run is not there.
"""
import json
import sys


def main():
    path, run, sweep = sys.argv[1:4]
    with open(path) as f:
        doc = json.load(f)
    for sw in doc.get("load_curves", {}).get("sweeps", []):
        if sw["name"] != sweep or len(sw["parameters"]) != 1:
            continue
        key = sw["parameters"][0]
        tput = sw["throughput"]
        last = None
        for pt in sw["points"]:
            r = pt["runs"].get(run)
            if not r or not r.get(tput) or not r.get("p99_ns"):
                continue
            if r[tput] <= 0 or r["p99_ns"] <= 0:
                continue
            if last and r["p99_ns"] > 2 * last["p99_ns"] and \
                    100 * (r[tput] - last[tput]) < 10 * last[tput]:
                print("knee %s" % pt[key])
                return 0
            last = r
        print("none")
        return 0
    print("no sweep %s with run %s in %s" % (sweep, run, path), file=sys.stderr)
    return 1


if __name__ == "__main__":
    sys.exit(main())
