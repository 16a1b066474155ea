"""An independent reader of diskspd XML reports (-Rxml), and the check
that `nvanalyze --format json REPORT.xml` reports each TimeSpan's
directions as the report holds them (tests/integration/diskspd.sh runs it
per XML file; tests/py/diskspdxml_damage.py on damaged ones):

    python3 tests/py/diskspdxml_values.py REPORT.xml NVANALYZE_JSON

Prints "N values" and exits 0, or the differences and exits 1.  Read with
xml.etree from the schema diskspd's XmlResultParser.cpp writes, not from
nvanalyze's C code: IOs and bytes of every Thread/Target summed, IOPS and
MB/s over TestTimeSeconds, the Latency element's means, deviations and
Buckets (Percentile 0 is min, 100 max; without its means the Targets'
weighted by their IOs), the TimeSpan's Iops (-D) and CpuUtilization's
Average (else the CPUs' mean); the name from the Profile's first Target
as jobs/diskspd/ names it.  The Buckets' TotalMilliseconds (all
operations) are the "mixed" direction's min, levels and max when the
TimeSpan both reads and writes.  A metric the report does not hold must be
missing (null) in nvanalyze's output, never zero.
"""
import codecs
import sys
import xml.etree.ElementTree as ET

from diskspd_values import name_of
from lib import valuecheck

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
        lat = ts.find('Latency')
        if lat is not None and all(out[d]['iops'] > 0 for d in ('read', 'write')):
            m = out['mixed'] = xml_cpu(ts)
            for bucket in lat.findall('Bucket'):
                level = bucket.findtext('Percentile').strip()
                v = bucket.findtext('TotalMilliseconds')
                if level in XML_LEVELS and v is not None:
                    m['lat_%s_ns' % XML_LEVELS[level]] = float(v) * 1e6
        runs.append((xml_name(root, i), out))
    return runs


def want_of(path):
    """{(name, direction): {metric: value}} of every result TimeSpan."""
    return {(name, d): m for name, out in xml_report(path) for d, m in out.items()}


def not_held(want, got):
    """Metrics (of METRICS) nvanalyze reports that the report does not hold."""
    return ['%s %s %s: nvanalyze %r, not in the report' % (key + (k, got[key][k]))
            for key, metrics in sorted(want.items()) if key in got
            for k in METRICS if k not in metrics and got[key].get(k) is not None]


def agrees(path, json_path):
    """Whether nvanalyze's JSON holds what this reader reads from path (for
    diskspd_damage.py; a report this reader cannot read never agrees)."""
    try:
        want = want_of(path)
    except Exception:  # noqa: BLE001  (damaged beyond this reader: nvanalyze must refuse it)
        return False
    got = valuecheck.sides(json_path)
    bad, _ = valuecheck.compare(want, got, 1e-6)
    return not bad and not not_held(want, got)


def main():
    want = want_of(sys.argv[1])
    got = valuecheck.sides(sys.argv[2])
    bad, n = valuecheck.compare(want, got, 1e-6)
    return valuecheck.finish(not_held(want, got) + bad, '%d values' % n)


if __name__ == '__main__':
    sys.exit(main())
