# The engine (libnvengine.so) on a regular file in the guest's tmpfs: the
# engine loads in the guest with its libraries, and a random read/write job
# verifies with crc32c.  SKIPs with the reason when the engine was not built
# or fio cannot load it.
# vm-timeout: 90
. /vm/lib.sh

if ! why=$(engine_usable); then
	skip file-randrw-verify "$why"
	exit 0
fi
run_fio file-randrw-verify --name=file --ioengine="external:$NVENGINE_SO" \
	--filename=/tmp/nvengine-file --size=16M --rw=randrw --bs=4k --iodepth=8 \
	--verify=crc32c --verify_fatal=1
run_fio file-write-read --name=file --ioengine="external:$NVENGINE_SO" \
	--filename=/tmp/nvengine-file --size=16M --rw=write --bs=128k --iodepth=4 \
	--verify=crc32c --verify_fatal=1
rm -f /tmp/nvengine-file

# The trace header names the kernel and the io_uring features its ring has
# (checked against the kernel version on the host, host-checks/20-*.sh).
mkdir -p "$RESULTS/trace"
run_fio file-traced --name=tr --ioengine="external:$NVENGINE_SO" --filename=/tmp/nvengine-file \
	--size=4M --rw=randread --bs=4k --iodepth=8 --nv_trace="$RESULTS/trace"
rm -f /tmp/nvengine-file

# A name under /dev that is no device (every /dev/ng name before 5.13): fio
# would lay it out as a regular file in devtmpfs; refused on every kernel,
# and nothing is created there.
expect_fail dev-path-missing "/dev/ng9n9: no such device; a path under /dev must be a device" \
	--ioengine="external:$NVENGINE_SO" --name=m --filename=/dev/ng9n9 --size=32M --rw=randrw
[ -e /dev/ng9n9 ] && fail dev-path-nothing-created "/dev/ng9n9 exists" ||
	pass dev-path-nothing-created
if ! kernel_at_least 5 19; then
	expect_fail dev-path-names-kernel \
		"this kernel ($(uname -r)) has no NVMe generic char devices" \
		--ioengine="external:$NVENGINE_SO" --name=m --filename=/dev/ng9n9 \
		--size=32M --rw=randrw
fi
