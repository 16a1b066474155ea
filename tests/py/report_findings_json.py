"""report_outputs.sh: the traces array of nvanalyze --format json (runs a,
a random read, and b, a mixed job): findings as numbers (throughput verdict,
warm-up, spikes) and text, b's "all" row with every operation's bytes, and
tracing's disturbance (IO-loop wait share, ring high-water of its chunks,
writer CPU per record) consistent with itself.

    report_findings_json.py REPORT.json   prints "ok" or the problems
"""
import json, sys

j = json.load(open(sys.argv[1]))
tr = j.get('traces', [])
bad = []
if len(tr) != 2:
    bad.append('%d trace entries' % len(tr))
for t in tr:
    f = t.get('findings') or {}
    if f.get('throughput', {}).get('verdict') not in ('steady', 'throttling'):
        bad.append('%s: throughput %s' % (t['run'], f.get('throughput')))
    if 'found' not in f.get('warmup', {}):
        bad.append('%s: no warm-up verdict' % t['run'])
    if not f.get('spikes') or 'episodes' not in f['spikes'][0]:
        bad.append('%s: no spikes' % t['run'])
    if not any('latency spikes' in l for l in f.get('text', [])):
        bad.append('%s: no text' % t['run'])
    ops = {o['op']: o for o in t['operations']}
    if t['run'] == 'b' and (ops.get('all', {}).get('MB_per_s', 0) <= 0 or
                            ops['all']['bytes'] != ops['read']['bytes'] + ops['write']['bytes']):
        bad.append('b: all row %s' % ops.get('all'))
    d = t.get('tracing') or {}
    need = ('io_loop_wait_share', 'io_loop_waits', 'io_loop_wait_ns', 'traced_s',
            'ring_high', 'ring_chunks', 'writer_cpu_ns_per_record')
    if any(d.get(k) is None for k in need):
        bad.append('%s: tracing %s' % (t['run'], d))
    elif (d['traced_s'] <= 0 or not 0 <= d['ring_high'] <= d['ring_chunks'] or
          d['ring_chunks'] < 4 or d['writer_cpu_ns_per_record'] <= 0 or
          abs(d['io_loop_wait_share'] - d['io_loop_wait_ns'] / 1e9 / d['traced_s']) > 1e-9 or
          (d['io_loop_waits'] == 0) != (d['io_loop_wait_ns'] == 0)):
        bad.append('%s: tracing inconsistent %s' % (t['run'], d))
print('; '.join(bad) or 'ok')
