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
	local f=$VMRES/$1.json errs bytes iops
	if ! [ -s "$f" ]; then
		fail "$1-json" "no $f"
		return
	fi
	if ! errs=$(json_get "$f" 'sum(x["error"] for x in j["jobs"])' 2>&1); then
		fail "$1-json" "not fio JSON: $(echo "$errs" | tail -n 1)"
		return
	fi
	bytes=$(json_get "$f" 'sum(x[d]["io_bytes"] for x in j["jobs"] for d in ("read", "write", "trim"))')
	iops=$(json_get "$f" '"read %.0f write %.0f" % (sum(x["read"]["iops"] for x in j["jobs"]), sum(x["write"]["iops"] for x in j["jobs"]))')
	if [ "$errs" != 0 ]; then
		fail "$1-json" "jobs report errors (sum $errs)"
	elif [ "$bytes" = 0 ]; then
		fail "$1-json" "no job moved any data"
	else
		pass "$1-json"
	fi
	info "$1" "IOPS $iops ($(json_get "$f" 'j["jobs"][0]["job options"].get("ioengine", j.get("global options", {}).get("ioengine", "?"))'))"
}
