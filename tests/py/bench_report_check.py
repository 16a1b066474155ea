"""bench_smoke.sh: the benchmark report (BENCHMARKS.md format) has its
machine table, every section and table, a goals table whose every row has a
verdict, the goals a smoke run measures measured, and no None/nan/Traceback.

    bench_report_check.py REPORT.md   prints "ok" or the problems
"""
import re, sys

md = open(sys.argv[1]).read()
bad = []
for h in ("# Benchmarks", "## Machine", "## Method", "## Goals", "## 1. Engine overhead",
          "## 2. NVMe passthrough", "## 3. Trace size", "## 4. Analyzer", "## 5. Resident memory",
          "## 6. Tracing's CPU time", "## 7. QD 1 latency", "## 8. Many hosts",
          "## 10. A sweep's analysis"):
    if h not in md:
        bad.append("no heading " + h)
for k in ("| CPU |", "| cores | ", "| kernel |", "| fio | fio-"):
    if k not in md:
        bad.append("machine table lacks " + k)
goals = re.search(r"## Goals\n\n\| goal .*?\n\|---.*?\n((?:\|.*\n)+)", md)
rows = goals.group(1).splitlines() if goals else []
if len(rows) < 13:
    bad.append("goals table has %d rows, want >= 13" % len(rows))
for r in rows:
    cells = [c.strip() for c in r.strip("|").split("|")]
    if len(cells) != 5 or cells[3] not in ("PASS", "**FAIL**", "not run", "-"):
        bad.append("bad goal row: " + r)
# smoke runs every host section: those goals must be measured
for g in ("files, QD 1", "files, QD 32", "trace size", "one writer thread", "analyzer, decode",
          "analyzer peak memory", "engine RSS",
          "CPU time, job thread, per IO (nv_nop, on/off windows",
          "the same, whole jobs (nv_nop pairs", "CPU time, trace writer thread",
          "many hosts: nvanalyze peak memory", "sweep analysis: `nvanalyze A B`",
          "sweep analysis peak memory"):
    if not any(g in r and "| not run |" not in r for r in rows):
        bad.append("goal '%s' not measured" % g)
for word in ("None", "nan", "Traceback"):
    if re.search(r"\b%s\b" % word, md):
        bad.append("report contains " + word)
for t in ("### iodepth 1", "### iodepth 32", "nv_trace level 1", "encode, one thread",
          "peak resident memory", "RSS at end", "whole / points, CPU time"):
    if t not in md:
        bad.append("no table with " + t)
print("; ".join(bad) if bad else "ok")
