"""Independent reader of fio's normal text output, for tests/integration/fio_text.sh.

    fio_text_check.py TEXT CSV

TEXT is a fio normal output (2.x or 3.x); CSV is `nvanalyze --format csv TEXT`.
For each job entry this reads, by its own regular expressions (not
nvanalyze's code): the IOPS as fio computes it from the issued totals and the
direction's runtime (or the printed IOPS with its rounding), and the clat
mean, min and max in ns, the sync latency (fsync's block: `sync (usec): min=,
max=, avg=` and the 99.00th of `sync percentiles`, also when `issued rwts`
counts no sync IO, as with fdatasync=), and the CPU user share; then checks
that the CSV has the same values.  The forms read: 3.x `read: IOPS=84.1k, BW=...(.../N msec)`,
2.x `read : io=..., bw=..., iops=N, runt= N msec`; `issued rwts: total=R,W,T,S`,
fio 3.0-3.2's `issued rwt: total=R,W,T, short=...` and 2.x's
`issued : total=r=R/w=W/d=T`; latency values with a k/M suffix (`1495.2k`).
Entries with the same name get " #1", " #2"... as nvanalyze's keys do.
Prints "checked N" and each mismatch; exit 1 on one.
"""
import csv
import re
import sys

UNIT = {"nsec": 1, "usec": 1e3, "msec": 1e6}
SFX = {"": 1, "k": 1e3, "K": 1e3, "M": 1e6}
DIRS = ["read", "write", "trim"]

RE_ENTRY = re.compile(r"(.+?): \(groupid=\d+, jobs=\d+\)")
RE_DIR3 = re.compile(r"(read|write|trim): IOPS=([\d.]+)([kM]?), "
                     r".*\(([\d.]+)[KMGTP]?i?B/(\d+)msec\)")
RE_DIR2 = re.compile(r"(read|write|trim)\s*: io=[\d.]+[KMGTP]?B, bw=[^,]+, "
                     r"iops=([\d.]+)([kKM]?), runt=\s*(\d+)msec")
NUM = r"([\d.]+)([kM]?)"
RE_CLAT = re.compile(r"clat \((nsec|usec|msec)\): min=\s*" + NUM + r", max=\s*" + NUM +
                     r", avg=\s*" + NUM)
RE_SYNC = re.compile(r"sync \((nsec|usec|msec)\): min=\s*" + NUM + r", max=\s*" + NUM +
                     r", avg=\s*" + NUM)
RE_SYNC_PCT = re.compile(r"sync percentiles \((nsec|usec|msec)\):")
RE_P99 = re.compile(r"99\.00th=\[\s*(\d+)\]")
RE_CPU = re.compile(r"cpu\s*: usr=([\d.]+)%")
RE_ISSUED3 = re.compile(r"issued rwts?: total=(\d+),(\d+),(\d+)")
RE_ISSUED2 = re.compile(r"issued\s*: total=r=(\d+)/w=(\d+)/d=(\d+)")


def place(digits, sfx):
    """The printed value's last place (for the rounding of a value without counts)."""
    dec = len(digits.split(".")[1]) if "." in digits else 0
    return 10 ** -dec * SFX[sfx]


def on_direction(cur, s):
    m = RE_DIR3.match(s)
    if m:
        iops, sfx, runtime = m.group(2), m.group(3), m.group(5)
    else:
        m = RE_DIR2.match(s)
        if not m:
            return False
        iops, sfx, runtime = m.group(2), m.group(3), m.group(4)
    d = {"iops_printed": float(iops) * SFX[sfx], "iops_place": place(iops, sfx),
         "runtime": int(runtime)}
    cur["dirs"][m.group(1)] = d
    cur["last"] = d
    return True


def on_clat(cur, s):
    m = RE_CLAT.match(s)
    if not m or "last" not in cur:
        return False
    u = UNIT[m.group(1)]
    v = [float(m.group(i)) * SFX[m.group(i + 1)] * u for i in (2, 4, 6)]
    cur["last"].update(clat_min=v[0], clat_max=v[1], clat_mean=v[2])
    return True


def on_sync(cur, s):
    """fsync's block: the latency line, then the percentiles' unit and 99.00th."""
    m = RE_SYNC.match(s)
    if m:
        u = UNIT[m.group(1)]
        v = [float(m.group(i)) * SFX[m.group(i + 1)] * u for i in (2, 4, 6)]
        cur["sync"] = {"lat min": v[0], "lat max": v[1], "lat mean": v[2]}
        return True
    m = RE_SYNC_PCT.match(s)
    if m and "sync" in cur:
        cur["sync_unit"] = UNIT[m.group(1)]
        return True
    m = RE_P99.search(s)
    if m and "sync_unit" in cur and "lat p99" not in cur["sync"]:
        cur["sync"]["lat p99"] = float(m.group(1)) * cur["sync_unit"]
        return True
    return False


def entries(text):
    out = []
    cur = None
    for line in text.splitlines():
        s = line.strip().lstrip("|").strip()
        m = RE_ENTRY.match(s)
        if m:
            cur = {"name": m.group(1), "dirs": {}}
            out.append(cur)
            continue
        if cur is None or on_direction(cur, s) or on_clat(cur, s) or on_sync(cur, s):
            continue
        m = RE_CPU.match(s)
        if m:
            cur["usr"] = float(m.group(1))
            continue
        m = RE_ISSUED3.match(s) or RE_ISSUED2.match(s)
        if m:
            cur["issued"] = [int(m.group(i)) for i in (1, 2, 3)]
    assign_keys(out)
    return out


def assign_keys(out):
    """Each entry's "key": its name, or "NAME #1", "NAME #2"... when repeated."""
    names = [e["name"] for e in out]
    seen = {}
    for e in out:
        if names.count(e["name"]) > 1:
            seen[e["name"]] = seen.get(e["name"], 0) + 1
            e["key"] = "%s #%d" % (e["name"], seen[e["name"]])
        else:
            e["key"] = e["name"]


def read_csv(paths):
    """The rows of `nvanalyze --format csv` files: (job, direction, metric) -> value."""
    rows = {}
    for path in paths:
        with open(path, newline="") as f:
            for r in csv.reader(f):
                if len(r) == 5 and r[0] != "job" and r[4] != "":
                    rows[(r[0], r[1], r[2])] = float(r[4])
    return rows


def main():
    text = open(sys.argv[1], encoding="utf-8").read()
    rows = read_csv(sys.argv[2:3])
    checked = bad = 0

    def expect(key, d, metric, want, tol):
        nonlocal checked, bad
        got = rows.get((key, d, metric))
        checked += 1
        if got is None or abs(got - want) > tol + 1e-12 * abs(want):
            print("%s %s %s: nvanalyze %s, expected %r (+-%g)" % (key, d, metric, got, want, tol))
            bad += 1

    for e in entries(text):
        for i, (d, v) in enumerate(e["dirs"].items()):
            idx = DIRS.index(d)
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
        for metric, want in e.get("sync", {}).items():
            expect(e["key"], "sync", metric, want, 1e-6)
    print("checked %d, mismatches %d" % (checked, bad))
    return 1 if bad or not checked else 0


if __name__ == "__main__":
    sys.exit(main())
