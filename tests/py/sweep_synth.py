"""sweep.sh: a fio JSON file with made-up numbers, so that the load-curve
answers (knee, SLA, rounds) are known.

    sweep_synth.py OUT JOB...   JOB is NAME/OPTS/IOPS/P99_US, OPTS
                                "rw=randread;iodepth=4" (';'-separated)
p50 is p99 / 4 and p99.9 is 2 x p99; bandwidth is 4 KiB x IOPS.
"""
import json, sys

jobs = []
for spec in sys.argv[2:]:
    name, opts, iops, p99 = spec.split("/")
    iops, p99 = float(iops), float(p99) * 1e3
    pct = {"50.000000": p99 / 4, "99.000000": p99, "99.900000": 2 * p99}
    d = {"io_bytes": int(iops * 4096), "bw_bytes": int(iops * 4096), "iops": iops,
         "runtime": 1000, "total_ios": int(iops),
         "clat_ns": {"min": p99 / 8, "max": 4 * p99, "mean": p99 / 3, "stddev": p99 / 5,
                     "N": int(iops), "percentile": pct}}
    empty = {"io_bytes": 0, "bw_bytes": 0, "iops": 0.0, "runtime": 0, "total_ios": 0,
             "clat_ns": {"min": 0, "max": 0, "mean": 0.0, "stddev": 0.0, "N": 0}}
    jobs.append({"jobname": name, "groupid": 0, "error": 0,
                 "job options": dict(kv.split("=") for kv in opts.split(";")),
                 "read": d, "write": empty, "trim": empty})
json.dump({"fio version": "fio-3.33", "jobs": jobs}, open(sys.argv[1], "w"), indent=1)
