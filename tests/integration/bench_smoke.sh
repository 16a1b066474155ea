#!/usr/bin/env bash
# `make bench` in its quickest mode (BENCH_SMOKE=1: one round, seconds per
# section, no VM) into $TESTTMP: the script runs every host section end to end
# and the report it writes is well formed; a section rerun alone replaces only
# its part of the report.  No timing assertions: the numbers
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
if BENCH_SHM="$shm" BENCH_SMOKE=1 BENCH_OUT="$T/out" BENCH_MD="$md" BENCH_PNG="$png" \
	NVENGINE_SO="$NVENGINE_SO" NVANALYZE="$NVANALYZE" "$TOP/tools/bench.sh" \
	>"$T/bench.log" 2>&1; then
	pass run
else
	fail run "tools/bench.sh exited $?: $(tail -n 5 "$T/bench.log" | tr '\n' ' ')"
	exit 0
fi

# The report: machine, every goal with a verdict, every section, no holes.
out=$(pytool bench_report_check "$md" 2>&1)
if [ "$out" = ok ]; then pass report-well-formed; else fail report-well-formed "$out"; fi

if [ "$(head -c 8 "$png" 2>/dev/null | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ]; then
	pass chart-png
else
	fail chart-png "$png is not a PNG file"
fi

# A section rerun alone into an existing report replaces its own section and
# goal rows only: the sweep section's outputs with one round fewer, reported
# again into a copy of the report.
cp -r "$T/out" "$T/out1"
sed -i 's/^sections=.*/sections=sweep/' "$T/out1/meta.env"
rm -f "$T/out1"/sweep/r2-*
cp "$md" "$T/merged.md"
if "$PYTHON" "$TOP/tools/bench_report.py" "$T/out1" "$T/merged.md" "$T/merged.png" \
	2>"$T/merge.err"; then
	out=$(pytool bench_report_check --merged "$md" "$T/merged.md" 10 "sweep analysis" 2>&1)
	if [ "$out" = ok ]; then pass section-merge; else fail section-merge "$out"; fi
else
	fail section-merge "bench_report.py: $(tail -n 3 "$T/merge.err")"
fi

# The raw outputs stay for inspection; the traces, targets and loop device do not.
left=$(find "$T/out" -name '*.nvt' -o -name disk.img | head -n 3)
if [ -z "$left" ] && [ -z "$(ls -A "$shm")" ] &&
	[ -z "$(losetup -j "$T/out/loop/disk.img" 2>/dev/null)" ]; then
	pass cleaned-up
else
	fail cleaned-up "left behind: $left $(ls -A "$shm")"
fi
rm -rf "$shm"
