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
