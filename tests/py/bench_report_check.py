"""bench_smoke.sh: the benchmark report (BENCHMARKS.md format) has its
machine table, every section and table, a goals table whose every row has a
verdict, the goals a smoke run measures measured, and no None/nan/Traceback.

    bench_report_check.py REPORT.md   prints "ok" or the problems
    bench_report_check.py --merged EARLIER.md REPORT.md N GOAL
        REPORT.md is EARLIER.md with section N (the "## N." heading) and the
        goal rows whose names start with GOAL replaced, all else the same
        (a section rerun alone: bench_report.py's merge); "ok" or the problems
"""
import re, sys


def blocks(md):
    """{heading: text} of the "## " blocks (the text before the first: key "")."""
    out, key = {"": []}, ""
    for line in md.split("\n"):
        if line.startswith("## "):
            key = line
            out[key] = []
        out[key].append(line)
    return {k: "\n".join(v).strip("\n") for k, v in out.items()}


def merged(old, new, num, goal):
    bad = []
    a, b = blocks(open(old).read()), blocks(open(new).read())
    sec = "## %s. " % num
    if [k for k in a if not k.startswith(sec)] != [k for k in b if not k.startswith(sec)]:
        bad.append("the headings outside section %s differ" % num)
    keep = lambda t: [l for l in t.split("\n") if not l.startswith("| " + goal)]
    for k in a:
        if k in b and not k.startswith(sec) and keep(a[k]) != keep(b[k]):
            bad.append("block '%s' changed" % k)
    sa = [v for k, v in a.items() if k.startswith(sec)]
    sb = [v for k, v in b.items() if k.startswith(sec)]
    if len(sb) != 1 or sa == sb:
        bad.append("section %s not replaced" % num)
    ga = [l for l in a.get("## Goals", "").split("\n") if l.startswith("| " + goal)]
    gb = [l for l in b.get("## Goals", "").split("\n") if l.startswith("| " + goal)]
    if not gb or ga == gb:
        bad.append("goal rows '%s' not replaced" % goal)
    return bad


if len(sys.argv) == 6 and sys.argv[1] == "--merged":
    bad = merged(*sys.argv[2:])
    print("; ".join(bad) if bad else "ok")
    sys.exit(0)

md = open(sys.argv[1]).read()
bad = []
for h in ("# Benchmarks", "## Machine", "## Method", "## Goals", "## 1. Engine overhead",
          "## 2. NVMe passthrough", "## 3. Trace size", "## 4. Analyzer", "## 5. Resident memory",
          "## 6. Tracing's CPU time", "## 7. QD 1 latency", "## 8. Many hosts",
          "## 10. A sweep's analysis", "## 11. The full comparison on every core",
          "## 12. Tracing's disturbance", "## 13. diskspd XML reports",
          "## 14. Reading fio's normal output", "## 15. nvanalyze watch beside a traced run"):
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
          "sweep analysis peak memory", "full comparison -o, hosts, 4 traces",
          "tracing's wait on the IO loop, nv_nop", "watcher: CPU per IO vs the post-run"):
    if not any(g in r and "| not run |" not in r for r in rows):
        bad.append("goal '%s' not measured" % g)
for word in ("None", "nan", "Traceback"):
    if re.search(r"\b%s\b" % word, md):
        bad.append("report contains " + word)
for t in ("### iodepth 1", "### iodepth 32", "nv_trace level 1", "encode, one thread",
          "peak resident memory", "RSS at end", "whole / points, CPU time",
          "wall speed-up, -J 1 / -J 2"):
    if t not in md:
        bad.append("no table with " + t)
print("; ".join(bad) if bad else "ok")
