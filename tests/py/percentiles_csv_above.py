"""percentiles.sh: in `nvanalyze --percentiles fio --format csv` of one fio
JSON file, a fio percentile above its job's max (fio reports the middle of
a latency bin) is flagged: the row of that level (table row "clat pX" and
fio's own "clat fio KEY") is followed by a row "... fio_above_max" with
unit "flag" and 1, and no other row has one.  Which values lie above the max
is read here straight from the file with Python's json module.

    percentiles_csv_above.py FIO.json REPORT.csv
prints "ok N flagged, M not" (exit 0), else each mismatch (exit 1).
"""
import csv
import json
import sys

fio = json.load(open(sys.argv[1]))
want = {}	# (job, dir, level) -> above the max
for job in fio["jobs"]:
    for d in ("read", "write", "trim"):
        o = job.get(d)
        if not o or (o.get("total_ios", 0) == 0 and o.get("io_bytes", 0) == 0):
            continue
        clat = o["clat_ns"] if "clat_ns" in o else o.get("clat", {})
        for k, v in clat.get("percentile", {}).items():
            if float(k) > 0:
                want[(job["jobname"], d, float(k))] = v > clat["max"]

rows = [r for r in csv.reader(open(sys.argv[2])) if r]
bad = flagged = plain = 0
seen = set()
for i, r in enumerate(rows):
    if r[2].endswith(" fio_above_max"):
        continue
    if r[2].startswith("clat fio "):
        level = float(r[2].split()[2])
    elif r[2].startswith("clat p") and r[3] == "ns":
        level = float(r[2].split()[1][1:])
    else:
        continue
    key = (r[0], r[1], level)
    if key not in want:
        continue
    nxt = rows[i + 1] if i + 1 < len(rows) else ["", "", "", ""]
    got = nxt[2] == r[2] + " fio_above_max" and nxt[3] == "flag" and nxt[4] == "1"
    if got != want[key] or (not got and nxt[2].endswith("fio_above_max")):
        print("MISMATCH %s %s %s (%s): flagged %s, above the max %s" %
              (key[0], key[1], level, r[2], got, want[key]))
        bad += 1
    elif got:
        flagged += 1
    else:
        plain += 1
    seen.add(key)
missing = set(want) - seen
for k in sorted(missing):
    print("MISSING %s %s %s in the CSV" % k)
print("ok %d flagged, %d not" % (flagged, plain))
sys.exit(1 if bad or missing or not flagged else 0)
