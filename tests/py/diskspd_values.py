"""An independent reader of diskspd text reports, and the check that
`nvanalyze --format json REPORT` reports each direction's IOPS, MB/s, bytes,
runtime, mean and stdev latency, min/max, every -L percentile level and the
CPU split as the report prints them (tests/integration/diskspd.sh runs it
per file).

    python3 tests/py/diskspd_values.py REPORT NVANALYZE_JSON

Prints "N values" and exits 0, or the differences and exits 1.  Written
from the report's text (diskspd 2.0-2.2, as its ResultParser prints it),
not from nvanalyze's C code.  Layout facts it relies on:
  - the test is named as jobs/diskspd/ names it, from "Command Line:" or,
    where the report has none, the first target's "Input parameters:";
  - "Read IO" and "Write IO" tables end in a "total:" row whose columns the
    "thread |" header names (AvgLat, IopsStdDev, LatStdDev are optional);
  - with -L there is one "%-ile" table for all targets, after a "total:"
    or "Total latency distribution:" line; a report with several targets
    prints one table per target first, each after the target's path:
    those are not the totals;
  - the %-ile table's columns are Read, Write and Total (all operations):
    Total is the "mixed" direction when the test both reads and writes;
    its levels go down to 9-nines (99.9999999), each with a key of its own
    (fio's "%f", 7 decimals where 6 cannot tell it from 100);
  - the CPU table's "avg.|" row ends in "Usage% | User% | Kernel% | Idle%";
  - before 2.0.18 the bandwidth column is headed "MB/s" but holds MiB/s (the
    code divides by 1024 twice), and the one %-ile table follows the Write
    IO table's total row; the command line may be wrapped onto the lines
    right after it (up to a blank line), inside a word at 80 characters;
  - a report may be in UTF-8 or, from a Russian console, cp1251;
  - -F N (2.0.x: N threads in all, each on every file) names the threads as
    -t N does;
  - a file may hold several reports, each from its "Command Line:" line
    (a session pasted whole): report k is the k-th side of the JSON.
"""
import json
import re
import sys

from lib import valuecheck

NINES = re.compile(r'^(\d)-nines$')
TOTAL_TABLE = ('total:', 'Total latency distribution:')


def name_of(cmd):
    """jobs/diskspd/'s name for the command line's parameters."""
    opt = {'b': '64K', 't': '1', 'o': '2', 'w': '0'}
    rnd = si = False
    for tok in cmd.split():
        if tok[:1] in '-/' and len(tok) > 1:
            if tok[1] in 'btowF':
                opt[tok[1].replace('F', 't')] = tok[2:]
            rnd |= tok[1] == 'r'
            si |= tok[1:3] == 'si'
    w = int(opt['w'])
    kind = 'read' if w == 0 else 'write' if w >= 100 else 'rw'
    name = '%s%s-%s-t%s-qd%s' % ('rand' if rnd else 'seq', kind, opt['b'].lower(),
                                 opt['t'], opt['o'])
    return name + ('-si' if si else '') + ('-w%d' % w if 0 < w < 100 else '')


def first_target(lines):
    """The "Input parameters:" lines up to the second target's "path:"."""
    out, paths = [], 0
    for s in lines:
        if s.startswith('Results for timespan'):
            break
        paths += s.startswith('path:')
        if paths > 1:
            break
        out.append(s)
    return out


def name_of_params(lines):
    """The same name from the first target's input parameters."""
    p = {'b': '64K', 't': '1', 'o': '2', 'w': '0'}
    rnd = si = False
    for s in first_target(lines):
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


def level(label):
    """A %-ile row's percentile ("25th" 25, "3-nines" 99.9); 'min'/'max' as is."""
    if label in ('min', 'max'):
        return label
    m = NINES.match(label)
    if m:
        return 100 - 10.0 ** (2 - int(m.group(1)))
    return float(label[:-2])


def io_total(s, cols, runtime_s):
    """One direction's metrics from its IO table's "total:" row."""
    vals = [None if v.strip() == 'N/A' else float(v) for v in s[6:].split('|')]
    d = dict(zip(cols, vals))
    mib = d['MiB/s'] if 'MiB/s' in d else d['MB/s']
    m = {'iops': d['I/O per s'], 'bw_MB_per_s': mib * 1048576 / 1e6,
         'io_bytes': d['bytes']}
    if runtime_s is not None:
        m['runtime_ns'] = runtime_s * 1e9
    if d['I/Os'] > 0:
        for col, key in (('AvgLat', 'lat_mean_ns'), ('LatStdDev', 'lat_stdev_ns')):
            if d.get(col) is not None:
                m[key] = d[col] * 1e6
    return m


def level_key(lv):
    """A level's key in the JSON's percentile object: "%f", or 7 decimals."""
    return '%f' % lv if abs(float('%f' % lv) - lv) < 1e-9 else '%.7f' % lv


def add_levels(out, rows, both):
    """The total %-ile table's rows into each direction's metrics (both: the
    test reads and writes, so Total is a direction of its own, "mixed")."""
    named = {50: 'p50', 95: 'p95', 99: 'p99', 99.9: 'p99.9', 99.99: 'p99.99'}
    for lab, rd, wr, tot in rows:
        lv = level(lab)
        for d, v in (('read', rd), ('write', wr)) + ((('mixed', tot),) if both else ()):
            if v == 'N/A':
                continue
            m, ns = out.setdefault(d, {}), float(v) * 1e6
            if lv in ('min', 'max'):
                m['lat_%s_ns' % lv] = ns
                continue
            if lv in named:
                m['lat_%s_ns' % named[lv]] = ns
            m.setdefault('fio_lat_percentiles_ns', {})[level_key(lv)] = ns


def pct_tables(lines):
    """[(preceding line, rows)] of every %-ile table."""
    out = []
    for i, s in enumerate(lines):
        if s.startswith('%-ile'):
            rows = []
            for r in lines[i + 1:]:
                if r.startswith('---'):
                    continue
                if '|' not in r:
                    break
                rows.append(([x.strip() for x in r.split('|')] + ['N/A'])[:4])
            prev = [p for p in lines[:i] if p]
            out.append((prev[-1] if prev else '', rows))
    return out


def cpu(lines):
    """(user %, kernel %) of the CPU table's avg. row."""
    for s in lines:
        if s.startswith('avg.|'):
            f = [float(x.strip().rstrip('%')) for x in s.split('|')[1:]]
            return f[-3], f[-2]
    return None


def reports(path):
    """[{(name, direction): {metric: value}}] of each report, as printed."""
    with open(path, 'rb') as f:
        raw = f.read()
    try:
        text = raw.decode('utf-8-sig')
    except UnicodeDecodeError:
        text = raw.decode('cp1251')
    lines = [line.strip() for line in text.splitlines()]
    starts = [i for i, s in enumerate(lines) if s.startswith('Command Line:')]
    if len(starts) < 2:
        return [report(path, lines)]
    segs = [lines[a:b] for a, b in zip(starts, starts[1:] + [len(lines)])]
    if not any(s.startswith('Results for timespan') for s in segs[-1]):
        last = segs.pop()  # a last report cut before its results: none
        segs[-1] += last
    return [report(path, seg) for seg in segs]


def report(path, lines):
    """{(name, direction): {metric: value}} of one report's lines, as printed."""
    if sum(s.startswith('Results for timespan') for s in lines) != 1:
        raise SystemExit('%s: this reader takes one timespan per report' % path)
    cmd = [i for i, s in enumerate(lines) if s.startswith('Command Line:')]
    if cmd:
        full, i = lines[cmd[0]][13:], cmd[0] + 1
        while i < len(lines) and lines[i]:
            full += lines[i] if len(lines[i - 1]) % 80 == 0 else ' ' + lines[i]
            i += 1
    name = name_of(full) if cmd else name_of_params(lines)
    out, table, cols, runtime = {}, None, None, None
    for s in lines:
        if s.startswith('actual test time:'):
            runtime = float(s.split(':')[1].strip().rstrip('s'))
        elif s in ('Read IO', 'Write IO'):
            table = s.split()[0].lower()
        elif s.startswith('thread |') and table:
            cols = [c.strip() for c in s.split('|')][1:]
        elif s.startswith('total:') and table and cols:
            out[table] = io_total(s, cols, runtime)
            table = None
    totals = [rows for prev, rows in pct_tables(lines)
              if prev in TOTAL_TABLE or prev.startswith('total: ')]
    if totals:
        both = all(out.get(d, {}).get('io_bytes', 0) > 0 for d in ('read', 'write'))
        add_levels(out, totals[-1], both)
    usr_sys = cpu(lines)
    for m in out.values():
        if usr_sys:
            m['usr_cpu_pct'], m['sys_cpu_pct'] = usr_sys
    return {(name, d): m for d, m in out.items()}


def main(path, json_path):
    """Compare each report of path with its side.  Return: the exit status."""
    want = reports(path)
    if len(want) == 1:
        return valuecheck.main(want[0], json_path, rel=1e-6)
    with open(json_path) as f:
        doc = json.load(f)
    bad, n = [], 0
    if len(doc['sides']) != len(want):
        bad.append('%d reports, %d sides' % (len(want), len(doc['sides'])))
    for k, w in enumerate(want):
        got = {(r['job'], r['direction']): list(r['sides'].values())[k]
               for r in doc['results'] if len(r['sides']) > k}
        got = {key: {m: {lv: x for lv, x in y.items() if x is not None}
                     if isinstance(y, dict) else y for m, y in v.items()}
               for key, v in got.items() if v and v.get('present')}
        b, m = valuecheck.compare(w, got, rel=1e-6)
        bad += ['report %d: %s' % (k + 1, x) for x in b]
        n += m
    return valuecheck.finish(bad, '%d reports, %d values' % (len(want), n))


if __name__ == '__main__':
    sys.exit(main(sys.argv[1], sys.argv[2]))
