"""analysis.sh: nvanalyze's exact latencies (report JSON, run labels a and
b) equal Python's over the dumps of the runs' traces, and fio's binned
values lie within half a bin (plus the clock offset) of them.

    analysis_exact.py REPORT.json A.csv B.csv   prints "ok LABEL OP n=N" per
operation checked, the mismatches otherwise (exit 1)
"""
import json, sys

import tracecsv

rep = json.load(open(sys.argv[1]))
csvs = {"a": sys.argv[2], "b": sys.argv[3]}

def fio_half_width(v):		# fio stat.c plat_idx_to_val: bin of width 2^e around v
    v = int(v)
    if v < 128:
        return 0
    e = v.bit_length() - 1 - 6
    return (1 << e) / 2

bad = 0
for label, path in csvs.items():
    lats = {}
    for line in open(path).read().splitlines()[1:]:
        f = line.split(",")
        lats.setdefault(f[5], []).append(int(f[2]))
    block = {b["direction"]: b for b in rep["results"] if b["job"] == "job"}
    for op, v in lats.items():
        v.sort()
        n = len(v)
        side = block[op]["sides"][label]
        exp = {"p50": 50, "p95": 95, "p99": 99, "p99.9": 99.9, "p99.99": 99.99}
        mean, sd = tracecsv.mean_sd(v)
        checks = [("clat_%s_ns" % k, tracecsv.percentile(v, p)) for k, p in exp.items()]
        checks += [("clat_max_ns", v[-1])]
        for key, want in checks:
            got = side[key]
            if got != want or side.get(key + "_source") != "exact":
                print("MISMATCH %s %s %s: nvanalyze %s python %s" % (label, op, key, got, want)); bad += 1
        for key, want in (("clat_mean_ns", mean), ("clat_stdev_ns", sd)):
            if abs(side[key] - want) > 1e-6 * want:
                print("MISMATCH %s %s %s: %s vs %s" % (label, op, key, side[key], want)); bad += 1
        # fio's binned values: within half a bin (<= 0.78%) of the exact
        # value, plus the offset between fio's and the engine's clock
        # readings (fio reads the clock around the engine's calls, so every
        # IO differs by a little, more under load): twice the difference of
        # the means + 0.5% of the value + 0.5 us.  Only percentiles with at
        # least 100 IOs above them: a rarer one is a single IO, whose two
        # clock readings may be a scheduler preemption apart.
        for (key, _), p in zip(checks[:-1], exp.values()):
            if n * (100 - p) / 100 < 100:
                continue
            fio, ex = side[key + "_fio"], side[key]
            off = abs(side["clat_mean_ns_fio"] - mean) * 2 + 0.005 * ex + 500
            if abs(fio - ex) > fio_half_width(fio) + off:
                print("FIO-BIN %s %s %s: fio %s exact %s (half bin %s, offset %s)" %
                      (label, op, key, fio, ex, fio_half_width(fio), off)); bad += 1
        print("ok %s %s n=%d" % (label, op, n))
sys.exit(1 if bad else 0)
