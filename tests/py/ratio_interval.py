#!/usr/bin/env python3
"""An independent reference for nvanalyze's change of repeated runs.

Written from the formula in docs/analysis.md, sharing no code with
nvanalyze: it reads the fio JSON files itself, computes each side's
aggregate and the 95% interval of the ratio of geometric means (Welch's t
on the logarithms of the per-run values) with its own Student t quantile
(the density integrated by Simpson's rule and inverted by Newton's method,
where nvanalyze uses the incomplete beta function and bisection), and
checks what nvanalyze printed in --format text: the change, both bounds
to the printed precision (0.1%; more decimals where a bound near -100%
would round to it), no bound at or below -100%, the verdict
read from the interval, n per side, the reason when there is no interval.

    ratio_interval.py selftest
    ratio_interval.py check [--aggregate HOW] TEXT_OUTPUT SIDE_FILES...

SIDE_FILES: one comma-separated list of fio JSON files for each of the two
sides, in the order given to nvanalyze (the second is the baseline).  Prints one line per
problem and exits 1 if there is any; else prints how many rows it checked.
"""
import math
import re
import sys

from lib import fiojson

# ---- Student t, from its density ---------------------------------------


def t_density(x, df):
    c = math.lgamma((df + 1) / 2) - math.lgamma(df / 2) - 0.5 * math.log(df * math.pi)
    return math.exp(c - (df + 1) / 2 * math.log1p(x * x / df))


def t_cdf(x, df, steps=4000):
    """P(T <= x) for x >= 0: 1/2 plus Simpson's rule over [0, x]."""
    h = x / steps
    s = t_density(0, df) + t_density(x, df)
    for i in range(1, steps):
        s += (4 if i % 2 else 2) * t_density(i * h, df)
    return 0.5 + s * h / 3


def t_quantile(p, df):
    """The x with P(T <= x) = p, for p > 1/2, by Newton's method."""
    x = 2.0
    for _ in range(100):
        step = (t_cdf(x, df) - p) / t_density(x, df)
        x = max(x - step, x / 2)
        if abs(step) < 1e-12:
            break
    return x


def selftest():
    # two-sided 95% critical values from a printed t table
    table = {1: 12.7062, 2: 4.3027, 3: 3.1824, 4: 2.7764, 5: 2.5706, 10: 2.2281, 30: 2.0423}
    bad = [f"t(0.975, {df}) = {t_quantile(0.975, df):.6f}, table {v}"
           for df, v in table.items() if abs(t_quantile(0.975, df) - v) > 6e-5]
    for line in bad:
        print(line)
    print(f"t quantiles: {len(table) - len(bad)} of {len(table)} agree with the table")
    return 1 if bad else 0

# ---- the interval --------------------------------------------------------


def mean_var(xs):
    m = sum(xs) / len(xs)
    return m, sum((x - m) ** 2 for x in xs) / (len(xs) - 1)


def log_welch(a, b):
    """(ratio of geometric means, low, high) of a over b, as changes in %."""
    ma, va = mean_var([math.log(x) for x in a])
    mb, vb = mean_var([math.log(x) for x in b])
    sa, sb = va / len(a), vb / len(b)
    d, se = ma - mb, math.sqrt(sa + sb)
    half = 0.0
    if se > 0:
        df = (sa + sb) ** 2 / (sa ** 2 / (len(a) - 1) + sb ** 2 / (len(b) - 1))
        half = t_quantile(0.975, df) * se
    pct = lambda x: 100 * (math.exp(x) - 1)
    return pct(d), pct(d - half), pct(d + half)


def aggregate(vals, how, higher_better):
    s = sorted(vals)
    n = len(s)
    if how == "median":
        return s[n // 2] if n % 2 else (s[n // 2 - 1] + s[n // 2]) / 2
    if how == "best":
        return s[-1] if higher_better else s[0]
    if how == "min":
        return s[0]
    if how == "max":
        return s[-1]
    return sum(s) / n

# ---- fio's values --------------------------------------------------------

PCT = {"p50": "50.000000", "p95": "95.000000", "p99": "99.000000", "p99.9": "99.900000",
       "p99.99": "99.990000"}
LAT = {"min": "min", "mean": "mean", "max": "max", "stdev": "stddev"}


def sampled(d, prefix, key):
    """fio's sample statistic key, or None where fio took no sample
    (PREFIX_samples 0: a run shorter than one sample window; the zeros fio
    prints then are no statistics: nvanalyze leaves them missing, as
    analyze/input/fiojson_dir.c parse_samples says)."""
    if d.get(prefix + "_samples") == 0:
        return None
    return d.get(key)


# Row titles that are not latencies: where fio keeps them (d: the direction's
# object, j: the job's), and whether higher is better.  Ratios do not depend
# on units, so fio's own units serve.
OTHER = {
    "IOPS": (lambda d, j: d.get("iops"), True),
    "bandwidth": (lambda d, j: d.get("bw_bytes"), True),
    "IO total": (lambda d, j: d.get("io_bytes"), True),
    "runtime": (lambda d, j: d.get("runtime"), False),
    "CPU user": (lambda d, j: j.get("usr_cpu"), False),
    "CPU system": (lambda d, j: j.get("sys_cpu"), False),
    "context switches": (lambda d, j: j.get("ctx"), False),
    "major faults": (lambda d, j: j.get("majf"), False),
    "minor faults": (lambda d, j: j.get("minf"), False),
    "bw samples min": (lambda d, j: sampled(d, "bw", "bw_min"), True),
    "bw samples max": (lambda d, j: sampled(d, "bw", "bw_max"), True),
    "bw samples mean": (lambda d, j: sampled(d, "bw", "bw_mean"), True),
    "bw samples stdev": (lambda d, j: sampled(d, "bw", "bw_dev"), False),
    "IOPS samples min": (lambda d, j: sampled(d, "iops", "iops_min"), True),
    "IOPS samples max": (lambda d, j: sampled(d, "iops", "iops_max"), True),
    "IOPS samples mean": (lambda d, j: sampled(d, "iops", "iops_mean"), True),
    "IOPS samples stdev": (lambda d, j: sampled(d, "iops", "iops_stddev"), False),
}
LATROW = re.compile(r"^(clat|slat|lat) (min|mean|p50|p95|p99|p99\.9|p99\.99|max|stdev)$")


def known(title):
    return title in OTHER or bool(LATROW.match(title))


def higher_better(title):
    return title in OTHER and OTHER[title][1]


def metric(job, direction, title):
    """The value of a row title ("IOPS", "clat p99.9", "CPU user") or None."""
    d = job.get(direction)
    if not d:
        return None
    if title in OTHER:
        return OTHER[title][0](d, job)
    kind, stat = title.split(" ", 1)
    lat = d.get("lat_ns" if kind == "lat" else kind + "_ns")
    if not lat or not lat.get("N", 1):
        return None
    if stat in PCT:
        return lat.get("percentile", {}).get(PCT[stat])
    return lat.get(LAT[stat])


def side_values(files, jobname, direction, title):
    vals = []
    for path in files:
        for job in fiojson.load(path)["jobs"]:
            if job["jobname"] == jobname:
                v = metric(job, direction, title)
                if v is not None:
                    vals.append(float(v))
    return vals

# ---- nvanalyze's text ----------------------------------------------------

CI = re.compile(r"^([+-]\d+\.\d)%( \(better\)| \(worse\)| ~ within noise)? "
                r"\[([+-]\d+\.\d+)%, ([+-]\d+\.\d+)%\] n=(\d+)\+(\d+)$")
NEUTRAL = ("runtime", "fio error (errno)", "context switches", "major faults",
           "minor faults")	# a change, but neither better nor worse (counts of a run)
NOCI = re.compile(r"^([+-]\d+\.\d)% n=(\d+)\+(\d+), no interval: (< 3 runs|a value <= 0)$")
SINGLE = re.compile(r"^([+-]\d+\.\d)%( \(better\)| \(worse\)| \(about equal\))?$")


def rows(text):
    """(job, direction, title, change cell) of each table row of --format text."""
    block = None
    for line in text.splitlines():
        m = re.match(r"^== (.*) · (\w+) ==$", line)
        if m:
            block = (m.group(1), m.group(2))
            continue
        if not block or not line or line.startswith(("metric ", "---")):
            continue
        cells = re.split(r"\s{2,}", line.strip())
        if len(cells) >= 3 and known(cells[0]):
            yield block[0], block[1], cells[0], cells[-1]


def near(printed, value):
    """printed (e.g. "-15.7", "-99.97") is value rounded to its decimals."""
    half = 0.5 * 10 ** -len(printed.split(".")[1])
    return abs(float(printed) - (0.0 if abs(value) < half else value)) <= half + 1e-9


def check_row(sides, how, job, direction, title, cell):
    hb = higher_better(title)
    a = side_values(sides[0], job, direction, title)
    b = side_values(sides[-1], job, direction, title)
    where = f"{job} {direction} {title}: '{cell}'"
    if not a or not b or aggregate(b, how, hb) == 0:
        return [] if cell == "n/a" else [f"{where}: expected n/a"]
    pct = 100 * (aggregate(a, how, hb) / aggregate(b, how, hb) - 1)
    m = CI.match(cell)
    if len(a) >= 3 and len(b) >= 3 and min(a + b) > 0:
        if not m:
            return [f"{where}: expected an interval"]
        gm, lo, hi = log_welch(a, b)
        errs = []
        if not (near(m.group(1), pct) and near(m.group(3), lo) and near(m.group(4), hi)):
            errs.append(f"{where}: reference {pct:+.3f}% [{lo:+.3f}%, {hi:+.3f}%]")
        if float(m.group(3)) <= -100:
            errs.append(f"{where}: a bound at or below -100%")
        want = " ~ within noise" if lo <= 0 <= hi else None if title in NEUTRAL else \
            " (better)" if (lo > 0) == hb else " (worse)"
        if m.group(2) != want:
            errs.append(f"{where}: verdict should be '{want}' for [{lo:+.3f}%, {hi:+.3f}%]")
        if (int(m.group(5)), int(m.group(6))) != (len(a), len(b)):
            errs.append(f"{where}: n should be {len(a)}+{len(b)}")
        return errs
    if len(a) == 1 and len(b) == 1:
        m = SINGLE.match(cell)
        return [] if m and near(m.group(1), pct) else [f"{where}: reference {pct:+.3f}%"]
    m = NOCI.match(cell)
    why = "< 3 runs" if min(len(a), len(b)) < 3 else "a value <= 0"
    if not m or not near(m.group(1), pct) or m.group(4) != why or \
            (int(m.group(2)), int(m.group(3))) != (len(a), len(b)):
        return [f"{where}: expected {pct:+.1f}% n={len(a)}+{len(b)}, no interval: {why}"]
    return []


def check(argv):
    how = "mean"
    if argv[:1] == ["--aggregate"]:
        how, argv = argv[1], argv[2:]
    with open(argv[0]) as f:
        text = f.read()
    sides = [s.split(",") for s in argv[1:]]
    errs, n, nci = [], 0, 0
    for job, direction, title, cell in rows(text):
        n += 1
        nci += bool(CI.match(cell))
        errs += check_row(sides, how, job, direction, title, cell)
    if not n:
        errs.append("no table row found")
    for e in errs:
        print(e)
    print(f"checked {n} rows, {nci} with an interval, {len(errs)} problems")
    return 1 if errs else 0


if __name__ == "__main__":
    if sys.argv[1:2] == ["selftest"]:
        sys.exit(selftest())
    if sys.argv[1:2] == ["check"]:
        sys.exit(check(sys.argv[2:]))
    sys.exit(__doc__)
