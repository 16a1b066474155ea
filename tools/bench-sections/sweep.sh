# shellcheck shell=bash
# tools/bench-sections/sweep.sh: section 10 of `make bench`
# (BENCH_SECTIONS=sweep), sourced by tools/bench.sh, whose settings and
# helpers (timed, log, die) it uses.

# --- 10. a sweep's analysis: all points at once vs one at a time --------------
# The inputs, made once: two runs (A, B) of a 9-point iodepth sweep, as
# jobs/run --sweep iodepth=1..256 writes them (per point FILE@iodepth=Q.json,
# json+, and its trace in traces/FILE/), 4k randread of the tmpfs file through
# nvengine, traced, SWEEP_IOS IOs a point and run.  Then SWEEP_ROUNDS rounds,
# the order reversed every other round, of "whole": one `nvanalyze A B` on
# both runs' results directories, and "points": nine calls `nvanalyze
# A/FILE@iodepth=Q.json B/FILE@iodepth=Q.json`, one a point, each finding its
# two traces from its JSON as the whole call does.  Each point as its own
# JSON, not `nvanalyze -j 'sweep@iodepth=Q' A B`: with -j each of the nine
# calls would still read all 18 JSON files, work that analysing the points
# one at a time does not have.  The report takes per round whole / the sum of
# the nine calls, and the peak RSS of every call.
section_sweep() {
	local d=$W/sweep r q run order n
	mkdir -p "$d"
	[ -f "$SHM/f" ] || dd if=/dev/zero of="$SHM/f" bs=1M count="$FILE_MB" status=none
	# io_size with norandommap: SWEEP_IOS IOs whatever the file's size
	printf '[global]\nrw=randread\nbs=4k\nsize=%sM\nio_size=%sk\nnorandommap\nrandrepeat=0\n' \
		"$FILE_MB" "$((SWEEP_IOS * 4))" >"$d/sweep.fio"
	printf 'nv_trace=traces\n[sweep]\niodepth=1\n' >>"$d/sweep.fio"
	for run in A B; do
		log "sweep: run $run of the iodepth sweep ($SWEEP_QDS)," \
			"$SWEEP_IOS traced IOs a point"
		timed "$d/gen-$run" env NVDEV="$SHM/f" NVDIRECT=0 NVENGINE_SO="$NVENGINE_SO" \
			FIO="$FIO" "$TOP/jobs/run" -o "$d/$run" \
			--sweep "iodepth=$(echo $SWEEP_QDS | tr ' ' ,)" "$d/sweep.fio" ||
			die "sweep: jobs/run of run $run failed: $(tail -n 3 "$d/gen-$run.err")"
		for q in $SWEEP_QDS; do
			n=$(ls "$d/$run"/*@iodepth="$q".json 2>/dev/null | wc -l)
			[ "$n" = 1 ] || die "sweep: run $run has $n JSON files of iodepth $q"
		done
	done
	du -sb "$d"/A/traces "$d"/B/traces | awk '{s += $1} END {print s}' >"$d/traces.bytes"
	# the same (cached) start for every call
	cat "$d"/A/traces/*/* "$d"/B/traces/*/* >/dev/null
	log "sweep: $SWEEP_ROUNDS rounds of nvanalyze A B against the 9 points one at a time"
	date -u '+%Y-%m-%d %H:%M UTC' >"$d/date"
	cut -d' ' -f1-3 /proc/loadavg >"$d/loadavg-start"
	for r in $(seq 1 "$SWEEP_ROUNDS"); do
		# shellcheck disable=SC2086 # the QDs are words
		order=$(round_order "$r" whole $SWEEP_QDS)
		for q in $order; do
			if [ "$q" = whole ]; then
				timed "$d/r$r-whole" "$NVANALYZE" "$d/A" "$d/B" ||
					die "sweep: nvanalyze A B failed:" \
						"$(tail -n 3 "$d/r$r-whole.err")"
			else
				timed "$d/r$r-qd$q" "$NVANALYZE" "$d"/A/*@iodepth="$q".json \
					"$d"/B/*@iodepth="$q".json ||
					die "sweep: nvanalyze on iodepth $q failed:" \
						"$(tail -n 3 "$d/r$r-qd$q.err")"
			fi
		done
	done
	cut -d' ' -f1-3 /proc/loadavg >"$d/loadavg-end"
	rm -rf "$d"/A/traces "$d"/B/traces
}
