"""Checks of nvanalyze's reading of fio outputs of several runs or
snapshots, for tests/integration/multi_output.sh:

    python3 tests/py/multi_output_check.py compare A_JSON B_JSON
    python3 tests/py/multi_output_check.py min-runtime-ms JSON

compare: A_JSON and B_JSON are `nvanalyze --format json` of two readings
(a normal and a JSON one) of the same fio outputs; for each active (job,
direction) of either, IOPS, bandwidth (mean, stdev, n) and runtime within
1% (a stdev 5%: fio computes each output of a dump a moment apart; and
the stdev of the runs also within what the text's digits allow: fio's
normal output prints IOPS and bandwidth to 3 significant digits, each
run's value off by up to 0.5%, so the runs' stdev by up to
sqrt(n/(n-1)) x 0.5% of the largest run, more than 5% of a small spread).
Prints each mismatch, then "compared N, mismatches M, rows R" (R: B's).

min-runtime-ms: prints the smallest runtime in whole ms of the active
results of JSON.
"""
import json
import sys


def active_sides(path):
    """{(job, direction): the first side's metrics} of the active results."""
    return {(r["job"], r["direction"]): next(iter(r["sides"].values()))
            for r in json.load(open(path))["results"] if r["active"]}


def compare(pa, pb):
    a, b = active_sides(pa), active_sides(pb)
    n = bad = 0
    for key in sorted(set(a) | set(b)):
        sa, sb = a.get(key, {}), b.get(key, {})
        for k in ("iops", "iops_stdev", "iops_n", "bw_MB_per_s", "bw_MB_per_s_stdev",
                  "runtime_ns"):
            x, y = sa.get(k), sb.get(k)
            if k.endswith(("_stdev", "_n")) and x is None and y is None:
                continue  # one run: no spread
            n += 1
            tol = 5e-2 if k.endswith("_stdev") else 1e-2  # values a moment apart
            lim = tol * max(abs(y), 1) if y is not None else 0
            if k.endswith("_stdev") and x is not None and y is not None:
                base, runs = k[:-len("_stdev")], sa.get(k[:-len("_stdev")] + "_n") or 2
                top = max(sa.get(base + "_max") or 0, sb.get(base + "_max") or 0)
                lim = max(lim, (runs / (runs - 1)) ** 0.5 * 5e-3 * top)  # printed digits
            if x is None or y is None or abs(x - y) > lim:
                bad += 1
                print(key, k, x, y)
    print("compared %d, mismatches %d, rows %d" % (n, bad, len(b)))


def min_runtime_ms(path):
    print(min(int(s["runtime_ns"] / 1e6) for s in active_sides(path).values()))


def main():
    if len(sys.argv) == 4 and sys.argv[1] == "compare":
        compare(sys.argv[2], sys.argv[3])
    elif len(sys.argv) == 3 and sys.argv[1] == "min-runtime-ms":
        min_runtime_ms(sys.argv[2])
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()
