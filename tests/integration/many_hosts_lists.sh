#!/usr/bin/env bash
# Host lists of jobs/run --host/--hosts (issue 43 item 10), no ssh needed:
#  - a hosts file's last line without a newline is kept (seen by a
#    duplicate in it being refused);
#  - 'host:' and 'host,' (a separator with no port) are refused, naming it;
#  - a failed host's name is matched as text, not as a regex.
. "$(dirname "$0")/../lib.sh"

RUN=$TOP/jobs/run
cat >lists.fio <<'JOB'
[global]
ioengine=null
size=1m
[j]
rw=read
JOB
export NVDEV=$T/lists.fio

printf '127.0.0.1\n127.0.0.1' >nonl.hosts
"$RUN" -n --hosts nonl.hosts lists.fio >nonl.out 2>&1
st=$?
[ $st -eq 2 ] && grep -q "host '127.0.0.1' given twice" nonl.out &&
	pass hosts_file_last_line_without_newline ||
		fail hosts_file_last_line_without_newline "exit $st: $(head -n 2 nonl.out)"

for spec in 'h1:' 'h1,' 'h1:22,'; do
	"$RUN" -n --host "$spec" lists.fio >sep.out 2>&1
	st=$?
	[ $st -eq 2 ] && grep -q "host '$spec': '[:,]' with no .* port after it" sep.out &&
		pass "host_separator_without_port $spec" ||
			fail "host_separator_without_port $spec" "exit $st: $(head -n 2 sep.out)"
done

# hosts_alive: 127a0b0c1 failed (a name the regex 127.0.0.1 matches),
# 127.0.0.1 still alive
alive=$(hosts_st=$T out=$T; die() { echo "die: $*"; exit 2; }
	. "$TOP/jobs/hosts.sh"
	echo 127a0b0c1 >"$hosts_st/failed"
	hosts_list="127.0.0.1 127.0.0.1 22 -
127a0b0c1 127a0b0c1 22 -
"
	hosts_alive)
[ "$alive" = "127.0.0.1 127.0.0.1 22 -" ] && pass failed_host_matched_as_text ||
	fail failed_host_matched_as_text "alive: $(echo "$alive" | tr '\n' ';')"
exit 0
