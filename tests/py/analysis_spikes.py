"""analysis.sh: latency spike episodes of a trace (--spike-factor 2, rules
of docs/analysis.md) computed again in Python and compared with the
"latency spikes" line of nvanalyze's report.

    analysis_spikes.py A.csv SPIKES.md   exit 0 when they agree; prints both
"""
import math, re, sys

from lib import tracecsv

recs = [tuple(map(int, l.split(",")[:2])) for l in open(sys.argv[1]).read().split("\n")[1:] if l]
t0, I = recs[0][0], 10**9
iv = {}
for s, c in recs:
    iv.setdefault((c - t0) // I, []).append(c - s)
p999 = sorted(tracecsv.percentile(sorted(v), 99.9) for v in iv.values())
T = math.ceil(p999[(len(p999) - 1) // 2] * 2)
eps = []
chains = []
for s, c in sorted((s, c) for s, c in recs if c - s >= T):
    if chains and s - t0 <= chains[-1][0] + T:
        chains[-1][0] = max(chains[-1][0], c - t0); chains[-1][1] += 1
    else:
        chains.append([c - t0, 1])
eps = [e for e in chains if e[1] >= 2]
single = len(chains) - len(eps)
text = open(sys.argv[2]).read()
m = re.search(r"(\d+) episodes?", text)
got_n = int(m.group(1)) if m else 0
got_ios = [int(x) for x in re.findall(r"\((\d+) IOs\)", text)]
m = re.search(r"(\d+) isolated slow IOs?", text)
got_single = int(m.group(1)) if m else 0
want_ios = [e[1] for e in eps][:10]
print("python", len(eps), want_ios, single, "nvanalyze", got_n, got_ios, got_single)
ok = got_n == len(eps) and got_ios == want_ios and got_single == single
ok = ok and ", 2x the median interval p99.9" in text
sys.exit(0 if ok else 1)
