"""Writes the diskspd text reports of this folder as diskspd 2.0.14-2.0.17
prints them (microsoft/diskspd ResultParser/ResultParser.cpp at a30bb41,
2.0.17; the same layout since a508341, 2.0.11): _PrintProfile,
_PrintCpuUtilization, _PrintSection ("MB/s" though it divides by 2^20),
_PrintLatencyPercentiles (one table, after the Write IO table; values
"%10.3lf" by Util::DoubleToStringHelper).  No real report of that layout
with its Results section was found (see tests/fixtures/paste/SOURCES.md);
these are written from the code, with numbers that add up.

    python3 tests/data/diskspd-old/gen.py    (rewrites the .txt files)
"""
import os

HERE = os.path.dirname(os.path.abspath(__file__))
DASH = '-' * 101


def profile(cmd, bs, qd, threads, w, rnd, lat, path):
    kind = ('performing read test' if w == 0 else 'performing write test' if w == 100 else
            'performing mix test (read/write ratio: %d/%d)' % (100 - w, w))
    io = ('using random I/O (alignment: %d)' % bs if rnd else
          'using sequential I/O (stride: %d)' % bs)
    out = ['', 'Command Line: %s' % cmd, '', 'Input parameters:', '',
           '\ttimespan:   1', '\t-------------', '\tduration: 60s', '\twarm up time: 5s',
           '\tcool down time: 0s']
    if lat:
        out.append('\tmeasuring latency')
    out += ['\trandom seed: 0', "\tpath: '%s'" % path, '\t\tthink time: 0ms',
            '\t\tburst size: 0', '\t\tsoftware cache disabled',
            '\t\thardware write cache disabled, writethrough on', '\t\t' + kind,
            '\t\tblock size: %d' % bs, '\t\t' + io,
            '\t\tnumber of outstanding I/O operations: %d' % qd,
            '\t\tthread stride size: 0', '\t\tthreads per file: %d' % threads,
            '\t\tusing I/O Completion Ports', '\t\tIO priority: normal', '']
    return out


def cpu(rows):
    out = ['', 'CPU |  Usage |  User  |  Kernel |  Idle', '-' * 43]
    for i, (u, k) in enumerate(rows):
        out.append('%4u| %6.2f%%| %6.2f%%|  %6.2f%%| %6.2f%%' % (i, u + k, u, k, 100 - u - k))
    out.append('-' * 43)
    n = len(rows)
    us, ks = sum(r[0] for r in rows) / n, sum(r[1] for r in rows) / n
    out.append('avg.| %6.2f%%| %6.2f%%|  %6.2f%%| %6.2f%%' % (us + ks, us, ks, 100 - us - ks))
    return out


def section(title, threads, secs, lat, path, size):
    """threads: [(bytes, ios, avglat_ms, latstd_ms)] of one direction (or summed)."""
    head = 'thread |       bytes     |     I/Os     |     MB/s   |  I/O per s '
    head += ('|  AvgLat  | LatStdDev ' if lat else '') + '|  file'
    out = ['', title, head, DASH]
    tb = ti = 0
    for t, (b, n, avg, sd) in enumerate(threads):
        row = '%6u | %15d | %12d | %10.2f | %10.2f' % (t, b, n, b / 1048576 / secs, n / secs)
        if lat:
            row += ' | %8.3f' % avg + (' |  %8.3f' % sd if n else ' |       N/A')
        out.append(row + ' | %s (%s)' % (path, size))
        tb, ti = tb + b, ti + n
    out.append(DASH)
    tot = 'total:   %15d | %12d | %10.2f | %10.2f' % (tb, ti, tb / 1048576 / secs, ti / secs)
    if lat:
        ws = [(n, avg, sd) for b, n, avg, sd in threads]
        m = sum(n * a for n, a, _ in ws) / ti if ti else 0
        sd = (sum(n * (s * s + (a - m) ** 2) for n, a, s in ws) / ti) ** 0.5 if ti else 0
        tot += ' | %8.3f' % m + (' |  %8.3f' % sd if ti else ' |       N/A')
    out.append(tot)
    return out


def pct(read, write, total):
    names = ['min', '25th', '50th', '75th', '90th', '95th', '99th', '3-nines', '4-nines',
             '5-nines', '6-nines', '7-nines', '8-nines', 'max']
    out = ['', '', '  %-ile |  Read (ms) | Write (ms) | Total (ms)', '-' * 46]
    for name, r, w, t in zip(names, read, write, total):
        rs = '%10.3f' % r if r is not None else 'N/A'
        ws = '%10.3f' % w if w is not None else 'N/A'
        out.append('%7s | %10s | %10s | %10.3f' % (name, rs, ws, t))
    return out


def report(cmd, bs, qd, threads, w, rnd, lat, path, size, rd, wr, cpus, pcts=None):
    out = profile(cmd, bs, qd, threads, w, rnd, lat, path)
    out += ['', 'Results for timespan 1:', '*' * 79, '', 'actual test time:\t60.00s',
            'thread count:\t\t%d' % threads, 'proc count:\t\t%d' % len(cpus)]
    out += cpu(cpus)
    both = [(a[0] + b[0], a[1] + b[1], (a[1] * a[2] + b[1] * b[2]) / (a[1] + b[1] or 1),
             max(a[3], b[3])) for a, b in zip(rd, wr)]
    out += section('Total IO', both, 60.0, lat, path, size)
    out += section('Read IO', rd, 60.0, lat, path, size)
    out += section('Write IO', wr, 60.0, lat, path, size)
    if lat:
        out += pct(*pcts)
    return out


def write(name, lines, enc='ascii', pre=(), post=()):
    text = '\r\n'.join(list(pre) + lines + list(post)) + '\r\n'
    with open(os.path.join(HERE, name), 'wb') as f:
        f.write(text.encode(enc))


# 1. 2.0.17, -L, random 70/30 8K on two threads: one %-ile table after Write IO.
rd = [(4937105408, 602674, 0.412, 0.233), (4940431360, 603080, 0.410, 0.229)]
wr = [(2115616768, 258254, 0.987, 0.611), (2118885376, 258653, 0.991, 0.604)]
P = ([0.061, 0.244, 0.356, 0.512, 0.701, 0.853, 1.377, 4.211, 11.024, 25.360, 31.007,
      31.007, 31.007, 31.007],
     [0.118, 0.612, 0.874, 1.203, 1.655, 2.004, 3.118, 8.640, 19.770, 40.102, 52.516,
      52.516, 52.516, 52.516],
     [0.061, 0.301, 0.455, 0.738, 1.106, 1.412, 2.441, 7.003, 16.881, 38.020, 52.516,
      52.516, 52.516, 52.516])
write('diskspd-2.0.17-randrw-L.txt',
      report('diskspd.exe -b8K -d60 -o4 -t2 -r -w30 -L -Sh -c1G D:\\test.dat', 8192, 4, 2,
             30, True, True, 'D:\\test.dat', '1024MB', rd, wr, [(2.41, 9.12), (1.87, 8.66)], P))

# 2. cp1251 with a Russian preamble, its command line wrapped at 80 columns
#    inside a word (cmd.exe's window), no -L: sequential 64K reads.
PATH = 'C:\\Users\\Администратор\\Documents\\тест\\io.dat'
cmd = 'diskspd.exe -b64K -d60 -o8 -t1 -si -w0 -Sh -c4G ' + PATH
rd = [(21474836480, 327680, 0, 0)]
wr = [(0, 0, 0, 0)]
lines = report(cmd, 65536, 8, 1, 0, False, False,
               PATH, '4096MB', rd, wr,
               [(0.52, 3.14), (0.31, 1.02)])
i = lines.index('Command Line: ' + cmd)
first = lines[i][:80]
lines[i:i + 1] = [first, lines[i][80:]]
lines = [s.replace('using sequential I/O', 'using interlocked sequential I/O') for s in lines]
write('diskspd-2.0.17-seqread-cp1251-wrapped.txt', lines, 'cp1251',
      pre=['Тестирование диска C: (Samsung SSD 850 EVO 500GB),',
           'Windows Server 2012 R2',
           'Дата: 14.05.2016, версия DiskSpd 2.0.17', ''])

# 3. Two runs of 2.0.15 in a PowerShell session log with prose between: 4K
#    random reads, then 64K (not repeats: two runs of their own).
rd1 = [(1503068160, 366960, 0.697, 0.310)]
rd2 = [(9663676416, 147456, 3.470, 1.022)]
wr0 = [(0, 0, 0, 0)]
P1 = ([0.102, 0.488, 0.611, 0.802, 1.044, 1.231, 1.802, 4.960, 9.875, 14.002, 14.002,
       14.002, 14.002, 14.002], [None] * 14,
      [0.102, 0.488, 0.611, 0.802, 1.044, 1.231, 1.802, 4.960, 9.875, 14.002, 14.002,
       14.002, 14.002, 14.002])
P2 = ([0.870, 2.806, 3.330, 3.995, 4.650, 5.166, 6.901, 11.003, 19.212, 22.600, 22.600,
       22.600, 22.600, 22.600], [None] * 14,
      [0.870, 2.806, 3.330, 3.995, 4.650, 5.166, 6.901, 11.003, 19.212, 22.600, 22.600,
       22.600, 22.600, 22.600])
run1 = report('diskspd.exe -b4K -d60 -o4 -t1 -r -w0 -L -Sh -c8G E:\\io.dat', 4096, 4, 1, 0,
              True, True, 'E:\\io.dat', '8GB', rd1, wr0, [(1.02, 6.33), (0.87, 5.41)], P1)
run2 = report('diskspd.exe -b64K -d60 -o8 -t1 -r -w0 -L -Sh -c8G E:\\io.dat', 65536, 8, 1, 0,
              True, True, 'E:\\io.dat', '8GB', rd2, wr0, [(0.44, 2.10), (0.39, 1.87)], P2)
write('diskspd-2.0.15-two-runs-session.txt',
      ['PS C:\\tools\\diskspd\\amd64fre> .\\diskspd.exe -b4K -d60 -o4 -t1 -r -w0 -L -Sh '
       '-c8G E:\\io.dat'] + run1 +
      ['', 'PS C:\\tools\\diskspd\\amd64fre> # the same disk with 64K blocks, as SQL Server '
       'reads its extents:', 'PS C:\\tools\\diskspd\\amd64fre> .\\diskspd.exe -b64K -d60 -o8 '
       '-t1 -r -w0 -L -Sh -c8G E:\\io.dat'] + run2 + ['', 'PS C:\\tools\\diskspd\\amd64fre> '])
