# Host side of cases/10-fio-iouring-cmd.sh: every fio JSON it brought back
# parses, has no job error, moved data; logs the IOPS of fio's io_uring_cmd
# (passthrough) and io_uring on the block device side by side.
. "$TOP/tests/vm/host-lib.sh"

for r in ns512 ns4k; do
	for j in randwrite-verify write-verify randread randread-blockdev; do
		# a kernel without passthrough ran only the block device job
		[ "$j" != randread-blockdev ] && grep -q "^SKIP: fio-iouring-cmd/$r-io_uring_cmd" \
			"$VMOUT/summary" && continue
		check_fio_json "$r-$j"
	done
done
