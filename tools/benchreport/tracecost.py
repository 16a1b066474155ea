"""Sections 6, 7 and 12 of the benchmark report, what tracing costs the IOs it traces: the CPU time
per IO of the job thread and of the trace writer (6), the QD 1 latency on a direct-IO loop device
(7) and the disturbance with the CPUs busy (12, disturb.py)."""
import glob
import gzip
import os
import re
import statistics

from . import disturb
from .common import (goal_row, job0, kfmt, load_json, med, median_range_table, pair_stats,
                     ratio_cell)


def read_info(path):
    """bench_trace -i output: {'records': n, 'bytes': n, 'header'/'footer': {k: v}}; None if
    absent."""
    try:
        lines = open(path).read().splitlines()
    except OSError:
        return None
    res = {"header": {}, "footer": {}}
    for line in lines:
        key, _, val = line.partition(" ")
        if key in ("records", "bytes"):
            res[key] = int(val)
        elif key in ("header", "footer"):
            k, _, v = val.partition("=")
            res[key][k] = v
    return res if "records" in res else None


def cpu_runs(wd):
    """(cfg, round) -> job thread ns per IO (fio's RUSAGE_THREAD), writer ns per record, B/IO."""
    runs = {}
    for p in glob.glob(os.path.join(wd, "cpu", "r*-*.out")):
        m = re.match(r"r(\d+)-(\w+)\.out$", os.path.basename(p))
        j = job0(load_json(p)) if m else None
        if not j or not j["read"]["total_ios"] or not j.get("job_runtime"):
            continue
        ios = j["read"]["total_ios"]
        v = {"ios": ios, "iops": j["read"]["iops"],
             "job_ns": (j["usr_cpu"] + j["sys_cpu"]) / 100 * j["job_runtime"] * 1e6 / ios}
        info = read_info(p[:-4] + ".info")
        if info and info["records"] and "writer.cpu_ns" in info["footer"]:
            v["writer_ns"] = int(info["footer"]["writer.cpu_ns"]) / info["records"]
            v["bpi"] = info["bytes"] / info["records"]
            v["clock"] = info["header"].get("clock.source", "clock_gettime")
        runs[(m.group(2), int(m.group(1)))] = v
    return runs


def spread(xs, spec):
    """'median (min-max, n=N)' of xs with spec, or None when empty."""
    xs = [x for x in xs if x is not None]
    if not xs:
        return None, ""
    return statistics.median(xs), "rounds {}-{}, n={}".format(spec.format(min(xs)),
                                                              spec.format(max(xs)), len(xs))


def loop_runs(wd):
    runs = {}
    for p in glob.glob(os.path.join(wd, "loop", "r*.out")):
        m = re.match(r"r(\d+)-(\w+)\.out$", os.path.basename(p))
        j = job0(load_json(p)) if m else None
        if not j or not j["read"]["total_ios"]:
            continue
        c = j["read"]["clat_ns"]
        runs[(m.group(2), int(m.group(1)))] = {
            "iops": j["read"]["iops"], "mean": c["mean"] / 1e3,
            "p99": c.get("percentile", {}).get("99.000000", 0) / 1e3}
    return runs


def loop_ab_runs(wd, window, kind="ab"):
    """Section 7's nv_trace_ab runs (loop/abN_clat.1.log.gz, fio's per-IO clat log in ns, in
    completion order): per run, fio's clat mean over the IOs of the traced ("on") and of the
    untraced ("off") windows.  At QD 1 each reap completes one IO, so IO i (1-based) ran traced
    when i is 1 or (i - 2) // window is even; only whole windows count (the first IO and the last,
    cut short window do not).  kind "aa": the untraced runs beside them (aaN), split the same
    way."""
    runs = []
    for p in glob.glob(os.path.join(wd, "loop", kind + "*_clat.1.log.gz")):
        sums, ns = [0, 0], [0, 0]
        with gzip.open(p, "rt") as f:
            clat = [int(line.split(",")[1]) for line in f if line.strip()]
        whole = (len(clat) - 1) // window * window
        for i in range(2, 2 + whole):
            on = ((i - 2) // window) % 2 == 0
            sums[on] += clat[i - 1]
            ns[on] += 1
        if ns[0] and ns[1]:
            runs.append({"on": sums[1] / ns[1] / 1e3, "off": sums[0] / ns[0] / 1e3,
                         "ios": ns[0] + ns[1]})
    return runs


def nop_pairs(wd):
    """The nv_nop pairs of section 6 (one fio, stonewalled jobs nop_off_K / nop_on_K): off, on
    lists, and the method's own noise: the order off_1 on_1 on_2 off_2 off_3 on_3 ... runs on_K
    next to on_K+1 (K odd) and off_K next to off_K+1 (K even), the same configuration back to back
    (A/A), whose job ns per IO differences (later - earlier) are the third list."""
    p = os.path.join(wd, "cpu", "nop_pairs.out")
    data = load_json(p) if os.path.exists(p) else None
    jobs = {}
    for j in (data or {}).get("jobs", []):
        m = re.match(r"nop_(off|on)_(\d+)$", j.get("jobname", ""))
        ios = j["read"]["total_ios"]
        if m and ios and j.get("job_runtime"):
            jobs[(m.group(1), int(m.group(2)))] = {
                "ios": ios, "iops": j["read"]["iops"],
                "job_ns": (j["usr_cpu"] + j["sys_cpu"]) / 100 * j["job_runtime"] * 1e6 / ios}
    ks = sorted({k for (c, k) in jobs if c == "off"} & {k for (c, k) in jobs if c == "on"})
    same = []
    for k in ks:
        c = "on" if k % 2 else "off"
        if (c, k + 1) in jobs:
            same.append(jobs[(c, k + 1)]["job_ns"] - jobs[(c, k)]["job_ns"])
    return [jobs[("off", k)] for k in ks], [jobs[("on", k)] for k in ks], same


def ab_runs(wd):
    """Section 6's nv_trace_ab runs (cpu/abN.info): per run, the job thread's ns per IO in the
    windows with tracing off and on, and how many windows of each kind."""
    runs = []
    for p in glob.glob(os.path.join(wd, "cpu", "ab*.info")):
        f = (read_info(p) or {}).get("footer", {})
        try:
            on_ios, off_ios = int(f["ab.on.ios"]), int(f["ab.off.ios"])
            runs.append({"on": int(f["ab.on.cpu_ns"]) / on_ios,
                         "off": int(f["ab.off.cpu_ns"]) / off_ios,
                         "windows": int(f["ab.on.windows"]) + int(f["ab.off.windows"])})
        except (KeyError, ValueError, ZeroDivisionError):
            continue
    return runs


def ab_table(md, runs):
    """Rows of the nv_trace_ab runs; returns the per-run ns per IO added by tracing."""
    added = [r["on"] - r["off"] for r in runs]
    median_range_table(md, (
        ("job thread CPU per IO, windows with tracing off", [r["off"] for r in runs], "{:.0f} ns"),
        ("job thread CPU per IO, windows with tracing on", [r["on"] for r in runs], "{:.0f} ns"),
        ("**added by tracing, job thread, per IO** (on - off, per run)", added, "{:+.1f} ns"),
        ("windows per run (both kinds)", [r["windows"] for r in runs], "{:.0f}")))
    return added


def quartiles(xs):
    """Lower and upper quartile of xs (statistics.quantiles, 'inclusive')."""
    q = statistics.quantiles(xs, n=4, method="inclusive")
    return q[0], q[2]


def cpu_table(md, off, on, writer=True):
    """Rows of one off/on pair of section 6 (with the writer's rows); returns (added job ns per IO,
    writer ns, B/IO) lists."""
    added = [b["job_ns"] - a["job_ns"] for a, b in zip(off, on)]
    wr = [b.get("writer_ns") for b in on]
    bpi = [b.get("bpi") for b in on]
    median_range_table(md, (
        ("IOPS, tracing off", [a["iops"] / 1e3 for a in off], "{:.1f}k"),
        ("IOPS, tracing on", [b["iops"] / 1e3 for b in on], "{:.1f}k"),
        ("job thread CPU per IO, tracing off", [a["job_ns"] for a in off], "{:.0f} ns"),
        ("job thread CPU per IO, tracing on", [b["job_ns"] for b in on], "{:.0f} ns"),
        ("**added by tracing, job thread, per IO** (on - off, per round)", added, "{:+.1f} ns"),
        ("**trace writer thread CPU per record**", wr if writer else None, "{:.1f} ns"),
        ("trace size", bpi if writer else None, "{:.2f} B/IO")))
    if writer:
        clocks = sorted({b.get("clock") for b in on if b.get("clock")})
        md.append("Trace clock of the traced runs: {}.\n".format(
            ", ".join("`{}`".format(c) for c in clocks) or "?"))
    return added, wr, bpi


def cpu_pair(runs, off, on):
    """The off and on runs of the rounds that have both, in round order."""
    rounds = sorted({r for (c, r) in runs if c == on} & {r for (c, r) in runs if c == off})
    return [runs[(off, r)] for r in rounds], [runs[(on, r)] for r in rounds]


def section_cpu(md, wd, meta, goals):
    md.append("## 6. Tracing's CPU time per IO\n")
    runs = cpu_runs(wd)
    abr = ab_runs(wd)
    noff, non, same = nop_pairs(wd)
    foff, fon = cpu_pair(runs, "nv_off1", "nv_on1")
    if not non and not fon and not abr:
        md.append("Not run in this mode.\n")
        return
    md.append("4k `randread` at QD 32 with tracing off and on (`nv_trace`, zstd level 1).  **Job "
              "thread**: fio's `usr_cpu` + `sys_cpu` (`RUSAGE_THREAD` of the job thread: "
              "submission, reaping and the trace's clock reads and record copies) times "
              "`job_runtime`, over the IOs; tracing's cost is on minus off of the same round.  "
              "**Writer thread**: its own `CLOCK_THREAD_CPUTIME_ID` when it writes the footer "
              "(`writer.cpu_ns`: column transform, zstd, CRC, write), over the records; untraced "
              "runs have no writer.  CPU time, unlike IOPS, does not move with the wake-up "
              "latency of this VM's vCPUs, but a loaded machine still stretches it (caches): see "
              "the load average in the Machine table.\n")
    md.append("### No-op IO (`nv_nop=1`), tracing on and off by turns within each "
              "run: the job thread's cost\n")
    md.append("Every IO is an `IORING_OP_NOP` through the same ring, hooks and trace (nothing is "
              "read): the job thread's time is fio's and the engine's own, so tracing's share is "
              "not lost in a device's or io-wq's variance.  This machine's vCPUs change speed by "
              "a fifth from one tenth of a second to the next (a fixed loop's CPU time per 0.1 s "
              "ranged 0.101-0.152 s), more than tracing's whole cost, so the two sides are "
              "compared inside one job: with `nv_trace_ab={}` the engine traces {} completions, "
              "then leaves the next {} untraced, and so on, and sums the job thread's "
              "`CLOCK_THREAD_CPUTIME_ID` per kind of window (the trace footer's `ab.*` keys); "
              "windows about a millisecond apart run at the same speed.  {} runs of {} s; each "
              "run's figure is its traced windows' CPU per IO minus its untraced windows'.  What "
              "this leaves out: the writer thread's effect on the IO thread's core, if any (it "
              "compresses the traced windows' records on the other core, during windows of both "
              "kinds); the whole-job pairs below include it, at a larger noise.\n".format(
                  meta.get("ab_window"), meta.get("ab_window"), meta.get("ab_window"),
                  meta.get("ab_rounds"), meta.get("ab_runtime")))
    ab_added = ab_table(md, abr) if abr else []
    md.append("### No-op IO (`nv_nop=1`), whole jobs in pairs\n")
    md.append("The same jobs with tracing off and on as {} pairs of stonewalled jobs of {} ms "
              "in one fio process, in the order A B B A A B ...; the cost is the median of "
              "the pairs' differences, from fio's `usr_cpu` + `sys_cpu`.  The trace's "
              "latencies are a NOP's, so its writer figures are not those of a real trace "
              "(the writer's are below).\n".format(
                  meta.get("cpu_pairs"), meta.get("cpu_pair_ms")))
    added, _, _ = cpu_table(md, noff, non, writer=False)
    if len(added) >= 4:
        lo, hi = quartiles(added)
        md.append("Pairs' differences (on - off): quartiles {:+.1f} and "
                  "{:+.1f} ns per IO, n={}.\n".format(
            lo, hi, len(added)))
    if len(same) >= 4:
        lo, hi = quartiles(same)
        md.append("The method's own noise: the jobs that run back to back with the same "
                  "configuration (on then on, off then off, as the order places them; "
                  "A/A) differ by a median of {:+.1f} ns per IO, quartiles {:+.1f} and "
                  "{:+.1f}, n={}: a difference of whole jobs is known to about that, "
                  "whatever tracing costs.\n".format(
                      med(same), lo, hi, len(same)))
    md.append("### tmpfs file: a real trace for the writer\n")
    md.append("The {} MiB tmpfs file of section 1 (`nv_iowq_workers=1` on both sides), separate "
              "runs of {} s, once per round, the order reversed every other round, {} rounds: "
              "reads run on an io-wq worker, so the records carry real latencies and the writer "
              "compresses what a real 4k randread trace holds.\n".format(
                  meta.get("file_mb"), meta.get("cpu_runtime"), meta.get("cpu_rounds")))
    _, wr, bpi = cpu_table(md, foff, fon)
    v, note = spread(ab_added, "{:+.1f}")
    goal_row(goals, "tracing's CPU time, job thread, per IO (nv_nop, on/off windows of {} IOs, "
             "QD 32)".format(meta.get("ab_window")), "<= 40 ns",
             None if v is None else "{:+.1f} ns".format(v), v is not None and v <= 40,
             note + " ns" if note else "")
    v, note = spread(added, "{:+.1f}")
    if note and len(same) >= 4:
        note += (" ns; the same configuration back to back (A/A): quartiles {:+.1f} and {:+.1f}"
                 .format(*quartiles(same)))
    goal_row(goals, "(reference) the same, whole jobs (nv_nop pairs, QD 32)", "-",
             None if v is None else "{:+.1f} ns".format(v), None, note + " ns" if note else "")
    v, note = spread(wr, "{:.1f}")
    goal_row(goals, "tracing's CPU time, trace writer thread, per record (tmpfs randread trace)",
             "<= 40 ns", None if v is None else "{:.1f} ns".format(v), v is not None and v <= 40,
             note + " ns" if note else "")
    all_in_rows(goals, ab_added, wr, bpi)


def all_in_rows(goals, job, writer, bpi):
    """Goal rows of tracing's whole CPU cost per IO: the job thread's (nv_nop windows, median of
    runs) plus the writer's per record (tmpfs trace, median of runs), and the bytes per IO of that
    trace.
    Return: nothing (appends to goals)."""
    j, _ = spread(job, "{:+.1f}")
    w, _ = spread(writer, "{:.1f}")
    v = None if j is None or w is None else j + w
    goal_row(goals, "tracing's CPU time all-in, job thread + writer, per IO", "<= 40 ns",
             None if v is None else "{:.1f} ns".format(v), v is not None and v <= 40,
             "" if v is None else "sum of the medians above: job thread {:+.1f} ns (nv_nop "
             "windows) + writer {:.1f} ns per record (tmpfs randread trace)".format(j, w))
    b, note = spread(bpi, "{:.2f}")
    goal_row(goals, "trace size of the all-in row's tmpfs randread trace", "<= 6 B/IO",
             None if b is None else "{:.2f} B/IO".format(b), b is not None and b <= 6.0,
             note + " B/IO" if note else "")


def section_loop(md, wd, meta, goals):
    md.append("## 7. QD 1 latency on a direct-IO loop device\n")
    skip = os.path.join(wd, "loop", "skip")
    if os.path.exists(skip):
        md.append("Skipped: {}\n".format(open(skip).read().strip()))
        return
    runs = loop_runs(wd)
    p = pair_stats(runs, "nv_on", "nv_off", "mean")
    if p["ratio"] is None:
        md.append("Not run in this mode.\n")
        return
    md.append("A sparse {} MiB file on the checkout's file system behind a loop device with "
              "direct IO (`losetup --direct-io=on`), 4k `randread`, `direct=1`, QD 1, "
              "nvengine with tracing off and on once per round (order reversed every other "
              "round), {} s per run, {} rounds: what a user of a QD 1 latency test sees.  "
              "The sparse file's blocks are holes, so the loop device's reads cost the "
              "kernel path, not a disk.\n".format(
                  meta.get("file_mb"), meta.get("loop_runtime"), meta.get("loop_rounds")))
    md.append("| configuration | IOPS (median) | clat mean (median) | clat mean "
              "range | clat p99 (median) |")
    md.append("|---|---|---|---|---|")
    for cfg, label in (("nv_off", "nvengine, tracing off"), ("nv_on", "nvengine, tracing on")):
        vals = [v for (c, r), v in runs.items() if c == cfg]
        md.append("| {} | {} | {:.1f} us | {:.1f}-{:.1f} us | {:.1f} us |".format(
            label, kfmt(med([v["iops"] for v in vals])), med([v["mean"] for v in vals]),
            min(v["mean"] for v in vals), max(v["mean"] for v in vals),
            med([v["p99"] for v in vals])))
    p99 = pair_stats(runs, "nv_on", "nv_off", "p99")
    md.append("")
    md.append("| pair (A / B) | clat mean ratio, median of rounds (range) "
              "| clat p99 ratio (range) |")
    md.append("|---|---|---|")
    md.append("| tracing on / off | {} | {} |".format(ratio_cell(p), ratio_cell(p99)))
    md.append("")
    window = int(meta.get("ab_window") or 0)
    ab = loop_ab_runs(wd, window) if window else []
    aa = loop_ab_runs(wd, window, "aa") if window else []
    ratios = [r["on"] / r["off"] for r in ab]
    aa_ratios = [r["on"] / r["off"] for r in aa]
    if ab:
        md.append("Single runs here move by up to 3x from one to the next, whichever side they "
                  "are (slow stretches of seconds), so separate runs compare the moments they ran "
                  "at more than the trace.  The same test with tracing on and off by turns inside "
                  "each run (`nv_trace_ab={}`: {} IOs traced, {} not, and so on; windows of tens "
                  "of milliseconds) and fio's per-IO clat log (`write_lat_log`, "
                  "`log_avg_msec=0`): each IO counted in the kind of window it ran in, {} runs of "
                  "{} s.  Beside each, an untraced run with the same log split into the same "
                  "windows (A/A): what the method reads where there is no difference.\n".format(
                      window, window, window, len(ab), meta.get("loop_ab_runtime")))
        median_range_table(md, (
            ("fio clat mean, windows with tracing off", [r["off"] for r in ab], "{:.2f} us"),
            ("fio clat mean, windows with tracing on", [r["on"] for r in ab], "{:.2f} us"),
            ("**clat mean, tracing on / off** (per run)", ratios, "{:.4f}x"),
            ("A/A: untraced runs, the same windows' ratio (per run)", aa_ratios or None,
             "{:.4f}x"),
            ("IOs in whole windows per run", [r["ios"] for r in ab], "{:.0f}")))
    # The goal: fio's clat mean traced over untraced within 2% either way (a traced side faster
    # by more is noise, not a pass), the median over runs of the windows' ratio.  The separate
    # runs' figure (the median of each side's clat mean over rounds) stays as a reference.
    rw = med(ratios) if ratios else None
    goal_row(goals,
             "QD 1 clat mean, tracing on vs off, direct-IO loop device (on/off windows of {} "
             "IOs)".format(window), "0.98x-1.02x",
             None if rw is None else "{:.3f}x".format(rw), rw is not None and 0.98 <= rw <= 1.02,
             "" if rw is None else "median of {} runs, {:.3f}-{:.3f}{}".format(
                 len(ratios), min(ratios), max(ratios),
                 "; A/A (untraced) {:.3f}x".format(med(aa_ratios)) if aa else ""))
    rm = p["a"] / p["b"] if p["a"] is not None and p["b"] else None
    goal_row(goals, "(reference) the same, separate runs", "-",
             None if rm is None else "{:.3f}x".format(rm), None,
             "medians over {} rounds {:.1f} / {:.1f} us; per-round ratios {:.3f}x median, "
             "{:.3f}-{:.3f}; p99 {:.3f}x".format(
                 p["n"], p["a"], p["b"], p["ratio"], p["rmin"], p["rmax"], p99["ratio"] or 0))


def section_disturb(md, wd, meta, goals):
    """12. Tracing's disturbance (disturb.py)."""
    disturb.section(md, wd, meta, goals)
