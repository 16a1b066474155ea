# For every fio JSON file (the real-world fixtures in ../shared/fixtures/fio-json
# and the outputs generated in tests/data/fio-json), `nvanalyze --format json
# FILE` must report, for every job and direction, the same IOPS, bandwidth,
# latency mean/max/stdev and percentiles as the file itself.  The expected
# values are computed here independently, in Python, straight from the file.
. "$(dirname "$0")/../lib.sh"

fixtures="$TOP/../shared/fixtures/fio-json"
files=()
if [ -d "$fixtures" ]; then
	files+=("$fixtures"/*.json)
else
	skip fixtures "no $fixtures"
fi
files+=("$TOP"/tests/data/fio-json/*.json)

for f in "${files[@]}"; do
	name=$(basename "$f" .json)
	for lat in clat lat; do
		if ! "$NVANALYZE" --format json --lat "$lat" "$f" >"$T/$name.$lat.json" 2>"$T/$name.err"; then
			# --lat asks for a statistic; fio 2.x files or idle jobs may lack it
			if [ "$lat" = lat ] && grep -q "has no lat statistics" "$T/$name.err"; then
				continue
			fi
			fail "$name/$lat" "nvanalyze exited non-zero: $(head -c 300 "$T/$name.err")"
			continue
		fi
		if out=$(python3 - "$f" "$T/$name.$lat.json" "$lat" 2>&1 <<'PY'
import json, sys

path, outpath, lat = sys.argv[1], sys.argv[2], sys.argv[3]
raw = open(path, 'rb').read()
if raw[:2] in (b'\xff\xfe', b'\xfe\xff'):
    txt = raw.decode('utf-16')
else:
    txt = raw.decode('utf-8-sig')

# The fio object: the last complete JSON object with "jobs"/"client_stats".
dec = json.JSONDecoder()
objs, i = [], 0
while True:
    i = txt.find('{', i)
    if i < 0:
        break
    try:
        o, end = dec.raw_decode(txt, i)
    except ValueError:
        i += 1
        continue
    if isinstance(o, dict) and ('jobs' in o or 'client_stats' in o):
        objs.append(o)
        i = end
    else:
        i += 1
root = objs[-1]
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
    if keys.count(k) > 1:
        final.append('%s #%d' % (k, keys[:n].count(k) + 1))
    else:
        final.append(k)

def active(d):
    if 'total_ios' in d:
        return d['total_ios'] > 0
    return d.get('io_bytes', 0) > 0 or d.get('iops', 0) > 0

def latobj(d, kind):
    if kind + '_ns' in d:
        return d[kind + '_ns'], 1
    if kind in d:
        return d[kind], 1000
    return None, 1

PCTS = {'p50': 50.0, 'p95': 95.0, 'p99': 99.0, 'p99.9': 99.9, 'p99.99': 99.99}
expected = {}
for e, k in zip(entries, final):
    for dname in ('read', 'write', 'trim', 'sync', 'mixed'):
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
        lo, mult = latobj(d, kind)
        have = lo is not None and active(d)
        if have and 'N' in lo:
            have = lo['N'] > 0
        elif have:
            have = not (lo['min'] == 0 and lo['max'] == 0 and lo['mean'] == 0)
        for stat, fk in (('mean', 'mean'), ('max', 'max'), ('stdev', 'stddev')):
            ex['%s_%s_ns' % (kind, stat)] = lo[fk] * mult if have else None
        pct = (lo or {}).get('percentile', {}) if have else {}
        for name, p in PCTS.items():
            v = None
            for pk, pv in pct.items():
                if abs(float(pk) - p) < 1e-6:
                    v = pv * mult
            ex['%s_%s_ns' % (kind, name)] = v
        expected[(k, dname)] = (ex, active(d))

got = json.load(open(outpath))
assert len(got['sides']) == 1
label = got['sides'][0]['label']
seen = set()
bad = []
checked = 0
for r in got['results']:
    kk = (r['job'], r['direction'])
    seen.add(kk)
    if kk not in expected:
        bad.append('unexpected %s' % (kk,))
        continue
    ex, act = expected[kk]
    if r['active'] != act:
        bad.append('%s active %s != %s' % (kk, r['active'], act))
    vals = r['sides'][label]
    for name, v in ex.items():
        g = vals.get(name, 'ABSENT')
        if v is None or g is None:
            ok = v is None and (g is None or g == 'ABSENT')
            # rows never shown (no value in the file) may be left out entirely
        else:
            ok = g != 'ABSENT' and abs(g - v) <= 1e-12 * max(1.0, abs(v))
        if not ok:
            bad.append('%s %s: nvanalyze %r, file %r' % (kk, name, g, v))
        checked += 1
missing = set(expected) - seen
if missing:
    bad.append('not reported: %s' % sorted(missing))
if bad:
    print('; '.join(bad[:6]))
    sys.exit(1)
print('%d values' % checked)
PY
		); then
			pass "$name/$lat ($out)"
		else
			fail "$name/$lat" "$out"
		fi
	done
done
