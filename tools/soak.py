#!/usr/bin/env python3
"""make soak: tracing at saturation for SOAK_SECONDS (default 3600).

    tools/soak.py [--seconds S] [--engine SO] [--nvanalyze PATH] [--work DIR]
                  [--trace-dir DIR] [--md BENCH_MD] [--section FILE]

4 fio job threads (fio --thread) x QD 64 of 4k randread on files in tmpfs
(/dev/shm), traced (nv_trace into --trace-dir, default WORK/traces on the
disk: an hour at this rate is gigabytes).  Every 10 s: fio's VmRSS and the
CPU time of each nvtrace-writer thread (/proc/PID/task/TID/schedstat, ns);
fio's own IO counts every 10 s (--status-interval=10).  At the end:

- RSS constant: max minus the first sample taken after 30 s (<= 1 MiB);
- counts: every trace's records equal fio's total_ios of its job thread;
- trace complete: every trace has its footer and nvanalyze stat reads it;
- the writers' CPU per record per interval flat: the mean of the last
  quarter of the intervals against the first quarter (<= 1.25x).
Every sample is kept in WORK/samples.tsv.

Prints PASS/FAIL lines and the rows, writes them as the section
"9. Saturation soak" to --section (default bench/soak.md, which make bench
keeps in BENCHMARKS.md) and replaces that section in --md (default
BENCHMARKS.md).  Exit status 1 when a check fails.
"""
import argparse
import datetime
import json
import os
import re
import subprocess
import sys
import time

TOP = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
JOBS, QD, PERIOD = 4, 64, 10
TITLE = "## 9. Saturation soak (`make soak`)"


def rss_kb(pid):
    """(VmRSS, RssAnon, RssFile, RssShmem) of PID in KiB."""
    want = ("VmRSS:", "RssAnon:", "RssFile:", "RssShmem:")
    got = dict.fromkeys(want, 0)
    with open("/proc/%d/status" % pid) as f:
        for line in f:
            k = line.split(None, 1)[0] if line.strip() else ""
            if k in got:
                got[k] = int(line.split()[1])
    return tuple(got[k] for k in want)


def smaps_rss(pid):
    """{mapping: Rss KiB} of PID, mappings named by their line in
    /proc/PID/smaps (address range, offset and path)."""
    out, cur = {}, None
    with open("/proc/%d/smaps" % pid) as f:
        for line in f:
            first = line.split(None, 1)[0]
            if "-" in first and not first.endswith(":"):
                cur = line.strip()
            elif first == "Rss:" and cur:
                out[cur] = int(line.split()[1])
    return out


def writer_cpu_ns(pid):
    """Sum of the CPU time of fio's nvtrace-writer threads, and how many."""
    tot = n = 0
    for tid in os.listdir("/proc/%d/task" % pid):
        try:
            with open("/proc/%d/task/%s/comm" % (pid, tid)) as f:
                if f.read().strip() != "nvtrace-writer":
                    continue
            with open("/proc/%d/task/%s/schedstat" % (pid, tid)) as f:
                tot += int(f.read().split()[0])
            n += 1
        except OSError:
            pass
    return tot, n


def fio_reports(path):
    """fio's JSON reports in the output file (one per status interval, then
    the final one): [(timestamp_ms, {jobname.thread: total_ios})]."""
    txt = open(path).read()
    dec, p, out = json.JSONDecoder(), 0, []
    while True:
        p = txt.find("{", p)
        if p < 0:
            break
        try:
            j, end = dec.raw_decode(txt, p)
        except ValueError:
            p += 1
            continue
        p = end
        if "jobs" in j:
            out.append((j.get("timestamp_ms", 0),
                        [x["read"]["total_ios"] for x in j["jobs"]]))
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--seconds", type=int, default=int(os.environ.get("SOAK_SECONDS", "3600")))
    ap.add_argument("--engine", default=os.path.join(TOP, "libnvengine.so"))
    ap.add_argument("--nvanalyze", default=os.path.join(TOP, "nvanalyze"))
    ap.add_argument("--work", default=os.path.join(TOP, "build", "soak"))
    ap.add_argument("--trace-dir")
    ap.add_argument("--md", default=os.path.join(TOP, "BENCHMARKS.md"))
    ap.add_argument("--section", default=os.path.join(TOP, "bench", "soak.md"))
    a = ap.parse_args()
    if a.seconds < 60:
        sys.exit("soak: SOAK_SECONDS=%d: want at least 60 (samples every 10 s, RSS from 30 s)"
                 % a.seconds)
    for p in (a.engine, a.nvanalyze):
        if not os.path.exists(p):
            sys.exit("soak: %s missing: run make all" % p)
    tdir = a.trace_dir or os.path.join(a.work, "traces")
    data = "/dev/shm/nvsoak.%d" % os.getpid()
    os.makedirs(tdir, exist_ok=True)
    os.makedirs(data)
    for f in os.listdir(tdir):
        if f.endswith(".nvt"):
            os.unlink(os.path.join(tdir, f))
    out_json = os.path.join(a.work, "soak.json")
    cmd = ["fio", "--thread", "--ioengine=external:" + a.engine, "--name=soak",
           "--numjobs=%d" % JOBS, "--iodepth=%d" % QD, "--rw=randread", "--bs=4k",
           "--size=64M", "--directory=" + data, "--time_based", "--runtime=%d" % a.seconds,
           "--nv_trace=" + tdir, "--status-interval=%d" % PERIOD, "--output-format=json",
           "--output=" + out_json]
    print("soak: %d s, %d jobs x QD %d, 4k randread on tmpfs, traces in %s"
          % (a.seconds, JOBS, QD, tdir), flush=True)
    t_start = time.monotonic()
    fio = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=open(out_json + ".err", "w"))
    # (s since start, rss KiB, writer cpu ns, writers, wall ms, anon, file, shmem)
    samples = []
    maps = [None, None]	# smaps at the first sample from 30 s, and at the last
    next_t = t_start + PERIOD
    try:
        while fio.poll() is None:
            time.sleep(max(0, next_t - time.monotonic()))
            next_t += PERIOD
            if fio.poll() is not None:
                break
            try:
                cpu, nw = writer_cpu_ns(fio.pid)
                rss = rss_kb(fio.pid)
                now = time.monotonic() - t_start
                samples.append((now, rss[0], cpu, nw, int(time.time() * 1000)) + rss[1:])
                if now >= 30:
                    maps[maps[0] is not None] = smaps_rss(fio.pid)
            except OSError:
                break
    finally:
        if fio.poll() is None:
            fio.wait()
        subprocess.call(["rm", "-rf", data])
    rc = fio.returncode
    # every sample, so that a miss can be read (a steady growth or steps)
    with open(os.path.join(a.work, "samples.tsv"), "w") as f:
        f.write("s\trss_kib\twriter_cpu_ns\twriters\twall_ms\tanon_kib\tfile_kib\tshmem_kib\n")
        for smp in samples:
            f.write("%.1f\t%d\t%d\t%d\t%d\t%d\t%d\t%d\n" % smp)
    # which mappings grew between the first steady sample and the last
    if maps[0] and maps[1]:
        with open(os.path.join(a.work, "rss-growth.txt"), "w") as f:
            f.write("# Rss KiB per mapping of fio: first sample from 30 s -> last sample\n")
            grew = sorted(((maps[1].get(k, 0) - maps[0].get(k, 0), k)
                           for k in set(maps[0]) | set(maps[1])), reverse=True)
            for d, k in grew:
                if d:
                    f.write("%+8d  %s\n" % (d, k))
    reps = fio_reports(out_json)
    ok = True
    lines = []

    def check(name, good, why):
        nonlocal ok
        ok &= good
        lines.append("PASS: soak/%s" % name if good else "FAIL: soak/%s: %s" % (name, why))

    final = reps[-1][1] if reps else []
    check("fio", rc == 0 and len(final) == JOBS,
          "fio exited %d with %d jobs (see %s.err)" % (rc, len(final), out_json))
    # RSS: from the first sample after 30 s
    steady = [s for s in samples if s[0] >= 30] or samples
    base = steady[0][1] if steady else 0
    growth = (max(s[1] for s in steady) - base) if steady else 0
    check("rss_constant", bool(steady) and growth <= 1024,
          "RSS grew %d KiB after 30 s (limit 1024)" % growth)
    # counts and completeness, per trace
    recs, complete = [], 0
    for f in sorted(os.listdir(tdir)):
        if not f.endswith(".nvt"):
            continue
        st = subprocess.run([a.nvanalyze, "stat", os.path.join(tdir, f)], capture_output=True,
                            text=True)
        m = re.search(r"^records: (\d+)$", st.stdout, re.M)
        recs.append(int(m.group(1)) if m else -1)
        complete += st.returncode == 0 and "footer: present" in st.stdout
    check("counts_equal_fio", sorted(recs) == sorted(final) and len(recs) == JOBS,
          "trace records %s, fio total_ios %s" % (sorted(recs), sorted(final)))
    check("traces_complete", complete == JOBS,
          "%d of %d traces with footer" % (complete, len(recs)))
    # writer CPU per record per interval: the IOs from fio's reports at the
    # nearest wall time
    per = []
    prev = None
    for s in samples:
        if not reps:
            break
        near = min(reps[:-1] or reps, key=lambda r: abs(r[0] - s[4]))
        ios = sum(near[1])
        if prev and ios > prev[1]:
            per.append((s[2] - prev[0]) / (ios - prev[1]))
        prev = (s[2], ios)
    q = max(1, len(per) // 4)
    first = sum(per[:q]) / q if per else 0
    last = sum(per[-q:]) / q if per else 0
    ratio = last / first if first else float("inf")
    check("writer_cpu_flat", len(per) >= 4 and ratio <= 1.25,
          "writer CPU per record %.1f ns in the first quarter, %.1f ns in the last (%d intervals)"
          % (first, last, len(per)))
    total = sum(final)
    secs = time.monotonic() - t_start
    trace_mb = sum(os.path.getsize(os.path.join(tdir, f)) for f in os.listdir(tdir)
                   if f.endswith(".nvt")) / 1e6
    commit = subprocess.run(["git", "-C", TOP, "rev-parse", "--short", "HEAD"],
                            capture_output=True, text=True).stdout.strip() or "?"
    load = open("/proc/loadavg").read().split()[:3]
    rows = [
        "| check | measured | limit | result |",
        "|---|---|---|---|",
        "| RSS constant (fio, sampled every %d s from 30 s) | %.1f MiB, +%d KiB over %d "
        "samples | growth <= 1 MiB | %s |"
        % (PERIOD, base / 1024, growth, len(steady), "met" if growth <= 1024 else "MISSED"),
        "| counts equal fio's | %s records in %d traces, fio %s | equal | %s |"
        % ("{:,}".format(sum(r for r in recs if r > 0)), len(recs), "{:,}".format(total),
           "met" if sorted(recs) == sorted(final) else "MISSED"),
        "| traces complete | %d of %d with footer | all | %s |"
        % (complete, JOBS, "met" if complete == JOBS else "MISSED"),
        "| writer CPU per record, first vs last quarter | %.1f ns -> %.1f ns (%.2fx, %d "
        "intervals) | <= 1.25x | %s |"
        % (first, last, ratio, len(per), "met" if len(per) >= 4 and ratio <= 1.25 else "MISSED"),
    ]
    section = [TITLE, "",
               "`make soak SOAK_SECONDS=%d` on %s (nvengine %s; load average at the end %s): %d "
               "fio job threads x QD %d, 4k randread on tmpfs files, traced: %s IOs in %d s (%s "
               "IOPS), traces %.0f MB on disk; with the checks %.0f s in all."
               % (a.seconds, datetime.datetime.utcnow().strftime("%Y-%m-%d %H:%M UTC"), commit,
                  " ".join(load), JOBS, QD, "{:,}".format(total), a.seconds,
                  "{:,.0f}".format(total / a.seconds), trace_mb, secs),
               ""] + rows + [""]
    for line in lines:
        print(line)
    print("\n".join(section))
    os.makedirs(os.path.dirname(a.section), exist_ok=True)
    with open(a.section, "w") as f:
        f.write("\n".join(section))
    if os.path.exists(a.md):
        md = open(a.md).read()
        block = "\n".join(section) + "\n"
        pat = re.compile(re.escape(TITLE) + r".*?(?=^## |\Z)", re.S | re.M)
        if pat.search(md):
            md = pat.sub(lambda m: block, md, count=1)
        elif "\n## Chart" in md:
            md = md.replace("\n## Chart", "\n" + block + "\n## Chart", 1)
        else:
            md = md.rstrip("\n") + "\n\n" + block
        with open(a.md, "w") as f:
            f.write(md)
        print("soak: rows written to %s and %s" % (a.section, a.md))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
