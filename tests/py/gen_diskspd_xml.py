"""Write a diskspd XML report (-Rxml) in the layout diskspd's
XmlResultParser.cpp writes (System, Profile, result TimeSpans with
CpuUtilization, Latency, Iops, Thread/Target), for tests and the bench.

    python3 tests/py/gen_diskspd_xml.py --randrw-L >OUT.xml
        the run of tests/data/diskspd/diskspd22-randrw-L.txt, as XML: the
        same per-thread counts, mean latencies, CPU and %-ile levels
    python3 tests/py/gen_diskspd_xml.py [--threads N] [--targets N]
            [--timespans N] [--buckets N] [--seed N] >OUT.xml
        a test of that shape with made-up counts (-L and -D on): each
        Target has --buckets Iops Buckets, so the size grows with
        threads * targets * buckets.

Synthetic data: the real reports are in tests/fixtures/diskspd (SOURCES.md).
"""
import argparse
import random
import sys

PCTS = ['%d' % p for p in range(1, 100)] + ['99.9', '99.99', '99.999', '99.9999',
                                              '99.99999', '99.999999', '99.9999999']
# diskspd22-randrw-L.txt's %-ile table (ms): level -> (read, write, total)
TEXT_PCT = {0: (0.051, 0.102, 0.051), 25: (0.270, 0.431, 0.301),
            50: (0.341, 0.598, 0.402), 75: (0.430, 0.801, 0.552),
            90: (0.512, 1.050, 0.760), 95: (0.601, 1.240, 0.930),
            99: (0.822, 1.702, 1.380), 99.9: (1.450, 2.910, 2.401),
            99.99: (3.020, 5.110, 4.620), 99.999: (7.880, 9.340, 9.010),
            99.9999: (9.120, 10.220, 10.220), 100: (9.120, 10.220, 10.220)}


class Out:
    """Indented XML lines, two spaces a level (diskspd 2.1 and later)."""

    def __init__(self):
        self.lines, self.depth = [], 0

    def open(self, tag, attrs=''):
        self.lines.append('  ' * self.depth + '<%s%s>' % (tag, attrs))
        self.depth += 1

    def close(self, tag):
        self.depth -= 1
        self.lines.append('  ' * self.depth + '</%s>' % tag)

    def leaf(self, tag, value):
        self.lines.append('  ' * self.depth + '<%s>%s</%s>' % (tag, value, tag))

    def raw(self, text):
        self.lines.append('  ' * self.depth + text)


def interp(level, col):
    """A made-up but monotonic value at level between the text's levels."""
    keys = sorted(TEXT_PCT)
    for lo, hi in zip(keys, keys[1:]):
        if lo <= level <= hi:
            a, b = TEXT_PCT[lo][col], TEXT_PCT[hi][col]
            return a + (b - a) * (level - lo) / (hi - lo)
    return TEXT_PCT[100][col]


def profile(o, spec):
    o.open('Profile')
    o.leaf('Progress', 0)
    o.leaf('ResultFormat', 'xml')
    o.open('TimeSpans')
    for _ in range(spec['timespans']):
        o.open('TimeSpan')
        o.leaf('MeasureLatency', 'true')
        o.leaf('CalculateIopsStdDev', 'true')
        o.leaf('Duration', spec['duration'])
        o.leaf('ThreadCount', 0)
        o.leaf('RequestCount', 0)
        o.leaf('IoBucketDuration', 1000)
        o.open('Targets')
        for k in range(spec['targets']):
            o.open('Target')
            o.leaf('Path', 'D:\\testfile%d.dat' % k)
            o.leaf('BlockSize', spec['bs'])
            o.leaf('Random', spec['bs'])
            o.leaf('ThreadStride', 0)
            o.leaf('RequestCount', spec['qd'])
            o.leaf('WriteRatio', spec['w'])
            o.leaf('ThreadsPerFile', spec['tpf'])
            o.close('Target')
        o.close('Targets')
        o.close('TimeSpan')
    o.close('TimeSpans')
    o.close('Profile')


def cpu(o, cpus):
    o.open('CpuUtilization')
    for i, (user, kernel) in enumerate(cpus):
        o.open('CPU')
        for tag, v in (('Socket', 0), ('Node', 0), ('Group', 0), ('Core', i), ('Id', i)):
            o.leaf(tag, v)
        o.leaf('UsagePercent', '%.2f' % (user + kernel))
        o.leaf('UserPercent', '%.2f' % user)
        o.leaf('KernelPercent', '%.2f' % kernel)
        o.leaf('IdlePercent', '%.2f' % (100 - user - kernel))
        o.close('CPU')
    n = len(cpus)
    o.open('Average')
    o.leaf('UsagePercent', '%.2f' % (sum(u + k for u, k in cpus) / n))
    o.leaf('UserPercent', '%.2f' % (sum(u for u, _ in cpus) / n))
    o.leaf('KernelPercent', '%.2f' % (sum(k for _, k in cpus) / n))
    o.leaf('IdlePercent', '%.2f' % (100 - sum(u + k for u, k in cpus) / n))
    o.close('Average')
    o.close('CpuUtilization')


def latency(o, lat):
    o.open('Latency', ' ReadHistoBuckets="100" WriteHistoBuckets="100" TotalHistoBuckets="100"')
    o.leaf('AverageReadMilliseconds', '%.3f' % lat['r'])
    o.leaf('ReadLatencyStdev', '%.3f' % lat['rdev'])
    o.leaf('AverageWriteMilliseconds', '%.3f' % lat['w'])
    o.leaf('WriteLatencyStdev', '%.3f' % lat['wdev'])
    o.leaf('AverageTotalMilliseconds', '%.3f' % lat['t'])
    o.leaf('LatencyStdev', '%.3f' % lat['tdev'])
    for p in ['0'] + PCTS + ['100']:
        level = float(p)
        r, w, t = (TEXT_PCT[level] if level in TEXT_PCT else
                   (interp(level, 0), interp(level, 1), interp(level, 2)))
        o.open('Bucket')
        o.leaf('Percentile', p)
        o.leaf('ReadMilliseconds', '%.3f' % r)
        o.leaf('WriteMilliseconds', '%.3f' % w)
        o.leaf('TotalMilliseconds', '%.3f' % t)
        o.close('Bucket')
    o.close('Latency')


def iops(o, buckets, rdev, wdev):
    o.open('Iops')
    o.leaf('ReadIopsStdDev', '%.3f' % rdev)
    o.leaf('WriteIopsStdDev', '%.3f' % wdev)
    o.leaf('IopsStdDev', '%.3f' % (rdev + wdev))
    for i, (r, w) in enumerate(buckets):
        o.raw('<Bucket SampleMillisecond="%d" Read="%d" Write="%d" Total="%d" '
              'ReadMinLatencyMilliseconds="0.051" ReadMaxLatencyMilliseconds="9.120" '
              'ReadAvgLatencyMilliseconds="0.358" ReadLatencyStdDev="0.120" '
              'WriteMinLatencyMilliseconds="0.102" WriteMaxLatencyMilliseconds="10.220" '
              'WriteAvgLatencyMilliseconds="0.642" WriteLatencyStdDev="0.310"/>'
              % (1000 * (i + 1), r, w, r + w))
    o.close('Iops')


def target(o, spec, k, rc, wc, buckets):
    bs = spec['bs']
    o.open('Target')
    o.leaf('Path', 'D:\\testfile%d.dat' % k)
    o.leaf('BytesCount', (rc + wc) * bs)
    o.leaf('FileSize', 1073741824)
    o.leaf('IOCount', rc + wc)
    o.leaf('ReadBytes', rc * bs)
    o.leaf('ReadCount', rc)
    o.leaf('WriteBytes', wc * bs)
    o.leaf('WriteCount', wc)
    o.leaf('AverageReadLatencyMilliseconds', '0.358')
    o.leaf('ReadLatencyStdev', '0.120')
    o.leaf('AverageWriteLatencyMilliseconds', '0.642')
    o.leaf('WriteLatencyStdev', '0.310')
    o.leaf('AverageLatencyMilliseconds', '0.443')
    o.leaf('LatencyStdev', '0.215')
    if buckets:
        iops(o, buckets, 10.5, 4.5)
    o.close('Target')


def report(spec, counts, cpus, lat, rng):
    """counts[timespan][thread][target] = (reads, writes)."""
    o = Out()
    o.open('Results')
    o.open('System')
    o.leaf('ComputerName', 'testbox')
    o.open('Tool')
    o.leaf('Version', '2.2')
    o.leaf('VersionDate', '2024/6/3')
    o.close('Tool')
    o.leaf('RunTime', '2026/11/30 10:00:00 UTC')
    o.close('System')
    profile(o, spec)
    for ts in counts:
        o.open('TimeSpan')
        o.leaf('TestTimeSeconds', '%.2f' % spec['time'])
        o.leaf('ThreadCount', len(ts))
        o.leaf('RequestCount', 0)
        o.leaf('ProcCount', len(cpus))
        cpu(o, cpus)
        latency(o, lat)
        nb = spec['buckets']
        total = [(rng.randint(0, 99) + 13980, rng.randint(0, 99) + 5990) for _ in range(nb)]
        iops(o, total, 10.5, 4.5)
        for i, thread in enumerate(ts):
            o.open('Thread')
            o.leaf('Id', i)
            for k, (rc, wc) in enumerate(thread):
                per = [(r // len(ts), w // len(ts)) for r, w in total[:nb]]
                target(o, spec, k, rc, wc, per)
            o.close('Thread')
        o.close('TimeSpan')
    o.close('Results')
    return '\n'.join(o.lines) + '\n'


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--randrw-L', action='store_true', dest='pair')
    ap.add_argument('--threads', type=int, default=4)
    ap.add_argument('--targets', type=int, default=1)
    ap.add_argument('--timespans', type=int, default=1)
    ap.add_argument('--buckets', type=int, default=10)
    ap.add_argument('--seed', type=int, default=1)
    a = ap.parse_args()
    rng = random.Random(a.seed)
    spec = {'bs': 4096, 'qd': 32, 'w': 30, 'tpf': a.threads, 'duration': 10, 'time': 10.0,
            'targets': a.targets, 'timespans': a.timespans, 'buckets': a.buckets}
    lat = {'r': 0.358, 'rdev': 0.120, 'w': 0.642, 'wdev': 0.310, 't': 0.443, 'tdev': 0.215}
    cpus = [(5.0, 35.0), (4.0, 34.0)]
    if a.pair:
        spec.update(tpf=4, targets=1, timespans=1, buckets=10)
        counts = [[[(350000, 150000)], [(349500, 149700)], [(349000, 149600)],
                   [(349500, 149700)]]]
    else:
        counts = [[[(rng.randint(300000, 400000), rng.randint(100000, 200000))
                    for _ in range(a.targets)] for _ in range(a.threads)]
                  for _ in range(a.timespans)]
    sys.stdout.write(report(spec, counts, cpus, lat, rng))


if __name__ == '__main__':
    main()
