"""concurrency.sh, check_traces: NTRACES complete traces, each using NFILES
files and no failed IO, whose records per direction equal fio's total_ios
summed over the jobs.

    concurrency_traces.py NVANALYZE NAME FIO.json NTRACES NFILES TRACE...
prints "ok ..." or the problems
"""
import sys

from lib import fiojson
from lib import tracecsv

nva, name, js = sys.argv[1], sys.argv[2], sys.argv[3]
ntr, nfiles, traces = int(sys.argv[4]), int(sys.argv[5]), sys.argv[6:]
problems = []
if len(traces) != ntr:
    problems.append('%d traces, expected %d' % (len(traces), ntr))
count = {}
for t in traces:
    rc, out, err = tracecsv.stat(nva, t)
    if rc != 0 or 'footer: present' not in out or err:
        problems.append('%s incomplete: rc %d %s' % (t, rc, err.strip()[:200]))
        continue
    rows = tracecsv.dump(nva, t)
    files = {r['file'] for r in rows}
    if len(files) != nfiles:
        problems.append('%s uses files %s, expected %d' % (t, sorted(files), nfiles))
    bad = [r for r in rows if r['status'] != '0']
    if bad:
        problems.append('%s: %d failed IOs' % (t, len(bad)))
    for r in rows:
        count[r['op']] = count.get(r['op'], 0) + 1
jobs = fiojson.load(js)['jobs']
for op in ('read', 'write'):
    fio = sum(j[op]['total_ios'] for j in jobs)
    if count.get(op, 0) != fio:
        problems.append('%s: traces %d records, fio total_ios %d' % (op, count.get(op, 0), fio))
print('; '.join(problems) if problems else
      'ok %d traces, %d records, %d fio job entries'
      % (len(traces), sum(count.values()), len(jobs)))
