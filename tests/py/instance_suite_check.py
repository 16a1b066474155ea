"""jobs_parse.sh: jobs/instance/suite.fio is the single-test files in order,
each with stonewall, all with the same [global] section.

    instance_suite_check.py DIR   exit 0, or 1 saying what differs
"""
import sys, os
d = sys.argv[1]
order = ["precondition", "randread", "randwrite", "seqread", "seqwrite", "latency", "maxiops"]

def sections(path):
    secs, cur = [], None
    for line in open(path):
        line = line.strip()
        if not line or line[0] in "#;":
            continue
        if line.startswith("["):
            cur = (line[1:-1], [])
            secs.append(cur)
        else:
            cur[1].append(line)
    return secs

suite = sections(os.path.join(d, "suite.fio"))
want = None
jobs = []
for n in order:
    s = sections(os.path.join(d, n + ".fio"))
    if len(s) != 2 or s[0][0] != "global":
        sys.exit(f"{n}.fio: expected [global] and one job section")
    if want is None:
        want = s[0]
    elif s[0] != want:
        sys.exit(f"{n}.fio: [global] differs from precondition.fio's")
    jobs.append((s[1][0], s[1][1] + ["stonewall"]))
if suite != [want] + jobs:
    got = [x[0] for x in suite]
    sys.exit(f"suite.fio differs from the single-test files (sections {got})")
