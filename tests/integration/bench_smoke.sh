#!/usr/bin/env bash
# `make bench` in its quickest mode (BENCH_SMOKE=1: one round, seconds per
# section, no VM) into $TESTTMP: the script runs every host section end to end
# and the report it writes is well formed.  No timing assertions: the numbers
# of a smoke run mean nothing, only that each one was measured and reported.
. "$(dirname "$0")/../lib.sh"

if ! "$FIO" --ioengine="external:$NVENGINE_SO" --parse-only --name=probe --filename=/dev/null \
	--size=1M >/dev/null 2>&1; then
	skip all "fio cannot load $NVENGINE_SO (an ASan build?)"
	exit 0
fi
if [ "$(stat -f -c %T /dev/shm 2>/dev/null)" != tmpfs ]; then
	skip all "/dev/shm is not tmpfs"
	exit 0
fi

md=$T/BENCHMARKS.md png=$T/bench.png shm=/dev/shm/nvbench-smoke.$$
mkdir -p "$shm"
if BENCH_SHM="$shm" BENCH_SMOKE=1 BENCH_OUT="$T/out" BENCH_MD="$md" BENCH_PNG="$png" NVENGINE_SO="$NVENGINE_SO" \
	NVANALYZE="$NVANALYZE" "$TOP/tools/bench.sh" >"$T/bench.log" 2>&1; then
	pass run
else
	fail run "tools/bench.sh exited $?: $(tail -n 5 "$T/bench.log" | tr '\n' ' ')"
	exit 0
fi

# The report: machine, every goal with a verdict, every section, no holes.
out=$(python3 - "$md" <<'PY' 2>&1
import re, sys
md = open(sys.argv[1]).read()
bad = []
for h in ("# Benchmarks", "## Machine", "## Method", "## Goals", "## 1. Engine overhead",
          "## 2. NVMe passthrough", "## 3. Trace size", "## 4. Analyzer", "## 5. Resident memory",
          "## 6. Tracing's CPU time", "## 7. QD 1 latency"):
    if h not in md:
        bad.append("no heading " + h)
for k in ("| CPU |", "| cores | ", "| kernel |", "| fio | fio-"):
    if k not in md:
        bad.append("machine table lacks " + k)
goals = re.search(r"## Goals\n\n\| goal .*?\n\|---.*?\n((?:\|.*\n)+)", md)
rows = goals.group(1).splitlines() if goals else []
if len(rows) < 13:
    bad.append("goals table has %d rows, want >= 13" % len(rows))
for r in rows:
    cells = [c.strip() for c in r.strip("|").split("|")]
    if len(cells) != 5 or cells[3] not in ("PASS", "**FAIL**", "not run", "-"):
        bad.append("bad goal row: " + r)
# smoke runs every host section: those goals must be measured
for g in ("files, QD 1", "files, QD 32", "trace size", "one writer thread", "analyzer, decode",
          "analyzer peak memory", "engine RSS", "CPU time, job thread", "CPU time, trace writer thread"):
    if not any(g in r and "| not run |" not in r for r in rows):
        bad.append("goal '%s' not measured" % g)
for word in ("None", "nan", "Traceback"):
    if re.search(r"\b%s\b" % word, md):
        bad.append("report contains " + word)
for t in ("### iodepth 1", "### iodepth 32", "nv_trace level 1", "encode, one thread", "peak resident memory",
          "RSS at end"):
    if t not in md:
        bad.append("no table with " + t)
print("; ".join(bad) if bad else "ok")
PY
)
if [ "$out" = ok ]; then pass report-well-formed; else fail report-well-formed "$out"; fi

if [ "$(head -c 8 "$png" 2>/dev/null | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ]; then
	pass chart-png
else
	fail chart-png "$png is not a PNG file"
fi

# The raw outputs stay for inspection; the traces, targets and loop device do not.
left=$(find "$T/out" -name '*.nvt' -o -name disk.img | head -n 3)
if [ -z "$left" ] && [ -z "$(ls -A "$shm")" ] && [ -z "$(losetup -j "$T/out/loop/disk.img" 2>/dev/null)" ]; then
	pass cleaned-up
else
	fail cleaned-up "left behind: $left $(ls -A "$shm")"
fi
rm -rf "$shm"
