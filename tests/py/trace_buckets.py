"""Check nvanalyze's --buckets counts against a count of every IO.

    python3 tests/py/trace_buckets.py NVANALYZE_JSON DUMP_CSV EDGE_NS...

NVANALYZE_JSON: `nvanalyze --format json --buckets ...` of a traced read
job; DUMP_CSV: `nvanalyze dump` of its traces (one row per IO).  Prints
"N IOs" and exits 0, or the difference and exits 1.
"""
import json
import sys

from lib import tracecsv


def main(outpath, dumppath, edges):
    got = json.load(open(outpath))
    r = [x for x in got['results'] if x['direction'] == 'read'][0]
    b = list(r['sides'].values())[0]['trace_latency_buckets']
    want = [0] * (len(edges) + 1)
    for row in tracecsv.rows(dumppath):
        if row['op'] == 'read':
            lat = int(row['lat_ns'])
            want[sum(lat >= e for e in edges)] += 1
    bad = []
    if [x['ios'] for x in b] != want:
        bad.append('ios %r, dump %r' % ([x['ios'] for x in b], want))
    if [x['from_ns'] for x in b] != [0] + edges or b[-1]['to_ns'] is not None:
        bad.append('edges %r' % [(x['from_ns'], x['to_ns']) for x in b])
    if abs(sum(x['share_pct'] for x in b) - 100) > 1e-9:
        bad.append('shares sum to %r' % sum(x['share_pct'] for x in b))
    if bad:
        print('; '.join(bad))
        return 1
    print('%d IOs' % sum(want))
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1], sys.argv[2], [int(e) for e in sys.argv[3:]]))
