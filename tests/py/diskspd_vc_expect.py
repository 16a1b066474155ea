"""VirtualClient's expectations of diskspd's latency table, against
nvanalyze: every "read|write|total latency LEVEL" value that VirtualClient's
DiskSpd parser tests assert (tests/fixtures/diskspd/
VirtualClient__DiskSpdMetricsParserTests.latency.tsv, provenance in that
folder's SOURCES.md) must be what `nvanalyze --format json --percentiles
LEVELS REPORT` reports, 25th to 9-nines, min and max.

    python3 tests/py/diskspd_vc_expect.py TSV REPORT_NAME NVANALYZE_JSON

Read, Write: their directions.  Total (the %-ile table's Total column, all
operations): the "mixed" direction where the test both reads and writes,
else the one direction it has (the same column printed twice).  Prints "N
values" and exits 0, or the differences and exits 1 (also with none).
"""
import json
import re
import sys


def level_key(label):
    """'25th' -> 'lat_p25_ns', '9-nines' -> 'lat_p99.9999999_ns', min, max."""
    if label in ('min', 'max'):
        return 'lat_%s_ns' % label
    m = re.match(r'^(\d)-nines$', label)
    if m:
        n = int(m.group(1))
        return 'lat_p99.%s_ns' % ('9' * (n - 2))
    return 'lat_p%s_ns' % label[:-2]


def main(tsv, report, json_path):
    dirs = {}
    for r in json.load(open(json_path))['results']:
        dirs[r['direction']] = next(iter(r['sides'].values()))
    active = [d for d in ('read', 'write') if (dirs.get(d) or {}).get('iops')]
    bad, n = [], 0
    for line in open(tsv):
        if line.startswith('#') or not line.strip():
            continue
        f, col, label, ms = line.rstrip('\n').split('\t')
        if f != report:
            continue
        d = col if col != 'total' else 'mixed' if len(active) == 2 else active[0]
        key = level_key(label)
        got = (dirs.get(d) or {}).get(key)
        n += 1
        if got is None or abs(got - float(ms) * 1e6) > 0.5:
            bad.append('%s latency %s (%s %s): nvanalyze %r, VirtualClient %s ms'
                       % (col, label, d, key, got, ms))
    print('; '.join(bad[:6]) if bad else '%d values' % n)
    return 1 if bad or not n else 0


if __name__ == '__main__':
    sys.exit(main(*sys.argv[1:4]))
