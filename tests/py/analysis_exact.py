"""analysis.sh: nvanalyze's exact latencies (report JSON, run labels a and
b) equal Python's over the dumps of the runs' traces, and none exceeds
fio's binned value by more than half of fio's bin.

    analysis_exact.py REPORT.json A.csv B.csv   prints "ok LABEL OP n=N" per
operation checked, the mismatches otherwise (exit 1)
"""
import json, sys

from lib import tracecsv

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
                print("MISMATCH %s %s %s: nvanalyze %s python %s"
                      % (label, op, key, got, want))
                bad += 1
        for key, want in (("clat_mean_ns", mean), ("clat_stdev_ns", sd)):
            if abs(side[key] - want) > 1e-6 * want:
                print("MISMATCH %s %s %s: %s vs %s" % (label, op, key, side[key], want)); bad += 1
        # fio's binned values against the exact ones, what holds whatever
        # the load (docs/analysis.md, "Exact vs fio"): every IO's trace
        # latency is at most fio's clat of it (both read CLOCK_MONOTONIC:
        # fio with clocksource=clock_gettime, the traces with
        # nv_trace_clock=clock_gettime; fio reads its clock before the
        # engine's at submission and after it at completion), so each exact
        # percentile is at most fio's true one, which lies within half a bin
        # (<= 0.78%) of the value fio prints.  How much larger fio's are
        # depends on preemption and is not bounded.
        for (key, _), p in zip(checks[:-1], exp.values()):
            fio, ex = side[key + "_fio"], side[key]
            if not 0 < ex <= fio + fio_half_width(fio) + 1:
                print("FIO-BIN %s %s %s: fio %s exact %s (half bin %s)" %
                      (label, op, key, fio, ex, fio_half_width(fio))); bad += 1
        print("ok %s %s n=%d" % (label, op, n))
sys.exit(1 if bad else 0)
