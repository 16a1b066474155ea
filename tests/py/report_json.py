"""nvanalyze's --format json report, summarised for the shell tests:

    report_json.py sides < REPORT.json   "label:runs:jobs,..." per side (jobs
                                         present on that side)
    report_json.py exact < REPORT.json   "side/job=SOURCE" of clat p99 for the
                                         active rows ("exact": from traces)
    report_json.py same-results A B      exit 0 when both reports have the
                                         same results
    report_json.py ci-low < REPORT.json  the lowest 95% interval bound of
                                         any change (*_ci95_low_pct)
"""
import json
import sys


def sides(j):
    jobs = {}
    for r in j["results"]:
        for lab, s in r["sides"].items():
            if s.get("present"):
                jobs.setdefault(lab, set()).add(r["job"])
    return " ".join("%s:%d:%s" % (s["label"], len(s["files"]),
                                  ",".join(sorted(jobs.get(s["label"], ()))))
                    for s in j["sides"])


def exact(j):
    return " ".join(sorted({"%s/%s=%s" % (lab, r["job"], s.get("clat_p99_ns_source", "fio"))
                            for r in j["results"] if r["active"]
                            for lab, s in r["sides"].items()}))


def ci_low(j):
    return min(v for r in j["results"] for c in r["changes"].values() for k, v in c.items()
               if k.endswith("_ci95_low_pct"))


def main(argv):
    if argv[:1] == ["sides"]:
        print(sides(json.load(sys.stdin)))
    elif argv[:1] == ["exact"]:
        print(exact(json.load(sys.stdin)))
    elif argv[:1] == ["ci-low"]:
        print(ci_low(json.load(sys.stdin)))
    elif argv[:1] == ["same-results"] and len(argv) == 3:
        a, b = (json.load(open(p))["results"] for p in argv[1:])
        return 0 if a == b else 1
    else:
        sys.exit(__doc__)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
