# make demo, in the emulated-NVMe guest: the instance-family suite
# (jobs/instance/suite.fio, a short version: RUNTIME from /extra/demo.conf,
# the namespace as the whole device) run four times on the same 4 KiB-LBA
# namespace, after writing it once (so that neither side meets unallocated
# blocks first): twice through nvengine's passthrough path on its
# /dev/ngXnY (with traces), twice through the kernel block path, fio's own
# io_uring with direct=1 on its /dev/nvmeXnY, in the order A B B A.  All
# through jobs/run, as a user runs them; the results come back in
# $RESULTS/passthrough-1, passthrough-2, block-1 and block-2.
# Progress lines go to the console, where tools/demo.sh shows them.
# vm-timeout: 900
. /vm/lib.sh

progress() {
	echo "demo-progress: $*" >/dev/console
}

if ! why=$(engine_usable); then
	fail engine "$why"
	exit 1
fi
RUNTIME=3
[ -f /extra/demo.conf ] && . /extra/demo.conf
export RUNTIME

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
		fail "$_p" "a job reported an error: $(grep '"error" :' "$RESULTS/$_p/instance-suite.json" | tr -d ' \n')"
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
$a 1 || st=1
$b 1 || st=1
$b 2 || st=1
$a 2 || st=1
exit $st
