#!/usr/bin/env bash
# Many hosts in one run (jobs/run --host, issue 28): a real OpenSSH server
# started here on a free 127.0.0.1 port with a host key and a user key made
# here, and fio servers that jobs/run --start-servers starts over it stand
# in for hosts.  Three "hosts" are three spellings of 127.0.0.1 (127.0.0.1,
# 127.1, 127.0.1): fio's JSON names a host by what the client was given.
#  - a short suite on three hosts: each host's JSON entries, traces fetched
#    into DIR/HOST/traces/NAME, nothing left on the hosts, and nvanalyze's
#    exact rows per host equal to tests/py/lib/nvtrace_reader.py's reading;
#  - failures named, the others complete: a closed ssh port, a job file
#    the server refuses, a server SIGKILLed mid-run, a failing fetch;
#  - two fleets of three hosts: nvanalyze A B, each host a repeat, with an
#    interval of the change per job.
# Skipped, with the reason, when sshd cannot start (not root, no sshd).
. "$(dirname "$0")/../lib.sh"

RUN=$TOP/jobs/run
SSHD=$(command -v sshd || echo /usr/sbin/sshd)
if [ "$(id -u)" -ne 0 ]; then
	skip sshd "needs root to start sshd with its privilege-separation directory /run/sshd"
	exit 0
fi
if [ ! -x "$SSHD" ] || ! command -v ssh >/dev/null || ! command -v ssh-keygen >/dev/null; then
	skip sshd "no OpenSSH server or client: run 'make deps' (apt-get install openssh-server)"
	exit 0
fi

S=$T/ssh
mkdir -p "$S" /run/sshd
chmod 700 "$S"
ssh-keygen -q -t ed25519 -N '' -f "$S/host_key" && ssh-keygen -q -t ed25519 -N '' -f "$S/id" ||
	{ fail keys "ssh-keygen failed"; exit 1; }
cp "$S/id.pub" "$S/authorized_keys"
port=$(pytool free_port 127.0.0.1)
[ -n "$port" ] || { skip sshd "no free port on 127.0.0.1"; exit 0; }
sftp=$(ls /usr/lib/openssh/sftp-server /usr/libexec/openssh/sftp-server 2>/dev/null | head -n 1)
cat >"$S/sshd_config" <<EOF
Port $port
ListenAddress 127.0.0.1
HostKey $S/host_key
PidFile $S/sshd.pid
AuthorizedKeysFile $S/authorized_keys
PermitRootLogin prohibit-password
PubkeyAuthentication yes
PasswordAuthentication no
KbdInteractiveAuthentication no
UsePAM no
StrictModes no
MaxStartups 50
LogLevel ERROR
Subsystem sftp ${sftp:-internal-sftp}
EOF
cat >"$S/config" <<EOF
Host *
	User root
	IdentityFile $S/id
	IdentitiesOnly yes
	UserKnownHostsFile /dev/null
	StrictHostKeyChecking no
	LogLevel ERROR
EOF
export NVSSH_OPTS="-F $S/config"

sshd_pid=
killer=
stop_all() {	# sshd, and the fio servers and run directories the logs name
	local f d
	[ -n "$killer" ] && kill "$killer" 2>/dev/null
	for f in "$T"/*.log; do
		for d in $(sed -n 's/.*run directory \([^ ,]*\).*/\1/p' "$f" 2>/dev/null); do
			[ -f "$d/fio.pid" ] && kill -KILL -- "-$(cat "$d/fio.pid")" 2>/dev/null
			case $d in */nvengine-run.*) rm -rf "$d";; esac
		done
	done
	[ -n "$sshd_pid" ] && kill "$sshd_pid" 2>/dev/null
	sshd_pid=
}
trap stop_all EXIT

"$SSHD" -D -e -f "$S/sshd_config" 2>"$S/sshd.log" &
sshd_pid=$!
ok=0
for _ in $(seq 100); do
	if timeout 10 ssh $NVSSH_OPTS -p "$port" -o BatchMode=yes 127.0.0.1 true 2>/dev/null; then
		ok=1
		break
	fi
	kill -0 "$sshd_pid" 2>/dev/null || break
	sleep 0.2
done
if [ $ok -eq 0 ]; then
	skip sshd "sshd did not start on 127.0.0.1:$port: $(tail -n 2 "$S/sshd.log" | tr '\n' ' ')"
	exit 0
fi
pass sshd

# The short suite: two jobs of 1 s each on a 16 MiB file.
dd if=/dev/zero of="$T/target" bs=1M count=16 status=none
mkdir -p "$T/jobs"
cat >"$T/jobs/short.fio" <<'EOF'
[global]
ioengine=external:${NVENGINE_SO}
nv_trace=${NVTRACE}
filename=${NVDEV}
direct=0
bs=4k
size=16m
runtime=${RUNTIME}
time_based
[randread]
rw=randread
[randwrite]
stonewall
rw=randwrite
EOF
export NVDEV=$T/target RUNTIME=1
H="--host 127.0.0.1:$port --host 127.1:$port --host 127.0.1:$port"
NAME=jobs-short

# left_behind LOG: the run directories the log names that still exist, and
# fio servers started from them.
left_behind() {
	local d
	for d in $(sed -n 's/.*run directory \([^ ,]*\).*/\1/p' "$1"); do
		[ -e "$d" ] && echo "$d"
		pgrep -f "$d/fio.pid" >/dev/null && echo "server of $d"
	done
}

# fleet DIR EXTRA...: jobs/run on the three hosts into DIR.
fleet() {
	local dir=$1
	shift
	# shellcheck disable=SC2086
	timeout 300 "$RUN" --start-servers --bind 127.0.0.1 -o "$dir" $H "$@" "$T/jobs/short.fio" \
		>"$dir.log" 2>&1
}

fleet "$T/A"
st=$?
if [ $st -eq 0 ] && [ -s "$T/A/$NAME.json" ] && ! grep -q failed "$T"/A/*/status; then
	pass fleet_run
else
	fail fleet_run "exit $st: $(tail -n 4 "$T/A.log" | tr '\n' ' ')"
fi
lb=$(left_behind "$T/A.log")
[ -z "$lb" ] && grep -q "run directory" "$T/A.log" && pass nothing_left_behind ||
	fail nothing_left_behind "still there: $lb"
out=$(pytool many_hosts_check "$NVANALYZE" exact "$T/A" "$NAME" 127.0.0.1 127.1 127.0.1 2>&1)
case $out in
ok*) pass exact_rows_per_host; echo "info: $out";;
*) fail exact_rows_per_host "$out";;
esac
workers_same hosts_same_any_J "$T/A"	# each host's traces on 1 and 4 threads

# Failures, each in a run of its own: the right host named, the others
# complete.  expect_failed NAME DIR HOST WHAT_RE
expect_failed() {
	local name=$1 dir=$2 host=$3 re=$4 st=$5 others
	others=$(pytool many_hosts_check "$NVANALYZE" complete "$dir" "$NAME" \
		$(for h in 127.0.0.1 127.1 127.0.1; do [ "$h" = "$host" ] || echo "$h"; done) 2>&1)
	if [ "$st" -ne 0 ] && grep -q "host $host: .*$re" "$dir.log" &&
		grep -q "failed" "$dir/$host/status" && [ "${others%% *}" = ok ] &&
		[ -z "$(left_behind "$dir.log")" ]; then
		pass "$name"
	else
		fail "$name" \
			"exit $st; log: $(grep -i "host $host\|failed" "$dir.log" | head -n 3 |
				tr '\n' ' '); others: $others"
	fi
}

# a closed port: the ssh port of 127.0.1 is one nothing listens on
closed=$(pytool free_port 127.0.0.1)
H2="--host 127.0.0.1:$port --host 127.1:$port --host 127.0.1:$closed"
timeout 300 "$RUN" --start-servers --bind 127.0.0.1 -o "$T/closed" $H2 "$T/jobs/short.fio" \
	>"$T/closed.log" 2>&1
expect_failed unreachable_host "$T/closed" 127.0.1 "missing: cannot prepare" $?

# a job the server refuses: 127.1's job file gets an option fio does not know
FIO_WRAP=$T/bin/fio
mkdir -p "$T/bin"
cat >"$FIO_WRAP" <<EOF
#!/bin/sh
# the client: 127.1's job file spoiled before it is sent
for a; do case \$a in */127.1/*.fio) echo "bogus_option=1" >>"\$a";; esac; done
exec "${FIO:-fio}" "\$@"
EOF
chmod +x "$FIO_WRAP"
FIO=$FIO_WRAP fleet "$T/refused"
st=$?
expect_failed refused_job "$T/refused" 127.1 "0 of 2 jobs" $st

# a server SIGKILLed mid-run: 127.0.0.1's server and its job processes
(
	for _ in $(seq 600); do
		d=$(sed -n 's/.*host 127.0.0.1: fio --server .*run directory \(.*\)/\1/p' \
			"$T/killed.log" 2>/dev/null)
		if [ -n "$d" ] && [ -f "$d/fio.pid" ] && grep -q "on 3 host" "$T/killed.log"; then
			sleep 0.5
			kill -KILL -- "-$(cat "$d/fio.pid")" 2>/dev/null
			exit 0
		fi
		sleep 0.1
	done
) &
killer=$!
RUNTIME=3 fleet "$T/killed"
st=$?
wait $killer
expect_failed server_killed "$T/killed" 127.0.0.1 "jobs in" $st

# a fetch that fails for one host
fleet "$T/nofetch" --fetch 'if [ "$NVHOST" = 127.0.1 ]; then
		echo "no route to $NVHOST" >&2; exit 1
	fi
	scp -q -r $NVSSH_OPTS -P "$NVSSHPORT" "$NVSSHDEST:$NVREMOTE/." "$NVLOCAL"'
st=$?
expect_failed fetch_fails "$T/nofetch" 127.0.1 "traces not fetched" $st
# report_marks NAME RESULTS TEXT: nvanalyze -o says TEXT on stderr and in
# report.md's warnings about the inputs, beside the runs
report_marks() {
	local warn page
	warn=$("$NVANALYZE" -o "$T/$1.report" "$2" 2>&1 >/dev/null)
	page=$(sed -n '/^\*\*Warnings about the inputs\*\*/,/^## /p' "$T/$1.report/report.md" \
		2>/dev/null | grep -F -- "$3")
	case $warn in
	*"$3"*) [ -n "$page" ] && pass "$1" ||
		fail "$1" "not in $T/$1.report/report.md's warnings about the inputs";;
	*) fail "$1" "nvanalyze said: $(echo "$warn" | head -n 3 | tr '\n' ' ')";;
	esac
}
report_marks report_marks_unfetched "$T/nofetch" \
	"on host 127.0.1: fio's numbers: traces not fetched"
report_marks report_marks_missing "$T/closed" "host 127.0.1 missing: failed"

# two fleets of three hosts: the second with 4 jobs (randread) and depth 4
IODEPTH=4 fleet "$T/B"
st=$?
out=$(pytool many_hosts_check "$NVANALYZE" fleets "$T/A" "$T/B" 2>&1)
case "$st $out" in
"0 ok"*) pass two_fleets_interval; echo "info: $out";;
*) fail two_fleets_interval "exit $st: $out";;
esac
workers_same fleets_same_any_J "$T/A" "$T/B"	# hosts as repeats, 1 and 4 threads
# issue 43 item 8: a job option for a job file without [global]: the real
# cause (exit 2, the file named), no host recorded as refusing the job file
cat >"$T/jobs/noglobal.fio" <<'EOF'
[solo]
ioengine=external:${NVENGINE_SO}
nv_trace=${NVTRACE}
filename=${NVDEV}
direct=0
bs=4k
runtime=${RUNTIME}
time_based
rw=randread
EOF
# shellcheck disable=SC2086
timeout 300 "$RUN" --start-servers --bind 127.0.0.1 -o "$T/noglob" $H "$T/jobs/noglobal.fio" \
	-- --size=8m >"$T/noglob.log" 2>&1
st=$?
if [ $st -eq 2 ] && grep -q "noglobal.fio has no \[global\] section for the options size=8m" \
	"$T/noglob.log" && ! grep -q "refused" "$T/noglob.log" &&
	! grep -qs failed "$T"/noglob/*/status && [ -z "$(left_behind "$T/noglob.log")" ]; then
	pass no_global_real_cause
else
	fail no_global_real_cause \
		"exit $st: $(grep -v 'run directory' "$T/noglob.log" | head -n 4 |
			tr '\n' ' ')"
fi

# issue 43 item 4: numjobs=2 without group_reporting: fio's client JSON has
# one entry per clone, both named "clones"; each host's traces hold both
cat >"$T/jobs/clones.fio" <<'EOF'
[global]
ioengine=external:${NVENGINE_SO}
nv_trace=${NVTRACE}
filename=${NVDEV}
direct=0
bs=4k
size=16m
runtime=${RUNTIME}
time_based
[clones]
rw=randread
numjobs=2
EOF
# shellcheck disable=SC2086
timeout 300 "$RUN" --start-servers --bind 127.0.0.1 -o "$T/clones" $H "$T/jobs/clones.fio" \
	>"$T/clones.log" 2>&1
st=$?
n=$(grep -l '^jobs-clones: ok$' "$T"/clones/*/status 2>/dev/null | wc -l)
if [ $st -eq 0 ] && [ "$n" -eq 3 ] && [ "$(grep -c '"jobname" *: *"clones"' \
	"$T/clones/jobs-clones.json")" -eq 6 ]; then
	pass numjobs_without_group_reporting
else
	fail numjobs_without_group_reporting "exit $st, $n hosts ok: $(grep 'host .*:' \
		"$T/clones.log" | grep -v 'run directory\|done' | head -n 3 | tr '\n' ' ')"
fi
# issue 38: a hostile job section name through the many-host path (fio's
# client/server JSON, the traces brought back), then nvanalyze -o: nothing
# runs (no canary), the outputs well formed, the name read back as given
sect="h\`touch $T/CANARY_mh\`|<b>@x \$(touch $T/CANARY_mh2)"
{ sed -n '1,/^\[/p' "$T/jobs/clones.fio" | sed '$d'; printf '[%s]\nrw=randread\n' "$sect"; } \
	>"$T/jobs/hostile.fio"
printf '%s' "$sect" >"$T/hostile.sect"
# shellcheck disable=SC2086
timeout 300 "$RUN" --start-servers --bind 127.0.0.1 -o "$T/hostile" $H "$T/jobs/hostile.fio" \
	>"$T/hostile.log" 2>&1
st=$?
"$NVANALYZE" -o "$T/hostile-o" "$T/hostile" >/dev/null 2>"$T/hostile-o.err"
st2=$?
if [ -e "$T/CANARY_mh" ] || [ -e "$T/CANARY_mh2" ]; then
	fail hostile_job_name "a job section name ran a command"
elif [ $st -ne 0 ] || [ $st2 -ne 0 ]; then
	fail hostile_job_name \
		"jobs/run exit $st, nvanalyze -o exit $st2: $(tail -n 2 "$T/hostile.log" \
			"$T/hostile-o.err" | tr '\n' ' ')"
elif why=$(pytool hostile_check dir "$T/hostile-o" "$T/hostile.sect") && [ "$why" != ok ]; then
	fail hostile_job_name "$why"
else
	pass hostile_job_name
fi
# issue 43 item 9: SIGTERM of jobs/run --host mid-run: exit 143, nothing
# left in its TMPDIR, the servers stopped and the run directories removed
mkdir -p "$T/htmp"
# shellcheck disable=SC2086
TMPDIR=$T/htmp RUNTIME=30 timeout 300 "$RUN" --start-servers --bind 127.0.0.1 -o "$T/term" $H \
	"$T/jobs/short.fio" >"$T/term.log" 2>&1 &
jr=$!
for _ in $(seq 600); do
	grep -q "on 3 host(s)" "$T/term.log" && break
	sleep 0.1
done
sleep 1
kill -TERM "$jr"
wait "$jr"
st=$?
left=$(ls -A "$T/htmp")
lb=$(left_behind "$T/term.log")
[ $st -eq 143 ] && [ -z "$left" ] && [ -z "$lb" ] && grep -q "on 3 host(s)" "$T/term.log" &&
	pass host_sigterm_cleans_up ||
		fail host_sigterm_cleans_up "exit $st; in TMPDIR: $left; left behind: $lb"
# issue 56: the fleet's watchers.  jobs/run --listen starts each host's
# nvanalyze watch --listen beside its fio server (two hosts here, on one
# machine: a LISTENPORT of each, HOST:SSHPORT,,LISTENPORT; 127.0.0.1 and
# localhost, the names Prometheus resolves, it has no 127.1), writes the
# file_sd list, and after --linger stops them.  One real Prometheus scrapes
# the fleet from that list every 1 s during a traced run; each host's series
# are under its own host label, from its own target, and their final
# nvengine_ios_total equals the host's IO count in fio's JSON.  Then the
# same port given to both: a clear error before any job file runs.
if ! "$NVANALYZE" watch --help 2>&1 | grep -q -- '--listen'; then
	skip fleet_listen "nvanalyze has no 'watch --listen' (built without libmicrohttpd)"
	exit 0
fi
p1=$(pytool free_port 127.0.0.1)
p2=$p1
for _ in $(seq 20); do
	[ "$p2" != "$p1" ] && break
	p2=$(pytool free_port 127.0.0.1)
done
mkdir -p "$T/L"
PROM_TEST=fleet_listen
if [ "$p1" != "$p2" ] && prom_start --file-sd "$T/L/prometheus-targets.json"; then
	NVANALYZE_REMOTE=$NVANALYZE RUNTIME=3 timeout 300 "$RUN" --start-servers \
		--bind 127.0.0.1 -o "$T/L" --host "127.0.0.1:$port" --host "localhost:$port,,$p2" \
		--listen "$p1" --linger 3 "$T/jobs/short.fio" >"$T/L.log" 2>&1
	st=$?
	lb=$(left_behind "$T/L.log")
	if [ $st -ne 0 ] || [ ! -s "$T/L/prometheus-targets.json" ]; then
		fail fleet_listen "exit $st: $(tail -n 4 "$T/L.log" | tr '\n' ' ')"
	elif [ -n "$lb" ]; then
		fail fleet_listen "left behind: $lb"
	elif pgrep -f "watch --follow --format jsonl --host localhost --listen" >/dev/null; then
		fail fleet_listen "a watcher still runs after jobs/run ended"
	elif why=$(pytool fleet_prom_check "$PROM_URL" "$T/L/$NAME.json" \
		"$T/L/prometheus-targets.json"); then
		pass "fleet_listen: $why"
	else
		fail fleet_listen "$why"
	fi
	prom_stop
elif [ "$p1" = "$p2" ]; then
	fail fleet_listen "no second free port on 127.0.0.1"
fi
NVANALYZE_REMOTE=$NVANALYZE RUNTIME=1 timeout 300 "$RUN" --start-servers --bind 127.0.0.1 \
	-o "$T/L2" \
	--host "127.0.0.1:$port" --host "127.1:$port" --listen "$p1" "$T/jobs/short.fio" \
	>"$T/L2.log" 2>&1
st=$?
lb=$(left_behind "$T/L2.log")
used="host 127.1: nvanalyze watch --listen 127.0.0.1:$p1 did not start:.*the port is in use"
if [ $st -eq 2 ] && grep -q "$used" "$T/L2.log" &&
	[ ! -e "$T/L2/$NAME.json" ] && [ -z "$lb" ]; then
	pass fleet_listen_port_in_use
else
	fail fleet_listen_port_in_use "exit $st, left behind: $lb: $(tail -n 3 "$T/L2.log" |
		tr '\n' ' ')"
fi
exit 0
