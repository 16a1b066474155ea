"""percentiles.sh: every percentile level fio reported in a JSON file, for
every job and direction with IOs, equals nvanalyze's `--percentiles fio --format json`:
the value under fio's own key in "fio_clat_percentiles_ns" and the table row
"clat_pX_ns" of that level.  The expected values are read here straight from
the file with Python's json module (fio 2.x "clat" in us, fio 3 "clat_ns").

    percentiles_fio.py FIO.json REPORT.json LABEL
prints "ok N levels" (exit 0), else each mismatch (exit 1).
"""
import json
import sys

fio = json.load(open(sys.argv[1]))
rep = json.load(open(sys.argv[2]))
label = sys.argv[3]

blocks = {(b["job"], b["direction"]): b for b in rep["results"]}
bad = checked = 0
for job in fio["jobs"]:
    for d in ("read", "write", "trim"):
        o = job.get(d)
        if not o:
            continue
        if "clat_ns" in o:
            clat, mult = o["clat_ns"], 1
        else:
            clat, mult = o.get("clat", {}), 1000
        pct = {k: v for k, v in clat.get("percentile", {}).items() if float(k) > 0}
        if not pct or (o.get("total_ios", 0) == 0 and o.get("io_bytes", 0) == 0):
            continue	# an idle direction: no latency to report
        b = blocks.get((job["jobname"], d))
        if b is None:
            print("MISSING block %s %s" % (job["jobname"], d))
            bad += 1
            continue
        side = b["sides"][label]
        got = side.get("fio_clat_percentiles_ns", {})
        for k, v in pct.items():
            want = v * mult
            name = "clat_p%s_ns" % ("%.4f" % float(k)).rstrip("0").rstrip(".")
            for where, g in (("fio_clat_percentiles_ns/" + k, got.get(k)), (name, side.get(name))):
                if g is None or abs(g - want) > 1e-9 * max(1, want):
                    print("MISMATCH %s %s %s: nvanalyze %s fio %s" % (job["jobname"], d, where, g,
                                                                    want))
                    bad += 1
                else:
                    checked += 1
        extra = set(got) - set(pct)
        if extra:
            print("EXTRA %s %s: levels fio did not report: %s" %
                  (job["jobname"], d, sorted(extra)))
            bad += 1
print("ok %d levels" % (checked // 2))
sys.exit(1 if bad else 0)
