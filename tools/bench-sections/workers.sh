# shellcheck shell=bash
# tools/bench-sections/workers.sh: section 11 of `make bench`
# (BENCH_SECTIONS=workers), sourced by tools/bench.sh, whose settings and
# helpers (timed, log, die) it uses.
# hosts_layout is in hosts.sh.

# --- 11. the full comparison on every core: -J 1, -J 2, stat -----------------
# Per configuration N:IOS (WORKERS_CONFIGS): N traces of IOS IOs in a
# many-host layout (hosts_layout: one job per host, so the trace join has N
# independent jobs), then WORKERS_ROUNDS rounds, the order reversed every
# other round, of `nvanalyze -J 1 -o DIR A`, `nvanalyze -J 2 -o DIR A` (the
# tables, trace sections, findings and figures) and `nvanalyze stat` on the
# N traces (decode and exact percentiles: the reference); also -J 1 without
# gnuplot (the analysis alone) and with `--figures svg` (no PNG).  Full mode's
# 4:32000000 against 4:4000000: whether peak memory stays flat from 16 M to
# 128 M IOs (flat_rows in tools/benchreport/analyzer.py).
section_workers() {
	local d=$W/workers c n ios r k order
	mkdir -p "$d"
	for c in $WORKERS_CONFIGS; do
		n=${c%%:*} ios=${c#*:}
		log "workers: $n traces x $ios IOs: -J 1, -J 2 and stat, $WORKERS_ROUNDS rounds"
		mkdir -p "$W/hosts"
		hosts_layout "$d/A-$n-$ios" "$n" "$ios"
		cat "$W/hosts/t$ios.nvt" >/dev/null
		for r in $(seq 1 "$WORKERS_ROUNDS"); do
			order=$(round_order "$r" j1 j2 stat j1s j1v)
			for k in $order; do
				rm -rf "$d/out"
				case $k in
				stat) timed "$d/$n-$ios-r$r-$k" "$NVANALYZE" stat \
					"$d/A-$n-$ios"/*/traces/suite/randread.1.nvt;;
				j1s) timed "$d/$n-$ios-r$r-$k" env PATH=/nonexistent \
					"$NVANALYZE" -J 1 -o "$d/out" "$d/A-$n-$ios";;
				j1v) timed "$d/$n-$ios-r$r-$k" "$NVANALYZE" -J 1 --figures svg \
					-o "$d/out" "$d/A-$n-$ios";;
				*) timed "$d/$n-$ios-r$r-$k" "$NVANALYZE" -J "${k#j}" -o "$d/out" \
					"$d/A-$n-$ios";;
				esac || die "workers: $k on $n traces failed:" \
					"$(tail -n 3 "$d/$n-$ios-r$r-$k.err")"
			done
		done
		grep -c "(exact)" "$d/$n-$ios-r1-j1.out" >"$d/$n-$ios.exact" || true
		rm -rf "$d/A-$n-$ios" "$d/out" "$W/hosts/t$ios.nvt"
	done
}
