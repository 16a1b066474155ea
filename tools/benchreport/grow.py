"""The large inputs of the analyzer sections grown from real outputs: a json+ file of MB
megabytes (--grow-json), a normal output of NJOBS jobs (--grow-normal) and a page of N
CrystalDiskMark exports under ten headings (--grow-page)."""
import json
import os
import re
import sys


def grow_json(seed, mb, out):
    """Repeat the seed's jobs (renamed) until the file is at least mb MB."""
    with open(seed) as f:
        txt = f.read()
    j = json.loads(txt[txt.index("{"):])
    base = j["jobs"]
    if not base:
        sys.exit("bench_report: {} has no jobs".format(seed))
    def build(n):
        jobs = []
        for i in range(n):
            x = dict(base[i % len(base)])
            x["jobname"] = "{}-{}".format(x["jobname"], i)
            jobs.append(x)
        j["jobs"] = jobs
        return json.dumps(j, indent=2)

    # the size of one job as it sits in the file, from a small trial
    probe = 2 * len(base)
    per_job = (len(build(probe)) - len(build(len(base)))) / (probe - len(base))
    n = max(1, int(round((float(mb) * 1e6 - len(build(len(base)))) / per_job)) + len(base))
    with open(out, "w") as f:
        f.write(build(n))
    print("{} jobs: the {} json+ jobs of a real fio {} run (nvengine, 4k randrw, numjobs={}) "
          "repeated with distinct job names; {:.1f} MB.".format(
              n, len(base), j.get("fio version", "?"), len(base), os.path.getsize(out) / 1e6))


def grow_normal(seed, njobs, out):
    """A fio normal output of njobs jobs: the job blocks of the real seed output (fio's own text)
    repeated with distinct job names and pids, one preamble line per job, the seed's status group
    and disk lines at the end."""
    lines = open(seed).read().split("\n")
    pre = [l for l in lines if ": (g=" in l and "rw=" in l]
    heads = [i for i, l in enumerate(lines) if ": (groupid=" in l]
    end = next(i for i, l in enumerate(lines) if l.startswith("Run status group"))
    if not heads or not pre:
        sys.exit("bench_report: {} is not fio normal output with job entries".format(seed))
    blocks = [lines[a:b] for a, b in zip(heads, heads[1:] + [end])]
    names = [lines[h].split(":")[0] for h in heads]
    n = int(njobs)
    with open(out, "w") as f:
        for i in range(n):
            f.write(pre[i % len(pre)].replace(names[i % len(names)], "{}-{}".format(
                names[i % len(names)], i), 1) + "\n")
        f.write("fio-{}\nStarting {} processes\n\n".format(
            next((l[4:] for l in lines if l.startswith("fio-")), "3.33"), n))
        for i in range(n):
            b = list(blocks[i % len(blocks)])
            b[0] = re.sub(r"pid=\d+", "pid={}".format(1000 + i), b[0].replace(
                names[i % len(names)], "{}-{}".format(names[i % len(names)], i), 1))
            f.write("\n".join(b) + "\n")
        f.write("\n".join(lines[end:]))
    print("{} jobs: the {} job entries of a real fio {} run (ioengine=null, randrw "
          "4k and read 128k, a 17-level percentile_list) repeated with distinct "
          "names and pids; {:.1f} MB.".format(
              n, len(blocks), next((l for l in lines if l.startswith("fio-")), "?"),
              os.path.getsize(out) / 1e6))


def grow_page(seed, n, out):
    """A Markdown page of n CrystalDiskMark exports: the real seed export (its own text) pasted
    n times in ``` fences, a line of prose before each, under ten "## machine K" headings (n/10
    repeats of each machine), every export's first result's last digits varied so that no two
    are the same output."""
    text = open(seed, encoding="utf-8-sig").read().replace("\r\n", "\n")
    m = re.search(r"MB/s", text)
    if not m:
        sys.exit("bench_report: {} is not a CrystalDiskMark export".format(seed))
    num = re.search(r"(\d+)\.(\d{3}) MB/s", text)
    n = int(n)
    with open(out, "w") as f:
        f.write("# {} CrystalDiskMark exports, ten machines\n".format(n))
        for i in range(n):
            if i % max(1, n // 10) == 0 and i // max(1, n // 10) < 10:
                f.write("\n## machine {}\n".format(i // max(1, n // 10)))
            t = "{}{}.{:03d}{}".format(text[:num.start(1)], int(num.group(1)) + i // 1000,
                                       i % 1000, text[num.end(2):])
            f.write("\nrun {}:\n\n```\n{}```\n".format(i, t))
    print("{} outputs: the real CrystalDiskMark export {} pasted {} times under ten headings "
          "({:.1f} MB).".format(n, os.path.basename(seed), n, os.path.getsize(out) / 1e6))
