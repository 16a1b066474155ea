# jobs/hosts_listen.sh: jobs/run --host ... --listen PORT, sourced by it
# after hosts.sh.  POSIX sh.  Each host's `nvanalyze watch --listen`
# runs on that host beside its fio server, following its trace directory
# (every job file's), labelled with the host's name (--host), serving
# Prometheus metrics and the live page on the --bind address (default
# 127.0.0.1, as every server of the project: --bind 0.0.0.0 for a
# Prometheus on another machine) and PORT (or the host's own LISTENPORT:
# [user@]HOST[:SSHPORT][,FIOPORT[,LISTENPORT]]).  DIR/prometheus-targets.json
# is the fleet as a Prometheus file_sd target list (docs/prometheus.md).
# After the last job file the watchers serve --linger seconds more (one
# scrape interval and some: Prometheus gets the last interval), then
# hosts_cleanup's script stops each (SIGINT) before removing its run
# directory.  A watcher that cannot listen (the port in use, not allowed)
# stops the run before any job file, with nvanalyze's reason.
#
# Uses from jobs/run and hosts.sh: die, shq, hosts_log, hosts_ssh,
# hosts_alive, hosts_remote_listening, $hosts_st, $hosts_bind,
# $hosts_bind_given, $out.

hosts_listen= hosts_linger=5 hosts_linger_given=0 hosts_watching=0

# hosts_listen_check: --listen, --linger and the hosts' LISTENPORTs checked
# before anything runs.
hosts_listen_check() {
	if [ -z "$hosts_listen" ]; then
		[ "$hosts_linger_given" = 0 ] || die "--linger goes with --listen"
		[ -z "$hosts_lports" ] || die "host ${hosts_lports%% *}: a listen port" \
			"(HOST,FIOPORT,LISTENPORT) without --listen"
		return 0
	fi
	[ -n "$hosts_list" ] || die "--listen PORT goes with --host or --hosts: each host's" \
		"watcher serves its metrics (one host: nvanalyze watch --listen)"
	case $hosts_listen in
	*[!0-9]*|0*|'') die "--listen '$hosts_listen': a port from 1 to 65535";;
	esac
	[ "$hosts_listen" -le 65535 ] || die "--listen $hosts_listen: a port from 1 to 65535"
	case $hosts_linger in
	*[!0-9]*|'') die "--linger '$hosts_linger': whole seconds from 0 to 3600";;
	esac
	[ "$hosts_linger" -le 3600 ] || die "--linger $hosts_linger: whole seconds from 0 to 3600"
}

# The script that starts a host's watcher: ARGS dir nvanalyze name addr
# port.  Prints "NVWATCH ok", or "NVWATCH " and why not; exit 0 or 1.
hosts_remote_watch=$hosts_remote_listening'
d=$1 nva=$2 name=$3 addr=$4 port=$5
command -v "$nva" >/dev/null 2>&1 || { echo "NVWATCH no $nva on this host (install \
nvengine there, or give its path there in NVANALYZE_REMOTE)"; exit 1; }
"$nva" watch --help 2>&1 | grep -q -- --listen ||
	{ echo "NVWATCH $nva has no watch --listen (built without libmicrohttpd)"; exit 1; }
! listening "$port" ||
	{ echo "NVWATCH cannot listen on port $port: the port is in use (another watcher or \
exporter?): pick another port"; exit 1; }
nohup "$nva" watch --follow --format jsonl --host "$name" --listen "$addr" "$d/traces" \
	>"$d/watch.jsonl" 2>"$d/watch.err" </dev/null &
pid=$!
i=0
while [ $i -lt 200 ] && kill -0 $pid 2>/dev/null; do
	if listening "$port"; then
		echo $pid >"$d/watch.pid"
		echo "NVWATCH ok"
		exit 0
	fi
	sleep 0.1
	i=$((i + 1))
done
kill -INT $pid 2>/dev/null
echo "NVWATCH $(tail -n 2 "$d/watch.err" | tr "\n" " ")"
exit 1
'

# hosts_listen_port NAME: the watcher's port on host NAME.
hosts_listen_port() {
	local _p
	_p=$(printf '%s' "$hosts_lports" | awk -v h="$1" '$1 == h { print $2 }')
	echo "${_p:-$hosts_listen}"
}

# hosts_listen_start: with --listen, each prepared host's watcher started
# (one after another: two on one machine and port collide clearly) and
# the file_sd list written; any failure stops the run (die).
hosts_listen_start() {
	local _n _d _sp _fp _p _a _o _t
	[ -n "$hosts_listen" ] || return 0
	_t=$out/prometheus-targets.json
	printf '[' >"$_t.tmp" || die "cannot write $_t"
	while read -r _n _d _sp _fp; do
		[ -n "$_n" ] || continue
		_p=$(hosts_listen_port "$_n")
		_a=127.0.0.1
		[ "$hosts_bind_given" = 0 ] || _a=$hosts_bind
		case $_a in *:*) _a="[$_a]:$_p";; *) _a="$_a:$_p";; esac
		set -- $(cat "$hosts_st/$_n.run")
		_o=$(hosts_ssh "$_d" "$_sp" "sh -c $(shq "$hosts_remote_watch") sh \
			$(shq "$1") $(shq "${NVANALYZE_REMOTE:-nvanalyze}") $(shq "$_n") \
			$(shq "$_a") $_p" 2>&1)
		case $_o in
		*"NVWATCH ok"*) ;;
		*) rm -f "$_t.tmp"
		   die "host $_n: nvanalyze watch --listen $_a did not start:" \
			"$(printf '%s\n' "$_o" | sed -n 's/^NVWATCH //p' | tail -n 1)" \
			"$(printf '%s' "$_o" | grep -v NVWATCH | tail -n 2 | tr '\n' ' ')";;
		esac
		hosts_watching=1
		hosts_log "host $_n: nvanalyze watch --listen $_a (http://$_n:$_p/metrics)"
		[ "$(cat "$_t.tmp")" = '[' ] || printf ',' >>"$_t.tmp"
		# names are [A-Za-z0-9._-] (hosts_add): nothing to escape in JSON
		printf '\n  {"targets": ["%s:%s"], "labels": {"host": "%s"}}' "$_n" "$_p" "$_n" \
			>>"$_t.tmp"
	done <<EOF
$(hosts_alive)
EOF
	printf '\n]\n' >>"$_t.tmp" && mv "$_t.tmp" "$_t" || die "cannot write $_t"
	hosts_log "Prometheus targets of the fleet (file_sd): $_t"
}

# hosts_listen_end: after the last job file, the watchers' final state
# served --linger seconds more; hosts_cleanup stops them.
hosts_listen_end() {
	[ "$hosts_watching" = 1 ] || return 0
	if [ "$hosts_linger" -gt 0 ]; then
		hosts_log "the watchers serve the final state $hosts_linger s more" \
			"for the last scrape (--linger)"
		sleep "$hosts_linger"
	fi
	hosts_watching=0
}
