# fio's own io_uring_cmd engine (fio 3.33) on the plain namespaces: proves
# the guest kernel's NVMe uring_cmd passthrough works before our engine is
# blamed, and gives the reference IOPS that the engine's passthrough cases
# are compared with.  Also the kernel block path (io_uring, O_DIRECT on the
# block device) with the same job, as the second reference.  fio 3.33's
# io_uring_cmd cannot drive namespaces formatted with metadata, so only
# NS512 and NS4K are used.  On a kernel without passthrough (before 5.19)
# only the block device job runs.  tests/vm/host-checks/10-fio-iouring-cmd.sh parses
# the JSON on the host and logs the IOPS.
# vm-timeout: 120
. /vm/lib.sh

for R in NS512 NS4K; do
	r=$(echo "$R" | tr A-Z a-z)
	eval ng=\$NG_$R blk=\$BLK_$R
	lbs=$(ns_prop "$r" logical_block_size)
	if why=$(no_passthru); then
		skip "$r-io_uring_cmd" "$why"
		run_fio "$r-randread-blockdev" --name="$r" --filename="$blk" --ioengine=io_uring \
			--direct=1 --rw=randread --bs=4k --size=64M --iodepth=32 \
			--time_based --runtime=2
		continue
	fi
	if ! [ -c "$ng" ]; then
		fail "$r" "no char device for $R (see 00-devices)"
		continue
	fi
	common="--name=$r --filename=$ng --ioengine=io_uring_cmd --cmd_type=nvme"
	# Write with LBA-sized blocks, then fio reads everything back and
	# checks the crc32c headers.
	run_fio "$r-randwrite-verify" $common --rw=randwrite --bs="$lbs" --size=4M \
		--iodepth=16 --verify=crc32c --verify_fatal=1
	run_fio "$r-write-verify" $common --rw=write --bs=64k --offset=8M --size=8M \
		--iodepth=8 --verify=crc32c --verify_fatal=1
	run_fio "$r-randread" $common --rw=randread --bs=4k --size=64M \
		--iodepth=32 --time_based --runtime=2
	run_fio "$r-randread-blockdev" --name="$r" --filename="$blk" --ioengine=io_uring \
		--direct=1 --rw=randread --bs=4k --size=64M --iodepth=32 --time_based --runtime=2
done
