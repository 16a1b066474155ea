# The guest sees every namespace of /vm/namespaces with the format QEMU was
# told to give it: char and block device present, LBA size, capacity,
# protection information and zoned model.
# vm-timeout: 30
. /vm/lib.sh

info nodes "$(ls /dev/nvme* /dev/ng* 2>/dev/null | tr '\n' ' ')"
info clocksource \
	"$(cat /sys/devices/system/clocksource/clocksource0/current_clocksource 2>/dev/null)"
info kernel "$(uname -r)"

[ -c "$NVT_CTRL" ] && pass controller || fail controller "no controller device $NVT_CTRL"
[ -b "$RESULTS_DEV" ] && pass results-disk ||
	fail results-disk "no results block device $RESULTS_DEV"

# check_ns NSID ROLE SIZE_MB: one namespace's devices and sysfs attributes.
check_ns() {
	R=$(echo "$2" | tr a-z A-Z)
	eval ng=\$NG_$R blk=\$BLK_$R
	if [ -z "$blk" ]; then
		fail "$2" "namespace $1 not found on the test controller"
		return
	fi
	q=/sys/block/${blk#/dev/}
	lbs=$(ns_prop "$2" logical_block_size)
	ms=$(ns_prop "$2" ms)
	mset=$(ns_prop "$2" mset)
	pi=$(ns_prop "$2" pi)
	zoned=$(ns_prop "$2" zoned)
	got_lbs=$(cat "$q/queue/logical_block_size")
	sectors=$(cat "$q/size")
	_info="$ng $blk nsid $(cat "$q/nsid") lbs $got_lbs size $((sectors / 2048))MiB"
	_info="$_info zoned $(cat "$q/queue/zoned")"
	info "$2" "$_info integrity $(cat "$q/integrity/format" 2>/dev/null)"

	if kernel_at_least 5 13; then
		[ -c "$ng" ] && pass "$2-chardev" ||
			fail "$2-chardev" "$ng is not a character device"
	else
		# /dev/ngXnY came in Linux 5.13
		[ -e "$ng" ] && fail "$2-no-chardev" "$ng exists on kernel $(uname -r)" ||
			pass "$2-no-chardev"
	fi
	[ "$(cat "$q/nsid")" = "$1" ] && pass "$2-nsid" ||
		fail "$2-nsid" "$blk has nsid $(cat "$q/nsid"), want $1"
	[ "$got_lbs" = "$lbs" ] && pass "$2-lba-size" ||
		fail "$2-lba-size" "$blk logical_block_size $got_lbs, want $lbs"

	if [ "${ms:-0}" = 0 ]; then
		# Plain namespaces: the whole backing file is data.
		[ "$sectors" = $(($3 * 2048)) ] && pass "$2-capacity" ||
			fail "$2-capacity" "$blk has $sectors sectors, want $(($3 * 2048))"
	elif [ "${mset:-0}" = 0 ]; then
		# Separate metadata with PI: the block layer generates and checks it.
		[ "$sectors" -gt 0 ] && pass "$2-capacity" ||
			fail "$2-capacity" "$blk has no capacity"
		want="T10-DIF-TYPE$pi-CRC"
		got=$(cat "$q/integrity/format" 2>/dev/null)
		[ "$got" = "$want" ] && pass "$2-integrity" ||
			fail "$2-integrity" "$blk integrity format '$got', want $want"
		got=$(cat "$q/integrity/protection_interval_bytes" 2>/dev/null)
		[ "$got" = "$lbs" ] && pass "$2-pi-interval" ||
			fail "$2-pi-interval" \
				"$blk integrity protection_interval_bytes '$got', want $lbs"
	else
		# Extended LBAs: the block layer cannot carry the interleaved
		# metadata, so it has no integrity profile; with PI-only
		# metadata (ms=8) it still does IO, with PRACT=1 (the
		# controller inserts and strips the PI).
		[ "$sectors" -gt 0 ] && pass "$2-capacity" ||
			fail "$2-capacity" "$blk has no capacity"
		got=$(cat "$q/integrity/format" 2>/dev/null)
		[ "$got" = none ] && pass "$2-no-integrity" ||
			fail "$2-no-integrity" \
				"$blk integrity format '$got', want none for extended LBAs"
	fi
	if [ "$zoned" = true ]; then
		got=$(cat "$q/queue/zoned")
		[ "$got" = host-managed ] && pass "$2-zoned" ||
			fail "$2-zoned" "$blk zoned model '$got', want host-managed"
		zs=$(ns_prop "$2" zoned.zone_size)
		want=$(( ${zs%M} * 2048 ))
		got=$(cat "$q/queue/chunk_sectors")
		[ "$got" = "$want" ] && pass "$2-zone-size" ||
			fail "$2-zone-size" "$blk chunk_sectors $got, want $want"
	fi
}

# Permission tests rely on the char devices being root-only, as udev leaves
# them on a real system.
if ! kernel_at_least 5 13; then
	skip nobody-denied "kernel $(uname -r) has no /dev/ngXnY (Linux 5.13+)"
elif out=$(as_nobody "id -u; cat $NG_NS512" 2>&1 >/dev/null); [ "$(as_nobody 'id -u')" = 65534 ] &&
	echo "$out" | grep -q 'Permission denied'; then
	pass nobody-denied
else
	fail nobody-denied "user nobody could open $NG_NS512 or su failed: $out"
fi

while read -r nsid role size _; do
	check_ns "$nsid" "$role" "$size"
done </vm/namespaces
