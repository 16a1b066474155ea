# shellcheck shell=bash
# tools/bench-sections/files.sh: section 1 of `make bench`
# (BENCH_SECTIONS=files), sourced by tools/bench.sh, whose settings and
# helpers (timed, log, die) it uses.

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
		order=$(round_order "$r" null uring uring_log nv_off nv_on nv_off1 nv_on1)
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
