# make demo, in the emulated-NVMe guest: the instance-family suite
# (jobs/instance/suite.fio, a short version: RUNTIME from /extra/demo.conf,
# the namespace as the whole device) run four times on the same 4 KiB-LBA
# namespace, after writing it once (so that neither side meets unallocated
# blocks first): twice through nvengine's passthrough path on its
# /dev/ngXnY (with traces), twice through the kernel block path, fio's own
# io_uring with direct=1 on its /dev/nvmeXnY, in the order A B B A.  Then a
# queue-depth sweep of 4k random read (/extra/sweep/randread-4k.fio, one
# job, iodepth 1 to 64, SWEEP_RUNTIME seconds a point) through both paths,
# the sides alternating point by point.  All through jobs/run, as a user
# runs them; the results come back in $RESULTS/passthrough-1,
# passthrough-2, block-1, block-2, sweep-passthrough and sweep-block.
# Progress lines go to the console, where tools/demo.sh shows them.
# vm-timeout: 1200
. /vm/lib.sh

progress() {
	echo "demo-progress: $*" >/dev/console
}

if ! why=$(engine_usable); then
	fail engine "$why"
	exit 1
fi
RUNTIME=3
SWEEP_RUNTIME=2
[ -f /extra/demo.conf ] && . /extra/demo.conf
export RUNTIME

# now_s: the guest's uptime in whole seconds, for the progress lines.
now_s() {
	cut -d. -f1 /proc/uptime
}

# suite PATH DEV [jobs/run options]: one run of the suite on DEV into
# $RESULTS/PATH.
suite() {
	_p=$1 _d=$2
	shift 2
	progress "$_p: instance suite on $_d (7 tests, ${RUNTIME}s each after the precondition)"
	if NVDEV=$_d sh /extra/jobs/run -o "$RESULTS/$_p" "$@" /extra/jobs/instance/suite.fio \
		2>"$RESULTS/$_p.err"; then
		if [ "$(fio_errors "$RESULTS/$_p/instance-suite.json")" = 0 ]; then
			pass "$_p"
			progress "$_p: done"
			return 0
		fi
		_errs=$(grep '"error" :' "$RESULTS/$_p/instance-suite.json" | tr -d ' \n')
		fail "$_p" "a job reported an error: $_errs"
	else
		fail "$_p" "jobs/run failed: $(tail_of "$RESULTS/$_p.err")"
	fi
	progress "$_p: FAILED, see $_p.err"
	return 1
}

# Like with like: a fresh namespace's first writes allocate blocks of QEMU's
# backing file, so the side run first paid for that in its precondition
# (-72.8% against the block side, an order effect).  Write the whole
# namespace once before either side (jobs/instance/precondition.fio through
# the block path, not compared): both sides' preconditions and tests then
# meet blocks that exist.
progress "prefill: writing the whole namespace once before both sides"
if NVDEV=$BLK_NS4K sh /extra/jobs/run -o "$RESULTS/prefill" -e io_uring \
	/extra/jobs/instance/precondition.fio 2>"$RESULTS/prefill.err"; then
	pass prefill
else
	fail prefill "jobs/run failed: $(tail_of "$RESULTS/prefill.err")"
	exit 1
fi
# Each side runs twice, in the order A B B A (A: DEMO_ORDER from demo.conf,
# passthrough by default): a drift over the boot (the emulation's speed
# changes with the host's load) then falls on both sides alike, and the two
# runs of one side measure how far the same test moves from run to run.
# Results in $RESULTS/SIDE-1 and SIDE-2.
passthrough() { suite "passthrough-$1" "$NG_NS4K"; }
block() { suite "block-$1" "$BLK_NS4K" -e io_uring; }
a=passthrough b=block
[ "${DEMO_ORDER:-passthrough}" = block ] && a=block b=passthrough
st=0
t0=$(now_s)
$a 1 || st=1
$b 1 || st=1
$b 2 || st=1
$a 2 || st=1
progress "instance suite: four runs in $(($(now_s) - t0))s"

# sweep_point SIDE QD DEV [jobs/run options]: the point iodepth=QD of the
# load curve on DEV into $RESULTS/sweep-SIDE, its line of jobs/run's
# FILE.points kept in ./sweep-SIDE.points (each jobs/run call writes only
# its own point's).
sweep_point() {
	_s=$1 _q=$2 _d=$3
	shift 3
	_o=$RESULTS/sweep-$_s
	_j=$_o/sweep-randread-4k@iodepth=$_q.json
	RUNTIME=$SWEEP_RUNTIME NVDEV=$_d sh /extra/jobs/run -o "$_o" --sweep "iodepth=$_q" \
		"$@" /extra/sweep/randread-4k.fio 2>>"$_o.err"
	_st=$?
	cat "$_o/sweep-randread-4k.points" >>"sweep-$_s.points" 2>/dev/null
	if [ $_st -ne 0 ]; then
		fail "sweep-$_s" "iodepth=$_q: jobs/run failed: $(tail_of "$_o.err")"
	elif [ "$(fio_errors "$_j")" != 0 ]; then
		fail "sweep-$_s" \
			"iodepth=$_q: a job reported an error: $(grep '"error" :' "$_j" |
				tr -d ' \n')"
	else
		return 0
	fi
	progress "sweep: $_s at iodepth=$_q FAILED, see sweep-$_s.err"
	return 1
}

# The load curve: 4k random read, one job, iodepth 1, 2, 4, ..., 64, through
# each path; what jobs/run --sweep iodepth=1..64 writes, one jobs/run call
# per point and side.  The sides alternate point by point (A B at iodepth 1,
# B A at 2, A B at 4, ...): a point's two sides run seconds apart, and a
# drift over the sweep falls on both alike.
sweep_passthrough() { sweep_point passthrough "$1" "$NG_NS4K"; }
sweep_block() { sweep_point block "$1" "$BLK_NS4K" -e io_uring; }
progress "sweep: 4k random read, iodepth 1 to 64, ${SWEEP_RUNTIME}s a point, the sides alternating"
t0=$(now_s)
first=$a second=$b
sweep_ok=1
for qd in 1 2 4 8 16 32 64; do
	progress "sweep: iodepth=$qd: $first then $second"
	if ! "sweep_$first" "$qd" || ! "sweep_$second" "$qd"; then
		sweep_ok=0
		break
	fi
	x=$first first=$second second=$x
done
for s in passthrough block; do
	[ ! -f "sweep-$s.points" ] ||
		mv "sweep-$s.points" "$RESULTS/sweep-$s/sweep-randread-4k.points"
done
if [ $sweep_ok = 1 ]; then
	pass sweep-passthrough
	pass sweep-block
	progress "sweep: 14 points in $(($(now_s) - t0))s"
else
	st=1
fi
exit $st
