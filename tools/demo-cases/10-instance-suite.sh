# make demo, in the emulated-NVMe guest: the instance-family suite
# (jobs/instance/suite.fio, a short version: RUNTIME from /extra/demo.conf,
# the 128 MiB namespace as the whole device) run twice on the same 4 KiB-LBA
# namespace: through nvengine's passthrough path on its /dev/ngXnY (with
# traces), then through the kernel block path, fio's own io_uring with
# direct=1 on its /dev/nvmeXnY.  Both through jobs/run, as a user runs them;
# the results come back in $RESULTS/passthrough and $RESULTS/block.
# Progress lines go to the console, where tools/demo.sh shows them.
# vm-timeout: 500
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

st=0
suite passthrough "$NG_NS4K" || st=1
suite block "$BLK_NS4K" -e io_uring || st=1
exit $st
