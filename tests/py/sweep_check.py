"""sweep.sh: the load curve's data file (nvanalyze -o: data/curve_*.dat)
holds every point of a QD sweep, and its values equal fio's JSON (IOPS)
and a nearest-rank computation over the traces read by lib/nvtrace_reader.py
(p50, p99, p99.9: docs/analysis.md).

    sweep_check.py CURVE.dat FIO.json TRACEDIR LABEL
(FIO.json: a file, or a results directory of jobs/run --sweep: its *.json)
prints "ok iodepth=N" per point, the mismatches otherwise (exit 1)
"""
import glob, json, os, sys

from lib import nvtrace_reader, tracecsv

dat, fjson, tdir, label = sys.argv[1:5]
files = sorted(glob.glob(os.path.join(fjson, "*.json"))) if os.path.isdir(fjson) else [fjson]
jobs = [j for f in files for j in json.load(open(f))["jobs"]]
want = {}
for j in jobs:
    qd = int(j["job options"].get("iodepth", "1"))
    lats = []
    for path in glob.glob(os.path.join(tdir, j["jobname"] + ".*.nvt")):
        for _, _, _, recs in nvtrace_reader.read(path).blocks:
            lats += [r[2] for r in recs if r[5] == "read"]
    lats.sort()
    want[qd] = (j["read"]["iops"], [tracecsv.percentile(lats, p) / 1e3 for p in (50, 99, 99.9)])

rows, run = {}, None
for line in open(dat):
    if line.startswith("# run "):
        run = line[6:].strip()
    elif line.strip() and not line.startswith("#") and run == label:
        f = line.split()
        rows[int(f[0])] = (float(f[1]), [float(f[4]), float(f[7]), float(f[10])], f[13])
bad = 0
if sorted(rows) != sorted(want):
    print("POINTS data file %s, fio %s" % (sorted(rows), sorted(want)))
    bad += 1
for qd in sorted(want):
    if qd not in rows:
        continue
    (iops, lat, exact), (wiops, wlat) = rows[qd], want[qd]
    if abs(iops - wiops) > 1e-6 * wiops:
        print("MISMATCH iodepth=%d IOPS %s fio %s" % (qd, iops, wiops)); bad += 1
    for name, g, w in zip(("p50", "p99", "p99.9"), lat, wlat):
        if abs(g - w) > 1e-6 * w:
            print("MISMATCH iodepth=%d %s %s us, traces %s us" % (qd, name, g, w)); bad += 1
    if exact != "1":
        print("NOT-EXACT iodepth=%d" % qd); bad += 1
    print("ok iodepth=%d" % qd)
sys.exit(1 if bad else 0)
