#!/usr/bin/env bash
# Regenerate the fio outputs in this directory (see README.md).
#
#   tests/data/fio-json/generate.sh [OUTDIR]
#
# Runs the installed fio on small files under a temporary directory (the
# null, psync and io_uring engines; nothing needs a real device) and writes
# one output file per scenario.  The committed files are test inputs: the
# golden outputs in tests/golden/ depend on their exact numbers, so only
# regenerate them together with `UPDATE_GOLDEN=1 tests/run golden`.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
out=${1:-$here}
FIO=${FIO:-fio}
w=$(mktemp -d /tmp/fiogen.XXXXXX)
pids=()
cleanup() {
	local p
	for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
	rm -rf "$w"
}
trap cleanup EXIT

# Two jobs in two groups (stonewall): 4k random read, then 64k sequential
# write with an fsync every 16 writes (gives a "sync" direction).
cat >"$w/ab.fio" <<JOB
[global]
directory=$w
size=16m
runtime=2
[randread]
rw=randread
bs=4k
[seqwrite]
stonewall
rw=write
bs=64k
fsync=16
JOB
for i in 1 2 3; do
	"$FIO" --output-format=json --ioengine=psync "$w/ab.fio" >"$out/psync-run$i.json"
	"$FIO" --output-format=json --ioengine=io_uring "$w/ab.fio" >"$out/uring-run$i.json"
done

# json+ (latency bins), mixed random read/write 70/30, numjobs=2 without
# group_reporting: two jobs[] entries with the same name.
"$FIO" --output-format=json+ --name=randrw --ioengine=null --size=8m --bs=4k \
	--rw=randrw --rwmixread=70 --numjobs=2 >"$out/null-randrw-jsonplus.json"

# group_reporting over 4 jobs, custom percentile list (no p99.9, p99.99:
# they must print as missing), total-latency percentiles too.
"$FIO" --output-format=json --name=grouped --ioengine=null --size=32m --bs=4k \
	--rw=randread --numjobs=4 --group_reporting \
	--percentile_list=50:90:99 --lat_percentiles=1 >"$out/null-grouped-pctlist.json"

# unified_rw_reporting: "mixed" replaces read/write, and "both" adds it.
"$FIO" --output-format=json --name=unified --ioengine=null --size=8m --bs=4k \
	--rw=randrw --unified_rw_reporting=mixed >"$out/null-unified-mixed.json"
"$FIO" --output-format=json --name=unified --ioengine=null --size=8m --bs=4k \
	--rw=randrw --unified_rw_reporting=both >"$out/null-unified-both.json"

# trim direction.
"$FIO" --output-format=json --name=trim --ioengine=null --size=8m --bs=4k \
	--rw=randtrim >"$out/null-trim.json"

# status-interval snapshots: several JSON objects, the last is the final one.
"$FIO" --output-format=json --name=snap --ioengine=null --size=1g --bs=4k \
	--rw=read --time_based --runtime=3 --status-interval=1 >"$out/null-status-interval.json"

# json,normal: the JSON object followed by the human-readable report.
"$FIO" --output-format=json,normal --name=both --ioengine=null --size=8m --bs=4k \
	--rw=randread >"$out/null-json-normal.json"

# A job that fails (O_DIRECT open of /dev/zero: EINVAL): fio's error lines
# (stderr) before the JSON, "error" : 22, every counter zero.
"$FIO" --output-format=json --name=broken --ioengine=psync --direct=1 --bs=4k \
	--size=1m --filename=/dev/zero --rw=read >"$out/psync-error.json" 2>&1 || true

# fio's steady state (issue 27): iops mean and bw slope criteria attained
# (fio stops the job there), and one too strict to be attained; and fio's
# latency_target search (latency_depth ...).
"$FIO" --output-format=json --name=ss_iops --filename="$w/ssfile" --size=16M --rw=randread \
	--bs=4k --ioengine=psync --runtime=8 --time_based --steadystate=iops:60% \
	--steadystate_duration=2 >"$out/ss-iops-attained.json"
"$FIO" --output-format=json --name=ss_bw_slope --filename="$w/ssfile" --size=16M --rw=read \
	--bs=64k --ioengine=psync --runtime=8 --time_based --steadystate=bw_slope:30% \
	--steadystate_duration=2 >"$out/ss-bwslope-attained.json"
"$FIO" --output-format=json --name=ss_iops_strict --filename="$w/ssfile" --size=16M \
	--rw=randread --bs=4k --ioengine=psync --runtime=4 --time_based \
	--steadystate=iops:0.1% --steadystate_duration=2 >"$out/ss-iops-not-attained.json"
"$FIO" --output-format=json --name=lt --filename="$w/ssfile" --size=16M --rw=randread --bs=4k \
	--ioengine=libaio --iodepth=32 --runtime=4 --time_based --latency_target=200us \
	--latency_window=500ms --latency_percentile=99 >"$out/latency-target.json"

# etcd's fsync test, smaller (--size=2m): fdatasync after every write.  fio
# counts no sync IO ("sync": {"total_ios": 0}) but measures every fdatasync
# (its "lat_ns", N > 0); two runs to compare.
for i in 1 2; do
	"$FIO" --output-format=json --name=etcd-fsync --filename="$w/fdsfile" --size=2m \
		--bs=2300 --rw=write --ioengine=sync --fdatasync=1 >"$out/fdatasync-run$i.json"
	rm -f "$w/fdsfile"
done

# Client/server over loopback: two servers (127.0.0.1 and 127.0.0.2), one
# client run against both (per-host client_stats plus the "All clients"
# aggregate; each --client takes its own job file), and one against one.
for ip in 127.0.0.1 127.0.0.2; do
	"$FIO" --server=ip:$ip,18765 >/dev/null 2>&1 &
	pids+=($!)
done
sleep 1
cat >"$w/cs.fio" <<JOB
[global]
ioengine=null
size=16m
bs=4k
[cs-randread]
rw=randread
JOB
"$FIO" --output-format=json --client=ip:127.0.0.1,18765 "$w/cs.fio" \
	--client=ip:127.0.0.2,18765 "$w/cs.fio" >"$out/client-2hosts.json"
"$FIO" --output-format=json --client=ip:127.0.0.1,18765 "$w/cs.fio" >"$out/client-1host.json"
