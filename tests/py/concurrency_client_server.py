"""concurrency.sh, client/server: fio's client JSON has an entry per host
and "All clients"; nvanalyze reads it with the same IOPS; each server's
traces hold that host's total_ios, all of them "All clients"'.

    concurrency_client_server.py NVANALYZE DIR   (DIR/client.json, DIR/traceN/)
prints "ok ..." or the problems
"""
import glob, json, subprocess, sys

from lib import fiojson
from lib import tracecsv

nva, d = sys.argv[1], sys.argv[2]
problems = []
cs = fiojson.load(d + '/client.json')['client_stats']
hosts = {'127.0.0.1': 0, '127.0.0.2': 1}
byname = {}
for e in cs:
    key = 'All clients' if e['jobname'] == 'All clients' else 'cs@' + e['hostname']
    byname[key] = e
want = ['cs@127.0.0.1', 'cs@127.0.0.2', 'All clients']
if sorted(byname) != sorted(want):
    problems.append('client_stats entries %s, expected %s' % (sorted(byname), want))
# nvanalyze reads the client JSON
p = subprocess.run([nva, '-f', 'json', d + '/client.json'], capture_output=True, text=True)
if p.returncode != 0:
    sys.exit('nvanalyze exit %d: %s' % (p.returncode, p.stderr.strip()[:300]))
res = json.loads(p.stdout)['results']
side = json.loads(p.stdout)['sides'][0]['label']
for key in want:
    e = byname.get(key)
    for op in ('read', 'write'):
        got = [r for r in res if r['job'] == key and r['direction'] == op]
        if not got or e is None:
            problems.append('nvanalyze has no %s %s' % (key, op))
            continue
        iops = got[0]['sides'][side].get('iops')
        if iops is None or abs(iops - e[op]['iops']) > 1e-6 * max(1, e[op]['iops']):
            problems.append('%s %s: nvanalyze IOPS %s, fio %s' % (key, op, iops, e[op]['iops']))
# the traces, written by each server, against that host's total_ios
total = 0
for h, i in hosts.items():
    e = byname.get('cs@' + h)
    traces = sorted(glob.glob('%s/trace%d/*.nvt' % (d, i)))
    if len(traces) != 2:
        problems.append('host %s: %d traces, expected 2 (numjobs=2)' % (h, len(traces)))
    n = {}
    for t in traces:
        rc, out, err = tracecsv.stat(nva, t)
        if rc != 0 or 'footer: present' not in out or err:
            problems.append('%s incomplete: %s' % (t, err.strip()[:200]))
        rows = tracecsv.dump(nva, t)
        for r in rows:
            n[r['op']] = n.get(r['op'], 0) + 1
    for op in ('read', 'write'):
        if e is not None and n.get(op, 0) != e[op]['total_ios']:
            problems.append('host %s %s: traces %d records, fio total_ios %d'
                            % (h, op, n.get(op, 0), e[op]['total_ios']))
        total += n.get(op, 0)
a = byname.get('All clients')
if a is not None and total != a['read']['total_ios'] + a['write']['total_ios']:
    problems.append('All clients: traces %d records, fio %d'
                    % (total, a['read']['total_ios'] + a['write']['total_ios']))
print('; '.join(problems) if problems else 'ok %d records over 2 hosts' % total)
