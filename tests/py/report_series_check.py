"""report_outputs.sh: in an -o directory of runs a and b (job "job"), the
time series of a leaves its last, partial interval's rates out (NaN, with a
header line saying so) and keeps the others; the read exceedance data of a
reaches the largest IO of its traces, at 1/n or more.

    report_series_check.py NVANALYZE DIR TRACEDIR   prints "ok" or the problems;
also that DIR/tables.json has the two runs' findings.
"""
import glob, json, os, sys

from lib import tracecsv

nva, o, ta = sys.argv[1], sys.argv[2], sys.argv[3]
bad = []
path = os.path.join(o, 'data/ts_job_a.dat')
rows = [l.split() for l in open(path) if not l.startswith('#')]
if rows[-1][1] != 'NaN' or rows[-1][2] != 'NaN' or 'NaN' in rows[0][1:3]:
    bad.append('rates: first %s last %s' % (rows[0][:3], rows[-1][:3]))
if 'the last interval is partial' not in open(path).read():
    bad.append('no partial-interval note')
lats = [int(r['lat_ns']) for t in sorted(glob.glob(ta + '/*.nvt')) for r in tracecsv.dump(nva, t)]
mx = max(lats) / 1e3
pts = [l.split() for l in open(os.path.join(o, 'data/cdf_job_read_a.dat'))
       if not l.startswith('#')]
last = [p for p in pts if float(p[2]) > 0][-1]
if float(last[0]) < mx or float(last[2]) * len(lats) < 1 - 1e-6:
    bad.append('exceedance ends at %s us (%s), max %s us' % (last[0], last[2], mx))
tables = json.load(open(os.path.join(o, 'tables.json')))
if len(tables.get('traces', [])) != 2 or not tables['traces'][0]['findings']['spikes']:
    bad.append('tables.json: traces %s' % str(tables.get('traces'))[:200])
print('; '.join(bad) or 'ok')
