# shellcheck shell=bash
# tools/bench-sections/analyze.sh: section 4 of `make bench`
# (BENCH_SECTIONS=analyze), sourced by tools/bench.sh, whose settings and
# helpers (timed, log, die) it uses.

# --- 4. analyzer --------------------------------------------------------------
section_analyze() {
	local d=$W/analyze need avail i
	mkdir -p "$d"
	# ~5 bytes per IO; ask for twice that plus 1 GiB of slack
	need=$((ANA_IOS * 10 / 1024 + 1048576))
	avail=$(df -Pk "$d" | awk 'NR == 2 {print $4}')
	[ "$avail" -ge "$need" ] ||
		die "analyze: $d has $((avail / 1024)) MiB free," \
			"a $ANA_IOS-IO trace needs about $((need / 1024)) MiB (set BENCH_OUT)"
	log "analyze: generating a $ANA_IOS-IO trace (tests/unit/gen_trace, randread, QD 32)"
	timed "$d/gen" "$GEN_TRACE" -p randread -q 32 -n "$ANA_IOS" "$d/big.nvt" ||
		die "gen_trace failed: $(cat "$d/gen.err")"
	stat -c %s "$d/big.nvt" >"$d/big.size"
	cat "$d/big.nvt" >/dev/null	# the same (cached) start for every repeat
	for i in $(seq 1 "$ANA_REPEATS"); do
		log "analyze: nvanalyze stat, repeat $i"
		timed "$d/stat-$i" "$NVANALYZE" stat "$d/big.nvt" ||
			die "nvanalyze stat failed: $(cat "$d/stat-$i.err")"
	done
	rm -f "$d/big.nvt"

	log "analyze: ${JSON_MB} MB json+ file"
	mkdir -p "$SHM/jp"
	"$FIO" --ioengine="external:$NVENGINE_SO" --name=jp --directory="$SHM/jp" --size=16M \
		--rw=randrw --bs=4k --iodepth=8 --numjobs=4 --time_based --runtime=1 \
		--output-format=json+ >"$d/seed.json" 2>"$d/seed.err" ||
		die "json+ seed run failed: $(tail -n 3 "$d/seed.err")"
	rm -rf "$SHM/jp"
	python3 "$TOP/tools/bench_report.py" --grow-json "$d/seed.json" "$JSON_MB" \
		"$d/big.json" >"$d/big.json.info"
	cat "$d/big.json" >/dev/null
	for i in $(seq 1 "$ANA_REPEATS"); do
		timed "$d/json-$i" "$NVANALYZE" -f csv "$d/big.json" ||
			die "nvanalyze on json+ failed: $(tail -n 3 "$d/json-$i.err")"
	done
	stat -c %s "$d/big.json" >"$d/big.json.size"
	rm -f "$d/big.json"
}
