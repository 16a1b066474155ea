#!/usr/bin/env bash
# Every job file in jobs/ parses with fio --parse-only and the engine loaded,
# both with its variables set by hand (plain fio) and through jobs/run, and
# in jobs/run -e io_uring form (the kernel block path of make demo), and make
# demo's sweep job file point by point.  Also:
# each file starts with "# Reproduces:" and has tracing on; the instance
# suite agrees with the single-test files; an unset variable stops fio and
# jobs/run with a message naming it; one short real run through jobs/run
# leaves fio JSON and a trace that nvanalyze reads.
. "$(dirname "$0")/../lib.sh"

JOBS=$TOP/jobs
RUN=$JOBS/run
if ! [ -f "$NVENGINE_SO" ]; then
	fail load "engine not built: $NVENGINE_SO"
	exit 1
fi
# The suites in jobs/*/ (the top-level files are jobs_toplevel.sh's).
mapfile -t files < <(cd "$TOP" && find jobs -mindepth 2 -name '*.fio' | LC_ALL=C sort)
if [ ${#files[@]} -lt 18 ]; then
	fail count "expected at least 18 job files in jobs/, found ${#files[@]}"
fi
target=$T/target.img
truncate -s 64M "$target"

# vars_of FILE: the ${VAR} names FILE uses, one per line.
vars_of() {
	grep -o '\${[A-Z_][A-Z0-9_]*}' "$1" | sort -u | tr -d '${}'
}

# plain_env FILE: VAR=VALUE words setting every variable of FILE.
plain_env() {
	local v
	for v in $(vars_of "$1"); do
		case $v in
		NVENGINE_SO) echo "NVENGINE_SO=$NVENGINE_SO";;
		NVDEV) echo "NVDEV=$target";;
		NVDIRECT) echo "NVDIRECT=1";;
		NVTRACE) echo "NVTRACE=$T";;
		CDM_SIZE) echo "CDM_SIZE=16m";;
		*) echo "$v=1";;
		esac
	done
}

for f in "${files[@]}"; do
	n=${f#jobs/}
	path=$TOP/$f
	if head -n 1 "$path" | grep -q '^# Reproduces: ..*'; then
		pass "$n/header"
	else
		fail "$n/header" "first line is not '# Reproduces: ...': $(head -n 1 "$path")"
	fi
	missing=
	for line in 'ioengine=external:${NVENGINE_SO}' 'filename=${NVDEV}' \
		'nv_trace=${NVTRACE}'; do
		grep -qxF "$line" "$path" || missing="$missing $line"
	done
	if [ -z "$missing" ]; then
		pass "$n/engine-trace-target"
	else
		fail "$n/engine-trace-target" "missing:$missing"
	fi

	# plain fio, every variable set by hand
	if out=$(env $(plain_env "$path") "$FIO" --parse-only "$path" 2>&1) && [ -z "$out" ]; then
		pass "$n/parse"
	else
		fail "$n/parse" "$(echo "$out" | tail -n 3 | tr '\n' ' ')"
	fi
	# through jobs/run (its defaults), nvengine and fio's io_uring
	if out=$(env -u RUNTIME NVDEV="$target" "$RUN" -n "$path" 2>&1) && [ -z "$out" ]; then
		pass "$n/run-parse"
	else
		fail "$n/run-parse" "$(echo "$out" | tail -n 3 | tr '\n' ' ')"
	fi
	if out=$(NVDEV="$target" "$RUN" -n -e io_uring "$path" 2>&1) && [ -z "$out" ]; then
		pass "$n/run-parse-io_uring"
	else
		fail "$n/run-parse-io_uring" "$(echo "$out" | tail -n 3 | tr '\n' ' ')"
	fi
done

# make demo's load curve (tools/demo-cases/sweep/randread-4k.fio, given to
# the guest as /extra/sweep/): every point of its sweep parses through
# jobs/run on both paths and is named as tools/demo.sh looks for it.
demo_sweep=$TOP/tools/demo-cases/sweep/randread-4k.fio
want=$(for q in 1 2 4 8 16 32 64; do
	echo "sweep-randread-4k@iodepth=$q: randread-4k@iodepth=$q "
done)
for e in nvengine io_uring; do
	eo=()
	[ $e = nvengine ] || eo=(-e "$e")
	mkdir -p "$T/sweep"
	cp "$demo_sweep" "$T/sweep/"
	if out=$(NVDEV="$target" "$RUN" -n "${eo[@]}" --sweep iodepth=1..64 \
		"$T/sweep/randread-4k.fio" 2>&1) &&
		[ "$out" = "$want" ]; then
		pass "demo-sweep-parse-$e"
	else
		fail "demo-sweep-parse-$e" "$(echo "$out" | tail -n 3 | tr '\n' ' ')"
	fi
done

# The checks above can fail: a misspelt engine option is refused.
sed 's/^nv_trace=/nv_trcae=/' "$TOP/jobs/instance/latency.fio" >"$T/typo.fio"
if env $(plain_env "$T/typo.fio") "$FIO" --parse-only "$T/typo.fio" >/dev/null 2>&1; then
	fail parse-catches-typo "fio --parse-only accepted nv_trcae="
else
	pass parse-catches-typo
fi

# An unset variable stops plain fio with the option's name, and jobs/run
# with a message naming NVDEV; neither creates a file.
out=$(cd "$T" && env -u NVDEV $(plain_env "$TOP/jobs/instance/latency.fio" | grep -v '^NVDEV=') \
	"$FIO" --output-format=json --output="$T/unset.json" "$TOP/jobs/instance/latency.fio" 2>&1)
st=$?
if [ $st -ne 0 ] && grep -qF 'failed parsing filename=${NVDEV}' <<<"$out" &&
	! ls "$T"/latency* >/dev/null 2>&1; then
	pass unset-nvdev-plain-fio
else
	fail unset-nvdev-plain-fio "exit $st: $(echo "$out" | tail -n 2 | tr '\n' ' ')"
fi
out=$(env -u NVDEV "$RUN" -o "$T/unset" "$TOP/jobs/instance/latency.fio" 2>&1)
st=$?
if [ $st -eq 2 ] && grep -q 'NVDEV is not set' <<<"$out" && ! [ -e "$T/unset" ]; then
	pass unset-nvdev-run
else
	fail unset-nvdev-run "exit $st: $(echo "$out" | head -n 2 | tr '\n' ' ')"
fi
# A job file with its own ioengine= and filename=, never naming NVDEV,
# runs with NVDEV unset (the null engine: nothing is opened).
printf '[own]\nioengine=null\nfilename=own\nsize=1m\nrw=randread\nbs=4k\n' >"$T/own.fio"
out=$(env -u NVDEV "$RUN" -o "$T/own" "$T/own.fio" 2>&1)
st=$?
if [ $st -eq 0 ] && [ -s "$T/own/$(basename "$T")-own.json" ] &&
	grep -q "own.fio on its own filename=" <<<"$out"
then
	pass own-filename-without-nvdev
else
	fail own-filename-without-nvdev "exit $st: $(echo "$out" | tail -n 2 | tr '\n' ' ')"
fi
out=$(NVDEV=$T/absent "$RUN" -n "$TOP/jobs/instance/latency.fio" 2>&1)
if [ $? -eq 2 ] && grep -q "'$T/absent' does not exist" <<<"$out"; then
	pass missing-target-run
else
	fail missing-target-run "$(echo "$out" | head -n 2 | tr '\n' ' ')"
fi

# A character device (/dev/null stands in for /dev/ngXnY, which refuses
# O_DIRECT) gets NVDIRECT=0, and fio's own engines are refused on it.
NVDEV=/dev/null FIO=true "$RUN" -o "$T/chr" "$TOP/jobs/instance/latency.fio" 2>/dev/null
if grep -qx 'NVDIRECT=0' "$T/chr/instance-latency.env" 2>/dev/null; then
	pass char-device-nvdirect-0
else
	fail char-device-nvdirect-0 "$(cat "$T/chr/instance-latency.env" 2>&1 | tr '\n' ' ')"
fi
out=$(NVDEV=/dev/null "$RUN" -n -e io_uring "$TOP/jobs/instance/latency.fio" 2>&1)
if [ $? -eq 2 ] && grep -q 'need a block device or file' <<<"$out"; then
	pass char-device-refuses-fio-engine
else
	fail char-device-refuses-fio-engine "$(echo "$out" | head -n 2 | tr '\n' ' ')"
fi

# "# default:" lines: the long cloud-disk run defaults to 30 minutes; the
# environment wins.
check_default() {
	local name=$1 want=$2 file=$3 got
	shift 3
	got=$(env "$@" NVDEV="$target" FIO=echo "$RUN" -o "$T/def" "$TOP/$file" 2>&1 >/dev/null |
		sed -n 's/.*RUNTIME=\([0-9]*\)).*/\1/p')
	if [ "$got" = "$want" ]; then
		pass "$name"
	else
		fail "$name" "RUNTIME '$got', expected $want"
	fi
}
check_default default-runtime-long 1800 jobs/cloud-disk/seqwrite-128k-long.fio -u RUNTIME
check_default default-runtime-env 7 jobs/cloud-disk/seqwrite-128k-long.fio RUNTIME=7
check_default default-runtime-plain 60 jobs/instance/latency.fio -u RUNTIME

# The instance suite is the single-test files in order, each with stonewall.
out=$(pytool instance_suite_check "$TOP/jobs/instance" 2>&1)
if [ $? -eq 0 ]; then
	pass instance-suite-matches-singles
else
	fail instance-suite-matches-singles "$out"
fi

# One real run: JSON with IOs, the job file and variables kept, a trace that
# nvanalyze stat reads.
res=$T/res
if out=$(NVDEV="$target" RUNTIME=1 "$RUN" -o "$res" \
	"$TOP/jobs/single-thread/randread-128k-qd1.fio" 2>&1); then
	ios=$(json_get "$res/single-thread-randread-128k-qd1.json" \
		jobs/jobname=randread-128k-qd1/read/total_ios 2>&1)
	trace=$(ls "$res"/traces/single-thread-randread-128k-qd1/randread-128k-qd1.*.nvt \
		2>/dev/null | head -n 1)
	if [ "${ios:-0}" -gt 0 ] 2>/dev/null && [ -n "$trace" ] &&
		[ -f "$res/single-thread-randread-128k-qd1.fio" ] &&
		grep -q "^NVDEV=$target\$" "$res/single-thread-randread-128k-qd1.env"; then
		pass real-run
	else
		fail real-run "read IOs '$ios', trace '$trace', files: $(ls "$res" | tr '\n' ' ')"
	fi
	if [ -n "$trace" ] && st=$("$NVANALYZE" stat "$trace" 2>&1); then
		pass real-run-trace-readable
	else
		fail real-run-trace-readable "$(echo "${st:-no trace}" | tail -n 2 | tr '\n' ' ')"
	fi
else
	fail real-run "$(echo "$out" | tail -n 3 | tr '\n' ' ')"
fi

# The studies' profiles as they ran them: each diskspd command of the
# Graviton study (and of VirtualClient's example reports in
# tests/fixtures/diskspd) quoted in its file, with the fio mapping (-t4, -o,
# -b; -si as one job with t x o in flight), and CrystalDiskMark 5's four tests.
# spec: FILE|COMMAND|rw|bs|iodepth|numjobs
while IFS='|' read -r f cmd rw bs qd nj; do
	p=$JOBS/diskspd/$f.fio
	got=$(for o in rw bs iodepth numjobs; do
		sed -n "s/^$o=//p" "$p" 2>/dev/null | head -n 1
	done | tr '\n' ' ')
	if grep -qxF "#   $cmd <target>" "$p" 2>/dev/null && [ "$got" = "$rw $bs $qd $nj " ]; then
		pass "diskspd-profile/$f"
	else
		why="command '$cmd' quoted? rw bs iodepth numjobs:"
		fail "diskspd-profile/$f" "$why '$got', want '$rw $bs $qd $nj'"
	fi
done <<'SPEC'
randread-4k-t4-qd32|diskspd -b4K -r -o32 -t4 -w0|randread|4k|32|4
randwrite-4k-t4-qd32|diskspd -b4K -r -o32 -t4 -w100|randwrite|4k|32|4
randrw-4k-t4-qd32-w30|diskspd -b4K -r -o32 -t4 -w30|randrw|4k|32|4
seqread-128k-t4-qd4-si|diskspd -b128K -si -o4 -t4 -w0|read|128k|16|1
seqwrite-128k-t4-qd4-si|diskspd -b128K -si -o4 -t4 -w100|write|128k|16|1
seqwrite-128k-t4-qd16-si|diskspd -b128K -si -o16 -t4 -w100|write|128k|64|1
seqread-1m-t4-qd4-si|diskspd -b1M -si -o4 -t4 -w0|read|1m|16|1
randwrite-8k-t32-qd16|diskspd -b8K -r8K -t32 -o16 -w100|randwrite|8k|16|32
randwrite-4k-t4-qd16|diskspd -b4K -r4K -t4 -o16 -w100|randwrite|4k|16|4
randwrite-4k-t4-qd4|diskspd -b4K -r4K -t4 -o4 -w100|randwrite|4k|4|4
SPEC
grep -qx 'rwmixwrite=30' "$JOBS/diskspd/randrw-4k-t4-qd32-w30.fio" && pass diskspd-mix-70-30 ||
	fail diskspd-mix-70-30 "no rwmixwrite=30"
cdm=$JOBS/crystaldiskmark/cdm5-default.fio
got=$(awk -F= '/^\[/ { s = $0 } /^(rw|bs|iodepth|numjobs)=/ { v[s] = v[s] $2 " " }
	END { for (k in v) print k, v[k] }' "$cdm" | LC_ALL=C sort | tr '\n' ';')
want='[4K-read] randread 4k 1 1 ;[4K-write] randwrite 4k 1 1 ;[4KQ32T1-read] randread 4k 32 1 ;'
want="$want[4KQ32T1-write] randwrite 4k 32 1 ;[Seq-read] read 1m 1 1 ;[Seq-write] write 1m 1 1 ;"
want="$want[SeqQ32T1-read] read 128k 32 1 ;[SeqQ32T1-write] write 128k 32 1 ;"
want="$want[precondition-fill] write 1m 8 1 ;"
if [ "$got" = "$want" ] && grep -qx '# default: CDM_SIZE=32g' "$cdm" &&
	grep -q 'CrystalDiskMark 5.2.1' "$cdm" &&
	grep -q 'best pass' "$cdm"; then
	pass cdm5-profile
else
	fail cdm5-profile "sections: $got"
fi
