"""An independent reader of diskspd text reports, and the check that
`nvanalyze --format json REPORT` reports each direction's IOPS, MiB/s,
mean latency and the -L percentiles as the report prints them
(tests/integration/diskspd.sh runs it per file).

    python3 tests/py/diskspd_values.py REPORT NVANALYZE_JSON

Prints "N values" and exits 0, or the differences and exits 1.  Written
from the report's text (diskspd's ResultParser layout), not from
nvanalyze's C code.
"""
import json
import re
import sys

LEVELS = {'50th': 'p50', '95th': 'p95', '99th': 'p99', '3-nines': 'p99.9', '4-nines': 'p99.99'}


def name_of(cmd):
    """jobs/diskspd/'s name for the command line's parameters."""
    opt = {'b': '64K', 't': '1', 'o': '2', 'w': '0'}
    rnd = si = False
    for tok in cmd.split():
        if tok[:1] in '-/' and len(tok) > 1:
            if tok[1] in 'btow':
                opt[tok[1]] = tok[2:]
            rnd |= tok[1] == 'r'
            si |= tok[1:3] == 'si'
    w = int(opt['w'])
    kind = 'read' if w == 0 else 'write' if w >= 100 else 'rw'
    name = '%s%s-%s-t%s-qd%s' % ('rand' if rnd else 'seq', kind, opt['b'].lower(),
                                 opt['t'], opt['o'])
    return name + ('-si' if si else '') + ('-w%d' % w if 0 < w < 100 else '')


def name_of_params(lines):
    """The same name from the "Input parameters:" lines (no command line)."""
    p = {'b': '64K', 't': '1', 'o': '2', 'w': '0'}
    rnd = si = False
    for s in lines:
        m = re.match(r'block size: (\d+)(KiB|MiB)?$', s)
        if m:
            b = int(m.group(1)) * {'KiB': 1024, 'MiB': 1048576, None: 1}[m.group(2)]
            p['b'] = '%dM' % (b >> 20) if b % 1048576 == 0 else '%dK' % (b >> 10)
        m = re.match(r'number of outstanding I/O operations[^:]*: (\d+)', s)
        if m:
            p['o'] = m.group(1)
        m = re.match(r'threads per file: (\d+)', s)
        if m:
            p['t'] = m.group(1)
        m = re.search(r'read/write ratio: \d+/(\d+)', s)
        if m:
            p['w'] = m.group(1)
        if s.startswith('performing write test'):
            p['w'] = '100'
        rnd |= s.startswith('using random I/O')
        si |= s.startswith('using interlocked sequential I/O')
    return name_of('-b%s -t%s -o%s -w%s%s%s' % (p['b'], p['t'], p['o'], p['w'],
                                                  ' -r' if rnd else '', ' -si' if si else ''))


def report(path):
    """{direction: {metric: value}} as printed."""
    out, table, cols, name = {}, None, None, None
    lines = [line.strip() for line in open(path, encoding='utf-8-sig')]
    for s in lines:
        if s.startswith('Command Line:'):
            name = name_of(s[len('Command Line:'):])
    if name is None:
        name = name_of_params(lines)
    for s in lines:
        if s.startswith('Command Line:'):
            pass
        elif s in ('Read IO', 'Write IO'):
            table = s.split()[0].lower()
        elif s.startswith('thread |') and table:
            cols = [c.strip() for c in s.split('|')][1:]
        elif s.startswith('total:') and table and cols:
            vals = [None if v.strip() == 'N/A' else float(v) for v in s[6:].split('|')]
            d = dict(zip(cols, vals))
            m = out.setdefault(table, {})
            m['iops'] = d['I/O per s']
            m['bw_MB_per_s'] = d['MiB/s'] * 1048576 / 1e6
            if d.get('AvgLat') is not None and d['I/Os'] > 0:
                m['lat_mean_ns'] = d['AvgLat'] * 1e6
            table = None
        elif s.startswith('%-ile'):
            table = 'pct'
        elif table == 'pct' and '|' in s:
            f = [x.strip() for x in s.split('|')]
            for d, v in (('read', f[1]), ('write', f[2])):
                if f[0] in LEVELS and v != 'N/A':
                    out.setdefault(d, {})['lat_%s_ns' % LEVELS[f[0]]] = float(v) * 1e6
    return name, out


def main():
    name, want = report(sys.argv[1])
    rows = {(r['job'], r['direction']): r for r in json.load(open(sys.argv[2]))['results']}
    bad, n = [], 0
    for d, metrics in want.items():
        r = rows.get((name, d))
        if r is None:
            bad.append('%s %s: missing in nvanalyze output' % (name, d))
            continue
        side = next(iter(r['sides'].values()))
        for k, v in metrics.items():
            got = side.get(k)
            if got is None or abs(got - v) > 1e-6 * max(abs(v), 1):
                bad.append('%s %s %s: %r, report %r' % (name, d, k, got, v))
            n += 1
    if not want:
        bad.append('no totals found in the report')
    if bad:
        print('\n'.join(bad))
        return 1
    print('%d values' % n)
    return 0


if __name__ == '__main__':
    sys.exit(main())
