"""Traces as the tests look at them: the rows of `nvanalyze dump` (CSV with
the columns submit_ns, complete_ns, lat_ns, offset, length, op, status, qd,
file) and the exact statistics docs/analysis.md defines over them."""
import csv
import io
import math
import subprocess


def rows(path):
    """The rows of a dump CSV file, as dicts of strings."""
    with open(path) as f:
        return list(csv.DictReader(f))


def dump(nva, trace):
    """The rows of `nvanalyze dump TRACE` (NVA: the nvanalyze binary)."""
    p = subprocess.run([nva, 'dump', trace], capture_output=True, text=True)
    return list(csv.DictReader(io.StringIO(p.stdout)))


def stat(nva, trace):
    """`nvanalyze stat TRACE`: (exit status, stdout, stderr)."""
    p = subprocess.run([nva, 'stat', trace], capture_output=True, text=True)
    return p.returncode, p.stdout, p.stderr


def count_ops(rs):
    """{op: number of rows}."""
    n = {}
    for r in rs:
        n[r['op']] = n.get(r['op'], 0) + 1
    return n


def rank(p, n):
    """The nearest rank of percentile P (in percent, to 1e-4) of N values, 1..n."""
    return max(1, min(n, (round(p * 1e4) * n + 999999) // 1000000))


def percentile(sorted_vals, p):
    """The exact percentile P of SORTED_VALS (nearest rank)."""
    return sorted_vals[rank(p, len(sorted_vals)) - 1]


def mean_sd(vals):
    """(mean, sample standard deviation; 0 for one value)."""
    n = len(vals)
    mean = sum(vals) / n
    sd = math.sqrt(sum((x - mean) ** 2 for x in vals) / (n - 1)) if n > 1 else 0.0
    return mean, sd
