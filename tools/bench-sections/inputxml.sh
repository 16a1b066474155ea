# shellcheck shell=bash
# tools/bench-sections/inputxml.sh: section 13 of `make bench`
# (BENCH_SECTIONS=inputxml), sourced by tools/bench.sh, whose settings and
# helpers (timed, log, die) it uses.

# --- 13. diskspd XML reports ---------------------------------------------------
# Three reports (tests/py/gen_diskspd_xml.py, diskspd's XmlResultParser layout):
# the real 6 KB one of tests/fixtures/diskspd (the base), about 1 MB (16
# threads x 4 targets x 42 Iops buckets) and 4 MB (64 threads); each read by
# `nvanalyze -f csv`, XML_ROUNDS rounds, the three alternating in each round.
section_inputxml() {
	local d=$W/inputxml i s
	mkdir -p "$d"
	cp "$TOP/tests/fixtures/diskspd/PerfKitBenchmarker__diskspd_result.xml" "$d/base.xml"
	python3 "$TOP/tests/py/gen_diskspd_xml.py" --threads 16 --targets 4 \
		--buckets 42 >"$d/small.xml"
	python3 "$TOP/tests/py/gen_diskspd_xml.py" --threads 64 --targets 4 \
		--buckets 42 >"$d/large.xml"
	for s in base small large; do
		stat -c %s "$d/$s.xml" >"$d/$s.size"
		cat "$d/$s.xml" >/dev/null
	done
	for i in $(seq 1 "$XML_ROUNDS"); do
		log "inputxml: round $i of $XML_ROUNDS"
		for s in base small large; do
			timed "$d/$s-$i" "$NVANALYZE" -f csv "$d/$s.xml" ||
				die "nvanalyze on $s.xml failed: $(tail -n 3 "$d/$s-$i.err")"
		done
	done
	rm -f "$d"/*.xml
}
