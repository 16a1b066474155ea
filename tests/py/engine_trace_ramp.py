"""engine_trace.sh, ramp_time: the header has job.ramp_time_us, the footer
job.ramp_end_ns, and the IOs submitted from then on are fio's total_ios per
direction (with some IO before it).

    engine_trace_ramp.py DUMP.csv STAT.txt FIO.json   prints "ok" or the problems
"""
import re, sys

from lib import fiojson
from lib import tracecsv

rows = tracecsv.rows(sys.argv[1])
st = open(sys.argv[2]).read()
job = fiojson.load(sys.argv[3])['jobs'][0]
m = re.search(r'job.ramp_end_ns = (\d+)', st)
if 'job.ramp_time_us = 1000000' not in st or not m:
    sys.exit(print('no ramp keys in the trace: ' + st[:300]))
end = int(m.group(1))
ramp = sum(1 for r in rows if int(r['submit_ns']) < end)
bad = ['%s: %d after the ramp, fio %d' % (d, n, job[d]['total_ios'])
       for d in ('read', 'write')
       for n in [sum(1 for r in rows if r['op'] == d and int(r['submit_ns']) >= end)]
       if n != job[d]['total_ios']]
print('; '.join(bad) if bad else 'ok' if ramp else 'no IO before the ramp end')
