# shellcheck shell=bash
# tools/bench-sections/memory.sh: section 5 of `make bench`
# (BENCH_SECTIONS=memory), sourced by tools/bench.sh, whose settings and
# helpers (timed, log, die) it uses.

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
