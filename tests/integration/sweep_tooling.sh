#!/usr/bin/env bash
# jobs/run's load-curve shell tooling (issue 43 items 9, 11, 12), with
# fio's null engine (no device):
#  - SIGTERM of jobs/run mid-sweep leaves nothing in TMPDIR and the
#    running point "interrupted" in FILE.points;
#  - --search runs 12 points at most in its first phase too
#    (iodepth=1..65535, every point meeting the SLA), and an unsorted list
#    (numjobs=4,1,2,8) is searched in increasing order;
#  - --sweep with --rounds is refused before anything runs.
#  - bs values by fio's kb_base rules (item 2): KiB is 1000 bytes under the
#    default kb_base=1024, k 1000 under kb_base=1000, in sweep_bytes, in a
#    range's point names and in the logical block size check.
. "$(dirname "$0")/../lib.sh"
JR=$TOP/jobs/run
if ! command -v "$FIO" >/dev/null; then
	skip all "no fio: run 'make deps'"
	exit 0
fi
mkdir -p jobsdir
nj_job jobsdir/nj.fio
cat >jobsdir/long.fio <<'JOB'
[global]
ioengine=external:${NVENGINE_SO}
filename=${NVDEV}
rw=randread
bs=4k
size=1M
runtime=${RUNTIME}
time_based
nv_trace=${NVTRACE}

[long]
iodepth=1
JOB
export NVDEV=$T/jobsdir/nj.fio

# ---- SIGTERM mid-sweep: no temporary file left, the point marked ----
mkdir -p tmpdir
TMPDIR=$T/tmpdir RUNTIME=20 timeout 120 "$JR" -o "$T/sig" -e null --sweep iodepth=1,2 \
	jobsdir/long.fio 2>sig.err &
jr=$!
for _ in $(seq 600); do	# until the first point's fio runs
	grep -q 'point iodepth=1 ->' sig.err 2>/dev/null &&
		pgrep -f "$T/sig/jobsdir-long@iodepth=1.fio" >/dev/null && break
	sleep 0.1
done
kill -TERM "$jr"
wait "$jr"
st=$?
left=$(ls -A tmpdir)
fio_left=$(pgrep -f "$T/sig/jobsdir-long@iodepth=1.fio")
[ -n "$fio_left" ] && kill $fio_left
[ $st -eq 143 ] && [ -z "$left" ] && [ -z "$fio_left" ] &&
	pass sigterm_leaves_no_temp_files ||
		fail sigterm_leaves_no_temp_files "exit $st; in TMPDIR: $left; fio: $fio_left"
[ "$(cat sig/jobsdir-long.points 2>/dev/null)" = 'iodepth=1 interrupted: SIGTERM' ] &&
	pass sigterm_point_interrupted ||
		fail sigterm_point_interrupted "points: $(cat sig/jobsdir-long.points 2>&1)"

# ---- --search: 12 points at most in every phase ----
"$JR" -o sb -e null --search 'io_bytes<=1000000000000' --sweep iodepth=1..65535 \
	jobsdir/nj.fio 2>sb.err
st=$?
n=$(ls sb/*@*.json 2>/dev/null | wc -l)
[ $st -eq 0 ] && [ "$n" -eq 12 ] &&
	grep -q 'every point meets it, up to iodepth=2048 (stopped at 12 points); 12 points' \
		sb/jobsdir-nj.points &&
	pass search_bounded_to_12_points ||
		fail search_bounded_to_12_points \
			"exit $st, $n points: $(tail -n 1 sb/jobsdir-nj.points)"

# an unsorted list: numjobs=N does N MiB (group_reporting), so 2 meets
# io_bytes<=2500000 and 3 does not
"$JR" -o su -e null --search 'io_bytes<=2500000' --sweep numjobs=4,1,2,8 jobsdir/nj.fio \
	2>su.err
st=$?
ans='search io_bytes<=2500000: numjobs=2 meets it, numjobs=3 does not; 4 points'
[ $st -eq 0 ] && grep -qxF "$ans" su/jobsdir-nj.points && pass search_unsorted_list ||
	fail search_unsorted_list "exit $st: $(tail -n 1 su/jobsdir-nj.points; tail -n 2 su.err)"

# ---- --sweep with --rounds: refused before anything runs ----
"$JR" -o sr -e null --sweep iodepth=1,2 --rounds 2 jobsdir/nj.fio >sr.out 2>&1
st=$?
[ $st -eq 2 ] && [ ! -e sr ] && grep -q -- '--sweep and --rounds 2: .*-r 2' sr.out &&
	pass sweep_with_rounds_refused ||
	fail sweep_with_rounds_refused "exit $st: $(head -n 2 sr.out)"
# ---- bs values by fio's kb_base rules (issue 43 item 2) ----
# kb_base=1024 (fio's default): k is 1024, KiB 1000; kb_base=1000: k is
# 1000, KiB 1024.  sweep_bytes itself, then the points a range gives
bytes=$(die() { echo "die: $*"; exit 2; }; . "$TOP/jobs/sweep.sh"
	for b in 1024 1000; do sweep_kb_base=$b
		for v in 512 4k 4KB 64KiB 64kib 1m 1MiB 1g 1GiB; do
			printf '%s ' "$(sweep_bytes "$v")"; done; echo; done)
want="512 4096 4096 64000 64000 1048576 1000000 1073741824 1000000000 
512 4000 4000 65536 65536 1000000 1048576 1000000000 1073741824 "
[ "$bytes" = "$want" ] && pass bs_bytes_both_kb_bases ||
	fail bs_bytes_both_kb_bases "$(echo "$bytes" | tr '\n' ';')"
sed 's/^\[global\]$/[global]\nkb_base=1000/' jobsdir/nj.fio >jobsdir/kb1000.fio
pts() { NVDIRECT=0 "$JR" -n "$@" 2>&1 | sed 's/:.*//' | tr '\n' ' '; }
got="$(pts --sweep bs=1KiB..4KiB jobsdir/nj.fio)| $(pts --sweep bs=1KiB..4KiB jobsdir/kb1000.fio)"
got="$got| $(pts --sweep bs=2k..8k jobsdir/kb1000.fio)"
got="$got| $(pts --sweep bs=1k..2k jobsdir/nj.fio -- --kb_base=1000)"
want="jobsdir-nj@bs=1000 jobsdir-nj@bs=2000 jobsdir-nj@bs=4000 \
| jobsdir-kb1000@bs=1024 jobsdir-kb1000@bs=2048 jobsdir-kb1000@bs=4096 \
| jobsdir-kb1000@bs=2k jobsdir-kb1000@bs=4k jobsdir-kb1000@bs=8k \
| jobsdir-nj@bs=1k jobsdir-nj@bs=2k "
[ "$got" = "$want" ] && pass bs_range_points_both_kb_bases ||
	fail bs_range_points_both_kb_bases "$got"
NVDIRECT=0 "$JR" -n --sweep bs=4k jobsdir/nj.fio jobsdir/kb1000.fio >kbmix.out 2>&1
st=$?
[ $st -eq 2 ] && grep -q 'kb_base=1000,1024: a bs value would mean different sizes' kbmix.out &&
	pass bs_kb_bases_disagree || fail bs_kb_bases_disagree "exit $st: $(head -n 2 kbmix.out)"
# the logical block size check by fio's bytes: 4KiB is 4000 bytes
lbs=$(die() { :; }; . "$TOP/jobs/sweep.sh"; NVDIRECT=1 sweep_lbs "$NVDEV")
if [ -n "$lbs" ]; then
	NVDIRECT=1 "$JR" -n --sweep bs=4KiB jobsdir/nj.fio >kib.out 2>&1
	st=$?
	[ $st -eq 2 ] && grep -q 'bs=4KiB: 4000 bytes is not a multiple of the logical block' \
		kib.out && pass bs_kib_lba_check ||
			fail bs_kib_lba_check "exit $st: $(head -n 2 kib.out)"
else
	skip bs_kib_lba_check "no logical block size known for $NVDEV's filesystem"
fi
exit 0
