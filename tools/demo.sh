#!/usr/bin/env bash
# make demo: the whole pipeline on a machine without NVMe.
#
#   tools/demo.sh            (what `make demo` runs; from the repository root)
#
# 1. installs the missing Debian packages (tools/deps.sh, as make deps does);
# 2. builds ./libnvengine.so and ./nvanalyze (make all);
# 3. boots the emulated-NVMe guest once (tests/vm/boot.sh) with jobs/ and
#    the case tools/demo-cases/10-instance-suite.sh, which runs a short
#    version of jobs/instance/suite.fio four times on the same namespace,
#    written once before any run so that all meet allocated blocks: twice
#    through nvengine's passthrough path (/dev/ngXnY, traced) and twice
#    through the kernel block path (fio's io_uring, direct=1, /dev/nvmeXnY),
#    in the order A B B A; then a queue-depth sweep of 4k random read
#    (tools/demo-cases/sweep/randread-4k.fio, one job, iodepth 1, 2, 4, ...,
#    64, 2 s a point, jobs/run --sweep) through both paths, the sides
#    alternating point by point (A B at iodepth 1, B A at 2, ...);
# 4. brings the fio JSON, job files and traces back into
#    demo/passthrough-1, -2, demo/block-1, -2 and the sweep's into
#    demo/sweep-passthrough and demo/sweep-block;
# 5. runs nvanalyze -o demo over the suite and nvanalyze -o demo/curve over
#    the sweep (report.md, report.html, tables, gnuplot figures), writes
#    demo/report.md opening with the load curve (p99 against IOPS, one curve
#    per path) and its table, then the suite's report, and prints both.
#
# Environment: DEMO_OUT (default demo; emptied first), DEMO_RUNTIME (seconds
# per timed test of the suite in the guest, default 3), DEMO_SWEEP_RUNTIME
# (seconds per point of the sweep, default 2), DEMO_ORDER (the side that
# runs first: passthrough, the default, or block), MAKE, and the tests/vm
# knobs (NVVM_*).  Exit status 0 when the report was written, 1 otherwise.
# About three minutes on the 2-core build machine with the packages and the
# kernel already fetched (166 s idle; the sweep 48 s of it in the guest).
# TCG emulation is slow and the guest's device is a file on the host: the
# numbers compare the two paths through the same emulated stack, they are not
# NVMe performance.
set -euo pipefail

top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$top"
out=${DEMO_OUT:-demo}
runtime=${DEMO_RUNTIME:-3}
sweep_runtime=${DEMO_SWEEP_RUNTIME:-2}
order=${DEMO_ORDER:-passthrough}
# A 1 GiB namespace: its whole-device precondition then takes seconds, not
# the tenth of a second in which one hiccup of the emulation moves it by half.
export NVVM_NS_MB=${NVVM_NS_MB:-1024}
MAKE=${MAKE:-make}
T0=$(date +%s)

step() {
	printf '\n[%s] %s\n' "$1" "$2"
}
note() {
	printf '      %s\n' "$*"
}
die() {
	printf 'demo: %s\n' "$*" >&2
	exit 1
}
elapsed() {
	echo $(($(date +%s) - T0))
}

case $runtime in
'' | *[!0-9]*) die "DEMO_RUNTIME=$runtime: a number of seconds is needed";;
esac
case $sweep_runtime in
'' | *[!0-9]* | 0*) die "DEMO_SWEEP_RUNTIME=$sweep_runtime: a number of seconds, 1 or more";;
esac
case $order in
passthrough | block) ;;
*) die "DEMO_ORDER=$order: passthrough (passthrough side first, the default) or block";;
esac

step 1/5 "packages (tools/deps.sh)"
tools/deps.sh || die "installing the packages failed (run tools/deps.sh as root)"
note "ok ($(elapsed)s)"

step 2/5 "build ($MAKE all)"
$MAKE --no-print-directory all || die "the build failed"
note "ok: ./libnvengine.so ./nvanalyze ($(elapsed)s)"

guest="the suite four times (${runtime}s per test), a QD sweep (14 points, ${sweep_runtime}s each)"
step 3/5 "boot the emulated-NVMe guest: $guest"
work=$(mktemp -d "${TMPDIR:-/tmp}/nvdemo.XXXXXX")
# The namespaces' backing files in RAM where /dev/shm is a tmpfs with room:
# on a disk, the host's writeback of one side's writes can land in the other
# side's tests (an order effect); in RAM both sides meet the same memory.
boot=$work/boot
need_mb=$((2 * NVVM_NS_MB + 512))
if [ "$(stat -f -c %T /dev/shm 2>/dev/null)" = tmpfs ] &&
	[ "$(($(stat -f -c '%a * %S' /dev/shm) / 1048576))" -ge "$need_mb" ]; then
	boot=$(mktemp -d /dev/shm/nvdemo.XXXXXX)
fi
trap 'rm -rf "$work" "$boot"' EXIT
printf 'RUNTIME=%s\nSWEEP_RUNTIME=%s\nDEMO_ORDER=%s\n' "$runtime" "$sweep_runtime" "$order" \
	>"$work/demo.conf"
vmout=$work/vm
mkdir -p "$vmout"
# boot.sh logs its own steps on stderr ("boot: fetching kernel ...");
# the guest's progress lines are picked from the serial console as it runs.
# The boot's own limit above the case's (its "# vm-timeout:"), so that a
# case that overruns is stopped and what it finished still comes back.
TESTTMP=$work tests/vm/boot.sh --cases tools/demo-cases --out "$vmout" --work "$boot" \
	--timeout 1500 --extra jobs --extra tools/demo-cases/sweep --extra "$work/demo.conf" 2>&1 |
	sed -u 's/^/      /' &
bootpid=$!
tail -n +1 -F --pid=$bootpid "$vmout/console.log" 2>/dev/null |
	sed -un 's/\r$//; s/^demo-progress: /      guest: /p' || true
rc=0
wait $bootpid || rc=$?
# The pipeline's status is sed's; boot.sh's own is in its summary file.
[ -f "$vmout/summary" ] ||
	die "the guest left no results (console: see above; boot.sh's exit status $rc)"
grep -q '^FAIL:' "$vmout/summary" && {
	sed 's/^/      /' "$vmout/summary"
	die "a demo step failed in the guest; its log: $(ls "$vmout"/10-*.log 2>/dev/null)"
}
res=$vmout/10-instance-suite
runs="passthrough-1 passthrough-2 block-1 block-2"
for p in $runs; do
	[ -f "$res/$p/instance-suite.json" ] || die "no $p results came back from the guest"
done
sweeps="sweep-passthrough sweep-block"
qds="1 2 4 8 16 32 64"
for p in $sweeps; do
	for q in $qds; do
		[ -f "$res/$p/sweep-randread-4k@iodepth=$q.json" ] ||
			die "no $p results at iodepth=$q came back from the guest"
	done
done
note "ok ($(elapsed)s)"

step 4/5 "results into $out/"
rm -rf "$out"
mkdir -p "$out"
for p in $runs $sweeps; do
	cp -r "$res/$p" "$out/"
done
cp "$vmout/console.log" "$out/console.log"
ntrace=$(find "$out"/passthrough-*/traces -name '*.nvt' | wc -l)
note "$out/passthrough-1, -2: fio JSON, job file, $ntrace traces in all;" \
	"$out/block-1, -2: fio JSON, job file"
ntrace=$(find "$out"/sweep-passthrough/traces -name '*.nvt' | wc -l)
note "$out/sweep-passthrough: 7 points' fio JSON and job files, $ntrace traces;" \
	"$out/sweep-block: the same, untraced"

step 5/5 "nvanalyze: tables, findings and plots into $out/ (the sweep's into $out/curve/)"
a=$out/passthrough-1/instance-suite.json,$out/passthrough-2/instance-suite.json
b=$out/block-1/instance-suite.json,$out/block-2/instance-suite.json
labels=(-l passthrough -l block)
# -o writes report.md, report.html, tables, data, gnuplot scripts and
# PNG figures; the traces are found next to the JSON (the guest's paths
# are not here).  The sweep is a report of its own: each side of the suite
# is two runs (repeats, which must hold the same jobs), the sweep one.
./nvanalyze -o "$out" "${labels[@]}" "$a" "$b" >/dev/null 2>"$out/nvanalyze.log" ||
	die "nvanalyze failed: $(tail -n 3 "$out/nvanalyze.log")"
mkdir -p "$out/curve"
./nvanalyze -o "$out/curve" "${labels[@]}" "$out/sweep-passthrough" "$out/sweep-block" \
	>/dev/null 2>"$out/curve/nvanalyze.log" ||
	die "nvanalyze on the sweep failed: $(tail -n 3 "$out/curve/nvanalyze.log")"
if [ "$order" = block ]; then
	seq_runs="block-1 passthrough-1 passthrough-2 block-2" other=passthrough
else
	seq_runs="passthrough-1 block-1 block-2 passthrough-2" other=block
fi
# precondition_bw RUN: the precondition's MB/s in RUN (nvanalyze's CSV)
precondition_bw() {
	./nvanalyze -f csv -j precondition "$out/$1/instance-suite.json" 2>/dev/null |
		awk -F, '$3 == "bandwidth" { printf "%.1f", $5; exit }'
}
# curve_part WHAT: from the sweep's report.md, its load-curve figures (WHAT
# p99: the first, p99 against IOPS; rest: the others) or its tables (WHAT
# tables: the section's body, the knees), image links made relative to
# $out.
curve_part() {
	awk -v what="$1" '
		/^## / { sec = $0; n = 0; next }
		sec == "## Load curve figures" && /^!\[/ {
			if (what != "tables" && (what == "p99") == (++n == 1)) {
				print; print "" } }
		sec == "## Load curves and steady state" && what == "tables" { print }' \
		"$out/curve/report.md" | sed 's/^\(!\[[^]]*\]\)(/\1(curve\//'
}
sweep_order="$order then $other at iodepth 1, $other then $order at 2, and so on"
{
	echo "# make demo: nvengine passthrough vs the kernel block path"
	echo
	echo "One boot of an emulated 4 KiB-LBA NVMe namespace of ${NVVM_NS_MB} MiB (QEMU, TCG),"
	echo "measured through two paths: nvengine's passthrough path on \`/dev/ngXnY\`"
	echo "(traced: exact latency) and fio's io_uring engine on the block device"
	echo "\`/dev/nvmeXnY\` with \`direct=1\` (fio's binned latency). Emulated hardware:"
	echo "compare the paths, not the absolute numbers."
	echo
	echo "## Load curve: 4k random read, iodepth 1 to 64"
	echo
	curve_part p99
	echo "4k random read, one job, at iodepth 1, 2, 4, 8, 16, 32 and 64, ${sweep_runtime} s a"
	echo "point, over the whole namespace, after the instance suite below in the same"
	echo "boot: \`jobs/run --sweep iodepth=N\` with" \
		"\`tools/demo-cases/sweep/randread-4k.fio\`,"
	echo "once per point and side, the sides alternating point by point"
	echo "($sweep_order), so that a drift over the sweep falls on both."
	echo "Each point is a single ${sweep_runtime} s run, and under TCG one run of a point can"
	echo "move by half: read the shapes of the curves (where latency climbs, where"
	echo "IOPS stops growing), not one point's difference. The sweep's own report"
	echo "(every point's tables, CDFs and traces) is \`curve/report.md\`"
	echo "(\`curve/report.html\`); its inputs are \`sweep-passthrough/\` and"
	echo "\`sweep-block/\`."
	echo
	curve_part tables
	curve_part rest
	echo "## Instance suite: passthrough vs block, two runs each"
	echo
	echo "The instance-family suite (\`jobs/instance/suite.fio\`, ${runtime} s per test) ran"
	echo "four times on the same namespace: twice through nvengine's passthrough path"
	echo "and twice through the block path. Each side's value is the mean of its two"
	echo "runs; the change column reads passthrough vs block."
	echo
	echo "How the two sides were made comparable:"
	echo
	echo "- before any run, the whole namespace was written once"
	echo "  (\`jobs/instance/precondition.fio\` through the block path, not compared),"
	echo "  so that every run meets blocks that QEMU's backing file has already"
	echo "  allocated (without it the side run first paid for allocating them:"
	echo "  its precondition measured -72.8% against the other side's);"
	echo "- the runs alternated, A B B A: $(echo "$seq_runs" | sed 's/ / then /g')"
	echo "  (\`DEMO_ORDER=$other make demo\` starts with the other side), so that a"
	echo "  drift over the boot falls on both sides alike;"
	echo "- the same job file ran on the same namespace in the same boot."
	echo
	echo "The precondition (a whole-namespace sequential write, the first test of"
	echo "each run) in the order the runs were made; two runs of one side differ by"
	echo "what the emulation alone moves a test by:"
	echo
	echo "| run | precondition, MB/s |"
	echo "|---|---:|"
	for p in $seq_runs; do
		echo "| $p | $(precondition_bw "$p") |"
	done
	echo
	echo "Inputs: \`passthrough-1/instance-suite.json\` and \`passthrough-2/\` (traces in"
	echo "\`traces/\` beside each), \`block-1/instance-suite.json\` and \`block-2/\`; the"
	echo "job files as run are next to them. \`report.html\` is this suite's report as"
	echo "one page (the curve's: \`curve/report.html\`)."
	echo
	sed 's/^#/##/' "$out/report.md"
} >"$out/report.md.new" && mv "$out/report.md.new" "$out/report.md"
npng=$(find "$out" "$out/curve" -maxdepth 1 -name '*.png' | wc -l)
[ "$npng" -gt 0 ] || note "no PNG figures (is gnuplot installed?); the .gp scripts are in $out"
[ -f "$out/curve/curve_p99_randread-4k_read.png" ] || [ "$npng" -eq 0 ] ||
	die "the sweep gave no load curve ($out/curve/curve_p99_randread-4k_read.png)"
note "ok ($(elapsed)s)"

echo
echo "Load curve, 4k random read (from $out/curve/report.md):"
echo
curve_part tables
./nvanalyze --format text "${labels[@]}" "$a" "$b"
echo
echo "demo: report: $out/report.md with $npng figures, opening with the load curve" \
	"$out/curve/curve_p99_randread-4k_read.png (results in $out/passthrough-1, -2," \
	"$out/block-1, -2, $out/sweep-passthrough and $out/sweep-block); $(elapsed)s in all"
