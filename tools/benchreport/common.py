"""The helpers every section of the benchmark report uses: medians and number formats, the
readers of fio JSON, /usr/bin/time lines and meta.env, the per-round ratios of paired runs, the
goals table's rows and the median/range tables."""
import json
import os
import statistics


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
