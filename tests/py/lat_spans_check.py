"""The shaded spans of an -o directory's lat_* figures (analyze/figures/
gnuplot.c lat_spans): in order and disjoint (overlapping episodes drawn as
their union), and every spike episode of tables.json inside one of its
job's spans.

    lat_spans_check.py DIR   prints "ok N spans, M episodes" or the problems.
"""
import glob, json, os, re, sys

d = sys.argv[1]
rect = re.compile(r'^set object rect from ([-0-9.e+]+), graph 0 to ([-0-9.e+]+), graph 1 ')
spans, bad = {}, []
for path in sorted(glob.glob(os.path.join(d, 'lat_*.gp'))):
    s = [(float(m.group(1)), float(m.group(2))) for m in map(rect.match, open(path)) if m]
    for (a0, b0), (a1, b1) in zip(s, s[1:]):
        if not (a0 <= b0 <= a1 <= b1):  # touching after rounding to 6 digits: fine
            bad.append('%s: spans %s and %s overlap or are out of order' %
                       (os.path.basename(path), (a0, b0), (a1, b1)))
    spans[os.path.basename(path)] = s
nep = 0
for tr in json.load(open(os.path.join(d, 'tables.json'))).get('traces', []):
    for sp in tr['findings']['spikes']:
        for ep in sp['episodes']:
            if ep['slow_ios'] < 2:
                continue
            nep += 1
            a = ep['start_s']
            # 6 significant digits in the script; the job's figure holds it
            if not any(lo - 1e-5 * max(1, abs(lo)) <= a <= hi + 1e-5 * max(1, abs(hi))
                       for s in spans.values() for lo, hi in s):
                bad.append('episode at %s s (%s) in no span' % (a, sp['op']))
n = sum(len(s) for s in spans.values())
if not n:
    bad.append('no shaded span in %d lat_* scripts' % len(spans))
print('; '.join(bad[:5]) or 'ok %d spans, %d episodes' % (n, nep))
