#!/usr/bin/env bash
# A slow trace disk: the trace directory on an ext4 loop device whose writes
# blkio throttling (cgroup v1 blkio.throttle.write_bps_device, or cgroup v2
# io.max, of the cgroup fio runs in) holds to 128 KiB/s, far below what the
# job's trace needs.  The writer falls behind, the IO thread waits (memory
# stays bounded: fio's peak RSS no higher than with the trace on tmpfs, plus
# slack), nothing is dropped (records equal fio's total_ios, footer present),
# the footer records the wait (writer.io_wait_ns) and nvanalyze prints it as
# a finding, in `stat` and in the comparison.
. "$(dirname "$0")/../lib.sh"

if [ "$(id -u)" -ne 0 ] || ! command -v losetup >/dev/null || ! command -v mkfs.ext4 >/dev/null; then
	skip slow_trace_disk "needs root, losetup and mkfs.ext4"
	exit 0
fi
if ! [ -f "$NVENGINE_SO" ] || ! [ -x "$NVANALYZE" ]; then
	fail setup "build first: make all unit ($NVENGINE_SO, $NVANALYZE)"
	exit 1
fi
head -c 64M /dev/zero >"$T/data"
truncate -s 256M "$T/back.img"
dev=$(losetup -f --show "$T/back.img") || { skip slow_trace_disk "no free loop device"; exit 0; }
mm=$(lsblk -dno MAJ:MIN "$dev" | tr -d ' ')
rule=
cleanup() {
	[ -n "$rule" ] && echo "$mm 0" >"$rule" 2>/dev/null
	[ -n "$rule" ] && [ "${rule##*/}" = io.max ] && echo "$mm wbps=max" >"$rule" 2>/dev/null
	mountpoint -q "$T/slow" && umount "$T/slow"
	losetup -d "$dev"
}
trap cleanup EXIT
mkdir -p "$T/slow"
mkfs.ext4 -q -F "$dev" && mount "$dev" "$T/slow" || { fail setup "cannot make ext4 on $dev"; exit 1; }
# the blkio cgroup of this shell (fio inherits it): v1 blkio, else v2 io.max
cg=$(awk -F: '$2 == "blkio" { print $3 }' /proc/self/cgroup)
if [ -n "$cg" ] && [ -w "/sys/fs/cgroup/blkio$cg/blkio.throttle.write_bps_device" ]; then
	rule=/sys/fs/cgroup/blkio$cg/blkio.throttle.write_bps_device
	echo "$mm 131072" >"$rule"
else
	cg=$(awk -F: '$1 == "0" { print $3 }' /proc/self/cgroup)
	for base in /sys/fs/cgroup /sys/fs/cgroup/unified; do
		[ -w "$base$cg/io.max" ] && rule=$base$cg/io.max && break
	done
	[ -n "$rule" ] && echo "$mm wbps=131072" >"$rule" || rule=
fi
if [ -z "$rule" ]; then
	skip slow_trace_disk "no writable blkio throttle for this shell's cgroup"
	exit 0
fi

# job DIR NAME: 6 s of 4k randread at QD 16 on tmpfs-backed page cache,
# traced into DIR with small blocks (4 x 4096 records of buffer, so the
# writer's lag reaches the IO thread within a second); peak RSS into NAME.rss.
job() {
	/usr/bin/time -f "%M" -o "$T/$2.rss" "$FIO" --thread --ioengine="external:$NVENGINE_SO" \
		--name="$2" --filename="$T/data" --rw=randread --bs=4k --iodepth=16 --runtime=6 \
		--time_based --nv_trace="$1" --nv_trace_block=4096 --output-format=json \
		--output="$T/$2.json" >"$T/$2.out" 2>&1
}
job "$T/slow/t" slow
rc=$?
trace=$T/slow/t/slow.1.nvt
ios=$(json_get "$T/slow.json" jobs/0/read/total_ios 2>/dev/null)
"$NVANALYZE" stat "$trace" >"$T/slow.stat" 2>&1
recs=$(sed -n 's/^records: //p' "$T/slow.stat")
if [ $rc -eq 0 ] && [ -n "$ios" ] && [ "$recs" = "$ios" ] && grep -q "footer: present" "$T/slow.stat"; then
	pass nothing_dropped
else
	fail nothing_dropped "rc=$rc fio total_ios=$ios trace records=$recs: $(tail -n 2 "$T/slow.out" | tr '\n' ' ')"
fi
wait_ns=$(sed -n 's/^  writer.io_wait_ns = //p' "$T/slow.stat")
if [ -n "$wait_ns" ] && [ "$wait_ns" -gt 0 ]; then
	pass wait_recorded
else
	fail wait_recorded "writer.io_wait_ns=${wait_ns:-missing} in the footer"
fi
finding=$(grep '^finding: tracing held the IO loop for' "$T/slow.stat")
if [ -n "$finding" ] && grep -q "disk is too slow" <<<"$finding"; then
	pass wait_printed_by_stat
	echo "info: slow_trace_disk: ${finding#finding: }"
else
	fail wait_printed_by_stat "no finding in: $(grep -E 'writer|finding' "$T/slow.stat" | tr '\n' ' ')"
fi
"$NVANALYZE" "$T/slow.json" >"$T/compare.out" 2>&1
if grep -q "tracing held the IO loop for .* the trace directory's disk is too slow" "$T/compare.out"; then
	pass wait_printed_by_compare
else
	fail wait_printed_by_compare "$(head -n 5 "$T/compare.out" | tr '\n' ' ')"
fi

# The same job with the trace on the test's own directory: the slow disk
# costs no memory beyond the writer's fixed chunks (the IO thread waits).
job "$T/fast" fast
slow_kb=$(cat "$T/slow.rss") fast_kb=$(cat "$T/fast.rss")
"$NVANALYZE" stat "$T/fast/fast.1.nvt" >"$T/fast.stat" 2>&1
echo "info: slow_trace_disk: fio peak RSS $slow_kb KiB with the throttled disk, $fast_kb KiB without; $(grep -c '^finding' "$T/fast.stat") finding(s) without"
if [ "$slow_kb" -le $((fast_kb + 8192)) ]; then
	pass memory_bounded
else
	fail memory_bounded "peak RSS $slow_kb KiB on the slow disk against $fast_kb KiB"
fi
