#!/usr/bin/env bash
# A slow fdatasync (nv_trace_sync) that never reaches the IO loop within the
# buffer (nv_trace_buffer_ms): the trace directory on an ext4 loop device
# whose writes the blkio throttle holds to 384 KiB/s (tests/slowdisk.sh), a
# job of 20000 IOPS traced in blocks of 1024 records and synced every 4 s,
# so each fdatasync writes 4 s of trace at once and takes seconds while the
# disk keeps up on average.  With nv_trace_buffer_ms=4000 the ring grows
# while the writer is in fdatasync and the IO loop never waits (footer
# writer.io_waits 0, `nvanalyze stat` shows the long fdatasync, the
# comparison's trace section shows 0 waits); the same job with the fixed
# ring (nv_trace_buffer_ms=0, 4 chunks: 0.2 s of this job) waits, and its
# finding names the disk and the longest fdatasync.  Asserts on counts and
# on the fdatasync being long enough to test anything (> 1 s), never on the
# IO loop's timing.
here=$(cd "$(dirname "$0")/.." && pwd)
. "$here/lib.sh"
. "$here/slowdisk.sh"
slowdisk_job_setup slow_fdatasync 393216

# job NAME BUFFER_MS: 10 s of 4k randread at 20000 IOPS traced into the slow
# disk; `nvanalyze stat` of the trace into NAME.stat.
job() {
	mkdir -p "$T/slow/$1"
	"$FIO" --thread --ioengine="external:$NVENGINE_SO" --name="$1" --filename="$T/data" \
		--rw=randread --bs=4k --iodepth=8 --rate_iops=20000 --runtime=10 --time_based \
		--nv_trace="$T/slow/$1" --nv_trace_block=1024 --nv_trace_sync=4000 \
		--nv_trace_buffer_ms="$2" --output-format=json --output="$T/$1.json" \
		>"$T/$1.out" 2>&1 &&
		"$NVANALYZE" stat "$T/slow/$1/$1.1.nvt" >"$T/$1.stat" 2>&1
}
key() { sed -n "s/^  writer.$2 = //p" "$T/$1.stat"; }

job buffered 4000 || fail buffered_job "$(tail -n 3 "$T/buffered.out" "$T/buffered.stat")"
max=$(key buffered fdatasync_max_ns) waits=$(key buffered io_waits)
echo "info: slow_fdatasync: buffered: longest fdatasync $((${max:-0} / 1000000)) ms," \
	"$(key buffered syncs) syncs, ring $(key buffered ring_high) of" \
	"$(key buffered ring_chunks) chunks, $waits waits"
if [ -n "$max" ] && [ "$max" -gt 1000000000 ]; then
	pass fdatasync_over_1s
else
	fail fdatasync_over_1s "longest fdatasync ${max:-missing} ns: the throttle did not slow it"
fi
if [ -n "$max" ] && [ "$max" -ge 3800000000 ]; then
	skip io_loop_never_waits "the fdatasync took $max ns, beyond the 4 s buffer's promise"
elif [ "$waits" = 0 ] && [ "$(key buffered ring_chunks)" -gt 4 ]; then
	pass io_loop_never_waits
else
	fail io_loop_never_waits \
		"writer.io_waits=${waits:-missing}, ring $(key buffered ring_chunks)"
fi
if grep -q "^tracing: IO loop held by tracing 0.000% of .* (0 waits)" "$T/buffered.stat" &&
   ! grep -q '^finding: tracing held' "$T/buffered.stat" &&
   "$NVANALYZE" "$T/buffered.json" 2>&1 |
	grep -q "^Tracing: IO loop held by tracing 0.000% .*(0 waits)"; then
	pass stat_and_compare_show_no_wait
else
	fail stat_and_compare_show_no_wait "$(grep -E '^(tracing|finding)' "$T/buffered.stat")"
fi

# the fixed ring: the same pause reaches the IO loop, and the finding says why
job fixed 0 || fail fixed_job "$(tail -n 3 "$T/fixed.out" "$T/fixed.stat")"
finding=$(grep '^finding: tracing held the IO loop for' "$T/fixed.stat")
echo "info: slow_fdatasync: fixed: longest fdatasync" \
	"$(($(key fixed fdatasync_max_ns) / 1000000)) ms, $(key fixed syncs) syncs," \
	"$(key fixed io_waits) waits"
if [ "$(key fixed io_waits)" -gt 0 ] 2>/dev/null && [ "$(key fixed ring_chunks)" = 4 ] &&
   grep -q "disk is too slow .*, its longest fdatasync [0-9.]* s" <<<"$finding"
then
	pass fixed_ring_waits_names_fdatasync
	echo "info: slow_fdatasync: fixed ring: ${finding#finding: }"
else
	fail fixed_ring_waits_names_fdatasync "waits=$(key fixed io_waits) finding: $finding"
fi
