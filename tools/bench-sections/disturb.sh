# shellcheck shell=bash
# tools/bench-sections/disturb.sh: section 12 of `make bench`
# (BENCH_SECTIONS=disturb), sourced by tools/bench.sh, whose settings and
# helpers (timed, log, die) it uses.
# bench.sh's cleanup kills the busy loops in disturb_busy should a run fail.

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
			order=$(round_order "$r" off on off2)
			for c in $order; do
				disturb_run "$job" "$c" "$d/$job-r$r-$c"
			done
		done
		disturb_busy_stop
	done
	rm -rf "$d/rr"
}
