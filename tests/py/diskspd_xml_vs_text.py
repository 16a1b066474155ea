"""The XML (-Rxml) and text reports of one diskspd run read the same, for
tests/integration/diskspd.sh:

    python3 tests/py/diskspd_xml_vs_text.py XML_JSON TEXT_JSON

XML_JSON and TEXT_JSON are `nvanalyze --format json` of the two reports.
Every metric of every (job, direction) of the text's within 1e-4 relative
(the text's printing) of the XML's.  Prints "N values" and exits 0, or the
first differences and exits 1 (also when the text has no results).
"""
import json
import sys

KEYS = ['iops', 'bw_MB_per_s', 'lat_min_ns', 'lat_mean_ns', 'lat_p50_ns', 'lat_p95_ns',
        'lat_p99_ns', 'lat_p99.9_ns', 'lat_p99.99_ns', 'lat_max_ns', 'lat_stdev_ns',
        'io_bytes', 'runtime_ns', 'usr_cpu_pct', 'sys_cpu_pct']
# mixed: the %-ile table's Total column (all operations), its distribution only
MIXED_KEYS = ['lat_min_ns', 'lat_p50_ns', 'lat_p95_ns', 'lat_p99_ns', 'lat_p99.9_ns',
              'lat_p99.99_ns', 'lat_max_ns']


def sides(path):
    """{(job, direction): the first side's metrics} of an nvanalyze JSON."""
    return {(r['job'], r['direction']): next(iter(r['sides'].values()))
            for r in json.load(open(path))['results']}


def main():
    x, t = sides(sys.argv[1]), sides(sys.argv[2])
    bad, n = [], 0
    for k in t:
        for m in MIXED_KEYS if k[1] == 'mixed' else KEYS:
            a, b = x.get(k, {}).get(m), t[k].get(m)
            n += 1
            if a is None or b is None or abs(a - b) > 1e-4 * max(abs(b), 1):
                bad.append('%s %s: xml %r, text %r' % (k, m, a, b))
    print('; '.join(bad[:5]) if bad else '%d values' % n)
    sys.exit(1 if bad or not t else 0)


if __name__ == '__main__':
    main()
