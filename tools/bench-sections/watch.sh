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
# CPU and peak RSS (/usr/bin/time), and the post-run analysis of the watched
# run (`nvanalyze -f json` of its fio JSON): its CPU.  Then one watched run
# 4 times as long: the watcher's RSS against the run's length.  Then
# (issue 56) WATCH_ROUNDS rounds, for 4 and for 64 jobs, of a watched run
# without --listen (plain) and with --listen and a scraper GETting /metrics
# every 1 s (listen), the order alternated: the watcher's CPU of each.
# watch_run CFG PREFIX RUNTIME: one run as CFG (alone|alone2|watched).
watch_run() {
	local cfg=$1 p=$2 rt=$3 tr=$SHM/wtrace wpid= f
	rm -rf "$tr"
	mkdir -p "$tr"
	if [ "$cfg" = watched ]; then
		/usr/bin/time -f '%e %U %S %M' -o "$p-watch.time" "${PIN[@]+"${PIN[@]}"}" \
			"$NVANALYZE" watch --format jsonl "$tr" >"$p-watch.out" 2>"$p-watch.err" &
		wpid=$!
	fi
	timed "$p" "$FIO" --ioengine="external:$NVENGINE_SO" --output-format=json --name=nop \
		--filename="$SHM/f" --size="${FILE_MB}M" --rw=randread --bs=4k --iodepth=64 \
		--numjobs=4 --group_reporting --time_based --runtime="$rt" --nv_nop=1 \
		--nv_trace="$tr" || die "watch: fio $cfg failed: $(tail -n 3 "$p.err")"
	if [ -n "$wpid" ]; then	# it ends by itself once every footer is in
		wait "$wpid" || die "watch: the watch failed: $(tail -n 3 "$p-watch.err")"
		timed "$p-post" "$NVANALYZE" -f json "$p.out" ||
			die "watch: the post-run analysis failed: $(tail -n 3 "$p-post.err")"
		rm -f "$p-post.out"
	fi
	for f in "$tr"/*.nvt; do "$NVANALYZE" stat "$f"; done >"$p.stat" 2>&1 ||
		die "watch: cannot read the traces of $p"
	rm -rf "$tr"
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
	local d=$W/watch r c j
	mkdir -p "$d"
	[ -f "$SHM/f" ] || dd if=/dev/zero of="$SHM/f" bs=1M count="$FILE_MB" status=none
	log "watch: $WATCH_ROUNDS rounds of traced alone, watched, alone again"
	for r in $(seq 1 "$WATCH_ROUNDS"); do
		for c in $(round_order "$r" alone watched alone2); do
			watch_run "$c" "$d/r$r-$c" "$WATCH_RUNTIME"
		done
	done
	log "watch: one watched run of $((WATCH_RUNTIME * 4)) s"
	watch_run watched "$d/long" $((WATCH_RUNTIME * 4))
	for j in 4 64; do
		log "watch: $WATCH_ROUNDS rounds of $j jobs watched without and with --listen"
		for r in $(seq 1 "$WATCH_ROUNDS"); do
			for c in $(round_order "$r" plain listen); do
				listen_run "$c" "$d/j$j-r$r-$c" "$j"
			done
		done
	done
}
