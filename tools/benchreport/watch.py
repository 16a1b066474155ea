"""watch.py - section 15 of BENCHMARKS.md (tools/bench-sections/watch.sh): nvanalyze watch beside
a traced run (issue 55): IOPS and the IO loop's waits with and without it, its CPU per IO against
the post-run analysis', its peak RSS against the run's length."""
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
            "post": read_time(os.path.join(d, p + "-post.time"))}


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
    rounds = []
    for r in range(1, int(meta.get("watch_rounds", 0) or 0) + 1):
        c = {k: run(d, "r{}-{}".format(r, k)) for k in ("alone", "watched", "alone2")}
        if all(c.values()) and c["watched"]["watch"] and c["watched"]["post"]:
            rounds.append(c)
    if not rounds:
        md.append("Not run in this mode.\n")
        return
    long_ = run(d, "long")
    rt = int(meta.get("watch_runtime", 0) or 0)
    md.append("Run on {} (nvengine {}, mode {}, {} cores).  nv_nop 4 jobs x QD 64 "
              "(`--numjobs=4 --group_reporting`, {} s) on the tmpfs file, traced, in rounds of "
              "three, the order reversed every other round: without a watcher, with `nvanalyze "
              "watch --format jsonl` on its trace directory (it ends by itself after fio), and "
              "without again (the A/A pair).  The IO loop's waits from the traces' footers; "
              "the watcher's and the post-run analysis' (`nvanalyze -f json` of the watched run) "
              "CPU (user + sys) per traced IO and peak RSS from `/usr/bin/time`; then one watched "
              "run of {} s.  Both hold pass 1's exact states, which grow with the IOs up to "
              "exact.h's single-pass caps and stay there (an hour's run: the same bound).\n"
              .format(meta.get("date", "?"), meta.get("commit", "?"), meta.get("mode", "?"),
                      meta.get("cores", "?"), rt, rt * 4))
    w = [c["watched"] for c in rounds]
    ratio = [c["watched"]["iops"] / c["alone"]["iops"] for c in rounds]
    aa = [c["alone2"]["iops"] / c["alone"]["iops"] for c in rounds]
    cpu = [(x["watch"]["cpu"] / x["records"] * 1e9) for x in w]
    post = [(x["post"]["cpu"] / x["records"] * 1e9) for x in w]
    rel = [a / b for a, b in zip(cpu, post) if b]
    rss = [x["watch"]["maxrss_kb"] / 1024 for x in w]
    rows = [("IOPS without a watcher", [c["alone"]["iops"] for c in rounds], "{:,.0f}"),
            ("IOPS watched", [x["iops"] for x in w], "{:,.0f}"),
            ("**IOPS watched / without** (per round)", ratio, "{:.3f}x"),
            ("IOPS without again / without (A/A)", aa, "{:.3f}x"),
            ("IO-loop waits, watched", [x["waits"] for x in w], "{:.0f}"),
            ("IO-loop waits, without", [c["alone"]["waits"] + c["alone2"]["waits"]
                                        for c in rounds], "{:.0f}"),
            ("watcher CPU per IO", cpu, "{:.1f} ns"),
            ("post-run analysis CPU per IO", post, "{:.1f} ns"),
            ("**watcher CPU / post-run analysis'** (per round)", rel, "{:.2f}x"),
            ("watcher peak RSS, {} s".format(rt), rss, "{:.1f} MiB")]
    rows.append(("post-run analysis peak RSS, {} s".format(rt),
                 [x["post"]["maxrss_kb"] / 1024 for x in w], "{:.1f} MiB"))
    if long_ and long_["watch"] and long_["post"]:
        rows.append(("watcher peak RSS, {} s".format(rt * 4), [long_["watch"]["maxrss_kb"] / 1024],
                     "{:.1f} MiB"))
        rows.append(("post-run analysis peak RSS, {} s".format(rt * 4),
                     [long_["post"]["maxrss_kb"] / 1024], "{:.1f} MiB"))
    median_range_table(md, rows)
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
    v = med(rel)
    goal_row(goals, "watcher: CPU per IO vs the post-run analysis", "<= 1.00x",
             "{:.2f}x".format(v), v <= 1.0, "{:.1f} vs {:.1f} ns per IO".format(med(cpu),
                                                                            med(post)))
    if long_ and long_["watch"] and long_["post"]:
        v = long_["watch"]["maxrss_kb"] / long_["post"]["maxrss_kb"]
        goal_row(goals, "watcher: peak RSS vs the post-run analysis'", "<= 1.25x",
                 "{:.2f}x".format(v), v <= 1.25,
                 "{} s run; both bounded by exact.h's single pass (its counts and list caps), "
                 "flat past them; {:.1f} MiB at {} s".format(rt * 4, med(rss), rt))
