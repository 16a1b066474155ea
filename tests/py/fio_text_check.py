"""Independent reader of fio's normal text output, for tests/integration/fio_text.sh.

    fio_text_check.py TEXT CSV

TEXT is a fio normal output (3.x); CSV is `nvanalyze --format csv TEXT`.  For
each job entry this reads, by its own regular expressions (not nvanalyze's
code): the IOPS as fio computes it from `issued rwts` totals and the
direction's runtime (or the printed IOPS with its rounding), and the clat
mean, min and max in ns, and the CPU user share; then checks that the CSV
has the same values.  Entries with the same name get " #1", " #2"... as
nvanalyze's keys do.  Prints "checked N" and each mismatch; exit 1 on one.
"""
import csv
import re
import sys

UNIT = {"nsec": 1, "usec": 1e3, "msec": 1e6}
SFX = {"": 1, "k": 1e3, "M": 1e6}


def entries(text):
    out = []
    cur = None
    for line in text.splitlines():
        s = line.strip().lstrip("|").strip()
        m = re.match(r"(.+?): \(groupid=\d+, jobs=\d+\)", s)
        if m:
            cur = {"name": m.group(1), "dirs": {}}
            out.append(cur)
            continue
        if cur is None:
            continue
        m = re.match(r"(read|write|trim): IOPS=([\d.]+)([kM]?), "
                     r".*\(([\d.]+)[KMGT]?i?B/(\d+)msec\)", s)
        if m:
            d = {"iops_printed": float(m.group(2)) * SFX[m.group(3)],
                 "iops_place": (10 ** -len(m.group(2).split(".")[1]) if "." in m.group(2)
                                else 1) * SFX[m.group(3)],
                 "runtime": int(m.group(5))}
            cur["dirs"][m.group(1)] = d
            cur["last"] = d
            continue
        m = re.match(r"clat \((nsec|usec|msec)\): min=(\d+)([kM]?), "
                     r"max=(\d+)([kM]?), avg=\s*([\d.]+)", s)
        if m and "last" in cur:
            u = UNIT[m.group(1)]
            cur["last"]["clat_min"] = int(m.group(2)) * SFX[m.group(3)] * u
            cur["last"]["clat_max"] = int(m.group(4)) * SFX[m.group(5)] * u
            cur["last"]["clat_mean"] = float(m.group(6)) * u
            continue
        m = re.match(r"cpu\s*: usr=([\d.]+)%", s)
        if m:
            cur["usr"] = float(m.group(1))
            continue
        m = re.match(r"issued rwts: total=(\d+),(\d+),(\d+)", s)
        if m:
            cur["issued"] = [int(m.group(i)) for i in (1, 2, 3)]
    names = [e["name"] for e in out]
    seen = {}
    for e in out:
        if names.count(e["name"]) > 1:
            seen[e["name"]] = seen.get(e["name"], 0) + 1
            e["key"] = "%s #%d" % (e["name"], seen[e["name"]])
        else:
            e["key"] = e["name"]
    return out


def main():
    text = open(sys.argv[1], encoding="utf-8").read()
    rows = {}
    with open(sys.argv[2], newline="") as f:
        for r in csv.reader(f):
            if len(r) == 5 and r[0] != "job":
                rows[(r[0], r[1], r[2])] = float(r[4])
    checked = bad = 0

    def expect(key, d, metric, want, tol):
        nonlocal checked, bad
        got = rows.get((key, d, metric))
        checked += 1
        if got is None or abs(got - want) > tol:
            print("%s %s %s: nvanalyze %s, expected %r (+-%g)" % (key, d, metric, got, want, tol))
            bad += 1

    for e in entries(text):
        for i, (d, v) in enumerate(e["dirs"].items()):
            idx = ["read", "write", "trim"].index(d)
            if "issued" in e and v["runtime"] > 0:
                expect(e["key"], d, "IOPS", e["issued"][idx] * 1000.0 / v["runtime"], 1e-6)
            else:
                expect(e["key"], d, "IOPS", v["iops_printed"], v["iops_place"] / 2)
            if "clat_mean" in v:
                expect(e["key"], d, "clat mean", v["clat_mean"], 1e-6)
                expect(e["key"], d, "clat min", v["clat_min"], 1e-6)
                expect(e["key"], d, "clat max", v["clat_max"], 1e-6)
            if "usr" in e and i == 0:
                expect(e["key"], d, "CPU user", e["usr"], 1e-9)
    print("checked %d, mismatches %d" % (checked, bad))
    return 1 if bad or not checked else 0


if __name__ == "__main__":
    sys.exit(main())
