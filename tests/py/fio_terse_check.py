"""Independent reader of fio's terse output, for tests/integration/fio_text.sh.

    fio_terse_check.py TERSE CSV LATCSV [JSON]

TERSE holds fio terse lines (versions 2 to 5); CSV is `nvanalyze --format csv
TERSE`, LATCSV the same with `--lat lat`; JSON, if given, is `nvanalyze
--format json TERSE`, whose job and run descriptions are checked too.
Written from the field list of fio's HOWTO ("Terse output"), not from
nvanalyze's reader:

    version; fio version [v3+]; jobname; groupid; error;
    per direction (read, write, and trim for all versions but 3):
        io KiB; bw KiB/s; IOPS; runtime ms;
        slat min; max; mean; stdev (usec); clat min; max; mean; stdev (usec);
        20 clat percentiles "P%=V" (usec); lat min; max; mean; stdev (usec);
        bw min; max; agg %; mean; stdev (KiB/s) [v5: bw samples;
        iops min; max; mean; stdev; samples];
    cpu user %; sys %; ctx; majf; minf; 7 IO depths; 10 usec and 12 msec
    latency shares; [v3+] per disk: name; 8 counters; util %;
    [continue_on_error: total errors; first error]; [description]
    (version 2 prints the description on the next line, after a ';').

With JSON, the 22 latency buckets (every one, by edge) are checked too.
Only the job keys' rule and the CSV reading are shared with fio_text_check.py.
Not read: unified_rw_reporting lines (one "mixed" direction).  For each job
and each direction that did IO, the CSV must hold the same IOPS, bandwidth,
IO bytes, runtime, clat/lat mean, min and max, the p50 and p99 of the
percentile list, and the CPU user share.  Jobs with the same name get " #1",
" #2"... as nvanalyze's keys do.  Prints "checked N" and each mismatch;
exit 1 on one.
"""
import json
import sys

from fio_text_check import assign_keys, read_csv  # the key rule and CSV rows only

DIRS = ["read", "write", "trim"]
# the HOWTO's bucket fields' upper edges in ns (lower: the one before, 0 first)
LADDER = [e * 1e3 for e in (2, 4, 10, 20, 50, 100, 250, 500, 750, 1000)] + \
    [e * 1e6 for e in (2, 4, 10, 20, 50, 100, 250, 500, 750, 1000, 2000)] + [None]


def direction(f):
    """One direction's fields (a list of strings) as a dict of floats."""
    n = [float(x) for x in f[0:12]]
    pct = {}
    for x in f[12:32]:
        p, val = x.split("=")
        if float(p.rstrip("%")) > 0:
            pct[float(p.rstrip("%"))] = float(val)
    lat = [float(x) for x in f[32:36]]
    return {"kib": n[0], "bw_kib": n[1], "iops": n[2], "runtime": n[3],
            "clat": n[8:12], "lat": lat, "pct": pct}


def parse_line(line, prev):
    """A terse line as a job dict; a v2 description line updates prev."""
    if line.startswith(";") and prev is not None and prev["ver"] == 2:
        prev["desc"] = line[1:]
        return None
    f = line.split(";")
    if not f[0] in ("2", "3", "4", "5"):
        return None
    ver = int(f[0])
    i = 1 if ver == 2 else 2
    job = {"ver": ver, "name": f[i], "dirs": {}, "desc": ""}
    i += 3
    width = 47 if ver == 5 else 41
    for d in (DIRS[:2] if ver == 3 else DIRS):
        job["dirs"][d] = direction(f[i:i + width])
        i += width
    job["usr"] = float(f[i].rstrip("%"))
    i += 5 + 7
    # HOWTO: lat_2us ... lat_1000us, lat_2ms ... lat_2000ms, lat_>=2000ms
    job["buckets"] = list(zip(LADDER, [float(x.rstrip("%")) for x in f[i:i + 22]]))
    i += 10 + 12
    while ver >= 3 and i + 9 <= len(f) and f[i + 8].endswith("%"):
        i += 9
    rest = f[i:]
    if len(rest) >= 2 and rest[0].isdigit() and rest[1].lstrip("-").isdigit():
        rest = rest[2:]
    if rest:
        job["desc"] = ";".join(rest)
    return job


def jobs(text):
    out = []
    for line in text.splitlines():
        j = parse_line(line.rstrip("\r"), out[-1] if out else None)
        if j:
            out.append(j)
    assign_keys(out)
    return out


def main():
    text = open(sys.argv[1], encoding="utf-8").read()
    rows = read_csv(sys.argv[2:4])
    checked = bad = 0

    def expect(key, d, metric, want):
        nonlocal checked, bad
        got = rows.get((key, d, metric))
        checked += 1
        if got is None or abs(got - want) > 1e-9 * max(1.0, abs(want)):
            print("%s %s %s: nvanalyze %s, expected %r" % (key, d, metric, got, want))
            bad += 1

    all_jobs = jobs(text)
    for j in all_jobs:
        first = True
        for d, v in j["dirs"].items():
            if v["kib"] == 0 and v["runtime"] == 0:
                continue
            k = j["key"]
            expect(k, d, "IOPS", v["iops"])
            expect(k, d, "bandwidth", v["bw_kib"] * 1024 / 1e6)
            expect(k, d, "IO total", v["kib"] * 1024)
            expect(k, d, "runtime", v["runtime"] * 1e6)
            for kind, four in (("clat", v["clat"]), ("lat", v["lat"])):
                if any(four):
                    expect(k, d, kind + " min", four[0] * 1e3)
                    expect(k, d, kind + " max", four[1] * 1e3)
                    expect(k, d, kind + " mean", four[2] * 1e3)
            for p in (50.0, 99.0):
                if p in v["pct"]:
                    expect(k, d, "clat p%g" % p, v["pct"][p] * 1e3)
            if first:
                expect(k, d, "CPU user", j["usr"])
                first = False
    if len(sys.argv) > 4:
        doc = json.load(open(sys.argv[4]))
        desc = {b.get("job"): b.get("description") for b in doc["results"]}
        # fio's latency buckets, every one, by edge
        rows = {b.get("job"): b["sides"][doc["sides"][0]["label"]].get(
            "fio_latency_buckets") for b in doc["results"]}
        for j in all_jobs:
            want = [(lo, hi, pct) for (hi, pct), lo in
                    zip(j["buckets"], [0] + LADDER[:-1])]
            got = [(r["from_ns"], r["to_ns"], r["share_pct"])
                   for r in rows.get(j["key"]) or []]
            checked += 1
            if got != want:
                print("%s buckets: nvanalyze %r, expected %r" % (j["key"], got[:4], want[:4]))
                bad += 1
        for j in all_jobs:
            checked += 1
            if desc.get(j["key"]) != j["desc"]:
                print("%s description: nvanalyze %r, expected %r" %
                      (j["key"], desc.get(j["key"]), j["desc"]))
                bad += 1
        # The run's: each job's text once, in file order, "; " between.
        texts = []
        for j in all_jobs:
            if j["desc"] and j["desc"] not in texts:
                texts.append(j["desc"])
        want = "; ".join(texts) if texts else None
        got = doc["sides"][0]["descriptions"][0]
        checked += 1
        if got != want:
            print("run description: nvanalyze %r, expected %r" % (got, want))
            bad += 1
    print("checked %d, mismatches %d" % (checked, bad))
    return 1 if bad or not checked else 0


if __name__ == "__main__":
    sys.exit(main())
