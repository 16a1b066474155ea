# The suite summary and claims over fio runs made here: two runs of a job file
# with three jobs (4k random read, 128k sequential read, 4k random write, psync
# on a small file).  The first table printed has one row per job with the
# headline rule's metric; absolute and per-job claims give exit 0, 1 and 2 as
# documented; the JSON carries every number of the fio files (tests/py).
. "$(dirname "$0")/../lib.sh"

if ! command -v "$FIO" >/dev/null; then
	skip all "no fio"
	exit 0
fi
cat >"$T/suite.fio" <<-EOF
[global]
ioengine=psync
filename=$T/data
size=4m
[rand4k]
rw=randread
bs=4k
[seq128k]
stonewall
rw=read
bs=128k
[randwrite4k]
stonewall
rw=randwrite
bs=4k
EOF
for r in 1 2; do
	if ! "$FIO" --output-format=json --output="$T/run$r.json" "$T/suite.fio" \
		>"$T/fio$r.log" 2>&1; then
		fail "fio-run$r" "$(tail -n 3 "$T/fio$r.log" | tr '\n' ' ')"
		exit 0
	fi
done
A=$T/run1.json B=$T/run2.json

# the first table's rows: "| job · direction | metric | ..." after its header
first_table() {
	awk '/^\|/ { n++; if (n > 2) print; next } n { exit }' "$1"
}
"$NVANALYZE" "$A" "$B" >"$T/md" 2>"$T/err"
rows=$(first_table "$T/md" |
	awk -F'|' '{ gsub(/ /, "", $2); gsub(/ /, "", $3); print $2 "=" $3 }' | tr '\n' ' ')
if [ "$rows" = "rand4k·read=IOPS seq128k·read=bandwidth randwrite4k·write=IOPS " ] &&
   [ "$(grep -m1 '^###' "$T/md")" = "### Summary" ]; then
	pass "summary-first-one-row-per-job"
else
	fail "summary-first-one-row-per-job" "rows: $rows; $(head -c 300 "$T/md")"
fi
"$NVANALYZE" --summary both --format text "$A" "$B" >"$T/txt" 2>&1
n=$(awk '/^== Summary ==/ { on = 1; next } on && /^$/ { exit } on' "$T/txt" | tail -n +3 | wc -l)
if [ "$n" -eq 6 ]; then pass "summary-both-text"; else fail "summary-both-text" "$n rows"; fi

claim() {	# claim NAME WANT_EXIT CLAIM...
	local name=$1 want=$2 rc; shift 2
	local args=() c
	for c in "$@"; do args+=(--claim "$c"); done
	"$NVANALYZE" "${args[@]}" "$A" "$B" >"$T/$name.out" 2>"$T/$name.err"
	rc=$?
	if [ "$rc" -eq "$want" ]; then
		pass "$name"
	else
		fail "$name" "exit $rc, want $want: $(head -c 300 "$T/$name.err")"
	fi
}
claim claim-p95-1000s 0 'p95<=1000s'
claim claim-p95-1ns 1 'p95<=1ns'
claim claim-nomatch 2 'nomatch*:iops:+5%'
claim claim-bad-metric 2 'speed:+5%'
claim claim-per-job-met 0 'rand*:iops>=1' 'seq*:bw>=1kB/s'
# absolute claims are judged per run: 3 jobs x 2 runs rows, all not met
if [ "$(grep -c 'p95<=1ns .* not met' "$T/claim-p95-1ns.out")" -eq 6 ]; then
	pass "claim-table-rows"
else
	fail "claim-table-rows" \
		"$(grep 'p95<=1ns' "$T/claim-p95-1ns.out" | head -n 3 | tr '\n' ' ')"
fi

for f in "$A" "$B"; do
	n=$(basename "$f" .json)
	if ! "$NVANALYZE" --format json "$f" >"$T/$n.nv.json" 2>"$T/$n.err"; then
		fail "json-$n" "nvanalyze: $(head -c 200 "$T/$n.err")"
	elif out=$(pytool fio_values "$f" "$T/$n.nv.json" clat 2>&1); then
		pass "json-$n ($out)"
	else
		fail "json-$n" "$out"
	fi
done

# --buckets: exact shares from a trace, against a count of `nvanalyze dump`
if [ -f "$NVENGINE_SO" ]; then
	mkdir -p "$T/tr"
	if "$FIO" --name=job --ioengine=external:"$NVENGINE_SO" --filename="$T/data" --size=4m \
		--rw=randread --bs=4k --iodepth=4 --nv_trace="$T/tr" --output-format=json \
		--output="$T/traced.json" >"$T/fio-tr.log" 2>&1 &&
	   "$NVANALYZE" --format json --buckets 10us,50us,0.1ms "$T/traced.json" \
		>"$T/tb.json" 2>&1 &&
	   "$NVANALYZE" dump "$T"/tr/job.*.nvt >"$T/dump.csv" 2>&1; then
		if out=$(pytool trace_buckets "$T/tb.json" "$T/dump.csv" \
			10000 50000 100000 2>&1); then
			pass "buckets-from-traces ($out)"
		else
			fail "buckets-from-traces" "$out"
		fi
	else
		fail "buckets-from-traces" \
			"$(tail -n 3 "$T/fio-tr.log" "$T/tb.json" | tr '\n' ' ')"
	fi
else
	skip "buckets-from-traces" "no $NVENGINE_SO"
fi
rm -rf "$T/data" "$T/tr"
