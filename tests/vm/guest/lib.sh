# Helpers for the guest cases tests/vm/cases/*.sh (busybox sh; sourced as
# /vm/lib.sh).  The guest's /init sets, for every case:
#   SUITE      the case name without its number ("10-fio-iouring-cmd" -> "fio-iouring-cmd")
#   RESULTS    /results/CASE: files written here come back to the host
#   NG_ROLE, BLK_ROLE   char and block device of each test namespace, ROLE in
#              NS512 NS4K PI PIEXT ZONED (see /vm/namespaces and README.md)
#   NVENGINE_SO, NVANALYZE   set only when the host build had them
# The cwd is a scratch directory in the guest's tmpfs.
#
# pass NAME / fail NAME WHY / skip NAME WHY / info NAME TEXT print the lines
# the host collects; the host prefixes them with "vm/".

pass() { echo "PASS: $SUITE/$1"; }
# fail NAME WHY...: the words of WHY joined by spaces (a long message may
# come in several arguments)
fail() { local n=$1; shift; echo "FAIL: $SUITE/$n: $*"; }
skip() { local n=$1; shift; echo "SKIP: $SUITE/$n ($*)"; }
info() { echo "INFO: $SUITE/$1: $2"; }

# tail_of FILE: the last lines of FILE on one line, for a FAIL reason.
tail_of() {
	tail -n "${2:-5}" "$1" | tr '\n' ' '
}

# ns_prop ROLE KEY: the nvme-ns property KEY of namespace ROLE from the
# table in /vm/namespaces (empty when not set), e.g. ns_prop ns4k logical_block_size.
ns_prop() {
	awk -v r="$1" -v k="$2" '$2 == r {
		n = split($4, p, ",")
		for (i = 1; i <= n; i++) { split(p[i], kv, "="); if (kv[1] == k) print kv[2] }
	}' /vm/namespaces
}

# as_nobody CMD: run the shell command CMD as user nobody (uid 65534), for
# permission tests; the environment (LD_LIBRARY_PATH, NG_*) is kept.
as_nobody() {
	su nobody -s /bin/sh -c "$*"
}

# fio_errors JSON: the number of jobs in a fio --output-format=json file
# whose "error" is not 0 (prints 1 when the file has no job at all).
fio_errors() {
	awk '/"error" :/ { n++; v = $3; sub(",", "", v); if (v != "0") bad++ }
	     END { if (n == 0) print 1; else print bad + 0 }' "$1"
}

# run_fio NAME ARGS...: run fio with ARGS and --output-format=json into
# $RESULTS/NAME.json (stderr into NAME.err); PASS NAME when fio exits 0 and
# every job reports error 0, FAIL with fio's last lines otherwise.  Returns
# fio's status (1 for a job error).
run_fio() {
	_n=$1
	shift
	fio --output-format=json --output="$RESULTS/$_n.json" "$@" 2>"$RESULTS/$_n.err"
	_st=$?
	if [ $_st -ne 0 ]; then
		_err=$(tail_of "$RESULTS/$_n.err")
		fail "$_n" "fio exited $_st: $_err $(tail_of "$RESULTS/$_n.json" 3)"
		return $_st
	fi
	if [ "$(fio_errors "$RESULTS/$_n.json")" != 0 ]; then
		fail "$_n" \
			"a job reported an error: $(grep '"error" :' "$RESULTS/$_n.json" |
				tr -d ' \n')"
		return 1
	fi
	pass "$_n"
}

# engine_usable: 0 when $NVENGINE_SO is present and fio can load it; else
# prints the reason on stdout and returns 1.
engine_usable() {
	if [ -z "${NVENGINE_SO:-}" ]; then
		echo "libnvengine.so was not built on the host"
		return 1
	fi
	if ! _o=$(fio --ioengine="external:$NVENGINE_SO" --parse-only --name=probe \
		--filename=/tmp/.probe --size=1M 2>&1); then
		echo "fio cannot load $NVENGINE_SO: $(echo "$_o" | tail -n 3 | tr '\n' ' ')"
		return 1
	fi
	return 0
}

# kernel_at_least MAJOR MINOR: 0 when the guest kernel is MAJOR.MINOR or
# newer.  NVMe generic char devices (/dev/ngXnY) came in 5.13, io_uring
# passthrough (IORING_OP_URING_CMD) for them in 5.19.
kernel_at_least() {
	uname -r | awk -F. -v a="$1" -v b="$2" '{ exit !($1 > a || ($1 == a && $2 + 0 >= b)) }'
}

# no_passthru: 0 (and the reason on stdout) when the guest kernel has no
# NVMe passthrough through io_uring; the cases then check the refusal
# messages and the block path instead.
no_passthru() {
	kernel_at_least 5 19 && return 1
	echo "kernel $(uname -r) has no IORING_OP_URING_CMD for /dev/ngXnY (Linux 5.19+)"
	return 0
}

# expect_fail NAME PATTERN ARGS...: fio with ARGS must fail (not by a signal)
# and print PATTERN; its output goes to $RESULTS/NAME.out.
expect_fail() {
	_n=$1 _p=$2
	shift 2
	fio "$@" >"$RESULTS/$_n.out" 2>&1
	_st=$?
	if [ $_st -eq 0 ]; then
		fail "$_n" "fio exited 0"
	elif [ $_st -ge 128 ]; then
		fail "$_n" "fio died with signal $((_st - 128))"
	elif grep -q -- "$_p" "$RESULTS/$_n.out"; then
		pass "$_n"
	else
		fail "$_n" "no '$_p' in: $(tail_of "$RESULTS/$_n.out")"
	fi
}
