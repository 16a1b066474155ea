# shellcheck shell=bash
# tools/bench-sections/inputtext.sh: section 14 of `make bench`
# (BENCH_SECTIONS=inputtext), sourced by tools/bench.sh, whose settings and
# helpers (timed, log, die) it uses.

# --- 14. reading fio's normal output: 10,000 jobs ---------------------------
# A real fio normal output (ioengine=null: randrw 4k and read 128k, a 17-level
# percentile_list), its job entries repeated with distinct names and pids
# (bench_report.py --grow-normal) to INPUT_JOBS jobs, to a quarter of them and
# to one job; INPUT_ROUNDS rounds, the order reversed every other round, of
# `nvanalyze --job randrw-0 -f csv` on each (the whole file read, one job's
# rows printed: the reading's time and memory; the one-job file gives the
# memory every call has), and of `nvanalyze -f csv` on the largest (every
# job's rows: the whole call, for reference).  And a page of INPUT_JOBS
# outputs (issue 57: bench_report.py --grow-page, a real CrystalDiskMark
# export pasted under ten headings, an article's ten machines of
# INPUT_JOBS/10 repeats each): `nvanalyze -f csv` on it, the whole call.
section_inputtext() {
	local d=$W/inputtext r k order
	mkdir -p "$d"
	{
		printf '[global]\nioengine=null\nsize=64m\npercentile_list=%s\n' \
			1:5:10:20:30:40:50:60:70:80:90:95:99:99.5:99.9:99.95:99.99
		printf '[randrw]\nrw=randrw\nbs=4k\n%s\n' '[seqread]\nrw=read\nbs=128k'
	} >"$d/seed.fio"
	(cd "$d" && "$FIO" seed.fio >seed.txt 2>seed.err) ||
		die "inputtext: fio failed: $(tail -n 3 "$d/seed.err")"
	for k in one:1 quarter:$((INPUT_JOBS / 4)) all:$INPUT_JOBS; do
		python3 "$TOP/tools/bench_report.py" --grow-normal "$d/seed.txt" "${k#*:}" \
			"$d/${k%%:*}.txt" >"$d/${k%%:*}.info"
		cat "$d/${k%%:*}.txt" >/dev/null
	done
	python3 "$TOP/tools/bench_report.py" --grow-page \
		"$TOP/tests/fixtures/cdm/CrystalDiskMark-Parser__20210622162528.txt" \
		"$INPUT_JOBS" "$d/page.md" >"$d/page.info"
	log "inputtext: fio normal output of $INPUT_JOBS jobs, $INPUT_ROUNDS rounds"
	for r in $(seq 1 "$INPUT_ROUNDS"); do
		order=$(round_order "$r" one quarter all full page)
		for k in $order; do
			case $k in
			full) timed "$d/full-r$r" "$NVANALYZE" -f csv "$d/all.txt";;
			page) timed "$d/page-r$r" "$NVANALYZE" -f csv "$d/page.md";;
			*) timed "$d/$k-r$r" "$NVANALYZE" --job randrw-0 -f csv "$d/$k.txt";;
			esac || die "inputtext: nvanalyze on $k failed:" \
				"$(tail -n 3 "$d/$k-r$r.err")"
		done
		rm -f "$d/full-r$r.out" "$d/page-r$r.out"
	done
	rm -f "$d"/one.txt "$d"/quarter.txt "$d"/all.txt "$d"/page.md
}
