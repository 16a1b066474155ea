#!/usr/bin/env bash
# The engine's per-IO trace (nv_trace=DIR) against fio's own accounting:
# record counts per operation equal fio's total_ios exactly, every IO's
# latency is at most fio's clat of the same IO, ramp_time is marked, and
# traces survive SIGKILL and a full disk as the format promises.
. "$(dirname "$0")/../lib.sh"

# compare NAME JSON DIR: every trace DIR/*.nvt against fio's JSON (jobs summed
# per direction; flushes against sync lat N) and, IO by IO, against fio's own
# per-IO completion-latency log of the same thread (DIR/lat_clat.THREAD.log,
# written by `traced`).  Exactly comparable whatever the load on the machine:
# the same IOs in the same order (direction, offset, length), and each trace
# latency is above 0 and at most fio's clat.  fio reads its clock (the same
# CLOCK_MONOTONIC: clocksource=clock_gettime) before the engine's at
# submission (nv_mark_submitted) and after it at completion (fio stamps a
# batch after getevents() returned), so a preempted thread only widens fio's
# clat; no bound on the difference can hold on a busy machine, and none is
# checked.  With the TSC trace clock (docs/trace-format.md) each stamp is
# within the footer's clock.tsc_max_seen_err_ns of CLOCK_MONOTONIC at a
# resync and drifts by at most 500 ppm in between: a trace latency may then
# exceed fio's by twice that error plus 500 ppm of the latency.
compare() {
	local name=$1 json=$2 dir=$3 out f
	: >"$T/$name.csv"
	for f in "$dir"/*.nvt; do
		"$NVANALYZE" stat "$f" >"$f.stat" 2>&1
		if ! "$NVANALYZE" dump "$f" >"$f.csv" 2>"$T/$name.dumperr"; then
			fail "$name" \
				"nvanalyze dump failed: $(tail -n 2 "$T/$name.dumperr" |
					tr '\n' ' ')"
			return
		fi
		cat "$f.csv" >>"$T/$name.csv"
	done
	out=$(pytool engine_trace_compare "$dir" "$json")
	if [ "$out" = ok ]; then pass "$name"; else fail "$name" "$out"; fi
}

# traced NAME ARGS...: fio with the engine, a trace directory $T/NAME and
# fio's per-IO latency logs there (every IO, with its offset)
traced() {
	local name=$1; shift
	mkdir -p "$T/$name"
	nvfio --output-format=json --output="$T/$name.json" --nv_trace="$T/$name" \
		--write_lat_log="$T/$name/lat" --log_avg_msec=0 --log_offset=1 \
		--clocksource=clock_gettime "$@" 2>"$T/$name.err"
}

F=$T/data
head -c 64M /dev/zero >"$F"

traced randread --name=rr --filename="$F" --size=64M --rw=randread --iodepth=32 \
	--number_ios=40000 --direct=1
compare trace_randread "$T/randread.json" "$T/randread"
traced randwrite --name=rw --filename="$F" --size=32M --rw=randwrite --iodepth=16 --direct=1
compare trace_randwrite "$T/randwrite.json" "$T/randwrite"
traced mix --name=mx --filename="$F" --size=32M --rw=randrw --rwmixread=70 \
	--iodepth=8 --bs=8k --direct=1
compare trace_randrw_70_30 "$T/mix.json" "$T/mix"
traced trim --name=tr --filename="$F" --size=16M --rw=randtrim --bs=64k
compare trace_trim "$T/trim.json" "$T/trim"
traced fsync --name=fs --filename="$F" --size=4M --rw=write --fsync=4 --iodepth=4
compare trace_write_fsync "$T/fsync.json" "$T/fsync"
traced nj4 --name=nj --directory="$T" --size=8M --rw=randrw --numjobs=4 --thread=1 --iodepth=16
compare trace_numjobs4_thread "$T/nj4.json" "$T/nj4"
n=$(ls "$T/nj4"/*.nvt 2>/dev/null | wc -l)
if [ "$n" -eq 4 ]; then
	pass trace_numjobs4_one_file_each
else
	fail trace_numjobs4_one_file_each "$n trace files"
fi
traced njp --name=np --directory="$T" --size=8M --rw=randread --numjobs=3 \
	--iodepth=8 --group_reporting
compare trace_numjobs3_processes "$T/njp.json" "$T/njp"
traced files3 --name=f3 --directory="$T" --nrfiles=3 --filesize=4M --rw=randread --iodepth=8
compare trace_three_files "$T/files3.json" "$T/files3"
if [ "$(cut -d, -f9 "$T/trace_three_files.csv" | sed 1d | sort -u | tr '\n' ' ')" = "0 1 2 " ]
then
	pass trace_file_index
else
	fail trace_file_index \
		"file column: $(cut -d, -f9 "$T/trace_three_files.csv" | sed 1d | sort -u |
			tr '\n' ' ')"
fi

# ramp_time: the header has the job's ramp_time, the footer the trace time
# from which fio counted (job.ramp_end_ns): the IOs submitted from then on
# are exactly fio's total_ios per direction, and nvanalyze uses the exact
# values (no "another run" warning) and says how many ramp IOs it left out.
traced ramp --name=rp --filename="$F" --size=32M --rw=randrw --iodepth=16 --ramp_time=1 \
	--runtime=2 --time_based
"$NVANALYZE" dump "$T"/ramp/rp.*.nvt >"$T/ramp.csv" 2>&1
"$NVANALYZE" stat "$T"/ramp/rp.*.nvt >"$T/ramp.stat" 2>&1
out=$(pytool engine_trace_ramp "$T/ramp.csv" "$T/ramp.stat" "$T/ramp.json")
[ "$out" = ok ] && pass trace_ramp_time_counts || fail trace_ramp_time_counts "$out"
"$NVANALYZE" "$T/ramp.json" >"$T/ramp.md" 2>"$T/ramp.err"
if grep -q "(exact)" "$T/ramp.md" && ! grep -q "another run" "$T/ramp.err" &&
   grep -q "IOs submitted before fio's ramp ended are left out" "$T/ramp.md"; then
	pass trace_ramp_time_exact_used
else
	fail trace_ramp_time_exact_used "$(cat "$T/ramp.err") $(grep -c exact "$T/ramp.md")"
fi

# The same with a kernel short of resources (tests/integration/submit_eagain.c:
# io_uring_submit is -EAGAIN while IO is in flight), so that SQEs queued in
# the ramp are often still unsubmitted at its end: they are submitted, and
# stamped, before the mark, or the mark waits; and completions are never
# waited for that cannot come (SQEs still held).  Three runs: where the ramp
# ends between two submissions is up to the clock.  (The shim links liburing
# so that its io_uring_submit finds the real one.)
if cc -shared -fPIC -o "$T/submit_eagain.so" "$TOP/tests/integration/submit_eagain.c" -ldl \
	-Wl,--no-as-needed -luring 2>"$T/submit_eagain.err"; then
	bad=
	for i in 1 2 3; do
		# a 3 s job: 60 s means it hangs
		LD_PRELOAD="$T/submit_eagain.so${LD_PRELOAD:+:$LD_PRELOAD}" timeout -s KILL 60 \
			bash -c \
			"$(declare -f traced nvfio); FIO=$FIO NVENGINE_SO=$NVENGINE_SO T=$T; \
			traced ramp_eagain$i --name=rp --filename=$F --size=32M --rw=randrw \
			--iodepth=16 --ramp_time=1 --runtime=2 --time_based"
		rc=$?
		"$NVANALYZE" dump "$T/ramp_eagain$i"/rp.*.nvt >"$T/ramp_eagain$i.csv" 2>&1
		"$NVANALYZE" stat "$T/ramp_eagain$i"/rp.*.nvt >"$T/ramp_eagain$i.stat" 2>&1
		out=$(pytool engine_trace_ramp "$T/ramp_eagain$i.csv" "$T/ramp_eagain$i.stat" \
			"$T/ramp_eagain$i.json" 2>&1)
		[ $rc = 0 ] && [ "$out" = ok ] || bad="$bad run $i (fio rc=$rc): $out;"
	done
	if [ -z "$bad" ]; then
		pass trace_ramp_time_counts_submit_eagain
	else
		fail trace_ramp_time_counts_submit_eagain "$bad"
	fi
else
	fail trace_ramp_time_counts_submit_eagain "cc: $(head -n 3 "$T/submit_eagain.err")"
fi

# The header names the job, the clock and the target.
if "$NVANALYZE" stat "$T"/randread/*.nvt >"$T/stat.txt" 2>&1 &&
   grep -q "job.name = rr" "$T/stat.txt" && grep -q "clock = CLOCK_MONOTONIC" "$T/stat.txt" &&
   grep -q "file.0.path = $F" "$T/stat.txt" && grep -q "fio.version = fio-" "$T/stat.txt"; then
	pass trace_header
else
	fail trace_header "$(head -n 20 "$T/stat.txt" | tr '\n' ' ')"
fi

# The header names the kernel and the ring's io_uring features, the ones
# this kernel has: DEFER_TASKRUN (6.1), a registered ring fd (5.18).
kver=$(uname -r)
kmm=$(echo "$kver" | awk -F. '{print $1 * 1000 + $2}')
feat=$(sed -n 's/^ *ring.features = //p' "$T/stat.txt")
want="CQSIZE"
[ "$kmm" -ge 6001 ] && want="$want COOP_TASKRUN SINGLE_ISSUER DEFER_TASKRUN"
[ "$kmm" -ge 5018 ] && want="$want REGISTERED_RING_FD"
missing=
for w in $want; do
	case ",$feat," in *",$w,"*) ;; *) missing="$missing $w";; esac
done
if grep -qxF "  kernel = $kver" "$T/stat.txt" && [ -n "$feat" ] && [ -z "$missing" ]; then
	pass trace_header_kernel_ring_features
else
	fail trace_header_kernel_ring_features "kernel $kver: ring.features '$feat' lacks:$missing"
fi

# IO on io-wq workers (force_async=1 punts every read there) of a fio job
# process under autogroup: the header says process or thread and the
# kernel's autogroup setting, the footer the job thread's io-wq workers and,
# for a job process with autogroup on, a writer in a session of its own
# (docs/trace.md, "What survives what"); nvanalyze's note that a writer in
# the job's group can stall that IO is for older traces (test_trace_wait).
ag=$(head -c 1 /proc/sys/kernel/sched_autogroup_enabled 2>/dev/null || echo none)
why=""
for mode in 0 1; do
	d=$T/iowq$mode
	mkdir -p "$d"
	nvfio --name=aq --filename="$F" --size=8M --rw=randread --iodepth=8 --number_ios=2000 \
		--force_async=1 --thread="$mode" --nv_trace="$d" >/dev/null 2>"$d.err" ||
		why="$why thread=$mode: fio failed: $(tail -n 2 "$d.err");"
	"$NVANALYZE" stat "$d"/*.nvt >"$d.stat" 2>&1 || why="$why thread=$mode: stat failed;"
	grep -qxF "  job.thread = $mode" "$d.stat" || why="$why thread=$mode: no job.thread;"
	case $ag in
	0|1) grep -qxF "  kernel.sched_autogroup = $ag" "$d.stat" ||
		why="$why thread=$mode: kernel.sched_autogroup not $ag;";;
	*) ! grep -q "kernel.sched_autogroup" "$d.stat" ||
		why="$why thread=$mode: kernel.sched_autogroup without the sysctl;";;
	esac
	workers=$(sed -n 's/^  iowq.workers = //p' "$d.stat")
	[ "${workers:-0}" -ge 1 ] || why="$why thread=$mode: iowq.workers '$workers';"
	# The writer of a job process under autogroup runs in a session of its
	# own, outside the job's group: the footer says so, and no note.
	own=0
	grep -qxF "  writer.process = own-session" "$d.stat" && own=1
	[ "$own" = $([ "$mode" = 0 ] && [ "$ag" = 1 ] && echo 1 || echo 0) ] ||
		why="$why thread=$mode autogroup=$ag: writer.process own-session $own;"
	note="the io-wq note, for a writer outside the group;"
	! grep -q "^tracing: .*ran on io-wq workers" "$d.stat" ||
		why="$why thread=$mode autogroup=$ag: $note"
done
[ -z "$why" ] && pass "trace_iowq_autogroup_writer (autogroup $ag)" ||
	fail trace_iowq_autogroup_writer "$why"

# The writer thread's scheduling class: normal unless nv_trace_sched says
# otherwise (idle here); every IO is in the trace, and the header says which.
traced sched_idle --name=sn --filename="$F" --size=16M --rw=randread \
	--iodepth=8 --number_ios=5000 --nv_trace_sched=idle
compare trace_sched_idle "$T/sched_idle.json" "$T/sched_idle"
if grep -q "engine.options = .*nv_trace_sched=normal" "$T/stat.txt" &&
   "$NVANALYZE" stat "$T"/sched_idle/*.nvt 2>&1 |
	grep -q "engine.options = .*nv_trace_sched=idle"; then
	pass trace_sched_in_header
else
	fail trace_sched_in_header "$(grep engine.options "$T/stat.txt")"
fi

# nv_trace_sync: by default the writer fdatasyncs every 1000 ms at most and
# once after the footer; the footer says the period and the syncs before
# it; 0 never syncs.  (What it buys after a power cut: tests/run power_loss.)
"$NVANALYZE" stat "$T"/sched_idle/*.nvt >"$T/sync_default.stat" 2>&1
traced sync_off --name=so --filename="$F" --size=16M --rw=randread --iodepth=8 --number_ios=5000 \
	--nv_trace_sync=0
"$NVANALYZE" stat "$T"/sync_off/*.nvt >"$T/sync_off.stat" 2>&1
if grep -q "engine.options = .*nv_trace_sync=1000" "$T/sync_default.stat" &&
   grep -qx "  writer.sync_ms = 1000" "$T/sync_default.stat" &&
   grep -q "^  writer.syncs = [0-9]" "$T/sync_default.stat" &&
   grep -qx "  writer.sync_ms = 0" "$T/sync_off.stat" &&
   grep -qx "  writer.syncs = 0" "$T/sync_off.stat"; then
	pass trace_sync_option
else
	fail trace_sync_option \
		"$(grep -h 'writer.sync' "$T/sync_default.stat" "$T/sync_off.stat" | tr '\n' ' ')"
fi

# The trace clock: by default the TSC mapped to CLOCK_MONOTONIC where it is
# invariant (header clock.source = tsc, its rate; the footer says how far
# from CLOCK_MONOTONIC it was at its resyncs and at the end), else
# clock_gettime with the reason; nv_trace_clock=clock_gettime forces the
# fallback.  Either way the latencies agree with fio's (compare above).
traced clock_gettime --name=cg --filename="$F" --size=16M --rw=randread \
	--iodepth=8 --number_ios=5000 --nv_trace_clock=clock_gettime
compare trace_clock_gettime "$T/clock_gettime.json" "$T/clock_gettime"
"$NVANALYZE" stat "$T"/clock_gettime/*.nvt >"$T/stat_cg.txt" 2>&1
if grep -q "clock.source = clock_gettime" "$T/stat_cg.txt" &&
   grep -q "clock.source_why = nv_trace_clock=clock_gettime" "$T/stat_cg.txt" &&
   grep -q "engine.options = .*nv_trace_clock=clock_gettime" "$T/stat_cg.txt" &&
   ! grep -q "clock.tsc_" "$T/stat_cg.txt"; then
	pass trace_clock_fallback_option
else
	fail trace_clock_fallback_option "$(grep clock "$T/stat_cg.txt" | tr '\n' ' ')"
fi
err=$(sed -n 's/^  clock.tsc_max_seen_err_ns = //p' "$T/stat.txt")
if grep -q "clock.source = tsc" "$T/stat.txt"; then
	if grep -q "clock.tsc_hz = [1-9][0-9]*$" "$T/stat.txt" && [ -n "$err" ] &&
		[ "$err" -le 100000 ]; then
		pass trace_clock_tsc
	else
		fail trace_clock_tsc "$(grep clock "$T/stat.txt" | tr '\n' ' ')"
	fi
elif grep -q "clock.source = clock_gettime" "$T/stat.txt" &&
	grep -q "clock.source_why = ." "$T/stat.txt"; then
	skip trace_clock_tsc \
		"no invariant TSC here: $(sed -n 's/^  clock.source_why = //p' "$T/stat.txt")"
else
	fail trace_clock_tsc \
		"no clock.source in the header: $(grep clock "$T/stat.txt" | tr '\n' ' ')"
fi

# SIGKILL mid-run: readable up to the last complete block, loss reported.
mkdir -p "$T/kill"
nvfio --name=k --filename="$F" --size=64M --rw=randread --iodepth=8 --time_based --runtime=30 \
	--nv_trace="$T/kill" --nv_trace_block=1024 >"$T/kill.out" 2>&1 &
fpid=$!
sleep 3
pkill -KILL -P $fpid fio 2>/dev/null
kill -KILL $fpid 2>/dev/null
pkill -KILL -f -- "--nv_trace=$T/kill" 2>/dev/null
wait $fpid 2>/dev/null
tr=$(ls "$T"/kill/*.nvt 2>/dev/null | head -n 1)
if [ -n "$tr" ] && "$NVANALYZE" stat "$tr" >"$T/kill.stat" 2>"$T/kill.err"; then
	recs=$(sed -n 's/^records: *\([0-9]*\).*/\1/p' "$T/kill.stat" | head -n 1)
	if [ "${recs:-0}" -gt 1000 ] && grep -qi "truncated\|footer" "$T/kill.err"; then
		pass trace_sigkill_readable
	else
		fail trace_sigkill_readable \
			"records=${recs:-?}; stderr: $(head -n 3 "$T/kill.err" | tr '\n' ' ')"
	fi
else
	fail trace_sigkill_readable \
		"no trace or stat failed: $(tail -n 3 "$T/kill.err" 2>/dev/null | tr '\n' ' ')"
fi

# A full trace filesystem fails the job with a message naming the file.
if [ "$(id -u)" -eq 0 ] && mkdir -p "$T/full" &&
	mount -t tmpfs -o size=64k tmpfs "$T/full" 2>/dev/null; then
	nvfio --name=full --filename="$F" --size=64M --rw=randread --iodepth=8 \
		--number_ios=300000 --nv_trace="$T/full" --nv_trace_block=4096 >"$T/full.out" 2>&1
	rc=$?
	if [ $rc -ne 0 ] && [ $rc -lt 128 ] && grep -q "$T/full/full.1.nvt" "$T/full.out" &&
	   grep -qi "no space left" "$T/full.out"; then
		pass trace_enospc_fails_job
	else
		fail trace_enospc_fails_job \
			"rc=$rc: $(grep -i 'nvengine\|err' "$T/full.out" | head -n 3 |
				tr '\n' ' ')"
	fi
	if "$NVANALYZE" stat "$T"/full/*.nvt >"$T/full.stat" 2>&1 ||
		grep -qi "truncated\|footer" "$T/full.stat"; then
		pass trace_enospc_partial_readable
	else
		fail trace_enospc_partial_readable "$(tail -n 3 "$T/full.stat" | tr '\n' ' ')"
	fi
	umount "$T/full"
else
	skip trace_enospc_fails_job "needs root to mount a small tmpfs"
fi

# The disk fills while a block is half written, then space is freed: the
# writer cuts the half block off again, so the file ends at its last complete
# block (no unusable byte, no damage), the job's error says so, and once the
# space is back the same directory takes a whole trace.
if [ "$(id -u)" -eq 0 ] && mkdir -p "$T/half" &&
   mount -t tmpfs -o size=1m tmpfs "$T/half" 2>/dev/null; then
	head -c 900k /dev/zero >"$T/half/filler"
	nvfio --name=half --filename="$F" --size=64M --rw=randread --iodepth=8 --loops=20 \
		--nv_trace="$T/half" --nv_trace_block=4096 >"$T/half.out" 2>&1
	rc=$?
	rm "$T/half/filler"	# the space comes back
	"$NVANALYZE" stat "$T/half/half.1.nvt" >"$T/half.stat" 2>"$T/half.err"
	src=$?
	recs=$(sed -n 's/^records: //p' "$T/half.stat")
	if [ $rc -ne 0 ] && [ $rc -lt 128 ] &&
	   grep -q "block [0-9]* half written, [0-9]* of [0-9]* bytes: cut off" "$T/half.out" &&
	   [ $src -eq 0 ] && grep -q "footer: missing" "$T/half.stat" &&
	   ! grep -q "bytes unusable" "$T/half.stat" && [ -n "$recs" ] && [ "$recs" -gt 0 ] &&
	   [ $((recs % 4096)) -eq 0 ]; then
		pass trace_enospc_half_block_cut
		echo "info: $(grep -o 'write .*complete blocks)' "$T/half.out" | head -n 1)"
	else
		why="$(grep -i 'nvengine' "$T/half.out" | head -n 2) $(head -n 2 "$T/half.err")"
		fail trace_enospc_half_block_cut "rc=$rc stat=$src records=$recs: $(echo $why)"
	fi
	rm -f "$T/half"/*.nvt
	nvfio --name=half --filename="$F" --size=64M --rw=randread --iodepth=8 --number_ios=10000 \
		--nv_trace="$T/half" --nv_trace_block=4096 >"$T/half2.out" 2>&1
	rc=$?
	"$NVANALYZE" stat "$T/half/half.1.nvt" >"$T/half2.stat" 2>&1
	if [ $rc -eq 0 ] && grep -q "^records: 10000$" "$T/half2.stat" &&
	   grep -q "footer: present" "$T/half2.stat"; then
		pass trace_after_space_freed
	else
		fail trace_after_space_freed "rc=$rc: $(tail -n 2 "$T/half2.out" | tr '\n' ' ')"
	fi
	umount "$T/half"
else
	skip trace_enospc_half_block_cut "needs root to mount a small tmpfs"
fi

# nv_trace naming a directory whose parent is missing is refused at start,
# naming the parent; a missing last component is created, and said so.
nvfio --name=nd --filename="$F" --size=1M --rw=read \
	--nv_trace="$T/nonexistent/tr" >"$T/nd.out" 2>&1
rc=$?
if [ $rc -ne 0 ] && [ $rc -lt 128 ] && ! [ -e "$T/nonexistent" ] &&
	grep -q "nv_trace=$T/nonexistent/tr: its parent $T/nonexistent does not exist" \
		"$T/nd.out"; then
	pass trace_dir_missing
else
	fail trace_dir_missing "rc=$rc: $(tail -n 2 "$T/nd.out" | tr '\n' ' ')"
fi
nvfio --name=nc --filename="$F" --size=1M --rw=read --nv_trace="$T/created" >"$T/nc.out" 2>&1
rc=$?
if [ $rc -eq 0 ] && [ -f "$T/created/nc.1.nvt" ] &&
	grep -q "nvengine: created the trace directory $T/created" "$T/nc.out"; then
	pass trace_dir_created
else
	fail trace_dir_created \
		"rc=$rc: $(ls "$T/created" 2>&1) $(tail -n 2 "$T/nc.out" | tr '\n' ' ')"
fi
