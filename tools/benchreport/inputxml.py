"""inputxml.py - section 13 of BENCHMARKS.md (tools/bench-sections/inputxml.sh): reading
diskspd XML reports (issue 40).  inputs.py's section_inputxml calls section()."""
import glob
import os

from .common import fmt, goal_row, med, read_time


def runs(wd):
    """{report: {"size": bytes, "runs": [read_time]}} of the inputxml section, or None."""
    d = os.path.join(wd, "inputxml")
    res = {}
    for s in ("base", "small", "large"):
        try:
            size = int(open(os.path.join(d, s + ".size")).read())
        except (OSError, ValueError):
            return None
        runs = [read_time(p) for p in sorted(glob.glob(os.path.join(d, s + "-*.time")))]
        res[s] = {"size": size, "runs": [r for r in runs if r]}
    return res if all(res[s]["runs"] for s in res) else None


def section(md, wd, meta, goals):
    """13. diskspd XML reports: a 1 MB one parsed in under a second, memory linear."""
    md.append("## 13. diskspd XML reports\n")
    x = runs(wd)
    if not x:
        md.append("Not run in this mode.\n")
        return
    md.append("`nvanalyze -f csv` on diskspd XML reports (-Rxml) in diskspd's XmlResultParser "
              "layout: the real report of tests/fixtures/diskspd (PerfKitBenchmarker's, the base) "
              "and two made by tests/py/gen_diskspd_xml.py (-L and -D: 107 latency buckets per "
              "timespan, 42 Iops buckets per target; 16 and 64 threads x 4 targets), {} rounds, "
              "the three alternating in each; medians and ranges of `/usr/bin/time`.\n".format(
                  meta.get("xml_rounds", "?")))
    md.append("| report | size | wall (median, range) | CPU user+sys (median) | peak RSS (max) |")
    md.append("|---|---|---|---|---|")
    row = {}
    for s, what in (("base", "real, 1 thread"), ("small", "16 threads"), ("large", "64 threads")):
        r = x[s]["runs"]
        walls = [t["wall"] for t in r]
        row[s] = {"wall": med(walls), "rss": max(t["maxrss_kb"] for t in r) / 1024.0,
                  "mb": x[s]["size"] / 1e6}
        md.append("| {} ({}) | {:.2f} MB | {} s ({}-{}) | {} s | {:.1f} MiB |".format(
            s, what, row[s]["mb"], fmt(row[s]["wall"]), fmt(min(walls)), fmt(max(walls)),
            fmt(med([t["cpu"] for t in r])), row[s]["rss"]))
    grow = {s: (row[s]["rss"] - row["base"]["rss"]) / (row[s]["mb"] - row["base"]["mb"])
            for s in ("small", "large")}
    ratio = grow["large"] / grow["small"] if grow["small"] > 0 else None
    md.append("\nMemory per MB of XML above the base: {:.2f} MiB/MB at {:.1f} MB, {:.2f} MiB/MB "
              "at {:.1f} MB (linear: the same).\n".format(
                  grow["small"], row["small"]["mb"], grow["large"], row["large"]["mb"]))
    small_mb, wall = row["small"]["mb"], row["small"]["wall"]
    goal_row(goals, "diskspd XML report of {:.1f} MB: `nvanalyze` wall".format(small_mb),
               "< 1 s", "{} s".format(fmt(wall)), wall is not None and wall < 1, "median")
    goal_row(goals, "diskspd XML memory linear: MiB per MB, {:.1f} MB vs {:.1f} MB".format(
        row["large"]["mb"], small_mb), "<= 1.25x",
        None if ratio is None else "{:.2f}x".format(ratio),
        ratio is not None and ratio <= 1.25, "")
