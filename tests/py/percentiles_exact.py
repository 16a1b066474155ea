"""percentiles.sh: with traces, `nvanalyze --percentiles LEVELS --format
json` prints for each level the nearest-rank value over every IO of the
job's traces (docs/analysis.md: the ceil(p/100 * n)-th smallest), marked
exact.  The traces are read here with tests/py/lib/nvtrace_reader.py (written
from docs/trace-format.md), independently of nvanalyze.

    percentiles_exact.py REPORT.json JOB LABEL LEVELS TRACE...
LEVELS is the list given to --percentiles ("25,75,99.5").  Prints "ok OP
LEVEL VALUE" per value checked (exit 0), else the mismatches (exit 1).
"""
import json
import sys

from lib import nvtrace_reader, tracecsv

rep = json.load(open(sys.argv[1]))
job, label = sys.argv[2], sys.argv[3]
levels = [float(x) for x in sys.argv[4].split(",")]
lats = {}
for path in sys.argv[5:]:
    for _, _, _, recs in nvtrace_reader.read(path).blocks:
        for r in recs:
            lats.setdefault(r[5], []).append(r[2])
bad = checked = 0
for op, v in sorted(lats.items()):
    v.sort()
    blocks = [b for b in rep["results"] if b["job"] == job and b["direction"] == op]
    if len(blocks) != 1:
        print("MISSING %s %s in the report" % (job, op))
        bad += 1
        continue
    side = blocks[0]["sides"][label]
    for p in levels:
        key = "clat_p%s_ns" % ("%.4f" % p).rstrip("0").rstrip(".")
        want = tracecsv.percentile(v, p)
        got = side.get(key)
        if got != want or side.get(key + "_source") != "exact":
            print("MISMATCH %s %s: nvanalyze %s (%s) python %s over %d IOs" %
                  (op, key, got, side.get(key + "_source"), want, len(v)))
            bad += 1
        else:
            print("ok %s %s %d" % (op, key, want))
            checked += 1
sys.exit(1 if bad or not checked else 0)
