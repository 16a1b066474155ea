#!/usr/bin/env python3
"""bench_report.py - turn the raw outputs of tools/bench.sh into BENCHMARKS.md
and a gnuplot chart.

    bench_report.py WORKDIR OUT.md OUT.png
    bench_report.py --grow-json SEED.json MB OUT.json
    bench_report.py --grow-normal SEED.txt NJOBS OUT.txt

WORKDIR is $BENCH_OUT of tools/bench.sh (meta.env, files/, trace/, analyze/,
memory/, vm/, cpu/, loop/, hosts/, sweep/).  Every number in the report is
computed here from those files: medians over rounds, and for each compared
pair the per-round ratio A/B (both measured in the same round, next to each
other) with its median and range.  A section whose outputs are missing is
reported as "not run", never as zero.  The goals table compares the medians
with the goals (issue 8 and later ones).  When only some sections ran
(BENCH_SECTIONS) and OUT.md exists, only those sections and their goal rows
are replaced in it, the rest kept (merge_report); the chart stays as it was.

--grow-json builds a large json+ file for the analyzer section from a real
fio json+ output: the seed's jobs are repeated (with new job names) until the
file reaches MB megabytes; every value stays one fio really wrote.
--grow-normal does the same for fio's normal output: NJOBS job entries.
"""
import glob
import gzip
import json
import os
import re
import statistics
import subprocess
import sys


def med(xs):
    xs = [x for x in xs if x is not None]
    return statistics.median(xs) if xs else None


def fmt(x, spec="{:.2f}", none="not run"):
    return none if x is None else spec.format(x)


def kfmt(x):
    """IOPS in k with 1 decimal, or 'not run'."""
    return "not run" if x is None else "{:.1f}k".format(x / 1e3)


def load_json(path):
    try:
        with open(path) as f:
            txt = f.read()
        return json.loads(txt[txt.index("{"):])
    except (OSError, ValueError):
        return None


def read_time(path):
    """'wall user sys maxrss_kb' written by /usr/bin/time -f; None if absent."""
    try:
        with open(path) as f:
            lines = [l.split() for l in f if l.strip()]
        # a killed command adds a "Command exited/terminated" line first
        w, u, s, m = lines[-1][:4]
        return {"wall": float(w), "user": float(u), "sys": float(s), "cpu": float(u) + float(s),
                "maxrss_kb": int(m)}
    except (OSError, ValueError, IndexError):
        return None


def read_meta(wd):
    meta = {}
    try:
        with open(os.path.join(wd, "meta.env")) as f:
            for line in f:
                k, _, v = line.rstrip("\n").partition("=")
                meta[k] = v
    except OSError:
        pass
    return meta


def job0(j):
    return j["jobs"][0] if j and j.get("jobs") else None


# ---------------------------------------------------------------- pairing
def pair_stats(runs, a, b, key):
    """runs[(cfg, round)] = dict; per-round ratios of key for a over b."""
    rounds = sorted({r for (c, r) in runs if c == a} & {r for (c, r) in runs if c == b})
    ratios = []
    for r in rounds:
        x, y = runs[(a, r)].get(key), runs[(b, r)].get(key)
        if x is not None and y:
            ratios.append(x / y)
    ma = med([runs[(a, r)].get(key) for r in rounds])
    mb = med([runs[(b, r)].get(key) for r in rounds])
    return {
        "a": ma, "b": mb, "n": len(ratios),
        "ratio": med(ratios),
        "rmin": min(ratios) if ratios else None,
        "rmax": max(ratios) if ratios else None,
    }


def ratio_note(p, target, extra=""):
    """Range of the per-round ratios; says when it straddles the target."""
    if p["ratio"] is None:
        return ""
    note = "rounds {:.3f}-{:.3f}".format(p["rmin"], p["rmax"])
    if p["rmin"] < target <= p["rmax"]:
        note += ": the rounds straddle the target, inconclusive at this noise"
    return note + extra


def ratio_cell(p):
    if p["ratio"] is None:
        return "not run"
    return "**{:.3f}x** ({:.3f}-{:.3f}, n={})".format(p["ratio"], p["rmin"], p["rmax"], p["n"])


# ---------------------------------------------------------------- sections
CFG_FILES = [
    ("null", "fio `null` (framework ceiling)"),
    ("uring", "fio `io_uring`"),
    ("uring_log", "fio `io_uring` + `write_lat_log`, `log_avg_msec=0`"),
    ("nv_off", "nvengine, tracing off"),
    ("nv_on", "nvengine, tracing on (`nv_trace`, level 1)"),
    ("nv_off1", "nvengine, tracing off, one io-wq worker (`nv_iowq_workers=1`)"),
    ("nv_on1", "nvengine, tracing on, one io-wq worker (`nv_iowq_workers=1`)"),
]
PAIRS_FILES = [
    ("nv_off", "uring", "nvengine off / fio io_uring"),
    ("nv_on", "nv_off", "nvengine on / nvengine off"),
    ("nv_on1", "nv_off1", "nvengine on / off, one io-wq worker each"),
    ("uring_log", "uring", "fio io_uring + lat log / fio io_uring"),
    ("nv_on", "uring_log", "nvengine on / fio io_uring + lat log"),
    ("uring", "null", "fio io_uring / fio null"),
]


def files_runs(wd, qd):
    runs = {}
    for p in glob.glob(os.path.join(wd, "files", "r*-qd%d.out" % qd)):
        m = re.match(r"r(\d+)-(\w+)-qd\d+\.out$", os.path.basename(p))
        if not m:
            continue
        r, cfg = int(m.group(1)), m.group(2)
        j = job0(load_json(p))
        t = read_time(p[:-4] + ".time")
        s = read_time(os.path.join(wd, "files", "s%d-%s-qd%d.time" % (r, cfg, qd)))
        if not j or not t:
            continue
        ios = j["read"]["total_ios"]
        rt = j.get("job_runtime") or j["read"].get("runtime")
        cpu = t["cpu"] - (s["cpu"] if s else 0)
        runs[(cfg, r)] = {
            "iops": j["read"]["iops"],
            "ios": ios,
            "cpu_io_us": cpu / ios * 1e6 if ios else None,
            "fio_cpu_io_us": ((j["usr_cpu"] + j["sys_cpu"]) / 100 * rt / 1000 / ios * 1e6)
                             if ios and rt else None,
            "startup_cpu": s["cpu"] if s else None,
            "mean_lat_us": j["read"]["clat_ns"]["mean"] / 1e3,
        }
    return runs


def vm_runs(wd, qd):
    runs = {}
    pat = os.path.join(wd, "vm", "results", "*bench-passthru*", "r*-qd%d.json" % qd)
    for p in glob.glob(pat):
        m = re.match(r"r(\d+)-(\w+)-qd\d+\.json$", os.path.basename(p))
        j = job0(load_json(p)) if m else None
        if not j or j.get("error"):
            continue
        runs[(m.group(2), int(m.group(1)))] = {"iops": j["read"]["iops"],
                                               "ios": j["read"]["total_ios"],
                                               "mean_lat_us": j["read"]["clat_ns"]["mean"] / 1e3}
    return runs


def trace_sizes(wd):
    """(tgt, pat, lvl) -> {ios, nvt, fio_logs{name: bytes}}"""
    out = {}
    for p in glob.glob(os.path.join(wd, "trace", "*.json")):
        m = re.match(r"(\w+)-(\w+)-(\w+)\.json$", os.path.basename(p))
        j = job0(load_json(p)) if m else None
        if not j:
            continue
        sizes = {}
        try:
            with open(p[:-5] + ".sizes") as f:
                for line in f:
                    n, s = line.rsplit(None, 1)
                    sizes[n] = int(s)
        except (OSError, ValueError):
            continue
        nvt = sum(s for n, s in sizes.items() if n.endswith(".nvt"))
        logs = {n: s for n, s in sizes.items() if n.startswith("fio_")}
        out[m.groups()] = {"ios": j["read"]["total_ios"], "nvt": nvt, "logs": logs,
                           "iops": j["read"]["iops"]}
    return out


BT_RE = {
    "encode": re.compile(r"^encode\s+([\d.]+) M records/s"),
    "encode_cpu": re.compile(r"^encode.*?([\d.]+) M per CPU second"),
    "append": re.compile(r"^append\s+([\d.]+) M records/s"),
    "size": re.compile(r"^size\s+([\d.]+) bytes/IO"),
    "read": re.compile(r"^read\s+([\d.]+) M records/s"),
}


def bench_trace(wd):
    """(pattern, codec, level) -> {metric: [values]}; files bt-PAT-zLEVEL-I (zstd),
    bt-PAT-gLEVEL-I (zlib)"""
    out = {}
    for p in glob.glob(os.path.join(wd, "trace", "bt-*.out")):
        m = re.match(r"bt-(\w+)-([zg])(\d)-\d+\.out$", os.path.basename(p))
        if not m:
            continue
        d = out.setdefault((m.group(1), "zstd" if m.group(2) == "z" else "zlib",
                            int(m.group(3))), {})
        with open(p) as f:
            for line in f:
                for k, rx in BT_RE.items():
                    mm = rx.search(line)
                    if mm:
                        d.setdefault(k, []).append(float(mm.group(1)))
    return out


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


def memory(wd, meta):
    d = os.path.join(wd, "memory")
    try:
        rows = [l.split() for l in open(os.path.join(d, "rss.tsv"))][1:]
    except OSError:
        return None
    early = float(meta.get("mem_early", 10))
    res = {"series": []}
    for col, name in ((1, "nv"), (2, "fio")):
        pts = [(int(r[0]) / 1000, int(r[col])) for r in rows if len(r) > col and r[col] != "-"]
        res["series"].append(pts)
        at = [v for t, v in pts if t >= early]
        res[name + "_early"] = at[0] if at else None
        res[name + "_early_t"] = next((t for t, v in pts if t >= early), None)
        res[name + "_last"] = pts[-1][1] if pts else None
        res[name + "_last_t"] = pts[-1][0] if pts else None
        res[name + "_max"] = max(v for t, v in pts) if pts else None
    res["nv_ios"] = (job0(load_json(os.path.join(d, "nv.json"))) or {}).get(
        "read", {}).get("total_ios")
    res["fio_ios"] = (job0(load_json(os.path.join(d, "fio.json"))) or {}).get(
        "read", {}).get("total_ios")
    for k in ("trace", "fiolog"):
        try:
            res[k + "_bytes"] = int(open(os.path.join(d, "size-" + k)).read())
        except (OSError, ValueError):
            res[k + "_bytes"] = None
    return res


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


# ---------------------------------------------------------------- report
def goal_row(rows, goal, target, measured, ok, note=""):
    if measured is None:
        res = "not run"
    elif ok is None:
        res = "-"
    else:
        res = "PASS" if ok else "**FAIL**"
    rows.append("| {} | {} | {} | {} | {} |".format(goal, target,
                                                   measured if measured is not None else "not run",
                                                   res, note))


def ratio_goal(goals, name, p, lim, extra=""):
    """A goal row for the median ratio of pair p: PASS when it is >= lim."""
    goal_row(goals, name, ">= {:.2f}x".format(lim),
             None if p["ratio"] is None else "{:.3f}x".format(p["ratio"]),
             p["ratio"] is not None and p["ratio"] >= lim, ratio_note(p, lim, extra))


# (A, B) pairs of the files section that have a goal: (goal name, least ratio)
GOALS_FILES = {
    ("nv_off", "uring"): ("nvengine tracing off vs fio `io_uring`, files", 1.0),
    ("nv_on", "nv_off"): ("tracing on vs off, files", 0.97),
    ("nv_on1", "nv_off1"): ("tracing on vs off, files, one io-wq worker", 0.97),
}

# (A, B) pairs of the passthrough section that have a goal: (goal name, least ratio)
GOALS_VM = {
    ("nv_off", "io_uring_cmd"): ("nvengine tracing off vs fio `io_uring_cmd`, passthrough", 1.0),
    ("nv_on", "nv_off"): ("tracing on vs off, passthrough", 0.97),
}


def section_files(md, wd, meta, goals, chart):
    md.append("## 1. Engine overhead on a tmpfs file\n")
    md.append("4k `randread` of a {} MiB file on tmpfs (`/dev/shm`, buffered: the page cache is "
              "the device, so the run is CPU-bound), `time_based`, {} s per run, {} rounds; in "
              "each round every configuration runs once per iodepth, the order reversed every "
              "other round.  CPU per IO = user+sys CPU of the whole fio process tree "
              "(`/usr/bin/time`: job thread, io_uring workers, trace writer thread) minus the "
              "same job stopped after one IO (fio's fixed start/stop cost), divided by the IOs.  "
              "fio's own `usr_cpu`/`sys_cpu` are `RUSAGE_THREAD` of the job thread only (they "
              "miss the trace writer thread and io-wq), shown as \"job thread\" for reference.  "
              "The tmpfs reads run on io_uring's io-wq workers; how many the kernel starts (1 to "
              "4 here) is decided by a race in the first milliseconds and moves IOPS by up to "
              "20%, with or without tracing, so nvengine also runs with the pool capped at one "
              "worker (`nv_iowq_workers=1`) on both sides of the comparison.\n".format(
                  meta.get("file_mb"), meta.get("runtime"), meta.get("rounds")))
    any_run = False
    for qd in (1, 32):
        runs = files_runs(wd, qd)
        if not runs:
            continue
        any_run = True
        md.append("### iodepth {}\n".format(qd))
        md.append("| configuration | IOPS (median) | IOPS range | CPU/IO, all threads | "
                  "CPU/IO, job thread | mean clat |")
        md.append("|---|---|---|---|---|---|")
        for cfg, label in CFG_FILES:
            vals = [v for (c, r), v in runs.items() if c == cfg]
            if not vals:
                md.append("| {} | not run | | | | |".format(label))
                continue
            iops = [v["iops"] for v in vals]
            md.append("| {} | {} | {}-{} | {} us | {} us | {} us |".format(
                label, kfmt(med(iops)), kfmt(min(iops)), kfmt(max(iops)),
                fmt(med([v["cpu_io_us"] for v in vals]), "{:.2f}"),
                fmt(med([v["fio_cpu_io_us"] for v in vals]), "{:.2f}"),
                fmt(med([v["mean_lat_us"] for v in vals]), "{:.1f}")))
            chart.setdefault("files", []).append((qd, cfg, med(iops)))
        md.append("")
        md.append("| pair (A / B) | A IOPS | B IOPS | IOPS ratio, median of "
                  "rounds (range) | CPU/IO ratio |")
        md.append("|---|---|---|---|---|")
        for a, b, label in PAIRS_FILES:
            p = pair_stats(runs, a, b, "iops")
            c = pair_stats(runs, a, b, "cpu_io_us")
            md.append("| {} | {} | {} | {} | {} |".format(
                label, kfmt(p["a"]), kfmt(p["b"]), ratio_cell(p), fmt(c["ratio"], "{:.3f}x")))
            if (a, b) in GOALS_FILES:
                name, lim = GOALS_FILES[(a, b)]
                ratio_goal(goals, "{}, QD {}".format(name, qd), p, lim)
            if (a, b) == ("uring_log", "uring"):
                goal_row(goals,
                         "(reference) fio `write_lat_log` vs no log, files, QD {}".format(qd),
                         "-", None if p["ratio"] is None else "{:.3f}x".format(p["ratio"]), None,
                         "no goal; beside the row above")
        md.append("")
    if not any_run:
        md.append("Not run in this mode.\n")


def section_vm(md, wd, meta, goals, chart):
    md.append("## 2. NVMe passthrough in the emulated guest\n")
    rc = None
    try:
        rc = open(os.path.join(wd, "vm", "boot.rc")).read().strip()
    except OSError:
        pass
    if rc in (None, "off"):
        md.append("Not run in this mode (BENCH_VM=0 or the section was not selected).\n")
        return
    if rc != "0":
        why = ""
        try:
            why = "; ".join(l.strip() for l in open(os.path.join(wd, "vm", "boot.out"))
                            if l.startswith("boot:"))[-600:]
        except OSError:
            pass
        md.append("The guest did not run (tests/vm/boot.sh exit {}): {}\n".format(
                      rc, why or "see build/bench/vm/boot.out"))
    md.append("One boot of the QEMU guest (tests/vm/boot.sh, TCG emulation, 2 vCPUs, Debian cloud "
              "kernel), namespace `ns4k` (4096-byte LBAs) as `/dev/ng0n2`, 4k `randread` over 64 "
              "MiB, {} s per run, {} rounds alternating inside the guest (order reversed every "
              "other round); fio JSON comes back to the host.  **The absolute IOPS measure QEMU's "
              "emulation (TCG), not NVMe hardware**: every configuration goes through the same "
              "emulated controller, so the ratios compare the engines' submission and completion "
              "paths, but the emulator's own cost dilutes any difference.\n"
              .format(meta.get("vm_runtime"), meta.get("vm_rounds")))
    any_run = False
    for qd in (1, 32):
        runs = vm_runs(wd, qd)
        if not runs:
            continue
        any_run = True
        md.append("### iodepth {}\n".format(qd))
        md.append("| configuration | IOPS (median) | IOPS range | mean clat |")
        md.append("|---|---|---|---|")
        for cfg, label in (("io_uring_cmd", "fio `io_uring_cmd`"),
                           ("nv_off", "nvengine, tracing off"),
                           ("nv_on", "nvengine, tracing on"),
                           ("alt_off", "alternative engine build (BENCH_VM_ALT_SO), tracing off")):
            if cfg == "alt_off" and not any(c == cfg for (c, r) in runs):
                continue
            vals = [v for (c, r), v in runs.items() if c == cfg]
            if not vals:
                md.append("| {} | not run | | |".format(label))
                continue
            iops = [v["iops"] for v in vals]
            md.append("| {} | {} | {}-{} | {} us |".format(
                label, kfmt(med(iops)), kfmt(min(iops)), kfmt(max(iops)),
                fmt(med([v["mean_lat_us"] for v in vals]), "{:.1f}")))
            chart.setdefault("vm", []).append((qd, cfg, med(iops)))
        md.append("")
        md.append("| pair (A / B) | A IOPS | B IOPS | IOPS ratio, median of rounds (range) |")
        md.append("|---|---|---|---|")
        for a, b, label in (("nv_off", "io_uring_cmd", "nvengine off / fio io_uring_cmd"),
                            ("nv_on", "nv_off", "nvengine on / nvengine off"),
                            ("alt_off", "nv_off", "alternative build / nvengine off"),
                            ("alt_off", "io_uring_cmd", "alternative build / fio io_uring_cmd")):
            p = pair_stats(runs, a, b, "iops")
            if a == "alt_off" and p["ratio"] is None:
                continue  # no alternative build in this run
            md.append("| {} | {} | {} | {} |".format(label, kfmt(p["a"]), kfmt(p["b"]),
                                                     ratio_cell(p)))
            if (a, b) in GOALS_VM:
                name, lim = GOALS_VM[(a, b)]
                ratio_goal(goals, "{}, QD {}".format(name, qd), p, lim, "; TCG guest")
        md.append("")
    if not any_run:
        md.append("No results came back.\n")
        for qd in (1, 32):
            name, lim = GOALS_VM[("nv_off", "io_uring_cmd")]
            goal_row(goals, "{}, QD {}".format(name, qd), ">= {:.2f}x".format(lim), None, False)


def section_trace(md, wd, meta, goals, chart):
    md.append("## 3. Trace size and writer throughput\n")
    ts = trace_sizes(wd)
    if ts:
        md.append("One fio run per row through nvengine (`iodepth=32`, `norandommap`), {} IOs for "
                  "4k randread and a quarter of that for 128k sequential read; the level-1 run "
                  "also wrote fio's own per-IO logs (`write_lat_log`, `log_avg_msec=0`: lat, clat "
                  "and slat), so both record the same IOs.  \"fio logs, compressed\" is a third "
                  "run with `log_compression=4M` and `log_store_compressed=1`.  The large target "
                  "is a sparse 1 TiB tmpfs file (offsets need 28 bits instead of 18).\n"
                  .format(meta.get("trace_ios")))
        md.append("| target | workload | IOs | nv_trace level 1 | nv_trace level 6 | fio "
                  "lat log (one log, text) | fio lat+clat+slat (text) | fio "
                  "lat+clat+slat (`log_compression`) |")
        md.append("|---|---|---|---|---|---|---|---|")
        for tgt, tname in (("1g", "{} MiB file".format(meta.get("file_mb"))),
                           ("big", "1 TiB sparse file")):
            for pat, pname in (("rand4k", "4k randread"), ("seq128k", "128k read")):
                l1, l6, fz = (ts.get((tgt, pat, l)) for l in ("1", "6", "fz"))
                if not l1:
                    continue
                bpi = lambda x, b: ("{:.2f} B/IO".format(b / x["ios"])
                                    if x and x["ios"] and b is not None
                                    else "-")
                lat = sum(s for n, s in l1["logs"].items() if "_lat." in n)
                allt = sum(l1["logs"].values())
                allz = sum(fz["logs"].values()) if fz else None
                md.append("| {} | {} | {} | {} | {} | {} | {} | {} |".format(
                    tname, pname, l1["ios"], bpi(l1, l1["nvt"]),
                    bpi(l6, l6["nvt"] if l6 else None), bpi(l1, lat), bpi(l1, allt),
                    bpi(fz, allz)))
                chart.setdefault("size", []).append((
                    "{} {}".format(pname, "1G" if tgt == "1g" else "1T"),
                    l1["nvt"] / l1["ios"],
                    l6["nvt"] / l6["ios"] if l6 else 0,
                    allt / l1["ios"],
                    allz / fz["ios"] if fz and allz else 0))
                if tgt == "1g" and pat == "rand4k":
                    v = l1["nvt"] / l1["ios"]
                    goal_row(goals, "trace size, 4k randread over {} MiB, level 1"
                             .format(meta.get("file_mb")),
                             "<= 6 B/IO", "{:.2f} B/IO".format(v), v <= 6.0,
                             "fio's text lat log: {:.1f} B/IO".format(lat / l1["ios"])
                             if lat else "")
        md.append("")
    else:
        md.append("Trace sizes: not run in this mode.\n")
    bt = bench_trace(wd)
    if bt:
        md.append("Writer throughput: `tools/bench_trace` ({} synthetic records from "
                  "tests/unit/trace_gen.h, QD 32, blocks of 65536 records).  *encode* is one "
                  "thread doing what the writer thread does per block (column encoding, "
                  "compression, CRC), no I/O: the records/s one writer thread sustains.  nvengine "
                  "writes zstd (the default); zlib level 1 is the codec of traces before format "
                  "1.2, measured beside it.  *append* is end to end through `nvt_writer_append()` "
                  "and the background thread to a file.  Medians of {} repeats.\n".format(
                      meta.get("bt_records"), len(next(iter(bt.values())).get("encode", []))))
        md.append("| pattern | codec, level | encode, one thread (M rec/s) | per CPU second | "
                  "append, end to end | bytes/IO | read back |")
        md.append("|---|---|---|---|---|---|---|")
        for (pat, codec, lvl) in sorted(bt, key=lambda k: (k[0], k[1] != "zstd", k[2])):
            d = bt[(pat, codec, lvl)]
            m = {k: med(v) for k, v in d.items()}
            md.append("| {} | {} {} | {} | {} | {} | {} | {} |".format(
                pat, codec, lvl, fmt(m.get("encode")), fmt(m.get("encode_cpu"), none="-"),
                fmt(m.get("append")), fmt(m.get("size"), "{:.3f}"), fmt(m.get("read"))))
            if pat == "randread" and codec == "zstd" and lvl == 1:
                # a thread's capacity is records per second of its own CPU
                # time (the machine is shared); wall-clock rate beside it
                key = "encode_cpu" if m.get("encode_cpu") else "encode"
                e = m.get(key)
                goal_row(goals, "one writer thread, zstd level 1 (randread records)",
                         ">= 5 M records/s",
                         None if e is None else "{:.2f} M/s".format(e), e is not None and e >= 5.0,
                         ("per CPU second of the thread, range {:.2f}-{:.2f}; wall {:.2f}".format(
                             min(d[key]), max(d[key]), m["encode"]) if key == "encode_cpu" else
                          "wall clock, range {:.2f}-{:.2f}".format(min(d[key]), max(d[key])))
                         if e else "")
        md.append("")


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


def section_memory(md, wd, meta, goals, chart):
    md.append("## 5. Resident memory of a traced job\n")
    m = memory(wd, meta)
    if not m or m["nv_last"] is None:
        md.append("Not run in this mode.\n")
        return
    md.append("nvengine with `nv_trace` (4k randread, QD 32, full speed) for {} s, and at the "
              "same time on the same file fio's `io_uring` with `write_lat_log`/`log_avg_msec=0` "
              "at `rate_iops={}` (rate-limited so that its in-memory log stays within this "
              "machine's memory).  VmRSS of each job process (the process fio forks per job) is "
              "read from /proc every {} s.\n".format(meta.get("mem_secs"), meta.get("mem_rate"),
                                                                       "few"))
    md.append("| job | IOs | RSS at {:.0f} s | RSS at end ({:.0f} s) | max RSS | growth "
              "per million IOs | on disk |".format(
        m["nv_early_t"] or 0, m["nv_last_t"] or 0))
    md.append("|---|---|---|---|---|---|---|")
    for k, label, disk in (("nv", "nvengine, tracing on", m["trace_bytes"]),
                           ("fio", "fio io_uring + write_lat_log", m["fiolog_bytes"])):
        ios = m[k + "_ios"]
        e, l = m[k + "_early"], m[k + "_last"]
        growth = (l - e) / 1024 / (ios / 1e6) if ios and e is not None and l is not None else None
        md.append("| {} | {} | {} | {} | {} | {} | {} |".format(
            label, ios if ios else "?", fmt(e / 1024 if e else None, "{:.1f} MiB"),
            fmt(l / 1024 if l else None, "{:.1f} MiB"),
            fmt(m[k + "_max"] / 1024 if m[k + "_max"] else None, "{:.1f} MiB"),
            fmt(growth, "{:+.2f} MiB", none="-"),
            fmt(disk / 1e6 if disk else None, "{:.1f} MB", none="-")))
    md.append("")
    chart["rss"] = m["series"]
    e, l = m["nv_early"], m["nv_last"]
    if e is not None and l is not None:
        goal_row(goals, "engine RSS constant, {:.0f} s vs {:.0f} s".format(m["nv_early_t"],
                                                                           m["nv_last_t"]),
                 "growth <= 1 MiB", "{:.1f} -> {:.1f} MiB".format(e / 1024, l / 1024),
                 (l - e) <= 1024,
                 "{} IOs traced".format(m["nv_ios"]))


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


def median_range_table(md, rows):
    """A '| measure | median | range | n |' table of rows (label, values, spec): values None leaves
    the row out, values without a number show "not run"."""
    md.append("| measure | median | range | n |")
    md.append("|---|---|---|---|")
    for label, xs, spec in rows:
        if xs is None:
            continue
        xs = [x for x in xs if x is not None]
        if not xs:
            md.append("| {} | not run | | |".format(label))
            continue
        md.append("| {} | {} | {}-{} | {} |".format(label, spec.format(med(xs)),
                                                   spec.format(min(xs)), spec.format(max(xs)),
                                                   len(xs)))
    md.append("")


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


# ---------------------------------------------------------------- chart
def write_chart(wd, chart, png):
    """Bar charts (files, VM, bytes/IO) and the RSS curves in one PNG."""
    if not chart:
        return None
    gp = []
    plots = []
    labels = {"null": "fio null", "uring": "fio io_uring", "uring_log": "io_uring+lat log",
              "nv_off": "nvengine", "nv_on": "nvengine+trace", "nv_off1": "nvengine, 1 io-wq",
              "nv_on1": "nvengine+trace, 1 io-wq", "io_uring_cmd": "fio io_uring_cmd"}
    for key, title in (("files", "tmpfs file, 4k randread: IOPS (k)"), ("vm", "passthrough in TCG "
                                                                              "guest: IOPS (k)")):
        rows = chart.get(key)
        if not rows:
            continue
        cfgs = []
        for qd, cfg, v in rows:
            if cfg not in cfgs:
                cfgs.append(cfg)
        dat = os.path.join(wd, "chart-%s.dat" % key)
        with open(dat, "w") as f:
            for c in cfgs:
                v = {qd: val for qd, cc, val in rows if cc == c}
                f.write('"{}" {} {}\n'.format(labels.get(c, c), (v.get(1) or 0) / 1e3,
                                               (v.get(32) or 0) / 1e3))
        plots.append('set title "{}"; set style data histograms; set style histogram '
                     'clustered gap 1; set style fill solid 0.8 border -1; set xtics rotate '
                     'by -25 font ",8"; set key top right; set yrange [0:*]; unset logscale '
                     'y; set key vertical maxrows auto; plot "{}" using 2:xtic(1) title "QD '
                     '1", "" using 3 title "QD 32"'.format(title, dat))
    if chart.get("size"):
        dat = os.path.join(wd, "chart-size.dat")
        with open(dat, "w") as f:
            for r in chart["size"]:
                f.write('"{}" {} {} {} {}\n'.format(*r))
        plots.append('set title "bytes per IO (log scale)"; set style data histograms; set style '
                     'histogram clustered gap 1; set style fill solid 0.8 border -1; set xtics '
                     'rotate by -25 font ",8"; set logscale y; set yrange [1:1000]; set key top '
                     'left horizontal maxrows 2 font ",8"; plot "{}" using 2:xtic(1) title '
                     '"nv_trace L1", "" using 3 title "nv_trace L6", "" using 4 title "fio logs '
                     '(text)", "" using 5 title "fio logs (compressed)"'.format(dat))
    if chart.get("rss"):
        dat = os.path.join(wd, "chart-rss.dat")
        with open(dat, "w") as f:
            for i, pts in enumerate(chart["rss"]):
                for t, v in pts:
                    f.write("{} {}\n".format(t, v / 1024))
                f.write("\n\n")
        plots.append('set title "job resident memory (MiB) over time (s)"; unset logscale y; set '
                     'yrange [0:*]; set xtics norotate font ",9"; set key top left vertical '
                     'maxrows auto; set style data lines; plot "{0}" index 0 using 1:2 with lines '
                     'lw 2 title "nvengine + nv_trace", "{0}" index 1 using 1:2 with lines lw 2 '
                     'title "fio io_uring + write_lat_log"'.format(dat))
    if not plots:
        return None
    cols = 2 if len(plots) > 1 else 1
    nrows = (len(plots) + cols - 1) // cols
    term = ("pngcairo" if "pngcairo" in subprocess.run(["gnuplot", "-e", "set terminal"],
                                                        capture_output=True, text=True).stdout
            + subprocess.run(["gnuplot", "-e", "set terminal"], capture_output=True,
                             text=True).stderr else "png")
    gp.append('set terminal {} size {},{} font ",10"'.format(term, 1100, 420 * nrows))
    gp.append('set output "{}"'.format(png))
    gp.append("set multiplot layout {},{}".format(nrows, cols))
    gp.append("set grid ytics")
    gp.append("set termoption noenhanced")
    gp.extend(plots)
    gp.append("unset multiplot")
    script = os.path.join(wd, "chart.gp")
    with open(script, "w") as f:
        f.write("\n".join(gp) + "\n")
    r = subprocess.run(["gnuplot", script], capture_output=True, text=True)
    if r.returncode:
        sys.stderr.write("bench_report: gnuplot failed: {}\n".format(r.stderr.strip()[-500:]))
        return None
    return png


def section_hosts(md, wd, meta, goals):
    """8. nvanalyze on many-host results (tools/bench.sh section_hosts)."""
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
    """10. nvanalyze on a whole sweep against its points one at a time (tools/bench.sh
    section_sweep)."""
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


def workers_rounds(wd, meta):
    """{(n, ios): {round: {"j1"|"j2"|"stat"|"j1s": time or None}}} of section 11 (tools/bench.sh
    section_workers)."""
    d = os.path.join(wd, "workers")
    out = {}
    for c in meta.get("workers_configs", "").split():
        n, ios = (int(x) for x in c.split(":"))
        rounds = {}
        for r in range(1, int(meta.get("workers_rounds", 0) or 0) + 1):
            ts = {k: read_time(os.path.join(d, "{}-{}-r{}-{}.time".format(n, ios, r, k)))
                  for k in ("j1", "j2", "stat", "j1s", "j1v")}
            if ts["j1"] and ts["j2"] and ts["stat"]:	# j1s: runs before issue 42's last
                rounds[r] = ts
        if rounds:
            out[(n, ios)] = rounds
    return out


def section_workers(md, wd, meta, goals):
    """11. The full comparison with -o on N traces at -J 1 and -J 2 against `nvanalyze stat`."""
    md.append("## 11. The full comparison on every core: -J 1, -J 2 and `nvanalyze stat`\n")
    configs = workers_rounds(wd, meta)
    if not configs:
        md.append("Not run in this mode.\n")
        return
    md.append("Run at {} (nvengine {}, mode {}, {} cores).  Per configuration, N traces of the "
              "same number of IOs (`tests/unit/gen_trace -p randread -q 32`, hard links of one "
              "file, so the page cache holds one copy) in a many-host layout (section 8's: one "
              "job per host, N independent jobs for the trace join), then rounds, the order "
              "reversed every other round, of `nvanalyze -J 1 -o DIR A` and `nvanalyze -J 2 -o "
              "DIR A` (tables, trace sections, findings, figures) and `nvanalyze stat` on the N "
              "traces (decode plus exact percentiles, the reference).  `/usr/bin/time` of each "
              "call: CPU is user + sys of the whole call, M IOs per CPU second counts the traces' "
              "IOs.  The wall speed-up of -J 2 needs a second core that is free: with the load "
              "average (meta above) over the core count, other processes hold it and the ratio "
              "measures the machine's load, not the pool.  \"without rendering\": `-J 1 -o` with "
              "no gnuplot on PATH (every script and data file written, no PNG/SVG), the analysis' "
              "own CPU; the rendering (one gnuplot per worker, each taking the next file, its "
              "PNGs encoded through libnvpngfast.so) is the difference; the peak RSS of a call "
              "with rendering is gnuplot's own process (about 31 MiB, whatever the IOs).  "
              "\"--figures svg\": `-J 1 -o` rendering SVGs only (report.md links them; no "
              "pngcairo).  Memory: "
              "one job's analysis counts its open interval per bucket and per ns (the pages used "
              "of a mapped array) and lists at most 2^18 latencies above 64 us per operation, so "
              "these 1.5 M IOs/s traces are read once (docs/analysis.md, \"An interval's exact "
              "p50/p99/p99.9 without its IOs\"); -J N holds N workers.\n".format(
                  meta.get("date", "?"), meta.get("commit", "?"), meta.get("mode", "?"),
                  meta.get("cores", "?")))
    peaks = {}
    for (n, ios), rounds in sorted(configs.items()):
        rs = [rounds[r] for r in sorted(rounds)]
        total = n * ios
        rate = {k: [total / c[k]["cpu"] / 1e6 for c in rs if c[k]["cpu"] > 0]
                for k in ("j1", "j2", "stat")}
        speed = [c["j1"]["wall"] / c["j2"]["wall"] for c in rs if c["j2"]["wall"] > 0]
        cpu_vs_stat = [c["j1"]["cpu"] / c["stat"]["cpu"] for c in rs if c["stat"]["cpu"] > 0]
        rss = {k: [c[k]["maxrss_kb"] / 1024 for c in rs] for k in ("j1", "j2", "stat")}
        bare_rss = [c["j1s"]["maxrss_kb"] / 1024 for c in rs if c["j1s"]]
        bare = [total / c["j1s"]["cpu"] / 1e6 for c in rs if c["j1s"] and c["j1s"]["cpu"] > 0]
        bare_vs_stat = [c["j1s"]["cpu"] / c["stat"]["cpu"] for c in rs
                        if c["j1s"] and c["stat"]["cpu"] > 0]
        render = [c["j1"]["cpu"] - c["j1s"]["cpu"] for c in rs if c["j1s"]]
        svg = [c for c in rs if c.get("j1v")]	# --figures svg: runs since it exists
        svg_vs_stat = [c["j1v"]["cpu"] / c["stat"]["cpu"] for c in svg if c["stat"]["cpu"] > 0]
        svg_rate = [total / c["j1v"]["cpu"] / 1e6 for c in svg if c["j1v"]["cpu"] > 0]
        svg_rss = [c["j1v"]["maxrss_kb"] / 1024 for c in svg]
        md.append("**{} traces x {:,} IOs ({:,} IOs)**\n".format(n, ios, total))
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
        if bare:
            rows += (("-J 1 -o without rendering, M IOs per CPU second", bare, "{:.2f}"),
                     ("-J 1 -o without rendering, CPU / stat CPU (per round)", bare_vs_stat,
                      "{:.2f}x"),
                     ("-J 1 -o without rendering, peak RSS", bare_rss, "{:.1f} MiB"),
                     ("the rendering's CPU (-J 1 less without rendering, per round)", render,
                      "{:.2f} s"))
        if svg:
            rows += (("-J 1 -o --figures svg, M IOs per CPU second", svg_rate, "{:.2f}"),
                     ("-J 1 -o --figures svg, CPU / stat CPU (per round)", svg_vs_stat,
                      "{:.2f}x"),
                     ("-J 1 -o --figures svg, peak RSS", svg_rss, "{:.1f} MiB"))
        median_range_table(md, rows)
        what = "{} traces x {:,} IOs".format(n, ios)
        md.append("Per worker: -J 2's peak less -J 1's, {:.1f} MiB (medians).\n".format(
            med(rss["j2"]) - med(rss["j1"])))
        v = med(rate["j1"])
        goal_row(goals, "full comparison -o, {}: CPU per IO".format(what), ">= 40 M IOs/CPU-s",
                 fmt(v, "{:.2f} M IOs/CPU-s"), v is not None and v >= 40, "")
        v = med(cpu_vs_stat) if cpu_vs_stat else None	# the issue's second CPU goal
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
        if bare and bare_vs_stat:	# the analysis alone: what grows with the IOs
            goal_row(goals, "full comparison -o without rendering, {}: CPU vs stat".format(what),
                     "<= 1.5x", "{:.2f}x ({:.2f} M IOs/CPU-s)".format(med(bare_vs_stat),
                                                                   med(bare)),
                     med(bare_vs_stat) <= 1.5, "rounds {:.2f}-{:.2f}x".format(
                         min(bare_vs_stat), max(bare_vs_stat)))
            a, b = med(bare_rss), med(rss["stat"])
            goal_row(goals, "full comparison -o without rendering, {}: peak memory vs stat".format(
                what), "<= 2x", "{:.1f} vs {:.1f} MiB ({:.2f}x)".format(a, b, a / b), a <= 2 * b)
        if svg_vs_stat:	# the figures as SVG only: what PNG rendering costs
            v = med(svg_vs_stat)
            goal_row(goals, "full comparison -o --figures svg, {}: CPU vs stat's".format(what),
                     "<= 1.5x", "{:.2f}x ({:.2f} M IOs/CPU-s)".format(v, med(svg_rate)),
                     v <= 1.5 and med(svg_rate) >= 40, "rounds {:.2f}-{:.2f}x; goal also "
                     ">= 40 M IOs/CPU-s".format(min(svg_vs_stat), max(svg_vs_stat)))
            a, b = max(svg_rss), max(rss["stat"])
            goal_row(goals, "full comparison -o --figures svg, {}: peak memory vs stat".format(
                what), "<= 2x", "{:.1f} vs {:.1f} MiB ({:.2f}x)".format(a, b, a / b), a <= 2 * b)
        peaks.setdefault(n, []).append((total, med(rss["j1"]), med(rss["j2"])))
    flat_rows(md, goals, peaks)


def flat_rows(md, goals, peaks):
    """Section 11: peak memory of the same trace count at the fewest and most IOs (8x or more)."""
    for n, ps in sorted(peaks.items()):
        lo, hi = min(ps), max(ps)
        if hi[0] < 8 * lo[0]:
            continue
        md.append("Peak memory, {} traces: {:,} IOs -J 1 {:.1f} MiB, -J 2 {:.1f} MiB; {:,} IOs "
                  "-J 1 {:.1f} MiB, -J 2 {:.1f} MiB (medians).\n".format(
                      n, lo[0], lo[1], lo[2], hi[0], hi[1], hi[2]))
        r = max(hi[1] / lo[1], hi[2] / lo[2])
        goal_row(goals, "full comparison -o, {} traces: peak memory {:,} vs {:,} IOs".format(
            n, hi[0], lo[0]), "<= 1.25x", "{:.2f}x".format(r), r <= 1.25,
            "the larger of -J 1's and -J 2's ratios of medians")


def section_disturb(md, wd, meta, goals):
    """12. Tracing's disturbance (tools/bench_disturb.py, given this module's helpers)."""
    import bench_disturb
    bench_disturb.section(md, wd, meta, goals, sys.modules[__name__])


def section_inputxml(md, wd, meta, goals):
    """13. diskspd XML reports (tools/bench_inputxml.py, given this module's helpers)."""
    import bench_inputxml
    bench_inputxml.section(md, wd, meta, goals, sys.modules[__name__])

def inputtext_rounds(wd, meta):
    """{round: {"one"|"quarter"|"all"|"full": time}} of section 14 (tools/bench.sh
    section_inputtext), rounds with every call measured."""
    d = os.path.join(wd, "inputtext")
    out = {}
    for r in range(1, int(meta.get("input_rounds", 0) or 0) + 1):
        ts = {k: read_time(os.path.join(d, "{}-r{}.time".format(k, r)))
              for k in ("one", "quarter", "all", "full")}
        if all(ts.values()):
            out[r] = ts
    return out


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


# The sections of tools/bench.sh in report order: (BENCH_SECTIONS name, number, function, whether
# it draws in the chart).  Section 9 is make soak's (bench/soak.md), copied in after section 8.
SECTIONS = (("files", 1, section_files, True), ("vm", 2, section_vm, True),
            ("trace", 3, section_trace, True), ("analyze", 4, section_analyze, False),
            ("memory", 5, section_memory, True), ("cpu", 6, section_cpu, False),
            ("loop", 7, section_loop, False), ("hosts", 8, section_hosts, False),
            ("sweep", 10, section_sweep, False), ("workers", 11, section_workers, False),
            ("disturb", 12, section_disturb, False),
            ("inputxml", 13, section_inputxml, False),
            ("inputtext", 14, section_inputtext, False))

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
         ("inputtext", "reading memory, fio normal output", "<= 5.00x (linear 4x)"))


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
    soak = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "bench", "soak.md")
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
    notes = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "bench", "analysis.md")
    if os.path.exists(notes) and meta.get("mode") != "smoke":
        md.append(open(notes).read().rstrip() + "\n")
    with open(out_md, "w") as f:
        f.write("\n".join(md))
    return 0


def grow_json(seed, mb, out):
    """Repeat the seed's jobs (renamed) until the file is at least mb MB."""
    with open(seed) as f:
        txt = f.read()
    j = json.loads(txt[txt.index("{"):])
    base = j["jobs"]
    if not base:
        sys.exit("bench_report: {} has no jobs".format(seed))
    def build(n):
        jobs = []
        for i in range(n):
            x = dict(base[i % len(base)])
            x["jobname"] = "{}-{}".format(x["jobname"], i)
            jobs.append(x)
        j["jobs"] = jobs
        return json.dumps(j, indent=2)

    # the size of one job as it sits in the file, from a small trial
    probe = 2 * len(base)
    per_job = (len(build(probe)) - len(build(len(base)))) / (probe - len(base))
    n = max(1, int(round((float(mb) * 1e6 - len(build(len(base)))) / per_job)) + len(base))
    with open(out, "w") as f:
        f.write(build(n))
    print("{} jobs: the {} json+ jobs of a real fio {} run (nvengine, 4k randrw, numjobs={}) "
          "repeated with distinct job names; {:.1f} MB.".format(
              n, len(base), j.get("fio version", "?"), len(base), os.path.getsize(out) / 1e6))


def grow_normal(seed, njobs, out):
    """A fio normal output of njobs jobs: the job blocks of the real seed output (fio's own text)
    repeated with distinct job names and pids, one preamble line per job, the seed's status group
    and disk lines at the end."""
    lines = open(seed).read().split("\n")
    pre = [l for l in lines if ": (g=" in l and "rw=" in l]
    heads = [i for i, l in enumerate(lines) if ": (groupid=" in l]
    end = next(i for i, l in enumerate(lines) if l.startswith("Run status group"))
    if not heads or not pre:
        sys.exit("bench_report: {} is not fio normal output with job entries".format(seed))
    blocks = [lines[a:b] for a, b in zip(heads, heads[1:] + [end])]
    names = [lines[h].split(":")[0] for h in heads]
    n = int(njobs)
    with open(out, "w") as f:
        for i in range(n):
            f.write(pre[i % len(pre)].replace(names[i % len(names)], "{}-{}".format(
                names[i % len(names)], i), 1) + "\n")
        f.write("fio-{}\nStarting {} processes\n\n".format(
            next((l[4:] for l in lines if l.startswith("fio-")), "3.33"), n))
        for i in range(n):
            b = list(blocks[i % len(blocks)])
            b[0] = re.sub(r"pid=\d+", "pid={}".format(1000 + i), b[0].replace(
                names[i % len(names)], "{}-{}".format(names[i % len(names)], i), 1))
            f.write("\n".join(b) + "\n")
        f.write("\n".join(lines[end:]))
    print("{} jobs: the {} job entries of a real fio {} run (ioengine=null, randrw "
          "4k and read 128k, a 17-level percentile_list) repeated with distinct "
          "names and pids; {:.1f} MB.".format(
              n, len(blocks), next((l for l in lines if l.startswith("fio-")), "?"),
              os.path.getsize(out) / 1e6))


def main(argv):
    if len(argv) == 5 and argv[1] == "--grow-json":
        grow_json(argv[2], argv[3], argv[4])
        return 0
    if len(argv) == 5 and argv[1] == "--grow-normal":
        grow_normal(argv[2], argv[3], argv[4])
        return 0
    if len(argv) != 4:
        sys.stderr.write(__doc__)
        return 2
    return report(argv[1], argv[2], argv[3])


if __name__ == "__main__":
    sys.exit(main(sys.argv))
