# make bench, section 2 (guest side): nvengine's passthrough against fio's
# own io_uring_cmd on the same namespace (NG_NS4K) and the same job, 4k
# randread at iodepth 1 and 32, nvengine with tracing off and on.  All
# configurations run once per round and the rounds alternate, so drift of
# the emulator hits every configuration alike (the order is reversed every
# other round).  Every fio run leaves RESULTS/rROUND-CONFIG-qdQD.json; the host
# (tools/bench_report.py) computes the medians and ratios.  The knobs come
# from /extra/bench-vm.conf (ROUNDS, RUNTIME, QDS), written by tools/bench.sh.
# When /extra/libnvengine-alt.so is present (BENCH_VM_ALT_SO), a fourth
# configuration alt_off runs that build with tracing off, for A/B tests of an
# engine change under the same conditions.
# vm-timeout: 1500
. /vm/lib.sh

ROUNDS=3 RUNTIME=2 QDS="1 32"
[ -f /extra/bench-vm.conf ] && . /extra/bench-vm.conf

if ! why=$(engine_usable); then
	skip all "$why"
	exit 0
fi
if ! [ -c "$NG_NS4K" ]; then
	fail all "no char device for NS4K (see 00-devices)"
	exit 0
fi
mkdir -p /tmp/trace
info config "rounds=$ROUNDS runtime=${RUNTIME}s qds=$QDS target=$NG_NS4K"

# one CONFIG QD ROUND: one fio run of the shared job through CONFIG.
one() {
	_c=$1 _q=$2 _r=$3
	case $_c in
	io_uring_cmd) _e="--ioengine=io_uring_cmd --cmd_type=nvme";;
	nv_off) _e="--ioengine=external:$NVENGINE_SO";;
	nv_on) _e="--ioengine=external:$NVENGINE_SO --nv_trace=/tmp/trace";;
	alt_off) _e="--ioengine=external:/extra/libnvengine-alt.so";;
	esac
	run_fio "r$_r-$_c-qd$_q" $_e --name=bench --filename="$NG_NS4K" --rw=randread --bs=4k \
		--size=64M --iodepth="$_q" --time_based --runtime="$RUNTIME"
	# keep the last trace of each qd for the host (bytes per IO), drop the rest
	if [ "$_c" = nv_on ]; then
		for _t in /tmp/trace/*.nvt; do
			[ -f "$_t" ] && mv "$_t" "$RESULTS/trace-qd$_q.nvt"
		done
	fi
}

r=1
while [ "$r" -le "$ROUNDS" ]; do
	order="io_uring_cmd nv_off nv_on"
	[ -f /extra/libnvengine-alt.so ] && order="$order alt_off"
	[ $((r % 2)) -eq 0 ] &&
		order=$(echo "$order" | awk '{for (i = NF; i > 0; i--) printf "%s ", $i}')
	for q in $QDS; do
		for c in $order; do
			one "$c" "$q" "$r"
		done
	done
	r=$((r + 1))
done
pass done
