#!/usr/bin/env bash
# Many jobs at once and fio's client/server mode: every trace complete, and
# its record counts equal to what fio reports.
#
#  - numjobs=8 as threads and as processes, 3 files per job, group_reporting
#    on and off: 8 traces per run, each with its footer and no warning, each
#    using all 3 files, per-op records summed over the traces equal to fio's
#    total_ios summed over its JSON jobs (one entry with group_reporting).
#  - two fio servers on loopback (127.0.0.1 and 127.0.0.2, one port), one
#    client with a job file per server loading the engine on the server side:
#    the traces are written by the servers, the client's JSON has
#    client_stats per host plus "All clients", and nvanalyze reads it: its
#    IOPS per host and for All clients are fio's, and each host's trace
#    records equal that host's total_ios.  The servers are stopped within a
#    bounded time whatever happens.
. "$(dirname "$0")/../lib.sh"

require_built || exit 1

# check_traces NAME JSON NTRACES NFILES TRACE...: the checks above, printing
# "ok ..." or the problems.
check_traces() {
	pytool concurrency_traces "$NVANALYZE" "$@"
}

# ---- numjobs=8, threads and processes, group_reporting on and off -----------
mkdir -p "$T/files"
for mode in thread process; do
	for gr in 0 1; do
		name=nj8_${mode}_gr$gr
		args=()
		[ $mode = thread ] && args+=(--thread=1)
		[ $gr = 1 ] && args+=(--group_reporting=1)
		mkdir -p "$T/$name"
		nvfio --name=nj --directory="$T/files" --nrfiles=3 --filesize=2M --rw=randrw \
			--bs=4k --iodepth=8 --numjobs=8 --nv_trace="$T/$name" \
			--nv_trace_block=256 --output-format=json --output="$T/$name.json" \
			"${args[@]}" >"$T/$name.out" 2>&1
		rc=$?
		if [ $rc -ne 0 ]; then
			fail "$name" "fio exit $rc: $(tail -n 3 "$T/$name.out" | tr '\n' ' ')"
			continue
		fi
		out=$(check_traces "$name" "$T/$name.json" 8 3 "$T/$name"/*.nvt 2>&1)
		case "$out" in
		ok*) pass "$name"; echo "info: $name: ${out#ok }";;
		*) fail "$name" "$out";;
		esac
	done
done

# ---- client/server on loopback ---------------------------------------------
port=$(pytool free_port 127.0.0.1 127.0.0.2 2>/dev/null)
if [ -z "$port" ]; then
	skip client_server "no free port on 127.0.0.1 and 127.0.0.2"
	exit 0
fi
srv_pids=()
stop_servers() {	# TERM, up to 5 s, then KILL: never hangs the suite
	local p
	for p in "${srv_pids[@]+"${srv_pids[@]}"}"; do kill -TERM "$p" 2>/dev/null; done
	for _ in $(seq 1 50); do
		local alive=0
		for p in "${srv_pids[@]+"${srv_pids[@]}"}"; do
			kill -0 "$p" 2>/dev/null && alive=1
		done
		[ $alive = 0 ] && break
		sleep 0.1
	done
	for p in "${srv_pids[@]+"${srv_pids[@]}"}"; do
		if kill -0 "$p" 2>/dev/null; then
			echo "info: fio server $p ignored SIGTERM, killed"
			kill -KILL "$p" 2>/dev/null
		fi
		wait "$p" 2>/dev/null
	done
	srv_pids=()
}
trap stop_servers EXIT

hosts=(127.0.0.1 127.0.0.2)
for i in 0 1; do
	h=${hosts[$i]}
	mkdir -p "$T/cs/trace$i" "$T/cs/files$i"
	"$FIO" --server="ip:$h,$port" >"$T/cs/server$i.log" 2>&1 &
	srv_pids+=($!)
	# The engine is named in the job file: the server loads it.
	cat >"$T/cs/job$i.fio" <<-EOF
	[global]
	ioengine=external:$NVENGINE_SO
	nv_trace=$T/cs/trace$i
	directory=$T/cs/files$i
	rw=randrw
	bs=4k
	size=4M
	iodepth=8
	numjobs=2
	group_reporting=1
	[cs]
	EOF
done
# Wait (at most 10 s) until both listen.
up=0
for _ in $(seq 1 100); do
	if [ "$(ss -Hltn "( sport = :$port )" 2>/dev/null | wc -l)" -ge 2 ]; then up=1; break; fi
	sleep 0.1
done
if [ $up = 0 ]; then
	fail client_server_start \
		"servers not listening on port $port: $(cat "$T"/cs/server*.log | tail -n 3 |
			tr '\n' ' ')"
	exit 1
fi
timeout 120 "$FIO" --output-format=json --client="ip:127.0.0.1,$port" "$T/cs/job0.fio" \
	--client="ip:127.0.0.2,$port" "$T/cs/job1.fio" >"$T/cs/client.json" 2>"$T/cs/client.err"
rc=$?
stop_servers
trap - EXIT
if [ $rc -ne 0 ]; then
	fail client_server_run "fio client exit $rc: $(tail -n 3 "$T/cs/client.err" | tr '\n' ' ')"
	exit 1
fi
pass client_server_run

out=$(pytool concurrency_client_server "$NVANALYZE" "$T/cs" 2>&1)
case "$out" in
ok*) pass client_server_traces_and_json; echo "info: client/server: ${out#ok }";;
*) fail client_server_traces_and_json "$out";;
esac
