#!/usr/bin/env bash
# The engine on regular files, tmpfs and a loop block device, driven by the
# installed fio; results checked in fio's JSON output.
. "$(dirname "$0")/../lib.sh"

if ! [ -f "$NVENGINE_SO" ]; then
	fail load "engine not built: $NVENGINE_SO"
	exit 1
fi

# jobcheck NAME JSON COND...: PASS when every condition on fio's JSON holds
# (tests/py/lib/fiojson.py expect: PATH OP NUMBER, e.g. jobs/0/read/total_ios==2048),
# FAIL with what does not and the jobs' IO counts otherwise.
jobcheck() {
	local name=$1 json=$2 out
	shift 2
	if out=$(pytool lib/fiojson expect "$json" "$@" 2>&1); then
		pass "$name"
	else
		fail "$name" "$(echo "$out" | tail -n 3 | tr '\n' ' ')"
	fi
}

# run NAME FIO-ARGS...: fio with the engine, JSON to $T/NAME.json, stderr to $T/NAME.err
run() {
	local name=$1; shift
	nvfio --output-format=json --output="$T/$name.json" "$@" 2>"$T/$name.err"
}

# --- the engine populates fio's buffers before the first IO (MADV_POPULATE_WRITE
# or a read and write of each page): the contents fio put there stay.  fio fills
# write buffers once (no refill_buffers), so a changed byte would reach the file.
if run pattern --name=pat --filename="$T/pat" --size=1M --bs=64k --rw=write --iodepth=4 \
	--buffer_pattern=0x5a17c3e1 --direct=1 &&
   printf '\x5a\x17\xc3\xe1' >"$T/pat.want" &&
   for _ in $(seq 18); do
	   cat "$T/pat.want" "$T/pat.want" >"$T/pat.2" && mv "$T/pat.2" "$T/pat.want"
   done &&
   cmp -s "$T/pat" "$T/pat.want"; then
	pass write_buffer_pattern_kept
else
	fail write_buffer_pattern_kept \
		"file $T/pat does not hold the pattern 5a17c3e1: $(od -A d -t x1 "$T/pat" 2>&1 |
			head -n 2 | tr '\n' ' ')"
fi

# --- acceptance: 256M randrw with crc32c verify, O_DIRECT -------------------
if run verify256 --name=v --filename="$T/x" --size=256M --rw=randrw \
	--verify=crc32c --direct=1; then
	jobcheck verify_crc32c_randrw_256M "$T/verify256.json" \
		jobs/0/error==0 jobs/0/read/total_ios'>0' jobs/0/write/total_ios'>0'
else
	fail verify_crc32c_randrw_256M "fio exit $?: $(tail -n 3 "$T/verify256.err")"
fi
rm -f "$T/x"

# --- md5 verify with fixed buffers and registered files -----------------------
run md5 --name=m --filename="$T/m" --size=32M --rw=randwrite --bs=16k --iodepth=16 \
	--verify=md5 --fixedbufs --registerfiles --direct=1
jobcheck verify_md5_fixedbufs_registerfiles "$T/md5.json" \
	jobs/0/error==0 jobs/0/write/total_ios==2048 jobs/0/read/total_ios==2048

# --- numjobs=4 thread=1 randrw: every IO accounted for -------------------------
run numjobs --name=n --directory="$T" --size=16M --rw=randrw --numjobs=4 --thread=1 \
	--iodepth=32 --verify=crc32c
jobcheck randrw_numjobs4_thread "$T/numjobs.json" \
	'#jobs==4' 'jobs/*/error==0' 'jobs/*/write/total_ios+jobs/*/read/total_ios>=4096'

# --- ring options: every combination completes the exact IO count -------------
for opt in "--sqthread_poll=1" "--nonvectored=0" "--nonvectored=1" "--force_async=2" \
	   "--fixedbufs=1 --nonvectored=0" \
	   "--iodepth_batch_submit=8 --iodepth_batch_complete_min=4"; do
	n=$(echo "$opt" | tr -c 'a-z0-9\n' '_' | sed 's/^_*//; s/_*$//')
	run "opt_$n" --name=o --filename="$T/o" --size=8M --rw=randread --iodepth=16 $opt
	jobcheck "option_$n" "$T/opt_$n.json" jobs/0/error==0 jobs/0/read/total_ios==2048
done

# --- fsync / fdatasync become IORING_OP_FSYNC ---------------------------------
run fsync --name=f --filename="$T/f" --size=4M --rw=write --fsync=4 --iodepth=8
# 1024 writes, a sync after every 4th: fio 3.41 issues none after the last
# write (255, as with its own io_uring engine), 3.33 counts more.
jobcheck fsync_every_4 "$T/fsync.json" jobs/0/error==0 \
	jobs/0/write/total_ios==1024 'jobs/0/sync/lat_ns/N>=255'
run fdatasync --name=f --filename="$T/f" --size=4M --rw=write --fdatasync=4 --iodepth=8
jobcheck fdatasync_every_4 "$T/fdatasync.json" jobs/0/error==0 'jobs/0/sync/lat_ns/N>=255'

# --- trim on a file punches holes: the data reads back as zeroes --------------
head -c 4M /dev/urandom >"$T/t"
run trim --name=t --filename="$T/t" --size=4M --rw=trim --bs=64k
jobcheck trim_file "$T/trim.json" jobs/0/error==0 jobs/0/trim/total_ios==64
if cmp -s -n 4194304 "$T/t" /dev/zero; then
	pass trim_file_reads_zero
else
	fail trim_file_reads_zero "data still there after trim"
fi

# --- size= larger than the file: laid out like fio's own engines ---------------
head -c 1M /dev/zero >"$T/small"
run bigsize --name=b --filename="$T/small" --size=8M --rw=read
jobcheck size_larger_than_file "$T/bigsize.json" jobs/0/error==0 jobs/0/read/total_ios==2048

# --- a loop block device: direct randrw verify and BLKDISCARD trim -------------
if [ "$(id -u)" -eq 0 ] && command -v losetup >/dev/null && truncate -s 64M "$T/loopimg" &&
   loopdev=$(losetup -f --show "$T/loopimg" 2>/dev/null); then
	run loop --name=l --filename="$loopdev" --size=32M --rw=randrw --verify=crc32c \
		--direct=1 --iodepth=16
	jobcheck blockdev_verify_crc32c "$T/loop.json" jobs/0/error==0 jobs/0/write/total_ios'>0'
	run looptrim --name=l --filename="$loopdev" --size=8M --rw=trim --bs=1M
	jobcheck blockdev_trim_blkdiscard "$T/looptrim.json" jobs/0/error==0 \
		jobs/0/trim/total_ios==8
	losetup -d "$loopdev"
else
	skip blockdev "no root or no free loop device"
fi

# --- bad input: clear errors, no crash -------------------------------------
expect_error() {	# NAME PATTERN FIO-ARGS...
	local name=$1 pat=$2; shift 2
	nvfio "$@" >"$T/$name.out" 2>&1
	local rc=$?
	if [ $rc -eq 0 ]; then
		fail "$name" "fio exited 0"
	elif [ $rc -ge 128 ]; then
		fail "$name" "fio died with signal $((rc-128))"
	elif grep -q -- "$pat" "$T/$name.out"; then
		pass "$name"
	else
		fail "$name" "no '$pat' in: $(tail -n 3 "$T/$name.out" | tr '\n' ' ')"
	fi
}
expect_error error_directory "nvengine: $T is a directory" --name=d \
	--filename="$T" --size=1M --rw=read
expect_error error_char_device "/dev/null is a character device but not an NVMe" --name=c \
	--filename=/dev/null --size=1M --rw=read
# a name under /dev that is no device: fio would lay it out as a regular
# file in devtmpfs; refused before anything is created there
devname=/dev/nvtest-missing-$$
expect_error error_dev_path_missing \
	"$devname: no such device; a path under /dev must be a device" --name=m \
	--filename="$devname" --size=1M --rw=randrw
if [ -e "$devname" ]; then
	fail dev_path_nothing_created "$devname exists after the refused job"
	rm -f "$devname"
else
	pass dev_path_nothing_created
fi
if : >"$devname" 2>/dev/null; then
	expect_error error_dev_path_regular_file \
		"$devname: a regular file under /dev, not a device" --name=m \
		--filename="$devname" --size=1M --rw=read
	rm -f "$devname"
else
	skip error_dev_path_regular_file "cannot create $devname"
fi
expect_error error_option_value "failed parsing nonvectored=abc" --name=o --filename="$T/o" \
	--size=1M --rw=read --nonvectored=abc
expect_error error_option_range "nonvectored" --name=o --filename="$T/o" --size=1M \
	--rw=read --nonvectored=7
expect_error error_registerfiles_open_files \
	"registerfiles (and sqthread_poll) need nr_files" --name=o --directory="$T" --nrfiles=4 \
	--openfiles=2 --size=1M --rw=read --registerfiles
expect_error error_trace_sched "failed parsing nv_trace_sched=fast" --name=o \
	--filename="$T/o" --size=1M --rw=read --nv_trace="$T" --nv_trace_sched=fast
expect_error error_trace_sync_range "nv_trace_sync" --name=o --filename="$T/o" --size=1M \
	--rw=read --nv_trace="$T" --nv_trace_sync=3600001
expect_error error_hipri_on_file "polled IO (hipri) is not supported here" --name=p \
	--filename="$T/o" --size=1M --rw=read --hipri

# --- nv_iowq_workers caps the ring's io-wq pools ------------------------------
# force_async + O_DIRECT: every read runs on an io-wq worker and sleeps there
# until the disk answers, so without a cap the kernel starts more workers.
# iowq_run CAP: runs the job in the background, prints the most iou-wrk
# threads seen in its processes (sampled every 0.1 s).
iowq_run() {
	local cap=$1 n=0 c pids
	nvfio --name=w --filename="$T/w" --size=32M --rw=randread --bs=4k --iodepth=16 --direct=1 \
		--force_async=1 --time_based --runtime=2 --nv_iowq_workers="$cap" \
		--nv_trace="$T/iowq$cap" --output-format=json --output="$T/iowq$cap.json" \
		2>"$T/iowq$cap.err" &
	for _ in $(seq 20); do
		sleep 0.1
		pids=$(pgrep -f "iowq$cap.json" | tr '\n' ' ')
		[ -n "$pids" ] || continue
		c=$(for p in $pids; do cat /proc/"$p"/task/*/comm 2>/dev/null; done |
			grep -c '^iou-wrk')
		[ "$c" -gt "$n" ] && n=$c
	done
	wait $!
	echo "$n"
}
mkdir -p "$T/iowq0" "$T/iowq1"
head -c 32M /dev/zero >"$T/w"
wcap=$(iowq_run 1)
wfree=$(iowq_run 0)
if ! grep -q '"error" : 0' "$T/iowq1.json" 2>/dev/null; then
	fail iowq_workers_cap "the capped job failed: $(tail -n 3 "$T/iowq1.err" | tr '\n' ' ')"
elif [ "$wcap" -gt 1 ]; then
	fail iowq_workers_cap "nv_iowq_workers=1 but $wcap iou-wrk threads ran (uncapped: $wfree)"
elif [ "$wfree" -le 1 ]; then
	skip iowq_workers_cap "without a cap the kernel ran $wfree worker here: nothing to cap"
else
	pass iowq_workers_cap
	echo "    INFO: io-wq workers: $wcap with nv_iowq_workers=1, $wfree without"
fi
if "$NVANALYZE" stat "$T"/iowq1/w.*.nvt 2>&1 | grep -q "engine.options = .*nv_iowq_workers=1"; then
	pass iowq_workers_in_trace_header
else
	fail iowq_workers_in_trace_header "no nv_iowq_workers=1 in the trace header of $T/iowq1"
fi
rm -f "$T/w"
expect_error error_iowq_workers_range "nv_iowq_workers" --name=o --filename="$T/o" --size=1M \
	--rw=read --nv_iowq_workers=70000

# --- nv_nop: every IO an IORING_OP_NOP through the ring, hooks and trace ------
# fio counts and the trace records every IO; the file is neither read nor
# written (a write job leaves its bytes as they were); verify is refused.
head -c 1M /dev/urandom >"$T/nop"
cp "$T/nop" "$T/nop.before"
mkdir -p "$T/noptr"
if run nop --name=nop --filename="$T/nop" --size=1M --bs=4k --rw=randwrite --iodepth=8 \
	--nv_nop=1 --nv_trace="$T/noptr"; then
	jobcheck nop_counts_every_io "$T/nop.json" jobs/0/write/total_ios==256 jobs/0/error==0
else
	fail nop_counts_every_io "the nv_nop job failed: $(tail -n 3 "$T/nop.err" | tr '\n' ' ')"
fi
if cmp -s "$T/nop" "$T/nop.before"; then
	pass nop_writes_nothing
else
	fail nop_writes_nothing "nv_nop=1 changed $T/nop: $(cmp "$T/nop" "$T/nop.before" 2>&1)"
fi
"$NVANALYZE" stat "$T"/noptr/nop.*.nvt >"$T/nop.stat" 2>&1
if grep -q "engine.options = .*nv_nop=1" "$T/nop.stat" &&
   grep -q "^records: 256$" "$T/nop.stat"; then
	pass nop_traced
else
	fail nop_traced "not 256 records with nv_nop=1 in the header:$(head -n 3 "$T/nop.stat" |
		tr '\n' ' ')"
fi
# nv_trace_ab=N (benchmarks): tracing on and off by turns every N
# completions; the footer has the job thread's CPU time per kind of window,
# the trace only the traced windows' IOs (every one of them).
mkdir -p "$T/abtr"
if run ab --name=ab --filename="$T/nop" --size=4M --bs=4k --rw=randread --iodepth=8 \
	--nv_nop=1 --nv_trace="$T/abtr" --nv_trace_ab=64; then
	"$NVANALYZE" stat "$T"/abtr/ab.*.nvt >"$T/ab.stat" 2>&1
	ab_kv() { sed -n "s/^  $1 = //p" "$T/ab.stat"; }
	on_w=$(ab_kv ab.on.windows) off_w=$(ab_kv ab.off.windows) on_ios=$(ab_kv ab.on.ios)
	off_ios=$(ab_kv ab.off.ios) on_cpu=$(ab_kv ab.on.cpu_ns) off_cpu=$(ab_kv ab.off.cpu_ns)
	recs=$(sed -n 's/^records: //p' "$T/ab.stat")
	if grep -q "engine.options = .*nv_trace_ab=64" "$T/ab.stat" &&
	   [ "$(ab_kv ab.window_ios)" = 64 ] &&
	   [ "${on_w:-0}" -ge 5 ] && [ "${off_w:-0}" -ge 5 ] &&
	   [ "${on_ios:-0}" -ge $((64 * on_w)) ] && [ "${off_ios:-0}" -ge $((64 * off_w)) ] &&
	   [ $((on_ios + off_ios)) -le 1024 ] && [ "${on_cpu:-0}" -gt 0 ] &&
	   [ "${off_cpu:-0}" -gt 0 ] &&
	   [ "${recs:-0}" -ge "$on_ios" ] && [ "$recs" -le $((1024 - off_ios)) ]; then
		pass trace_ab_windows
	else
		fail trace_ab_windows \
			"records $recs, on $on_w windows $on_ios IOs $on_cpu ns, off" \
			"$off_w windows $off_ios IOs $off_cpu ns (of 1024 IOs)"
	fi
else
	fail trace_ab_windows "the nv_trace_ab job failed: $(tail -n 3 "$T/ab.err" | tr '\n' ' ')"
fi
# nvanalyze says what such a trace is and keeps fio's figures for the job
out=$("$NVANALYZE" "$T/ab.json" 2>&1 >/dev/null)
if grep -q "was made with nv_trace_ab=64, a benchmark of tracing's cost" <<<"$out" &&
   grep -q "made with nv_trace_ab, which records every other window of IOs; using fio's" \
	<<<"$out"; then
	pass trace_ab_analyzed_as_such
else
	fail trace_ab_analyzed_as_such "nvanalyze said: $(echo "$out" | head -n 3 | tr '\n' ' ')"
fi
expect_error error_trace_ab_no_trace "nv_trace_ab=64 (a benchmark of tracing's cost) needs" \
	--name=o --filename="$T/o" --size=1M --rw=read --nv_trace_ab=64
expect_error error_trace_ab_ramp "needs nv_trace=DIR and no ramp_time" --name=o --filename="$T/o" \
	--size=1M --rw=read --nv_trace="$T/abtr" --nv_trace_ab=64 --ramp_time=1 --time_based \
	--runtime=2
# nv_trace_codec: zstd blocks (format 1.2) by default, zlib (format 1.1, for
# older readers) when asked; both read back with every IO.
for codec in zstd zlib; do
	mkdir -p "$T/codec-$codec"
	run "codec-$codec" --name=c --filename="$T/nop" --size=1M --bs=4k --rw=randread \
		--iodepth=4 --nv_trace="$T/codec-$codec" --nv_trace_codec=$codec
	"$NVANALYZE" stat "$T/codec-$codec"/c.*.nvt >"$T/codec-$codec.stat" 2>&1
done
if grep -q "^format: 1.2" "$T/codec-zstd.stat" && grep -q "^records: 256$" "$T/codec-zstd.stat" &&
   grep -q "^format: 1.1" "$T/codec-zlib.stat" && grep -q "^records: 256$" "$T/codec-zlib.stat" &&
   grep -q "nv_trace_codec=zlib" "$T/codec-zlib.stat"; then
	pass trace_codec_zstd_and_zlib
else
	got="zstd: $(grep -m1 '^format' "$T/codec-zstd.stat")"
	fail trace_codec_zstd_and_zlib "$got, zlib: $(grep -m1 '^format' "$T/codec-zlib.stat")"
fi
expect_error error_trace_codec "nv_trace_codec" --name=o --filename="$T/o" --size=1M --rw=read \
	--nv_trace="$T/codec-zstd" --nv_trace_codec=lz4
expect_error error_nop_verify "nv_nop=1 reads and writes nothing" --name=o --filename="$T/o" \
	--size=1M --rw=write --verify=crc32c --nv_nop=1

# io_uring switched off system-wide (Linux 6.6+): reported, not a crash.
if [ "$(id -u)" -eq 0 ] && [ -w /proc/sys/kernel/io_uring_disabled ]; then
	old=$(cat /proc/sys/kernel/io_uring_disabled)
	trap 'echo "$old" >/proc/sys/kernel/io_uring_disabled' EXIT
	echo 2 >/proc/sys/kernel/io_uring_disabled
	nvfio --name=u --filename="$T/o" --size=1M --rw=read >"$T/disabled.out" 2>&1
	rc=$?
	echo "$old" >/proc/sys/kernel/io_uring_disabled
	trap - EXIT
	if [ $rc -ne 0 ] && [ $rc -lt 128 ] &&
		grep -q "io_uring is disabled on this system (kernel.io_uring_disabled=2)" \
			"$T/disabled.out"; then
		pass error_io_uring_disabled
	else
		fail error_io_uring_disabled "rc=$rc: $(tail -n 3 "$T/disabled.out" | tr '\n' ' ')"
	fi
else
	skip error_io_uring_disabled "needs root and kernel.io_uring_disabled (Linux 6.6+)"
fi

# --- info: IOPS beside fio's own io_uring on tmpfs (a comparison, not a test) ---
shm=/dev/shm
if [ -d "$shm" ] && [ -w "$shm" ]; then
	f=$(mktemp "$shm/nvtest.XXXXXX")
	head -c 64M /dev/zero >"$f"
	for eng in "external:$NVENGINE_SO" io_uring; do
		"$FIO" --name=cmp --ioengine="$eng" --filename="$f" --size=64M \
			--rw=randread --bs=4k --iodepth=32 --time_based --runtime=2 \
			--output-format=json --output="$T/cmp.json" 2>/dev/null
		iops=$(json_get -f %d "$T/cmp.json" jobs/0/read/iops)
		echo "info: tmpfs 4k randread iodepth=32 ${eng##*/}: $iops IOPS"
	done
	rm -f "$f"
fi
