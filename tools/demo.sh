#!/usr/bin/env bash
# make demo: the whole pipeline on a machine without NVMe.
#
#   tools/demo.sh            (what `make demo` runs; from the repository root)
#
# 1. installs the missing Debian packages (tools/deps.sh, as make deps does);
# 2. builds ./libnvengine.so and ./nvanalyze (make all);
# 3. boots the emulated-NVMe guest once (tests/vm/boot.sh) with jobs/ and
#    the case tools/demo-cases/10-instance-suite.sh, which runs a short
#    version of jobs/instance/suite.fio twice on the same namespace, written
#    once before either run so that both meet allocated blocks: through
#    nvengine's passthrough path (/dev/ngXnY, traced) and through the kernel
#    block path (fio's io_uring, direct=1, /dev/nvmeXnY);
# 4. brings the fio JSON, job files and traces back into demo/passthrough
#    and demo/block;
# 5. runs nvanalyze -o demo over them (report.md, tables, gnuplot figures)
#    and prints the table.
#
# Environment: DEMO_OUT (default demo; emptied first), DEMO_RUNTIME (seconds
# per timed test in the guest, default 3), MAKE, and the tests/vm knobs
# (NVVM_*).  Exit status 0 when the report was written, 1 otherwise.
# TCG emulation is slow and the guest's device is a file on the host: the
# numbers compare the two paths through the same emulated stack, they are not
# NVMe performance.
set -euo pipefail

top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$top"
out=${DEMO_OUT:-demo}
runtime=${DEMO_RUNTIME:-3}
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

step 1/5 "packages (tools/deps.sh)"
tools/deps.sh || die "installing the packages failed (run tools/deps.sh as root)"
note "ok ($(elapsed)s)"

step 2/5 "build ($MAKE all)"
$MAKE --no-print-directory all || die "the build failed"
note "ok: ./libnvengine.so ./nvanalyze ($(elapsed)s)"

step 3/5 "boot the emulated-NVMe guest and run the instance suite twice (${runtime}s per test)"
work=$(mktemp -d "${TMPDIR:-/tmp}/nvdemo.XXXXXX")
trap 'rm -rf "$work"' EXIT
echo "RUNTIME=$runtime" >"$work/demo.conf"
vmout=$work/vm
mkdir -p "$vmout"
# boot.sh logs its own steps on stderr ("boot: fetching kernel ...");
# the guest's progress lines are picked from the serial console as it runs.
TESTTMP=$work tests/vm/boot.sh --cases tools/demo-cases --out "$vmout" --work "$work/boot" \
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
for p in passthrough block; do
	[ -f "$res/$p/instance-suite.json" ] || die "no $p results came back from the guest"
done
note "ok ($(elapsed)s)"

step 4/5 "results into $out/"
rm -rf "$out"
mkdir -p "$out"
cp -r "$res/passthrough" "$res/block" "$out/"
cp "$vmout/console.log" "$out/console.log"
ntrace=$(find "$out/passthrough/traces" -name '*.nvt' | wc -l)
note "$out/passthrough: fio JSON, job file, $ntrace traces; $out/block: fio JSON, job file"

step 5/5 "nvanalyze: tables, findings and plots into $out/"
a=$out/passthrough/instance-suite.json
b=$out/block/instance-suite.json
labels=(-l passthrough -l block)
# -o writes report.md, tables, data, gnuplot scripts and PNG/SVG figures;
# the traces are found next to the JSON (the guest's paths are not here).
./nvanalyze -o "$out" "${labels[@]}" "$a" "$b" >/dev/null 2>"$out/nvanalyze.log" ||
	die "nvanalyze failed: $(tail -n 3 "$out/nvanalyze.log")"
{
	echo "# make demo: nvengine passthrough vs the kernel block path"
	echo
	echo "The instance-family suite (\`jobs/instance/suite.fio\`, ${runtime} s per test) ran"
	echo "twice on the same emulated 4 KiB-LBA NVMe namespace (QEMU, TCG): through"
	echo "nvengine's passthrough path on \`/dev/ngXnY\` and through fio's io_uring"
	echo "engine on the block device \`/dev/nvmeXnY\` with \`direct=1\`. The change"
	echo "column reads passthrough vs block. Emulated hardware: compare the paths,"
	echo "not the absolute numbers."
	echo
	echo "How the two sides were made comparable: before either ran, the whole"
	echo "namespace was written once (\`jobs/instance/precondition.fio\` through the"
	echo "block path, not compared), so that both sides' precondition and tests"
	echo "meet blocks that QEMU's backing file has already allocated. Without it"
	echo "the side run first pays for allocating them (its precondition measured"
	echo "-72.8% against the other side's: an order effect, not the path). Both"
	echo "sides then ran the same job file on the same namespace, one after the"
	echo "other, in the same boot."
	echo
	echo "Inputs: \`passthrough/instance-suite.json\` (traces in \`passthrough/traces/\`),"
	echo "\`block/instance-suite.json\`; the job files as run are next to them."
	echo
	sed 's/^#/##/' "$out/report.md"
} >"$out/report.md.new" && mv "$out/report.md.new" "$out/report.md"
npng=$(find "$out" -maxdepth 1 -name '*.png' | wc -l)
[ "$npng" -gt 0 ] || note "no PNG figures (is gnuplot installed?); the .gp scripts are in $out"
note "ok ($(elapsed)s)"

echo
./nvanalyze --format text "${labels[@]}" "$a" "$b"
echo
echo "demo: report: $out/report.md with $npng figures (results in $out/passthrough and $out/block); $(elapsed)s in all"
