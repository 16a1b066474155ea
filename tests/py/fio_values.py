"""An independent reader of fio's JSON output, and the check that
`nvanalyze --format json FILE` reports every number of the file as fio
wrote it (tests/integration/fio_json_values.sh runs it per file).

    python3 tests/py/fio_values.py FIO_JSON NVANALYZE_JSON LAT

Prints "N values" and exits 0, or prints the first differences and exits 1.
Written from fio's output format (stat.c), not from nvanalyze's C code.
"""
import json
import math
import sys

from lib import fiojson

PCTS = {'p50': 50.0, 'p95': 95.0, 'p99': 99.0, 'p99.9': 99.9, 'p99.99': 99.99}
DIRS = ('read', 'write', 'trim', 'sync', 'mixed')
DISK = (('read_ios', 'read_ios'), ('write_ios', 'write_ios'),
        ('read_merges', 'read_merges'), ('write_merges', 'write_merges'),
        ('read_ticks', 'read_ticks_ms'), ('write_ticks', 'write_ticks_ms'),
        ('in_queue', 'in_queue_ms'), ('util', 'util_pct'))
# fio spells the md aggregate of write_merges without the s
AGGR = {'write_merges': 'aggr_write_merge'}
BUCKET_UNITS = (('latency_ns', 1), ('latency_us', 1e3), ('latency_ms', 1e6))


# The fio object of a file: the last complete JSON object with "jobs" or
# "client_stats" (text around it, status-interval dumps, UTF-16).
load_fio = fiojson.load


def entries_and_keys(root):
    """The job entries and their matching keys (name, name@host with several
    hosts, " #N" for names that repeat)."""
    client = 'client_stats' in root
    entries = root['client_stats'] if client else root['jobs']
    hosts = {e.get('hostname') for e in entries if client and e['jobname'] != 'All clients'}

    def key(e):
        if client and len(hosts) > 1 and e['jobname'] != 'All clients':
            return '%s@%s' % (e['jobname'], e['hostname'])
        return e['jobname']
    keys = [key(e) for e in entries]
    final = []
    for n, k in enumerate(keys):
        final.append('%s #%d' % (k, keys[:n].count(k) + 1) if keys.count(k) > 1 else k)
    return entries, final


def counted(d):
    """The direction did IO by fio's counts (total_ios, else bytes or IOPS)."""
    if 'total_ios' in d:
        return d['total_ios'] > 0
    return d.get('io_bytes', 0) > 0 or d.get('iops', 0) > 0


def active(d):
    """Measured: latency samples (a latency object with N > 0; fdatasync's
    sync direction has total_ios 0), or IO done."""
    for kind in ('slat', 'clat', 'lat'):
        lo, _ = latobj(d, kind)
        if isinstance(lo, dict) and lo.get('N', 0) > 0:
            return True
    return counted(d)


def latobj(d, kind):
    if kind + '_ns' in d:
        return d[kind + '_ns'], 1
    if kind in d:
        return d[kind], 1000
    return None, 1


def io_bytes(d):
    """Bytes; fio 2.x wrote KiB in io_bytes (no io_kbytes): the unit that
    fits bw (KiB/s) * runtime (ms) wins, KiB when nothing tells."""
    b = d.get('io_bytes', 0)
    if 'io_kbytes' in d:
        return b
    bw, rt = d.get('bw', 0), d.get('runtime', 0)
    if bw > 0 and rt > 0:
        kib = bw * rt / 1000.0
        if abs(b - kib * 1024) < abs(b - kib):
            return b
    return b * 1024


def samples(d, prefix, devkey, mult, keyfmt):
    out = {}
    skip = d.get(prefix + '_samples') == 0
    for fk, ok in (('_min', 'min'), ('_max', 'max'), ('_mean', 'mean')):
        out[keyfmt % ok] = None if skip or prefix + fk not in d else d[prefix + fk] * mult
    out[keyfmt % ('stdev' if prefix == 'iops' else 'dev')] = \
        None if skip or devkey not in d else d[devkey] * mult
    return out


def lat_values(d, kind):
    ex = {}
    lo, mult = latobj(d, kind)
    have = lo is not None
    if have and 'N' in lo:
        have = lo['N'] > 0
    elif have:
        have = counted(d) and not (lo['min'] == 0 and lo['max'] == 0 and lo['mean'] == 0)
    for stat, fk in (('min', 'min'), ('mean', 'mean'), ('max', 'max'), ('stdev', 'stddev')):
        ex['%s_%s_ns' % (kind, stat)] = lo[fk] * mult if have else None
    pct = (lo or {}).get('percentile', {}) if have else {}
    for name, p in PCTS.items():
        v = None
        for pk, pv in pct.items():
            if abs(float(pk) - p) < 1e-6:
                v = pv * mult
        ex['%s_%s_ns' % (kind, name)] = v
    return ex


def job_values(e):
    ex = {}
    for fk, ok in (('usr_cpu', 'usr_cpu_pct'), ('sys_cpu', 'sys_cpu_pct'),
                   ('ctx', 'ctx_switches'), ('majf', 'major_faults'),
                   ('minf', 'minor_faults'), ('error', 'fio_error')):
        ex[ok] = e.get(fk)
    return ex


def buckets(e):
    """fio's latency buckets: [from_ns, to_ns) by edge, ">=" last."""
    out = []
    for key, mult in BUCKET_UNITS:
        for k, v in (e.get(key) or {}).items():
            if k.startswith('>='):
                out.append((float(k[2:]) * mult, None, v))
            else:
                out.append((None, float(k) * mult, v))
    out.sort(key=lambda b: math.inf if b[1] is None else b[1])
    prev = 0.0
    res = []
    for lo, hi, v in out:
        res.append((lo if hi is None else prev, hi, v))
        if hi is not None:
            prev = hi
    return res


def expected_values(root, lat):
    entries, keys = entries_and_keys(root)
    expected = {}
    for e, k in zip(entries, keys):
        for dname in DIRS:
            d = e.get(dname)
            if not isinstance(d, dict):
                continue
            kind = 'lat' if dname == 'sync' else lat
            ex = {}
            if 'iops' in d:
                ex['iops'] = d['iops']
            if 'bw_bytes' in d:
                ex['bw_MB_per_s'] = d['bw_bytes'] / 1e6
            elif 'bw' in d:
                ex['bw_MB_per_s'] = d['bw'] * 1024 / 1e6
            ex.update(lat_values(d, kind))
            if 'io_bytes' in d:
                ex['io_bytes'] = io_bytes(d)
            ex['runtime_ns'] = d['runtime'] * 1e6 if 'runtime' in d else None
            ex.update(samples(d, 'bw', 'bw_dev', 1024 / 1e6, 'bw_%s_MB_per_s'))
            ex.update(samples(d, 'iops', 'iops_stddev', 1, 'iops_%s'))
            ex.update(job_values(e))
            expected[(k, dname)] = (ex, active(d), buckets(e))
    return expected


def close(a, b):
    return abs(a - b) <= 1e-12 * max(1.0, abs(b))


def check_value(bad, where, g, v):
    if v is None or g is None:
        # rows never shown (no value in the file) may be left out entirely
        ok = v is None and (g is None or g == 'ABSENT')
    else:
        ok = g != 'ABSENT' and close(g, v)
    if not ok:
        bad.append('%s: nvanalyze %r, file %r' % (where, g, v))


def check_buckets(bad, kk, got, want):
    if len(got) != len(want):
        bad.append('%s buckets: %d, file %d' % (kk, len(got), len(want)))
        return
    for g, (lo, hi, v) in zip(got, want):
        ok = close(g['from_ns'], lo) and g['share_pct'] is not None and close(g['share_pct'], v)
        ok = ok and (g['to_ns'] is None if hi is None else close(g['to_ns'], hi))
        if not ok:
            bad.append('%s bucket %r, file %r' % (kk, g, (lo, hi, v)))


def check_disks(bad, root, side):
    want = root.get('disk_util') or []
    got = {d['name']: d for d in side.get('disk_util', [])}
    n = 0
    for w in want:
        g = got.get(w.get('name'))
        if g is None:
            bad.append('disk %s not reported' % w.get('name'))
            continue
        for fk, ok in DISK:
            check_value(bad, 'disk %s %s' % (w['name'], ok), g.get(ok, 'ABSENT'), w.get(fk))
            ak = AGGR.get(fk, 'aggr_' + fk)
            if ak in w:
                check_value(bad, 'disk %s aggr_%s' % (w['name'], ok),
                            g.get('aggr_' + ok, 'ABSENT'), w[ak])
            n += 1
    return n


def check(path, outpath, lat):
    root = load_fio(path)
    expected = expected_values(root, lat)
    got = json.load(open(outpath))
    assert len(got['sides']) == 1
    label = got['sides'][0]['label']
    seen, bad = set(), []
    checked = check_disks(bad, root, got['sides'][0])
    for r in got['results']:
        kk = (r['job'], r['direction'])
        seen.add(kk)
        if kk not in expected:
            bad.append('unexpected %s' % (kk,))
            continue
        ex, act, bk = expected[kk]
        if r['active'] != act:
            bad.append('%s active %s != %s' % (kk, r['active'], act))
        vals = r['sides'][label]
        for name, v in ex.items():
            check_value(bad, '%s %s' % (kk, name), vals.get(name, 'ABSENT'), v)
            checked += 1
        check_buckets(bad, kk, vals.get('fio_latency_buckets', []), bk)
        checked += len(bk)
    for s in got.get('summary', []):
        kk = (s['job'], s['direction'])
        for key in ('iops', 'bw_MB_per_s'):
            if key in s:
                check_value(bad, 'summary %s %s' % (kk, key), s[key][label],
                            expected[kk][0].get(key))
                checked += 1
    missing = set(expected) - seen
    if missing:
        bad.append('not reported: %s' % sorted(missing))
    if bad:
        print('; '.join(bad[:6]))
        return 1
    print('%d values' % checked)
    return 0


if __name__ == '__main__':
    sys.exit(check(sys.argv[1], sys.argv[2], sys.argv[3]))
