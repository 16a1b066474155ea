# shellcheck shell=bash
# tools/bench-sections/cpu.sh: section 6 of `make bench`
# (BENCH_SECTIONS=cpu), sourced by tools/bench.sh, whose settings and
# helpers (timed, log, die) it uses.

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
		order=$(round_order "$r" nv_off1 nv_on1)
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
