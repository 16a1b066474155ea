#!/usr/bin/env python3
"""Random mutations of results files through nvanalyze (tests/damaged.sh).

    mutations.py NVANALYZE SEED COUNT DIR FORMAT FILE [FILE...]

COUNT mutants of the FILEs (taken in turn), made from SEED (printed, so a
failure is reproduced with the same arguments), are written to DIR and read
with `NVANALYZE --format json`.  A mutation is one of: cut at a byte, delete
a line, duplicate a line, change a digit (to another non-zero one), garble a
unit, insert junk bytes, a NUL or invalid UTF-8.  Each run must:
  - exit 0 (a reading, warnings allowed) or 2 with an error naming the file
    (FILE: or FILE:LINE:); never a signal, never a sanitizer report;
  - read nothing as zero that the original reads as non-zero (same job,
    direction and metric): a damaged value is missing or an error, not 0
    (a cut inside the last line reads what remains, with a warning that
    names that line);
  - for a mutation of one line, still read the values it did not touch:
    every job of the original but one (the one the line may hold whole)
    keeps a value equal to the original's (under any job name: a damaged
    name line renames), and at least one job when a job spans several lines.
Prints "FORMAT: N mutants, N read, N refused, seed S" and exits 0, or the
first failures (at most 5, each with its mutation and file) and exits 1.
"""
import json
import os
import random
import re
import subprocess
import sys

UNITS = [b"usec", b"msec", b"nsec", b"MiB/s", b"KiB/s", b"MB/s", b"GiB", b"MiB", b"KiB",
         b"IOPS", b"iops", b"us", b"ms", b"MB", b"KB", b"%", b"k", b"M"]
JUNK = [b"\x00", b"\xff\xfe", b"\xc3(", b"\xe2\x82", b"\xed\xa0\x80", b"#@!junk~",
        b"\x1b[2K", b"\x7f\x01"]
SANITIZER = re.compile(rb"AddressSanitizer|LeakSanitizer|runtime error:|UndefinedBehavior")


def lines_of(data):
    """The lines of data with their line ends."""
    return data.splitlines(keepends=True) or [data]


def mutate(data, rng):
    """One mutation of data. Return: (bytes, description, line or None)."""
    ls = lines_of(data)
    k = rng.randrange(len(ls))
    kind = rng.choice(["cut", "delete", "duplicate", "digit", "digit", "unit", "unit",
                       "junk", "nul", "utf8"])
    if kind == "cut":
        at = rng.randrange(len(data) + 1)
        return data[:at], "cut at byte %d" % at, None
    if kind == "delete" and len(ls) > 1:
        return b"".join(ls[:k] + ls[k + 1:]), "line %d deleted" % (k + 1), k
    if kind == "duplicate":
        return b"".join(ls[:k + 1] + ls[k:]), "line %d duplicated" % (k + 1), k
    line = ls[k]
    if kind == "digit":
        pos = [m.start() for m in re.finditer(rb"[0-9]", line)]
        if pos:
            p = rng.choice(pos)
            d = rng.choice([c for c in b"123456789" if c != line[p]])
            line = line[:p] + bytes([d]) + line[p + 1:]
            return b"".join(ls[:k] + [line] + ls[k + 1:]), \
                "line %d: digit at column %d -> %c" % (k + 1, p + 1, d), k
    if kind == "unit":
        found = [(m.start(), u) for u in UNITS for m in re.finditer(re.escape(u), line)]
        if found:
            p, u = rng.choice(found)
            g = bytes(rng.choice(b"xqzZ?") for _ in u)
            line = line[:p] + g + line[p + len(u):]
            return b"".join(ls[:k] + [line] + ls[k + 1:]), \
                "line %d: unit %r at column %d garbled to %r" % (k + 1, u, p + 1, g), k
    junk = {"nul": b"\x00", "utf8": rng.choice(JUNK[1:5])}.get(kind, rng.choice(JUNK))
    p = rng.randrange(len(line) + 1)
    line = line[:p] + junk + line[p:]
    return b"".join(ls[:k] + [line] + ls[k + 1:]), \
        "line %d: %r inserted at column %d" % (k + 1, junk, p + 1), k


def values(doc):
    """{(job, direction, metric): number} of nvanalyze --format json's results;
    with several sides (a page of machines) the job is "JOB@SIDE"."""
    out = {}
    for r in doc.get("results", []):
        sides = r.get("sides", {})
        for label, side in sides.items():
            job = r["job"] if len(sides) == 1 else "%s@%s" % (r["job"], label)
            for key, v in side.items():
                if isinstance(v, (int, float)) and not isinstance(v, bool):
                    out[(job, r["direction"], key)] = v
    return out


def read(nvanalyze, path):
    """Run nvanalyze on path. Return: (exit status, stdout, stderr)."""
    p = subprocess.run([nvanalyze, "--format", "json", path], stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, timeout=60)
    return p.returncode, p.stdout, p.stderr


def check(base, rc, out, err, path, line, nlines):
    """Why the run of one mutant is wrong, or None."""
    name = re.escape(os.path.basename(path)).encode()
    if rc < 0 or rc >= 128:
        return "killed by signal %d" % (-rc if rc < 0 else rc - 128)
    if SANITIZER.search(err):
        return "sanitizer: " + err.decode("utf-8", "replace")[:300]
    if rc == 2:
        if not re.search(name + rb"(:[0-9]+)*: ", err):
            return "error without the file name: " + err.decode("utf-8", "replace")[:200]
        return None
    if rc != 0:
        return "exit %d: %s" % (rc, err.decode("utf-8", "replace")[:200])
    try:
        got = values(json.loads(out))
    except ValueError as e:
        return "exit 0 but no JSON on stdout (%s)" % e
    cut = b"has no line end: the file may be cut" in err
    for key, v in got.items():
        b = base.get(key)
        if v == 0 and b not in (None, 0) and not cut:
            return "%s read as 0 (original %r)" % ("/".join(key), b)
    if line is None:
        return None
    return survivors(base, got, nlines)


def survivors(base, got, nlines):
    """Why too few jobs of base kept a value in got after a one-line mutation, or None."""
    seen = {(k[1], k[2], v) for k, v in got.items()}
    jobs = sorted({k[0] for k in base})
    kept = [j for j in jobs
            if any((k[1], k[2], v) in seen for k, v in base.items() if k[0] == j and v)]
    need = len(jobs) - 1
    if nlines >= 4 * len(jobs):	# a job's values span several lines
        need = max(need, 1)
    if len(kept) < need:
        return "%d of %d jobs kept a value of the original (%s)" % (
            len(kept), len(jobs), ", ".join(kept) or "none")
    return None


def main():
    nvanalyze, seed, count, outdir, fmt = sys.argv[1:6]
    files = sys.argv[6:]
    rng = random.Random(int(seed))
    os.makedirs(outdir, exist_ok=True)
    bases = []
    for f in files:
        rc, out, err = read(nvanalyze, f)
        if rc != 0:
            print("%s: the original %s does not read: %s" % (fmt, f, err.decode()[:200]))
            return 1
        bases.append((f, open(f, "rb").read(), values(json.loads(out))))
    n_read = n_refused = 0
    fails = []
    for i in range(int(count)):
        f, data, base = bases[i % len(bases)]
        mut, what, line = mutate(data, rng)
        path = os.path.join(outdir, "%s-%d%s" % (fmt, i, os.path.splitext(f)[1]))
        with open(path, "wb") as fh:
            fh.write(mut)
        rc, out, err = read(nvanalyze, path)
        why = check(base, rc, out, err, path, line, len(lines_of(data)))
        if why:
            fails.append("%s mutant %d of %s (%s): %s" % (fmt, i, f, what, why))
            if len(fails) >= 5:
                break
            continue
        os.unlink(path)
        n_read += rc == 0
        n_refused += rc == 2
    print("%s: %s mutants, %d read, %d refused, seed %s" % (fmt, count, n_read, n_refused,
                                                            seed))
    for x in fails:
        print(x)
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
