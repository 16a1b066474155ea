"""Sections 4, 8, 10 and 11 of the benchmark report, nvanalyze's own speed and memory: one large
trace (4), many hosts' results (8), a sweep's points at once or one at a time (10), the full
comparison with -o at -J 1 and -J 2 (11)."""
import glob
import os
import re

from .common import fmt, goal_row, job0, load_json, med, median_range_table, read_time


def analyzer(wd, meta):
    d = os.path.join(wd, "analyze")
    res = {"ios": int(meta.get("ana_ios", 0) or 0)}
    try:
        res["trace_bytes"] = int(open(os.path.join(d, "big.size")).read())
    except (OSError, ValueError):
        return None
    res["gen"] = read_time(os.path.join(d, "gen.time"))
    stats = [read_time(p) for p in sorted(glob.glob(os.path.join(d, "stat-*.time")))]
    stats = [s for s in stats if s]
    recs = None
    for p in glob.glob(os.path.join(d, "stat-*.out")):
        m = re.search(r"^records: (\d+)", open(p).read(), re.M)
        if m:
            recs = int(m.group(1))
    res["records_seen"] = recs
    res["stat"] = stats
    res["wall"] = med([s["wall"] for s in stats])
    res["cpu"] = med([s["cpu"] for s in stats])
    res["maxrss_mib"] = max([s["maxrss_kb"] for s in stats]) / 1024 if stats else None
    res["per_core"] = res["ios"] / res["cpu"] if res["cpu"] else None
    res["per_wall"] = res["ios"] / res["wall"] if res["wall"] else None
    js = [read_time(p) for p in sorted(glob.glob(os.path.join(d, "json-*.time")))]
    js = [s for s in js if s]
    res["json_wall"] = med([s["wall"] for s in js])
    res["json_cpu"] = med([s["cpu"] for s in js])
    res["json_rss_mib"] = max([s["maxrss_kb"] for s in js]) / 1024 if js else None
    try:
        res["json_bytes"] = int(open(os.path.join(d, "big.json.size")).read())
        res["json_info"] = open(os.path.join(d, "big.json.info")).read().strip()
    except (OSError, ValueError):
        res["json_bytes"] = None
        res["json_info"] = ""
    return res


def section_analyze(md, wd, meta, goals):
    md.append("## 4. Analyzer\n")
    a = analyzer(wd, meta)
    if not a:
        md.append("Not run in this mode.\n")
        return
    md.append("A synthetic trace of {:,} 4k randread IOs at QD 32 (tests/unit/gen_trace "
              "through the real writer, level 1: {:.1f} MB, {:.2f} B/IO; generated in {} "
              "s), then `nvanalyze stat` (decode every block, per-op exact nearest-rank "
              "percentiles in bounded memory) timed with `/usr/bin/time`, {} repeats, "
              "file in the page cache.\n".format(
                  a["ios"], a["trace_bytes"] / 1e6, a["trace_bytes"] / a["ios"] if a["ios"] else 0,
                  fmt(a["gen"]["wall"] if a["gen"] else None, "{:.1f}"), len(a["stat"])))
    md.append("| measure | value |")
    md.append("|---|---|")
    md.append("| records reported by `nvanalyze stat` | {} |".format(
                  a["records_seen"] if a["records_seen"] else "?"))
    md.append("| wall time (median) | {} s |".format(fmt(a["wall"])))
    md.append("| CPU time user+sys (median) | {} s |".format(fmt(a["cpu"])))
    md.append("| IOs per second per core (IOs / CPU s) | {} M |".format(
                  fmt(a["per_core"] / 1e6 if a["per_core"] else None)))
    md.append("| IOs per second, wall | {} M |".format(
                  fmt(a["per_wall"] / 1e6 if a["per_wall"] else None)))
    md.append("| peak resident memory (max RSS) | {} MiB |".format(fmt(a["maxrss_mib"], "{:.1f}")))
    if a.get("json_bytes"):
        md.append("| json+ file: size | {:.1f} MB |".format(a["json_bytes"] / 1e6))
        md.append("| json+ file: `nvanalyze -f csv` wall (median) | {} s |".format(
                      fmt(a["json_wall"])))
        md.append("| json+ file: CPU user+sys | {} s |".format(fmt(a["json_cpu"])))
        md.append("| json+ file: peak RSS | {} MiB |".format(fmt(a["json_rss_mib"], "{:.1f}")))
    md.append("")
    if a.get("json_info"):
        md.append("The json+ file: {}\n".format(a["json_info"]))
    goal_row(goals, "analyzer, decode + exact percentiles", ">= 20 M IOs/s per core",
             None if not a["per_core"] else "{:.1f} M/s".format(a["per_core"] / 1e6),
             a["per_core"] is not None and a["per_core"] >= 20e6, "{:,} IOs".format(a["ios"]))
    goal_row(goals, "analyzer peak memory, {:,} IOs".format(a["ios"]), "<= 256 MiB",
             None if a["maxrss_mib"] is None else "{:.1f} MiB".format(a["maxrss_mib"]),
             a["maxrss_mib"] is not None and a["maxrss_mib"] <= 256, "")


def section_hosts(md, wd, meta, goals):
    """8. nvanalyze on many-host results (tools/bench-sections/hosts.sh)."""
    md.append("## 8. Many hosts: nvanalyze on jobs/run --host results\n")
    d = os.path.join(wd, "hosts")
    rows = []
    for c in meta.get("hosts_configs", "").split():
        n, ios = (int(x) for x in c.split(":"))
        for mode, sides in (("fleets", 2), ("sides", 1)):
            t = read_time(os.path.join(d, "%s-%d-%d.time" % (mode, n, ios)))
            if t is None:
                continue
            exact = None
            try:
                with open(os.path.join(d, "fleets-%d-%d.exact" % (n, ios))) as f:
                    exact = int(f.read().split()[0])
            except (OSError, ValueError, IndexError):
                pass
            rows.append((n, ios, mode, sides * n * ios, t, exact))
    if not rows:
        md.append("Not run in this mode.\n")
        return
    md.append(
        "A results directory as `jobs/run --host` writes it (the client's JSON with one "
        "randread entry per host, each host's trace in `HOST/traces/suite/`), synthesized: "
        "one trace of N IOs from tests/unit/gen_trace hard-linked into every host's "
        "directory (each host's file is decoded on its own; the page cache holds one copy, "
        "so disk reads are not measured).  *fleets*: `nvanalyze -f json A B`, two fleets, "
        "each host a repeat; *sides*: `nvanalyze -f json A`, each host a side (up to 64).  "
        "One run each, `/usr/bin/time`.\n")
    md.append("| hosts a fleet | IOs a host | command | IOs read | wall (s) | CPU (s) | "
              "M IOs per CPU s | peak RSS (MiB) |")
    md.append("|---|---|---|---|---|---|---|---|")
    for n, ios, mode, total, t, exact in rows:
        rate = "{:.1f}".format(total / t["cpu"] / 1e6) if t["cpu"] > 0 else "-"
        md.append("| {} | {:,} | {} | {:,} | {:.2f} | {:.2f} | {} | {:.1f} |".format(
            n, ios, "A B" if mode == "fleets" else "A", total, t["wall"], t["cpu"], rate,
            t["maxrss_kb"] / 1024))
    md.append("")
    # memory against IOs (the same hosts, most and fewest IOs a host) and against hosts
    fl = [r for r in rows if r[2] == "fleets"]
    mib = lambda r: r[4]["maxrss_kb"] / 1024
    for n in sorted({r[0] for r in fl}, reverse=True):
        same = sorted((r for r in fl if r[0] == n), key=lambda r: r[1])
        if len(same) >= 2:
            lo, hi = same[0], same[-1]
            md.append("Peak RSS against IOs, {} hosts a fleet: {:.1f} MiB at {:,} IOs a host, "
                      "{:.1f} MiB at {:,} ({:.1f}x the IOs).\n".format(
                          n, mib(lo), lo[1], mib(hi), hi[1], hi[1] / lo[1]))
            break
    for ios in sorted({r[1] for r in fl}):
        same = sorted((r for r in fl if r[1] == ios), key=lambda r: r[0])
        if len(same) >= 2:
            lo, hi = same[0], same[-1]
            md.append("Peak RSS against hosts, {:,} IOs a host: {:.1f} MiB for 2 x {} hosts, "
                      "{:.1f} MiB for 2 x {}: {:.2f} MiB per extra host.\n".format(
                          ios, mib(lo), lo[0], mib(hi), hi[0],
                          (mib(hi) - mib(lo)) / (2 * (hi[0] - lo[0]))))
    big = max(fl, key=lambda r: r[3]) if fl else None
    if big:
        goal_row(goals, "many hosts: nvanalyze peak memory, two fleets of {} hosts x {:,} "
                 "IOs".format(big[0], big[1]), "<= 256 MiB", "{:.1f} MiB".format(mib(big)),
                 mib(big) <= 256, "{:,} IOs read, {:.1f} s CPU".format(big[3], big[4]["cpu"]))
    ex = [r for r in fl if r[5] is not None]
    if ex:
        goal_row(goals, "many hosts: every host's rows exact (from its traces)", "all",
                 "{} of {}".format(sum(r[5] > 0 for r in ex), len(ex)),
                 all(r[5] > 0 for r in ex), "configurations with exact p50")


def sweep_calls(wd, meta):
    """Section 10's timed calls: {round: {"whole": time, q: time}} of the rounds that have the
    whole call and every point's, and the outputs' exact rows: (whole calls with an exact p99 on
    both sides in every point's block, their number; one-point calls with it, their number)."""
    d = os.path.join(wd, "sweep")
    qds = [int(q) for q in meta.get("sweep_qds", "").split()]
    calls = {}
    for p in glob.glob(os.path.join(d, "r*-*.time")):
        m = re.match(r"r(\d+)-(whole|qd(\d+))\.time$", os.path.basename(p))
        t = read_time(p) if m else None
        if t:
            calls.setdefault(int(m.group(1)), {})[
                "whole" if m.group(3) is None else int(m.group(3))] = t
    rounds = {r: c for r, c in calls.items() if "whole" in c and all(q in c for q in qds)}
    exact = {"whole": [0, 0], "point": [0, 0]}
    for p in glob.glob(os.path.join(d, "r*-*.out")):
        kind = "whole" if p.endswith("-whole.out") else "point"
        with open(p) as f:
            rows = [l for l in f if l.startswith("| clat p99 ")]
        exact[kind][0] += len(rows) == (len(qds) if kind == "whole" else 1) and all(
            l.count("(exact)") >= 2 for l in rows)
        exact[kind][1] += 1
    return qds, rounds, exact


def sweep_inputs(wd):
    """IOs per point (both runs) from the sweep's fio JSON files, the traces' bytes, the two
    generation runs' wall time."""
    d = os.path.join(wd, "sweep")
    ios = {}
    for p in glob.glob(os.path.join(d, "[AB]", "*@iodepth=*.json")):
        j = job0(load_json(p))
        m = re.search(r"@iodepth=(\d+)\.json$", p)
        if j and m:
            ios[int(m.group(1))] = ios.get(int(m.group(1)), 0) + j["read"]["total_ios"]
    try:
        tb = int(open(os.path.join(d, "traces.bytes")).read())
    except (OSError, ValueError):
        tb = None
    gen = [read_time(os.path.join(d, "gen-%s.time" % r)) for r in "AB"]
    return ios, tb, sum(g["wall"] for g in gen) if all(gen) else None


def section_sweep(md, wd, meta, goals):
    """10. nvanalyze on a whole sweep against its points one at a time
    (tools/bench-sections/sweep.sh)."""
    md.append("## 10. A sweep's analysis: all points at once vs one at a time\n")
    qds, rounds, exact = sweep_calls(wd, meta)
    if not rounds:
        md.append("Not run in this mode.\n")
        return
    ios, tbytes, gen_s = sweep_inputs(wd)
    total = sum(ios.values())
    d = os.path.join(wd, "sweep")
    load = [open(os.path.join(d, "loadavg-" + k)).read().strip() if os.path.exists(
        os.path.join(d, "loadavg-" + k)) else "?" for k in ("start", "end")]
    when = (open(os.path.join(d, "date")).read().strip()
            if os.path.exists(os.path.join(d, "date")) else "?")
    md.append("Run on {} (nvengine {}, mode {}; load average {} at the section's start, {} at its "
              "end).  Two runs (A and B) of a {}-point iodepth sweep ({}), each point a fio run "
              "of 4k `randread` of the {} MiB tmpfs file through nvengine with `nv_trace`, as "
              "`jobs/run --sweep iodepth=1..256` writes them (per point `FILE@iodepth=Q.json`, "
              "json+, and its trace): {:,} IOs in the traces in all ({:,} a point and run), {} MB "
              "of traces; made once ({} s).  Then {} rounds, the order reversed every other "
              "round, of **whole**: one `nvanalyze A B` on both runs' results directories, and "
              "**points**: nine calls `nvanalyze A/FILE@iodepth=Q.json B/FILE@iodepth=Q.json`, "
              "one a point, each finding its two traces from its JSON as the whole call does.  "
              "Each point is given as its own JSON file rather than with `-j 'sweep@iodepth=Q' A "
              "B`, which would still read all 18 JSON files in each of the nine calls.  "
              "`/usr/bin/time` of each call; nvanalyze is one thread, so its CPU time (user + "
              "sys) is its work, and the wall time adds the waits for a core on this shared "
              "machine.  Every call's p99 rows are exact from the traces on both sides: {} of {} "
              "whole calls, {} of {} one-point calls.\n".format(
                  when, meta.get("commit", "?"), meta.get("mode", "?"), load[0], load[1], len(qds),
                  ", ".join(str(q) for q in qds), meta.get("file_mb"), total,
                  int(meta.get("sweep_ios", 0) or 0),
                  fmt(tbytes / 1e6 if tbytes else None, "{:.1f}"),
                  fmt(gen_s, "{:.0f}"), len(rounds), exact["whole"][0], exact["whole"][1],
                  exact["point"][0], exact["point"][1]))
    rs = [rounds[r] for r in sorted(rounds)]
    whole_cpu = [c["whole"]["cpu"] for c in rs]
    sum_cpu = [sum(c[q]["cpu"] for q in qds) for c in rs]
    whole_wall = [c["whole"]["wall"] for c in rs]
    sum_wall = [sum(c[q]["wall"] for q in qds) for c in rs]
    r_cpu = [a / b for a, b in zip(whole_cpu, sum_cpu) if b > 0]
    r_wall = [a / b for a, b in zip(whole_wall, sum_wall) if b > 0]
    whole_rss = [c["whole"]["maxrss_kb"] / 1024 for c in rs]
    point_rss = [max(c[q]["maxrss_kb"] for q in qds) / 1024 for c in rs]
    median_range_table(md, (
        ("whole: `nvanalyze A B`, CPU", whole_cpu, "{:.2f} s"),
        ("points: the nine one-point calls summed, CPU", sum_cpu, "{:.2f} s"),
        ("**whole / points, CPU time** (per round)", r_cpu, "{:.3f}x"),
        ("whole, wall", whole_wall, "{:.2f} s"),
        ("points summed, wall", sum_wall, "{:.2f} s"),
        ("whole / points, wall time (per round)", r_wall, "{:.3f}x"),
        ("whole, M IOs per CPU second", [total / x / 1e6 for x in whole_cpu if x > 0], "{:.2f}"),
        ("points, M IOs per CPU second", [total / x / 1e6 for x in sum_cpu if x > 0], "{:.2f}"),
        ("whole, peak RSS", whole_rss, "{:.1f} MiB"),
        ("points, the largest one-point call's peak RSS (per round)", point_rss, "{:.1f} MiB")))
    md.append("| iodepth | IOs (A + B) | CPU (median) | wall (median) | peak RSS (largest) |")
    md.append("|---|---|---|---|---|")
    for q in qds:
        md.append("| {} | {:,} | {:.3f} s | {:.3f} s | {:.1f} MiB |".format(
            q, ios.get(q, 0), med([c[q]["cpu"] for c in rs]), med([c[q]["wall"] for c in rs]),
            max(c[q]["maxrss_kb"] for c in rs) / 1024))
    md.append("")
    md.append("Memory: nvanalyze analyzes one job's traces at a time and keeps only their results "
              "(the summaries, the series and a CDF histogram of 0.11 MiB an operation), so the "
              "whole call's peak is the largest point's working set (its exact percentiles per "
              "operation and queue-depth class, which grow with the iodepth) plus those results, "
              "not the points' working sets added up.  The goal: the whole call's peak within "
              "1.25x of the largest one-point call's.\n")
    ok = exact["whole"][0] == exact["whole"][1] and exact["point"][0] == exact["point"][1]
    v = med(r_cpu) if r_cpu else None
    if r_cpu and r_wall:
        note = "rounds {:.3f}-{:.3f}, n={}; wall {:.3f}x ({:.3f}-{:.3f})".format(
            min(r_cpu), max(r_cpu), len(r_cpu), med(r_wall), min(r_wall), max(r_wall))
        if min(r_cpu) <= 1.2 < max(r_cpu):
            note += ": the rounds straddle the target, inconclusive at this noise"
    else:	# a smoke run's points take less CPU than the clock's tick
        note = "the points' CPU under the clock's tick, n={}".format(len(rs))
    if not ok:
        note += "; some calls' rows are not exact from the traces: not a like-for-like comparison"
    goal_row(goals, "sweep analysis: `nvanalyze A B` on 2 runs x {} points ({:,} IOs) vs the "
             "points one at a time, CPU time".format(len(qds), total), "<= 1.20x",
             fmt(v, "{:.3f}x", "n/a"), ok and v is not None and v <= 1.2, note)
    wr, pr = max(whole_rss), max(point_rss)
    goal_row(goals, "sweep analysis peak memory: whole sweep vs the largest one-point call",
             "<= 1.25x",
             "{:.1f} vs {:.1f} MiB ({:.2f}x)".format(wr, pr, wr / pr), wr <= 1.25 * pr,
             "bounded by one point's, not growing with the {} points".format(len(qds)))


# Section 11's shapes (tools/bench-sections/workers.sh, workers_layout): a configuration's name in
# the rows and goals, before its "N traces x IOS IOs".
WORKERS_SHAPES = {
    "hosts": "many hosts (one job per host)",
    "grouped": "one job of N threads (gen_trace)",
    "nop": "one job of N threads (fio nv_nop, QD 64)",
}


def workers_config(c):
    """(shape, n, ios, the time files' name) of a WORKERS_CONFIGS entry [SHAPE:]N:IOS."""
    parts = c.split(":")
    shape = parts[0] if len(parts) == 3 else "hosts"
    n, ios = int(parts[-2]), int(parts[-1])
    return shape, n, ios, ("{}-".format(shape) if len(parts) == 3 else "") + "{}-{}".format(n, ios)


def figures_of(path):
    """The figures nvanalyze -o says it wrote ('(N figures, rendered)' in its stderr), or None."""
    try:
        with open(path) as f:
            m = re.search(r"\((\d+) figures?, rendered", f.read())
        return int(m.group(1)) if m else None
    except OSError:
        return None


def workers_rounds(wd, meta):
    """{(shape, n, ios): {round: {"j1"|"j2"|"stat"|"j1s"|"j1v": time or None, "figures": N}}}
    of section 11 (tools/bench-sections/workers.sh)."""
    d = os.path.join(wd, "workers")
    out = {}
    for c in meta.get("workers_configs", "").split():
        shape, n, ios, name = workers_config(c)
        rounds = {}
        for r in range(1, int(meta.get("workers_rounds", 0) or 0) + 1):
            ts = {k: read_time(os.path.join(d, "{}-r{}-{}.time".format(name, r, k)))
                  for k in ("j1", "j2", "stat", "j1s", "j1v")}
            ts["figures"] = figures_of(os.path.join(d, "{}-r{}-j1.err".format(name, r)))
            if ts["j1"] and ts["j2"] and ts["stat"]:	# j1s: runs before issue 42's last
                rounds[r] = ts
        if rounds:
            out[(shape, n, ios)] = rounds
    return out


# Section 11's other -J 1 -o calls, by their time files' key: (their name in the rows and goals,
# the word that ends their CPU goal's name, the least M IOs per CPU second that goal also asks or
# None, how their memory goal takes the rounds' peaks).  j1s: --figures none (no gnuplot on PATH
# before issue 58), the analysis alone (what grows with the IOs); j1v: --figures svg, the figures
# as SVG only.
J1_VARIANTS = {"j1s": ("--figures none", "stat", 40, med),
               "j1v": ("--figures svg", "stat's", 40, max)}


def j1_variant(rs, key, total):
    """One of J1_VARIANTS' calls over the rounds rs of a configuration of total IOs: the rounds
    that have it, its M IOs per CPU second, its CPU over stat's (per round), its peak RSS."""
    have = [c for c in rs if c[key]]
    return {"key": key, "rounds": have,
            "rate": [total / c[key]["cpu"] / 1e6 for c in have if c[key]["cpu"] > 0],
            "vs_stat": [c[key]["cpu"] / c["stat"]["cpu"] for c in have if c["stat"]["cpu"] > 0],
            "rss": [c[key]["maxrss_kb"] / 1024 for c in have]}


def j1_variant_rows(v):
    """The median_range_table rows of a j1_variant v."""
    label = "-J 1 -o " + J1_VARIANTS[v["key"]][0]
    return (("{}, M IOs per CPU second".format(label), v["rate"], "{:.2f}"),
            ("{}, CPU / stat CPU (per round)".format(label), v["vs_stat"], "{:.2f}x"),
            ("{}, peak RSS".format(label), v["rss"], "{:.1f} MiB"))


def j1_variant_goals(goals, what, v, stat_rss):
    """The goal rows of a j1_variant v of the configuration what, when it has CPU times: its CPU
    against stat's and its peak RSS against stat's (stat_rss).  Return: nothing (appends to
    goals)."""
    if not v["rate"] or not v["vs_stat"]:
        return
    label, stat, least, peak = J1_VARIANTS[v["key"]]
    name = "full comparison -o {}, {}: ".format(label, what)
    x, rate = med(v["vs_stat"]), med(v["rate"])
    goal_row(goals, name + "CPU vs " + stat, "<= 1.5x",
             "{:.2f}x ({:.2f} M IOs/CPU-s)".format(x, rate),
             x <= 1.5 and (least is None or rate >= least),
             "rounds {:.2f}-{:.2f}x".format(min(v["vs_stat"]), max(v["vs_stat"])) +
             ("" if least is None else "; goal also >= {} M IOs/CPU-s".format(least)))
    a, b = peak(v["rss"]), peak(stat_rss)
    goal_row(goals, name + "peak memory vs stat", "<= 2x",
             "{:.1f} vs {:.1f} MiB ({:.2f}x)".format(a, b, a / b), a <= 2 * b)


def section_workers(md, wd, meta, goals):
    """11. The full comparison with -o on N traces at -J 1 and -J 2 against `nvanalyze stat`."""
    md.append("## 11. The full comparison on every core: -J 1, -J 2 and `nvanalyze stat`\n")
    configs = workers_rounds(wd, meta)
    if not configs:
        md.append("Not run in this mode.\n")
        return
    md.append("Run at {} (nvengine {}, mode {}, {} cores).  Per configuration, N traces of the "
              "same number of IOs in one of three shapes: **many hosts** (`tests/unit/gen_trace "
              "-p randread -q 32`, hard links of one file, so the page cache holds one copy, in "
              "section 8's many-host layout: one job per host, N independent jobs for the trace "
              "join); **one job of N threads** (fio's numjobs with group_reporting, "
              "jobs/randread.fio's layout: one job of N thread traces, analysed apart on the "
              "workers and merged, `stats/trace_merge`), from gen_trace with a seed per thread, "
              "or from a real fio run on the nv_nop target at QD 64 in jobs/randread.fio's "
              "256 MiB area per thread (dense timestamps, about a million IOs a second per "
              "thread; fio drains the queue each 65536 IOs, as the brief's run does); then "
              "rounds, the order "
              "reversed every other round, of `nvanalyze -J 1 -o DIR A` and `nvanalyze -J 2 -o "
              "DIR A` (tables, trace sections, findings, figures: the default renders each once, "
              "as PNG) and `nvanalyze stat` on the N "
              "traces (decode plus exact percentiles, the reference).  `/usr/bin/time` of each "
              "call: CPU is user + sys of the whole call, M IOs per CPU second counts the traces' "
              "IOs.  The wall speed-up of -J 2 needs a second core that is free: with the load "
              "average (meta above) over the core count, other processes hold it and the ratio "
              "measures the machine's load, not the pool.  \"--figures none\": `-J 1 -o "
              "--figures none` (every script and data file written, no PNG/SVG), the analysis' "
              "own CPU; the rendering (one gnuplot per worker, each taking the next file, its "
              "PNGs encoded through libnvpngfast.so) is the difference; the peak RSS of a call "
              "with rendering is gnuplot's own process (about 31 MiB, whatever the IOs).  "
              "\"--figures svg\": `-J 1 -o` rendering SVGs instead (report.md links them, "
              "report.html inlines them; no pngcairo).  Memory: "
              "one job's analysis counts its open interval per bucket and per ns (the pages used "
              "of a mapped array) and lists at most 2^18 latencies above 64 us per operation, so "
              "these 1.5 M IOs/s traces are read once (docs/analysis.md, \"An interval's exact "
              "p50/p99/p99.9 without its IOs\"); -J N holds N workers.\n".format(
                  meta.get("date", "?"), meta.get("commit", "?"), meta.get("mode", "?"),
                  meta.get("cores", "?")))
    peaks = {}
    for (shape, n, ios), rounds in sorted(configs.items()):
        rs = [rounds[r] for r in sorted(rounds)]
        total = n * ios
        rate = {k: [total / c[k]["cpu"] / 1e6 for c in rs if c[k]["cpu"] > 0]
                for k in ("j1", "j2", "stat")}
        speed = [c["j1"]["wall"] / c["j2"]["wall"] for c in rs if c["j2"]["wall"] > 0]
        cpu_vs_stat = [c["j1"]["cpu"] / c["stat"]["cpu"] for c in rs if c["stat"]["cpu"] > 0]
        rss = {k: [c[k]["maxrss_kb"] / 1024 for c in rs] for k in ("j1", "j2", "stat")}
        bare = j1_variant(rs, "j1s", total)
        svg = j1_variant(rs, "j1v", total)	# --figures svg: runs since it exists
        md.append("**{}: {} traces x {:,} IOs ({:,} IOs)**\n".format(
            WORKERS_SHAPES.get(shape, shape), n, ios, total))
        rows = (
            ("-J 1 -o, M IOs per CPU second", rate["j1"], "{:.2f}"),
            ("-J 2 -o, M IOs per CPU second", rate["j2"], "{:.2f}"),
            ("stat, M IOs per CPU second", rate["stat"], "{:.2f}"),
            ("-J 1 CPU / stat CPU (per round)", cpu_vs_stat, "{:.2f}x"),
            ("-J 1 -o, wall", [c["j1"]["wall"] for c in rs], "{:.2f} s"),
            ("-J 2 -o, wall", [c["j2"]["wall"] for c in rs], "{:.2f} s"),
            ("**wall speed-up, -J 1 / -J 2** (per round)", speed, "{:.2f}x"),
            ("-J 1 -o, peak RSS", rss["j1"], "{:.1f} MiB"),
            ("-J 2 -o, peak RSS", rss["j2"], "{:.1f} MiB"),
            ("stat, peak RSS", rss["stat"], "{:.1f} MiB"))
        per_fig = [(c["j1"]["cpu"] - c["j1s"]["cpu"]) / c["figures"] for c in bare["rounds"]
                   if c["figures"]]
        if bare["rate"]:
            rows += j1_variant_rows(bare) + (
                ("the rendering's CPU (-J 1 less --figures none, per round)",
                 [c["j1"]["cpu"] - c["j1s"]["cpu"] for c in bare["rounds"]], "{:.2f} s"),)
        if per_fig:
            rows += (("gnuplot's CPU per figure (the rendering's CPU / {} figures)".format(
                bare["rounds"][0]["figures"]), per_fig, "{:.3f} s"),)
        if svg["rounds"]:
            rows += j1_variant_rows(svg)
        median_range_table(md, rows)
        what = "{}, {} traces x {:,} IOs".format(shape, n, ios)
        md.append("Per worker: -J 2's peak less -J 1's, {:.1f} MiB (medians).\n".format(
            med(rss["j2"]) - med(rss["j1"])))
        v = med(rate["j1"])
        goal_row(goals, "full comparison -o, {}: CPU per IO".format(what), ">= 40 M IOs/CPU-s",
                 fmt(v, "{:.2f} M IOs/CPU-s"), v is not None and v >= 40, "")
        v = med(cpu_vs_stat) if cpu_vs_stat else None	# the second CPU goal
        goal_row(goals, "full comparison -o, {}: CPU vs stat's".format(what), "<= 1.5x",
                 fmt(v, "{:.2f}x", "n/a (stat's CPU under the clock's tick)"),
                 v is not None and v <= 1.5, "" if v is None else "rounds {:.2f}-{:.2f}x".format(
                     min(cpu_vs_stat), max(cpu_vs_stat)))
        v = med(speed)
        goal_row(goals, "full comparison -o, {}: wall -J 2 vs -J 1".format(what), ">= 1.70x",
                 "{:.2f}x".format(v), v >= 1.7, "rounds {:.2f}-{:.2f}, n={}".format(
                     min(speed), max(speed), len(speed)))
        a, b = max(rss["j2"]), max(rss["stat"])
        goal_row(goals, "full comparison -o, {}: peak memory vs stat".format(what), "<= 2x",
                 "{:.1f} vs {:.1f} MiB ({:.2f}x)".format(a, b, a / b), a <= 2 * b)
        j1_variant_goals(goals, what, bare, rss["stat"])
        j1_variant_goals(goals, what, svg, rss["stat"])
        peaks.setdefault((shape, n), []).append(
            (total, med(rss["j1"]), med(rss["j2"]), med(bare["rss"]) if bare["rss"] else None))
    flat_rows(md, goals, peaks)


def flat_rows(md, goals, peaks):
    """Section 11: peak memory of the same trace count at the fewest and most IOs (8x or more).
    The goal is the analysis' (--figures none, -J 1): with PNGs the peak is gnuplot's own
    process (about 31 MiB whatever the IOs), flat by itself; without --figures none runs, the
    larger of -J 1's and -J 2's ratios."""
    for (shape, n), ps in sorted(peaks.items()):
        lo, hi = min(ps), max(ps)
        if hi[0] < 8 * lo[0]:
            continue
        md.append("Peak memory, {}, {} traces: {:,} IOs -J 1 {:.1f} MiB, -J 2 {:.1f} MiB; {:,} "
                  "IOs -J 1 {:.1f} MiB, -J 2 {:.1f} MiB (medians, with PNGs).\n".format(
                      shape, n, lo[0], lo[1], lo[2], hi[0], hi[1], hi[2]))
        name = "full comparison -o{}, {}, {} traces: peak memory {:,} vs {:,} IOs"
        if lo[3] and hi[3]:
            md.append("-J 1 --figures none: {:.1f} MiB at {:,} IOs, {:.1f} MiB at {:,} "
                      "(medians).\n".format(lo[3], lo[0], hi[3], hi[0]))
            r = hi[3] / lo[3]
            goal_row(goals, name.format(" --figures none", shape, n, hi[0], lo[0]), "<= 1.25x",
                     "{:.2f}x".format(r), r <= 1.25, "-J 1's ratio of medians")
            continue
        r = max(hi[1] / lo[1], hi[2] / lo[2])
        goal_row(goals, name.format("", shape, n, hi[0], lo[0]), "<= 1.25x", "{:.2f}x".format(r),
                 r <= 1.25, "the larger of -J 1's and -J 2's ratios of medians")
