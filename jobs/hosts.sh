# jobs/hosts.sh: the many-host mode of jobs/run (--host, --hosts), sourced
# by it.  POSIX sh.  One fio client runs each job file on every host at
# once against `fio --server` there; ssh prepares a per-run directory on
# each host (the engine, the trace directories), starts and stops the
# servers with --start-servers, and brings the traces back (scp, or
# --fetch CMD).  Layout of DIR (-o):
#
#   DIR/NAME.json             the client's JSON: every host's jobs
#   DIR/NAME.log              the client's messages (the servers' errors)
#   DIR/NAME.env              the variables
#   DIR/HOST/NAME.fio         the job file sent to HOST
#   DIR/HOST/traces/NAME/     HOST's traces of NAME, fetched and checked
#   DIR/HOST/status           "ok", or what failed on HOST, one line each
#
# Uses from jobs/run: die, shq, apply_options, job_defaults, $out, $tmp,
# $FIO, $NVENGINE_SO, $top.

# hosts_log MSG: a progress or failure line on stderr.
hosts_log() {
	echo "jobs/run: $*" >&2
}

# hosts_add SPEC: check one "[user@]HOST[:SSHPORT][,FIOPORT[,LISTENPORT]]"
# and append it to $hosts_list as "NAME DEST SSHPORT FIOPORT" (and to
# $hosts_lports as "NAME LISTENPORT" when it has one).
hosts_add() {
	local _s _fp _sp _dest _name _p _lp
	_s=$1
	case $_s in
	''|*[[:space:]]*|*/*)
		die "host '$_s': expected [user@]HOST[:SSHPORT][,FIOPORT[,LISTENPORT]]";;
	esac
	_fp= _lp=
	case $_s in *,*,*) _lp=${_s##*,}; _s=${_s%,*}
		[ -n "$_lp" ] || die "host '$1': a second ',' with no listen port after it
  ([user@]HOST[:SSHPORT][,FIOPORT[,LISTENPORT]]: the watcher's port of --listen)";;
	esac
	case $_s in *,*) _fp=${_s##*,}; _s=${_s%,*}
		[ -n "$_fp" ] || [ -n "$_lp" ] || die "host '$1': ',' with no fio port after it
  ([user@]HOST[:SSHPORT][,FIOPORT]: write the port, or drop the ',')";;
	esac
	_sp=22
	case $_s in *:*) _sp=${_s##*:}; _s=${_s%:*}
		[ -n "$_sp" ] || die "host '$1': ':' with no ssh port after it
  ([user@]HOST[:SSHPORT][,FIOPORT]: write the port, or drop the ':')";;
	esac
	_dest=$_s
	_name=${_s#*@}
	for _p in $_sp $_fp $_lp; do
		case $_p in
		*[!0-9]*|0*) die "host '$1': port '$_p' is not a number from 1 to 65535
  ([user@]HOST[:SSHPORT][,FIOPORT[,LISTENPORT]]: ':' the ssh port, ',' fio's
  server port, a second ',' the port of the watcher of --listen)";;
		esac
		[ "$_p" -le 65535 ] || die "host '$1': port $_p is above 65535"
	done
	case $_name in
	''|*[!A-Za-z0-9._-]*|.*)
		die "host '$1': '$_name' is not a host name or IPv4 address
  (letters, digits, '.', '-', '_')";;
	esac
	case " $hosts_names " in
	*" $_name "*)
		die "host '$_name' given twice: fio's JSON names each host by what the client
  was given, so two servers on one machine need two spellings (e.g. 127.0.0.1 and 127.1)";;
	esac
	hosts_names="$hosts_names $_name"
	hosts_list="$hosts_list$_name $_dest $_sp ${_fp:--}
"
	[ -z "$_lp" ] || hosts_lports="$hosts_lports$_name $_lp
"
}

# hosts_file FILE: hosts_add each line of FILE ('#' comments, blank lines
# skipped; a last line without a newline too).
hosts_file() {
	local _l _rest
	[ -f "$1" ] ||
		die "--hosts '$1': no such file (one [user@]HOST[:SSHPORT][,FIOPORT] a line)"
	while read -r _l _rest || [ -n "$_l" ]; do
		case $_l in ''|'#'*) continue;; esac
		case $_rest in
		''|'#'*) ;;
		*) die "--hosts $1: '$_l $_rest': one host a line";;
		esac
		hosts_add "$_l"
	done <"$1"
}

# hosts_ssh DEST PORT CMD...: ssh without prompts, with $NVSSH_OPTS.
hosts_ssh() {
	local _d=$1 _p=$2
	shift 2
	# shellcheck disable=SC2086
	ssh -n -o BatchMode=yes -o ConnectTimeout="${NVSSH_TIMEOUT:-10}" -p "$_p" \
		${NVSSH_OPTS:-} "$_d" "$@"
}

# listening PORT, in the scripts run on the hosts: 0 when a TCP socket
# listens on PORT there (/proc/net/tcp*).
hosts_remote_listening='
listening() {
	h=$(printf ":%04X" "$1")
	cat /proc/net/tcp /proc/net/tcp6 2>/dev/null |
		awk -v h="$h" "substr(\$2, length(\$2) - 4) == h && \$4 == \"0A\"" | grep -q .
}
'

# The script run on each host (sh -c) to prepare it: ARGS start fio bind
# port names nvdev.  Prints "NVRUN DIR PORT" last; the engine comes on
# stdin.
hosts_remote_start=$hosts_remote_listening'
set -u
start=$1 fio=$2 bind=$3 port=$4 names=$5 nvdev=$6
d=$(mktemp -d "${TMPDIR:-/tmp}/nvengine-run.XXXXXX") || exit 1
fail() { echo "$*"; rm -rf "$d"; exit 1; }
rest=$nvdev
while [ -n "$rest" ]; do
	t=${rest%%:*}
	case $rest in *:*) rest=${rest#*:};; *) rest=;; esac
	[ -z "$t" ] || [ -e "$t" ] || fail "NVDEV: $t does not exist on this host"
done
cat >"$d/libnvengine.so" || fail "cannot write $d/libnvengine.so"
for n in $names; do mkdir -p "$d/traces/$n" || fail "cannot create $d/traces/$n"; done
[ "$start" = 1 ] || { echo "NVRUN $d -"; exit 0; }
command -v "$fio" >/dev/null 2>&1 ||
	fail "no $fio on this host (install fio, the version the engine was built for)"
tries=0
while :; do
	tries=$((tries + 1))
	[ $tries -le 20 ] || fail "no free port for fio --server after 20 tries"
	p=$port
	[ "$p" != - ] || p=$(( $(od -An -N2 -tu2 /dev/urandom | tr -d " ") % 40000 + 20000 ))
	r=${TMPDIR:-/tmp}/nvengine-port.$p
	# a reservation whose run directory is gone is stale
	[ -L "$r" ] && [ ! -d "$(readlink "$r")" ] && rm -f "$r"
	if listening $p || ! ln -s "$d" "$r" 2>/dev/null; then
		[ "$port" = - ] || fail "port $p is in use"
		continue
	fi
	(cd "$d" && "$fio" --server="ip:$bind,$p" --daemonize="$d/fio.pid") >"$d/server.log" 2>&1
	i=0
	while [ $i -lt 200 ] && ! listening $p; do sleep 0.1; i=$((i + 1)); done
	if listening $p && [ -f "$d/fio.pid" ] && kill -0 "$(cat "$d/fio.pid")" 2>/dev/null; then
		echo "NVRUN $d $p"
		exit 0
	fi
	[ -f "$d/fio.pid" ] && kill "$(cat "$d/fio.pid")" 2>/dev/null
	rm -f "$r" "$d/fio.pid"
	[ "$port" = - ] ||
		fail "fio --server did not listen on port $p: $(tail -n 2 "$d/server.log")"
done
'

# The script that stops a server and removes the per-run directory: ARGS
# dir port.  The server is a session leader (daemonized): its process
# group holds the job processes too.
hosts_remote_stop='
d=$1 p=$2
if [ -f "$d/fio.pid" ]; then
	pid=$(cat "$d/fio.pid")
	kill -TERM -"$pid" 2>/dev/null || kill -TERM "$pid" 2>/dev/null
	i=0
	while [ $i -lt 100 ] && kill -0 "$pid" 2>/dev/null; do sleep 0.1; i=$((i + 1)); done
	kill -KILL -"$pid" 2>/dev/null
fi
if [ -f "$d/watch.pid" ]; then	# the watcher of --listen: Ctrl-C, at once
	pid=$(cat "$d/watch.pid")
	kill -INT "$pid" 2>/dev/null
	i=0
	while [ $i -lt 100 ] && kill -0 "$pid" 2>/dev/null; do sleep 0.1; i=$((i + 1)); done
	kill -KILL "$pid" 2>/dev/null
fi
r=${TMPDIR:-/tmp}/nvengine-port.$p
[ "$p" = - ] || [ "$(readlink "$r" 2>/dev/null)" != "$d" ] || rm -f "$r"
case $d in */nvengine-run.*) rm -rf "$d";; esac
'

# hosts_fail NAME WHY [keep]: record a failure of host NAME; unless keep
# (its results are in, its traces not), the next job files run without it.
hosts_fail() {
	mkdir -p "$out/$1"
	echo "failed: $2" >>"$out/$1/status"
	echo "$1" >>"$hosts_st/named"
	[ "${3:-}" = keep ] || echo "$1" >>"$hosts_st/failed"
	hosts_log "host $1: $2"
	hosts_status=1
}

# hosts_alive: the lines of $hosts_list whose host has not failed.
hosts_alive() {
	local _n _rest
	while read -r _n _rest; do
		[ -n "$_n" ] || continue
		grep -qxF "$_n" "$hosts_st/failed" 2>/dev/null || echo "$_n $_rest"
	done <<EOF
$hosts_list
EOF
}

# hosts_prepare NAMES: the per-run directory on every host at once (and
# the servers with --start-servers); a host that fails is named and left
# out.  $hosts_st/NAME.run holds "DIR PORT".
hosts_prepare() {
	local _n _d _sp _fp _o _r
	: >"$hosts_st/failed"
	: >"$hosts_st/named"
	while read -r _n _d _sp _fp; do
		[ -n "$_n" ] || continue
		mkdir -p "$out/$_n" && : >"$out/$_n/status"
		(
			_o=$(hosts_ssh_in "$_d" "$_sp" <"$NVENGINE_SO" \
				"sh -c $(shq "$hosts_remote_start") sh $hosts_start $(shq "$FIO") \
				$(shq "$hosts_bind") $_fp $(shq "$1") $(shq "$NVDEV")" 2>&1)
			_r=$(printf '%s\n' "$_o" | sed -n 's/^NVRUN //p' | tail -n 1)
			if [ -n "$_r" ]; then
				echo "$_r" >"$hosts_st/$_n.run"
			else
				echo "$_o" | tail -n 3 | tr '\n' ' ' >"$hosts_st/$_n.err"
			fi
		) &
	done <<EOF
$hosts_list
EOF
	wait
	while read -r _n _d _sp _fp; do
		[ -n "$_n" ] || continue
		if [ ! -s "$hosts_st/$_n.run" ]; then
			hosts_fail "$_n" "missing: cannot prepare it over ssh ($_d port $_sp):\
 $(cat "$hosts_st/$_n.err" 2>/dev/null)"
			continue
		fi
		set -- $(cat "$hosts_st/$_n.run")
		[ "$2" = - ] && [ "$_fp" = - ] && _fp=8765
		[ "$2" = - ] || _fp=$2
		echo "$1 $_fp" >"$hosts_st/$_n.run"
		if [ "$hosts_start" = 1 ]; then
			hosts_log "host $_n: fio --server on port $_fp, run directory $1"
		else
			hosts_log "host $_n: run directory $1, fio --server assumed on port $_fp"
		fi
	done <<EOF
$hosts_list
EOF
}

# hosts_ssh_in DEST PORT CMD: hosts_ssh with stdin (the engine) given.
hosts_ssh_in() {
	local _d=$1 _p=$2
	shift 2
	# shellcheck disable=SC2086
	ssh -o BatchMode=yes -o ConnectTimeout="${NVSSH_TIMEOUT:-10}" -p "$_p" \
		${NVSSH_OPTS:-} "$_d" "$@"
}

# hosts_cleanup: stop the servers and remove the per-run directories
# (every host prepared, failed or not); idempotent.
hosts_cleanup() {
	local _n _d _sp _fp
	[ -n "${hosts_st:-}" ] && [ -d "$hosts_st" ] || return 0
	while read -r _n _d _sp _fp; do
		[ -n "$_n" ] && [ -s "$hosts_st/$_n.run" ] || continue
		set -- $(cat "$hosts_st/$_n.run")
		[ "$hosts_start" = 1 ] || set -- "$1" -
		hosts_ssh "$_d" "$_sp" "sh -c $(shq "$hosts_remote_stop") sh $(shq "$1") $2" \
			>/dev/null 2>&1 ||
			hosts_log "host $_n: could not stop the server or remove $1"
		rm -f "$hosts_st/$_n.run"
	done <<EOF
$hosts_list
EOF
	rm -rf "$hosts_st"
}

# hosts_counts JSON: "HOST JOBNAME IOS" per client_stats entry (IOS: the
# entry's total_ios of every direction), "All clients" left out.
hosts_counts() {
	awk '
	/"jobname" *:/ {
		s = $0; sub(/^[^:]*: *"/, "", s); sub(/",? *$/, "", s); job = s; ios = 0; next
	}
	job != "" && /"total_ios" *:/ { s = $0; gsub(/[^0-9]/, "", s); ios += s; next }
	job != "" && /"hostname" *:/ {
		s = $0; sub(/^[^:]*: *"/, "", s); sub(/",? *$/, "", s)
		if (job != "All clients") print s, job, ios
		job = ""
	}' "$1"
}

# hosts_job_counts JSON HOST: "IOS JOBNAME" per job name of HOST, IOS the
# sum over the job's entries (numjobs=N without group_reporting: one entry
# per clone, all with the job's name; its traces are the clones' together).
hosts_job_counts() {
	hosts_counts "$1" | awk -v h="$2" '$1 == h { j = $0; sub(/^[^ ]* /, "", j)
		sub(/ [^ ]*$/, "", j); if (!(j in n)) o[++k] = j; n[j] += $NF }
		END { for (i = 1; i <= k; i++) print n[o[i]], o[i] }'
}

# hosts_traces_check NAME JOB DIR: every trace in DIR complete (footer
# present) and, per job name, its records equal to fio's count for the
# host.  Prints what is wrong; empty when all is well.
hosts_traces_check() {
	local _h=$1 _j _ios _t _sum _nf _f _s _r
	[ -x "$hosts_nva" ] || command -v "$hosts_nva" >/dev/null 2>&1 || {
		echo "no nvanalyze to check the traces (run make)"
		return
	}
	while read -r _ios _j; do
		[ -n "$_j" ] || continue
		_t=$(printf '%s' "$_j" | sed 's|^\.|_|; s|/|_|g')
		_sum=0 _nf=0
		for _f in "$3/$_t".[0-9]*.nvt; do
			[ -f "$_f" ] || continue
			_nf=$((_nf + 1))
			_s=$("$hosts_nva" stat "$_f" 2>&1 </dev/null)
			case $_s in
			*"footer: present"*) ;;
			*) echo "$_f: incomplete (no footer: fio or the server was killed?)";;
			esac
			_r=$(printf '%s\n' "$_s" | sed -n 's/^records: \([0-9]*\).*/\1/p')
			_sum=$((_sum + ${_r:-0}))
		done
		if [ $_nf -eq 0 ]; then
			echo "job '$_j': no trace $3/$_t.N.nvt"
		elif [ "$_sum" -ne "$_ios" ]; then
			echo "job '$_j': the traces hold $_sum IOs, fio counted $_ios"
		fi
	done <<EOF | sort -u
$(hosts_job_counts "$out/$2.json" "$_h")
EOF
}

# hosts_fetch NAME DEST SSHPORT RDIR JOBNAME: HOST's traces of job file
# JOBNAME into DIR/HOST/traces/JOBNAME.  0 or non-zero.
hosts_fetch() {
	local _l=$out/$1/traces/$5
	rm -rf "$_l"
	mkdir -p "$_l" || return 1
	if [ -n "$hosts_fetch_cmd" ]; then
		NVHOST=$1 NVSSHDEST=$2 NVSSHPORT=$3 NVREMOTE=$4/traces/$5 NVLOCAL=$_l \
			sh -c "$hosts_fetch_cmd" 2>&1 </dev/null
		return
	fi
	# shellcheck disable=SC2086
	scp -q -r -o BatchMode=yes -o ConnectTimeout="${NVSSH_TIMEOUT:-10}" -P "$3" \
		${NVSSH_OPTS:-} "$2:$4/traces/$5/." "$_l" 2>&1 </dev/null
}

# hosts_run_job JOB NAME: run the job file JOB (written as $out/NAME.fio
# by the caller) on every host still alive; check, fetch, check again.
hosts_run_job() {
	local _alive _cmd _glob _a _o _n _d _sp _fp _args _nh _st _max _msgs _c _m _e _of
	_alive=$(hosts_alive)
	if [ -z "$_alive" ]; then
		hosts_log "$1: no host left to run it on"
		hosts_status=1
		return
	fi
	# fio's client sends job files only: job options of FIO_ARGS go into
	# each host's [global]; fio's own options stay on the command line
	_cmd= _glob=
	eval "set -- $fioargs"
	for _a; do
		_o=${_a#--}
		set -- $(option_names "${_o%%=*}")
		if [ "${1:-}" = job ]; then
			_glob="$_glob${_a#--}
"
		else
			_cmd="$_cmd $(shq "$_a")"
		fi
	done
	printf '%s' "$_glob" >"$hosts_st/global"
	grep -q '^\[global\]' "$out/$name.fio" || [ -z "$_glob" ] ||
		die "$job has no [global] section for the options" \
			"$(tr '\n' ' ' <"$hosts_st/global")(add a [global] line at its top)"
	: >"$hosts_st/args"
	while read -r _n _d _sp _fp; do
		set -- $(cat "$hosts_st/$_n.run")
		sed -e "s|\${NVTRACE}|$1/traces/$name|g" \
			-e "s|\${NVENGINE_SO}|$1/libnvengine.so|g" "$out/$name.fio" |
			awk -v g="$hosts_st/global" '
			{ print }
			!done && /^\[global\]/ { while ((getline l < g) > 0) print l; done = 1 }
			' >"$out/$_n/$name.fio" || die "cannot write $out/$_n/$name.fio"
		printf ' %s %s' "$(shq "--client=$_n,$2")" "$(shq "$out/$_n/$name.fio")" \
			>>"$hosts_st/args"
	done <<EOF
$_alive
EOF
	_args=$(cat "$hosts_st/args")
	_nh=$(printf '%s\n' "$_alive" | wc -l)
	hosts_log "$job on $_nh host(s) (${NVDEV}, RUNTIME=$RUNTIME) -> $out/$name.json"
	eval "set -- $_cmd"
	_of="--output-format=json+ --output=\"\$out/\$name.json\""
	eval "run_fg \"\$FIO\" $_of \"\$@\" $_args" \
		>"$out/$name.log" 2>&1
	_st=$?
	hosts_counts "$out/$name.json" 2>/dev/null >"$hosts_st/counts"
	_max=$(awk '{ n[$1]++ } END { m = 0; for (h in n) if (n[h] > m) m = n[h]; print m }' \
		"$hosts_st/counts")
	_msgs=$(grep -h -i -E 'fio: |error|bad option|failed|timed out|refused|dropped' \
		"$out/$name.log" "$out/$name.json" 2>/dev/null | grep -v '^ *"' | sort -u |
		head -n 4 | tr '\n' ' ')
	while read -r _n _d _sp _fp; do
		_c=$(awk -v h="$_n" '$1 == h' "$hosts_st/counts" | wc -l)
		if [ "$_c" -eq 0 ] || [ "$_c" -lt "$_max" ]; then
			# fio's lines naming the host ("client: host=H disconnected",
			# "failed to connect to H:PORT"), then its error lines
			_m=$(awk -v h="$_n" 'index($0, "host=" h " ") || index($0, " " h ":") ||
				index($0, "<" h ">") || $0 ~ ("host=" h "$")' \
				"$out/$name.log" "$out/$name.json" 2>/dev/null | sort -u |
				head -n 3 | tr '\n' ' ')
			_m=$(printf '%s' "$_m$_msgs" | sed 's/^$/fio said nothing about it/')
			hosts_fail "$_n" "$name: $_c of ${_max} jobs in $out/$name.json\
 (the server refused the job file, failed or died; fio's exit status $_st): $_m"
			continue
		fi
		set -- $(cat "$hosts_st/$_n.run")
		if ! _e=$(hosts_fetch "$_n" "$_d" "$_sp" "$1" "$name"); then
			_e=$(echo "$_e" | tail -n 2 | tr '\n' ' ')
			hosts_fail "$_n" "$name: fio's numbers: traces not fetched: $_e" keep
			continue
		fi
		_e=$(hosts_traces_check "$_n" "$name" "$out/$_n/traces/$name")
		if [ -n "$_e" ]; then
			_e=$(echo "$_e" | head -n 3 | tr '\n' ' ')
			hosts_fail "$_n" "$name: traces fetched but wrong: $_e" keep
			continue
		fi
		echo "$name: ok" >>"$out/$_n/status"
		hosts_log "host $_n: $name done, traces in $out/$_n/traces/$name"
	done <<EOF
$_alive
EOF
	[ -s "$hosts_st/named" ] && hosts_status=1
	if [ "$_st" -ne 0 ] && [ "$hosts_status" -eq 0 ]; then
		hosts_log "fio's client exited $_st on $job with every host's results in;" \
			"see $out/$name.log"
		hosts_status=$_st
	fi
}
