# For every fio JSON file (the real-world fixtures in ../shared/fixtures/fio-json
# and the outputs generated in tests/data/fio-json), `nvanalyze --format json
# FILE` must report, for every job and direction, the same IOPS, bandwidth,
# latency min/mean/max/stdev and percentiles, io_bytes, runtime, CPU, context
# switches, faults, bw/IOPS sample statistics, the job's error, fio's latency
# buckets and disk_util as the file itself, and the summary's headline
# numbers.  The expected values come from an independent reader in Python
# (tests/py/fio_values.py), straight from the file.
. "$(dirname "$0")/../lib.sh"

fixtures="$TOP/../shared/fixtures/fio-json"
files=()
if [ -d "$fixtures" ]; then
	files+=("$fixtures"/*.json)
else
	skip fixtures "no $fixtures"
fi
files+=("$TOP"/tests/data/fio-json/*.json "$TOP"/tests/data/fio-json/fio-3.41/*.json)

for f in "${files[@]}"; do
	name=$(basename "$f" .json)
	# other fio versions
	case $f in */fio-json/fio-*/*) name=$(basename "$(dirname "$f")")-$name;; esac
	for lat in clat lat; do
		if ! "$NVANALYZE" --format json --lat "$lat" "$f" >"$T/$name.$lat.json" \
			2>"$T/$name.err"; then
			# --lat asks for a statistic; fio 2.x files or idle jobs may lack it
			if [ "$lat" = lat ] && grep -q "has no lat statistics" "$T/$name.err"; then
				continue
			fi
			fail "$name/$lat" \
				"nvanalyze exited non-zero: $(head -c 300 "$T/$name.err")"
			continue
		fi
		if out=$(python3 "$TOP/tests/py/fio_values.py" "$f" \
			"$T/$name.$lat.json" "$lat" 2>&1); then
			pass "$name/$lat ($out)"
		else
			fail "$name/$lat" "$out"
		fi
	done
done
