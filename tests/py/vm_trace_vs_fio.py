"""tests/vm/host-checks/30-nvengine-passthru.sh: a passthrough randread
trace (its dump CSV) holds exactly fio's reads, none failed, with a mean
latency between 90% and 102% of fio's clat mean (see the case for why).

    vm_trace_vs_fio.py DUMP.csv FIO.json   prints "ok" or what differs
"""
import sys

from lib import fiojson
from lib import tracecsv

rows = tracecsv.rows(sys.argv[1])
j = fiojson.load(sys.argv[2])['jobs'][0]
reads = [r for r in rows if r['op'] == 'read']
bad = [r for r in rows if r['status'] != '0']
mean = sum(int(r['lat_ns']) for r in reads) / max(1, len(reads))
fmean = j['read']['clat_ns']['mean']
ok = (len(reads) == j['read']['total_ios'] and not bad
      and 0.90 * fmean - 2000 <= mean <= 1.02 * fmean + 2000)
print('ok' if ok else 'trace %d reads (%d errors), mean %.0f ns; fio %d ios, clat mean %.0f ns'
      % (len(reads), len(bad), mean, j['read']['total_ios'], fmean))
