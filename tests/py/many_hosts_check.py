"""many_hosts.sh: a many-host run's results (jobs/run --host) as nvanalyze
reads them, against an independent reading of each host's traces
(nvtrace_reader.py, written from docs/trace-format.md).

    many_hosts_check.py NVA exact DIR NAME HOST...      nvanalyze DIR: a side
        per host, its clat rows exact and equal to the traces' nearest-rank
        percentiles, max and mean; the traces' IOs = the host's total_ios
    many_hosts_check.py NVA complete DIR NAME HOST...   each HOST: status
        ok, entries in DIR/NAME.json, traces that match their counts
    many_hosts_check.py NVA fleets A B                  nvanalyze A B: each
        host a repeat (n=3+3) and an interval of the change per job
prints "ok ..." or the problems (exit 1)
"""
import glob
import json
import os
import subprocess
import sys

from lib import fiojson
from lib import nvtrace_reader
from lib import tracecsv

PCTS = {"p50": 50, "p95": 95, "p99": 99, "p99.9": 99.9, "p99.99": 99.99}


def entries(d, name):
    """{(host, job): [client_stats entries]} of DIR/NAME.json."""
    out = {}
    for e in fiojson.load(os.path.join(d, name + ".json"))["client_stats"]:
        if e["jobname"] != "All clients":
            out.setdefault((e["hostname"], e["jobname"]), []).append(e)
    return out


def trace_lats(d, host, name, job):
    """{op: sorted latencies} over DIR/HOST/traces/NAME/JOB.*.nvt, and whether all are complete."""
    lats, complete = {}, True
    files = glob.glob(os.path.join(d, host, "traces", name, job + ".*.nvt"))
    for f in files:
        t = nvtrace_reader.read(f)
        complete &= t.footer
        for _, _, _, recs in t.blocks:
            for r in recs:
                lats.setdefault(r[5], []).append(r[2])
    for v in lats.values():
        v.sort()
    return lats, complete and bool(files)


def check_host(problems, d, name, host, ents):
    jobs = sorted(j for h, j in ents if h == host)
    if len(jobs) < 2:
        problems.append("%s: %d jobs in %s.json" % (host, len(jobs), name))
    status = open(os.path.join(d, host, "status")).read()
    if "failed" in status:
        problems.append("%s: status %s" % (host, status.strip()))
    for job in jobs:
        lats, complete = trace_lats(d, host, name, job)
        if not complete:
            problems.append("%s %s: traces missing or incomplete" % (host, job))
        for op in ("read", "write"):
            fio = sum(e[op]["total_ios"] for e in ents[(host, job)])
            if fio != len(lats.get(op, [])):
                problems.append("%s %s %s: %d IOs in the traces, fio %d"
                                % (host, job, op, len(lats.get(op, [])), fio))
    return jobs


def nva_json(nva, *args):
    p = subprocess.run([nva, "-f", "json"] + list(args), capture_output=True, text=True)
    if p.returncode != 0:
        sys.exit("nvanalyze exit %d: %s" % (p.returncode, p.stderr.strip()[-400:]))
    return json.loads(p.stdout), p.stderr


def exact(nva, d, name, hosts):
    problems, n = [], 0
    ents = entries(d, name)
    rep, _ = nva_json(nva, d)
    labels = [s["label"] for s in rep["sides"]]
    if sorted(labels) != sorted(hosts):
        problems.append("nvanalyze sides %s, expected the hosts %s" % (labels, hosts))
    for host in hosts:
        for job in check_host(problems, d, name, host, ents):
            lats, _ = trace_lats(d, host, name, job)
            for op, v in lats.items():
                block = [b for b in rep["results"] if b["job"] == job and b["direction"] == op]
                side = block[0]["sides"].get(host) if block else None
                if side is None:
                    problems.append("nvanalyze has no %s %s for %s" % (job, op, host))
                    continue
                want = [("clat_%s_ns" % k, tracecsv.percentile(v, p)) for k, p in PCTS.items()]
                want.append(("clat_max_ns", v[-1]))
                for key, w in want:
                    if side.get(key) != w or side.get(key + "_source") != "exact":
                        problems.append("%s %s %s %s: nvanalyze %s (%s), traces %s" % (
                            host, job, op, key, side.get(key), side.get(key + "_source"), w))
                mean, _ = tracecsv.mean_sd(v)
                if abs(side.get("clat_mean_ns", 0) - mean) > 1e-6 * mean:
                    problems.append("%s %s %s mean: %s vs %s" % (host, job, op,
                                                                side.get("clat_mean_ns"), mean))
                n += 1
    return problems, "ok %d host/job/direction rows exact, %d hosts" % (n, len(hosts))


def complete(d, name, hosts):
    problems = []
    ents = entries(d, name)
    for host in hosts:
        check_host(problems, d, name, host, ents)
    return problems, "ok %s complete" % " ".join(hosts)


def fleets(nva, a, b):
    problems, n = [], 0
    rep, _ = nva_json(nva, a, b)
    labels = [s["label"] for s in rep["sides"]]
    if labels != [os.path.basename(a), os.path.basename(b)]:
        problems.append("sides %s, expected the two fleets" % labels)
    for blk in rep["results"]:
        runs = [blk["sides"].get(s, {}).get("runs") for s in labels]
        if runs != [3, 3]:
            problems.append("%s %s: %s runs, expected 3 hosts a side"
                            % (blk["job"], blk["direction"], runs))
        text = json.dumps(blk)
        if "_ci95_low_pct" not in text:
            problems.append("%s %s: no interval: %s" % (blk["job"], blk["direction"], text[:300]))
        else:
            n += 1
    if not n:
        problems.append("no result rows")
    return problems, "ok %d job/direction rows with an interval, n=3+3" % n


def main(argv):
    nva, mode = argv[0], argv[1]
    if mode == "exact":
        problems, good = exact(nva, argv[2], argv[3], argv[4:])
    elif mode == "complete":
        problems, good = complete(argv[2], argv[3], argv[4:])
    else:
        problems, good = fleets(nva, argv[2], argv[3])
    if problems:
        print("; ".join(problems[:8]))
        sys.exit(1)
    print(good)


if __name__ == "__main__":
    main(sys.argv[1:])
