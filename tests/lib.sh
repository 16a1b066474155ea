# Shared helpers for tests/integration/*.sh (sourced).
#
# pass NAME / fail NAME WHY / skip NAME WHY print the runner's protocol lines.
# json_get FILE PATH... prints a value of fio's JSON (tests/py/lib/fiojson.py:
# PATH is keys and indexes joined by '/', e.g. jobs/0/read/iops).
# pytool NAME ARGS... runs the test helper tests/py/NAME.py.
# FIO runs the installed fio; NVENGINE_SO is the engine under test.
set -u
: "${TOP:=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}"
: "${NVENGINE_SO:=$TOP/libnvengine.so}"
: "${NVANALYZE:=$TOP/nvanalyze}"
: "${TESTTMP:=$(mktemp -d /tmp/nvtest.XXXXXX)}"
FIO=${FIO:-fio}
SUITE=${SUITE:-$(basename "$0" .sh)}
T=$(mktemp -d "$TESTTMP/$SUITE.XXXXXX")

pass() { echo "PASS: $SUITE/$1"; }
# fail NAME WHY...: the words of WHY joined by spaces (a long message may
# come in several arguments)
fail() { local n=$1; shift; echo "FAIL: $SUITE/$n: $*"; }
skip() { local n=$1; shift; echo "SKIP: $SUITE/$n ($*)"; }

# need_unit_helper [NAME]: GEN set to the test helper NAME (default gen_trace)
# in $UNIT_DIR; returns 1 after a skip line when it or nvanalyze is not built.
#   need_unit_helper gen_synth || exit 0
need_unit_helper() {
	: "${UNIT_DIR:=$TOP/build/tests/unit}"
	GEN=$UNIT_DIR/${1:-gen_trace}
	if [ ! -x "$NVANALYZE" ] || [ ! -x "$GEN" ]; then
		skip all "build first: make all unit ($GEN, $NVANALYZE)"
		return 1
	fi
}

# wait_line PID FILE REGEX: until FILE holds a line matching REGEX while the
# process PID lives; bounded by that process's own timeout, not by how fast
# a loaded CPU is.  Returns 1 when PID ended without writing it.
#   wait_line "$gpid" "$T/gen.out" '^listening' || fail ...
wait_line() {
	until grep -q "$3" "$2" 2>/dev/null; do
		if ! kill -0 "$1" 2>/dev/null; then
			grep -q "$3" "$2" 2>/dev/null
			return
		fi
		sleep 0.1
	done
}

# need_nvanalyze: returns 1 after a skip line when nvanalyze is not built.
#   need_nvanalyze || exit 0
need_nvanalyze() {
	[ -x "$NVANALYZE" ] && return 0
	skip all "build first: make all ($NVANALYZE)"
	return 1
}

# need_engine [NAME]: returns 1 after a skip line for NAME (default all) when
# fio or the engine is missing.
#   need_engine traced_levels_exact || exit 0
need_engine() {
	command -v "$FIO" >/dev/null && [ -f "$NVENGINE_SO" ] && return 0
	skip "${1:-all}" "fio or $NVENGINE_SO missing: run 'make deps' and 'make'"
	return 1
}

# require_built: returns 1 after "FAIL: setup" when the engine or nvanalyze
# is not built (tests that fail, not skip, without them).
#   require_built || exit 1
require_built() {
	[ -f "$NVENGINE_SO" ] && [ -x "$NVANALYZE" ] && return 0
	fail setup "build first: make all unit ($NVENGINE_SO, $NVANALYZE)"
	return 1
}

# check NAME CMD...: run CMD, PASS if it succeeds, FAIL with its output otherwise.
check() {
	local name=$1; shift
	local out
	if out=$("$@" 2>&1); then
		pass "$name"
	else
		fail "$name" "$(echo "$out" | tail -n 5 | tr '\n' ' ')"
	fi
}

# fio_split OUT BASE: fio's --output-format=normal,terse,json file OUT into
# BASE.json (its JSON objects), BASE.terse (its terse lines) and BASE.txt
# (the rest: the normal output).
fio_split() {
	awk '/^\{/{j=1} j{print} /^\}/{j=0}' "$1" >"$2.json"
	awk '/^\{/{j=1} /^[2-5];fio-/{next} !j{print} /^\}/{j=0}' "$1" >"$2.txt"
	grep -E '^[2-5];fio-' "$1" >"$2.terse"
}

# textcmp_eq NAME TEXT JSON: PASS NAME when gen_textcmp (built by make unit)
# finds the fio text output TEXT equal to the JSON of the same run within
# the printed precision, latency buckets compared too; else FAIL with the
# first mismatches.
textcmp_eq() {
	local cmp=${UNIT_DIR:-$TOP/build/tests/unit}/gen_textcmp
	if "$cmp" "$2" "$3" >"$T/$1.cmp" 2>&1 &&
	   grep -Eq 'compared [1-9][0-9]+ \(buckets [1-9][0-9]*\), mismatches 0' "$T/$1.cmp"; then
		pass "$1"
	else
		fail "$1" "$(grep -v '^text format' "$T/$1.cmp" | head -n 6 | tr '\n' ' ')"
	fi
}

# The tests' helpers are Python: Debian's python3, with the modules make
# deps installs (python3-zstandard), ahead of another python3 on PATH.
PYTHON=${PYTHON:-$(command -v /usr/bin/python3 || command -v python3 || true)}
if [ -z "$PYTHON" ]; then
	fail python3 "python3 is not installed: run 'make deps' (apt-get install python3)"
	exit 1
fi
pytool() {
	"$PYTHON" "$TOP/tests/py/$1.py" "${@:2}"
}

# workers_same NAME ARGS...: nvanalyze ARGS with -J 1 and with -J 4 give the
# same exit status, stdout (md, csv, json) and -o directory (every file:
# tables, figure data and scripts, figures, pages), written to one path in
# turn; PASS NAME or FAIL NAME with the first difference.
workers_same() {
	local name=$1 w=$T/ws.$1 f j why=
	shift
	mkdir -p "$w"
	for j in 1 4; do
		for f in md csv json; do
			"$NVANALYZE" -J $j -f $f "$@" >"$w/$j.$f" 2>"$w/$j.$f.err"
			echo "exit $?" >>"$w/$j.$f"
		done
		rm -rf "$w/out"
		"$NVANALYZE" -J $j -o "$w/out" "$@" >"$w/$j.o" 2>"$w/$j.o.err"
		echo "exit $?" >>"$w/$j.o"
		mv "$w/out" "$w/out.$j" 2>/dev/null || mkdir -p "$w/out.$j"
	done
	for f in md csv json o; do
		cmp -s "$w/1.$f" "$w/4.$f" && cmp -s "$w/1.$f.err" "$w/4.$f.err" ||
			why=${why:-"$f differs: $(diff "$w/1.$f" "$w/4.$f" | head -n 3 |
				tr '\n' ' ')"}
	done
	diff -r "$w/out.1" "$w/out.4" >"$w/out.diff" 2>&1 ||
		why=${why:-"-o differs: $(head -n 3 "$w/out.diff" | tr '\n' ' ')"}
	grep -q '^exit 0$' "$w/1.md" && [ -s "$w/out.1/report.md" ] ||
		why=${why:-"-J 1 failed: $(head -n 3 "$w/1.md.err" "$w/1.o.err" | tr '\n' ' ')"}
	[ -z "$why" ] && pass "$name" || fail "$name" "$why"
}

# rows_vs_jobs_run NAME CHECK [VAR=VALUE...] -- JOBFILE...: another tool's
# results row by row beside a jobs/run results directory.  jobs/run runs the
# job files on a 64 MiB image (NVDEV, RUNTIME=1 and the VAR=VALUEs) into
# $T/res; CHECK, a function, runs nvanalyze on them into $T/rows.md (its
# stderr in $T/rows.err) and prints " NAME" for each row not as expected.
# PASS NAME when it prints nothing; SKIP NAME without the engine.
rows_vs_jobs_run() {
	local name=$1 check=$2 bad
	local vars=()
	shift 2
	while [ $# -gt 0 ] && [ "$1" != -- ]; do vars+=("$1"); shift; done
	shift
	if [ ! -f "$NVENGINE_SO" ]; then
		skip "$name" "engine not built: $NVENGINE_SO"
		return
	fi
	truncate -s 64M "$T/target.img"
	if ! env NVDEV="$T/target.img" RUNTIME=1 "${vars[@]}" "$TOP/jobs/run" -o "$T/res" "$@" \
		>"$T/run.log" 2>&1; then
		fail "$name" "jobs/run failed: $(tail -n 3 "$T/run.log")"
		return
	fi
	bad=$("$check")
	if [ -z "$bad" ]; then pass "$name"; else
		fail "$name" "rows not as expected:$bad ($(head -c 300 "$T/rows.err"))"
	fi
}

# nj_job FILE: the one-job sweep job file of the sweep tests (numjobs=1,
# 1M random reads of 4k on ${NVDEV}, traced to ${NVTRACE}).
nj_job() {
	cat >"$1" <<'JOB'
[global]
ioengine=external:${NVENGINE_SO}
filename=${NVDEV}
size=1M
rw=randread
bs=4k
group_reporting
nv_trace=${NVTRACE}

[nj]
numjobs=1
JOB
}

json_get() {
	pytool lib/fiojson get "$@"
}

# make asan: the engine is built with ASan+UBSan, fio is not, so the ASan
# runtime must be the first library fio loads.  FIO then names a wrapper
# (also first in PATH as plain "fio") that preloads it, leaves fio's own
# leaks alone (detect_leaks=0; the engine's are found by the unit tests and
# nvanalyze runs) and turns any ASan or UBSan report into SIGABRT, so a test
# that expects fio to fail still sees a crash as a crash.  NV_ASAN is 1 then.
NV_ASAN=0
if ldd "$NVENGINE_SO" 2>/dev/null | grep -q 'libasan\.so'; then
	NV_ASAN=1
	nv_asan_rt=$(ldd "$NVENGINE_SO" | awk '/libasan\.so/ { print $3; exit }')
	nv_real_fio=$(command -v "$FIO")
	mkdir -p "$T/asan-bin"
	cat >"$T/asan-bin/fio" <<-EOF
	#!/bin/sh
	LD_PRELOAD="$nv_asan_rt\${LD_PRELOAD:+:\$LD_PRELOAD}" \\
	ASAN_OPTIONS="detect_leaks=0:abort_on_error=1:\${ASAN_OPTIONS:-}" \\
	UBSAN_OPTIONS="abort_on_error=1:print_stacktrace=1:\${UBSAN_OPTIONS:-}" \\
	exec "$nv_real_fio" "\$@"
	EOF
	chmod +x "$T/asan-bin/fio"
	FIO=$T/asan-bin/fio
	PATH=$T/asan-bin:$PATH
fi
# The damage sweeps (every byte or line of an input cut, flipped or
# garbled; MUTATIONS random mutants) run nvanalyze thousands of times, each
# call several times dearer under ASan: there they take every
# NV_DAMAGE_STRIDE-th position and of the mutants 1 in NV_DAMAGE_STRIDE
# (tests/py/lib/damage.py); make check runs every case, and the fuzzers
# (make fuzz) search the same readers under ASan.
if [ "$NV_ASAN" = 1 ]; then
	: "${NV_DAMAGE_STRIDE:=4}"
	: "${MUTATIONS:=$((600 / NV_DAMAGE_STRIDE))}"
	export MUTATIONS
fi
export NV_DAMAGE_STRIDE=${NV_DAMAGE_STRIDE:-1}

# A real Prometheus (Debian's prometheus) for the tests of the watch's
# --listen endpoint.  prom_start TARGET... (host:port each) or prom_start
# --file-sd FILE (a file_sd target list): Prometheus on a free localhost
# port (its URL in PROM_URL), a new TSDB in $T/prom/run.*, scraping the job
# "nvengine" every 1 s; returns 1 after a SKIP line (NAME: PROM_TEST, default
# prometheus) when it is not installed, after a FAIL line when it is not
# ready in 60 s.  prom_query QUERY [TIME] and prom_query_range QUERY START
# END STEP print the API's JSON answer (tests/py/prom_api.py); prom_stop
# stops it (also when the test exits).
prom_start() {
	local port targets sd="" d
	PROM=$(command -v prometheus || true)
	if [ -z "$PROM" ]; then
		skip "${PROM_TEST:-prometheus}" "prometheus not installed (make deps installs it)"
		return 1
	fi
	mkdir -p "$T/prom"
	d=$(mktemp -d "$T/prom/run.XXXXXX")	# a TSDB and config of this start's own
	if [ "${1:-}" = --file-sd ]; then
		sd="    file_sd_configs: [{files: ['$2'], refresh_interval: 1s}]"
	else
		targets=$(printf "'%s'," "$@")
		sd="    static_configs: [{targets: [${targets%,}]}]"
	fi
	cat >"$d/prometheus.yml" <<-EOF
	global: {scrape_interval: 1s, scrape_timeout: 1s, evaluation_interval: 1s}
	scrape_configs:
	  - job_name: nvengine
	$sd
	EOF
	port=$(pytool free_port 127.0.0.1)
	PROM_URL=http://127.0.0.1:$port
	"$PROM" --config.file="$d/prometheus.yml" --storage.tsdb.path="$d/tsdb" \
		--web.listen-address="127.0.0.1:$port" --log.level=warn >"$d/log" 2>&1 &
	PROM_PID=$!
	trap prom_stop EXIT
	if ! pytool prom_api ready "$PROM_URL" 60; then
		fail "${PROM_TEST:-prometheus}" "prometheus not ready in 60 s:" \
			"$(tail -n 3 "$d/log" | tr '\n' ' ')"
		prom_stop
		return 1
	fi
}
prom_query() { pytool prom_api query "$PROM_URL" "$@"; }
prom_query_range() { pytool prom_api query_range "$PROM_URL" "$@"; }
prom_stop() {
	[ -n "${PROM_PID:-}" ] || return 0
	kill "$PROM_PID" 2>/dev/null
	wait "$PROM_PID" 2>/dev/null
	PROM_PID=
}

# nop_jobfile FILE RUNTIME SECTION...: a job file of traced nv_nop jobs
# for the tests of the watch (4k randrw on $T/nop, threads, time_based for
# RUNTIME s, traces into $T/tr, both made here): one [NAME] per SECTION
# "NAME|opt=v|opt=v..." (its options one a line).
nop_jobfile() {
	local f=$1 rt=$2 s
	shift 2
	head -c 1M /dev/zero >"$T/nop"
	mkdir -p "$T/tr"
	printf '[global]\nioengine=external:%s\nnv_nop=1\nnv_trace=%s\nfilename=%s\n' \
		"$NVENGINE_SO" "$T/tr" "$T/nop" >"$f"
	printf 'size=1M\nbs=4k\nrw=randrw\ntime_based\nthread\nruntime=%s\n' "$rt" >>"$f"
	for s in "$@"; do
		printf '[%s]\n' "${s%%|*}" >>"$f"
		[ "$s" = "${s#*|}" ] || printf '%s\n' "${s#*|}" | tr '|' '\n' >>"$f"
	done
}

# nvfio ARGS...: fio with the engine under test loaded.
nvfio() {
	"$FIO" --ioengine="external:$NVENGINE_SO" "$@"
}

# fio leaves verify state files (*-verify.state) in its working directory.
cd "$T" || exit 1
