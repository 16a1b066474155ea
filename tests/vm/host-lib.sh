# Helpers for tests/vm/host-checks/*.sh (bash on the host, sourced).
# run.sh sets VMOUT (the whole results directory) and VMRES (this case's
# RESULTS directory, VMOUT/CASE).  Lines are named vm/SUITE/..., SUITE being
# the case name without its number, like the guest's lines.
SUITE=vm/$(basename "$0" .sh | sed 's/^[0-9]*-//')
mkdir -p "$TESTTMP/vm"
# shellcheck source=../lib.sh
. "$TOP/tests/lib.sh"

info() { echo "INFO: $SUITE/$1: $2"; }

# check_fio_json NAME: $VMRES/NAME.json is fio JSON in which every job has
# error 0 and moved data; PASS NAME-json, and an INFO line with the read and
# write IOPS (summed over jobs).  FAIL names what is wrong.
check_fio_json() {
	local f=$VMRES/$1.json errs bytes iops eng
	if ! [ -s "$f" ]; then
		fail "$1-json" "no $f"
		return
	fi
	if ! errs=$(pytool lib/fiojson sum "$f" 'jobs/*/error' 2>&1); then
		fail "$1-json" "not fio JSON: $(echo "$errs" | tail -n 1)"
		return
	fi
	bytes=$(pytool lib/fiojson sum "$f" 'jobs/*/read/io_bytes' 'jobs/*/write/io_bytes' \
		'jobs/*/trim/io_bytes')
	iops="read $(pytool lib/fiojson sum -f %.0f "$f" 'jobs/*/read/iops')"
	iops="$iops write $(pytool lib/fiojson sum -f %.0f "$f" 'jobs/*/write/iops')"
	if [ "$errs" != 0 ]; then
		fail "$1-json" "jobs report errors (sum $errs)"
	elif [ "$bytes" = 0 ]; then
		fail "$1-json" "no job moved any data"
	else
		pass "$1-json"
	fi
	eng=$(json_get "$f" 'jobs/0/job options/ioengine' 'global options/ioengine' 2>/dev/null ||
		echo '?')
	info "$1" "IOPS $iops ($eng)"
}
