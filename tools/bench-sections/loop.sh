# shellcheck shell=bash
# tools/bench-sections/loop.sh: section 7 of `make bench`
# (BENCH_SECTIONS=loop), sourced by tools/bench.sh, whose settings and
# helpers (timed, log, die) it uses.

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
		order=$(round_order "$r" nv_off nv_on)
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
