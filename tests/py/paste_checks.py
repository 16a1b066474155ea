"""The small checks of tests/integration/paste.sh (issue 57), one per verb:

    paste_checks.py value JSON JOB DIR SIDE KEY       one value of nvanalyze's JSON
    paste_checks.py strip JSON                        the reading without names and labels
    paste_checks.py labels JSON                       the sides' labels, '|' between
    paste_checks.py two-runs TWO.json PART1.json PART2.json
                                                      a page's two runs equal the parts
    paste_checks.py encodings PAGE DIR                the page as UTF-16LE (no BOM),
                                                      UTF-16BE (BOM) and cp932 in DIR
    paste_checks.py blog-post OUT EXPORT...           the exports pasted into a post
    paste_checks.py blog-post-check POST.json NVANALYZE EXPORT...
                                                      each side as its export alone

Each prints what the shell test compares, or exits 1 with the reason.
"""
import json
import re
import subprocess
import sys


def load(path):
    with open(path) as f:
        return json.load(f)


def value(js, job, d, side, key):
    doc = load(js)
    rows = [r for r in doc["results"] if r["job"] == job and r["direction"] == d]
    sides = rows[0]["sides"] if rows else {}
    s = sides.get(side) if side else next(iter(sides.values()), None)
    print((s or {}).get(key))


def strip(js):
    d = load(js)
    d.pop("baseline", None)
    d.pop("summary", None)
    for s in d["sides"]:
        for k in ("files", "descriptions", "label", "lines"):
            s.pop(k, None)
    for r in d["results"]:
        r["sides"] = list(r["sides"].values())
        r.pop("changes", None)
    print(json.dumps(d, indent=1, sort_keys=True))


def labels(js):
    print("|".join(s["label"] for s in load(js)["sides"]))


def side_values(doc):
    """{(job, direction): metrics} of a one-side reading, without its run count."""
    out = {}
    for r in doc["results"]:
        v = dict(next(iter(r["sides"].values())))
        v.pop("runs", None)
        out[(r["job"], r["direction"])] = v
    return out


def two_runs(two, *parts):
    doc = load(two)
    names = [s["label"] for s in doc["sides"]]
    want = ["diskspd-2.0.15-two-runs-session", "diskspd-2.0.15-two-runs-session #2"]
    if names != want:
        sys.exit("sides %r, want %r" % (names, want))
    if [s["lines"] for s in doc["sides"]] != [[3], [85]]:
        sys.exit("first lines %r" % [s.get("lines") for s in doc["sides"]])
    for k, p in enumerate(parts):
        alone = side_values(load(p))
        for r in doc["results"]:
            got = r["sides"].get(names[k])
            if not got or not got.get("present"):
                continue
            g = dict(got)
            g.pop("runs", None)
            if g != alone[(r["job"], r["direction"])]:
                sys.exit("%s %s: %r, alone %r" % (names[k], r["job"], g,
                                                 alone[(r["job"], r["direction"])]))
    print("2 runs, each as its part alone")


def encodings(page, out):
    d = open(page, encoding="utf-8").read()
    open(out + "/u16le.md", "wb").write(d.encode("utf-16-le"))
    open(out + "/u16be.md", "wb").write(b"\xfe\xff" + d.encode("utf-16-be"))
    open(out + "/cp932.md", "wb").write(d.encode("cp932"))


def blog_post(out, *exports):
    """Indented, labels re-padded by hand, no "(C)", no footer, another tool's
    table and prose between the exports, no headings."""
    lines = ["My four instances, tested with CrystalDiskMark:", ""]
    for k, p in enumerate(exports):
        for line in open(p, encoding="utf-8-sig").read().splitlines():
            s = line.strip()
            if s.startswith(("Test :", "Date :", "OS :")):
                continue
            s = re.sub(r" \(C\) .*", "", s)
            s = re.sub(r"\s+", " ", s)
            lines.append("    " + s if s else "")
        lines += ["", "ATTO on the same volume:", "", "| size | write | read |",
                  "|---|---|---|", "| 4 KiB | %d.1 MB/s | %d.7 MB/s |" % (40 + k, 50 + k), "",
                  "Not bad for the price.", ""]
    with open(out, "w") as f:
        f.write("\n".join(lines) + "\n")


def blog_post_check(post, nv, *exports):
    doc = load(post)
    names = [s["label"] for s in doc["sides"]]
    if names != ["post", "post #2", "post #3", "post #4"]:
        sys.exit("sides %r" % names)
    for k, p in enumerate(exports):
        out = subprocess.run([nv, "--format", "json", p], stdout=subprocess.PIPE,
                             check=True).stdout
        alone = side_values(json.loads(out))
        for r in doc["results"]:
            got, w = r["sides"][names[k]], alone[(r["job"], r["direction"])]
            for key in ("iops", "bw_MB_per_s"):
                if got.get(key) != w.get(key):
                    sys.exit("%s %s %s: %r, alone %r" % (names[k], r["job"], key,
                                                        got.get(key), w.get(key)))
    print("4 machines, each as its export alone")


VERBS = {"value": value, "strip": strip, "labels": labels, "two-runs": two_runs,
         "encodings": encodings, "blog-post": blog_post, "blog-post-check": blog_post_check}

if __name__ == "__main__":
    VERBS[sys.argv[1]](*sys.argv[2:])
