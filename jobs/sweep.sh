# jobs/sweep.sh: the load-curve modes of jobs/run (--sweep, --rounds,
# --search), sourced by it.  POSIX sh.  Each point of a sweep is one fio
# run of the job file as run with the swept options set in every job
# section (sections named precondition* run once, with the first point)
# and the sections renamed NAME@KEY=VALUE[,KEY=VALUE][,round=K], the names
# nvanalyze reads (docs/analysis.md, "Load curves").  Layout of DIR (-o):
#
#   DIR/FILE.fio                 the job file as run (no point applied)
#   DIR/FILE@TAG.fio, .json      each point's job file and fio JSON
#   DIR/FILE@TAG.json.failed     a point fio failed on (not read by nvanalyze)
#   DIR/FILE.points              one line a point: "TAG ok", "TAG failed:
#                                fio exited N" or "TAG not run"
#   DIR/traces/FILE/             every point's traces (named by job)
#
# Uses from jobs/run: die, $FIO, $engine, $NVDEV, $tmp, $top.

sweep_keys=		# the swept options, in the order given
sweep_vals=		# per option a line "KEY V1 V2 ..." (values as written)
sweep_range=		# "KEY LO HI" of the first --sweep when written as LO..HI
sweep_rounds=0		# --rounds N
sweep_sla=		# --search's SLA
sweep_specs=		# the --sweep options as given, read by sweep_add_all
sweep_kb_base=1024	# fio's kb_base of the job files (sweep_kb_base_of)

# sweep_bytes TEXT: a bs value ("4k", "64KiB", "1m", "512") in bytes on
# stdout, by fio's rules (parse.c, HOWTO "kb_base"): k, kb, m, mb, g, gb
# are powers of $sweep_kb_base, and kib, mib, gib of the other base
# (kb_base=1024, the default: 1KiB is 1000 bytes; kb_base=1000: 1024),
# case-insensitive; nothing for a malformed one.
sweep_bytes() {
	local _num _k=$sweep_kb_base _i=1000
	[ "$_k" = 1024 ] || _i=1024
	_num=${1%%[!0-9]*}
	[ -n "$_num" ] || return 0
	case $(printf '%s' "${1#"$_num"}" | tr 'A-Z' 'a-z') in
	''|b) echo $((_num));;
	k|kb) echo $((_num * _k));;
	kib) echo $((_num * _i));;
	m|mb) echo $((_num * _k * _k));;
	mib) echo $((_num * _i * _i));;
	g|gb) echo $((_num * _k * _k * _k));;
	gib) echo $((_num * _i * _i * _i));;
	esac
}

# sweep_text KEY N: the value N of KEY as written in a name (bs: 4k, 1m,
# in $sweep_kb_base's units, so that fio reads back N).
sweep_text() {
	local _k=$sweep_kb_base
	if [ "$1" = bs ] && [ $(($2 % (_k * _k))) -eq 0 ]; then echo "$(($2 / (_k * _k)))m"
	elif [ "$1" = bs ] && [ $(($2 % _k)) -eq 0 ]; then echo "$(($2 / _k))k"
	else echo "$2"; fi
}

# sweep_kb_base_of JOBFILE... -- FIO_ARGS...: $sweep_kb_base, each job
# file's kb_base= (else fio's --kb_base=, else fio's default 1024: fio
# lets a job file's option win); dies when the job files' differ (a bs
# value would mean two sizes).
sweep_kb_base_of() {
	local _f _v _arg=1024 _files= _all=
	for _f; do
		case $_f in
		--kb_base=*) _arg=${_f#--kb_base=};;
		-*) ;;
		*) _files="$_files $_f";;
		esac
	done
	for _f in $_files; do
		_v=$(sed -n \
			's/^[[:space:]]*kb_base[[:space:]]*=[[:space:]]*\([0-9]*\).*/\1/p' "$_f" |
			tr '\n' ' ')
		_all="$_all ${_v:-$_arg}"
	done
	_v=$(echo $_all | tr ' ' '\n' | sort -u | tr '\n' ' ')
	case $_v in
	''|'1024 ') sweep_kb_base=1024;;
	'1000 ') sweep_kb_base=1000;;
	*) die "--sweep bs: the job files set kb_base=$(echo $_v | tr ' ' ,):" \
		"a bs value would mean different sizes; run them separately";;
	esac
}

# sweep_add_all: sweep_add each --sweep option given (after
# sweep_kb_base_of: a bs value's bytes depend on it).
sweep_add_all() {
	local _sp
	for _sp in $sweep_specs; do sweep_add "$_sp"; done
}

# sweep_num KEY TEXT: TEXT as a number (bytes for bs), or die naming it.
sweep_num() {
	local _n
	case $1 in
	bs) _n=$(sweep_bytes "$2")
	    [ -n "$_n" ] && [ "$_n" -gt 0 ] ||
		die "--sweep bs=$2: a block size such as 512, 4k, 64k or 1m"
	    echo "$_n";;
	*) case $2 in ''|*[!0-9]*) die "--sweep $1=$2: a whole number";; esac
	   echo "$2";;
	esac
}

# sweep_add SPEC: one --sweep KEY=V1,V2,... or KEY=LO..HI (doubling from LO,
# HI the last point) into $sweep_keys and $sweep_vals.
sweep_add() {
	local _k _l _v _lo _hi _x
	_k=${1%%=*}
	_l=${1#*=}
	case $1 in *=?*) ;; *) die "--sweep '$1': write KEY=V1,V2,... or KEY=LO..HI";; esac
	case $_k in
	iodepth|numjobs|bs|rwmixread) ;;
	blocksize) _k=bs;;
	*) die "--sweep '$1': sweep iodepth, numjobs, bs or rwmixread";;
	esac
	case " $sweep_keys " in *" $_k "*) die "--sweep $_k given twice";; esac
	[ "$(echo $sweep_keys | wc -w)" -lt 2 ] ||
		die "--sweep $1: at most two swept options (a matrix)"
	_v=
	case $_l in
	*..*)
		_lo=$(sweep_num "$_k" "${_l%%..*}") || exit 2
		_hi=$(sweep_num "$_k" "${_l#*..}") || exit 2
		[ "$_lo" -gt 0 ] && [ "$_hi" -ge "$_lo" ] ||
			die "--sweep $_k=$_l: a range LO..HI with 0 < LO <= HI (doubling from LO)"
		[ -n "$sweep_keys" ] || sweep_range="$_k $_lo $_hi"
		_x=$_lo
		while [ "$_x" -lt "$_hi" ]; do
			_v="$_v $(sweep_text "$_k" "$_x")"
			_x=$((_x * 2))
		done
		_v="$_v $(sweep_text "$_k" "$_hi")";;
	*)
		for _x in $(echo "$_l" | tr ',' ' '); do
			sweep_num "$_k" "$_x" >/dev/null || exit 2
			_v="$_v $_x"
		done;;
	esac
	sweep_keys="$sweep_keys $_k"
	sweep_vals="$sweep_vals$_k$_v
"
}

# sweep_lbs TARGET: the logical block size of TARGET from sysfs: a block
# device's, an NVMe generic device's (/dev/ngXnY: nvmeXnY's), or with
# NVDIRECT=1 a file's device's; nothing when it cannot be known.
sweep_lbs() {
	local _mm _d
	if [ -b "$1" ]; then
		_mm=$(stat -L -c '%t %T' "$1" 2>/dev/null) || return 0
		_mm="$((0x${_mm% *})):$((0x${_mm#* }))"
	elif [ -c "$1" ]; then
		_d=$(basename "$1")
		case $_d in
		ng*n*) cat "/sys/block/nvme${_d#ng}/queue/logical_block_size" 2>/dev/null;;
		esac
		return 0
	elif [ -f "$1" ] && [ "${NVDIRECT:-1}" = 1 ]; then
		_d=$(stat -L -c '%d' "$1" 2>/dev/null) || return 0
		_mm="$(((_d >> 8) & 0xfff)):$(((_d & 0xff) | ((_d >> 12) & 0xfff00)))"
	else
		return 0
	fi
	cat "/sys/dev/block/$_mm/queue/logical_block_size" 2>/dev/null ||
		cat "/sys/dev/block/$_mm/../queue/logical_block_size" 2>/dev/null
}

# sweep_check_values: every value of every swept option valid, before
# anything runs; bs a multiple of each target's logical block size.
sweep_check_values() {
	local _k _vs _x _n _r _t _b
	while read -r _k _vs; do
		[ -n "$_k" ] || continue
		for _x in $_vs; do
			_n=$(sweep_num "$_k" "$_x") || exit 2
			case $_k in
			iodepth) [ "$_n" -ge 1 ] && [ "$_n" -le 65535 ] ||
				die "--sweep iodepth=$_x: a queue depth from 1 to 65535";;
			numjobs) [ "$_n" -ge 1 ] && [ "$_n" -le 4096 ] ||
				die "--sweep numjobs=$_x: a number of jobs from 1 to 4096";;
			rwmixread) [ "$_n" -le 100 ] ||
				die "--sweep rwmixread=$_x: a read share from 0 to 100 (%)";;
			bs)
				_r=$NVDEV
				while [ -n "$_r" ]; do
					_t=${_r%%:*}
					case $_r in *:*) _r=${_r#*:};; *) _r=;; esac
					_b=$(sweep_lbs "$_t")
					[ -z "$_b" ] || [ $((_n % _b)) -eq 0 ] ||
						die "--sweep bs=$_x: $_n bytes is not a" \
						    "multiple of the logical block size of" \
						    "$_t ($_b bytes); use multiples of $_b"
				done;;
			esac
		done
	done <<EOF
$sweep_vals
EOF
	case " $sweep_keys " in
	*" iodepth "*)
		case ${engine:-} in sync|psync|vsync|pvsync|pvsync2)
			die "--sweep iodepth: -e $engine is synchronous (one IO at a time):" \
			    "iodepth does nothing there; sweep numjobs, or use an async engine";;
		esac;;
	esac
}

# sweep_check_file AS_RUN JOBFILE: each swept option used by AS_RUN's job
# sections (rwmixread needs a mixed rw=), else die naming the section.
sweep_check_file() {
	local _bad
	case " $sweep_keys " in *" rwmixread "*) ;; *) return 0;; esac
	_bad=$(awk '/^\[/ { sec = substr($0, 2, index($0, "]") - 2)
			if (sec != "global" && sec !~ /^precondition/) jobs[++n] = sec; next }
		/^[[:space:]]*(rw|readwrite)[[:space:]]*=/ { v = $0
			sub(/^[^=]*=[[:space:]]*/, "", v)
			sub(/:.*/, "", v); rw[sec == "" ? "global" : sec] = v }
		END { for (i = 1; i <= n; i++) { r = (jobs[i] in rw) ? rw[jobs[i]] : rw["global"]
			if (r !~ /^(rw|readwrite|randrw|trimwrite)$/) {
				print jobs[i] " " (r == "" ? "read" : r); exit } } }' "$1")
	[ -z "$_bad" ] || die "--sweep rwmixread: $2 section [${_bad%% *}] has rw=${_bad#* }," \
		"not a mix: rwmixread does nothing there; sweep it on a randrw or rw job"
}

# sweep_points: one line per point, "TAG KEY=V KEY=V ...", in run order:
# rounds outermost, then the first swept option, then the second.
sweep_points() {
	printf '%s' "$sweep_vals" | awk -v rounds="$sweep_rounds" '
		{ key[++n] = $1; nv[n] = NF - 1; for (i = 2; i <= NF; i++) val[n, i - 1] = $i }
		END {
			np = 0
			if (n == 0) pts[++np] = ""
			for (a = 1; n && a <= nv[1]; a++) {
				t1 = key[1] "=" val[1, a]
				if (n == 1) { pts[++np] = t1; continue }
				for (b = 1; b <= nv[2]; b++)
					pts[++np] = t1 "," key[2] "=" val[2, b]
			}
			for (r = 1; r <= (rounds > 0 ? rounds : 1); r++)
				for (p = 1; p <= np; p++) {
					t = pts[p]
					if (rounds > 0) t = (t == "" ? "" : t ",") "round=" r
					s = pts[p]; gsub(/,/, " ", s)
					print t " " s
				}
		}'
}

# sweep_point_file AS_RUN TAG SETTINGS FIRST: the point's job file on
# stdout: each job section renamed NAME@TAG with SETTINGS (KEY=V ...) set
# in it (its own lines setting them dropped); precondition* sections kept
# unchanged when FIRST is 1, else left out.
sweep_point_file() {
	awk -v tag="$2" -v set="$3" -v first="$4" '
		BEGIN { ns = split(set, s, " "); for (i = 1; i <= ns; i++) {
			k = s[i]; sub(/=.*/, "", k); drop[k] = 1 }
			if ("bs" in drop) drop["blocksize"] = 1
			if ("rwmixread" in drop) drop["rwmixwrite"] = 1 }
		/^\[/ { sec = substr($0, 2, index($0, "]") - 2); skip = 0; job = 0
			if (sec == "global") { print; next }
			if (sec ~ /^precondition/) { skip = !first; if (!skip) print; next }
			job = 1; print "[" sec "@" tag "]"
			for (i = 1; i <= ns; i++) print s[i]
			next }
		skip { next }
		job { k = $0; sub(/^[[:space:]]*/, "", k); sub(/[[:space:]]*(=.*)?$/, "", k)
			if (k in drop) next }
		{ print }' "$1"
}

# sweep_parse AS_RUN JOB NAME FIO_ARGS...: -n: each point's job file
# checked by fio --parse-only and listed, "NAME@TAG: SECTION@TAG ...".
# Return: 0, or fio's status.
sweep_parse() {
	_ar=$1 _jb=$2 _nm=$3
	shift 3
	sweep_check_file "$_ar" "$_jb"
	_first=1
	sweep_points >"$tmp.pts"
	while read -r _tag _set; do
		sweep_point_file "$_ar" "$_tag" "$_set" $_first >"$tmp.pt.fio"
		_first=0
		"$FIO" --parse-only "$@" "$tmp.pt.fio" </dev/null || return $?
		echo "$_nm@$_tag: $(sed -n 's/^\[\(.*@.*\)\]$/\1/p' "$tmp.pt.fio" | tr '\n' ' ')"
	done <"$tmp.pts"
	[ -z "$sweep_sla" ] || echo "$_nm: --search '$sweep_sla': these points in order" \
		"until one fails it, then bisection (12 points at most)"
	rm -f "$tmp.pts" "$tmp.pt.fio"
}

# sweep_meets JSON TAG: whether the point's jobs meet $sweep_sla, by
# nvanalyze --claim (exact from the traces where traced).  Return: 0 met,
# 1 not met; dies when nvanalyze cannot tell (an error, no such metric).
sweep_meets() {
	local _st
	"$sweep_nva" -j "*@$2" --claim "$sweep_sla" --format text "$1" >"$tmp.claim" 2>&1
	_st=$?
	[ $_st -le 1 ] || die "--search: nvanalyze on $1 failed: $(tail -n 2 "$tmp.claim")"
	return $_st
}

# sweep_run_point JOB NAME TAG SETTINGS FIRST: the point's job file
# DIR/NAME@TAG.fio run by fio into DIR/NAME@TAG.json (renamed .json.failed
# when fio fails), its line in DIR/NAME.points.  Return: fio's status.
sweep_run_point() {
	local _pj=$1 _pf=$2 _pt=$3 _pn="$2@$3" _st
	sweep_point_file "$out/$2.fio" "$3" "$4" "$5" >"$out/$_pn.fio" || return 2
	echo "jobs/run: $1 point $3 -> $out/$_pn.json" >&2
	eval "set -- $fioargs"
	progress "$_pn" "$out/$_pn.fio" 0 &
	ticker=$!
	sweep_cur="$_pf $_pt"
	run_fg "$FIO" --output-format=json+ --output="$out/$_pn.json" "$@" "$out/$_pn.fio"
	_st=$?
	sweep_cur=
	kill "$ticker" 2>/dev/null
	ticker=
	if [ $_st -ne 0 ]; then
		mv -f "$out/$_pn.json" "$out/$_pn.json.failed" 2>/dev/null
		echo "$_pt failed: fio exited $_st" >>"$out/$_pf.points"
		echo "jobs/run: fio exited $_st on point $_pt of $_pj; its output:" \
			"$out/$_pn.json.failed; the points before it are kept" >&2
	else
		echo "$_pt ok" >>"$out/$_pf.points"
		live_curve
	fi
	return $_st
}

# sweep_interrupted SIG: the point running when SIG came (if any): its
# JSON kept as .json.failed, "TAG interrupted: SIGSIG" in FILE.points.
sweep_cur=
sweep_interrupted() {
	[ -n "$sweep_cur" ] || return 0
	mv -f "$out/${sweep_cur%% *}@${sweep_cur#* }.json" \
		"$out/${sweep_cur%% *}@${sweep_cur#* }.json.failed" 2>/dev/null
	echo "${sweep_cur#* } interrupted: SIG$1" >>"$out/${sweep_cur%% *}.points"
	sweep_cur=
}

# sweep_run JOB NAME: every point of JOB in turn (stopping at the first
# that fails: the rest are listed "not run"), or --search's.
# Return: 0, or the failed point's fio status.
sweep_run() {
	local _tag _set _first=1 _failed=0
	: >"$out/$2.points"
	[ -z "$sweep_sla" ] || { sweep_search "$1" "$2"; return $?; }
	sweep_points >"$tmp.pts"
	while read -r _tag _set; do
		if [ $_failed -ne 0 ]; then
			echo "$_tag not run" >>"$out/$2.points"
			continue
		fi
		sweep_run_point "$1" "$2" "$_tag" "$_set" $_first </dev/null || _failed=$?
		_first=0
	done <"$tmp.pts"
	rm -f "$tmp.pts"
	return $_failed
}

# sweep_search JOB NAME: the highest value of the one swept option (iodepth
# or numjobs) meeting $sweep_sla: the sweep's points in increasing order
# (LO..HI: doubling) until the first that fails it, then bisection between
# the last that meets it and that one, until they are adjacent; 12 points
# in all at most, in both phases.
# Return: 0, or a failed point's fio status.
sweep_search() {
	local _k _good= _bad= _n=0 _first=1 _v _r
	_k=$(echo $sweep_keys)
	# in increasing order (a list may be written in any), 12 points at most
	for _v in $(printf '%s' "$sweep_vals" | sed "s/^$_k //" | tr ' ' '\n' | sort -n -u); do
		[ $_n -lt 12 ] || break
		sweep_run_point "$1" "$2" "$_k=$_v" "$_k=$_v" $_first || return $?
		_first=0 _n=$((_n + 1))
		if sweep_meets "$out/$2@$_k=$_v.json" "$_k=$_v"; then
			_good=$_v
		else
			_bad=$_v
		fi
		live_bracket "$_k" "$_good" "$_bad"
		[ -z "$_bad" ] || break
	done
	while [ -n "$_good" ] && [ -n "$_bad" ] && [ $((_bad - _good)) -gt 1 ] &&
		[ $_n -lt 12 ]; do
		_v=$(((_good + _bad) / 2))
		sweep_run_point "$1" "$2" "$_k=$_v" "$_k=$_v" 0 || return $?
		_n=$((_n + 1))
		if sweep_meets "$out/$2@$_k=$_v.json" "$_k=$_v"; then _good=$_v; else _bad=$_v; fi
		live_bracket "$_k" "$_good" "$_bad"
	done
	if [ -z "$_good" ]; then
		_r="no point meets it: $_k=$_bad does not"
	elif [ -z "$_bad" ]; then
		_r="every point meets it, up to $_k=$_good"
		[ "$_good" = "$(printf '%s' "$sweep_vals" | tr ' ' '\n' | sed 1d | sort -n |
			tail -n 1)" ] || _r="$_r (stopped at 12 points)"
	else
		_r="$_k=$_good meets it, $_k=$_bad does not"
		[ $((_bad - _good)) -le 1 ] || _r="$_r (stopped at 12 points)"
	fi
	echo "search $sweep_sla: $_r; $_n points" >>"$out/$2.points"
	echo "jobs/run: --search '$sweep_sla' on $1: $_r ($_n points run; see" \
		"nvanalyze --sla '$sweep_sla' $out)" >&2
	return 0
}
