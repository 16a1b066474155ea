"""engine_trace.sh, compare: every trace DIR/*.nvt (dumped beside it as
TRACE.csv) against fio's JSON (jobs summed per direction, flushes against
sync lat N) and, IO by IO, against fio's per-IO clat log of the same thread
(DIR/lat_clat.THREAD.log): the same IOs in the same order, each trace
latency above 0 and at most fio's clat (with the TSC trace clock, plus
twice its footer's clock.tsc_max_seen_err_ns and 500 ppm: TRACE.stat is
`nvanalyze stat` of it).

    engine_trace_compare.py DIR FIO.json   prints "ok" or the problems
"""
import glob, os, re, sys

from lib import fiojson
from lib import tracecsv

d = sys.argv[1]
jobs = fiojson.load(sys.argv[2])['jobs']
problems = []
rows_all = []
ops = {'read': 0, 'write': 1, 'trim': 2}
for tr in sorted(glob.glob(os.path.join(d, '*.nvt'))):
    rows = tracecsv.rows(tr + '.csv')
    rows_all += rows
    thread = re.search(r'\.(\d+)\.nvt$', tr).group(1)
    log = os.path.join(d, 'lat_clat.%s.log' % thread)
    fio = [[int(x) for x in l.split(',')[:5]] for l in open(log) if l.strip()]
    # the TSC trace clock: within clock.tsc_max_seen_err_ns of CLOCK_MONOTONIC
    # at a resync, at most 500 ppm of drift between (docs/trace-format.md)
    st = open(tr + '.stat').read()
    tsc = 'clock.source = tsc' in st
    m = re.search(r'clock.tsc_max_seen_err_ns = (\d+)', st)
    err_ns = int(m.group(1)) if tsc and m else 0
    mine = [r for r in rows if r['op'] in ops]
    if len(mine) != len(fio):
        problems.append('%s: %d IOs, fio logged %d' % (tr, len(mine), len(fio)))
        continue
    bad = 0
    for i, (r, (_, clat, ddir, bs, off)) in enumerate(zip(mine, fio)):
        lat = int(r['lat_ns'])
        same = (ops[r['op']], int(r['length']), int(r['offset'])) == (ddir, bs, off)
        tol = 2 * err_ns + 5e-4 * clat if tsc else 0
        if not same or not 0 < lat <= clat + tol:
            if not bad:
                problems.append('%s IO %d: trace %s %s+%s %d ns, fio ddir %d %d+%d clat %d ns'
                                % (tr, i, r['op'], r['offset'], r['length'], lat, ddir, off, bs,
                                   clat))
            bad += 1
    if bad:
        problems.append('%d of %d IOs differ' % (bad, len(mine)))
fio = {d: sum(j[d]['total_ios'] for j in jobs) for d in ('read', 'write', 'trim')}
fio['flush'] = sum(j['sync']['lat_ns']['N'] for j in jobs)
for op, n in fio.items():
    got = sum(1 for r in rows_all if r['op'] == op)
    if got != n:
        problems.append('%s: trace %d, fio %d' % (op, got, n))
bad = [r for r in rows_all if r['status'] != '0']
if bad:
    problems.append('%d records with errors' % len(bad))
print('; '.join(problems) if problems else 'ok')
