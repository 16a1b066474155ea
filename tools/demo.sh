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
#    in the order A B B A;
# 4. brings the fio JSON, job files and traces back into
#    demo/passthrough-1, -2 and demo/block-1, -2;
# 5. runs nvanalyze -o demo over them (report.md, tables, gnuplot figures)
#    and prints the table.
#
# Environment: DEMO_OUT (default demo; emptied first), DEMO_RUNTIME (seconds
# per timed test in the guest, default 3), DEMO_ORDER (the side that runs
# first: passthrough, the default, or block), MAKE, and the tests/vm knobs
# (NVVM_*).  Exit status 0 when the report was written, 1 otherwise.
# TCG emulation is slow and the guest's device is a file on the host: the
# numbers compare the two paths through the same emulated stack, they are not
# NVMe performance.
set -euo pipefail

top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$top"
out=${DEMO_OUT:-demo}
runtime=${DEMO_RUNTIME:-3}
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

step 3/5 "boot the emulated-NVMe guest and run the instance suite four times (${runtime}s per test)"
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
printf 'RUNTIME=%s\nDEMO_ORDER=%s\n' "$runtime" "$order" >"$work/demo.conf"
vmout=$work/vm
mkdir -p "$vmout"
# boot.sh logs its own steps on stderr ("boot: fetching kernel ...");
# the guest's progress lines are picked from the serial console as it runs.
TESTTMP=$work tests/vm/boot.sh --cases tools/demo-cases --out "$vmout" --work "$boot" \
	--extra jobs --extra "$work/demo.conf" 2>&1 | sed -u 's/^/      /' &
bootpid=$!
tail -n +1 -F --pid=$bootpid "$vmout/console.log" 2>/dev/null |
	sed -un 's/\r$//; s/^demo-progress: /      guest: /p' || true
rc=0
wait $bootpid || rc=$?
# The pipeline's status is sed's; boot.sh's own is in its summary file.
[ -f "$vmout/summary" ] || die "the guest left no results (console: see above; boot.sh's exit status $rc)"
grep -q '^FAIL:' "$vmout/summary" && {
	sed 's/^/      /' "$vmout/summary"
	die "a demo step failed in the guest; its log: $(ls "$vmout"/10-*.log 2>/dev/null)"
}
res=$vmout/10-instance-suite
runs="passthrough-1 passthrough-2 block-1 block-2"
for p in $runs; do
	[ -f "$res/$p/instance-suite.json" ] || die "no $p results came back from the guest"
done
note "ok ($(elapsed)s)"

step 4/5 "results into $out/"
rm -rf "$out"
mkdir -p "$out"
for p in $runs; do
	cp -r "$res/$p" "$out/"
done
cp "$vmout/console.log" "$out/console.log"
ntrace=$(find "$out"/passthrough-*/traces -name '*.nvt' | wc -l)
note "$out/passthrough-1, -2: fio JSON, job file, $ntrace traces in all; $out/block-1, -2: fio JSON, job file"

step 5/5 "nvanalyze: tables, findings and plots into $out/"
a=$out/passthrough-1/instance-suite.json,$out/passthrough-2/instance-suite.json
b=$out/block-1/instance-suite.json,$out/block-2/instance-suite.json
labels=(-l passthrough -l block)
# -o writes report.md, tables, data, gnuplot scripts and PNG/SVG figures;
# the traces are found next to the JSON (the guest's paths are not here).
./nvanalyze -o "$out" "${labels[@]}" "$a" "$b" >/dev/null 2>"$out/nvanalyze.log" ||
	die "nvanalyze failed: $(tail -n 3 "$out/nvanalyze.log")"
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
{
	echo "# make demo: nvengine passthrough vs the kernel block path"
	echo
	echo "The instance-family suite (\`jobs/instance/suite.fio\`, ${runtime} s per test) ran"
	echo "four times on the same emulated 4 KiB-LBA NVMe namespace of ${NVVM_NS_MB} MiB (QEMU,"
	echo "TCG): twice through nvengine's passthrough path on \`/dev/ngXnY\` and twice"
	echo "through fio's io_uring engine on the block device \`/dev/nvmeXnY\` with"
	echo "\`direct=1\`. Each side's value is the mean of its two runs; the change"
	echo "column reads passthrough vs block. Emulated hardware: compare the paths,"
	echo "not the absolute numbers."
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
	echo "job files as run are next to them."
	echo
	sed 's/^#/##/' "$out/report.md"
} >"$out/report.md.new" && mv "$out/report.md.new" "$out/report.md"
npng=$(find "$out" -maxdepth 1 -name '*.png' | wc -l)
[ "$npng" -gt 0 ] || note "no PNG figures (is gnuplot installed?); the .gp scripts are in $out"
note "ok ($(elapsed)s)"

echo
./nvanalyze --format text "${labels[@]}" "$a" "$b"
echo
echo "demo: report: $out/report.md with $npng figures (results in $out/passthrough-1, -2 and $out/block-1, -2); $(elapsed)s in all"
