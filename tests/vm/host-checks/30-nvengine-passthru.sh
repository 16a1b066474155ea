# Host side of cases/30-nvengine-passthru.sh: IO counts in fio's JSON, the
# traces against fio's totals, the IOPS beside fio's io_uring_cmd.
. "$TOP/tests/vm/host-lib.sh"

# ios NAME COND...: conditions on $VMRES/NAME.json (tests/py/lib/fiojson.py
# expect: PATH OP NUMBER, e.g. jobs/0/read/total_ios==4096)
ios() {
	local n=$1 out
	shift
	if ! [ -s "$VMRES/$n.json" ]; then
		fail "$n-counts" "no $n.json (the guest case failed first)"
		return
	fi
	out=$(pytool lib/fiojson expect "$VMRES/$n.json" "$@" 2>&1)
	if [ "$out" = ok ]; then pass "$n-counts"; else fail "$n-counts" "$out"; fi
}

# A kernel without passthrough: the block path jobs and their trace.
if [ -f "$VMRES/no-passthru" ]; then
	ios blk-randrw-verify 'jobs/0/write/total_ios+jobs/0/read/total_ios>=2048'
	ios blk-pi-randwrite-verify 'jobs/0/write/total_ios==1024' 'jobs/0/read/total_ios==1024'
	t=$(ls "$VMRES"/trace-blk/*.nvt 2>/dev/null | head -n 1)
	want=$(pytool lib/fiojson sum "$VMRES/blk-randrw-verify.json" jobs/0/read/total_ios \
		jobs/0/write/total_ios 2>/dev/null)
	got=$("$NVANALYZE" dump "$t" 2>/dev/null |
		awk -F, 'NR > 1 && ($6 == "read" || $6 == "write")' | wc -l)
	if [ -n "$t" ] && [ -n "$want" ] && [ "$got" = "$want" ]; then
		pass blk-trace-counts
	else
		fail blk-trace-counts \
			"trace ${t:-missing}: $got read/write records, fio total_ios ${want:-?}"
	fi
	exit 0
fi

for r in ns512 ns4k pi piext; do
	ios "$r-randwrite-verify" 'jobs/0/write/total_ios==2048' 'jobs/0/read/total_ios==2048'
	ios "$r-write-verify" 'jobs/0/write/total_ios==128' 'jobs/0/read/total_ios==128'
	ios "$r-randread" 'jobs/0/read/total_ios==4096'
	ios "$r-read" 'jobs/0/read/total_ios==128'
	# the trace holds exactly the IOs fio counted, and the same mean latency.
	# fio 3.33 stamps issue_time before the batch's io_uring_enter and the
	# completion after the engine's reap; the engine stamps after the enter
	# and at the reap, so its latencies are never longer.  In the TCG guest
	# a 32-command enter (emulated doorbell writes) takes long enough to make
	# that gap a few percent: the trace mean may be up to 10% below fio's
	# (the 2% agreement is checked on the host, tests/integration/engine_trace.sh).
	for t in "$VMRES/trace-$r"/rr*.nvt; do
		[ -f "$t" ] || { fail "$r-trace" "no randread trace"; continue; }
		if "$NVANALYZE" dump "$t" >"$TESTTMP/vm/$r.csv" 2>"$TESTTMP/vm/$r.err"; then
			out=$(pytool vm_trace_vs_fio "$TESTTMP/vm/$r.csv" \
				"$VMRES/$r-randread.json")
			if [ "$out" = ok ]; then pass "$r-trace-matches-fio"; else fail \
				"$r-trace-matches-fio" "$out"; fi
		else
			fail "$r-trace-matches-fio" \
				"nvanalyze dump: $(tail -n 2 "$TESTTMP/vm/$r.err")"
		fi
		# passthrough buffers go to DMA as they are: the engine asks fio for
		# page-aligned ones (a 4k IO then needs one PRP entry, not two)
		al=$("$NVANALYZE" stat "$t" 2>/dev/null | sed -n 's/^ *job.buf_align = //p' |
			head -n 1)
		if [ "$al" = 4096 ]; then
			pass "$r-buffers-page-aligned"
		else
			fail "$r-buffers-page-aligned" \
				"trace header job.buf_align = '${al:-missing}', want 4096"
		fi
		if grep -aq "file.0.nvme.model" "$t" &&
			grep -aq "smart.before.temperature_c" "$t"; then
			pass "$r-trace-identity-smart"
		else
			fail "$r-trace-identity-smart" \
				"trace header lacks device identity or SMART"
		fi
	done
done
ios ns4k-fixedbufs 'jobs/0/read/total_ios+jobs/0/write/total_ios>=1024'
ios pi-checks 'jobs/0/write/total_ios==1024' 'jobs/0/read/total_ios==1024'
ios pi-host-generated 'jobs/0/write/total_ios==1024' 'jobs/0/read/total_ios==1024'
ios piext-host-generated 'jobs/0/write/total_ios==1024'
ios piext-host-read 'jobs/0/read/total_ios==1024'
ios xpath-read-blk 'jobs/0/read/total_ios==256'
ios xpath-read-ng 'jobs/0/read/total_ios==256'
ios ns4k-hipri 'jobs/0/read/total_ios==2000'
ios zoned-seq-write-verify 'jobs/0/write/total_ios==256' 'jobs/0/read/total_ios==256'
ios trim-dsm 'jobs/0/trim/total_ios==16'
ios trim-dsm-8-ranges 'jobs/0/trim/total_ios==512'
t=$(ls "$VMRES"/trace-dsm/*.nvt 2>/dev/null | head -n 1)
if [ -n "$t" ] && [ "$("$NVANALYZE" dump "$t" 2>/dev/null | grep -c ',trim,0,')" = 512 ]; then
	pass trim-dsm-8-ranges-traced
else
	fail trim-dsm-8-ranges-traced "trace ${t:-missing}: not 512 successful trim records"
fi
ios write-zeroes 'jobs/0/write/total_ios==16'
ios verify-cmd 'jobs/0/write/total_ios==32'
# 256 writes, a flush after every 8th: fio 3.41 issues none after the last
# write (31), fio 3.33 counts 32 or more
ios flush 'jobs/0/sync/lat_ns/N>=31'
check_fio_json cmp-nvengine
check_fio_json cmp-io_uring_cmd
