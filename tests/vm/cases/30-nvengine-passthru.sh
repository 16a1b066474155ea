# nvengine's NVMe passthrough (/dev/ngXnY, IORING_OP_URING_CMD) on every
# namespace format of the test controller, plus its error paths.  The guest
# has no python: each fio run leaves its JSON in $RESULTS and
# tests/vm/host-checks/30-nvengine-passthru.sh checks IO counts, errors and
# traces on the host.  Data checks that need no JSON are done here.
# vm-timeout: 300
. /vm/lib.sh

if ! why=$(engine_usable); then
	skip all "$why"
	exit 0
fi
E="--ioengine=external:$NVENGINE_SO"

# --- a kernel without passthrough (5.10: no /dev/ngXnY, no uring_cmd) ------
# The passthrough jobs fail naming the kernel they need; the block path of
# the same namespaces still works (host-checks/30-*.sh checks the counts).
if why=$(no_passthru); then
	info kernel "$why"
	: >"$RESULTS/no-passthru"
	if kernel_at_least 5 13; then
		expect_fail old-kernel-passthru "NVMe passthrough needs Linux 5.19+" $E --name=p \
			--filename="$NG_NS4K" --rw=randread --size=1M
	else
		_want="$NG_NS4K: no such device.*this kernel ($(uname -r)) has no NVMe generic"
		_want="$_want char devices (/dev/ngXnY came in Linux 5.13; passthrough with"
		_want="$_want IORING_OP_URING_CMD needs 5.19 or later)"
		expect_fail old-kernel-ng-missing "$_want" \
			$E --name=p --filename="$NG_NS4K" --rw=randread --size=32M
	fi
	expect_fail old-kernel-cmd-type-blockdev \
		"cmd_type=nvme needs the NVMe generic char device.*this kernel ($(uname -r))" \
		$E --name=cb --filename="$BLK_NS4K" --cmd_type=nvme --rw=read --size=1M
	mkdir -p "$RESULTS/trace-blk"
	run_fio blk-randrw-verify $E --name=blk --filename="$BLK_NS4K" --direct=1 \
		--rw=randrw --bs=4k --size=8M --iodepth=16 --verify=crc32c --verify_fatal=1 \
		--nv_trace="$RESULTS/trace-blk"
	run_fio blk-pi-randwrite-verify $E --name=blkpi --filename="$BLK_PI" \
		--direct=1 --rw=randwrite --bs=4k --size=4M --iodepth=8 \
		--verify=crc32c --verify_fatal=1
	exit 0
fi

# zeroes_at BLK OFFSET_BYTES LEN_BYTES: the range reads back as zeroes
zeroes_at() {
	_a=$(dd if="$1" bs=4096 skip=$(($2 / 4096)) count=$(($3 / 4096)) iflag=direct 2>/dev/null |
		md5sum | cut -d' ' -f1)
	_b=$(dd if=/dev/zero bs=4096 count=$(($3 / 4096)) 2>/dev/null | md5sum | cut -d' ' -f1)
	[ "$_a" = "$_b" ]
}

# --- every format: the four basic workloads, verify, a trace --------------
for R in NS512 NS4K PI PIEXT; do
	r=$(echo "$R" | tr A-Z a-z)
	eval ng=\$NG_$R
	mkdir -p "$RESULTS/trace-$r"
	run_fio "$r-randwrite-verify" $E --name=$r --filename="$ng" \
		--rw=randwrite --bs=4k --size=8M --iodepth=16 --verify=crc32c --verify_fatal=1 \
		--nv_trace="$RESULTS/trace-$r"
	run_fio "$r-write-verify" $E --name=w$r --filename="$ng" --rw=write --bs=64k \
		--offset=8M --size=8M --iodepth=8 --verify=crc32c --verify_fatal=1
	run_fio "$r-randread" $E --name=rr$r --filename="$ng" --rw=randread --bs=4k --size=16M \
		--iodepth=32 --number_ios=4096 --nv_trace="$RESULTS/trace-$r"
	run_fio "$r-read" $E --name=sr$r --filename="$ng" --rw=read --bs=128k \
		--size=16M --iodepth=4
done

# ring options on passthrough
run_fio ns4k-fixedbufs $E --name=fb --filename="$NG_NS4K" --rw=randrw --bs=4k \
	--size=4M --iodepth=16 --fixedbufs --nonvectored=1 --verify=crc32c
run_fio ns4k-vectored $E --name=vec --filename="$NG_NS4K" --rw=randwrite --bs=8k \
	--size=4M --iodepth=8 --nonvectored=0 --verify=crc32c
run_fio ns4k-registerfiles-sqpoll $E --name=sq --filename="$NG_NS4K" \
	--rw=randread --bs=4k --size=4M --iodepth=8 --sqthread_poll=1
run_fio ns512-cmd-type $E --name=ct --filename="$NG_NS512" --cmd_type=nvme --rw=randread \
	--bs=512 --size=1M --iodepth=4
# polled completions (hipri): the guest kernel has nvme.poll_queues=1
run_fio ns4k-hipri $E --name=hp --filename="$NG_NS4K" --rw=randread --bs=4k --size=8M --iodepth=8 \
	--hipri --number_ios=2000
# direct=1 (as in job files written for block devices) is accepted on the
# char device, which refuses O_DIRECT itself: passthrough never caches
run_fio ns4k-direct1 $E --name=d1 --filename="$NG_NS4K" --direct=1 --rw=randrw --bs=4k --size=2M \
	--iodepth=8 --verify=crc32c
run_fio ns4k-fua $E --name=fua --filename="$NG_NS4K" --rw=randwrite --bs=4k --size=2M --iodepth=4 \
	--writefua=1 --readfua=1 --verify=crc32c

# separate metadata buffer, PI generated and stripped by the controller,
# checked by the controller on every command
run_fio pi-checks $E --name=pic --filename="$NG_PI" --rw=randwrite --bs=4k --size=4M --iodepth=8 \
	--pi_act=1 --pi_chk=GUARD,REFTAG,APPTAG --apptag=0x0888 \
	--apptag_mask=0xffff --verify=crc32c
# PI owned by the host (pi_act=0): the engine generates the tuples of each
# write into the separate metadata buffer (sized from bs), the device checks
# them, and both check them again on the reads of verify
run_fio pi-host-generated $E --name=pih --filename="$NG_PI" --rw=randwrite --bs=4k --size=4M \
	--iodepth=8 --pi_act=0 --pi_chk=GUARD,REFTAG,APPTAG --apptag=0x0777 --verify=crc32c
# extended LBAs without PRACT: data and metadata interleaved in 520-byte
# blocks, the engine's PI inside them, checked by the device on write and read
run_fio piext-host-generated $E --name=ext --filename="$NG_PIEXT" --rw=randwrite \
	--bs=4160 --size=4160k --iodepth=8 --pi_act=0 --pi_chk=GUARD,REFTAG
run_fio piext-host-read $E --name=ext --filename="$NG_PIEXT" --rw=randread --bs=4160 --size=4160k \
	--iodepth=8 --pi_act=0 --pi_chk=GUARD,REFTAG,APPTAG
expect_fail piext-verify-refused "which verify= would report as corrupt" $E --name=ev \
	--filename="$NG_PIEXT" --rw=randwrite --bs=4160 --size=4160k --pi_act=0 --verify=crc32c
# corrupted guards: pi_gen=0 leaves fio's bytes (ext LBA) or zeroes (separate
# metadata) where the PI belongs; the device's check refuses the write, and
# reads are caught by the device (pi_chk) and by the engine's own check
expect_fail piext-corrupt-guard-device "End-to-end Guard Check Error" $E --name=bad \
	--filename="$NG_PIEXT" --rw=write --bs=4160 --size=41600 --pi_act=0 \
	--pi_gen=0 --pi_chk=GUARD
run_fio pi-bad-write $E --name=bw --filename="$NG_PI" --rw=write --bs=4k --offset=16M --size=64k \
	--pi_act=0 --pi_gen=0
expect_fail pi-corrupt-guard-device-read "End-to-end Guard Check Error" $E --name=br \
	--filename="$NG_PI" --rw=read --bs=4k --offset=16M --size=64k --pi_act=0 --pi_chk=GUARD
expect_fail pi-corrupt-guard-host-read "PI guard check failed at block 0" $E --name=hr \
	--filename="$NG_PI" --rw=read --bs=4k --offset=16M --size=64k --pi_act=0

# zoned namespace: sequential writes from a zone's start follow the write
# pointer (no zone management needed), reads of the written zone verify
run_fio zoned-seq-write-verify $E --name=zn --filename="$NG_ZONED" --rw=write --bs=64k --size=16M \
	--iodepth=1 --verify=crc32c --verify_fatal=1

# --- data crosses paths: passthrough writes, block layer reads, and back ---
run_fio xpath-write-ng $E --name=x1 --filename="$NG_NS4K" --rw=write --bs=16k \
	--offset=32M --size=4M --verify=crc32c --do_verify=0 --randseed=4242
run_fio xpath-read-blk --name=x1 --ioengine=io_uring --direct=1 --filename="$BLK_NS4K" --rw=write \
	--bs=16k --offset=32M --size=4M --verify=crc32c --verify_only --randseed=4242
run_fio xpath-write-blk --name=x2 --ioengine=io_uring --direct=1 \
	--filename="$BLK_NS512" --rw=write --bs=16k --offset=32M --size=4M --verify=crc32c \
	--do_verify=0 --randseed=4343
run_fio xpath-read-ng $E --name=x2 --filename="$NG_NS512" --rw=write --bs=16k \
	--offset=32M --size=4M --verify=crc32c --verify_only --randseed=4343

# --- trim (Dataset Management, deallocate) reads back zeroes ---------------
dd if=/dev/urandom of="$BLK_NS4K" bs=4096 seek=12288 count=256 oflag=direct 2>/dev/null
if run_fio trim-dsm $E --name=t --filename="$NG_NS4K" --rw=trim --bs=64k \
	--offset=48M --size=1M; then
	if zeroes_at "$BLK_NS4K" $((48 << 20)) $((1 << 20)); then pass trim-reads-zeroes
	else fail trim-reads-zeroes "deallocated range does not read back as zeroes"; fi
fi

# several ranges per Dataset Management command (trim_ranges, with trims
# queued together by iodepth_batch_submit), traced one record per trim
mkdir -p "$RESULTS/trace-dsm"
dd if=/dev/urandom of="$BLK_NS4K" bs=1M seek=80 count=8 oflag=direct 2>/dev/null
if run_fio trim-dsm-8-ranges $E --name=dsm8 --filename="$NG_NS4K" --rw=randtrim \
	--bs=16k --offset=80M --size=8M --iodepth=16 --iodepth_batch_submit=8 --trim_ranges=8 \
	--nv_trace="$RESULTS/trace-dsm"; then
	if zeroes_at "$BLK_NS4K" $((80 << 20)) $((8 << 20)); then pass \
		trim-dsm-8-ranges-reads-zeroes
	else fail trim-dsm-8-ranges-reads-zeroes \
		"deallocated ranges do not read back as zeroes"; fi
fi
expect_fail trim-ranges-above-iodepth "trim_ranges=16 is more than iodepth=8" $E --name=tr \
	--filename="$NG_NS4K" --rw=randtrim --bs=4k --size=1M --iodepth=8 --trim_ranges=16

# --- write zeroes -----------------------------------------------------------
dd if=/dev/urandom of="$BLK_NS512" bs=4096 seek=16384 count=256 oflag=direct 2>/dev/null
if run_fio write-zeroes $E --name=z --filename="$NG_NS512" --rw=write \
	--write_mode=zeroes --bs=64k --offset=64M --size=1M; then
	if zeroes_at "$BLK_NS512" $((64 << 20)) $((1 << 20)); then pass write-zeroes-reads-zeroes
	else fail write-zeroes-reads-zeroes "range does not read back as zeroes"; fi
fi

# --- verify command and flush ---------------------------------------------
run_fio verify-cmd $E --name=vc --filename="$NG_NS4K" --rw=write \
	--write_mode=verify --bs=64k --size=2M
run_fio flush $E --name=fl --filename="$NG_NS4K" --rw=write --bs=4k --size=1M --fsync=8 --iodepth=4

# --- decoded NVMe errors ----------------------------------------------------
# QEMU's controller has no Write Uncorrectable: the device answers Invalid
# Command Opcode, and fio's error output carries the decoded status.
expect_fail invalid-opcode-decoded "Invalid Command Opcode (sct 0x0, sc 0x01), DNR" $E --name=u \
	--filename="$NG_NS4K" --rw=write --write_mode=uncor --bs=4k --size=64k
expect_fail unaligned-bs "is not a multiple of the LBA size 4096" $E --name=ua \
	--filename="$NG_NS4K" --rw=read --bs=512 --size=1M
expect_fail above-max-transfer "exceeds max transfer" $E --name=big \
	--filename="$NG_NS4K" --rw=read --bs=64M --size=64M
expect_fail md-buffer-too-small \
	"md_per_io_size=16 is smaller than the 64 metadata bytes" $E --name=md \
	--filename="$NG_PI" --rw=read --bs=4k --size=1M --pi_act=0 --md_per_io_size=16
expect_fail cmd-type-blockdev "cmd_type=nvme needs the NVMe generic char device" $E --name=cb \
	--filename="$BLK_NS4K" --cmd_type=nvme --rw=read --size=1M
expect_fail bad-write-mode "write_mode=bogus: use write, zeroes, uncor or verify" $E --name=wm \
	--filename="$NG_NS4K" --rw=write --write_mode=bogus --size=1M
expect_fail bad-pi-chk "pi_chk=GUARD,FOO" $E --name=pc --filename="$NG_PI" --rw=read --size=1M \
	--pi_chk=GUARD,FOO

# --- permission denied as a non-root user ----------------------------------
chmod 0600 "$NG_NS4K"
as_nobody "fio $E --name=perm --filename=$NG_NS4K --rw=read --size=1M" >"$RESULTS/perm.out" 2>&1
st=$?
if [ $st -ne 0 ] && [ $st -lt 128 ] &&
	grep -q "permission denied: NVMe passthrough needs root" "$RESULTS/perm.out"; then
	pass permission-denied
else
	fail permission-denied "status $st: $(tail_of "$RESULTS/perm.out")"
fi

# --- a mounted namespace is not written (allow_mounted_write) ---------------
mkdir -p /mnt/m
if command -v mke2fs >/dev/null && mke2fs -q -F "$BLK_NS512" >/dev/null 2>&1 &&
	mount -t ext2 "$BLK_NS512" /mnt/m 2>/dev/null; then
	expect_fail mounted-refused \
		"refusing to write to $NG_NS512: $BLK_NS512 is mounted on /mnt/m" $E --name=mw \
		--filename="$NG_NS512" --rw=write --size=1M
	run_fio mounted-read-allowed $E --name=mr --filename="$NG_NS512" --rw=read --size=1M
	umount /mnt/m
else
	skip mounted-refused "cannot make or mount an ext2 filesystem in the guest"
fi

# --- the same job through fio's own io_uring_cmd, for the IOPS log ---------
run_fio cmp-nvengine $E --name=cmp --filename="$NG_NS4K" --rw=randread --bs=4k \
	--size=64M --iodepth=32 --time_based --runtime=2
run_fio cmp-io_uring_cmd --name=cmp --ioengine=io_uring_cmd --cmd_type=nvme --filename="$NG_NS4K" \
	--rw=randread --bs=4k --size=64M --iodepth=32 --time_based --runtime=2
