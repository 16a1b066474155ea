# shellcheck shell=bash
# tools/bench-sections/watch.sh: section 15 of `make bench`
# (BENCH_SECTIONS=watch), sourced by tools/bench.sh, whose settings and
# helpers (timed, log, die, round_order) it uses.

# --- 15. nvanalyze watch beside a traced run (issue 55) ------------------------
# WATCH_ROUNDS rounds of three traced runs of nv_nop 4 jobs x QD 64 on the
# tmpfs file, the order reversed every other round: without a watcher
# (alone), with `nvanalyze watch --format jsonl` on its trace directory
# (watched), and without again (alone2: the A/A pair).  fio's IOPS, the IO
# loop's waits from the traces' footers (`nvanalyze stat`), the watcher's
# CPU and peak RSS (/usr/bin/time), the post-run analysis of the watched
# run (`nvanalyze -f json` of its fio JSON): its CPU, and the watcher run
# again on the finished traces (rewatch: its work without fio beside it).
# The same rounds for the brief's jobs/randread.fio as users run it (direct
# IO, four 256 MiB files laid out in $W/watch/rr on the checkout's file
# system, traced into rr/traces), its runtime= cut to WATCH_RUNTIME in a
# copy (fio prefers the file's options to the command line's).  Then one
# watched nv_nop run 4 times as long: the watcher's RSS against the run's
# length; and a synthetic trace of WATCH_HOUR_S s of timestamps
# (tests/unit/gen_trace through the real writer, WATCH_HOUR_IOPS IOs per s,
# a block per s) and one of a quarter of that, each appended while the
# watcher follows it: its peak RSS against the length.  Then
# (issue 56) WATCH_ROUNDS rounds, for 4 and for 64 jobs, of a watched run
# without --listen (plain) and with --listen and a scraper GETting /metrics
# every 1 s (listen), the order alternated: the watcher's CPU of each.
# watch_run JOB CFG PREFIX RUNTIME: one run of JOB (nop|randread) as CFG
# (alone|alone2|watched).
watch_run() {
	local job=$1 cfg=$2 p=$3 rt=$4 tr=$SHM/wtrace wpid= f run=
	[ "$job" = nop ] || tr=$W/watch/rr/traces
	rm -rf "$tr"
	mkdir -p "$tr"
	if [ "$cfg" = watched ]; then
		/usr/bin/time -f '%e %U %S %M' -o "$p-watch.time" "${PIN[@]+"${PIN[@]}"}" \
			"$NVANALYZE" watch --format jsonl "$tr" >"$p-watch.out" 2>"$p-watch.err" &
		wpid=$!
	fi
	if [ "$job" = nop ]; then
		timed "$p" "$FIO" --ioengine="external:$NVENGINE_SO" --output-format=json \
			--name=nop --filename="$SHM/f" --size="${FILE_MB}M" --rw=randread --bs=4k \
			--iodepth=64 --numjobs=4 --group_reporting --time_based --runtime="$rt" \
			--nv_nop=1 --nv_trace="$tr" || run=failed
	else	# the job file's nv_trace=traces: rr/traces
		(cd "$W/watch/rr" && timed "$p" "$FIO" --ioengine="external:$NVENGINE_SO" \
			--output-format=json "$W/watch/randread-short.fio") || run=failed
	fi
	[ -z "$run" ] || die "watch: fio $job $cfg failed: $(tail -n 3 "$p.err")"
	if [ -n "$wpid" ]; then	# it ends by itself once every footer is in
		wait "$wpid" || die "watch: the watch failed: $(tail -n 3 "$p-watch.err")"
		# the post-run analysis finds the traces where fio's options say (rr/traces)
		(cd "$(dirname "$tr")" && timed "$p-post" "$NVANALYZE" -f json "$p.out") ||
			die "watch: the post-run analysis failed: $(tail -n 3 "$p-post.err")"
		rm -f "$p-post.out"
		[ "$job" != nop ] || post_beside "$p" "$tr" "$rt"
		timed "$p-rewatch" "$NVANALYZE" watch --format jsonl "$tr" ||
			die "watch: the watch of the finished traces failed: $(tail -n 3 \
				"$p-rewatch.err")"
		cmp -s "$p-watch.out" "$p-rewatch.out" ||
			die "watch: the watch of the finished traces printed other lines"
		rm -f "$p-rewatch.out"
	fi
	for f in "$tr"/*.nvt; do "$NVANALYZE" stat "$f"; done >"$p.stat" 2>&1 ||
		die "watch: cannot read the traces of $p"
	rm -rf "$tr"
}

# post_beside PREFIX TRACES RUNTIME: the post-run analysis of the watched
# run (PREFIX.out, its traces in TRACES) once more, beside a running fio as
# the watcher was: the same nv_nop job traced to a scratch directory, the
# analysis started 1 s into it (it takes well under the run's length).  Its
# time in PREFIX-postbeside.time: the watcher's CPU against the analysis'
# under the same contention for the 2 cores.
post_beside() {
	local p=$1 tr=$2 rt=$3 b=$SHM/wtrace-b fpid
	rm -rf "$b"
	mkdir -p "$b"
	"$FIO" --ioengine="external:$NVENGINE_SO" --output-format=json --name=nop \
		--filename="$SHM/f" --size="${FILE_MB}M" --rw=randread --bs=4k --iodepth=64 \
		--numjobs=4 --group_reporting --time_based --runtime="$rt" --nv_nop=1 \
		--nv_trace="$b" >"$p-beside-fio.out" 2>&1 &
	fpid=$!
	sleep 1
	(cd "$(dirname "$tr")" && timed "$p-postbeside" "$NVANALYZE" -f json "$p.out") ||
		die "watch: the post-run analysis beside fio failed: $(tail -n 3 \
			"$p-postbeside.err")"
	rm -f "$p-postbeside.out"
	wait "$fpid" || die "watch: fio beside the post-run analysis failed: $(tail -n 3 \
		"$p-beside-fio.out")"
	rm -rf "$b" "$p-beside-fio.out"
}

# watch_hour PREFIX SECS: a synthetic trace of SECS s of timestamps
# (WATCH_HOUR_IOPS IOs per s at QD 4, a block per s) appended by gen_trace
# through the real writer while the watcher follows it (it starts on the
# file 1 s after it appears: gen_trace's header names no numjobs); the
# watcher's /usr/bin/time in PREFIX-watch.time, the writer's in
# PREFIX-gen.time, the watcher's interval lines counted in PREFIX-intervals.
watch_hour() {
	local p=$1 secs=$2 tr=$SHM/htrace wpid
	rm -rf "$tr"
	mkdir -p "$tr"
	/usr/bin/time -f '%e %U %S %M' -o "$p-watch.time" "${PIN[@]+"${PIN[@]}"}" \
		"$NVANALYZE" watch --format jsonl "$tr" >"$p-watch.out" 2>"$p-watch.err" &
	wpid=$!
	/usr/bin/time -f '%e %U %S %M' -o "$p-gen.time" \
		"$GEN_TRACE" -p randread -q 4 -S $((4000000000 / WATCH_HOUR_IOPS)) \
		-b "$WATCH_HOUR_IOPS" -n $((secs * WATCH_HOUR_IOPS)) "$tr/hour.1.nvt" \
		>"$p-gen.out" 2>"$p-gen.err" || die "watch: gen_trace failed: $(cat "$p-gen.err")"
	wait "$wpid" || die "watch: the watch of the synthetic trace failed: $(tail -n 3 \
		"$p-watch.err")"
	grep -c '"type":"interval"' "$p-watch.out" >"$p-intervals" || true
	rm -rf "$tr" "$p-watch.out"
}

# listen_run CFG PREFIX JOBS: one traced nv_nop run of JOBS jobs x QD 64,
# WATCH_RUNTIME s, watched as CFG: plain (watch --format jsonl) or listen
# (the same with --listen 127.0.0.1:PORT --linger 0 and a 1 s scraper,
# its GETs counted in PREFIX-scrapes).  The watcher's CPU in PREFIX-watch.time.
listen_run() {
	local cfg=$1 p=$2 nj=$3 tr=$SHM/ltrace wpid spid= port extra=() n=0
	rm -rf "$tr"
	mkdir -p "$tr"
	if [ "$cfg" = listen ]; then
		port=$("${PYTHON:-python3}" "$TOP/tests/py/free_port.py" 127.0.0.1) ||
			die "watch: no free port for --listen"
		extra=(--listen "127.0.0.1:$port" --linger 0)
	fi
	/usr/bin/time -f '%e %U %S %M' -o "$p-watch.time" "${PIN[@]+"${PIN[@]}"}" \
		"$NVANALYZE" watch --format jsonl "${extra[@]+"${extra[@]}"}" "$tr" \
		>"$p-watch.out" 2>"$p-watch.err" &
	wpid=$!
	if [ "$cfg" = listen ]; then	# 1 s scrapes, as Prometheus at the watch's interval
		(
			i=0
			while [ $i -lt $((WATCH_RUNTIME + 60)) ] && kill -0 "$wpid" 2>/dev/null; do
				curl -s --max-time 5 -o /dev/null \
					"http://127.0.0.1:$port/metrics" && echo ok
				sleep 1
				i=$((i + 1))
			done >"$p-scrapes"
		) &
		spid=$!
	fi
	timed "$p" "$FIO" --ioengine="external:$NVENGINE_SO" --output-format=json --name=nop \
		--filename="$SHM/f" --size="${FILE_MB}M" --rw=randread --bs=4k --iodepth=64 \
		--numjobs="$nj" --group_reporting --time_based --runtime="$WATCH_RUNTIME" \
		--nv_nop=1 --nv_trace="$tr" ||
		die "watch: fio $cfg x$nj failed: $(tail -n 3 "$p.err")"
	wait "$wpid" || die "watch: the watch ($cfg) failed: $(tail -n 3 "$p-watch.err")"
	[ -z "$spid" ] || wait "$spid"
	for f in "$tr"/*.nvt; do "$NVANALYZE" stat "$f"; done >"$p.stat" 2>&1 ||
		die "watch: cannot read the traces of $p"
	rm -rf "$tr" "$p-watch.out"
}

section_watch() {
	local d=$W/watch r c j job
	mkdir -p "$d/rr"
	[ -f "$SHM/f" ] || dd if=/dev/zero of="$SHM/f" bs=1M count="$FILE_MB" status=none
	sed "s/^runtime=20$/runtime=$WATCH_RUNTIME/" "$TOP/jobs/randread.fio" \
		>"$d/randread-short.fio"
	grep -q "^runtime=$WATCH_RUNTIME$" "$d/randread-short.fio" ||
		die "watch: jobs/randread.fio has no runtime=20 line to shorten"
	for job in nop randread; do
		log "watch: $job, $WATCH_ROUNDS rounds of traced alone, watched, alone again"
		for r in $(seq 1 "$WATCH_ROUNDS"); do
			for c in $(round_order "$r" alone watched alone2); do
				if [ "$job" = nop ]; then
					watch_run nop "$c" "$d/r$r-$c" "$WATCH_RUNTIME"
				else
					watch_run randread "$c" "$d/rr-r$r-$c" "$WATCH_RUNTIME"
				fi
			done
		done
	done
	rm -rf "$d/rr"
	log "watch: one watched run of $((WATCH_RUNTIME * 4)) s"
	watch_run nop watched "$d/long" $((WATCH_RUNTIME * 4))
	log "watch: synthetic traces of $((WATCH_HOUR_S / 4)) and $WATCH_HOUR_S s, watched"
	watch_hour "$d/hour-quarter" $((WATCH_HOUR_S / 4))
	watch_hour "$d/hour-full" "$WATCH_HOUR_S"
	for j in 4 64; do
		log "watch: $WATCH_ROUNDS rounds of $j jobs watched without and with --listen"
		for r in $(seq 1 "$WATCH_ROUNDS"); do
			for c in $(round_order "$r" plain listen); do
				listen_run "$c" "$d/j$j-r$r-$c" "$j"
			done
		done
	done
}
