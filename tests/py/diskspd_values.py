"""An independent reader of diskspd text and XML (-Rxml) reports, and the
check that `nvanalyze --format json REPORT` reports each direction's IOPS,
MiB/s, mean latency and the -L percentiles as the report prints them
(tests/integration/diskspd.sh runs it per file).  XML is read with
xml.etree from the schema diskspd's XmlResultParser.cpp writes; a metric
the report does not hold must be missing (null) in nvanalyze's output.

    python3 tests/py/diskspd_values.py REPORT NVANALYZE_JSON

Prints "N values" and exits 0, or the differences and exits 1.  Written
from the report's text (diskspd's ResultParser layout), not from
nvanalyze's C code.
"""
import codecs
import json
import re
import sys
import xml.etree.ElementTree as ET

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


XML_LEVELS = {'0': 'min', '50': 'p50', '95': 'p95', '99': 'p99', '99.9': 'p99.9',
              '99.99': 'p99.99', '100': 'max'}
METRICS = (['iops', 'bw_MB_per_s', 'lat_mean_ns', 'lat_stdev_ns', 'usr_cpu_pct', 'sys_cpu_pct',
            'iops_min', 'iops_max', 'iops_mean', 'iops_stdev'] +
           ['lat_%s_ns' % v for v in XML_LEVELS.values()])


def xml_text(path):
    """The file as text: UTF-16 with a BOM (PowerShell's >) or UTF-8."""
    raw = open(path, 'rb').read()
    if raw[:2] in (codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE):
        return raw.decode('utf-16')
    return raw.decode('utf-8-sig')


def xml_name(root, ts_index):
    """jobs/diskspd/'s name from the Profile's timespan (its first Target)."""
    spans = root.findall('Profile/TimeSpans/TimeSpan')
    opt, rnd, si = {'b': '64K', 't': '1', 'o': '2', 'w': '0'}, False, False
    if ts_index < len(spans):
        span = spans[ts_index]
        t = span.find('Targets/Target')
        if t is not None:
            b = int(t.findtext('BlockSize', '65536'))
            opt['b'] = ('%dM' % (b >> 20) if b % 1048576 == 0 else
                        '%dK' % (b >> 10) if b % 1024 == 0 else str(b))
            opt['o'] = t.findtext('RequestCount', '2').strip()
            opt['w'] = t.findtext('WriteRatio', '0').strip()
            opt['t'] = t.findtext('ThreadsPerFile', '1').strip()
            rnd = t.find('Random') is not None
            si = t.findtext('InterlockedSequential', 'false').strip() == 'true'
        if int(span.findtext('ThreadCount', '0')) > 0:
            opt['t'] = span.findtext('ThreadCount').strip()
    name = name_of('-b%s -t%s -o%s -w%s%s%s' % (opt['b'], opt['t'], opt['o'], opt['w'],
                                                 ' -r' if rnd else '', ' -si' if si else ''))
    return name if ts_index == 0 else '%s #%d' % (name, ts_index + 1)


def xml_cpu(ts):
    """usr_cpu_pct and sys_cpu_pct: the Average, else the CPUs' mean."""
    out = {}
    for key, tag in (('usr_cpu_pct', 'UserPercent'), ('sys_cpu_pct', 'KernelPercent')):
        avg = ts.findtext('CpuUtilization/Average/' + tag)
        cpus = [float(c.findtext(tag)) for c in ts.findall('CpuUtilization/CPU')
                if c.findtext(tag) is not None]
        if avg is not None:
            out[key] = float(avg)
        elif cpus:
            out[key] = sum(cpus) / len(cpus)
    return out


def xml_iops(ts, tag):
    """The -D IOPS samples of the TimeSpan's own <Iops>."""
    out, iops = {}, ts.find('Iops')
    if iops is None:
        return out
    vals = [float(b.get(tag)) for b in iops.findall('Bucket') if b.get(tag) is not None]
    if vals:
        out.update(iops_min=min(vals), iops_max=max(vals), iops_mean=sum(vals) / len(vals))
    dev = iops.findtext(tag + 'IopsStdDev')
    if dev is not None:
        out['iops_stdev'] = float(dev)
    return out


def xml_report(path):
    """[(name, {direction: {metric: value}})] per result TimeSpan."""
    root = ET.fromstring(xml_text(path))
    runs = []
    for i, ts in enumerate(root.findall('TimeSpan')):
        secs = float(ts.findtext('TestTimeSeconds'))
        out = {}
        for d, tag in (('read', 'Read'), ('write', 'Write')):
            n = b = latn = 0
            latsum = 0.0
            for t in ts.findall('Thread/Target'):
                n += int(t.findtext(tag + 'Count'))
                b += int(t.findtext(tag + 'Bytes'))
                avg = t.findtext('Average%sLatencyMilliseconds' % tag)
                if avg is not None and int(t.findtext(tag + 'Count')):
                    latsum += float(avg) * int(t.findtext(tag + 'Count'))
                    latn += int(t.findtext(tag + 'Count'))
            m = out.setdefault(d, {'iops': n / secs, 'bw_MB_per_s': b / secs / 1e6})
            m.update(xml_cpu(ts))
            m.update(xml_iops(ts, tag))
            if latn:  # without <Latency>'s mean: the Targets' weighted by their IOs
                m['lat_mean_ns'] = latsum / latn * 1e6
            lat = ts.find('Latency')
            if lat is not None and n:
                for key, elem in (('mean', 'Average%sMilliseconds'), ('stdev', '%sLatencyStdev')):
                    v = lat.findtext(elem % tag)
                    if v is not None:
                        m['lat_%s_ns' % key] = float(v) * 1e6
                for bucket in lat.findall('Bucket'):
                    level = bucket.findtext('Percentile').strip()
                    v = bucket.findtext(tag + 'Milliseconds')
                    if level in XML_LEVELS and v is not None:
                        m['lat_%s_ns' % XML_LEVELS[level]] = float(v) * 1e6
        runs.append((xml_name(root, i), out))
    return runs


def check(name, want, rows, bad, strict):
    """Compare one job's directions; strict: metrics not in want must be null."""
    n = 0
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
        for k in METRICS if strict else []:
            if k not in metrics and side.get(k) is not None:
                bad.append('%s %s %s: %r, not in the report' % (name, d, k, side[k]))
    return n


def main():
    path = sys.argv[1]
    xml = path.endswith('.xml') or open(path, 'rb').read(2) in (codecs.BOM_UTF16_LE,
                                                                codecs.BOM_UTF16_BE)
    runs = xml_report(path) if xml else [report(path)]
    rows = {(r['job'], r['direction']): r for r in json.load(open(sys.argv[2]))['results']}
    bad, n = [], 0
    for name, want in runs:
        n += check(name, want, rows, bad, xml)
    if not runs or not any(want for _, want in runs):
        bad.append('no totals found in the report')
    if bad:
        print('\n'.join(bad))
        return 1
    print('%d values' % n)
    return 0


if __name__ == '__main__':
    sys.exit(main())
