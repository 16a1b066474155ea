"""Sections 13 and 14 of the benchmark report, nvanalyze reading other tools' outputs: diskspd XML
reports (13, inputxml.py) and fio's normal output of many jobs (14)."""
import os

from . import inputxml
from .common import goal_row, med, median_range_table, read_time


def section_inputxml(md, wd, meta, goals):
    """13. diskspd XML reports (inputxml.py)."""
    inputxml.section(md, wd, meta, goals)


def inputtext_rounds(wd, meta):
    """{round: {"one"|"quarter"|"all"|"full": time}} of section 14
    (tools/bench-sections/inputtext.sh), rounds with every call measured."""
    d = os.path.join(wd, "inputtext")
    out = {}
    for r in range(1, int(meta.get("input_rounds", 0) or 0) + 1):
        ts = {k: read_time(os.path.join(d, "{}-r{}.time".format(k, r)))
              for k in ("one", "quarter", "all", "full")}
        if all(ts.values()):
            out[r] = ts
    return out


def page_section(md, d, rounds, n, goals):
    """Section 14's page of n outputs (issue 57): the whole call's time and memory, a goal row;
    nothing when the rounds did not time it (an older run)."""
    ts = [read_time(os.path.join(d, "page-r{}.time".format(r))) for r in rounds]
    ts = [t for t in ts if t]
    if not ts:
        return
    info = open(os.path.join(d, "page.info")).read().strip() if os.path.exists(
        os.path.join(d, "page.info")) else "?"
    md.append("A page of {:,} outputs (an article's machines as runs, issue 57): {}  `nvanalyze "
              "-f csv PAGE` in the same rounds: its outputs cut, read, labelled by their "
              "headings and compared, ten sides of {:,} repeats.\n".format(n, info, n // 10))
    median_range_table(md, (
        ("page of {:,} outputs, wall".format(n), [t["wall"] for t in ts], "{:.2f} s"),
        ("page of {:,} outputs, CPU".format(n), [t["cpu"] for t in ts], "{:.2f} s"),
        ("page of {:,} outputs, peak RSS".format(n), [t["maxrss_kb"] / 1024 for t in ts],
         "{:.1f} MiB")))
    wall = [t["wall"] for t in ts]
    v = med(wall)
    goal_row(goals, "reading a page of {:,} outputs".format(n), "< 1 s", "{:.2f} s".format(v),
             v < 1.0, "CPU {:.2f} s; rounds {:.2f}-{:.2f} s, n={}".format(
                 med([t["cpu"] for t in ts]), min(wall), max(wall), len(wall)))


def section_inputtext(md, wd, meta, goals):
    """14. nvanalyze reading a fio normal output of many jobs: time, memory against jobs."""
    md.append("## 14. Reading fio's normal output: 10,000 jobs\n")
    rounds = inputtext_rounds(wd, meta)
    if not rounds:
        md.append("Not run in this mode.\n")
        return
    d = os.path.join(wd, "inputtext")
    n = int(meta.get("input_jobs", 0))
    info = open(os.path.join(d, "all.info")).read().strip() if os.path.exists(
        os.path.join(d, "all.info")) else "?"
    md.append("Run on {} (nvengine {}, mode {}, {} cores).  The input: {}  The same to {:,} jobs "
              "and to one job.  Rounds, the order reversed every other round, of `nvanalyze --job "
              "randrw-0 -f csv FILE` on each (the whole file read and its jobs matched, one job's "
              "rows printed: the reading), and of `nvanalyze -f csv` on the {:,}-job file (every "
              "job's rows, for reference).  `/usr/bin/time`: wall, CPU (user + sys), peak RSS.  "
              "Memory linear in jobs: the peak above the one-job call's grows 4x from {:,} to "
              "{:,} jobs (quadratic: 16x).\n"
              .format(meta.get("date", "?"), meta.get("commit", "?"), meta.get("mode", "?"),
                      meta.get("cores", "?"), info, n // 4, n, n // 4, n))
    rs = [rounds[r] for r in sorted(rounds)]
    mib = {k: [c[k]["maxrss_kb"] / 1024 for c in rs] for k in ("one", "quarter", "all", "full")}
    growth = [(c["all"]["maxrss_kb"] - c["one"]["maxrss_kb"]) /
              max(1, c["quarter"]["maxrss_kb"] - c["one"]["maxrss_kb"]) for c in rs]
    median_range_table(md, (
        ("{:,} jobs, read, wall".format(n), [c["all"]["wall"] for c in rs], "{:.2f} s"),
        ("{:,} jobs, read, CPU".format(n), [c["all"]["cpu"] for c in rs], "{:.2f} s"),
        ("{:,} jobs, read, wall".format(n // 4), [c["quarter"]["wall"] for c in rs], "{:.2f} s"),
        ("{:,} jobs, every row (-f csv), wall".format(n), [c["full"]["wall"] for c in rs],
         "{:.2f} s"),
        ("{:,} jobs, every row (-f csv), CPU".format(n), [c["full"]["cpu"] for c in rs],
         "{:.2f} s"),
        ("peak RSS, 1 job", mib["one"], "{:.1f} MiB"),
        ("peak RSS, {:,} jobs".format(n // 4), mib["quarter"], "{:.1f} MiB"),
        ("peak RSS, {:,} jobs".format(n), mib["all"], "{:.1f} MiB"),
        ("**peak RSS above 1 job: {:,} / {:,} jobs** (per round)".format(n, n // 4), growth,
         "{:.2f}x")))
    page_section(md, d, sorted(rounds), n, goals)
    wall = [c["all"]["wall"] for c in rs]
    v = med(wall)
    goal_row(goals, "reading a fio normal output of {:,} jobs".format(n), "< 1 s",
             "{:.2f} s".format(v), v < 1.0, "CPU {:.2f} s; rounds {:.2f}-{:.2f} s, n={}".format(
                 med([c["all"]["cpu"] for c in rs]), min(wall), max(wall), len(wall)))
    v = med(growth)
    goal_row(goals, "reading memory, fio normal output, {:,} vs {:,} jobs".format(n, n // 4),
             "<= 5.00x (linear 4x)", "{:.2f}x".format(v), v <= 5.0,
             "peak RSS above the one-job call's; {:.1f} vs {:.1f} MiB".format(
                 med(mib["all"]), med(mib["quarter"])))
