#!/usr/bin/env python3
"""bench_report.py - turn the raw outputs of tools/bench.sh into BENCHMARKS.md
and a gnuplot chart.

    bench_report.py WORKDIR OUT.md OUT.png
    bench_report.py --grow-json SEED.json MB OUT.json
    bench_report.py --grow-normal SEED.txt NJOBS OUT.txt
    bench_report.py --grow-page SEED.txt NOUTPUTS OUT.md

WORKDIR is $BENCH_OUT of tools/bench.sh (meta.env, files/, trace/, analyze/,
memory/, vm/, cpu/, loop/, hosts/, sweep/).  Every number in the report is
computed here from those files: medians over rounds, and for each compared
pair the per-round ratio A/B (both measured in the same round, next to each
other) with its median and range.  A section whose outputs are missing is
reported as "not run", never as zero.  The goals table compares the medians
with the goals (issue 8 and later ones).  When only some sections ran
(BENCH_SECTIONS) and OUT.md exists, only those sections and their goal rows
are replaced in it, the rest kept (merge_report); the chart stays as it was.

--grow-json builds a large json+ file for the analyzer section from a real
fio json+ output: the seed's jobs are repeated (with new job names) until the
file reaches MB megabytes; every value stays one fio really wrote.
--grow-normal does the same for fio's normal output: NJOBS job entries.
--grow-page pastes a real CrystalDiskMark export NOUTPUTS times into a Markdown
page under ten headings (an article's machines, issue 57).
"""
import sys

from benchreport.grow import grow_json, grow_normal, grow_page
from benchreport.report import report


def main(argv):
    if len(argv) == 5 and argv[1] == "--grow-json":
        grow_json(argv[2], argv[3], argv[4])
        return 0
    if len(argv) == 5 and argv[1] == "--grow-normal":
        grow_normal(argv[2], argv[3], argv[4])
        return 0
    if len(argv) == 5 and argv[1] == "--grow-page":
        grow_page(argv[2], argv[3], argv[4])
        return 0
    if len(argv) != 4:
        sys.stderr.write(__doc__)
        return 2
    return report(argv[1], argv[2], argv[3])


if __name__ == "__main__":
    sys.exit(main(sys.argv))
