"""Sections 1, 2, 3 and 5 of the benchmark report: the engine against fio's own, on a tmpfs file
(1) and by NVMe passthrough in the emulated guest (2), the trace's size and its writer's
throughput (3), and the resident memory of a traced job (5)."""
import glob
import os
import re

from .common import (fmt, goal_row, job0, kfmt, load_json, med, pair_stats, ratio_cell,
                     ratio_goal, read_time)


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
