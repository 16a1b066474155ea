# slowdisk.sh - sourced by tests that need a slow trace disk (after lib.sh):
# an ext4 file system on a loop device whose writes the blkio throttle of
# this shell's cgroup (v1 blkio.throttle.write_bps_device, or v2 io.max)
# holds to a rate; fio, started from this shell, inherits it.
#
#   slowdisk_make DIR BPS   mounts it at DIR; 0, or 1 with the reason in
#                           $slowdisk_why (a SKIP: no root, no loop device, no
#                           writable throttle); slowdisk_cleanup runs on EXIT
#   slowdisk_job_setup NAME BPS   for a traced fio job on it: the engine and
#                           nvanalyze built (else FAIL and exit), the disk at
#                           $T/slow (else SKIP NAME and exit), a 64 MiB $T/data
slowdisk_dev= slowdisk_mm= slowdisk_rule= slowdisk_dir= slowdisk_why=

slowdisk_cleanup() {
	[ -n "$slowdisk_rule" ] && echo "$slowdisk_mm 0" >"$slowdisk_rule" 2>/dev/null
	[ -n "$slowdisk_rule" ] && [ "${slowdisk_rule##*/}" = io.max ] &&
		echo "$slowdisk_mm wbps=max" >"$slowdisk_rule" 2>/dev/null
	[ -n "$slowdisk_dir" ] && mountpoint -q "$slowdisk_dir" && umount "$slowdisk_dir"
	[ -n "$slowdisk_dev" ] && losetup -d "$slowdisk_dev"
}

slowdisk_make() {
	local dir=$1 bps=$2 cg base
	if [ "$(id -u)" -ne 0 ] || ! command -v losetup >/dev/null ||
	   ! command -v mkfs.ext4 >/dev/null; then
		slowdisk_why="needs root, losetup and mkfs.ext4"
		return 1
	fi
	truncate -s 256M "$T/slowdisk.img"
	slowdisk_dev=$(losetup -f --show "$T/slowdisk.img") ||
		{ slowdisk_dev=; slowdisk_why="no free loop device"; return 1; }
	trap slowdisk_cleanup EXIT
	slowdisk_mm=$(lsblk -dno MAJ:MIN "$slowdisk_dev" | tr -d ' ')
	mkdir -p "$dir"
	mkfs.ext4 -q -F "$slowdisk_dev" && mount "$slowdisk_dev" "$dir" ||
		{ slowdisk_why="cannot make ext4 on $slowdisk_dev"; return 1; }
	slowdisk_dir=$dir
	cg=$(awk -F: '$2 == "blkio" { print $3 }' /proc/self/cgroup)
	if [ -n "$cg" ] && [ -w "/sys/fs/cgroup/blkio$cg/blkio.throttle.write_bps_device" ]; then
		slowdisk_rule=/sys/fs/cgroup/blkio$cg/blkio.throttle.write_bps_device
		echo "$slowdisk_mm $bps" >"$slowdisk_rule"
		return 0
	fi
	cg=$(awk -F: '$1 == "0" { print $3 }' /proc/self/cgroup)
	for base in /sys/fs/cgroup /sys/fs/cgroup/unified; do
		[ -w "$base$cg/io.max" ] && slowdisk_rule=$base$cg/io.max && break
	done
	[ -n "$slowdisk_rule" ] && echo "$slowdisk_mm wbps=$bps" >"$slowdisk_rule" && return 0
	slowdisk_rule=
	slowdisk_why="no writable blkio throttle for this shell's cgroup"
	return 1
}

slowdisk_job_setup() {
	if ! [ -f "$NVENGINE_SO" ] || ! [ -x "$NVANALYZE" ]; then
		fail setup "build first: make all unit ($NVENGINE_SO, $NVANALYZE)"
		exit 1
	fi
	slowdisk_make "$T/slow" "$2" || { skip "$1" "$slowdisk_why"; exit 0; }
	head -c 64M /dev/zero >"$T/data"
}
