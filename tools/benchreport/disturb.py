"""disturb.py - section 12 of BENCHMARKS.md (tools/bench-sections/disturb.sh): whether tracing
moves what it measures (issue 39).  tracecost.py's section_disturb calls section()."""
import os
import re

from .common import goal_row, load_json, med, median_range_table

# the jobs of section 12: (DISTURB_JOBS name, title, what ran)
JOBS = (
    ("nop", "nv_nop 4 jobs x QD 64",
     "`nv_nop=1`, 4 jobs x QD 64 (`--numjobs=4 --group_reporting`) on the tmpfs file, nothing "
     "else running: every IO is an `IORING_OP_NOP` through the engine, so the IO threads are "
     "CPU-bound and the IOPS ratio is the trace's CPU per IO against nv_nop's own (about 0.5 us "
     "per IO at 2 M IOPS a core)"),
    ("randread", "jobs/randread.fio + two busy loops",
     "the brief's `fio --ioengine=external:./libnvengine.so jobs/randread.fio` as it is (4 jobs x "
     "QD 64, `direct=1`, 20 s, four 256 MiB files laid out on the checkout's ext4: direct IO to "
     "this machine's virtual disk), two `while :; do :; done` loops beside it; untraced: the "
     "same file less its `nv_trace=` line"),
    ("maxiops", "jobs/instance/maxiops.fio + two busy loops",
     "`jobs/instance/maxiops.fio` (8 jobs x QD 256) with NVDEV the tmpfs file and NVDIRECT=0 "
     "(page-cache reads: no NVMe here, CPU-bound), RUNTIME the section's, two busy loops beside "
     "it; untraced: the same file less its `nv_trace=` line"),
    ("maxiops_thread", "jobs/instance/maxiops.fio in fio's thread mode + two busy loops",
     "the same two files with `thread` in their [global] section: the 8 jobs are threads of one "
     "fio process instead of 8 processes.  fio starts each job process in a session of its own, "
     "so with the kernel's autogroup scheduling (`/proc/sys/kernel/sched_autogroup_enabled` = 1, "
     "Debian's default) each job is a scheduling group of its job thread, the io-wq worker that "
     "runs its page-cache reads and, traced, its trace writer; the rows above against these say "
     "what that grouping does to the tail (README, \"What survives what\")"),
)


def fio_row(j):
    """IOPS, clat p99.99 and max (ns) of a group-reported fio JSON j, or None."""
    try:
        rd = j["jobs"][0]["read"]
        c = rd["clat_ns"]
        return {"iops": rd["iops"], "p9999": c["percentile"]["99.990000"], "max": c["max"]}
    except (KeyError, IndexError, TypeError):
        return None


def stat_footers(path):
    """The summed footers of the `nvanalyze stat` outputs in path: wait_ns, waits, span_ns (the
    traced time of every trace), cpu_ns, records, ring (the fullest high/chunks); None if
    absent."""
    try:
        txt = open(path).read()
    except OSError:
        return None
    def keys(k):
        return [int(x) for x in re.findall(r"^  writer\.{} = (\d+)$".format(k), txt, re.M)]
    spans = [float(x) for x in re.findall(r"^tracing: IO loop held by "
                                          r"tracing [0-9.]+% of ([0-9.]+) s",
                                          txt, re.M)]
    recs = [int(x) for x in re.findall(r"^records: (\d+)$", txt, re.M)]
    high, chunks = keys("ring_high"), keys("ring_chunks")
    if not spans or not keys("io_wait_ns"):
        return None
    ring = max(zip(high, chunks), key=lambda hc: hc[0] / hc[1], default=(None, None))
    return {"wait_ns": sum(keys("io_wait_ns")), "waits": sum(keys("io_waits")),
            "span_ns": sum(spans) * 1e9, "cpu_ns": sum(keys("cpu_ns")), "records": sum(recs),
            "ring": ring, "traces": len(spans)}


def job_rounds(wd, meta, job):
    """[{"off", "on", "off2": fio_row, "tr": stat_footers}] of the rounds that have all three."""
    d = os.path.join(wd, "disturb")
    out = []
    for r in range(1, int(meta.get("disturb_rounds", 0) or 0) + 1):
        p = os.path.join(d, "{}-r{}-".format(job, r))
        row = {c: fio_row(load_json(p + c + ".out")) for c in ("off", "on", "off2")}
        row["tr"] = stat_footers(p + "on.stat")
        if all(row.values()):
            out.append(row)
    return out


def ratios(rs, a, b, k):
    return [x[a][k] / x[b][k] for x in rs if x[b][k]]


def within(aa, x):
    """Whether x lies inside the A/A ratios' range, as 'PASS'-able bool (None: no A/A)."""
    return None if not aa or x is None else min(aa) <= x <= max(aa)


def nop_note(md, rs, cores):
    """What the nv_nop IOPS ratio says: the CPU per IO that cores / IOPS implies, untraced and
    traced (an upper bound: other processes share the cores).  Return: nothing."""
    off = med([cores / x["off"]["iops"] * 1e9 for x in rs])
    on = med([cores / x["on"]["iops"] * 1e9 for x in rs])
    md.append("IOPS as CPU per IO ({} cores / IOPS; other processes on the cores count too): "
              "{:.0f} ns untraced, {:.0f} ns traced, {:+.0f} ns for tracing, all of it (job "
              "thread and writer, section 6 splits it); nv_nop's own cost here is the untraced "
              "figure, against the about 500 ns of an idle machine.\n".format(
                  cores, off, on, on - off))


def job_part(md, goals, job, title, what, rs, cores):
    """One job's table and goal rows.  Return: nothing."""
    md.append("**{}**: {}.\n".format(title, what))
    if not rs:
        md.append("Not run in this mode.\n")
        return
    share = [x["tr"]["wait_ns"] / x["tr"]["span_ns"] * 100 for x in rs]
    waits = [x["tr"]["waits"] for x in rs]
    cpu = [x["tr"]["cpu_ns"] / x["tr"]["records"] for x in rs if x["tr"]["records"]]
    high = ["{} of {}".format(*x["tr"]["ring"]) for x in rs if x["tr"]["ring"][0] is not None]
    # traced against the untraced run of its round (off), and the A/A pair off2/off
    on_iops, aa_iops = ratios(rs, "on", "off", "iops"), ratios(rs, "off2", "off", "iops")
    on_p, aa_p = ratios(rs, "on", "off", "p9999"), ratios(rs, "off2", "off", "p9999")
    on_m, aa_m = ratios(rs, "on", "off", "max"), ratios(rs, "off2", "off", "max")
    median_range_table(md, (
        ("IOPS, untraced", [x["off"]["iops"] / 1e3 for x in rs], "{:.1f}k"),
        ("IOPS, traced", [x["on"]["iops"] / 1e3 for x in rs], "{:.1f}k"),
        ("**IOPS traced / untraced** (per round)", on_iops, "{:.3f}x"),
        ("IOPS untraced again / untraced (A/A)", aa_iops, "{:.3f}x"),
        ("clat p99.99, untraced", [x["off"]["p9999"] / 1e3 for x in rs], "{:.0f} us"),
        ("clat p99.99, traced", [x["on"]["p9999"] / 1e3 for x in rs], "{:.0f} us"),
        ("**p99.99 traced / untraced**", on_p, "{:.2f}x"),
        ("p99.99 A/A", aa_p, "{:.2f}x"),
        ("clat max, untraced", [x["off"]["max"] / 1e6 for x in rs], "{:.1f} ms"),
        ("clat max, traced", [x["on"]["max"] / 1e6 for x in rs], "{:.1f} ms"),
        ("**max traced / untraced**", on_m, "{:.2f}x"),
        ("max A/A", aa_m, "{:.2f}x"),
        ("**IO loop's wait for the trace writer** (share of the traced time)", share, "{:.3f}%"),
        ("IO-loop waits (all traces of the run)", waits, "{:.0f}"),
        ("trace writer CPU per record", cpu, "{:.1f} ns")))
    md.append("Trace ring high-water (the fullest thread's, of its chunks), per round: {}.\n"
              .format(", ".join(high) or "-"))
    if job == "nop":
        nop_note(md, rs, cores)
        w = max(waits)
        goal_row(goals, "tracing's wait on the IO loop, nv_nop 4 jobs x QD 64", "0 waits",
                   "{} waits (most in a round)".format(w), w == 0,
                   "IOPS traced/untraced {:.3f}x ({:.3f}-{:.3f}): the trace's CPU per IO against "
                   "nv_nop's".format(med(on_iops), min(on_iops), max(on_iops)))
        return
    s = max(share)
    goal_row(goals, "IO-loop wait share, {}".format(title), "<= 0.1%",
               "{:.3f}% (most in a round)".format(s), s <= 0.1,
               "{} waits in all".format(sum(waits)))
    for name, on, aa in (("p99.99", on_p, aa_p), ("max", on_m, aa_m)):
        v = med(on)
        goal_row(goals, "{} traced vs untraced, {}".format(name, title), "within A/A",
                   "{:.2f}x".format(v), within(aa, v),
                   "A/A {:.2f}-{:.2f}x, traced rounds {:.2f}-{:.2f}x, n={}".format(
                       min(aa), max(aa), min(on), max(on), len(on)))


def section(md, wd, meta, goals):
    """12. Whether tracing moves what it measures."""
    md.append("## 12. Tracing's disturbance: traced against untraced, with the CPUs busy\n")
    ran = meta.get("disturb_jobs", "").split()
    if not ran:
        md.append("Not run in this mode.\n")
        return
    md.append("Run at {} (nvengine {}, mode {}, {} cores), {} rounds of {} s runs (randread.fio: "
              "its own 20 s).  Per job and round: untraced, traced, untraced again (the A/A pair: "
              "how far two untraced runs differ), the order reversed every other round; every "
              "option the engine's default (nv_trace_sched=normal, nv_trace_buffer_ms=2000).  "
              "fio's clat p99.99 and max of the group-reported job; the IO loop's wait for the "
              "trace writer from every trace's footer (`writer.io_wait_ns` over the traced time, "
              "summed over the job's threads).  A traced ratio inside the A/A range is a "
              "difference this machine cannot tell from noise.\n".format(
                  meta.get("date", "?"), meta.get("commit", "?"), meta.get("mode", "?"),
                  meta.get("cores", "?"), meta.get("disturb_rounds", "?"),
                  meta.get("disturb_runtime", "?")))
    for job, title, what in JOBS:
        if job in ran:
            job_part(md, goals, job, title, what, job_rounds(wd, meta, job),
                     int(meta.get("cores", 0) or 1))
