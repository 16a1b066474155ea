"""percentiles.sh: checks on `nvanalyze --format json` output for one block
(job JOB, direction DIR, the first side):

    percentiles_json_marks.py REPORT.json JOB DIR above KEY NOTKEY
        KEY_above_max is true (a fio value above the job's max), NOTKEY's absent;
    percentiles_json_marks.py REPORT.json JOB DIR null KEY
        KEY is null (a level fio did not report, never estimated).
prints "ok" (exit 0), else what is wrong (exit 1).
"""
import json
import sys

rep = json.load(open(sys.argv[1]))
job, d, what = sys.argv[2], sys.argv[3], sys.argv[4]
blocks = [b for b in rep["results"] if b["job"] == job and b["direction"] == d]
if len(blocks) != 1:
    print("%d blocks for %s %s" % (len(blocks), job, d))
    sys.exit(1)
side = list(blocks[0]["sides"].values())[0]
if what == "above":
    key, notkey = sys.argv[5], sys.argv[6]
    if side.get(key + "_above_max") is not True or notkey + "_above_max" in side:
        print("%s_above_max %r, %s_above_max %r" % (key, side.get(key + "_above_max"),
                                                    notkey, side.get(notkey + "_above_max")))
        sys.exit(1)
elif what == "null":
    key = sys.argv[5]
    if key not in side or side[key] is not None:
        print("%s: %r, not null" % (key, side.get(key, "absent")))
        sys.exit(1)
else:
    print("unknown check %r" % what)
    sys.exit(2)
print("ok")
