#!/usr/bin/env bash
# shellcheck source-path=SCRIPTDIR
# tools/bench.sh - `make bench`: paired benchmarks of nvengine against fio's
# own engines and per-IO logs; rewrites BENCHMARKS.md and bench/bench.png.
#
#   make bench                      full run (about 25 minutes on 2 cores)
#   BENCH_QUICK=1 make bench        every section, shorter (about 5 minutes)
#   BENCH_SMOKE=1 tools/bench.sh    seconds per section, no VM (make check)
#
# Sections (issue 8), numbered as in BENCHMARKS.md (9 is `make soak`'s):
# each a function section_NAME in tools/bench-sections/NAME.sh, NAME as in
# BENCH_SECTIONS, sourced below and run in this order, vm last:
#    1 files.sh      engine overhead on a tmpfs file
#    3 trace.sh      trace size and writer throughput
#    4 analyze.sh    nvanalyze on a 100 M IO trace and a 50 MB json+ file
#    5 memory.sh     resident memory of a traced job over time (issue 19)
#    6 cpu.sh        the CPU time tracing adds per IO on the job thread and per
#                    record on the trace writer thread
#    7 loop.sh       fio's clat at QD 1 on a direct-IO loop device, tracing on
#                    and off
#    8 hosts.sh      nvanalyze on many-host results (jobs/run --host layout),
#                    time and peak memory against hosts and IOs
#   10 sweep.sh      nvanalyze on two runs of a 9-point iodepth sweep at once
#                    against the points one at a time (issue 27), time and peak
#                    memory
#   11 workers.sh    the full comparison with -o on N traces at -J 1 and -J 2
#                    against `nvanalyze stat` on the same traces (issue 42), CPU
#                    per IO, wall, peak memory; and -J 1 -o with no gnuplot on
#                    PATH (scripts written, not rendered): the analysis' own CPU,
#                    the rendering's being the difference; and -J 1 -o
#                    --figures svg (no PNG)
#   12 disturb.sh    whether tracing moves what it measures (issue 39): nv_nop
#                    4 jobs x QD 64, the brief's jobs/randread.fio and
#                    jobs/instance/maxiops.fio with two busy loops beside them,
#                    traced against untraced twice (A/A): IOPS, fio's clat p99.99
#                    and max, and the IO loop's wait for the trace writer
#   13 inputxml.sh   nvanalyze reading diskspd XML reports of about 6 KB, 1 MB
#                    and 4 MB (issue 40)
#   14 inputtext.sh  nvanalyze reading a 10,000-job fio normal output (issue
#                    40), time and peak memory against a quarter of the jobs;
#                    and a page of 10,000 outputs under headings (issue 57)
#   15 watch.sh      nvanalyze watch beside a traced nv_nop 4 x QD 64 run
#                    and jobs/randread.fio (issue 55): IOPS and IO-loop waits
#                    with and without it (A/A), its CPU per IO against the
#                    post-run analysis', its peak RSS against the run's length
#                    (and on a synthetic trace of an hour appended as watched)
#    2 vm.sh         passthrough in the emulated-NVMe guest
#
# Pairing: the machines are small and noisy, so every configuration that is
# compared runs once per round, rounds alternate (the order is reversed every
# other round) and the report takes medians and per-round ratios.  Raw
# outputs (fio JSON, /usr/bin/time lines, tool output) stay in $BENCH_OUT;
# tools/bench_report.py (its pieces in tools/benchreport/) turns them into
# the markdown and the chart.
#
# Environment:
#   BENCH_OUT      work directory (default build/bench; emptied first)
#   BENCH_MD       report path (default BENCHMARKS.md in the repo root)
#   BENCH_PNG      chart path (default bench/bench.png)
#   BENCH_SECTIONS subset of "files trace analyze memory vm cpu loop hosts sweep workers
#                  disturb inputxml inputtext watch"
#                  (default all), e.g. BENCH_SECTIONS=cpu tools/bench.sh: that
#                  section alone; into an existing BENCH_MD it replaces only
#                  its own section and goal rows (bench_report.py),
#                  into a new file the others say "not run"
#   BENCH_WORKERS  section 11's configurations instead of the mode's, e.g.
#                  "grouped:4:4000000 nop:4:4000000" (a subset rerun at a quiet hour)
#   BENCH_VM=0     leave out the VM section (smoke mode does)
#   BENCH_VM_ALT_SO  a second libnvengine.so run beside the first in the VM
#                  section ("alt_off": A/B test of an engine change)
#   BENCH_TASKSET  CPU list to pin every benchmarked process to (taskset -c);
#                  default empty: not pinned (see BENCHMARKS.md for why)
#   BENCH_SHM      directory on tmpfs for the target files (default /dev/shm)
#   DISTURB_ROUNDS, DISTURB_JOBS  section 12's rounds (default 7 in full mode)
#                  and jobs (a subset of "nop randread maxiops maxiops_thread")
#   NVENGINE_SO, NVANALYZE   the binaries (default ./libnvengine.so, ./nvanalyze)
set -euo pipefail

TOP=$(cd "$(dirname "$0")/.." && pwd)
cd "$TOP"
: "${NVENGINE_SO:=$TOP/libnvengine.so}"
: "${NVANALYZE:=$TOP/nvanalyze}"
: "${BENCH_OUT:=$TOP/build/bench}"
: "${BENCH_MD:=$TOP/BENCHMARKS.md}"
: "${BENCH_PNG:=$TOP/bench/bench.png}"
all_sections="files trace analyze memory vm cpu loop hosts sweep workers disturb inputxml"
all_sections="$all_sections inputtext watch"
: "${BENCH_SECTIONS:=$all_sections}"
: "${BENCH_TASKSET:=}"
: "${BENCH_SHM:=/dev/shm}"
: "${O:=build}"
FIO=${FIO:-fio}

die() { echo "bench: error: $*" >&2; exit 1; }
log() { echo "bench: $(date +%H:%M:%S) $*" >&2; }

# --- mode -------------------------------------------------------------------
if [ "${BENCH_SMOKE:-0}" = 1 ]; then
	MODE=smoke
	ROUNDS=1 RUNTIME=1 FILE_MB=64
	TRACE_IOS=20000 BT_RECORDS=1000000 BT_REPEATS=1
	# 4 M: stat's CPU over /usr/bin/time's 10 ms tick on a fast core (1 M read 0.00)
	ANA_IOS=4000000 ANA_REPEATS=1 JSON_MB=1
	MEM_SECS=4 MEM_EARLY=1 MEM_STEP=1 MEM_RATE=5000
	VM_ROUNDS=1 VM_RUNTIME=1
	CPU_ROUNDS=2 CPU_RUNTIME=1 LOOP_ROUNDS=1 LOOP_RUNTIME=1 CPU_PAIRS=2 CPU_PAIR_MS=200
	AB_ROUNDS=2 AB_RUNTIME=1 LOOP_AB_ROUNDS=1 LOOP_AB_RUNTIME=1
	HOSTS_CONFIGS="4:20000 8:20000 8:5000"
	SWEEP_IOS=2000 SWEEP_ROUNDS=2
	WORKERS_CONFIGS="4:20000 grouped:4:20000 nop:4:5120" WORKERS_ROUNDS=2
	DISTURB_ROUNDS=${DISTURB_ROUNDS:-1} DISTURB_RUNTIME=1 \
		DISTURB_JOBS=${DISTURB_JOBS:-nop maxiops}
	XML_ROUNDS=1
	INPUT_JOBS=1000 INPUT_ROUNDS=1
	WATCH_ROUNDS=1 WATCH_RUNTIME=1 WATCH_HOUR_S=40
	: "${BENCH_VM:=0}"
elif [ "${BENCH_QUICK:-0}" = 1 ]; then
	MODE=quick
	ROUNDS=3 RUNTIME=1 FILE_MB=1024
	TRACE_IOS=200000 BT_RECORDS=4000000 BT_REPEATS=2
	ANA_IOS=10000000 ANA_REPEATS=2 JSON_MB=10
	MEM_SECS=30 MEM_EARLY=10 MEM_STEP=1 MEM_RATE=10000
	VM_ROUNDS=3 VM_RUNTIME=1
	CPU_ROUNDS=5 CPU_RUNTIME=1 LOOP_ROUNDS=3 LOOP_RUNTIME=1 CPU_PAIRS=15 CPU_PAIR_MS=300
	AB_ROUNDS=5 AB_RUNTIME=1 LOOP_AB_ROUNDS=5 LOOP_AB_RUNTIME=2
	HOSTS_CONFIGS="16:250000 64:250000 64:62500"
	SWEEP_IOS=55556 SWEEP_ROUNDS=3
	WORKERS_CONFIGS="4:1000000 64:62500 grouped:4:1000000 grouped:64:62500 nop:4:1000000"
	WORKERS_ROUNDS=3
	DISTURB_ROUNDS=${DISTURB_ROUNDS:-2} DISTURB_RUNTIME=2
	DISTURB_JOBS=${DISTURB_JOBS:-nop randread maxiops maxiops_thread}
	XML_ROUNDS=3
	INPUT_JOBS=10000 INPUT_ROUNDS=3
	WATCH_ROUNDS=3 WATCH_RUNTIME=2 WATCH_HOUR_S=900
else
	MODE=full
	ROUNDS=7 RUNTIME=3 FILE_MB=1024
	TRACE_IOS=1000000 BT_RECORDS=8000000 BT_REPEATS=3
	ANA_IOS=100000000 ANA_REPEATS=3 JSON_MB=50
	MEM_SECS=300 MEM_EARLY=10 MEM_STEP=2 MEM_RATE=10000
	VM_ROUNDS=5 VM_RUNTIME=2
	CPU_ROUNDS=21 CPU_RUNTIME=2 LOOP_ROUNDS=15 LOOP_RUNTIME=2 CPU_PAIRS=80 CPU_PAIR_MS=500
	AB_ROUNDS=21 AB_RUNTIME=2 LOOP_AB_ROUNDS=21 LOOP_AB_RUNTIME=4
	HOSTS_CONFIGS="16:1000000 64:250000 64:1000000 256:250000"
	SWEEP_IOS=555556 SWEEP_ROUNDS=7
	WORKERS_CONFIGS="4:4000000 64:1000000 4:32000000 grouped:4:4000000 grouped:4:32000000"
	WORKERS_CONFIGS="$WORKERS_CONFIGS grouped:64:1000000 nop:4:4000000 nop:64:250000"
	WORKERS_ROUNDS=5
	DISTURB_ROUNDS=${DISTURB_ROUNDS:-7} DISTURB_RUNTIME=4
	DISTURB_JOBS=${DISTURB_JOBS:-nop randread maxiops maxiops_thread}
	XML_ROUNDS=7
	INPUT_JOBS=10000 INPUT_ROUNDS=5
	WATCH_ROUNDS=7 WATCH_RUNTIME=4 WATCH_HOUR_S=3600
fi
[ -z "${BENCH_WORKERS:-}" ] || WORKERS_CONFIGS=$BENCH_WORKERS
: "${BENCH_VM:=1}"
QDS="1 32"
SWEEP_QDS="1 2 4 8 16 32 64 128 256"	# section 10's points (jobs/run --sweep iodepth=1..256)
AB_WINDOW=1000	# IOs per nv_trace_ab window (section 6)
WATCH_HOUR_IOPS=10000	# section 15's synthetic long trace: its IOs per second of timestamps

# --- checks -----------------------------------------------------------------
[ -f "$NVENGINE_SO" ] || die "$NVENGINE_SO not built (run make)"
[ -x "$NVANALYZE" ] || die "$NVANALYZE not built (run make)"
command -v "$FIO" >/dev/null || die "fio not installed (make deps)"
[ -x /usr/bin/time ] || die "/usr/bin/time missing (apt-get install time)"
command -v python3 >/dev/null || die "python3 missing"
[ -d "$BENCH_SHM" ] && [ -w "$BENCH_SHM" ] ||
	die "BENCH_SHM=$BENCH_SHM is not a writable directory"
case "$(stat -f -c %T "$BENCH_SHM")" in
tmpfs) ;;
*) die "BENCH_SHM=$BENCH_SHM is not on tmpfs (the files section needs a CPU-bound target)";;
esac
"$FIO" --ioengine="external:$NVENGINE_SO" --parse-only --name=probe --filename=/dev/null \
	--size=1M >/dev/null 2>&1 || die "fio cannot load $NVENGINE_SO"

# Helpers: tests/unit/gen_trace writes synthetic traces through the real
# writer (the 100 M IO trace); tools/bench_trace is the codec's own bench.
make --no-print-directory -s "$O/tools/bench_trace" "$O/tests/unit/gen_trace" >&2 ||
	die "cannot build $O/tools/bench_trace and $O/tests/unit/gen_trace"
BENCH_TRACE=$TOP/$O/tools/bench_trace
GEN_TRACE=$TOP/$O/tests/unit/gen_trace

W=$BENCH_OUT
rm -rf "$W"
mkdir -p "$W"
SHM=$(mktemp -d "$BENCH_SHM/nvbench.XXXXXX")
LOOPDEV=
cleanup() {
	local p
	for p in ${disturb_busy:-}; do kill "$p" 2>/dev/null || true; done
	[ -z "$LOOPDEV" ] || losetup -d "$LOOPDEV" 2>/dev/null || true
	rm -rf "$SHM" "$W/loop/disk.img"
}
trap cleanup EXIT
PIN=()
[ -n "$BENCH_TASKSET" ] && PIN=(taskset -c "$BENCH_TASKSET")

want() { case " $BENCH_SECTIONS " in *" $1 "*) return 0;; esac; return 1; }

# --- the machine ------------------------------------------------------------
{
	echo "mode=$MODE"
	echo "rounds=$ROUNDS"
	echo "runtime=$RUNTIME"
	echo "file_mb=$FILE_MB"
	echo "trace_ios=$TRACE_IOS"
	echo "bt_records=$BT_RECORDS"
	echo "ana_ios=$ANA_IOS"
	echo "json_mb=$JSON_MB"
	echo "mem_secs=$MEM_SECS"
	echo "mem_early=$MEM_EARLY"
	echo "mem_rate=$MEM_RATE"
	echo "vm_rounds=$VM_ROUNDS"
	echo "vm_runtime=$VM_RUNTIME"
	echo "cpu_rounds=$CPU_ROUNDS"
	echo "cpu_runtime=$CPU_RUNTIME"
	echo "cpu_pairs=$CPU_PAIRS"
	echo "cpu_pair_ms=$CPU_PAIR_MS"
	echo "ab_rounds=$AB_ROUNDS"
	echo "ab_runtime=$AB_RUNTIME"
	echo "ab_window=$AB_WINDOW"
	echo "loop_ab_rounds=$LOOP_AB_ROUNDS"
	echo "loop_ab_runtime=$LOOP_AB_RUNTIME"
	echo "loop_rounds=$LOOP_ROUNDS"
	echo "loop_runtime=$LOOP_RUNTIME"
	echo "hosts_configs=$HOSTS_CONFIGS"
	echo "sweep_ios=$SWEEP_IOS"
	echo "sweep_rounds=$SWEEP_ROUNDS"
	echo "sweep_qds=$SWEEP_QDS"
	echo "workers_configs=$WORKERS_CONFIGS"
	echo "workers_rounds=$WORKERS_ROUNDS"
	echo "disturb_rounds=$DISTURB_ROUNDS"
	echo "disturb_runtime=$DISTURB_RUNTIME"
	echo "disturb_jobs=$DISTURB_JOBS"
	echo "xml_rounds=$XML_ROUNDS"
	echo "input_jobs=$INPUT_JOBS"
	echo "input_rounds=$INPUT_ROUNDS"
	echo "watch_rounds=$WATCH_ROUNDS"
	echo "watch_runtime=$WATCH_RUNTIME"
	echo "watch_hour_s=$WATCH_HOUR_S"
	echo "watch_hour_iops=$WATCH_HOUR_IOPS"
	echo "sections=$BENCH_SECTIONS"
	echo "vm=$BENCH_VM"
	echo "taskset=$BENCH_TASKSET"
	echo "cpu=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1)"
	echo "cores=$(nproc)"
	echo "mem_total=$(awk '/MemTotal/ {printf "%.1f GiB", $2 / 1048576}' /proc/meminfo)"
	echo "kernel=$(uname -r)"
	echo "virt=$(lscpu 2>/dev/null |
		sed -n 's/^Hypervisor vendor: */VM on /p')$(systemd-detect-virt -c 2>/dev/null |
		sed 's/^/, container: /')"
	echo "fio=$("$FIO" --version)"
	echo "cc=$(${CC:-cc} --version | head -n 1)"
	echo "liburing=$(dpkg-query -W -f '${Version}' liburing-dev 2>/dev/null || echo unknown)"
	echo "zlib=$(dpkg-query -W -f '${Version}' zlib1g 2>/dev/null || echo unknown)"
	echo "commit=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)$(
		git diff --quiet HEAD -- engine sys nvme trace analyze 2>/dev/null ||
		echo ' (engine/sys/nvme/trace/analyze modified)')"
	echo "date=$(date -u '+%Y-%m-%d %H:%M UTC')"
	echo "loadavg_start=$(cut -d' ' -f1-3 /proc/loadavg)"
	echo "busy_start=$(ps -eo pcpu=,comm= --sort=-pcpu |
		awk '$1 >= 10 {printf "%s%s (%s%%)", s, $2, $1; s=", "}')"
} >"$W/meta.env"
T_START=$(date +%s)

# timed PREFIX CMD...: CMD's stdout to PREFIX.out, stderr to PREFIX.err and
# "wall user sys maxrss_kb" of the whole process tree to PREFIX.time.  A
# failed command is run once more after 2 s (this checkout is shared: a test
# may flip kernel.io_uring_disabled for a moment); the first failure's stderr
# is kept as PREFIX.err1 and counted in $W/retries.
timed() {
	local p=$1
	shift
	/usr/bin/time -f '%e %U %S %M' -o "$p.time" "${PIN[@]+"${PIN[@]}"}" "$@" \
		>"$p.out" 2>"$p.err" && return 0
	mv "$p.err" "$p.err1"
	echo "$p: $(tail -n 1 "$p.err1")" >>"$W/retries"
	log "retrying $(basename "$p") once: $(tail -n 1 "$p.err1")"
	sleep 2
	/usr/bin/time -f '%e %U %S %M' -o "$p.time" "${PIN[@]+"${PIN[@]}"}" "$@" \
		>"$p.out" 2>"$p.err"
}

# round_order R WORD...: the words in this order, reversed in even rounds R:
# each round runs the compared configurations next to each other, and a
# fixed A-then-B order alone moves a ratio (by 10% under TCG).
round_order() {
	local r=$1 w out=
	shift
	if [ $((r % 2)) -eq 0 ]; then
		for w in "$@"; do out="$w${out:+ $out}"; done
	else
		out="$*"
	fi
	echo "$out"
}

# fio_engine CONFIG: the engine options of one compared configuration.
fio_engine() {
	case $1 in
	null) echo "--ioengine=null";;
	uring) echo "--ioengine=io_uring";;
	uring_log) echo "--ioengine=io_uring --write_lat_log=$SHM/latlog/l --log_avg_msec=0";;
	nv_off) echo "--ioengine=external:$NVENGINE_SO";;
	nv_on) echo "--ioengine=external:$NVENGINE_SO --nv_trace=$SHM/trace";;
	nv_off1) echo "--ioengine=external:$NVENGINE_SO --nv_iowq_workers=1";;
	nv_on1) echo "--ioengine=external:$NVENGINE_SO --nv_iowq_workers=1 --nv_trace=$SHM/trace";;
	*) die "unknown configuration $1";;
	esac
}

# The sections, one file each, named as in BENCH_SECTIONS.
# shellcheck source=bench-sections/files.sh
. "$TOP/tools/bench-sections/files.sh"
# shellcheck source=bench-sections/trace.sh
. "$TOP/tools/bench-sections/trace.sh"
# shellcheck source=bench-sections/analyze.sh
. "$TOP/tools/bench-sections/analyze.sh"
# shellcheck source=bench-sections/memory.sh
. "$TOP/tools/bench-sections/memory.sh"
# shellcheck source=bench-sections/cpu.sh
. "$TOP/tools/bench-sections/cpu.sh"
# shellcheck source=bench-sections/loop.sh
. "$TOP/tools/bench-sections/loop.sh"
# shellcheck source=bench-sections/vm.sh
. "$TOP/tools/bench-sections/vm.sh"
# shellcheck source=bench-sections/hosts.sh
. "$TOP/tools/bench-sections/hosts.sh"
# shellcheck source=bench-sections/sweep.sh
. "$TOP/tools/bench-sections/sweep.sh"
# shellcheck source=bench-sections/workers.sh
. "$TOP/tools/bench-sections/workers.sh"
# shellcheck source=bench-sections/disturb.sh
. "$TOP/tools/bench-sections/disturb.sh"
# shellcheck source=bench-sections/inputxml.sh
. "$TOP/tools/bench-sections/inputxml.sh"
# shellcheck source=bench-sections/inputtext.sh
. "$TOP/tools/bench-sections/inputtext.sh"
# shellcheck source=bench-sections/watch.sh
. "$TOP/tools/bench-sections/watch.sh"

for section in $all_sections; do	# in this order, vm last
	if [ "$section" != vm ] && want "$section"; then
		"section_$section"
	fi
done
if want vm; then
	if [ "$BENCH_VM" = 1 ]; then
		section_vm
	else
		mkdir -p "$W/vm" && echo off >"$W/vm/boot.rc"
	fi
fi
echo "elapsed_s=$(($(date +%s) - T_START))" >>"$W/meta.env"
echo "loadavg_end=$(cut -d' ' -f1-3 /proc/loadavg)" >>"$W/meta.env"
echo "busy_end=$(ps -eo pcpu=,comm= --sort=-pcpu |
	awk '$1 >= 10 {printf "%s%s (%s%%)", s, $2, $1; s=", "}')" >>"$W/meta.env"
echo "retries=$(cat "$W/retries" 2>/dev/null | wc -l)" >>"$W/meta.env"

log "report: $BENCH_MD, $BENCH_PNG"
mkdir -p "$(dirname "$BENCH_PNG")"
python3 "$TOP/tools/bench_report.py" "$W" "$BENCH_MD" "$BENCH_PNG"
