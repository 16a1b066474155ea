"""watch.py - section 15 of BENCHMARKS.md (tools/bench-sections/watch.sh): nvanalyze watch beside
a traced run (issue 55): IOPS and the IO loop's waits with and without it (nv_nop and
jobs/randread.fio), its CPU per IO against the post-run analysis', its peak RSS against the run's
length (a 4 times longer nv_nop run, synthetic traces of a quarter and a whole hour)."""
import os
import re

from .common import goal_row, load_json, med, median_range_table, read_time


def fio_iops(path):
    """The IOPS of a group-reported fio JSON at path, or None."""
    j = load_json(path)
    try:
        return j["jobs"][0]["read"]["iops"]
    except (KeyError, IndexError, TypeError):
        return None


def footers(path):
    """(IO-loop waits, records) summed over the `nvanalyze stat` outputs in path, or None."""
    try:
        txt = open(path).read()
    except OSError:
        return None
    waits = [int(x) for x in re.findall(r"^  writer\.io_waits = (\d+)$", txt, re.M)]
    recs = [int(x) for x in re.findall(r"^records: (\d+)$", txt, re.M)]
    return (sum(waits), sum(recs)) if waits and recs else None


def run(d, p):
    """One run's numbers (prefix p in d): iops, waits, records, and when watched the watcher's
    and the post-run analysis' times; None when it did not run."""
    f = footers(os.path.join(d, p + ".stat"))
    iops = fio_iops(os.path.join(d, p + ".out"))
    if f is None or iops is None:
        return None
    return {"iops": iops, "waits": f[0], "records": f[1],
            "watch": read_time(os.path.join(d, p + "-watch.time")),
            "post": read_time(os.path.join(d, p + "-post.time")),
            "postbeside": read_time(os.path.join(d, p + "-postbeside.time")),
            "rewatch": read_time(os.path.join(d, p + "-rewatch.time"))}


def rounds_of(d, meta, prefix):
    """The complete rounds (alone, watched, alone2) of runs named PREFIX + rR-CFG."""
    out = []
    for r in range(1, int(meta.get("watch_rounds", 0) or 0) + 1):
        c = {k: run(d, "{}r{}-{}".format(prefix, r, k)) for k in ("alone", "watched", "alone2")}
        if all(c.values()) and c["watched"]["watch"] and c["watched"]["post"]:
            out.append(c)
    return out


def io_rows(rounds, what):
    """IOPS and IO-loop wait rows of rounds of job what, and the per-round ratios."""
    ratio = [c["watched"]["iops"] / c["alone"]["iops"] for c in rounds]
    aa = [c["alone2"]["iops"] / c["alone"]["iops"] for c in rounds]
    return [("IOPS without a watcher, {}".format(what), [c["alone"]["iops"] for c in rounds],
             "{:,.0f}"),
            ("IOPS watched, {}".format(what), [c["watched"]["iops"] for c in rounds], "{:,.0f}"),
            ("**IOPS watched / without**, {} (per round)".format(what), ratio, "{:.3f}x"),
            ("IOPS without again / without (A/A), {}".format(what), aa, "{:.3f}x"),
            ("IO-loop waits, watched, {}".format(what), [c["watched"]["waits"] for c in rounds],
             "{:.0f}"),
            ("IO-loop waits, without, {}".format(what),
             [c["alone"]["waits"] + c["alone2"]["waits"] for c in rounds], "{:.0f}")], ratio, aa


def hour(d, name):
    """(peak RSS MiB, intervals, the writer's wall s) of the synthetic trace run name, or None."""
    t = read_time(os.path.join(d, name + "-watch.time"))
    g = read_time(os.path.join(d, name + "-gen.time"))
    try:
        with open(os.path.join(d, name + "-intervals")) as f:
            n = int(f.read().strip() or 0)
    except (OSError, ValueError):
        return None
    return (t["maxrss_kb"] / 1024, n, g["wall"] if g else None) if t else None


def listen_rows(d, meta):
    """Issue 56's rows: per job count, the watcher's CPU per second of run without and with
    --listen and 1 s scrapes, and their ratio per round; [] when not run."""
    rows = []
    rt = int(meta.get("watch_runtime", 0) or 0)
    for j in (4, 64):
        plain, listen, ratio, scrapes = [], [], [], []
        for r in range(1, int(meta.get("watch_rounds", 0) or 0) + 1):
            t = {c: read_time(os.path.join(d, "j{}-r{}-{}-watch.time".format(j, r, c)))
                 for c in ("plain", "listen")}
            if not all(t.values()) or not rt:
                continue
            plain.append(t["plain"]["cpu"] / rt * 1e3)
            listen.append(t["listen"]["cpu"] / rt * 1e3)
            if t["plain"]["cpu"] > 0:
                ratio.append(t["listen"]["cpu"] / t["plain"]["cpu"])
            try:
                with open(os.path.join(d, "j{}-r{}-listen-scrapes".format(j, r))) as f:
                    scrapes.append(sum(1 for _ in f))
            except OSError:
                pass
        if not plain:
            continue
        rows += [("watcher CPU, {} jobs, without --listen".format(j), plain, "{:.0f} ms/s"),
                 ("watcher CPU, {} jobs, --listen + 1 s scrapes".format(j), listen,
                  "{:.0f} ms/s"),
                 ("**--listen / without**, {} jobs (per round)".format(j), ratio, "{:.2f}x"),
                 ("scrapes answered, {} jobs".format(j), scrapes, "{:.0f}")]
    return rows


def section(md, wd, meta, goals):
    """15. nvanalyze watch beside a traced run."""
    md.append("## 15. nvanalyze watch beside a traced run\n")
    d = os.path.join(wd, "watch")
    rounds = rounds_of(d, meta, "")
    if not rounds:
        md.append("Not run in this mode.\n")
        return
    rr = rounds_of(d, meta, "rr-")
    long_ = run(d, "long")
    rt = int(meta.get("watch_runtime", 0) or 0)
    hs = int(meta.get("watch_hour_s", 0) or 0)
    hiops = int(meta.get("watch_hour_iops", 0) or 0)
    hq, hf = hour(d, "hour-quarter"), hour(d, "hour-full")
    md.append("Run on {} (nvengine {}, mode {}, {} cores).  Two jobs, each traced, in rounds of "
              "three, the order reversed every other round: without a watcher, with `nvanalyze "
              "watch --format jsonl` on its trace directory (it ends by itself after fio), and "
              "without again (the A/A pair): nv_nop 4 jobs x QD 64 (`--numjobs=4 "
              "--group_reporting`, {} s) on the tmpfs file, CPU-bound; and the brief's "
              "`jobs/randread.fio` as users run it (direct IO on the checkout's file system, "
              "4 jobs x QD 64 on four 256 MiB files), its `runtime=` cut to {} s in a copy.  The "
              "IO loop's waits from the traces' footers; the watcher's and the post-run "
              "analysis' (`nvanalyze -f json` of the watched run) CPU (user + sys) per traced "
              "IO and peak RSS from `/usr/bin/time`, and the watcher run once more on the "
              "finished traces (the same lines: its work without fio beside it).  The watcher "
              "runs beside fio, which keeps both cores busy: its CPU per IO includes what that "
              "contention costs (caches, preemption), so the post-run analysis of the same "
              "traces is also timed beside a running fio (the same nv_nop job, traced to a "
              "scratch directory, the analysis started 1 s into it): the like-for-like "
              "comparison, the goal's.  The machine is shared with other sessions: read the "
              "per-round ratios.\n"
              .format(meta.get("date", "?"), meta.get("commit", "?"), meta.get("mode", "?"),
                      meta.get("cores", "?"), rt, rt))
    w = [c["watched"] for c in rounds]
    rows, ratio, aa = io_rows(rounds, "nv_nop")
    if rr:
        rrows, rratio, raa = io_rows(rr, "randread.fio")
        rows += rrows
    cpu = [(x["watch"]["cpu"] / x["records"] * 1e9) for x in w]
    post = [(x["post"]["cpu"] / x["records"] * 1e9) for x in w]
    rel = [a / b for a, b in zip(cpu, post) if b]
    rew = [x["rewatch"]["cpu"] / x["records"] * 1e9 for x in w if x["rewatch"]]
    rrel = [x["rewatch"]["cpu"] / x["post"]["cpu"] for x in w
            if x["rewatch"] and x["post"]["cpu"]]
    pb = [x["postbeside"]["cpu"] / x["records"] * 1e9 for x in w if x["postbeside"]]
    brel = [x["watch"]["cpu"] / x["postbeside"]["cpu"] for x in w
            if x["postbeside"] and x["postbeside"]["cpu"]]
    rss = [x["watch"]["maxrss_kb"] / 1024 for x in w]
    rows += [("watcher CPU per IO, nv_nop", cpu, "{:.1f} ns"),
             ("post-run analysis CPU per IO, nv_nop", post, "{:.1f} ns"),
             ("watcher CPU / post-run analysis', nv_nop (per round)", rel, "{:.2f}x"),
             ("post-run analysis CPU per IO beside a running fio, nv_nop", pb or None,
              "{:.1f} ns"),
             ("**watcher CPU / post-run analysis' beside fio**, nv_nop (per round)",
              brel or None, "{:.2f}x"),
             ("watcher CPU per IO on the finished traces, nv_nop", rew or None, "{:.1f} ns"),
             ("**watcher on the finished traces / post-run analysis'** (per round)", rrel or None,
              "{:.2f}x"),
             ("watcher peak RSS, nv_nop {} s".format(rt), rss, "{:.1f} MiB")]
    rows.append(("post-run analysis peak RSS, nv_nop {} s".format(rt),
                 [x["post"]["maxrss_kb"] / 1024 for x in w], "{:.1f} MiB"))
    if long_ and long_["watch"] and long_["post"]:
        rows.append(("watcher peak RSS, nv_nop {} s".format(rt * 4),
                     [long_["watch"]["maxrss_kb"] / 1024], "{:.1f} MiB"))
        rows.append(("post-run analysis peak RSS, nv_nop {} s".format(rt * 4),
                     [long_["post"]["maxrss_kb"] / 1024], "{:.1f} MiB"))
    for name, h, secs in (("a quarter", hq, hs // 4), ("the whole", hf, hs)):
        if h:
            rows.append(("watcher peak RSS, synthetic {} s ({:.1f} M IOs, {} intervals)"
                         .format(secs, secs * hiops / 1e6, h[1]), [h[0]], "{:.1f} MiB"))
    if hq and hf:
        rows.append(("**watcher peak RSS, synthetic {} s / {} s**".format(hs, hs // 4),
                     [hf[0] / hq[0]], "{:.2f}x"))
    median_range_table(md, rows)
    if hq or hf:
        md.append("RSS against the run's length, two shapes.  nv_nop: the same job {} s and "
                  "{} s at full speed (about {:.1f} M IOs per s of run): the IOs and their "
                  "spread grow with the length.  Synthetic: `tests/unit/gen_trace` writes through "
                  "the real trace writer {:,} IOs per s of the trace's clock (QD 4, randread, "
                  "a block per s, a tail of 1 IO in 1000) for {} s ({} intervals of 1 s; an hour "
                  "in full mode) and for a quarter of it, appended as fast as the writer goes "
                  "({}) while the watcher follows the file (started before it, it begins "
                  "reading 1 s after the file appears: gen_trace's header names no numjobs); "
                  "the watcher's peak RSS of each.\n".format(
                      rt, rt * 4, med([x["iops"] for x in w]) / 1e6, hiops, hs, hs,
                      "{:.1f} s for the whole".format(hf[2]) if hf and hf[2] else "?"))
    lrows = listen_rows(d, meta)
    if lrows:
        md.append("The HTTP output (issue 56): for 4 and for 64 jobs (nv_nop x QD 64, {} s), "
                  "rounds of a watched run without `--listen` and with `--listen "
                  "127.0.0.1:PORT --linger 0` and a client GETting `/metrics` every 1 s "
                  "(Prometheus at the watch's interval), the order alternated; the watcher's "
                  "CPU (user + sys, `/usr/bin/time`) per second of run.  The machine was shared "
                  "(load from the other sessions): read the per-round ratio, not the absolute "
                  "milliseconds.\n".format(rt))
        median_range_table(md, lrows)
    waits = sum(x["waits"] for x in w)
    goal_row(goals, "watcher: tracing's wait on the IO loop, nv_nop", "0 waits", str(waits),
             waits == 0, "{} watched runs".format(len(w)))
    lo, hi = min(aa + [1.0]), max(aa + [1.0])
    v = med(ratio)
    goal_row(goals, "watcher: IOPS watched vs without", "within A/A", "{:.3f}x".format(v),
             lo - 0.02 <= v <= hi + 0.02, "A/A {:.3f}-{:.3f}x (2% slack)".format(lo, hi))
    if rr:
        waits = sum(c["watched"]["waits"] for c in rr)
        goal_row(goals, "watcher: tracing's wait on the IO loop, randread.fio", "0 waits",
                 str(waits), waits == 0, "{} watched runs".format(len(rr)))
        lo, hi = min(raa + [1.0]), max(raa + [1.0])
        v = med(rratio)
        goal_row(goals, "watcher: IOPS watched vs without, randread.fio", "within A/A",
                 "{:.3f}x".format(v), lo - 0.02 <= v <= hi + 0.02,
                 "A/A {:.3f}-{:.3f}x (2% slack)".format(lo, hi))
    if brel:	# like for like: both beside a running fio
        v = med(brel)
        goal_row(goals, "watcher: CPU per IO vs the post-run analysis", "<= 1.00x",
                 "{:.2f}x".format(v), v <= 1.0, "both beside a running fio: {:.1f} vs {:.1f} "
                 "ns per IO; the analysis alone after the run {:.2f}x, the watcher on the "
                 "finished traces {}".format(med(cpu), med(pb), med(rel),
                                             "{:.2f}x".format(med(rrel)) if rrel else "not run"))
    else:
        v = med(rel)
        goal_row(goals, "watcher: CPU per IO vs the post-run analysis", "<= 1.00x",
                 "{:.2f}x".format(v), v <= 1.0, "{:.1f} vs {:.1f} ns per IO; on the finished "
                 "traces {}".format(med(cpu), med(post),
                                    "{:.2f}x".format(med(rrel)) if rrel else "not run"))
    if hq and hf:
        v = hf[0] - hq[0]
        goal_row(goals, "watcher: peak RSS, an hour's trace vs a quarter's", "growth <= 2 MiB",
                 "{:+.1f} MiB".format(v), v <= 2.0, "synthetic, {} s vs {} s of {:,} IOs per "
                 "s: {:.1f} vs {:.1f} MiB".format(hs, hs // 4, hiops, hf[0], hq[0]))
    if long_ and long_["watch"] and long_["post"]:
        v = long_["watch"]["maxrss_kb"] / long_["post"]["maxrss_kb"]
        goal_row(goals, "watcher: peak RSS vs the post-run analysis'", "<= 1.25x",
                 "{:.2f}x".format(v), v <= 1.25,
                 "{} s run; both bounded by exact.h's single pass (its counts and list caps), "
                 "flat past them; {:.1f} MiB at {} s".format(rt * 4, med(rss), rt))
