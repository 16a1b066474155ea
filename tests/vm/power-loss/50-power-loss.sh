# The guest half of tests/integration/power_loss.sh (booted with boot.sh
# --drive --cuts, never by tests/vm/run.sh): a traced sequential read at QD 1
# whose trace goes to the ext4 file system on the nvdrive namespace (QEMU
# opens its image with cache=none); the host kills QEMU with SIGKILL a random
# moment after the "nvvm: cut-armed" line, then reads the image back.  A
# "nvvm-tick UPTIME" line on the console every 50 ms tells the host the
# guest's clock (/proc/uptime, CLOCK_BOOTTIME, = CLOCK_MONOTONIC here: no
# suspend) just before the cut.  The engine's options are its defaults
# except nv_trace_block=256 (a block every ~0.1 s at TCG's rate), so the
# cut tests the default nv_trace_sync.
# vm-timeout: 120
. /vm/lib.sh
if [ -z "${NVENGINE_SO:-}" ]; then	# (no engine_usable: one fio start less per boot)
	echo "nvvm: cut-armed no-engine" >/dev/console
	exit 0
fi
dev=
for c in /sys/class/nvme/nvme*; do
	[ "$(tr -d ' ' <"$c/serial")" = nvdrive ] || continue
	for n in "$c"/nvme*n1; do dev=/dev/$(basename "$n"); done
done
if [ -z "$dev" ] || ! mkdir -p /mnt/pl || ! mount -t ext4 "$dev" /mnt/pl; then
	fail power_loss "no ext4 file system on the nvdrive namespace (${dev:-none})"
	exit 1
fi
(
	while :; do
		read -r up _ </proc/uptime
		echo "nvvm-tick $up" >/dev/console
		sleep 0.05
	done
) &
fio --name=pl --ioengine="external:$NVENGINE_SO" --filename="$BLK_NS4K" --direct=1 \
	--rw=read --bs=4k --iodepth=1 --time_based --runtime=100 \
	--nv_trace=/mnt/pl/t --nv_trace_block=256 >fio.out 2>&1 &
fio_pid=$!
while ! [ -s /mnt/pl/t/pl.1.nvt ]; do
	if ! kill -0 "$fio_pid" 2>/dev/null; then
		# the host reads this line back as a failure
		echo "nvvm: cut-armed fio-failed: $(tail_of fio.out)" >/dev/console
		exit 1
	fi
	sleep 0.05
done
echo "nvvm: cut-armed" >/dev/console
wait
fail power_loss "the run ended before the cut: $(tail_of fio.out)"
