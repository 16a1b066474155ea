"""The benchmark report as a whole: the sections in report order and the goals table's rows by
section, the markdown of a full run, and a section rerun alone merged into an earlier report."""
import os
import re
import sys

from .analyzer import section_analyze, section_hosts, section_sweep, section_workers
from .chart import write_chart
from .common import goal_row, read_meta
from .engine import section_files, section_memory, section_trace, section_vm
from .inputs import section_inputtext, section_inputxml
from .tracecost import section_cpu, section_disturb, section_loop
from .watch import section as section_watch

# the checkout: bench/soak.md and bench/analysis.md go into the report
TOP = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")


# The sections of tools/bench.sh in report order: (BENCH_SECTIONS name, number, function, whether
# it draws in the chart).  Section 9 is make soak's (bench/soak.md), copied in after section 8.
SECTIONS = (("files", 1, section_files, True), ("vm", 2, section_vm, True),
            ("trace", 3, section_trace, True), ("analyze", 4, section_analyze, False),
            ("memory", 5, section_memory, True), ("cpu", 6, section_cpu, False),
            ("loop", 7, section_loop, False), ("hosts", 8, section_hosts, False),
            ("sweep", 10, section_sweep, False), ("workers", 11, section_workers, False),
            ("disturb", 12, section_disturb, False),
            ("inputxml", 13, section_inputxml, False),
            ("inputtext", 14, section_inputtext, False),
            ("watch", 15, section_watch, False))


# The goal rows by section: (section, the goal's name starts so, target).  Every goal with a target
# has a row, also when its section did not run; a section rerun alone (merge_report) replaces the
# rows of its goals, those without a target (references) included.
GOALS = (("files", "nvengine tracing off vs fio `io_uring`, files, QD 1", ">= 1.00x"),
         ("files", "tracing on vs off, files, QD 1", ">= 0.97x"),
         ("files", "nvengine tracing off vs fio `io_uring`, files, QD 32", ">= 1.00x"),
         ("files", "tracing on vs off, files, QD 32", ">= 0.97x"),
         ("files", "tracing on vs off, files, one io-wq worker, QD 1", ">= 0.97x"),
         ("files", "tracing on vs off, files, one io-wq worker, QD 32", ">= 0.97x"),
         ("files", "(reference) fio `write_lat_log` vs no log, files", None),
         ("vm", "nvengine tracing off vs fio `io_uring_cmd`, passthrough, QD 1", ">= 1.00x"),
         ("vm", "tracing on vs off, passthrough, QD 1", ">= 0.97x"),
         ("vm", "nvengine tracing off vs fio `io_uring_cmd`, passthrough, QD 32", ">= 1.00x"),
         ("vm", "tracing on vs off, passthrough, QD 32", ">= 0.97x"),
         ("trace", "trace size, 4k randread", "<= 6 B/IO"),
         ("trace", "one writer thread, zstd level 1", ">= 5 M records/s"),
         ("analyze", "analyzer, decode + exact percentiles", ">= 20 M IOs/s per core"),
         ("analyze", "analyzer peak memory", "<= 256 MiB"),
         ("memory", "engine RSS constant", "growth <= 1 MiB"),
         ("cpu", "tracing's CPU time, job thread", "<= 40 ns"),
         ("cpu", "(reference) the same, whole jobs", None),
         ("cpu", "tracing's CPU time, trace writer thread", "<= 40 ns"),
         ("cpu", "tracing's CPU time all-in", "<= 40 ns"),
         ("cpu", "trace size of the all-in row's", "<= 6 B/IO"),
         ("loop", "QD 1 clat mean, tracing on vs off", "0.98x-1.02x"),
         ("loop", "(reference) the same, separate runs", None),
         ("hosts", "many hosts: nvanalyze peak memory", "<= 256 MiB"),
         ("hosts", "many hosts: every host's rows exact", None),
         ("sweep", "sweep analysis: `nvanalyze A B`", "<= 1.20x"),
         ("sweep", "sweep analysis peak memory", "<= 1.25x"),
         ("workers", "full comparison -o", None),
         ("disturb", "tracing's wait on the IO loop, nv_nop", "0 waits"),
         ("disturb", "IO-loop wait share", "<= 0.1%"),
         ("disturb", "p99.99 traced vs untraced", "within A/A"),
         ("disturb", "max traced vs untraced", "within A/A"),
         ("inputxml", "diskspd XML report of", "< 1 s"),
         ("inputxml", "diskspd XML memory linear", "<= 1.25x"),
         ("inputtext", "reading a fio normal output of", "< 1 s"),
         ("inputtext", "reading memory, fio normal output", "<= 5.00x (linear 4x)"),
         ("watch", "watcher: tracing's wait on the IO loop, nv_nop", "0 waits"),
         ("watch", "watcher: IOPS watched vs without", "within A/A"),
         ("watch", "watcher: tracing's wait on the IO loop, randread.fio", "0 waits"),
         ("watch", "watcher: IOPS watched vs without, randread.fio", "within A/A"),
         ("watch", "watcher: CPU per IO vs the post-run analysis", "<= 1.00x"),
         ("watch", "watcher: peak RSS vs the post-run analysis'", "<= 1.25x"),
         ("watch", "watcher: peak RSS, an hour's trace vs a quarter's", "growth <= 2 MiB"))


def goal_section(row):
    """The section (GOALS) of a goals-table row, or None."""
    name = row.strip().strip("|").split("|")[0].strip()
    return next((sec for sec, prefix, _ in GOALS if name.startswith(prefix)), None)


def section_parts(wd, meta, chart):
    """[(section, number, body lines, goal rows)] of every section in report order."""
    parts = []
    for key, num, fn, draws in SECTIONS:
        body, goals = [], []
        if key == "vm" and "vm" not in meta.get("sections", "vm").split():
            body.append("## 2. NVMe passthrough in the emulated guest\n\nNot run in this mode.\n")
        elif draws:
            fn(body, wd, meta, goals, chart)
        else:
            fn(body, wd, meta, goals)
        for sec, prefix, target in GOALS:
            if sec == key and target and not any(g.startswith("| " + prefix) for g in goals):
                goal_row(goals, prefix, target, None, False, "section not run in this mode")
        parts.append((key, num, body, goals))
    return parts


def sections_run(meta):
    """The sections this run measured (BENCH_SECTIONS; vm only with BENCH_VM=1)."""
    ran = set(meta.get("sections", "").split()) & {k for k, *_ in SECTIONS}
    if meta.get("vm") == "0":
        ran.discard("vm")
    return ran


def block_lines(lines):
    """lines without trailing blank lines, then one blank line."""
    while lines and not lines[-1].strip():
        lines = lines[:-1]
    return lines + [""]


def merge_report(old, parts, ran, meta):
    """The report old (the text of an earlier BENCHMARKS.md) with the sections ran and their goal
    rows replaced by this run's (parts), everything else kept: a section rerun alone
    (BENCH_SECTIONS) updates its part of the full run's report.  A replaced section that does not
    date itself says when it ran; a section the old report lacks goes in by its number."""
    lines = old.split("\n")
    num = {k: n for k, n, *_ in SECTIONS}
    new_goals = {k: g for k, _, _, g in parts if k in ran}
    new_body = {k: b for k, _, b, _ in parts if k in ran}
    # the goals table
    g0 = lines.index("## Goals")
    h = next(i for i in range(g0, len(lines)) if lines[i].startswith("| goal |"))
    e = h + 2
    while e < len(lines) and lines[e].startswith("|"):
        e += 1
    rows, done = [], set()
    for row in lines[h + 2:e]:
        sec = goal_section(row)
        if sec in ran:
            if sec not in done:
                rows.extend((num[sec], g) for g in new_goals[sec])
                done.add(sec)
            continue
        rows.append((num.get(sec), row))
    for sec in sorted(ran - done, key=num.get):
        at = max((i + 1 for i, (n, _) in enumerate(rows) if n is not None and n < num[sec]),
                 default=len(rows))
        rows[at:at] = [(num[sec], g) for g in new_goals[sec]]
    lines[h + 2:e] = [r for _, r in rows]
    # the numbered sections: blocks from one "## " heading to the next
    starts = [i for i, l in enumerate(lines) if l.startswith("## ")] + [len(lines)]
    head, blocks = lines[:starts[0]], []
    for a, b in zip(starts, starts[1:]):
        m = re.match(r"## (\d+)\. ", lines[a])
        blocks.append([int(m.group(1)) if m else None, lines[a:b]])
    rerun = ("*Rerun alone (`BENCH_SECTIONS=\"{}\" tools/bench.sh`, mode {}) on {}, "
             "nvengine {}; load average {} at the start, {} at the end.  The Machine "
             "table is the full run's.*\n".format(
                 meta.get("sections", ""), meta.get("mode", "?"), meta.get("date", "?"),
                 meta.get("commit", "?"), meta.get("loadavg_start", "?"),
                 meta.get("loadavg_end", "?")))
    for sec in sorted(ran, key=num.get):
        body = "\n".join(new_body[sec]).split("\n")
        if len(new_body[sec]) > 1 and not new_body[sec][1].startswith("Run on "):
            body[1:1] = rerun.split("\n")
        body = block_lines(body)
        at = next((i for i, b in enumerate(blocks) if b[0] == num[sec]), None)
        if at is not None:
            blocks[at][1] = body
            continue
        last = max((i for i, b in enumerate(blocks) if b[0] is not None), default=len(blocks) - 1)
        at = next((i for i, b in enumerate(blocks) if b[0] is not None and b[0] > num[sec]),
                  last + 1)
        blocks.insert(at, [num[sec], body])
    out = head
    for i, (_, b) in enumerate(blocks):
        out = out + (b if i == len(blocks) - 1 else block_lines(b))
    return "\n".join(out)


def report(wd, out_md, png):
    meta = read_meta(wd)
    chart = {}
    parts = section_parts(wd, meta, chart)
    ran = sections_run(meta)
    if ran and ran < {k for k, *_ in SECTIONS} and os.path.exists(out_md):
        with open(out_md) as f:
            old = f.read()
        if "\n## Goals\n" in old:
            with open(out_md, "w") as f:
                f.write(merge_report(old, parts, ran, meta))
            sys.stderr.write("bench_report: {}: replaced section(s) {} and their goal rows; the "
                             "rest, the chart included, is the earlier run's\n".format(
                                 out_md, " ".join(sorted(ran))))
            return 0
    goals = [g for _, _, _, gs in parts for g in gs]
    made = write_chart(wd, chart, png)

    md = ["# Benchmarks", ""]
    md.append("Generated by `make bench` (tools/bench.sh, tools/bench_report.py) "
              "on {}; mode **{}**, the whole run took {} s.  Do not edit by "
              "hand: rerun `make bench`.\n".format(
                  meta.get("date", "?"), meta.get("mode", "?"), meta.get("elapsed_s", "?")))
    md.append("## Machine\n")
    md.append("| | |")
    md.append("|---|---|")
    for k, label in (("cpu", "CPU"), ("cores", "cores"), ("mem_total", "memory"),
                     ("virt", "virtualization"), ("kernel", "kernel"), ("fio", "fio"),
                     ("liburing", "liburing"), ("zlib", "zlib"), ("cc", "compiler"),
                     ("commit", "nvengine commit"), ("loadavg_start", "load average at start"),
                     ("busy_start", "other processes >= 10% CPU at start"),
                     ("loadavg_end", "load average at end"),
                     ("busy_end", "other processes >= 10% CPU at end"),
                     ("retries", "failed runs retried once (see $BENCH_OUT/retries)")):
        md.append("| {} | {} |".format(label, meta.get(k) or "-"))
    md.append("")
    md.append("## Method\n")
    md.append("- **Paired, alternating runs.** Each compared configuration runs once per round, "
              "next to the others, in one process tree (this script); the order is reversed "
              "every other round.  Tables show the median over rounds; a pair's ratio is the "
              "median of the per-round ratios A/B (each from two runs seconds apart), with the "
              "smallest and largest per-round ratio.  The machine is small and shared, so the "
              "range matters as much as the median.")
    md.append("- **Pinning:** {}.".format(
        "every benchmarked process pinned with `taskset -c {}`".format(meta["taskset"])
        if meta.get("taskset") else
        "none.  On 2 cores the fio job thread, its io_uring worker threads and nvengine's trace "
        "writer thread need both cores; pinning the job to one core puts the writer on the IO "
        "core (it inherits the affinity), which measures a configuration nobody runs.  Set "
        "BENCH_TASKSET to pin anyway"))
    md.append("- fio 3.33 from Debian, the engine loaded as `external:libnvengine.so`; every "
              "configuration uses the same job options apart from the engine and its logging.")
    md.append("")
    md.append("## Goals\n")
    md.append("| goal | target | measured | result | note |")
    md.append("|---|---|---|---|---|")
    md.extend(goals)
    md.append("")
    soak = os.path.join(TOP, "bench", "soak.md")
    for _, n, body, _ in parts:
        # written by make soak (tools/soak.py), not make bench
        if n > 9 and os.path.exists(soak):
            md.append(open(soak).read().rstrip() + "\n")
            soak = ""
        md.extend(body)
    if soak and os.path.exists(soak):
        md.append(open(soak).read().rstrip() + "\n")
    if made:
        md.append("## Chart\n")
        md.append("![benchmarks]({})\n".format(
            os.path.relpath(made, os.path.dirname(os.path.abspath(out_md)))))
    notes = os.path.join(TOP, "bench", "analysis.md")
    if os.path.exists(notes) and meta.get("mode") != "smoke":
        md.append(open(notes).read().rstrip() + "\n")
    with open(out_md, "w") as f:
        f.write("\n".join(md))
    return 0
