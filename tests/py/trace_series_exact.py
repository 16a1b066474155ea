"""trace_series.sh: the per-interval latency points nvanalyze -o writes
(DATA: data/ts_JOB_LABEL.dat, p50/p99/p99.9/max per operation, us as %g)
equal the nearest rank over the IOs of each interval, computed here from
`nvanalyze dump` of the job's traces merged by completion time (the
merge of trace_series.c: the trace whose next record completes first,
ties to the lower index; a record that completes before the open
interval joins it).

    trace_series_exact.py NVANALYZE DATA INTERVAL_S TRACE...
prints "ok N" (N points compared) or the problems.
"""
import sys

from lib import tracecsv

nva, data, interval = sys.argv[1], sys.argv[2], round(float(sys.argv[3]) * 1e9)
traces = [tracecsv.dump(nva, t) for t in sys.argv[4:]]
heads = [0] * len(traces)
merged = []
while True:
    best = None
    for i, rs in enumerate(traces):
        if heads[i] < len(rs) and (best is None or int(rs[heads[i]]['complete_ns']) <
                                   int(traces[best][heads[best]]['complete_ns'])):
            best = i
    if best is None:
        break
    merged.append(traces[best][heads[best]])
    heads[best] += 1

t0 = int(merged[0]['complete_ns']) - int(merged[0]['lat_ns'])
cur, held = 0, {}
for r in merged:
    idx = (int(r['complete_ns']) - t0) // interval
    cur = max(cur, idx)
    held.setdefault((cur, r['op']), []).append(int(r['lat_ns']))

lines = [l.split() for l in open(data) if not l.startswith('#')]
cols = [l for l in open(data) if l.startswith('# t ')][0].split()[1:]
bad, n = [], 0
for i, row in enumerate(lines):
    for c, v in zip(cols, row):
        for lv, name in ((50, '_p50_us'), (99, '_p99_us'), (99.9, '_p999_us'), (None, '_max_us')):
            if not c.endswith(name):
                continue
            vals = sorted(held.get((i, c[:-len(name)]), []))
            if not vals:
                if v != 'NaN':
                    bad.append('%s interval %d: %s, no IOs' % (c, i, v))
                continue
            want = vals[-1] if lv is None else vals[tracecsv.rank(lv, len(vals)) - 1]
            n += 1
            if v != '%g' % (want / 1000.0):
                bad.append('%s interval %d: %s, want %g' % (c, i, v, want / 1000.0))
print('\n'.join(bad[:10]) if bad else 'ok %d' % n)
