#!/usr/bin/env bash
# tools/bench.sh - `make bench`: paired benchmarks of nvengine against fio's
# own engines and per-IO logs; rewrites BENCHMARKS.md and bench/bench.png.
#
#   make bench                      full run (about 25 minutes on 2 cores)
#   BENCH_QUICK=1 make bench        every section, shorter (about 5 minutes)
#   BENCH_SMOKE=1 tools/bench.sh    seconds per section, no VM (make check)
#
# Sections (issue 8): 1 files: engine overhead on a tmpfs file; 2 vm:
# passthrough in the emulated-NVMe guest; 3 trace: trace size and writer
# throughput; 4 analyze: nvanalyze on a 100 M IO trace and a 50 MB json+
# file; 5 memory: resident memory of a traced job over time (issue 19:)
# 6 cpu: the CPU time tracing adds per IO on the job thread and per record
# on the trace writer thread; 7 loop: fio's clat at QD 1 on a direct-IO
# loop device, tracing on and off; 8 hosts: nvanalyze on many-host results
# (jobs/run --host layout), time and peak memory against hosts and IOs; 10
# sweep: nvanalyze on two runs of a 9-point iodepth sweep at once against
# the points one at a time (issue 27), time and peak memory; 11 workers: the
# full comparison with -o on N traces at -J 1 and -J 2 against `nvanalyze
# stat` on the same traces (issue 42), CPU per IO, wall, peak memory; and
# -J 1 -o with no gnuplot on PATH (scripts written, not rendered): the
# analysis' own CPU, the rendering's being the difference; 12
# disturb: whether tracing moves what it measures (issue 39): nv_nop 4 jobs
# x QD 64, the brief's jobs/randread.fio and jobs/instance/maxiops.fio with
# two busy loops beside them, traced against untraced twice (A/A): IOPS,
# fio's clat p99.99 and max, and the IO loop's wait for the trace writer.
# 13 inputtext: nvanalyze reading a 10,000-job fio normal output (issue
# 40), time and peak memory against a quarter of the jobs.
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
#                  disturb inputxml inputtext"
#                  (default all), e.g. BENCH_SECTIONS=cpu tools/bench.sh: that
#                  section alone; into an existing BENCH_MD it replaces only
#                  its own section and goal rows (bench_report.py),
#                  into a new file the others say "not run"
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
: "${BENCH_SECTIONS:=$all_sections inputtext}"
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
	ANA_IOS=1000000 ANA_REPEATS=1 JSON_MB=1
	MEM_SECS=4 MEM_EARLY=1 MEM_STEP=1 MEM_RATE=5000
	VM_ROUNDS=1 VM_RUNTIME=1
	CPU_ROUNDS=2 CPU_RUNTIME=1 LOOP_ROUNDS=1 LOOP_RUNTIME=1 CPU_PAIRS=2 CPU_PAIR_MS=200
	AB_ROUNDS=2 AB_RUNTIME=1 LOOP_AB_ROUNDS=1 LOOP_AB_RUNTIME=1
	HOSTS_CONFIGS="4:20000 8:20000 8:5000"
	SWEEP_IOS=2000 SWEEP_ROUNDS=2
	WORKERS_CONFIGS="4:20000" WORKERS_ROUNDS=2
	DISTURB_ROUNDS=${DISTURB_ROUNDS:-1} DISTURB_RUNTIME=1 \
		DISTURB_JOBS=${DISTURB_JOBS:-nop maxiops}
	XML_ROUNDS=1
	INPUT_JOBS=1000 INPUT_ROUNDS=1
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
	WORKERS_CONFIGS="4:1000000 64:62500" WORKERS_ROUNDS=3
	DISTURB_ROUNDS=${DISTURB_ROUNDS:-2} DISTURB_RUNTIME=2
	DISTURB_JOBS=${DISTURB_JOBS:-nop randread maxiops maxiops_thread}
	XML_ROUNDS=3
	INPUT_JOBS=10000 INPUT_ROUNDS=3
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
	WORKERS_CONFIGS="4:4000000 64:1000000 4:32000000" WORKERS_ROUNDS=5
	DISTURB_ROUNDS=${DISTURB_ROUNDS:-7} DISTURB_RUNTIME=4
	DISTURB_JOBS=${DISTURB_JOBS:-nop randread maxiops maxiops_thread}
	XML_ROUNDS=7
	INPUT_JOBS=10000 INPUT_ROUNDS=5
fi
: "${BENCH_VM:=1}"
QDS="1 32"
SWEEP_QDS="1 2 4 8 16 32 64 128 256"	# section 10's points (jobs/run --sweep iodepth=1..256)
AB_WINDOW=1000	# IOs per nv_trace_ab window (section 6)

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

# fio_job ENGINE-CONFIG: the engine options of one compared configuration.
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

# --- 1. engine overhead on a tmpfs file --------------------------------------
section_files() {
	local d=$W/files r q c order
	mkdir -p "$d" "$SHM/latlog" "$SHM/trace"
	log "files: ${FILE_MB} MiB tmpfs file, $ROUNDS rounds of ${RUNTIME}s runs"
	dd if=/dev/zero of="$SHM/f" bs=1M count="$FILE_MB" status=none
	# warm-up (not reported): the first runs after the file is created are slow
	"$FIO" --ioengine=io_uring --name=warm --filename="$SHM/f" --size="${FILE_MB}M" \
		--rw=randread --bs=4k --iodepth=32 --time_based --runtime=1 --output-format=json \
		>/dev/null 2>&1 || true
	for r in $(seq 1 "$ROUNDS"); do
		# nv_off1/nv_on1: the same with one io-wq worker (nv_iowq_workers=1):
		# how many the kernel starts otherwise (1-4) is a race that moves
		# IOPS by 20%, tracing or not
		order="null uring uring_log nv_off nv_on nv_off1 nv_on1"
		[ $((r % 2)) -eq 0 ] && order="nv_on1 nv_off1 nv_on nv_off uring_log uring null"
		for q in $QDS; do
			for c in $order; do
				# the same job stopped after one IO: fio's fixed start/stop
				# CPU cost, subtracted from the timed run's CPU
				timed "$d/s$r-$c-qd$q" "$FIO" $(fio_engine "$c") --name=bench \
					--filename="$SHM/f" --size="${FILE_MB}M" --rw=randread \
					--bs=4k --iodepth="$q" --number_ios=1 \
					--output-format=json ||
					die "files: $c qd$q startup run failed:" \
						"$(tail -n 3 "$d/s$r-$c-qd$q.err")"
				timed "$d/r$r-$c-qd$q" "$FIO" $(fio_engine "$c") --name=bench \
					--filename="$SHM/f" --size="${FILE_MB}M" --rw=randread \
					--bs=4k --iodepth="$q" --time_based --runtime="$RUNTIME" \
					--output-format=json ||
					die "files: $c qd$q failed:" \
						"$(tail -n 3 "$d/r$r-$c-qd$q.err")"
				rm -f "$SHM"/latlog/* "$SHM"/trace/*
			done
		done
	done
}

# --- 3. trace size and writer throughput --------------------------------------
# One fio run per target, pattern and zlib level through nvengine with
# nv_trace; the level-1 run also writes fio's own per-IO logs (write_lat_log,
# log_avg_msec=0: lat, clat and slat), so both record exactly the same IOs.
# A third run stores fio's logs compressed (log_compression +
# log_store_compressed).  The large target is a sparse 1 TiB tmpfs file.
section_trace() {
	local d=$W/trace tgt size pat rw bs n lvl base
	mkdir -p "$d"
	log "trace: sizes of $TRACE_IOS-IO traces and fio logs; bench_trace $BT_RECORDS records"
	[ -f "$SHM/f" ] || dd if=/dev/zero of="$SHM/f" bs=1M count="$FILE_MB" status=none
	truncate -s 1T "$SHM/big"
	for tgt in 1g big; do
		if [ $tgt = 1g ]; then size=${FILE_MB}M; else size=1T; fi
		for pat in rand4k seq128k; do
			if [ $pat = rand4k ]; then rw=randread bs=4k n=$TRACE_IOS
			else rw=read bs=128k n=$((TRACE_IOS / 4)); fi
			for lvl in 1 6 fz; do
				base=$d/$tgt-$pat-$lvl
				mkdir -p "$base.d"
				local extra=(--nv_trace="$base.d" --nv_trace_level="${lvl/fz/1}")
				case $lvl in
				1) extra+=(--write_lat_log="$base.d/fio" --log_avg_msec=0);;
				fz) extra+=(--write_lat_log="$base.d/fio" --log_avg_msec=0
					--log_compression=4M --log_store_compressed=1);;
				esac
				"$FIO" --ioengine="external:$NVENGINE_SO" --name=t \
					--filename="$SHM/$( [ $tgt = 1g ] && echo f || echo big)" \
					--size="$size" --rw="$rw" --bs="$bs" --iodepth=32 \
					--io_size="$((n * ${bs%k}))k" --norandommap \
					--output-format=json "${extra[@]}" \
					>"$base.json" 2>"$base.err" ||
					die "trace: $tgt $pat level $lvl failed:" \
						"$(tail -n 3 "$base.err")"
				(cd "$base.d" && for f in *; do
					echo "$f $(stat -c %s "$f")"
				done) >"$base.sizes"
				rm -rf "$base.d"
			done
		done
	done
	rm -f "$SHM/big"

	local p z i
	for i in $(seq 1 "$BT_REPEATS"); do
		for p in randread seqwrite; do
			# z1, z6: zstd levels 1 and 6; g1: zlib level 1 (traces before format 1.2)
			for z in z1 z6 g1; do
				timed "$d/bt-$p-$z-$i" "$BENCH_TRACE" -n "$BT_RECORDS" \
					-z "${z#?}" \
					-c "$( [ "${z%?}" = g ] && echo zlib || echo zstd)" \
					-p "$p" -o "$d/bt.nvt" ||
					die "bench_trace -p $p $z failed:" \
						"$(cat "$d/bt-$p-$z-$i.err")"
			done
		done
	done
	rm -f "$d/bt.nvt"
}

# --- 4. analyzer --------------------------------------------------------------
section_analyze() {
	local d=$W/analyze need avail i
	mkdir -p "$d"
	# ~5 bytes per IO; ask for twice that plus 1 GiB of slack
	need=$((ANA_IOS * 10 / 1024 + 1048576))
	avail=$(df -Pk "$d" | awk 'NR == 2 {print $4}')
	[ "$avail" -ge "$need" ] ||
		die "analyze: $d has $((avail / 1024)) MiB free," \
			"a $ANA_IOS-IO trace needs about $((need / 1024)) MiB (set BENCH_OUT)"
	log "analyze: generating a $ANA_IOS-IO trace (tests/unit/gen_trace, randread, QD 32)"
	timed "$d/gen" "$GEN_TRACE" -p randread -q 32 -n "$ANA_IOS" "$d/big.nvt" ||
		die "gen_trace failed: $(cat "$d/gen.err")"
	stat -c %s "$d/big.nvt" >"$d/big.size"
	cat "$d/big.nvt" >/dev/null	# the same (cached) start for every repeat
	for i in $(seq 1 "$ANA_REPEATS"); do
		log "analyze: nvanalyze stat, repeat $i"
		timed "$d/stat-$i" "$NVANALYZE" stat "$d/big.nvt" ||
			die "nvanalyze stat failed: $(cat "$d/stat-$i.err")"
	done
	rm -f "$d/big.nvt"

	log "analyze: ${JSON_MB} MB json+ file"
	mkdir -p "$SHM/jp"
	"$FIO" --ioengine="external:$NVENGINE_SO" --name=jp --directory="$SHM/jp" --size=16M \
		--rw=randrw --bs=4k --iodepth=8 --numjobs=4 --time_based --runtime=1 \
		--output-format=json+ >"$d/seed.json" 2>"$d/seed.err" ||
		die "json+ seed run failed: $(tail -n 3 "$d/seed.err")"
	rm -rf "$SHM/jp"
	python3 "$TOP/tools/bench_report.py" --grow-json "$d/seed.json" "$JSON_MB" \
		"$d/big.json" >"$d/big.json.info"
	cat "$d/big.json" >/dev/null
	for i in $(seq 1 "$ANA_REPEATS"); do
		timed "$d/json-$i" "$NVANALYZE" -f csv "$d/big.json" ||
			die "nvanalyze on json+ failed: $(tail -n 3 "$d/json-$i.err")"
	done
	stat -c %s "$d/big.json" >"$d/big.json.size"
	rm -f "$d/big.json"
}

# --- 5. resident memory over time --------------------------------------------
# job_pid FIO_PID: the job process fio forked (empty while there is none).
job_pid() {
	pgrep -P "$1" -x fio | head -n 1 || true
}

rss_kb() {
	[ -n "$1" ] && awk '/^VmRSS:/ {print $2}' "/proc/$1/status" 2>/dev/null || true
}

# nvengine traced at full speed, and beside it (same time, same file) fio's
# io_uring with its per-IO log, rate-limited so its in-memory log stays small.
section_memory() {
	local d=$W/memory a b ja= jb= t0 now ra rb
	mkdir -p "$d/trace"
	[ -f "$SHM/f" ] || dd if=/dev/zero of="$SHM/f" bs=1M count="$FILE_MB" status=none
	log "memory: ${MEM_SECS}s traced nvengine job and a fio write_lat_log job side by side"
	"$FIO" --ioengine="external:$NVENGINE_SO" --nv_trace="$d/trace" --name=mem \
		--filename="$SHM/f" --size="${FILE_MB}M" --rw=randread --bs=4k \
		--iodepth=32 --time_based --runtime="$MEM_SECS" --output-format=json \
		>"$d/nv.json" 2>"$d/nv.err" &
	a=$!
	"$FIO" --ioengine=io_uring --write_lat_log="$d/fiolog" --log_avg_msec=0 \
		--rate_iops="$MEM_RATE" --name=mem --filename="$SHM/f" --size="${FILE_MB}M" \
		--rw=randread --bs=4k --iodepth=32 --time_based --runtime="$MEM_SECS" \
		--output-format=json >"$d/fio.json" 2>"$d/fio.err" &
	b=$!
	t0=$(date +%s%N)
	echo "t_ms nvengine_kb fio_latlog_kb" >"$d/rss.tsv"
	while kill -0 "$a" 2>/dev/null || kill -0 "$b" 2>/dev/null; do
		[ -n "$ja" ] || ja=$(job_pid "$a")
		[ -n "$jb" ] || jb=$(job_pid "$b")
		ra=$(rss_kb "$ja") rb=$(rss_kb "$jb")
		now=$(date +%s%N)
		echo "$(((now - t0) / 1000000)) ${ra:--} ${rb:--}" >>"$d/rss.tsv"
		sleep "$MEM_STEP"
	done
	wait "$a" || die "memory: nvengine job failed: $(tail -n 3 "$d/nv.err")"
	wait "$b" || die "memory: fio job failed: $(tail -n 3 "$d/fio.err")"
	du -sb "$d/trace" | cut -f1 >"$d/size-trace"
	cat "$d"/fiolog* | wc -c >"$d/size-fiolog"
	rm -rf "$d/trace" "$d"/fiolog*
}

# --- 6. tracing's CPU time per IO ---------------------------------------------
# The job thread, within each run: nv_nop=1 (below) with nv_trace_ab, which
# turns tracing on and off every AB_WINDOW completions (about a millisecond)
# and sums the job thread's CLOCK_THREAD_CPUTIME_ID per kind of window into
# the trace footer (ab.on.cpu_ns, ab.on.ios, ab.off.*): the two kinds of
# window run at the same vCPU speed, which separate jobs do not; AB_ROUNDS
# runs of AB_RUNTIME seconds make the median and range.
# The job thread, whole jobs (a reference: it also sees the writer thread's
# effect on the IO thread's core): nvengine with nv_nop=1 (every IO an
# IORING_OP_NOP through the same ring and hooks, so the job thread's time is
# the engine's and fio's own, without a device's variance), 4k randread at
# QD 32, tracing off and on as CPU_PAIRS pairs of stonewalled jobs of
# CPU_PAIR_MS each in one fio process, in the order A B B A A B ...: this
# machine's vCPUs change speed by a fifth from one tenth of a second to the
# next, so a pair must be close in time, and many pairs make the median.
# The job thread's CPU time comes from fio's usr_cpu/sys_cpu (RUSAGE_THREAD
# of the job thread).
# The writer: the tmpfs file (one io-wq worker on both sides; real
# latencies, so the writer compresses a real trace), CPU_ROUNDS rounds of
# separate runs, the writer thread's CPU time from its own clock in the
# trace footer (writer.cpu_ns, printed by bench_trace -i).
nop_pairs_job() {
	local k a b c
	printf '[global]\nioengine=external:%s\nfilename=%s\nsize=%sM\nrw=randread\nbs=4k\n' \
		"$NVENGINE_SO" "$SHM/f" "$FILE_MB"
	printf 'iodepth=32\ntime_based\nruntime=%sms\nnv_nop=1\nstonewall\n' "$CPU_PAIR_MS"
	for k in $(seq 1 "$CPU_PAIRS"); do
		a=off b=on
		if [ $((k % 2)) -eq 0 ]; then a=on b=off; fi
		for c in $a $b; do
			printf '[nop_%s_%s]\n' "$c" "$k"
			if [ "$c" = on ]; then printf 'nv_trace=%s\n' "$SHM/trace"; fi
		done
	done
}

section_cpu() {
	local d=$W/cpu r c order
	mkdir -p "$d" "$SHM/trace"
	[ -f "$SHM/f" ] || dd if=/dev/zero of="$SHM/f" bs=1M count="$FILE_MB" status=none
	log "cpu: $CPU_PAIRS pairs of ${CPU_PAIR_MS} ms nv_nop jobs," \
		"tracing off and on, in one fio"
	nop_pairs_job >"$d/nop_pairs.fio"
	timed "$d/nop_pairs" "$FIO" --output-format=json "$d/nop_pairs.fio" ||
		die "cpu: the nv_nop pairs failed: $(tail -n 3 "$d/nop_pairs.err")"
	rm -f "$SHM"/trace/*
	log "cpu: $AB_ROUNDS runs of ${AB_RUNTIME}s nv_nop jobs," \
		"tracing on and off every $AB_WINDOW IOs"
	for r in $(seq 1 "$AB_ROUNDS"); do
		timed "$d/ab$r" "$FIO" $(fio_engine nv_on) --name=bench --filename="$SHM/f" \
			--size="${FILE_MB}M" --rw=randread --bs=4k --iodepth=32 --time_based \
			--runtime="$AB_RUNTIME" --nv_nop=1 --nv_trace_ab="$AB_WINDOW" \
			--output-format=json ||
			die "cpu: the nv_trace_ab run $r failed: $(tail -n 3 "$d/ab$r.err")"
		"$BENCH_TRACE" -i "$SHM"/trace/*.nvt >"$d/ab$r.info" ||
			die "cpu: cannot read the trace of nv_trace_ab run $r"
		rm -f "$SHM"/trace/*
	done
	log "cpu: $CPU_ROUNDS rounds of ${CPU_RUNTIME}s runs on the tmpfs file, tracing off and on"
	for r in $(seq 1 "$CPU_ROUNDS"); do
		order="nv_off1 nv_on1"
		[ $((r % 2)) -eq 0 ] && order="nv_on1 nv_off1"
		for c in $order; do
			timed "$d/r$r-$c" "$FIO" $(fio_engine "$c") --name=bench \
				--filename="$SHM/f" --size="${FILE_MB}M" --rw=randread --bs=4k \
				--iodepth=32 --time_based --runtime="$CPU_RUNTIME" \
				--output-format=json ||
				die "cpu: $c failed: $(tail -n 3 "$d/r$r-$c.err")"
			if [ "$c" = nv_on1 ]; then
				"$BENCH_TRACE" -i "$SHM"/trace/*.nvt >"$d/r$r-$c.info" ||
					die "cpu: cannot read the trace of round $r"
			fi
			rm -f "$SHM"/trace/*
		done
	done
}

# --- 7. QD 1 latency on a direct-IO loop device ---------------------------------
# A sparse file on the checkout's file system behind a loop device with
# direct IO (losetup --direct-io=on; needs root), read with direct=1 at QD 1,
# nvengine with tracing off and on, alternating: fio's clat mean and p99.
# Then LOOP_AB_ROUNDS runs with nv_trace_ab=AB_WINDOW and fio's per-IO clat
# log (write_lat_log, log_avg_msec=0): at QD 1 every reap completes one IO,
# so IO i of the log (1-based, completion order) ran traced when i is 1 or
# (i - 2) / AB_WINDOW is even (the first reap starts the first window), and
# fio's own clat compares between windows tens of milliseconds apart.  Each
# is followed by an untraced run with the same log, split into the same
# windows (A/A): how far the method moves without any difference.
section_loop() {
	local d=$W/loop r c order
	mkdir -p "$d" "$SHM/trace"
	truncate -s "${FILE_MB}M" "$d/disk.img"
	if ! LOOPDEV=$(losetup --direct-io=on --show -f "$d/disk.img" 2>"$d/losetup.err"); then
		LOOPDEV=
		echo "losetup --direct-io=on failed: $(tail -n 1 "$d/losetup.err")" >"$d/skip"
		log "loop: skipped: $(cat "$d/skip")"
		rm -f "$d/disk.img"
		return 0
	fi
	log "loop: $LOOPDEV, $LOOP_ROUNDS rounds of ${LOOP_RUNTIME}s runs at QD 1," \
		"tracing off and on"
	for r in $(seq 1 "$LOOP_ROUNDS"); do
		order="nv_off nv_on"
		[ $((r % 2)) -eq 0 ] && order="nv_on nv_off"
		for c in $order; do
			timed "$d/r$r-$c" "$FIO" $(fio_engine "$c") --name=bench \
				--filename="$LOOPDEV" --direct=1 --rw=randread --bs=4k \
				--iodepth=1 --time_based --runtime="$LOOP_RUNTIME" \
				--output-format=json ||
				die "loop: $c failed: $(tail -n 3 "$d/r$r-$c.err")"
			rm -f "$SHM"/trace/*
		done
	done
	log "loop: $LOOP_AB_ROUNDS runs of ${LOOP_AB_RUNTIME}s at QD 1, tracing on and off every" \
		"$AB_WINDOW IOs, each beside an untraced run (A/A)"
	for r in $(seq 1 "$LOOP_AB_ROUNDS"); do
		for c in ab aa; do
			if [ $c = ab ]; then
				set -- $(fio_engine nv_on) --nv_trace_ab="$AB_WINDOW"
			else
				set -- $(fio_engine nv_off)
			fi
			timed "$d/$c$r" "$FIO" "$@" --name=bench --filename="$LOOPDEV" --direct=1 \
				--rw=randread --bs=4k --iodepth=1 --time_based \
				--runtime="$LOOP_AB_RUNTIME" --write_lat_log="$d/$c$r" \
				--log_avg_msec=0 --output-format=json ||
				die "loop: the $c run $r failed: $(tail -n 3 "$d/$c$r.err")"
			rm -f "$SHM"/trace/* "$d/$c${r}_lat.1.log" "$d/$c${r}_slat.1.log"
			gzip -f "$d/$c${r}_clat.1.log"
		done
	done
	losetup -d "$LOOPDEV"
	LOOPDEV=
	rm -f "$d/disk.img"
}

# --- 2. passthrough in the emulated-NVMe guest -------------------------------
section_vm() {
	local d=$W/vm rc=0
	mkdir -p "$d/cases"
	cp "$TOP/tools/bench-vm/50-bench-passthru.sh" "$d/cases/"
	printf 'ROUNDS=%s\nRUNTIME=%s\nQDS="%s"\n' "$VM_ROUNDS" "$VM_RUNTIME" "$QDS" \
		>"$d/bench-vm.conf"
	local extra=(--extra "$d/bench-vm.conf")
	if [ -n "${BENCH_VM_ALT_SO:-}" ]; then
		# a second engine build, run beside the first (tools/bench-vm)
		cp "$BENCH_VM_ALT_SO" "$d/libnvengine-alt.so"
		extra+=(--extra "$d/libnvengine-alt.so")
	fi
	log "vm: booting the emulated-NVMe guest ($VM_ROUNDS rounds of ${VM_RUNTIME}s runs)"
	TESTTMP=$d NVENGINE_SO=$NVENGINE_SO NVANALYZE=$NVANALYZE bash "$TOP/tests/vm/boot.sh" \
		--cases "$d/cases" --out "$d/results" --work "$d/work" "${extra[@]}" \
		--timeout 1800 >"$d/boot.out" 2>&1 || rc=$?
	echo "$rc" >"$d/boot.rc"
	rm -rf "$d/work"
	case $rc in
	0) ;;
	77) log "vm: skipped: $(sed -n 's/^boot: skip: //p' "$d/boot.out" | head -n 1)";;
	*) log "vm: boot failed (status $rc), see $d/boot.out";;
	esac
}

# --- 8. many hosts: nvanalyze on jobs/run --host results -----------------------
# hosts_layout DIR HOSTS IOS: a many-host results directory as jobs/run
# --host writes it: DIR/suite.json (the client's JSON, one randread entry
# per host with IOS IOs) and DIR/HOST/traces/suite/randread.1.nvt, each a
# hard link of one IOS-IO trace (nvanalyze decodes each host's file on its
# own; the page cache holds one copy, so disk reads are not measured).
hosts_layout() {
	local dir=$1 n=$2 ios=$3 h
	mkdir -p "$dir"
	[ -f "$W/hosts/t$ios.nvt" ] ||
		"$GEN_TRACE" -p randread -q 32 -n "$ios" "$W/hosts/t$ios.nvt" >/dev/null ||
		die "hosts: gen_trace failed"
	awk -v n="$n" -v ios="$ios" 'BEGIN {
		printf "{\"fio version\": \"fio-3.33\", \"client_stats\": ["
		for (h = 1; h <= n; h++)
			printf "%s{\"jobname\": \"randread\", \"groupid\": 0, \"error\": 0, " \
				"\"job options\": {\"rw\": \"randread\", \"bs\": \"4k\", " \
				"\"nv_trace\": \"/tmp/nvengine-run.x/traces/suite\"}, \"read\": " \
				"{\"io_bytes\": %d, \"total_ios\": %d, " \
				"\"iops\": %d, \"bw\": %d, " \
				"\"runtime\": 1000}, \"hostname\": \"host%03d\"}",
				(h > 1 ? ", " : ""), ios * 4096, ios, ios + h, ios * 4, h
		print "]}"
	}' >"$dir/suite.json"
	for h in $(seq -f 'host%03g' 1 "$n"); do
		mkdir -p "$dir/$h/traces/suite"
		ln -f "$W/hosts/t$ios.nvt" "$dir/$h/traces/suite/randread.1.nvt"
	done
}

# Per configuration HOSTS:IOS: two fleets compared (nvanalyze A B, each
# host a repeat) and, up to 64 hosts, the hosts of one fleet side by side
# (nvanalyze A); wall, CPU and peak RSS of each.
section_hosts() {
	local d=$W/hosts c n ios
	mkdir -p "$d"
	for c in $HOSTS_CONFIGS; do
		n=${c%%:*} ios=${c#*:}
		log "hosts: $n hosts x $ios IOs: two fleets, and the hosts side by side"
		hosts_layout "$d/A-$n-$ios" "$n" "$ios"
		hosts_layout "$d/B-$n-$ios" "$n" "$ios"
		cat "$d/t$ios.nvt" >/dev/null
		timed "$d/fleets-$n-$ios" "$NVANALYZE" -f json "$d/A-$n-$ios" "$d/B-$n-$ios" ||
			die "hosts: nvanalyze A B failed: $(tail -n 3 "$d/fleets-$n-$ios.err")"
		if [ "$n" -le 64 ]; then
			timed "$d/sides-$n-$ios" "$NVANALYZE" -f json "$d/A-$n-$ios" ||
				die "hosts: nvanalyze A failed:" \
					"$(tail -n 3 "$d/sides-$n-$ios.err")"
		fi
		grep -o "\"clat_p50_ns_source\": *\"exact\"" "$d/fleets-$n-$ios.out" | wc -l \
			>"$d/fleets-$n-$ios.exact"
		rm -rf "$d/A-$n-$ios" "$d/B-$n-$ios"
	done
	rm -f "$d"/t*.nvt
}

# --- 10. a sweep's analysis: all points at once vs one at a time --------------
# The inputs, made once: two runs (A, B) of a 9-point iodepth sweep, as
# jobs/run --sweep iodepth=1..256 writes them (per point FILE@iodepth=Q.json,
# json+, and its trace in traces/FILE/), 4k randread of the tmpfs file through
# nvengine, traced, SWEEP_IOS IOs a point and run.  Then SWEEP_ROUNDS rounds,
# the order reversed every other round, of "whole": one `nvanalyze A B` on
# both runs' results directories, and "points": nine calls `nvanalyze
# A/FILE@iodepth=Q.json B/FILE@iodepth=Q.json`, one a point, each finding its
# two traces from its JSON as the whole call does.  Each point as its own
# JSON, not `nvanalyze -j 'sweep@iodepth=Q' A B`: with -j each of the nine
# calls would still read all 18 JSON files, work that analysing the points
# one at a time does not have.  The report takes per round whole / the sum of
# the nine calls, and the peak RSS of every call.
section_sweep() {
	local d=$W/sweep r q run order n
	mkdir -p "$d"
	[ -f "$SHM/f" ] || dd if=/dev/zero of="$SHM/f" bs=1M count="$FILE_MB" status=none
	# io_size with norandommap: SWEEP_IOS IOs whatever the file's size
	printf '[global]\nrw=randread\nbs=4k\nsize=%sM\nio_size=%sk\nnorandommap\nrandrepeat=0\n' \
		"$FILE_MB" "$((SWEEP_IOS * 4))" >"$d/sweep.fio"
	printf 'nv_trace=traces\n[sweep]\niodepth=1\n' >>"$d/sweep.fio"
	for run in A B; do
		log "sweep: run $run of the iodepth sweep ($SWEEP_QDS)," \
			"$SWEEP_IOS traced IOs a point"
		timed "$d/gen-$run" env NVDEV="$SHM/f" NVDIRECT=0 NVENGINE_SO="$NVENGINE_SO" \
			FIO="$FIO" "$TOP/jobs/run" -o "$d/$run" \
			--sweep "iodepth=$(echo $SWEEP_QDS | tr ' ' ,)" "$d/sweep.fio" ||
			die "sweep: jobs/run of run $run failed: $(tail -n 3 "$d/gen-$run.err")"
		for q in $SWEEP_QDS; do
			n=$(ls "$d/$run"/*@iodepth="$q".json 2>/dev/null | wc -l)
			[ "$n" = 1 ] || die "sweep: run $run has $n JSON files of iodepth $q"
		done
	done
	du -sb "$d"/A/traces "$d"/B/traces | awk '{s += $1} END {print s}' >"$d/traces.bytes"
	# the same (cached) start for every call
	cat "$d"/A/traces/*/* "$d"/B/traces/*/* >/dev/null
	log "sweep: $SWEEP_ROUNDS rounds of nvanalyze A B against the 9 points one at a time"
	date -u '+%Y-%m-%d %H:%M UTC' >"$d/date"
	cut -d' ' -f1-3 /proc/loadavg >"$d/loadavg-start"
	for r in $(seq 1 "$SWEEP_ROUNDS"); do
		order="whole $SWEEP_QDS"
		[ $((r % 2)) -eq 0 ] &&
			order="$(echo $SWEEP_QDS | tr ' ' '\n' | tac | tr '\n' ' ')whole"
		for q in $order; do
			if [ "$q" = whole ]; then
				timed "$d/r$r-whole" "$NVANALYZE" "$d/A" "$d/B" ||
					die "sweep: nvanalyze A B failed:" \
						"$(tail -n 3 "$d/r$r-whole.err")"
			else
				timed "$d/r$r-qd$q" "$NVANALYZE" "$d"/A/*@iodepth="$q".json \
					"$d"/B/*@iodepth="$q".json ||
					die "sweep: nvanalyze on iodepth $q failed:" \
						"$(tail -n 3 "$d/r$r-qd$q.err")"
			fi
		done
	done
	cut -d' ' -f1-3 /proc/loadavg >"$d/loadavg-end"
	rm -rf "$d"/A/traces "$d"/B/traces
}

# --- 11. the full comparison on every core: -J 1, -J 2, stat -----------------
# Per configuration N:IOS (WORKERS_CONFIGS): N traces of IOS IOs in a
# many-host layout (hosts_layout: one job per host, so the trace join has N
# independent jobs), then WORKERS_ROUNDS rounds, the order reversed every
# other round, of `nvanalyze -J 1 -o DIR A`, `nvanalyze -J 2 -o DIR A` (the
# tables, trace sections, findings and figures) and `nvanalyze stat` on the
# N traces (decode and exact percentiles: the reference); also -J 1 without
# gnuplot (the analysis alone) and with `--figures svg` (no PNG).  Full mode's
# 4:32000000 against 4:4000000: whether peak memory stays flat from 16 M to
# 128 M IOs (flat_rows in tools/benchreport/analyzer.py).
section_workers() {
	local d=$W/workers c n ios r k order
	mkdir -p "$d"
	for c in $WORKERS_CONFIGS; do
		n=${c%%:*} ios=${c#*:}
		log "workers: $n traces x $ios IOs: -J 1, -J 2 and stat, $WORKERS_ROUNDS rounds"
		mkdir -p "$W/hosts"
		hosts_layout "$d/A-$n-$ios" "$n" "$ios"
		cat "$W/hosts/t$ios.nvt" >/dev/null
		for r in $(seq 1 "$WORKERS_ROUNDS"); do
			order="j1 j2 stat j1s j1v"
			[ $((r % 2)) -eq 0 ] && order="j1v j1s stat j2 j1"
			for k in $order; do
				rm -rf "$d/out"
				case $k in
				stat) timed "$d/$n-$ios-r$r-$k" "$NVANALYZE" stat \
					"$d/A-$n-$ios"/*/traces/suite/randread.1.nvt;;
				j1s) timed "$d/$n-$ios-r$r-$k" env PATH=/nonexistent \
					"$NVANALYZE" -J 1 -o "$d/out" "$d/A-$n-$ios";;
				j1v) timed "$d/$n-$ios-r$r-$k" "$NVANALYZE" -J 1 --figures svg \
					-o "$d/out" "$d/A-$n-$ios";;
				*) timed "$d/$n-$ios-r$r-$k" "$NVANALYZE" -J "${k#j}" -o "$d/out" \
					"$d/A-$n-$ios";;
				esac || die "workers: $k on $n traces failed:" \
					"$(tail -n 3 "$d/$n-$ios-r$r-$k.err")"
			done
		done
		grep -c "(exact)" "$d/$n-$ios-r1-j1.out" >"$d/$n-$ios.exact" || true
		rm -rf "$d/A-$n-$ios" "$d/out" "$W/hosts/t$ios.nvt"
	done
}

# --- 12. whether tracing moves what it measures --------------------------------
# Per job, DISTURB_ROUNDS rounds of three runs, the order reversed every
# other round: untraced (off), traced (on), untraced again (off2: the A/A
# pair that says how far two untraced runs differ).  nop: nv_nop=1, 4 jobs x
# QD 64 (the IO threads CPU-bound; nothing else running).  randread: the
# brief's `fio --ioengine=external:./libnvengine.so jobs/randread.fio` as it
# is (direct=1, 20 s, four 256 MiB files laid out in $W/disturb/rr on the
# checkout's file system: direct IO on this machine's disk), with two busy
# loops beside it; untraced runs a copy of the file less its nv_trace line.
# maxiops: jobs/instance/maxiops.fio (8 jobs x QD 256) on the tmpfs file
# (NVDIRECT=0: page-cache reads, CPU-bound), with two busy loops;
# maxiops_thread: the same in fio's thread mode (`thread` in [global]).  Every
# traced run's footers: `nvanalyze stat` of each trace into ROUND-on.stat.
disturb_busy=
disturb_busy_start() {
	local i
	for i in 1 2; do
		sh -c 'while :; do :; done' &
		disturb_busy="$disturb_busy $!"
	done
}
disturb_busy_stop() {
	local p
	for p in $disturb_busy; do kill "$p" 2>/dev/null || true; done
	disturb_busy=
}

# disturb_run JOB CFG PREFIX: one run of JOB (nop|randread|maxiops|maxiops_thread) as CFG
# (off|on|off2).
disturb_run() {
	local job=$1 cfg=$2 p=$3 d=$W/disturb tr=$SHM/dtrace f
	rm -rf "$tr" "$d/rr/traces"
	mkdir -p "$tr"
	case $job in
	nop)
		set -- --name=nop --filename="$SHM/f" --size="${FILE_MB}M" --rw=randread --bs=4k \
			--iodepth=64 --numjobs=4 --group_reporting --time_based \
			--runtime="$DISTURB_RUNTIME" --nv_nop=1
		[ "$cfg" = on ] && set -- "$@" --nv_trace="$tr"
		timed "$p" "$FIO" --ioengine="external:$NVENGINE_SO" --output-format=json "$@";;
	randread)
		f=$TOP/jobs/randread.fio
		[ "$cfg" = on ] || f=$d/randread-untraced.fio
		(cd "$d/rr" && timed "$p" "$FIO" --ioengine="external:$NVENGINE_SO" \
			--output-format=json "$f")
		tr=$d/rr/traces;;
	maxiops|maxiops_thread)
		f=$TOP/jobs/instance/maxiops.fio
		[ "$cfg" = on ] || f=$d/maxiops-untraced.fio
		[ "$job" = maxiops ] || f=$d/$(basename "$f" .fio)-thread.fio
		NVDEV=$SHM/f NVDIRECT=0 NVTRACE=$tr RUNTIME=$DISTURB_RUNTIME \
			NVENGINE_SO=$NVENGINE_SO timed "$p" "$FIO" --output-format=json "$f";;
	esac || die "disturb: $job $cfg failed: $(tail -n 3 "$p.err")"
	if [ "$cfg" = on ]; then
		for f in "$tr"/*.nvt; do "$NVANALYZE" stat "$f"; done >"$p.stat" 2>&1 ||
			die "disturb: cannot read the traces of $p"
	fi
	rm -rf "$tr"
}

section_disturb() {
	local d=$W/disturb job r c order
	mkdir -p "$d/rr"
	[ -f "$SHM/f" ] || dd if=/dev/zero of="$SHM/f" bs=1M count="$FILE_MB" status=none
	grep -v '^nv_trace=' "$TOP/jobs/randread.fio" >"$d/randread-untraced.fio"
	grep -v '^nv_trace=' "$TOP/jobs/instance/maxiops.fio" >"$d/maxiops-untraced.fio"
	# maxiops_thread: the same two files with fio's thread mode (every job a
	# thread of one process) in their [global] section
	sed 's/^\[global\]$/&\nthread/' "$TOP/jobs/instance/maxiops.fio" >"$d/maxiops-thread.fio"
	sed 's/^\[global\]$/&\nthread/' "$d/maxiops-untraced.fio" >"$d/maxiops-untraced-thread.fio"
	for job in $DISTURB_JOBS; do
		log "disturb: $job, $DISTURB_ROUNDS rounds of untraced, traced, untraced"
		[ "$job" = nop ] || disturb_busy_start
		for r in $(seq 1 "$DISTURB_ROUNDS"); do
			order="off on off2"
			[ $((r % 2)) -eq 0 ] && order="off2 on off"
			for c in $order; do
				disturb_run "$job" "$c" "$d/$job-r$r-$c"
			done
		done
		disturb_busy_stop
	done
	rm -rf "$d/rr"
}

# --- 13. diskspd XML reports ---------------------------------------------------
# Three reports (tests/py/gen_diskspd_xml.py, diskspd's XmlResultParser layout):
# the real 6 KB one of tests/fixtures/diskspd (the base), about 1 MB (16
# threads x 4 targets x 42 Iops buckets) and 4 MB (64 threads); each read by
# `nvanalyze -f csv`, XML_ROUNDS rounds, the three alternating in each round.
section_inputxml() {
	local d=$W/inputxml i s
	mkdir -p "$d"
	cp "$TOP/tests/fixtures/diskspd/PerfKitBenchmarker__diskspd_result.xml" "$d/base.xml"
	python3 "$TOP/tests/py/gen_diskspd_xml.py" --threads 16 --targets 4 \
		--buckets 42 >"$d/small.xml"
	python3 "$TOP/tests/py/gen_diskspd_xml.py" --threads 64 --targets 4 \
		--buckets 42 >"$d/large.xml"
	for s in base small large; do
		stat -c %s "$d/$s.xml" >"$d/$s.size"
		cat "$d/$s.xml" >/dev/null
	done
	for i in $(seq 1 "$XML_ROUNDS"); do
		log "inputxml: round $i of $XML_ROUNDS"
		for s in base small large; do
			timed "$d/$s-$i" "$NVANALYZE" -f csv "$d/$s.xml" ||
				die "nvanalyze on $s.xml failed: $(tail -n 3 "$d/$s-$i.err")"
		done
	done
	rm -f "$d"/*.xml
}

# --- 14. reading fio's normal output: 10,000 jobs ---------------------------
# A real fio normal output (ioengine=null: randrw 4k and read 128k, a 17-level
# percentile_list), its job entries repeated with distinct names and pids
# (bench_report.py --grow-normal) to INPUT_JOBS jobs, to a quarter of them and
# to one job; INPUT_ROUNDS rounds, the order reversed every other round, of
# `nvanalyze --job randrw-0 -f csv` on each (the whole file read, one job's
# rows printed: the reading's time and memory; the one-job file gives the
# memory every call has), and of `nvanalyze -f csv` on the largest (every
# job's rows: the whole call, for reference).
section_inputtext() {
	local d=$W/inputtext r k order
	mkdir -p "$d"
	{
		printf '[global]\nioengine=null\nsize=64m\npercentile_list=%s\n' \
			1:5:10:20:30:40:50:60:70:80:90:95:99:99.5:99.9:99.95:99.99
		printf '[randrw]\nrw=randrw\nbs=4k\n%s\n' '[seqread]\nrw=read\nbs=128k'
	} >"$d/seed.fio"
	(cd "$d" && "$FIO" seed.fio >seed.txt 2>seed.err) ||
		die "inputtext: fio failed: $(tail -n 3 "$d/seed.err")"
	for k in one:1 quarter:$((INPUT_JOBS / 4)) all:$INPUT_JOBS; do
		python3 "$TOP/tools/bench_report.py" --grow-normal "$d/seed.txt" "${k#*:}" \
			"$d/${k%%:*}.txt" >"$d/${k%%:*}.info"
		cat "$d/${k%%:*}.txt" >/dev/null
	done
	log "inputtext: fio normal output of $INPUT_JOBS jobs, $INPUT_ROUNDS rounds"
	for r in $(seq 1 "$INPUT_ROUNDS"); do
		order="one quarter all full"
		[ $((r % 2)) -eq 0 ] && order="full all quarter one"
		for k in $order; do
			case $k in
			full) timed "$d/full-r$r" "$NVANALYZE" -f csv "$d/all.txt";;
			*) timed "$d/$k-r$r" "$NVANALYZE" --job randrw-0 -f csv "$d/$k.txt";;
			esac || die "inputtext: nvanalyze on $k failed:" \
				"$(tail -n 3 "$d/$k-r$r.err")"
		done
		rm -f "$d/full-r$r.out"
	done
	rm -f "$d"/one.txt "$d"/quarter.txt "$d"/all.txt
}

want files && section_files
want trace && section_trace
want analyze && section_analyze
want memory && section_memory
want cpu && section_cpu
want loop && section_loop
want hosts && section_hosts
want sweep && section_sweep
want workers && section_workers
want disturb && section_disturb
want inputxml && section_inputxml
want inputtext && section_inputtext
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
